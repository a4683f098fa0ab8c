/**
 * The Ancients dice plan (docs/rules/ancients.md#dice-plan) against the engine: on random small melees and
 * seeds, walking the plan takes exactly the dice resolving takes (who, throw, count and values, in
 * order); its fixed dice are the hit dice, and its conditional saves and tests stay within their bound.
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { resolveAncients, throwsFrom, type AncientsInput, type AncientsPosition, type AncientsUnit } from '../../../src/rulesets/ancients/engine/ancients-engine.js';
import { ancientsDicePlan } from '../../../src/rulesets/ancients/ancients-reader.js';
import { seededDiceSource } from '../../../src/core/dice-source.js';
import { fixedDiceCount, mostDiceCount, walkDicePlan } from '../../../src/core/dice-plan.js';

const unitArb = (id: string, side: 'attacker' | 'defender') => fc.record({
    size: fc.constantFrom('small' as const, 'medium' as const, 'large' as const, 'huge' as const),
    skill: fc.integer({ min: 0, max: 4 }), weight: fc.constantFrom('light' as const, 'medium' as const, 'heavy' as const),
    type: fc.constantFrom('cavalry' as const, 'infantry' as const), formation: fc.constantFrom('skirmish' as const, 'warband' as const, 'formed' as const),
    leadership: fc.integer({ min: 2, max: 12 }), shock: fc.boolean(), defensive: fc.boolean(), tokens: fc.integer({ min: 0, max: 3 }),
    tested: fc.boolean(), charged: fc.boolean()
}).map((r): AncientsUnit => ({ id, force: id.split('.')[0], unit: id.split('.')[1], side, move: undefined, followUp: false, ...r }));

const POS = ['front', 'flank', 'rear'] as const;
/** One or two attackers on one defender, which splits its pool when it has two opponents. */
const meleeArb = fc.record({
    a1: unitArb('A.a1', 'attacker'), a2: fc.option(unitArb('A.a2', 'attacker'), { nil: undefined }), d: unitArb('D.d', 'defender'),
    p: fc.constantFrom(...POS), firstTurn: fc.boolean(), breakDice: fc.constantFrom(1 as const, 2 as const), cut: fc.integer({ min: 0, max: 6 })
}).map(({ a1, a2, d, p, firstTurn, breakDice, cut }): AncientsInput => {
    const pair = (a: string, position: AncientsPosition) => ({ a, aPosition: position, b: d.id, bPosition: 'front' as AncientsPosition });
    if (!a2) return { units: [a1, d], firstTurn, breakDice, splits: [], pairings: [pair(a1.id, p)] };
    const pool = { small: 6, medium: 8, large: 10, huge: 12 }[d.size] + (firstTurn && ((d.shock && d.charged) || (d.defensive && !d.charged)) ? 2 : 0);
    return {
        units: [a1, a2, d], firstTurn, breakDice, pairings: [pair(a1.id, p), pair(a2.id, 'front')],
        splits: [{ unit: d.id, parts: [{ target: a1.id, dice: Math.min(cut, pool) }, { target: a2.id, dice: pool - Math.min(cut, pool) }] }]
    };
});

const requests = (taken: ReadonlyArray<{ request: { who: readonly string[], label: string, count: number }, values: readonly number[] }>) =>
    taken.map(t => [t.request.who.join(','), t.request.label, t.request.count, [...t.values]]);

describe('Ancients dice plan', () => {
    it('takes exactly the dice resolving takes, in the same order, from the same seed', () => {
        fc.assert(fc.property(meleeArb, fc.integer({ min: 0, max: 0xffffffff }), (input, seed) => {
            const resolving = seededDiceSource(seed);
            const outcome = resolveAncients(input, throwsFrom(resolving));
            const plan = ancientsDicePlan(input);
            const walked = walkDicePlan(plan, seededDiceSource(seed));
            expect(requests(walked)).toEqual(requests(resolving.taken));
            // The fixed dice are the hit dice: every pool thrown whatever the dice show.
            const hitDice = resolving.taken.filter(t => t.request.label === 'hit').reduce((n, t) => n + t.values.length, 0);
            expect(fixedDiceCount(plan)).toBe(hitDice);
            const all = resolving.taken.reduce((n, t) => n + t.values.length, 0);
            expect(all).toBeLessThanOrEqual(mostDiceCount(plan));
            // A save for each hit received, by the engine's own count.
            for (const u of outcome.units) {
                expect(walked.filter(t => t.request.label === 'save' && t.request.who[0] === u.id).reduce((n, t) => n + t.request.count, 0)).toBe(u.hitsReceived);
            }
        }), { numRuns: 300 });
    });
});
