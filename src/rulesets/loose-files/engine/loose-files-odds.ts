/**
 * Exact Loose Files odds (docs/rules/loose-files.md, L2–L5), by convolution over dice laws — never by listing rolls.
 *
 * Combat (L2, L3): each side's total is its average die plus fixed modifiers, so the difference is
 * the convolution of one die's law with the other's, mirrored; each side reads its row, DPs and
 * casualties from its own difference with the engine's own table functions.
 * Fire (L4, L5): every d6 of a fire is independent and does (DPs, casualties) by the engine's own
 * per-die rules (a skirmisher's 5 adds a re-roll: 4+ is a DP), so the totals are the n-fold
 * convolution of one die's joint law: O(n²) per fire.
 * Movement (L6): inches and low d6 of every die are independent, so (distance, DPs) is again a
 * convolution over the dice, followed by the fixed parts of the move.
 */
import { AVERAGE, D6, faceDistribution } from '../../../core/dice.js';
import { COMBAT_RESULTS, combatModifiers, combatResultFor, rowCasualties, type CombatInput, type CombatResult } from './loose-files-combat.js';
import { artilleryEffect, dpFor, LF_SEED_TABLES, type LfCombatTables } from './loose-files-tables.js';
import { fireBand, fireDice, fireKind, artilleryModifiers, type FireInput, type FireResult } from './loose-files-fire.js';
import { disorderingFace, fixedMoveDp, formationChangeDp, inchesLostPerDie, moveDiceCounts, retiringInches, type MoveInput, type MoveResult } from './loose-files-movement.js';
import { casualtiesTaken, isFormed, presentStands, sumModifiers, takesNoLosses } from './loose-files-units.js';

export const FIRE_RESULTS: readonly FireResult[] = ['no-effect', 'disordered', 'casualty'];

export interface CombatSideOdds {
    readonly probabilities: Record<CombatResult, number>;
    /** dp[k] = P(the side's row gives k DPs) — every unit of the side takes them. */
    readonly dp: number[];
    /** casualties[k] = P(the leading unit loses k stands). */
    readonly casualties: number[];
    readonly total: number[];
    /** The side's fixed modifier (L2). */
    readonly modifier: number;
}

export interface CombatOdds {
    readonly attacker: CombatSideOdds;
    readonly defender: CombatSideOdds;
}

/** The law of a side's own difference (own total − enemy total), as value → probability. */
function differenceLaw(ownMod: number, enemyMod: number): Map<number, number> {
    const law = new Map<number, number>();
    const faces = faceDistribution(AVERAGE);
    for (const a of faces) for (const b of faces) {
        const d = a.face + ownMod - (b.face + enemyMod);
        law.set(d, (law.get(d) ?? 0) + a.p * b.p);
    }
    return law;
}

/** The largest index a law may reach: a class or modifier of 10^16 in a broken file must not grow an array to match. */
const MAX_LAW_INDEX = 100_000;

function addAt(arr: number[], k: number, p: number): void {
    // Thrown, and caught by oddsForAction as "could not compute": never a fatal allocation.
    if (!Number.isSafeInteger(k) || k < 0 || k > MAX_LAW_INDEX) throw new RangeError(`a value of ${k} is outside what the odds tabulate`);
    while (arr.length <= k) arr.push(0);
    arr[k] += p;
}

export function combatOdds(input: CombatInput, tables: LfCombatTables = LF_SEED_TABLES): CombatOdds {
    const aMod = sumModifiers(combatModifiers(input.attacker, input.defender, false, tables));
    const dMod = sumModifiers(combatModifiers(input.defender, input.attacker, true, tables));
    const side = (role: 'attacker' | 'defender'): CombatSideOdds => {
        const own = role === 'attacker' ? input.attacker : input.defender;
        const foe = role === 'attacker' ? input.defender : input.attacker;
        const [mine, theirs] = role === 'attacker' ? [aMod, dMod] : [dMod, aMod];
        const probabilities = Object.fromEntries(COMBAT_RESULTS.map(r => [r, 0])) as Record<CombatResult, number>;
        const dp: number[] = [], casualties: number[] = [], total: number[] = [];
        for (const [diff, p] of differenceLaw(mine, theirs)) {
            probabilities[combatResultFor(diff, tables)] += p;
            addAt(dp, dpFor(tables, diff), p);
            addAt(casualties, casualtiesTaken(own.units[0], rowCasualties(diff, own, foe, role === 'defender', tables).casualties).taken, p);
        }
        for (const { face, p } of faceDistribution(AVERAGE)) if (face + mine >= 0) addAt(total, face + mine, p);
        return { probabilities, dp, casualties, total, modifier: mine };
    };
    return { attacker: side('attacker'), defender: side('defender') };
}

export interface FireOdds {
    readonly dice: number;
    readonly probabilities: Record<FireResult, number>;
    readonly dp: number[];
    readonly casualties: number[];
    readonly expectedDp: number;
    readonly expectedCasualties: number;
}

/**
 * One d6 of this fire: P(dp, casualties) as a table [dp][cas], as large as the tables in force make it
 * and never smaller than the sheet's 3 × 2 (so that the laws the odds print keep their length).
 */
function perDieLaw(input: FireInput, tables: LfCombatTables): number[][] {
    const law: number[][] = [[0, 0], [0, 0], [0, 0]];
    const add = (dp: number, cas: number, p: number) => {
        if (p === 0) return;
        while (law.length <= dp) law.push([0, 0]);
        addAt(law[dp], cas, p);
    };
    const kind = fireKind(input.firer);
    const band = fireBand(input.firer, input.range, tables);
    const mod = kind === 'artillery' ? sumModifiers(artilleryModifiers(input, tables)) : 0;
    const skirmisher = kind === 'infantry' && input.firer.formation === 'skirmish';
    const { hit, reroll, 'reroll-hit': rerollHit } = tables.infantry;
    // L5: the re-roll's chance of a DP (4, 5 or 6 by the sheet).
    const rerollDp = faceDistribution(D6).reduce((s, { face, p }) => (face >= rerollHit ? s + p : s), 0);
    for (const { face, p } of faceDistribution(D6)) {
        if (takesNoLosses(input.target)) add(0, 0, p); // L1.4: an officer takes nothing from fire
        else if (kind === 'artillery' && (band === 'close' || band === 'long')) {
            const e = artilleryEffect(band, face + mod, tables);
            add(e.dp, e.casualties, p);
        } else if (kind === 'infantry') {
            const own = face >= hit ? 1 : 0;
            if (skirmisher && face === reroll) {
                add(own + 1, 0, p * rerollDp);
                add(own, 0, p * (1 - rerollDp));
            } else add(own, 0, p);
        } else add(0, 0, p);
    }
    return law;
}

export function fireOdds(input: FireInput, tables: LfCombatTables = LF_SEED_TABLES): FireOdds {
    const n = fireDice(input, tables).count;
    const one = perDieLaw(input, tables);
    // joint[dp][cas] after each die, every row as long as the longest.
    const maxCas = Math.max(...one.map(row => row.length - 1));
    let joint: number[][] = [[1]];
    for (let i = 0; i < n; i++) {
        const next: number[][] = Array.from({ length: joint.length + one.length - 1 }, () => new Array<number>(joint[0].length + maxCas).fill(0));
        joint.forEach((row, dp) => row.forEach((p, cas) => {
            if (p === 0) return;
            one.forEach((r, a) => r.forEach((q, b) => { if (q > 0) next[dp + a][cas + b] += p * q; }));
        }));
        joint = next;
    }
    // A casualty is a stand (L1.3): what the table gives beyond the target's stands left is not taken.
    const cap = presentStands(input.target);
    joint = joint.map(row => row.reduce((capped, p, cas) => {
        capped[Math.min(cas, cap)] += p;
        return capped;
    }, new Array<number>(Math.min(row.length, cap + 1)).fill(0)));
    const dp = joint.map(row => row.reduce((s, p) => s + p, 0));
    const casualties = joint[0].map((_, cas) => joint.reduce((s, row) => s + row[cas], 0));
    // Summed, not taken from 1, so that what cannot happen is exactly 0.
    const disordered = joint.reduce((s, row, k) => (k > 0 ? s + row[0] : s), 0);
    const casualty = casualties.reduce((s, p, k) => (k > 0 ? s + p : s), 0);
    const probabilities: Record<FireResult, number> = { 'no-effect': joint[0][0], disordered, casualty };
    const mean = (law: number[]) => law.reduce((s, p, k) => s + p * k, 0);
    return { dice: n, probabilities, dp, casualties, expectedDp: mean(dp), expectedCasualties: mean(casualties) };
}

export interface MoveOdds {
    readonly result: MoveResult;
    /** distance[k] = P(the unit may move exactly k inches). */
    readonly distance: number[];
    /** dp[k] = P(it gains exactly k DPs). */
    readonly dp: number[];
    readonly expectedDistance: number;
    readonly expectedDp: number;
}

/**
 * L6: the joint law of (inches rolled, low d6) over the unit's dice, by convolution, then the
 * fixed parts: a Hessian's inches, halving when retiring, and the DPs of wheeling and retiring.
 */
export function moveOdds(input: MoveInput, tables: LfCombatTables = LF_SEED_TABLES): MoveOdds {
    const u = input.unit;
    const fixedDp = sumModifiers(fixedMoveDp(input, tables));
    const result: MoveResult = input.formationChange ? 'changed-formation' : input.retire ? 'retired' : input.charging ? 'charged' : 'moved';
    const mean = (law: number[]) => law.reduce((s, p, k) => s + p * k, 0);
    if (input.formationChange) {
        const dp: number[] = [];
        addAt(dp, sumModifiers(formationChangeDp(input.underFire, tables)), 1);
        return { result, distance: [1], dp, expectedDistance: 0, expectedDp: mean(dp) };
    }
    const counts = moveDiceCounts(input);
    const { perDie } = inchesLostPerDie(input, tables);
    const disorders = isFormed(u) && u.type !== 'officer' && u.type !== 'commander';
    const face = disorderingFace(input.woods, tables);
    // joint.get(`inches,low`) as a map keyed by inches·64 + low (low ≤ MAX_MOVE_DICE).
    let joint = new Map<number, number>([[0, 1]]);
    const fold = (die: 'average' | 'd6') => {
        const next = new Map<number, number>();
        for (const { face: v, p } of faceDistribution(die === 'average' ? AVERAGE : D6)) {
            const counts = die === 'd6' || input.options.averageDisorder === true;
            const step = Math.max(0, v - perDie) * 64 + (counts && disorders && v <= face ? 1 : 0);
            for (const [key, q] of joint) next.set(key + step, (next.get(key + step) ?? 0) + p * q);
        }
        joint = next;
    };
    for (let i = 0; i < counts.average; i++) fold('average');
    for (let i = 0; i < counts.d6; i++) fold('d6');
    const distance: number[] = [], dp: number[] = [];
    for (const [key, p] of joint) {
        let inches = Math.floor(key / 64) + input.plus;
        if (input.retire) inches = retiringInches(inches, tables);
        addAt(distance, inches, p);
        addAt(dp, (key % 64) + fixedDp, p);
    }
    return { result, distance, dp, expectedDistance: mean(distance), expectedDp: mean(dp) };
}
