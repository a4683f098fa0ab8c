/**
 * Exhaustive enumeration for the Ancients engine, independent of its odds: every complete sequence of
 * dice the resolver asks for, each with its chance (6^-length), found depth-first, or weighed by kind
 * of die (`everyWeighedThrow`). Shared by the brute-force tests of the engine, its odds, its house rules
 * and its options.
 */
import fc from 'fast-check';
import {
    attackPlan, resolveAncients, saveFor, type AncientsDiceSource, type AncientsInput, type AncientsPosition, type AncientsSize,
    type AncientsThrow, type AncientsUnit, type AncientsWeight
} from '../../src/rulesets/ancients/engine/ancients-engine.js';
import type { AncientsTables } from '../../src/rulesets/ancients/engine/ancients-tables.js';

/** A source that answers from a fixed prefix and notes whether the engine wanted more. */
class PrefixDice implements AncientsDiceSource {
    used = 0;
    short = false;
    constructor(private readonly prefix: readonly number[]) {}
    roll(_k: string, _u: string, count: number): number[] {
        const out = this.prefix.slice(this.used, this.used + count);
        this.used += count;
        if (out.length < count) { this.short = true; while (out.length < count) out.push(1); }
        return out;
    }
}

/** Calls `visit` with each complete throw's outcome and chance; returns how many there were. */
export function everyThrow(input: AncientsInput, visit: (outcome: ReturnType<typeof resolveAncients>, p: number) => void, tables?: AncientsTables): number {
    let leaves = 0;
    const walk = (prefix: number[]) => {
        const src = new PrefixDice(prefix);
        const outcome = resolveAncients(input, src, tables);
        if (src.short) { for (let f = 1; f <= 6; f++) walk([...prefix, f]); return; }
        leaves++;
        visit(outcome, 6 ** -prefix.length);
    };
    walk([]);
    return leaves;
}

class NeedMore extends Error {
    constructor(readonly kind: AncientsThrow, readonly unitId: string, readonly count: number) { super('need more dice'); }
}

/**
 * Every throw the resolver asks for, faster than die by die: a hit die only matters as hit or miss,
 * a save die as saved or not, so each is thrown as one face of each kind with that kind's weight; a
 * break test is thrown as every total it can show with its weight (the resolver reads only the total).
 * Calls `visit` with each outcome and its chance (they sum to 1).
 */
export function everyWeighedThrow(input: AncientsInput, visit: (outcome: ReturnType<typeof resolveAncients>, p: number) => void): void {
    const plan = attackPlan(input).filter(a => a.dice > 0);
    const byId = new Map(input.units.map(u => [u.id, u]));
    const walk = (answers: number[][], weight: number) => {
        let call = 0, hitCalls = 0;
        const source: AncientsDiceSource = {
            roll(kind, unitId, count) {
                if (call < answers.length) { if (kind === 'hit') hitCalls++; return answers[call++]; }
                throw new NeedMore(kind, unitId, count);
            }
        };
        let outcome: ReturnType<typeof resolveAncients>;
        try {
            outcome = resolveAncients(input, source);
        } catch (e) {
            if (!(e instanceof NeedMore)) throw e;
            for (const [faces, w] of options(e, plan[hitCalls]?.toHit, byId)) walk([...answers, faces], weight * w);
            return;
        }
        visit(outcome, weight);
    };
    walk([], 1);
}

function options(need: NeedMore, toHit: number | undefined, byId: Map<string, AncientsUnit>): Array<[number[], number]> {
    if (need.kind === 'test') {
        const totals: Array<[number[], number]> = [];
        if (need.count === 1) for (let f = 1; f <= 6; f++) totals.push([[f], 1 / 6]);
        else for (let s = 2; s <= 12; s++) totals.push([s <= 7 ? [1, s - 1] : [s - 6, 6], (6 - Math.abs(s - 7)) / 36]);
        return totals;
    }
    const score = need.kind === 'hit' ? toHit! : saveFor(byId.get(need.unitId)!.weight);
    const success = (7 - score) / 6;
    let out: Array<[number[], number]> = [[[], 1]];
    for (let i = 0; i < need.count; i++) {
        out = out.flatMap(([f, w]): Array<[number[], number]> => [[[...f, 6], w * success], [[...f, 1], w * (1 - success)]]);
    }
    return out;
}

/** A unit of the engine's input: medium formed infantry of leadership 7, with `o` over it. */
export function unit(id: string, side: 'attacker' | 'defender', o: Partial<AncientsUnit> = {}): AncientsUnit {
    const [force, name] = id.split('.');
    return {
        id, force, unit: name, side, size: 'medium', skill: 0, weight: 'medium', type: 'infantry', formation: 'formed',
        leadership: 7, shock: false, defensive: false, tokens: 0, tested: false, move: undefined, charged: false, followUp: false, ...o
    };
}

/**
 * Random small melees for brute force: up to `attackers` against `defenders`, every attacker in contact
 * with every defender, each splitting `dice` (each part min..max dice) over all its opponents.
 */
export function smallMelees(attackers: number, defenders: number, dice: { min: number, max: number }): fc.Arbitrary<AncientsInput> {
    const arbUnit = fc.record({
        size: fc.constantFrom<AncientsSize>('small', 'medium'),
        weight: fc.constantFrom<AncientsWeight>('heavy', 'medium', 'light'),
        skill: fc.integer({ min: 0, max: 2 }),
        leadership: fc.integer({ min: 4, max: 10 }),
        tokens: fc.integer({ min: 0, max: 1 }),
        tested: fc.boolean()
    });
    const parts = 2 * attackers * defenders;
    return fc.record({
        att: fc.array(arbUnit, { minLength: 1, maxLength: attackers }),
        def: fc.array(arbUnit, { minLength: 1, maxLength: defenders }),
        dice: fc.array(fc.integer(dice), { minLength: parts, maxLength: parts }),
        position: fc.constantFrom<AncientsPosition>('front', 'flank', 'rear'),
        breakDice: fc.constantFrom<1 | 2>(1, 2)
    }).map(({ att, def, dice: counts, position, breakDice }): AncientsInput => {
        const A = att.map((s, i) => unit(`G.a${i}`, 'attacker', s)), D = def.map((s, i) => unit(`P.d${i}`, 'defender', s));
        const pairings = A.flatMap(a => D.map(d => ({ a: a.id, aPosition: position, b: d.id, bPosition: 'front' as AncientsPosition })));
        let k = 0;
        const splits = [...A.map(a => ({ unit: a.id, parts: D.map(d => ({ target: d.id, dice: counts[k++ % parts] })) })),
            ...D.map(d => ({ unit: d.id, parts: A.map(a => ({ target: a.id, dice: counts[k++ % parts] })) }))];
        return { units: [...A, ...D], pairings, splits, firstTurn: false, breakDice };
    });
}
