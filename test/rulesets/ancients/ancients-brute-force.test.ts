/**
 * The Ancients engine against independent computations (docs/rules/ancients.md, A1–A9):
 * 1. exhaustive enumeration on small pools — every sequence of dice the engine can ask for, each with
 *    its chance 6^-length — compared with the distribution worked out separately from binomials and
 *    the break-test dice;
 * 2. random engagements (several units, splits, positions, tokens) and random dice, compared roll by
 *    roll with a second implementation written from the rules reference in this file.
 */
import { describe, expect, it } from 'vitest';
import { everyThrow } from '../../support/ancients-every-throw.js';
import fc from 'fast-check';
import {
    resolveAncients, SequenceDice, type AncientsInput, type AncientsPosition, type AncientsResult, type AncientsUnit
} from '../../../src/rulesets/ancients/engine/ancients-engine.js';

// ─── A second reading of the rules, kept apart from src/rules/ancients.ts ─────────────────────────

const SIZES = ['small', 'medium', 'large', 'huge'] as const;
const POOL = [6, 8, 10, 12];                      // A1, by index in SIZES
const THRESH = [2, 3, 4, 5];                      // A6
const WEIGHTS = ['light', 'medium', 'heavy'] as const; // steps = index (A3)
const SAVE = [6, 5, 4];                           // A5, by weight index
const FORMS = ['skirmish', 'warband', 'formed'] as const; // steps = index
const POS = ['front', 'flank', 'rear'] as const;  // steps = index

function refPool(u: AncientsUnit, firstTurn: boolean): number {
    let n = POOL[SIZES.indexOf(u.size)];
    if (firstTurn && u.shock && u.charged) n += 2;
    if (firstTurn && u.defensive && !u.charged) n += 2;
    return n;
}

function refNeed(u: AncientsUnit, t: AncientsUnit, up: AncientsPosition, tp: AncientsPosition): number {
    const score = (x: AncientsUnit, p: AncientsPosition) =>
        x.skill + WEIGHTS.indexOf(x.weight) + (x.type === 'cavalry' ? 1 : 0) + FORMS.indexOf(x.formation) + POS.indexOf(p);
    const net = score(u, up) - score(t, tp);
    return net > 0 ? 3 : net < -1 ? 5 : 4; // A4: +1 or more 3+, −2 or less 5+, else 4+
}

interface RefUnit { result: AncientsResult, unsaved: number, tokens: number, total: number | null }

/** The melee from a flat list of dice, taken hits → saves → tests, as docs/rules/ancients.md fixes. */
function reference(input: AncientsInput, dice: readonly number[]): Map<string, RefUnit> {
    let next = 0;
    const take = () => dice[next++];
    const pos = (a: string, b: string): AncientsPosition => {
        const p = input.pairings.find(x => (x.a === a && x.b === b) || (x.a === b && x.b === a))!;
        return p.a === a ? p.aPosition : p.bPosition;
    };
    const byId = new Map(input.units.map(u => [u.id, u]));
    const incoming = new Map<string, number>(input.units.map(u => [u.id, 0]));
    for (const u of input.units) {
        const split = input.splits.find(s => s.unit === u.id);
        const opp = input.pairings.flatMap(p => (p.a === u.id ? [p.b] : p.b === u.id ? [p.a] : []));
        const parts = split ? split.parts : opp.length ? [{ target: opp[0], dice: refPool(u, input.firstTurn) }] : [];
        for (const part of parts) {
            const need = refNeed(u, byId.get(part.target)!, pos(u.id, part.target), pos(part.target, u.id));
            for (let i = 0; i < part.dice; i++) if (take() >= need) incoming.set(part.target, incoming.get(part.target)! + 1);
        }
    }
    const unsaved = new Map<string, number>();
    for (const u of input.units) {
        let n = 0;
        for (let i = 0; i < incoming.get(u.id)!; i++) if (take() < SAVE[WEIGHTS.indexOf(u.weight)]) n++;
        unsaved.set(u.id, n);
    }
    const sideTotal = (side: string) => input.units.filter(u => u.side === side).reduce((s, u) => s + unsaved.get(u.id)!, 0);
    const att = sideTotal('attacker'), def = sideTotal('defender');
    const out = new Map<string, RefUnit>();
    for (const u of input.units) {
        const h = unsaved.get(u.id)!, th = THRESH[SIZES.indexOf(u.size)];
        if (h < th) { out.set(u.id, { result: 'untested', unsaved: h, tokens: 0, total: null }); continue; }
        let total = 0;
        for (let i = 0; i < input.breakDice; i++) total += take();
        if (!u.tested) total += 1;
        if ((u.side === 'attacker' && att < def) || (u.side === 'defender' && def < att)) total += 1;
        total -= Math.floor(h / th) - 1;
        total -= u.tokens;
        const result: AncientsResult = total < u.leadership ? 'destroyed' : total === u.leadership ? 'gives-ground' : 'holds';
        out.set(u.id, { result, unsaved: h, tokens: result === 'destroyed' ? 0 : Math.floor(h / th), total });
    }
    return out;
}

// ─── 1. Exhaustive enumeration on small pools ────────────────────────────────────────────────────

const P = (need: number) => (7 - need) / 6;
const binom = (n: number, p: number) => Array.from({ length: n + 1 }, (_, k) => {
    let c = 1;
    for (let i = 0; i < k; i++) c = (c * (n - i)) / (i + 1);
    return c * p ** k * (1 - p) ** (n - k);
});
/** P(sum of n d6 = s). */
function sumDist(n: number): Map<number, number> {
    let d = new Map([[0, 1]]);
    for (let i = 0; i < n; i++) {
        const e = new Map<number, number>();
        for (const [s, p] of d) for (let f = 1; f <= 6; f++) e.set(s + f, (e.get(s + f) ?? 0) + p / 6);
        d = e;
    }
    return d;
}

function unitOf(id: string, side: 'attacker' | 'defender', over: Partial<AncientsUnit>): AncientsUnit {
    const [force, unit] = id.split('.');
    return {
        id, force, unit, side, size: 'small', skill: 1, weight: 'medium', type: 'infantry', formation: 'formed', leadership: 7,
        shock: false, defensive: false, tokens: 0, tested: false, move: undefined, charged: false, followUp: false, ...over
    };
}

/**
 * Two units, A throwing `na` dice at B and B `nb` at A (tiny pools, written as splits: the engine
 * takes splits as given; the validator is what insists they add up to the pool).
 */
function smallDuel(na: number, nb: number, a: Partial<AncientsUnit>, b: Partial<AncientsUnit>, positions: [AncientsPosition, AncientsPosition], breakDice: 1 | 2): AncientsInput {
    const A = unitOf('A.a', 'attacker', a), B = unitOf('B.b', 'defender', b);
    return {
        units: [A, B], firstTurn: false, breakDice,
        pairings: [{ a: A.id, aPosition: positions[0], b: B.id, bPosition: positions[1] }],
        splits: [{ unit: A.id, parts: [{ target: B.id, dice: na }] }, { unit: B.id, parts: [{ target: A.id, dice: nb }] }]
    };
}

/** The same distribution, from binomials: unsaved hits on each, then each unit's break test. */
function analytic(input: AncientsInput, na: number, nb: number): Map<string, number> {
    const [A, B] = input.units;
    const [pa, pb] = [input.pairings[0].aPosition, input.pairings[0].bPosition];
    const ua = binom(nb, P(refNeed(B, A, pb, pa)) * (1 - P(SAVE[WEIGHTS.indexOf(A.weight)])));
    const ub = binom(na, P(refNeed(A, B, pa, pb)) * (1 - P(SAVE[WEIGHTS.indexOf(B.weight)])));
    const test = sumDist(input.breakDice);
    const results = (u: AncientsUnit, h: number, won: boolean): Map<string, number> => {
        const th = THRESH[SIZES.indexOf(u.size)];
        if (h < th) return new Map([['untested', 1]]);
        const mod = (u.tested ? 0 : 1) + (won ? 1 : 0) - (Math.floor(h / th) - 1) - u.tokens;
        const out = new Map<string, number>();
        for (const [s, p] of test) {
            const t = s + mod;
            const r = t < u.leadership ? 'destroyed' : t === u.leadership ? 'gives-ground' : 'holds';
            out.set(r, (out.get(r) ?? 0) + p);
        }
        return out;
    };
    const dist = new Map<string, number>();
    ua.forEach((pA, hA) => ub.forEach((pB, hB) => {
        for (const [ra, qa] of results(A, hA, hA < hB)) for (const [rb, qb] of results(B, hB, hB < hA)) {
            const key = `${ra} ${hA} | ${rb} ${hB}`;
            dist.set(key, (dist.get(key) ?? 0) + pA * pB * qa * qb);
        }
    }));
    return dist;
}

describe('exhaustive enumeration on small pools', () => {
    // At most three dice thrown to hit, so that every sequence can be visited (about 10^4 in all).
    const cases: Array<[string, AncientsInput, number, number]> = [
        ['even, 2 dice v 1, 1d6 tests', smallDuel(2, 1, {}, {}, ['front', 'front'], 1), 2, 1],
        ['flank attack by cavalry on a tested unit with a token, 2d6 tests', smallDuel(2, 0, { type: 'cavalry' }, { tokens: 1, tested: true, leadership: 5, weight: 'heavy' }, ['flank', 'front'], 2), 2, 0],
        ['defender in the rear of skirmishers, 1d6', smallDuel(0, 2, { formation: 'skirmish', weight: 'light', leadership: 4 }, { skill: 2 }, ['front', 'rear'], 1), 0, 2]
    ];
    for (const [name, input, na, nb] of cases) {
        it(name, () => {
            const seen = new Map<string, number>();
            const leaves = everyThrow(input, (o, p) => {
                const [a, b] = o.units;
                const key = `${a.result} ${a.hits} | ${b.result} ${b.hits}`;
                seen.set(key, (seen.get(key) ?? 0) + p);
            });
            expect(leaves).toBeGreaterThan(36);
            const expected = analytic(input, na, nb);
            const keys = new Set([...seen.keys(), ...[...expected.entries()].filter(([, p]) => p > 0).map(([k]) => k)]);
            for (const k of keys) expect([k, seen.get(k) ?? 0]).toEqual([k, expect.closeTo(expected.get(k) ?? 0, 12)]);
            expect([...seen.values()].reduce((x, y) => x + y, 0)).toBeCloseTo(1, 12);
        });
    }
});

// ─── 2. Random engagements, roll by roll ─────────────────────────────────────────────────────────

const unitArb = (id: string, side: 'attacker' | 'defender') => fc.record({
    size: fc.constantFrom(...SIZES), skill: fc.integer({ min: 0, max: 4 }), weight: fc.constantFrom(...WEIGHTS),
    type: fc.constantFrom('cavalry' as const, 'infantry' as const), formation: fc.constantFrom(...FORMS),
    leadership: fc.integer({ min: 2, max: 12 }), kind: fc.constantFrom('plain', 'shock', 'defensive'),
    tokens: fc.integer({ min: 0, max: 3 }), tested: fc.boolean(), charged: fc.boolean()
}).map(r => unitOf(id, side, { ...r, shock: r.kind === 'shock', defensive: r.kind === 'defensive' }));

/** Two attackers against one defender that splits its pool over both, or a line of duels. */
const engagementArb = fc.record({
    a1: unitArb('A.a1', 'attacker'), a2: unitArb('A.a2', 'attacker'), d1: unitArb('D.d1', 'defender'), d2: unitArb('D.d2', 'defender'),
    p: fc.array(fc.constantFrom(...POS), { minLength: 4, maxLength: 4 }), firstTurn: fc.boolean(), breakDice: fc.constantFrom(1 as const, 2 as const),
    shape: fc.constantFrom('split', 'duels'), cut: fc.integer({ min: 0, max: 100 })
}).map(({ a1, a2, d1, d2, p, firstTurn, breakDice, shape, cut }): AncientsInput => {
    // Keep positions possible: one of each pair engages with its front (docs/rules/ancients.md).
    const pair = (a: string, b: string, x: AncientsPosition, y: AncientsPosition) => ({ a, aPosition: x, b, bPosition: x === 'front' ? y : 'front' as AncientsPosition });
    if (shape === 'duels') {
        return { units: [a1, a2, d1, d2], firstTurn, breakDice, splits: [], pairings: [pair(a1.id, d1.id, p[0], p[1]), pair(a2.id, d2.id, p[2], p[3])] };
    }
    const pool = refPool(d1, firstTurn), first = Math.round((pool * cut) / 100);
    return {
        units: [a1, a2, d1], firstTurn, breakDice,
        pairings: [pair(a1.id, d1.id, p[0], p[1]), pair(a2.id, d1.id, p[2], p[3])],
        splits: [{ unit: d1.id, parts: [{ target: a2.id, dice: pool - first }, { target: a1.id, dice: first }] }]
    };
});

describe('random engagements against the second implementation', () => {
    it('agrees on every unit, die by die', () => {
        fc.assert(fc.property(engagementArb, fc.array(fc.integer({ min: 1, max: 6 }), { minLength: 120, maxLength: 120 }), (input, dice) => {
            const src = new SequenceDice(dice);
            const outcome = resolveAncients(input, src);
            const ref = reference(input, dice);
            for (const u of outcome.units) {
                const r = ref.get(u.id)!;
                expect({ id: u.id, result: u.result, unsaved: u.hits, tokens: u.tokensGained, total: u.test?.total ?? null })
                    .toEqual({ id: u.id, result: r.result, unsaved: r.unsaved, tokens: r.tokens, total: r.total });
            }
        }), { numRuns: 400, seed: 4004 });
    });
});
