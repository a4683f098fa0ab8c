/**
 * SCRUD house rules (docs/house-rules.md#scrud): the tables as data, changed by `house` blocks, with
 * resolve and the exact odds agreeing under the same house rules (brute force through the resolver),
 * the checks of a house block, and written outcomes flagged stale when a house rule changes.
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { D6, dieNamed, type Die } from '../../../src/core/dice.js';
import { adjust, resolveScrud, SCRUD_RESULTS, type ScrudInput, type ScrudResult } from '../../../src/rulesets/scrud/engine/scrud-engine.js';
import { scrudOdds } from '../../../src/rulesets/scrud/engine/scrud-odds.js';
import { PAIR_RESULTS, SCRUD_SEED_TABLES, type ScrudPairResult, type ScrudTables } from '../../../src/rulesets/scrud/engine/scrud-tables.js';
import { loadText } from '../../../src/cli/load.js';
import { modelOf } from '../../../src/core/model-cache.js';
import { isUnresolvable, outcomeStatus, resolveAction } from '../../../src/core/resolve.js';
import { oddsForAction } from '../../../src/core/odds.js';
import { resolveAll } from '../../../src/core/resolve-all.js';
import type { OddsReport } from '../../../src/protocol.js';
import { scrudUnit } from '../../support/scrud-input.js';

/** Every throw of every unit through `resolveScrud` under `tables`: each unit's chance of each result. */
function bruteForce(input: ScrudInput, tables: ScrudTables): Map<string, Record<ScrudResult, number>> {
    const all = [...input.attacker.units, ...input.defender.units];
    const out = new Map(all.map(u => [u.id, Object.fromEntries(SCRUD_RESULTS.map(l => [l, 0])) as Record<ScrudResult, number>]));
    const nA = input.attacker.units.length;
    const thrown = new Array<number>(all.length);
    const walk = (i: number, w: number) => {
        if (i === all.length) {
            const r = resolveScrud(input, { attacker: thrown.slice(0, nA), defender: thrown.slice(nA) }, tables);
            for (const u of r.units) out.get(u.id)![u.result] += w;
            return;
        }
        for (const f of all[i].die.faces) { thrown[i] = f; walk(i + 1, w / all[i].die.faces.length); }
    };
    walk(0, 1);
    return out;
}

const input = (a: Array<[number, Die]>, d: Array<[number, Die]>): ScrudInput => ({
    attacker: { force: 'A', units: a.map(([m, die], i) => scrudUnit('A', `a${i}`, 'foot', m, die)) },
    defender: { force: 'D', units: d.map(([m, die], i) => scrudUnit('D', `d${i}`, 'foot', m, die)) },
    pooled: false
});

/** A results table: cut points 0 < c1 < c2 … into bands of increasing differences, each with a result. */
const tablesArb: fc.Arbitrary<ScrudTables> = fc.record({
    cuts: fc.uniqueArray(fc.integer({ min: 1, max: 7 }), { maxLength: 4 }),
    labels: fc.array(fc.constantFrom(...PAIR_RESULTS), { minLength: 5, maxLength: 5 }),
    clampLow: fc.boolean(),
    clampHigh: fc.boolean()
}).map(({ cuts, labels, clampLow, clampHigh }) => {
    const starts = [0, ...cuts.sort((a, b) => a - b)];
    const results = starts.map((from, i) => ({ band: { from, to: i + 1 < starts.length ? starts[i + 1] - 1 : null }, value: labels[i] as ScrudPairResult }));
    return { results, clampLow, clampHigh };
});

const dieArb = fc.constantFrom(D6, dieNamed('d4')!, dieNamed('average')!);
const sideArb = fc.array(fc.tuple(fc.integer({ min: -2, max: 2 }), dieArb), { minLength: 1, maxLength: 2 });

describe('SCRUD tables as data', () => {
    it('the seed tables give the seed results (S6): differences 1, 2, 3, 4, 5 → recoil, retire, retreat, rout, rout', () => {
        const one = (a: number, d: number) => resolveScrud(input([[0, D6]], [[0, D6]]), { attacker: [a], defender: [d] }, SCRUD_SEED_TABLES).units[1].result;
        expect([one(2, 1), one(3, 1), one(4, 1), one(5, 1), one(6, 1)]).toEqual(['recoil', 'retire', 'retreat', 'rout', 'rout']);
    });

    it('a house band moves the result: 3..4 retreat, 5.. rout makes a difference of 4 a retreat', () => {
        const tables: ScrudTables = { ...SCRUD_SEED_TABLES, results: [
            { band: { from: 0, to: 0 }, value: 'stand-off' }, { band: { from: 1, to: 1 }, value: 'recoil' },
            { band: { from: 2, to: 2 }, value: 'retire' }, { band: { from: 3, to: 4 }, value: 'retreat' }, { band: { from: 5, to: null }, value: 'rout' }
        ] };
        const r = resolveScrud(input([[0, D6]], [[0, D6]]), { attacker: [5], defender: [1] }, tables);
        expect(r.units.map(u => u.result)).toEqual(['won', 'retreat']);
    });

    it('a tie may cost both units (0 recoil), and a stand-off band above 0 leaves both standing', () => {
        const tables: ScrudTables = { ...SCRUD_SEED_TABLES, results: [
            { band: { from: 0, to: 0 }, value: 'recoil' }, { band: { from: 1, to: 1 }, value: 'stand-off' }, { band: { from: 2, to: null }, value: 'rout' }
        ] };
        const pair = (a: number, d: number) => resolveScrud(input([[0, D6]], [[0, D6]]), { attacker: [a], defender: [d] }, tables).units.map(u => u.result);
        expect(pair(3, 3)).toEqual(['recoil', 'recoil']);
        expect(pair(4, 3)).toEqual(['stand-off', 'stand-off']);
        expect(pair(5, 3)).toEqual(['won', 'rout']);
    });

    it('without clamping a +2 on a 6 counts 8 (S2 turned off)', () => {
        expect(adjust(6, 2, D6, { ...SCRUD_SEED_TABLES, clampHigh: false })).toBe(8);
        expect(adjust(6, 2, D6)).toBe(6);
        expect(adjust(1, -1, D6, { ...SCRUD_SEED_TABLES, clampLow: false })).toBe(0);
    });

    it('exact odds agree with brute force through the resolver under random house tables', () => {
        fc.assert(fc.property(sideArb, sideArb, tablesArb, (a, d, tables) => {
            const inp = input(a, d);
            const exact = bruteForce(inp, tables);
            const odds = scrudOdds(inp, tables);
            for (const u of odds.units) {
                for (const l of SCRUD_RESULTS) expect(Math.abs(u.probabilities[l] - exact.get(u.id)![l]), `${u.id} ${l}`).toBeLessThanOrEqual(1e-12);
            }
        }), { numRuns: 150 });
    });

    it('the chance of at least one rout agrees with brute force when routs are "this difference or more"', () => {
        const tables: ScrudTables = { ...SCRUD_SEED_TABLES, results: [
            { band: { from: 0, to: 1 }, value: 'stand-off' }, { band: { from: 2, to: 2 }, value: 'retreat' }, { band: { from: 3, to: null }, value: 'rout' }
        ] };
        const inp = input([[0, D6], [1, D6]], [[0, D6], [-1, D6]]);
        let routs = 0;
        const all = [...inp.attacker.units, ...inp.defender.units];
        const walk = (i: number, thrown: number[], w: number) => {
            if (i === all.length) {
                const r = resolveScrud(inp, { attacker: thrown.slice(0, 2), defender: thrown.slice(2) }, tables);
                if (r.units.some(u => u.side === 'defender' && u.result === 'rout')) routs += w;
                return;
            }
            for (const f of D6.faces) walk(i + 1, [...thrown, f], w / 6);
        };
        walk(0, [], 1);
        expect(scrudOdds(inp, tables).sides[1].atLeastOneRout).toBeCloseTo(routs, 12);
    });
});

const FILE = `rules scrud
house {
  result 0 stand-off, 1 recoil, 2 retire, 3..4 retreat, 5.. rout
  die Raw d4
}
grade Raw -1
force Blue {
  unit Foot foot x2
  unit Levy foot Raw
}
force Red { unit Foot foot x3 }
engagement Hill {
  Blue attacks Red
  dice Blue foot 6 1 4
  dice Red foot 2 5 1
}
`;

async function load(text: string) {
    const loaded = await loadText('house.battle', text);
    return { model: modelOf(loaded.document.parseResult.value), diagnostics: loaded.diagnostics.map(d => `${d.code}: ${d.message}`) };
}

describe('house blocks in a SCRUD file', () => {
    it('resolve reads the house die and bands, and says which house row decided each pair', async () => {
        const { model, diagnostics } = await load(FILE);
        expect(diagnostics).toEqual([]);
        const r = resolveAction(model, model.actions[0], { newSeed: () => 1 });
        if (isUnresolvable(r)) throw new Error(r.problem);
        // The Levy throws a d4 (house die Raw d4): 4−1 = 3, second in Blue's line, meets Red's second die, 2.
        expect(r.resolution.text).toContain('  Blue.Levy 4-1=3  v  Red.Foot#1 2±0=2  →  Red.Foot#1 recoil  (house: 1 recoil)');
        expect(r.resolution.json.units.find(u => u.unit === 'Levy')).toMatchObject({ dieType: 'd4' });
    });

    it('odds under the house rules: a d4 levy at -1 cannot be routed by a difference below 5', async () => {
        const { model } = await load(FILE.replace('dice Blue foot 6 1 4\n  dice Red foot 2 5 1\n', ''));
        const odds = oddsForAction(model, model.actions[0]) as OddsReport;
        const levy = odds.units.find(u => u.id === 'Blue.Levy')!;
        // Levy adjusted 1..3 (d4 −1, clamped at 1: 1 twice), Red d6: a rout needs Red 6 v Levy 1 with both paired.
        expect(levy.probabilities.rout).toBeGreaterThan(0);
        const seedOdds = oddsForAction((await load(FILE.replace(/house \{[^}]*\}\n/, ''))).model, model.actions[0]);
        expect(seedOdds).not.toEqual(odds);
    });

    it('checks: unknown table with did-you-mean, wrong keys and values, overlap, gap, unreachable band', async () => {
        const { diagnostics } = await load(`rules scrud
house {
  result 1 recoil, 2 retire, 2..4 retreat, 7.. rout
  reslt 1 recoil
  die Rwa d4, all dd
  clamp high maybe
}
grade Raw -1
force Blue { unit Foot foot Raw }
force Red { unit Foot foot }
`);
        expect(diagnostics).toEqual([
            "house-unknown-table: SCRUD has no table 'reslt': did you mean 'result'? Its tables: result, die, clamp, runs-and-pursues.",
            "house-key: 'die': 'Rwa' is not one of its keys (grade names, or `all`): all, Raw. Did you mean 'Raw'?",
            "house-value: 'die': its values are dice (d6, or dN for N from 2 to 100, or average), not 'dd'.",
            "house-value: 'clamp': its values are yes, no, not 'maybe'.",
            "house-band-overlap: 'result': the band 2..4 overlaps 2: each number may fall in one band only.",
            "house-band-gap: 'result': no band covers 0: a house table replaces the seed's whole, so its bands must cover 0 or more.",
            "house-band-gap: 'result': no band covers 5 to 6: a house table replaces the seed's whole, so its bands must cover 0 or more.",
            "scrud-house-unreachable: No pair can differ by 7.. with this file's dice (at most 5): 'rout' can never happen."
        ]);
    });

    it('a turn\'s house block changes that turn only', async () => {
        const text = `rules scrud
force Blue { unit Foot foot }
force Red { unit Foot foot }
turn 1 {
  house { result 0.. stand-off }
  engagement First { Blue attacks Red
    dice Blue 6
    dice Red 1 }
}
turn 2 {
  engagement Second { Blue attacks Red
    dice Blue 6
    dice Red 1 }
}
`;
        const { model, diagnostics } = await load(text);
        expect(diagnostics).toEqual([]);
        const results = model.actions.map(a => {
            const r = resolveAction(model, a, { newSeed: () => 1 });
            return isUnresolvable(r) ? r.problem : r.resolution.json.units.map(u => u.result);
        });
        expect(results).toEqual([['stand-off', 'stand-off'], ['won', 'rout']]);
    });

    it('changing a house rule above a written outcome flags it stale; without house rules fingerprints are as before', async () => {
        const check = async (t: string) => { const l = await loadText('house.battle', t); return { root: l.document.parseResult.value, errors: l.diagnostics.filter(d => d.severity === 1).map(d => d.message as string) }; };
        const written = (await resolveAll(FILE, check, { newSeed: () => 1 })).text;
        const current = await load(written);
        expect(outcomeStatus(current.model, current.model.actions[0])).toEqual({ kind: 'current' });
        const moved = written.replace('3..4 retreat, 5.. rout', '3 retreat, 4.. rout');
        const stale = await load(moved);
        expect(outcomeStatus(stale.model, stale.model.actions[0])).toEqual({ kind: 'stale' });
        expect(stale.diagnostics.some(d => d.startsWith('outcome-stale'))).toBe(true);
        // The core adds the house rules to the rule set's own fingerprint, and only when there are some.
        const own = (m: typeof current.model) => (m.ruleset!.resolve(m, m.actions[0], { kind: 'entered' }) as { json: { check: string } }).json.check;
        const through = (m: typeof current.model) => { const r = resolveAction(m, m.actions[0], { newSeed: () => 1 }); return isUnresolvable(r) ? r.problem : r.resolution.json.check; };
        const plain = (await load(FILE.replace(/house \{[^}]*\}\n/, ''))).model;
        expect(through(plain)).toBe(own(plain));
        expect(through(current.model)).not.toBe(own(current.model));
    });
});

describe('shared house rules (docs/house-rules.md#shared)', () => {
    it("a club's house rules in an imported file apply to the importer, and the file's own come after", async () => {
        const fs = await import('node:fs');
        const os = await import('node:os');
        const path = await import('node:path');
        const { loadFile } = await import('../../../src/cli/load.js');
        const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'umpire-club-'));
        fs.writeFileSync(path.join(dir, 'club.battle'), 'rules scrud\nhouse {\n  result 0..1 stand-off, 2 retire, 3.. rout\n}\n');
        const game = (own: string) => `rules scrud\nimport "club.battle"\n${own}force Blue { unit Foot foot }\nforce Red { unit Foot foot }\nengagement Hill { Blue attacks Red\n  dice Blue 4\n  dice Red 1 }\n`;
        const results = async (text: string) => {
            fs.writeFileSync(path.join(dir, 'game.battle'), text);
            const loaded = await loadFile(path.join(dir, 'game.battle'));
            const model = modelOf(loaded.document.parseResult.value);
            const r = resolveAction(model, model.actions[0], { newSeed: () => 1 });
            return isUnresolvable(r) ? r.problem : r.resolution.json.units.map(u => u.result);
        };
        // 4 v 1 is a retreat by the seed (S6); the club's table makes 3 or more a rout.
        expect(await results(game(''))).toEqual(['won', 'rout']);
        expect(await results(game('house {\n  result 0.. stand-off\n}\n'))).toEqual(['stand-off', 'stand-off']);
    });
});
