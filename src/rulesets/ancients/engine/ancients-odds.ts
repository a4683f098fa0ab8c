/**
 * Exact Ancients odds (docs/rules/ancients.md, A1–A8), by convolution — never by listing rolls or simulating.
 *
 * Every die of an attack ends as an unsaved hit on its target with probability
 * P(hit, A4) × P(not saved, A5), independently, so one attack's unsaved hits are binomial, and a
 * unit's unsaved hits are the convolution of the attacks aimed at it (A2 splits give each attack
 * its own dice). Different units' hits use different dice, so they are independent; the only
 * coupling is A7's winning side (+1 to the side with fewer unsaved hits in all). For each unit and
 * each count h of its own hits, the chance its side wins is P(h + rest of its side < other side),
 * from the convolution of its side's other units and the other side's total. The break test
 * (2d6 or 1d6 plus modifiers against leadership) is then read off for "wins" and "does not win".
 * Every number of the rules comes from the tables in force (engine/ancients-tables.ts), as in the resolver.
 */
import {
    ANCIENTS_RESULTS, attackPlan, saveFor, testModifiers, testResult, thresholdFor,
    type AncientsInput, type AncientsResult, type AncientsSide, type AncientsUnit
} from './ancients-engine.js';
import { ANCIENTS_SEED_TABLES, type AncientsTables } from './ancients-tables.js';
import { meanAndSd } from '../../../core/distributions.js';

type AncientsLabelOdds = Record<AncientsResult, number>;

interface AncientsUnitOdds {
    readonly id: string;
    readonly force: string;
    readonly unit: string;
    readonly side: AncientsSide;
    /** hits[h] = P(exactly h unsaved hits taken). */
    readonly hits: number[];
    readonly expectedHits: number;
    /** The standard deviation of its unsaved hits (of `hits`). */
    readonly sdHits: number;
    /** P(at least its threshold in unsaved hits): it takes a break test (A6). */
    readonly tested: number;
    readonly probabilities: AncientsLabelOdds;
    /** Expected damage tokens gained (A8). */
    readonly expectedTokens: number;
    readonly sdTokens: number;
}

interface AncientsSideOdds {
    readonly side: AncientsSide;
    readonly forces: readonly string[];
    readonly expected: AncientsLabelOdds;
    /** The standard deviation of the number of the side's units with each result, from its exact law. */
    readonly sd: AncientsLabelOdds;
    /** P(at least one of the side's units is tested / gives ground / is destroyed). */
    readonly atLeastOne: Readonly<Record<'tested' | 'gives-ground' | 'destroyed', number>>;
    readonly expectedHits: number;
    readonly sdHits: number;
    /** P(the side took fewer unsaved hits than the other: it has A7's +1). */
    readonly wins: number;
}

export interface AncientsOdds {
    /** In the input's order (attackers, then defenders). */
    readonly units: readonly AncientsUnitOdds[];
    readonly sides: readonly [AncientsSideOdds, AncientsSideOdds];
    /** P(both sides took the same number of unsaved hits: nobody has the +1). */
    readonly tie: number;
}

/** P(one d6 shows `score` or more); a score of 1 or less always succeeds (no save: 7 never does). */
function chanceOf(score: number): number {
    return Math.min(6, Math.max(0, 7 - score)) / 6;
}

/** The law of the number of successes in n trials of chance p. */
function binomial(n: number, p: number): Float64Array {
    const dist = new Float64Array(n + 1);
    dist[0] = 1;
    for (let i = 0; i < n; i++) {
        for (let k = i + 1; k >= 1; k--) dist[k] = dist[k] * (1 - p) + dist[k - 1] * p;
        dist[0] *= 1 - p;
    }
    return dist;
}

/** The law of the sum of two independent counts. */
function convolve(a: Float64Array, b: Float64Array): Float64Array {
    const out = new Float64Array(a.length + b.length - 1);
    for (let i = 0; i < a.length; i++) {
        if (a[i] === 0) continue;
        for (let j = 0; j < b.length; j++) out[i + j] += a[i] * b[j];
    }
    return out;
}

/**
 * The law of unsaved hits from `dice` dice needing `toHit`, against a save of `saveOn` (null: no
 * save). Each die is an unsaved hit with chance P(hit) · P(save fails).
 */
export function unsavedHits(dice: number, toHit: number, saveOn: number | null): Float64Array {
    return binomial(dice, chanceOf(toHit) * (1 - (saveOn === null ? 0 : chanceOf(saveOn))));
}

export function mean(dist: ArrayLike<number>): number {
    let m = 0;
    for (let h = 0; h < dist.length; h++) m += h * dist[h];
    return m;
}

/** The law of the break test's dice (A7): 1d6 or the sum of 2d6, indexed by total. */
function testRollLaw(dice: 1 | 2): Float64Array {
    let law: Float64Array = new Float64Array(7);
    for (let f = 1; f <= 6; f++) law[f] = 1 / 6;
    if (dice === 2) law = convolve(law, law);
    return law;
}

/** P(each result) of a break test with h hits, when the unit's side does (`wins`) or does not win. */
function testOdds(unit: AncientsUnit, h: number, threshold: number, wins: boolean, roll: Float64Array, tables: AncientsTables): Float64Array {
    const mod = testModifiers(unit, h, threshold, wins ? unit.side : null, tables).reduce((s, m) => s + m.value, 0);
    const out = new Float64Array(ANCIENTS_RESULTS.length);
    for (let r = 0; r < roll.length; r++) {
        if (roll[r] > 0) out[ANCIENTS_RESULTS.indexOf(testResult(r + mod, unit.leadership))] += roll[r];
    }
    return out;
}

/** Each unit's law of unsaved hits taken (independent across units). */
function hitLaws(input: AncientsInput, tables: AncientsTables): Map<string, Float64Array> {
    const byId = new Map(input.units.map(u => [u.id, u]));
    const laws = new Map<string, Float64Array>(input.units.map(u => [u.id, Float64Array.of(1)]));
    for (const a of attackPlan(input, tables)) {
        const target = byId.get(a.target);
        if (!target || a.dice <= 0) continue;
        laws.set(a.target, convolve(laws.get(a.target)!, unsavedHits(a.dice, a.toHit, saveFor(target.weight, tables))));
    }
    return laws;
}

/** The sum of all but one of `laws`, for each one (prefix and suffix convolutions). */
function leaveOneOut(laws: readonly Float64Array[]): Float64Array[] {
    const prefix: Float64Array[] = [Float64Array.of(1)];
    for (const l of laws) prefix.push(convolve(prefix[prefix.length - 1], l));
    const out = new Array<Float64Array>(laws.length);
    let suffix: Float64Array = Float64Array.of(1);
    for (let i = laws.length - 1; i >= 0; i--) {
        out[i] = convolve(prefix[i], suffix);
        suffix = convolve(suffix, laws[i]);
    }
    return out;
}

/** above[t] = P(total > t), for t = −1 … (read as above[t + 1]). */
function strictlyAbove(law: Float64Array): (t: number) => number {
    const tail = new Float64Array(law.length + 1);
    for (let t = law.length - 1; t >= 0; t--) tail[t] = tail[t + 1] + law[t];
    return (t: number) => (t + 1 < 0 ? 1 : t + 1 >= tail.length ? 0 : tail[t + 1]);
}

const record = (v: ArrayLike<number>) => Object.fromEntries(ANCIENTS_RESULTS.map((l, i) => [l, v[i]])) as AncientsLabelOdds;

export function ancientsOdds(input: AncientsInput, tables: AncientsTables = ANCIENTS_SEED_TABLES): AncientsOdds {
    const laws = hitLaws(input, tables);
    const roll = testRollLaw(input.breakDice);
    const sides: AncientsSide[] = ['attacker', 'defender'];
    const members = (s: AncientsSide) => input.units.filter(u => u.side === s);
    const totals = new Map(sides.map(s => [s, members(s).reduce<Float64Array>((acc, u) => convolve(acc, laws.get(u.id)!), Float64Array.of(1))]));
    const otherAbove = new Map(sides.map(s => [s, strictlyAbove(totals.get(s === 'attacker' ? 'defender' : 'attacker')!)]));
    const unitOdds = new Map<string, AncientsUnitOdds>();
    const perResult = new Map<string, { win: Float64Array[], lose: Float64Array[] }>();
    for (const side of sides) {
        const list = members(side);
        const rest = leaveOneOut(list.map(u => laws.get(u.id)!));
        const above = otherAbove.get(side)!;
        list.forEach((u, i) => {
            const hits = laws.get(u.id)!;
            const threshold = thresholdFor(u.size, tables);
            const probs = new Float64Array(ANCIENTS_RESULTS.length);
            const win: Float64Array[] = [], lose: Float64Array[] = [];
            let tokens = 0;
            // tokensLaw[t] = P(it gains t tokens): the law its sd is read from.
            const tokensLaw: number[] = [];
            for (let h = 0; h < hits.length; h++) {
                win.push(h < threshold ? untested() : testOdds(u, h, threshold, true, roll, tables));
                lose.push(h < threshold ? untested() : testOdds(u, h, threshold, false, roll, tables));
                if (hits[h] === 0) continue;
                // P(its side wins | it took h) = P(h + the rest of its side < the other side).
                let pWin = 0;
                rest[i].forEach((p, s) => { pWin += p * above(h + s); });
                for (let l = 0; l < probs.length; l++) {
                    const p = hits[h] * (pWin * win[h][l] + (1 - pWin) * lose[h][l]);
                    probs[l] += p;
                    const gained = ANCIENTS_RESULTS[l] === 'holds' || ANCIENTS_RESULTS[l] === 'gives-ground' ? Math.floor(h / threshold) : 0;
                    tokens += p * gained;
                    while (tokensLaw.length <= gained) tokensLaw.push(0);
                    tokensLaw[gained] += p;
                }
            }
            perResult.set(u.id, { win, lose });
            unitOdds.set(u.id, {
                id: u.id, force: u.force, unit: u.unit, side: u.side, hits: [...hits], expectedHits: mean(hits), sdHits: meanAndSd(hits).sd,
                tested: 1 - probs[ANCIENTS_RESULTS.indexOf('untested')], probabilities: record(probs), expectedTokens: tokens,
                sdTokens: meanAndSd(tokensLaw).sd
            });
        });
    }
    const sideOdds = (side: AncientsSide): AncientsSideOdds => {
        const list = members(side);
        const expected = new Float64Array(ANCIENTS_RESULTS.length);
        for (const u of list) ANCIENTS_RESULTS.forEach((l, i) => { expected[i] += unitOdds.get(u.id)!.probabilities[l]; });
        const counts = ANCIENTS_RESULTS.map(label => countOnSide(list, laws, perResult, label, otherAbove.get(side)!));
        const none = (label: AncientsResult) => Math.min(1, Math.max(0, counts[ANCIENTS_RESULTS.indexOf(label)][0]));
        return {
            side, forces: [...new Set(list.map(u => u.force))], expected: record(expected), sd: record(counts.map(c => meanAndSd(c).sd)),
            atLeastOne: {
                tested: 1 - list.reduce<number>((p, u) => p * (1 - unitOdds.get(u.id)!.tested), 1),
                'gives-ground': 1 - none('gives-ground'),
                destroyed: 1 - none('destroyed')
            },
            expectedHits: mean(totals.get(side)!), sdHits: meanAndSd(totals.get(side)!).sd,
            wins: winChance(totals.get(side)!, otherAbove.get(side)!)
        };
    };
    const att = sideOdds('attacker'), def = sideOdds('defender');
    return { units: input.units.map(u => unitOdds.get(u.id)!), sides: [att, def], tie: Math.max(0, 1 - att.wins - def.wins) };
}

function untested(): Float64Array {
    const out = new Float64Array(ANCIENTS_RESULTS.length);
    out[ANCIENTS_RESULTS.indexOf('untested')] = 1;
    return out;
}

function winChance(own: Float64Array, otherAbove: (t: number) => number): number {
    let p = 0;
    own.forEach((q, s) => { p += q * otherAbove(s); });
    return p;
}

/**
 * The law of the number of the side's units that get `label`: law[k] = P(exactly k of them). Given
 * the hits, break tests are independent, so carry each unit's hit law with the count so far, split by
 * P(label | h, win) and by P(label | h, no win), convolve over the side (a law over (total hits,
 * count)), and settle "win" against the other side's total. law[0] is P(no unit gets it).
 */
function countOnSide(list: readonly AncientsUnit[], laws: ReadonlyMap<string, Float64Array>,
    perResult: ReadonlyMap<string, { win: Float64Array[], lose: Float64Array[] }>, label: AncientsResult,
    otherAbove: (t: number) => number): Float64Array {
    const l = ANCIENTS_RESULTS.indexOf(label);
    // joint[s][k] = P(the units so far took s hits in all and k of them got the label, and the side wins / does not).
    let ifWin: Float64Array[] = [Float64Array.of(1)], ifNot: Float64Array[] = [Float64Array.of(1)];
    for (const u of list) {
        const hits = laws.get(u.id)!, res = perResult.get(u.id)!;
        ifWin = convolveCounting(ifWin, hits, h => res.win[h][l]);
        ifNot = convolveCounting(ifNot, hits, h => res.lose[h][l]);
    }
    const law = new Float64Array(list.length + 1);
    for (let s = 0; s < ifWin.length; s++) {
        const pWin = otherAbove(s);
        for (let k = 0; k < law.length; k++) law[k] += (ifWin[s][k] ?? 0) * pWin + (ifNot[s][k] ?? 0) * (1 - pWin);
    }
    return law;
}

/**
 * One more unit folded into joint[s][k] (total hits, count so far): it takes h hits with chance
 * hits[h], and then gets the label (k + 1) with chance `gets(h)`. Its "no label" part is convolved
 * exactly as a plain law of hits would be.
 */
function convolveCounting(joint: readonly Float64Array[], hits: Float64Array, gets: (h: number) => number): Float64Array[] {
    const width = joint[0].length + 1;
    const out = Array.from({ length: joint.length + hits.length - 1 }, () => new Float64Array(width));
    const without = hits.map((p, h) => p * (1 - gets(h)));
    const withIt = hits.map((p, h) => p * gets(h));
    for (let s = 0; s < joint.length; s++) {
        for (let k = 0; k < joint[s].length; k++) {
            const q = joint[s][k];
            if (q === 0) continue;
            for (let h = 0; h < hits.length; h++) {
                out[s + h][k] += q * without[h];
                out[s + h][k + 1] += q * withIt[h];
            }
        }
    }
    return out;
}
