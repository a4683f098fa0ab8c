/**
 * The spread (standard deviation) the odds give beside every mean (docs/json.md "Odds"), against
 * brute force: every throw of the real resolvers enumerated on small inputs, the laws of each count
 * gathered from the outcomes, and their sd worked out here, apart from the engines.
 * Ancients through `resolveAncients`; Loose Files (combat, fire, move) and SCRUD from a file, through
 * the odds the CLI prints (`oddsForAction`) and the resolvers fed the input their readers build.
 */
import * as fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { ANCIENTS_RESULTS, attackPlan, type AncientsInput } from '../../src/rulesets/ancients/engine/ancients-engine.js';
import { ancientsOdds } from '../../src/rulesets/ancients/engine/ancients-odds.js';
import { everyWeighedThrow, smallMelees, unit } from '../support/ancients-every-throw.js';
import { AVERAGE, faceDistribution } from '../../src/core/dice.js';
import { modelOf } from '../../src/core/model-cache.js';
import { mixSpreads, oddsForAction } from '../../src/core/odds.js';
import { campaignOdds } from '../../src/core/campaign-odds.js';
import { isUnresolvable } from '../../src/core/resolve.js';
import type { ActionModel, ScenarioModel } from '../../src/core/scenario.js';
import type { OddsReport } from '../../src/protocol.js';
import { readCombat, readFire, readMoves } from '../../src/rulesets/loose-files/loose-files-reader.js';
import { lfTables } from '../../src/rulesets/loose-files/loose-files-house.js';
import { resolveCombat, COMBAT_RESULTS } from '../../src/rulesets/loose-files/engine/loose-files-combat.js';
import { resolveFire, rerollsFor, fireDice } from '../../src/rulesets/loose-files/engine/loose-files-fire.js';
import { moveDiceCounts, resolveMove } from '../../src/rulesets/loose-files/engine/loose-files-movement.js';
import { buildScrudInput, scrudTables } from '../../src/rulesets/scrud/scrud-reader.js';
import { resolveScrud, SCRUD_RESULTS } from '../../src/rulesets/scrud/engine/scrud-engine.js';
import { parse } from '../support/services.js';

/** A law of counts, gathered outcome by outcome: add(k, p). */
class Law {
    readonly p: number[] = [];
    add(k: number, w: number): void {
        while (this.p.length <= k) this.p.push(0);
        this.p[k] += w;
    }
    /** Worked the long way: √(Σ p (k − mean)²). */
    get sd(): number {
        const mean = this.p.reduce((s, p, k) => s + p * k, 0);
        return Math.sqrt(this.p.reduce((s, p, k) => s + p * (k - mean) ** 2, 0));
    }
}

const laws = () => new Map<string, Law>();
/**
 * Two spreads agree when their variances agree to 1e-12, as every chance does: the square root
 * would make a rounding error of 1e-17 in a count that hardly varies one of 3e-9 in its sd.
 */
const near = (a: unknown, b: number, what: string) => {
    expect(typeof a, what).toBe('number');
    expect(Math.abs((a as number) ** 2 - b ** 2), what).toBeLessThanOrEqual(1e-12);
};
const law = (m: Map<string, Law>, key: string) => m.get(key) ?? m.set(key, new Law()).get(key)!;

// ─── Ancients ────────────────────────────────────────────────────────────────────────────────────


/** Every count's law from every throw: per unit hits and tokens, per side each result's count and the hits. */
function ancientsBrute(input: AncientsInput): Map<string, Law> {
    const out = laws();
    everyWeighedThrow(input, (o, w) => {
        for (const u of o.units) {
            law(out, `${u.id} hits`).add(u.hits, w);
            law(out, `${u.id} tokens`).add(u.tokensGained, w);
        }
        for (const side of ['attacker', 'defender'] as const) {
            const mine = o.units.filter(u => u.side === side);
            for (const l of ANCIENTS_RESULTS) law(out, `${side} ${l}`).add(mine.filter(u => u.result === l).length, w);
            law(out, `${side} hits`).add(mine.reduce((s, u) => s + u.hits, 0), w);
        }
    });
    return out;
}

function expectAncientsSpread(input: AncientsInput): void {
    const brute = ancientsBrute(input);
    const odds = ancientsOdds(input);
    for (const u of odds.units) {
        near(u.sdHits, brute.get(`${u.id} hits`)!.sd, `${u.id} sdHits`);
        near(u.sdTokens, brute.get(`${u.id} tokens`)!.sd, `${u.id} sdTokens`);
    }
    for (const s of odds.sides) {
        for (const l of ANCIENTS_RESULTS) near(s.sd[l], brute.get(`${s.side} ${l}`)!.sd, `${s.side} ${l}`);
        near(s.sdHits, brute.get(`${s.side} hits`)!.sd, `${s.side} sdHits`);
    }
}

describe('Ancients: the sd of every count against every throw of resolveAncients', () => {
    it('by hand: 3 dice hitting on 3+ against a light unit\'s 6+ save are binomial, sd √(3 · 5/9 · 4/9)', () => {
        // A4: medium weight against light scores +1, so 3+ (2/3); A5: light saves on 6 (not saved 5/6): p = 5/9 a die.
        const a = unit('G.A', 'attacker', { size: 'small' });
        const d = unit('P.D', 'defender', { size: 'small', weight: 'light' });
        const input: AncientsInput = {
            units: [a, d], pairings: [{ a: a.id, aPosition: 'front', b: d.id, bPosition: 'front' }],
            splits: [{ unit: a.id, parts: [{ target: d.id, dice: 3 }] }, { unit: d.id, parts: [{ target: a.id, dice: 1 }] }],
            firstTurn: false, breakDice: 2
        };
        expect(ancientsOdds(input).units[1].sdHits).toBeCloseTo(Math.sqrt(3 * 5 / 9 * 4 / 9), 14);
        expectAncientsSpread(input);
    });

    const arbMelee = smallMelees(3, 2, { min: 0, max: 3 });

    it('on random small melees: up to 3 v 2, split dice, tokens, 1d6 or 2d6 tests (several units of a side tested together)', () => {
        fc.assert(fc.property(arbMelee, input => {
            fc.pre(attackPlan(input).reduce((n, a) => n + a.dice, 0) <= 7);
            expectAncientsSpread(input);
        }), { numRuns: 40, seed: 11 });
    });
});

// ─── From a file: Loose Files and SCRUD through oddsForAction ────────────────────────────────────

async function loaded(text: string): Promise<ScenarioModel> {
    const doc = await parse(text, { validation: true });
    expect((doc.diagnostics ?? []).filter(d => d.severity === 1).map(d => d.message)).toEqual([]);
    return modelOf(doc.parseResult.value);
}

function odds(model: ScenarioModel, action: ActionModel): OddsReport {
    const r = oddsForAction(model, action);
    if (isUnresolvable(r)) throw new Error(r.problem);
    return r;
}

/** Every sequence of `n` throws of a die with these faces, with its chance. */
function* sequences(faces: readonly number[], n: number): Generator<[number[], number]> {
    if (n === 0) { yield [[], 1]; return; }
    for (const [rest, w] of sequences(faces, n - 1)) for (const f of faces) yield [[...rest, f], w / faces.length];
}

const D6 = [1, 2, 3, 4, 5, 6];


const LF_FORCES = `rules loose-files
force A {
  unit Line infantry { class 2, stands 4 }
  unit Horse cavalry { class 2, stands 2 }
  unit Skirm infantry { class 3, stands 2, formation skirmish }
}
force B {
  unit Foot infantry { class 3, stands 4 }
  unit Solo infantry { class 3, stands 1 }
  unit Guns artillery { class 2, stands 2, guns medium }
}
`;

describe('Loose Files: the sd of every count against every throw of the resolvers', () => {
    it('fire: each target\'s DPs and casualties, and the force\'s counts and totals over two fires, every die of both thrown', async () => {
        const model = await loaded(`${LF_FORCES}fire V {\n  B.Guns fires at A.Line: range 6\n  B.Foot fires at A.Skirm: range 5\n  A.Skirm fires at B.Solo: range 4\n}\n`);
        const action = model.actions[0];
        const report = odds(model, action);
        const tables = lfTables(model, action.node);
        // Each fire's outcomes from every d6 and re-roll it throws.
        const each = readFire(model, action).map(r => {
            const outcomes: Array<{ o: ReturnType<typeof resolveFire>, w: number }> = [];
            for (const [d6, w] of sequences(D6, fireDice(r.input, tables).count)) {
                for (const [reroll, w2] of sequences(D6, rerollsFor(r.input, d6, tables))) outcomes.push({ o: resolveFire(r.input, { d6, reroll }, tables), w: w * w2 });
            }
            return { target: r.target, outcomes };
        });
        // Every throw of all the fires together: the product of their dice.
        const brute = laws();
        const walk = (i: number, picked: Array<ReturnType<typeof resolveFire>>, w: number) => {
            if (i === each.length) {
                each.forEach((f, j) => {
                    law(brute, `${f.target.id} dp`).add(picked[j].dp, w);
                    law(brute, `${f.target.id} cas`).add(picked[j].casualties, w);
                });
                for (const force of ['A', 'B']) {
                    const mine = picked.filter((_, j) => each[j].target.force === force);
                    for (const l of ['no-effect', 'disordered', 'casualty']) law(brute, `${force} ${l}`).add(mine.filter(o => o.result === l).length, w);
                    law(brute, `${force} dp`).add(mine.reduce((s, o) => s + o.dp, 0), w);
                    law(brute, `${force} cas`).add(mine.reduce((s, o) => s + o.casualties, 0), w);
                }
                return;
            }
            for (const { o, w: wo } of each[i].outcomes) walk(i + 1, [...picked, o], w * wo);
        };
        walk(0, [], 1);
        for (const u of report.units) {
            near(u.sdDp, brute.get(`${u.id} dp`)!.sd, `${u.id} sdDp`);
            near(u.sdCasualties, brute.get(`${u.id} cas`)!.sd, `${u.id} sdCasualties`);
        }
        expect(report.units.some(u => (u.sdDp as number) > 0.1)).toBe(true);
        for (const s of report.sides) {
            for (const l of ['no-effect', 'disordered', 'casualty']) near(s.sd?.[l], brute.get(`${s.force} ${l}`)!.sd, `${s.force} ${l}`);
            near(s.sdDp, brute.get(`${s.force} dp`)!.sd, `${s.force} sdDp`);
            near(s.sdCasualties, brute.get(`${s.force} cas`)!.sd, `${s.force} sdCasualties`);
        }
    });

    it('move: each unit\'s inches and DPs, and the force\'s DPs over two movers', async () => {
        const model = await loaded(`${LF_FORCES}move M {\n  A.Skirm: average 1, d6 1\n  A.Horse: average 1, d6 2, charging\n}\n`);
        const action = model.actions[0];
        const report = odds(model, action);
        const tables = lfTables(model, action.node);
        const each = readMoves(model, action).map(r => {
            const counts = moveDiceCounts(r.input);
            const outcomes: Array<{ o: ReturnType<typeof resolveMove>, w: number }> = [];
            for (const [average, w] of sequences(AVERAGE.faces, counts.average)) {
                for (const [d6, w2] of sequences(D6, counts.d6)) outcomes.push({ o: resolveMove(r.input, { average, d6 }, tables), w: w * w2 });
            }
            return { unit: r.unit, outcomes };
        });
        const brute = laws();
        for (const f of each) {
            for (const { o, w } of f.outcomes) {
                law(brute, `${f.unit.id} inches`).add(o.inches, w);
                law(brute, `${f.unit.id} dp`).add(o.dp, w);
            }
        }
        for (const a of each[0].outcomes) for (const b of each[1].outcomes) law(brute, 'A dp').add(a.o.dp + b.o.dp, a.w * b.w);
        for (const u of report.units) {
            near(u.sdDistance, brute.get(`${u.id} inches`)!.sd, `${u.id} sdDistance`);
            near(u.sdDp, brute.get(`${u.id} dp`)!.sd, `${u.id} sdDp`);
        }
        near(report.sides[0].sdDp, brute.get('A dp')!.sd, 'A sdDp');
        // Each unit's result is certain (it moves, or charges): the counts of results do not spread.
        for (const v of Object.values(report.sides[0].sd ?? {})) expect(v).toBe(0);
    });

    it('combat: a side of two reads one row, so its counts move together (n × a yes-or-no), its DPs twice the row\'s, its casualties the leading unit\'s', async () => {
        const model = await loaded(`${LF_FORCES}engagement Melee {\n  A.Line, A.Horse attacks B.Foot\n}\n`);
        const action = model.actions[0];
        const report = odds(model, action);
        const read = readCombat(model, action, false)!;
        const tables = lfTables(model, action.node);
        const brute = laws();
        for (const a of faceDistribution(AVERAGE)) for (const d of faceDistribution(AVERAGE)) {
            const o = resolveCombat(read.input, { attacker: a.face, defender: d.face }, tables);
            for (const [role, n] of [['attacker', read.attackers.length], ['defender', read.defenders.length]] as const) {
                for (const l of COMBAT_RESULTS) law(brute, `${role} ${l}`).add(o[role].result === l ? n : 0, a.p * d.p);
                law(brute, `${role} dp`).add(n * o[role].dp, a.p * d.p);
                law(brute, `${role} cas`).add(o[role].casualties, a.p * d.p);
            }
        }
        for (const s of report.sides) {
            for (const l of COMBAT_RESULTS) near(s.sd?.[l], brute.get(`${s.side} ${l}`)!.sd, `${s.side} ${l}`);
            near(s.sdDp, brute.get(`${s.side} dp`)!.sd, `${s.side} sdDp`);
            near(s.sdCasualties, brute.get(`${s.side} cas`)!.sd, `${s.side} sdCasualties`);
        }
        expect(Object.values(report.sides[0].sd ?? {}).some(v => v > 0.1)).toBe(true);
    });
});

const SCRUD_FORCES = `rules scrud
grade Veteran +1
grade Line 0
grade Landwehr 0 { die d4 }
force F {
  unit Foot foot Veteran
  unit Horse horse Line
  unit More foot Line
}
force P {
  unit Foot foot Line
  unit Horse horse Landwehr
  unit More foot Line
}
`;

describe('SCRUD: the sd of a side\'s counts where its results are independent, and none where they are not', () => {
    it('one unit in each arm\'s line: the counts\' sd against every throw of resolveScrud', async () => {
        const model = await loaded(`${SCRUD_FORCES}engagement E {\n  F.Foot, F.Horse attacks P.Foot, P.Horse, P.More\n}\n`);
        const action = model.actions[0];
        const report = odds(model, action);
        const input = buildScrudInput(model, action.node)!;
        const tables = scrudTables(model, action.node);
        const brute = laws();
        const faces = (units: typeof input.attacker.units) => units.map(u => u.die.faces);
        const every = (lists: ReadonlyArray<readonly number[]>): Array<[number[], number]> => lists.reduce<Array<[number[], number]>>(
            (acc, f) => acc.flatMap(([seq, w]) => f.map((x): [number[], number] => [[...seq, x], w / f.length])), [[[], 1]]);
        for (const [att, wa] of every(faces(input.attacker.units))) for (const [def, wd] of every(faces(input.defender.units))) {
            const o = resolveScrud(input, { attacker: att, defender: def }, tables);
            for (const l of SCRUD_RESULTS) law(brute, `attacker ${l}`).add(o.units.filter(u => u.side === 'attacker' && u.result === l).length, wa * wd);
        }
        const attacker = report.sides.find(s => s.side === 'attacker')!;
        for (const l of SCRUD_RESULTS) near(attacker.sd?.[l], brute.get(`attacker ${l}`)!.sd, `attacker ${l}`);
        expect(Object.values(attacker.sd ?? {}).some(v => v > 0.1)).toBe(true);
        // The defender has two in its foot line, sorted together: no sd, and a note says why.
        const defender = report.sides.find(s => s.side === 'defender')!;
        expect(defender.sd).toBeUndefined();
        expect(report.notes).toContain(`${defender.force}: the spread (sd) of the number of units with each result is left out: units in one line are sorted together (S4), and the exact odds keep no joint law of their results.`);
    });
});

describe('a campaign\'s odds of an action mix the spreads by total variance', () => {
    const part = (mean: number, sd: number | undefined, label: { mean: number, sd?: number }): OddsReport => ({
        name: 'E', kind: 'engagement', rules: 'r', turn: null, notes: [],
        units: [{ force: 'A', unit: 'U', id: 'A.U', probabilities: { x: 1 }, expectedHits: mean, ...(sd === undefined ? {} : { sdHits: sd }) }],
        sides: [{ force: 'A', expected: { x: label.mean }, ...(label.sd === undefined ? {} : { sd: { x: label.sd } }), atLeastOne: {} }]
    });
    /** What a plain weighted mix leaves: every number the weighted mean of the parts'. */
    const mixed = (parts: Array<{ w: number, value: OddsReport }>): OddsReport => {
        const m = structuredClone(parts[0].value);
        const avg = (f: (r: OddsReport) => number | undefined) => parts.reduce((s, p) => s + p.w * (f(p.value) ?? 0), 0);
        m.units[0].expectedHits = avg(r => r.units[0].expectedHits as number);
        if ('sdHits' in m.units[0]) m.units[0].sdHits = avg(r => r.units[0].sdHits as number | undefined);
        m.sides[0].expected.x = avg(r => r.sides[0].expected.x);
        if (m.sides[0].sd) m.sides[0].sd.x = avg(r => r.sides[0].sd?.x);
        return m;
    };

    it('by hand: half the time 1 ± 0, half 3 ± 1, is 2 ± √1.5 (E[X²] = ½·1 + ½·10 = 5.5)', () => {
        const parts = [{ w: 0.5, value: part(1, 0, { mean: 0, sd: 0 }) }, { w: 0.5, value: part(3, 1, { mean: 2, sd: 1 }) }];
        const m = mixed(parts);
        expect(m.units[0].sdHits).toBe(0.5); // the mean of the sds: not the spread
        mixSpreads(parts, m);
        expect(m.units[0].sdHits as number).toBeCloseTo(Math.sqrt(1.5), 14);
        expect(m.sides[0].sd!.x).toBeCloseTo(Math.sqrt(0.5 * 0 + 0.5 * (1 + 4) - 1), 14);
    });

    it('leaves out a spread that one of the parts does not know', () => {
        const parts = [{ w: 0.5, value: part(1, 0, { mean: 0, sd: 0 }) }, { w: 0.5, value: part(3, undefined, { mean: 2 }) }];
        const m = mixed(parts);
        mixSpreads(parts, m);
        expect('sdHits' in m.units[0]).toBe(false);
        expect(m.sides[0].sd).toBeUndefined();
    });
});

describe('a campaign\'s odds of an action carry the spreads', () => {
    it('the first engagement\'s are its own (nothing before it to mix), and a sampled run gives no standard error for an sd', async () => {
        const model = await loaded(fs.readFileSync('examples/campaign.battle', 'utf8'));
        const own = odds(model, model.actions[0]);
        const exact = campaignOdds(model, { method: 'exact' });
        if (isUnresolvable(exact)) throw new Error(exact.problem);
        const ford = exact.actions[0].odds!;
        own.units.forEach((u, i) => near(ford.units[i].sdHits, u.sdHits as number, `${u.id} sdHits`));
        own.sides.forEach((s, i) => { for (const l of Object.keys(s.sd!)) near(ford.sides[i].sd?.[l], s.sd![l], `${s.force} ${l}`); });
        expect(typeof exact.actions[2].odds!.units[0].sdHits).toBe('number');
        const sampled = campaignOdds(model, { method: 'monte-carlo', samples: 40, seed: 3 });
        if (isUnresolvable(sampled)) throw new Error(sampled.problem);
        const se = sampled.actions[1].oddsSe as OddsReport;
        expect(typeof se.units[0].expectedHits).toBe('number');
        expect(Object.keys(se.units[0]).filter(k => k.startsWith('sd'))).toEqual([]);
        expect(se.sides[0].sd).toBeUndefined();
    });
});
