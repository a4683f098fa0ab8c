/**
 * The Ancients rules A1–A9 (docs/rules/ancients.md), each by a case worked out by hand: the numbers in
 * the expectations come from the seed's tables and the reading in docs/rules/ancients.md, not from the engine.
 */
import { describe, expect, it } from 'vitest';
import {
    advantage, attackPlan, diceFor, diceSplit, followUpOf, resolveAncients, saveFor, SequenceDice, testModifiers, testResult,
    thresholdFor, toHitFor, tokensGainedFor, type AncientsInput, type AncientsResult, type AncientsUnit
} from '../../../src/rulesets/ancients/engine/ancients-engine.js';

/** A medium, medium-weight, formed infantry unit of skill 1, leadership 7, with overrides. */
function unit(id: string, side: 'attacker' | 'defender', over: Partial<AncientsUnit> = {}): AncientsUnit {
    const [force, name] = id.split('.');
    return {
        id, force, unit: name, side, size: 'medium', skill: 1, weight: 'medium', type: 'infantry', formation: 'formed',
        leadership: 7, shock: false, defensive: false, tokens: 0, tested: false, move: undefined, charged: false, followUp: false, ...over
    };
}

function duel(a: AncientsUnit, b: AncientsUnit, over: Partial<AncientsInput> = {}): AncientsInput {
    return { units: [a, b], pairings: [{ a: a.id, aPosition: 'front', b: b.id, bPosition: 'front' }], splits: [], firstTurn: false, breakDice: 2, ...over };
}

describe('A1 dice by size, +2 for shock or defensive on the first turn', () => {
    it('huge 12, large 10, medium 8, small 6', () => {
        for (const [size, n] of [['huge', 12], ['large', 10], ['medium', 8], ['small', 6]] as const) {
            expect(diceFor({ size, shock: false, defensive: false, charged: false }, true)).toBe(n);
        }
    });
    it('a shock unit that charged rolls 14/12/10/8 on the first turn only', () => {
        expect(diceFor({ size: 'huge', shock: true, defensive: false, charged: true }, true)).toBe(14);
        expect(diceFor({ size: 'small', shock: true, defensive: false, charged: true }, true)).toBe(8);
        expect(diceFor({ size: 'huge', shock: true, defensive: false, charged: true }, false)).toBe(12);
        expect(diceFor({ size: 'huge', shock: true, defensive: false, charged: false }, true)).toBe(12);
    });
    it('a defensive unit gets the +2 only when it did not charge', () => {
        expect(diceFor({ size: 'large', shock: false, defensive: true, charged: false }, true)).toBe(12);
        expect(diceFor({ size: 'large', shock: false, defensive: true, charged: true }, true)).toBe(10);
    });
});

describe('A2 the split', () => {
    it('one opponent takes all the dice; a split is followed in its order', () => {
        const a = unit('P.Immortals', 'defender', { size: 'large' });
        const b = unit('G.Hoplites', 'attacker'), c = unit('G.Peltasts', 'attacker');
        const input: AncientsInput = {
            units: [b, c, a],
            pairings: [{ a: b.id, aPosition: 'front', b: a.id, bPosition: 'front' }, { a: c.id, aPosition: 'flank', b: a.id, bPosition: 'front' }],
            splits: [{ unit: a.id, parts: [{ target: c.id, dice: 4 }, { target: b.id, dice: 6 }] }],
            firstTurn: false, breakDice: 2
        };
        expect(diceSplit(input, b)).toEqual([{ target: a.id, dice: 8 }]);
        expect(diceSplit(input, a)).toEqual([{ target: c.id, dice: 4 }, { target: b.id, dice: 6 }]);
    });
});

describe('A3 advantage in five categories, A4 to-hit', () => {
    it('sums skill, weight, type, formation and position against the target', () => {
        // Heavy formed cavalry skill 3 in the rear of light skirmish infantry skill 1 that faces it with its front:
        // skill 3−1 = 2, weight 2−0 = 2, type 1−0 = 1, formation 2−0 = 2, position 2−0 = 2 → +9.
        const cav = unit('A.Cav', 'attacker', { skill: 3, weight: 'heavy', type: 'cavalry' });
        const sk = unit('B.Sk', 'defender', { skill: 1, weight: 'light', formation: 'skirmish' });
        expect(advantage(cav, sk, 'rear', 'front').net).toBe(9);
        expect(advantage(sk, cav, 'front', 'rear').net).toBe(-9);
    });
    it('advantages from different categories cancel', () => {
        // Skill 3 v 1 (+2) against heavy v light (−2): even.
        const a = unit('A.a', 'attacker', { skill: 3, weight: 'light' });
        const b = unit('B.b', 'defender', { skill: 1, weight: 'heavy' });
        expect(advantage(a, b, 'front', 'front').net).toBe(0);
    });
    it('the target\'s own position counts for the target: flank v flank is even', () => {
        const a = unit('A.a', 'attacker'), b = unit('B.b', 'defender');
        expect(advantage(a, b, 'flank', 'front').net).toBe(1);
        expect(advantage(a, b, 'flank', 'flank').net).toBe(0);
        expect(advantage(a, b, 'rear', 'flank').net).toBe(1);
    });
    it('net 0 both 4+; +1 3+ v 4+; +2 or more 3+ v 5+', () => {
        expect([toHitFor(0), toHitFor(0)]).toEqual([4, 4]);
        expect([toHitFor(1), toHitFor(-1)]).toEqual([3, 4]);
        expect([toHitFor(2), toHitFor(-2)]).toEqual([3, 5]);
        expect([toHitFor(5), toHitFor(-5)]).toEqual([3, 5]);
    });
    it('the plan gives both directions of a pairing their numbers', () => {
        const a = unit('A.a', 'attacker', { weight: 'heavy', skill: 2 }); // +1 weight, +1 skill = +2
        const b = unit('B.b', 'defender');
        const plan = attackPlan(duel(a, b));
        expect(plan.map(p => [p.attacker, p.target, p.dice, p.advantage, p.toHit])).toEqual([
            ['A.a', 'B.b', 8, 2, 3], ['B.b', 'A.a', 8, -2, 5]
        ]);
    });
});

describe('A5 saves by weight, A6 thresholds', () => {
    it('heavy 4+, medium 5+, light 6+', () => {
        expect([saveFor('heavy'), saveFor('medium'), saveFor('light')]).toEqual([4, 5, 6]);
    });
    it('huge 5, large 4, medium 3, small 2', () => {
        expect(['huge', 'large', 'medium', 'small'].map(s => thresholdFor(s as 'huge'))).toEqual([5, 4, 3, 2]);
    });
});

describe('A7 the break test', () => {
    it('first test +1, winning side +1, −1 per extra multiple, −1 per token', () => {
        const u = { tested: false, tokens: 2, side: 'defender' as const };
        // 7 hits, threshold 3: ⌊7/3⌋ − 1 = 1 extra multiple.
        expect(testModifiers(u, 7, 3, 'defender')).toEqual([
            { reason: 'first-test', value: 1 }, { reason: 'winning-side', value: 1 },
            { reason: 'extra-multiples', value: -1 }, { reason: 'damage-tokens', value: -2 }
        ]);
        expect(testModifiers({ ...u, tested: true, tokens: 0 }, 3, 3, null)).toEqual([]);
        expect(testModifiers({ ...u, tested: true, tokens: 0 }, 9, 3, 'attacker')).toEqual([{ reason: 'extra-multiples', value: -2 }]);
    });
    it('below leadership destroyed, equal gives ground, above holds', () => {
        expect([testResult(6, 7), testResult(7, 7), testResult(8, 7)]).toEqual(['destroyed', 'gives-ground', 'holds']);
    });
    it('a whole melee: the side with fewer hits gets +1; a tie gives neither', () => {
        // Two even medium units (4+ each way, 5+ saves, threshold 3).
        const a = unit('A.a', 'attacker'), b = unit('B.b', 'defender');
        // A hits with 4 of 8 (4 5 6 6), B with 3 of 8 (4 4 4). Saves, A first: A's 3 saves 1 5 2 → 2 unsaved;
        // B's 4 saves 3 6 1 1 → 3 unsaved. A took 2 < 3: A's side wins.
        const dice = [4, 5, 6, 6, 1, 1, 2, 3, 4, 4, 4, 1, 1, 1, 1, 1, 1, 5, 2, 3, 6, 1, 1, 3, 3];
        const out = resolveAncients(duel(a, b), new SequenceDice(dice));
        const [ra, rb] = out.units;
        expect([ra.hitsScored, rb.hitsScored, rb.hits, ra.hits]).toEqual([4, 3, 3, 2]);
        expect(out.sideHits).toEqual({ attacker: 2, defender: 3 });
        expect(out.winner).toBe('attacker');
        expect(ra.result).toBe('untested');
        // B took 3 = threshold: 2d6 3+3 = 6, +1 first test, no winning side → 7 = leadership 7: gives ground.
        expect(rb.test).toEqual({ dice: [3, 3], roll: 6, modifiers: [{ reason: 'first-test', value: 1 }], total: 7, needed: 7 });
        expect(rb.result).toBe('gives-ground');
        expect(rb.tokensGained).toBe(1);
    });
    it('a tie in hits: both test without the winning-side +1', () => {
        const a = unit('A.a', 'attacker', { size: 'small' }), b = unit('B.b', 'defender', { size: 'small' });
        // 6 dice each at 4+: A 6 6 6 1 1 1 → 3 hits, B 5 5 5 2 2 2 → 3 hits; saves (5+) all fail.
        const dice = [6, 6, 6, 1, 1, 1, 5, 5, 5, 2, 2, 2, 1, 1, 1, 2, 2, 2, 4, 4, 4, 4];
        const out = resolveAncients(duel(a, b), new SequenceDice(dice));
        expect(out.winner).toBeNull();
        // Each took 3, threshold 2: ⌊3/2⌋ − 1 = 0 extra; 4+4 = 8 +1 first = 9 > 7: holds, 1 token.
        for (const r of out.units) {
            expect(r.test?.modifiers).toEqual([{ reason: 'first-test', value: 1 }]);
            expect([r.test?.total, r.result, r.tokensGained]).toEqual([9, 'holds', 1]);
        }
    });
    it('option break-die d6 throws one die', () => {
        const a = unit('A.a', 'attacker', { size: 'small', leadership: 4 }), b = unit('B.b', 'defender', { size: 'small' });
        const dice = [6, 6, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 3];
        const out = resolveAncients(duel(a, b, { breakDice: 1 }), new SequenceDice(dice));
        // A hits twice, B never: B saves 1 1 → 2 unsaved = threshold; 1d6 3 +1 first test = 4 (B's side took
        // more hits: no +1) < leadership 7: destroyed.
        const rb = out.units[1];
        expect(rb.test?.dice).toEqual([3]);
        expect(rb.test?.total).toBe(4);
        expect(rb.result).toBe('destroyed');
        expect(rb.tokensGained).toBe(0);
    });
});

describe('A8 damage tokens gained', () => {
    it('survivors gain one per full multiple of their threshold; the destroyed and untested none', () => {
        expect(tokensGainedFor('holds', 9, 4)).toBe(2);
        expect(tokensGainedFor('gives-ground', 4, 4)).toBe(1);
        expect(tokensGainedFor('destroyed', 9, 4)).toBe(0);
        expect(tokensGainedFor('untested', 3, 4)).toBe(0);
    });
});

describe('A9 follow-up', () => {
    const g = unit('A.g', 'attacker', { move: 6, followUp: true });
    const h = unit('A.h', 'attacker', { move: 4, followUp: true });
    const x = unit('B.x', 'defender', { move: 5 }), y = unit('B.y', 'defender');
    const input: AncientsInput = {
        units: [g, h, x, y],
        pairings: [{ a: g.id, aPosition: 'front', b: x.id, bPosition: 'front' }, { a: h.id, aPosition: 'front', b: x.id, bPosition: 'front' },
            { a: h.id, aPosition: 'front', b: y.id, bPosition: 'front' }],
        splits: [], firstTurn: false, breakDice: 2
    };
    const results = (r: Record<string, AncientsResult>) => new Map(Object.entries(r));
    it('an opponent of a unit giving ground may follow up half its move, if chosen', () => {
        const f = followUpOf(input, g, results({ 'A.g': 'untested', 'A.h': 'untested', 'B.x': 'gives-ground', 'B.y': 'holds' }));
        expect(f).toEqual({ from: ['B.x'], allowed: true, chosen: true, moves: true, distance: 3, reason: null });
    });
    it('not while locked in combat with another opponent, nor when giving ground itself', () => {
        const r = results({ 'A.g': 'gives-ground', 'A.h': 'untested', 'B.x': 'gives-ground', 'B.y': 'holds' });
        expect(followUpOf(input, h, r)).toMatchObject({ allowed: false, moves: false, reason: 'it is still locked in combat with B.y' });
        expect(followUpOf(input, g, r)).toMatchObject({ allowed: false, reason: 'it gives ground itself' });
        // Once B.y is destroyed, A.h is free.
        expect(followUpOf(input, h, results({ 'A.h': 'holds', 'B.x': 'gives-ground', 'B.y': 'destroyed' }))).toMatchObject({ allowed: true, distance: 2 });
    });
    it('nothing to follow when no opponent gave ground; not chosen means it stays', () => {
        expect(followUpOf(input, g, results({ 'B.x': 'holds' }))).toBeNull();
        expect(followUpOf(input, { ...g, followUp: false }, results({ 'B.x': 'gives-ground' }))).toMatchObject({ allowed: true, chosen: false, moves: false, distance: null });
    });
    it('the unit giving ground moves back half its move', () => {
        // B.x (move 5) is hit 3 times by A.g, saves fail, tests 3+3 +1 = 7 = leadership: gives ground 2.5".
        const duo = duel(unit('A.g', 'attacker', { move: 6, followUp: true }), unit('B.x', 'defender', { move: 5 }));
        const dice = [6, 6, 6, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 3, 3];
        const out = resolveAncients(duo, new SequenceDice(dice));
        expect(out.units[1]).toMatchObject({ hits: 3, result: 'gives-ground', givesGroundDistance: 2.5 });
        expect(out.units[0].followUp).toMatchObject({ moves: true, distance: 3 });
    });
});

describe('the dice order', () => {
    it('hits (units in order, targets in split order), then saves, then tests', () => {
        const calls: string[] = [];
        const a = unit('A.a', 'attacker', { size: 'small' }), b = unit('B.b', 'defender', { size: 'small' });
        resolveAncients(duel(a, b), {
            roll(kind, id, count) {
                calls.push(`${kind} ${id} ${count}`);
                return Array.from({ length: count }, () => (kind === 'save' ? 1 : 6));
            }
        });
        expect(calls).toEqual(['hit A.a 6', 'hit B.b 6', 'save A.a 6', 'save B.b 6', 'test A.a 2', 'test B.b 2']);
    });
});
