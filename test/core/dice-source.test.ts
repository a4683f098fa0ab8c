/**
 * The one dice source (src/core/dice-source.ts) and dice plans (src/core/dice-plan.ts): seeded dice
 * thrown in request order from one stream, entered dice read from mapped values with an audit, and a
 * plan walked with conditional steps decided from the dice before them.
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { AVERAGE, D6, dieNamed, SeededDice, type Die } from '../../src/core/dice.js';
import { enteredDiceSource, seededDiceSource, type DiceRequest, type EnteredValues } from '../../src/core/dice-source.js';
import { fixedDice, fixedDiceCount, mostDiceCount, walkDicePlan, type DicePlan } from '../../src/core/dice-plan.js';

const D4 = dieNamed('d4')!;
const ask = (who: string[], label: string, die: Die, count: number): DiceRequest => ({ who, label, die, count });

describe('seeded dice source', () => {
    const requestArb = fc.record({
        who: fc.constantFrom(['A.x'], ['B.y'], ['A.x', 'A.z']),
        label: fc.constantFrom('average', 'd6', 'hit'),
        die: fc.constantFrom(D6, AVERAGE, D4),
        count: fc.integer({ min: 0, max: 5 })
    });

    it('throws each request from one stream in request order, the same for the same seed', () => {
        fc.assert(fc.property(fc.integer({ min: 0, max: 0xffffffff }), fc.array(requestArb, { maxLength: 8 }), (seed, requests) => {
            const source = seededDiceSource(seed);
            const got = requests.map(r => source.take(r));
            // The stream is SeededDice's (golden-tested): the requests only cut it into pieces.
            const stream = new SeededDice(seed);
            expect(got).toEqual(requests.map(r => stream.rollMany(r.die, r.count)));
            expect(source.taken.map(t => t.values)).toEqual(got);
            const again = seededDiceSource(seed);
            expect(requests.map(r => again.take(r))).toEqual(got);
            for (const [i, values] of got.entries()) for (const v of values) expect(requests[i].die.faces).toContain(v);
        }));
    });
});

describe('entered dice source', () => {
    const line1 = { name: 'dice A 3 4 5' }, line2 = { name: 'dice A.x d6 6' }, line3 = { name: 'dice B 2' };
    const entries: Array<EnteredValues<object>> = [
        { origin: line1, who: ['A.x', 'A.z'], label: 'average', values: [3, 4, 5] },
        { origin: line2, who: ['A.x'], label: 'd6', values: [6] },
        { origin: line3, who: ['B.y'], label: 'average', values: [2] }
    ];

    it('reads each request from the lines of its label that name one of its throwers, going on where the last read stopped', () => {
        const source = enteredDiceSource(entries);
        expect(source.take(ask(['A.x'], 'average', AVERAGE, 2))).toEqual([3, 4]);
        expect(source.take(ask(['A.z'], 'average', AVERAGE, 1))).toEqual([5]);
        expect(source.take(ask(['A.x'], 'd6', D6, 1))).toEqual([6]);
        expect(source.take(ask(['B.y'], 'average', AVERAGE, 1))).toEqual([2]);
        // Nothing left: a request gets fewer than it asked for, and no audit was asked for.
        expect(source.take(ask(['A.x'], 'average', AVERAGE, 1))).toEqual([]);
        expect(source.audit).toBeUndefined();
        expect(source.readFrom[1]).toEqual([{ origin: line1, index: 2 }]);
        expect(source.taken.map(t => t.values)).toEqual([[3, 4], [5], [6], [2], []]);
    });

    it('a label or thrower that no line names reads nothing', () => {
        const source = enteredDiceSource(entries);
        expect(source.take(ask(['C.w'], 'average', AVERAGE, 1))).toEqual([]);
        expect(source.take(ask(['A.x'], 'reroll', D6, 1))).toEqual([]);
    });

    it('the audit records the die each value was read as, at its index in the line, and every short request', () => {
        const bad = { name: 'dice A 7 3' };
        const source = enteredDiceSource<object>([
            { origin: bad, who: ['A.x'], label: 'average', values: [7] },
            { origin: bad, who: ['A.x'], label: 'average', values: [3], firstIndex: 1 }
        ], { audit: true });
        // A face the die cannot show is read as its lowest face, so that reading goes on; a short request is filled the same way.
        expect(source.take(ask(['A.x'], 'average', AVERAGE, 3))).toEqual([2, 3, 2]);
        expect([...source.audit!.reads.get(bad)!.entries()]).toEqual([[0, AVERAGE], [1, AVERAGE]]);
        expect(source.audit!.shortages).toEqual([{ request: ask(['A.x'], 'average', AVERAGE, 3), got: 2 }]);
    });

    it('reads exactly the values entered, in order, for any cut of one line into requests', () => {
        fc.assert(fc.property(fc.array(fc.integer({ min: 1, max: 6 }), { maxLength: 10 }), fc.array(fc.integer({ min: 0, max: 4 }), { maxLength: 6 }), (values, counts) => {
            const origin = {};
            const source = enteredDiceSource([{ origin, who: ['A.x'], label: 'd6', values }], { audit: true });
            const got = counts.map(count => source.take(ask(['A.x'], 'd6', D6, count)));
            const asked = counts.reduce((a, b) => a + b, 0);
            // The values read are the line's, in order, then the die's lowest face for what was missing.
            expect(got.flat()).toEqual([...values, ...Array(Math.max(0, asked - values.length)).fill(1)].slice(0, asked));
            expect(source.audit!.reads.get(origin)?.size ?? 0).toBe(Math.min(asked, values.length));
            expect(source.audit!.shortages.length > 0).toBe(asked > values.length);
        }));
    });
});

describe('dice plans', () => {
    // Two throws of d6, then one save for each die that shows 4 or more: a conditional step.
    const plan: DicePlan = {
        steps: [
            fixedDice(ask(['A.x'], 'hit', D6, 2)),
            fixedDice(ask(['B.y'], 'hit', D6, 1)),
            {
                kind: 'conditional', reason: 'one save per hit', upTo: 3,
                requests: earlier => {
                    const hitsOnB = earlier[0].filter(v => v >= 4).length, hitsOnA = earlier[1].filter(v => v >= 4).length;
                    return [...(hitsOnA ? [ask(['A.x'], 'save', D6, hitsOnA)] : []), ...(hitsOnB ? [ask(['B.y'], 'save', D6, hitsOnB)] : [])];
                }
            }
        ]
    };

    it('counts the fixed dice and bounds the conditional ones', () => {
        expect(fixedDiceCount(plan)).toBe(3);
        expect(mostDiceCount(plan)).toBe(6);
    });

    it('walks the steps in order, deciding a conditional step from the dice before it', () => {
        const taken = walkDicePlan(plan, enteredDiceSource([
            { origin: 1, who: ['A.x'], label: 'hit', values: [5, 2] },
            { origin: 2, who: ['B.y'], label: 'hit', values: [6] },
            { origin: 3, who: ['A.x'], label: 'save', values: [3] },
            { origin: 4, who: ['B.y'], label: 'save', values: [1] }
        ]));
        expect(taken.map(t => [t.request.who[0], t.request.label, t.request.count, t.values])).toEqual([
            ['A.x', 'hit', 2, [5, 2]], ['B.y', 'hit', 1, [6]], ['A.x', 'save', 1, [3]], ['B.y', 'save', 1, [1]]
        ]);
    });

    it('takes from a seed exactly what the same requests take in the same order', () => {
        fc.assert(fc.property(fc.integer({ min: 0, max: 0xffffffff }), seed => {
            const taken = walkDicePlan(plan, seededDiceSource(seed));
            const stream = new SeededDice(seed);
            expect(taken.map(t => t.values)).toEqual(taken.map(t => stream.rollMany(t.request.die, t.request.count)));
            const total = taken.reduce((n, t) => n + t.values.length, 0);
            expect(total).toBeGreaterThanOrEqual(fixedDiceCount(plan));
            expect(total).toBeLessThanOrEqual(mostDiceCount(plan));
        }));
    });
});
