/**
 * Trust tests for the exact Loose Files odds: every throw enumerated through the real
 * resolvers `resolveCombat` and `resolveFire`, on random units and situations.
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { AVERAGE } from '../../../src/core/dice.js';
import { COMBAT_RESULTS, resolveCombat, type CombatInput, type CombatSide } from '../../../src/rulesets/loose-files/engine/loose-files-combat.js';
import { fireDice, resolveFire, rerollsFor, type FireInput } from '../../../src/rulesets/loose-files/engine/loose-files-fire.js';
import { NO_HOUSE_RULES, type Cover, type Formation, type LfType, type LfUnit } from '../../../src/rulesets/loose-files/engine/loose-files-units.js';
import { combatOdds, fireOdds, FIRE_RESULTS, moveOdds } from '../../../src/rulesets/loose-files/engine/loose-files-odds.js';
import { resolveMove, type MoveInput } from '../../../src/rulesets/loose-files/engine/loose-files-movement.js';

const arbUnit = (id: string) => fc.record({
    type: fc.constantFrom<LfType>('infantry', 'cavalry', 'artillery'),
    class: fc.integer({ min: 1, max: 5 }),
    formation: fc.constantFrom<Formation>('line', 'column', 'skirmish', 'limbered', 'unlimbered'),
    stands: fc.integer({ min: 1, max: 5 }),
    dp: fc.integer({ min: 0, max: 2 }),
    casualties: fc.integer({ min: 0, max: 1 }),
    guns: fc.constantFrom<'light' | 'medium' | 'heavy'>('light', 'medium', 'heavy'),
    weapon: fc.constantFrom<'musket' | 'rifle'>('musket', 'rifle')
}).map((s): LfUnit => ({
    id, force: id.split('.')[0], unit: id.split('.')[1], ...s, deserted: 0,
    hessian: false, jaeger: false, militia: false, cp: 0, attached: undefined
}));
const arbCover = fc.option(fc.constantFrom<Cover>('fort', 'stone-building', 'fieldwork', 'wood-building', 'obstacle'), { nil: undefined });
const arbSide = (force: string) => fc.record({
    units: fc.array(arbUnit(`${force}.x`), { minLength: 1, maxLength: 3 }),
    cover: arbCover, bayonet: fc.boolean(), terrain: fc.boolean(), inspired: fc.boolean(), flankOrRear: fc.boolean()
}).map((s): CombatSide => ({
    units: s.units.map((u, i) => ({ ...u, id: `${force}.u${i}`, unit: `u${i}` })),
    cover: s.cover, bayonet: s.bayonet, terrain: s.terrain, inspiredBy: s.inspired ? [`${force}.Officer`] : [], flankOrRear: s.flankOrRear
}));

describe('Loose Files combat odds agree with every throw of resolveCombat', () => {
    it('for random sides: classes, cover, bayonets, skirmishers, DPs, casualties, outnumbering', () => {
        fc.assert(fc.property(arbSide('A'), arbSide('D'), (attacker, defender) => {
            const input: CombatInput = { attacker, defender, options: NO_HOUSE_RULES, previousStandOff: false };
            const odds = combatOdds(input);
            for (const role of ['attacker', 'defender'] as const) {
                const rows = Object.fromEntries(COMBAT_RESULTS.map(r => [r, 0]));
                const dp: number[] = [], cas: number[] = [];
                for (const a of AVERAGE.faces) for (const d of AVERAGE.faces) {
                    const o = resolveCombat(input, { attacker: a, defender: d })[role];
                    rows[o.result] += 1 / 36;
                    dp[o.dp] = (dp[o.dp] ?? 0) + 1 / 36;
                    cas[o.casualties] = (cas[o.casualties] ?? 0) + 1 / 36;
                }
                for (const r of COMBAT_RESULTS) expect(Math.abs(odds[role].probabilities[r] - rows[r])).toBeLessThanOrEqual(1e-12);
                for (let k = 0; k < 5; k++) {
                    expect(Math.abs((odds[role].dp[k] ?? 0) - (dp[k] ?? 0))).toBeLessThanOrEqual(1e-12);
                    expect(Math.abs((odds[role].casualties[k] ?? 0) - (cas[k] ?? 0))).toBeLessThanOrEqual(1e-12);
                }
            }
        }), { numRuns: 200, seed: 6 });
    });

    it('makes an equal fight a stand-off (−1..+1) 26/36 of the time: P(|a − d| ≤ 1) on two average dice', () => {
        // Average die 2,3,3,4,4,5 (one 2, two 3s, two 4s, one 5): of the 36 throws, the same total
        // 1+4+4+1 = 10, one apart (2,3) 2 + (3,4) 4 + (4,5) 2, both ways = 16: 26 in all.
        const unit: LfUnit = { id: 'A.x', force: 'A', unit: 'x', type: 'infantry', class: 3, formation: 'line', stands: 4, dp: 0, casualties: 0, deserted: 0,
            guns: undefined, weapon: 'musket', hessian: false, jaeger: false, militia: false, cp: 0, attached: undefined };
        const side = (u: LfUnit): CombatSide => ({ units: [u], cover: undefined, bayonet: false, terrain: false, inspiredBy: [], flankOrRear: false });
        const odds = combatOdds({ attacker: side(unit), defender: side({ ...unit, id: 'D.y', force: 'D' }), options: NO_HOUSE_RULES, previousStandOff: false });
        expect(odds.attacker.probabilities['stand-off']).toBeCloseTo(26 / 36, 14);
    });
});

describe('Loose Files fire odds agree with every throw of resolveFire', () => {
    const arbFire = fc.record({
        // Targets include officers (they take nothing, L1.4) and one-stand units with a casualty (no
        // stand left to lose, L1.3); ranges go in half inches (fractions, #l-dist).
        firer: arbUnit('A.f'), target: fc.tuple(arbUnit('D.t'), fc.boolean()).map(([u, officer]) => (officer ? { ...u, type: 'officer' as const } : u)),
        range: fc.integer({ min: 0, max: 80 }).map(n => n / 2),
        sameTarget: fc.boolean(), newTarget: fc.boolean(), cover: arbCover
    }).map(({ firer, target, range, sameTarget, newTarget, cover }): FireInput => ({
        firer: { ...firer, stands: Math.min(firer.stands, 4) }, target, range, sameTarget, newTarget, moved: false, targetCover: cover, options: NO_HOUSE_RULES
    }));

    it('for artillery and infantry (skirmishers re-rolling fives), at every range, up to 4 dice', () => {
        fc.assert(fc.property(arbFire, input => {
            const n = fireDice(input).count;
            const rows = Object.fromEntries(FIRE_RESULTS.map(r => [r, 0]));
            const dp: number[] = [], cas: number[] = [];
            const walk = (d6: number[], w: number) => {
                if (d6.length < n) { for (let f = 1; f <= 6; f++) walk([...d6, f], w / 6); return; }
                const re = rerollsFor(input, d6);
                const rerolls = (r: number[], w2: number) => {
                    if (r.length < re) { for (let f = 1; f <= 6; f++) rerolls([...r, f], w2 / 6); return; }
                    const o = resolveFire(input, { d6, reroll: r });
                    rows[o.result] += w2;
                    dp[o.dp] = (dp[o.dp] ?? 0) + w2;
                    cas[o.casualties] = (cas[o.casualties] ?? 0) + w2;
                };
                rerolls([], w);
            };
            walk([], 1);
            const odds = fireOdds(input);
            for (const r of FIRE_RESULTS) expect(Math.abs(odds.probabilities[r] - rows[r])).toBeLessThanOrEqual(1e-12);
            for (let k = 0; k <= 2 * n; k++) {
                expect(Math.abs((odds.dp[k] ?? 0) - (dp[k] ?? 0))).toBeLessThanOrEqual(1e-12);
                expect(Math.abs((odds.casualties[k] ?? 0) - (cas[k] ?? 0))).toBeLessThanOrEqual(1e-12);
            }
        }), { numRuns: 150, seed: 7 });
    });
});

describe('Loose Files movement odds agree with every throw of resolveMove', () => {
    const arbMove = fc.record({
        unit: arbUnit('A.m'), average: fc.integer({ min: 0, max: 2 }), d6: fc.integer({ min: 0, max: 3 }),
        hessian: fc.boolean(), woods: fc.boolean(), uphill: fc.boolean(), charging: fc.boolean(), wheel: fc.boolean(),
        formationChange: fc.boolean(), retire: fc.boolean(), underFire: fc.boolean()
    }).map((m): MoveInput => ({
        unit: m.unit, average: m.average, d6: m.d6, plus: m.hessian ? 2 : 0, woods: m.woods, uphill: m.uphill,
        charging: m.charging, wheel: m.wheel, formationChange: m.formationChange && m.average === 0, retire: m.retire,
        underFire: m.underFire, stop: undefined, options: NO_HOUSE_RULES
    }));

    it('for every mix of average dice and d6, woods, uphill, retiring, wheeling and formation changes', () => {
        fc.assert(fc.property(arbMove, input => {
            const counts = input.formationChange ? { average: 0, d6: 0 } : { average: input.average, d6: input.d6 };
            const distance: number[] = [], dp: number[] = [];
            const walk = (avg: number[], d6: number[], w: number) => {
                if (avg.length < counts.average) { for (const f of AVERAGE.faces) walk([...avg, f], d6, w / 6); return; }
                if (d6.length < counts.d6) { for (let f = 1; f <= 6; f++) walk(avg, [...d6, f], w / 6); return; }
                const o = resolveMove(input, { average: avg, d6 });
                distance[o.inches] = (distance[o.inches] ?? 0) + w;
                dp[o.dp] = (dp[o.dp] ?? 0) + w;
            };
            walk([], [], 1);
            const odds = moveOdds(input);
            for (let k = 0; k < 40; k++) {
                expect(Math.abs((odds.distance[k] ?? 0) - (distance[k] ?? 0))).toBeLessThanOrEqual(1e-12);
                expect(Math.abs((odds.dp[k] ?? 0) - (dp[k] ?? 0))).toBeLessThanOrEqual(1e-12);
            }
        }), { numRuns: 200, seed: 8 });
    });
});
