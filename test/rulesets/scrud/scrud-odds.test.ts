/**
 * Trust tests for the exact SCRUD odds: the hand-worked single pair, brute-force
 * enumeration of every throw through the real resolver on all small cases, and a seeded Monte Carlo
 * of the real resolver on a larger engagement.
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { AVERAGE, D6, dieNamed } from '../../../src/core/dice.js';
import { adjust, resolveScrud, SCRUD_RESULTS, type ScrudInput, type ScrudResult, type ScrudUnit } from '../../../src/rulesets/scrud/engine/scrud-engine.js';
import { scrudOdds } from '../../../src/rulesets/scrud/engine/scrud-odds.js';
import { nestedCountsWithin } from '../../../src/rulesets/scrud/engine/scrud-rout-odds.js';
import { throwScrudDice } from '../../../src/rulesets/scrud/scrud-resolve.js';
import { scrudUnit } from '../../support/scrud-input.js';

const D4 = dieNamed('d4')!;

const unit = scrudUnit;

interface Exact { units: Map<string, Record<ScrudResult, number>>, rout: [number, number] }

/**
 * The oracle: every combination of thrown faces, each through `resolveScrud`. Faces that a unit's
 * modifier clamps to the same adjusted die are thrown once with their joint weight (the resolver
 * cannot tell them apart), which keeps 4 v 4 enumerable without changing a single outcome.
 */
function bruteForce(input: ScrudInput): Exact {
    const all = [...input.attacker.units, ...input.defender.units];
    const choices = all.map(u => {
        const byAdjusted = new Map<number, { face: number, w: number }>();
        for (const f of u.die.faces) {
            const a = adjust(f, u.modifier, u.die);
            const c = byAdjusted.get(a);
            if (c) c.w += 1 / u.die.faces.length; else byAdjusted.set(a, { face: f, w: 1 / u.die.faces.length });
        }
        return [...byAdjusted.values()];
    });
    const units = new Map(all.map(u => [u.id, Object.fromEntries(SCRUD_RESULTS.map(l => [l, 0])) as Record<ScrudResult, number>]));
    const rout: [number, number] = [0, 0];
    const nA = input.attacker.units.length;
    const thrown = new Array<number>(all.length);
    const walk = (i: number, w: number) => {
        if (i === all.length) {
            const out = resolveScrud(input, { attacker: thrown.slice(0, nA), defender: thrown.slice(nA) });
            for (const r of out.units) units.get(r.id)![r.result] += w;
            if (out.units.some(r => r.side === 'attacker' && r.result === 'rout')) rout[0] += w;
            if (out.units.some(r => r.side === 'defender' && r.result === 'rout')) rout[1] += w;
            return;
        }
        for (const c of choices[i]) { thrown[i] = c.face; walk(i + 1, w * c.w); }
    };
    walk(0, 1);
    return { units, rout };
}

function expectAgree(input: ScrudInput, tolerance = 1e-12): void {
    const exact = bruteForce(input);
    const odds = scrudOdds(input);
    for (const u of odds.units) {
        const want = exact.units.get(u.id)!;
        for (const l of SCRUD_RESULTS) expect(Math.abs(u.probabilities[l] - want[l]), `${u.id} ${l}`).toBeLessThanOrEqual(tolerance);
    }
    expect(Math.abs(odds.sides[0].atLeastOneRout! - exact.rout[0])).toBeLessThanOrEqual(tolerance);
    expect(Math.abs(odds.sides[1].atLeastOneRout! - exact.rout[1])).toBeLessThanOrEqual(tolerance);
}

const pair = (a: ScrudUnit[], d: ScrudUnit[], pooled = false): ScrudInput => ({
    attacker: { force: 'A', units: a }, defender: { force: 'D', units: d }, pooled
});

describe('SCRUD odds: the single pair by hand', () => {
    // d6 v d6, no modifiers. |difference| over the 36 throws: 0 six times, 1 ten, 2 eight, 3 six,
    // 4 or 5 six. So the pair stands off 1/6; when it does not, the loser recoils 5/18, retires 2/9,
    // retreats 1/6 and routs 1/6 of all throws (S6), each equally likely to fall on either side.
    const odds = scrudOdds(pair([unit('A', 'a', 'foot', 0, D6)], [unit('D', 'd', 'foot', 0, D6)]));
    const [a, d] = odds.units;

    it('gives the pair the hand-worked loser results: 1/6, 5/18, 2/9, 1/6, 1/6', () => {
        const loser = (l: ScrudResult) => a.probabilities[l] + d.probabilities[l];
        expect(a.probabilities['stand-off']).toBeCloseTo(1 / 6, 14);
        expect(loser('recoil')).toBeCloseTo(5 / 18, 14);
        expect(loser('retire')).toBeCloseTo(2 / 9, 14);
        expect(loser('retreat')).toBeCloseTo(1 / 6, 14);
        expect(loser('rout')).toBeCloseTo(1 / 6, 14);
    });

    it('gives each unit half of every loss and wins 15/36', () => {
        for (const u of [a, d]) {
            expect(u.probabilities.recoil).toBeCloseTo(5 / 36, 14);
            expect(u.probabilities.retire).toBeCloseTo(1 / 9, 14);
            expect(u.probabilities.retreat).toBeCloseTo(1 / 12, 14);
            expect(u.probabilities.rout).toBeCloseTo(1 / 12, 14);
            expect(u.probabilities.won).toBeCloseTo(15 / 36, 14);
            expect(u.probabilities.unpaired).toBe(0);
        }
        expect(odds.sides[0].atLeastOneRout).toBeCloseTo(1 / 12, 14);
    });

    it('turns and clamps the die (S2): +2 against a d6 never routs and wins 26/36', () => {
        const o = scrudOdds(pair([unit('A', 'a', 'foot', 2, D6)], [unit('D', 'd', 'foot', 0, D6)]));
        // Attacker adjusted: 3,4,5,6,6,6. The defender routs when 4 or more below:
        // attacker 6 (3 faces) v defender 1 or 2 → 6 throws; attacker 5 v defender 1 → 1 throw: 7/36.
        expect(o.units[0].probabilities.rout).toBe(0);
        expect(o.units[1].probabilities.rout).toBeCloseTo(7 / 36, 14);
    });
});

describe('SCRUD odds agree with brute force through resolveScrud', () => {
    it('on two arms compared apart: foot 2 v 2 with grades, horse 1 v 1', () => {
        const a = [unit('A', 'Guard', 'foot', 2, D6), unit('A', 'Line', 'foot', 1, D6), unit('A', 'Hussars', 'horse', 0, D6)];
        const d = [unit('D', 'Grenz', 'foot', 1, D6), unit('D', 'Infantry', 'foot', 0, D6), unit('D', 'Dragoons', 'horse', 0, D6)];
        expectAgree(pair(a, d));
        expectAgree(pair(a, d, true));
    });

    it('on 4 v 4 in one arm with turned dice (every throw: 4^8 adjusted combinations)', () => {
        // +2 and −2 leave a d6 four distinct adjusted faces; ties between equal modifiers test S4.
        const a = [2, 2, -2, 2].map((m, i) => unit('A', `a${i}`, 'foot', m, D6));
        const d = [-2, 2, -2, -2].map((m, i) => unit('D', `d${i}`, 'foot', m, D6));
        expectAgree(pair(a, d));
    });

    it('on d8 and d10 lines, where a rout has up to six thresholds (the general count DP)', () => {
        const d8 = dieNamed('d8')!, d10 = dieNamed('d10')!;
        const a = [unit('A', 'a0', 'foot', 0, d10), unit('A', 'a1', 'foot', -1, d8), unit('A', 'a2', 'foot', 1, d8)];
        const d = [unit('D', 'd0', 'foot', 1, d10), unit('D', 'd1', 'foot', 0, d10)];
        expectAgree(pair(a, d));
    });

    it('on 3 v 3 plain d6 (6^6 throws)', () => {
        const a = [0, 1, 2].map(i => unit('A', `a${i}`, 'foot', 0, D6));
        const d = [0, 1, 2].map(i => unit('D', `d${i}`, 'foot', 0, D6));
        expectAgree(pair(a, d));
    });

    const arbUnit = fc.record({
        die: fc.constantFrom(D6, D4, AVERAGE, dieNamed('d8')!),
        modifier: fc.integer({ min: -3, max: 3 }),
        arm: fc.constantFrom('foot', 'horse')
    });
    const arbInput = fc.record({
        att: fc.array(arbUnit, { minLength: 1, maxLength: 4 }),
        def: fc.array(arbUnit, { minLength: 1, maxLength: 4 }),
        pooled: fc.boolean()
    }).map(({ att, def, pooled }) => pair(
        att.map((u, i) => unit('A', `a${i}`, u.arm, u.modifier, u.die)),
        def.map((u, i) => unit('D', `d${i}`, u.arm, u.modifier, u.die)), pooled));

    it('on random small cases: up to 4 dice a side, mixed dice, modifiers, arms and pooling', () => {
        fc.assert(fc.property(arbInput, input => {
            // Keep each case enumerable in well under a second; the 6^8 case is tested above.
            const throws = [...input.attacker.units, ...input.defender.units].reduce((n, u) => n * u.die.faces.length, 1);
            fc.pre(throws <= 20_000);
            expectAgree(input);
        }), { numRuns: 100, seed: 6 });
    });

    it('gives every unit probabilities that sum to 1', () => {
        fc.assert(fc.property(arbInput, input => {
            for (const u of scrudOdds(input).units) {
                const sum = SCRUD_RESULTS.reduce((s, l) => s + u.probabilities[l], 0);
                expect(Math.abs(sum - 1)).toBeLessThan(1e-12);
                for (const l of SCRUD_RESULTS) expect(u.probabilities[l]).toBeGreaterThanOrEqual(0);
            }
        }), { numRuns: 300, seed: 7 });
    });
});

describe('SCRUD odds agree with a seeded Monte Carlo of the real resolver', () => {
    it('on 12 v 11 foot and 4 v 3 horse, every unit and label within 4 standard errors', () => {
        const mods = [2, 1, 1, 0, 0, 0, -1, 0, 1, 2, -1, 0];
        const a = [...mods.map((m, i) => unit('A', `f${i}`, 'foot', m, D6)), ...[0, 1, 0, -1].map((m, i) => unit('A', `h${i}`, 'horse', m, D6))];
        const d = [...mods.slice(1).map((m, i) => unit('D', `f${i}`, 'foot', -m, D6)), ...[1, 0, 0].map((m, i) => unit('D', `h${i}`, 'horse', m, D6))];
        const input = pair(a, d);
        const samples = 10_000;
        const counts = new Map<string, Record<string, number>>();
        const routs = [0, 0];
        for (let s = 0; s < samples; s++) {
            const out = resolveScrud(input, throwScrudDice(input, 1_000_000 + s));
            for (const r of out.units) {
                const c = counts.get(r.id) ?? {};
                c[r.result] = (c[r.result] ?? 0) + 1;
                counts.set(r.id, c);
            }
            if (out.units.some(r => r.side === 'attacker' && r.result === 'rout')) routs[0]++;
            if (out.units.some(r => r.side === 'defender' && r.result === 'rout')) routs[1]++;
        }
        const within = (p: number, hits: number) => {
            // 4 standard errors of a proportion, plus one sample's worth so that p ≈ 0 is not a knife edge.
            const tolerance = 4 * Math.sqrt(p * (1 - p) / samples) + 1 / samples;
            expect(Math.abs(hits / samples - p)).toBeLessThanOrEqual(tolerance);
        };
        const odds = scrudOdds(input);
        for (const u of odds.units) for (const l of SCRUD_RESULTS) within(u.probabilities[l], counts.get(u.id)?.[l] ?? 0);
        within(odds.sides[0].atLeastOneRout!, routs[0]);
        within(odds.sides[1].atLeastOneRout!, routs[1]);
    });

});

describe('SCRUD rout chance on long lines', () => {
    it('drops only negligible edge cells: the trimmed joint law of 300 dice is within 1e-13 of the full one', () => {
        // Categories of a die against the two rout thresholds (below, between, above), varied per unit.
        const units = Array.from({ length: 300 }, (_, i) => {
            const below = [1, 2, 0, 3][i % 4] / 6, above = [3, 4, 6, 2][i % 4] / 6;
            return Float64Array.of(below, 1 - below - above, above);
        });
        for (const T of [1, 2]) {
            const cats = T === 1 ? units.map(u => Float64Array.of(u[0], u[1] + u[2])) : units;
            const trimmed = nestedCountsWithin(cats, T, 1e-22), full = nestedCountsWithin(cats, T, 0);
            expect(trimmed.dropped).toBeGreaterThan(0);
            expect(trimmed.dropped).toBeLessThan(1e-13);
            let worst = 0;
            for (let c = 0; c < full.law.length; c++) worst = Math.max(worst, Math.abs(full.law[c] - trimmed.law[c]));
            expect(worst).toBeLessThan(1e-13);
            expect(full.law.reduce((s, p) => s + p, 0)).toBeCloseTo(1, 12);
        }
    });
});
