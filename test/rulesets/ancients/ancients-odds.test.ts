/**
 * Trust tests for the exact Ancients odds: the seed's "For the Math Geeks" table, brute
 * force through the real resolver `resolveAncients` on small melees, and a seeded Monte Carlo.
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import {
    ANCIENTS_RESULTS, attackPlan, resolveAncients, type AncientsInput
} from '../../../src/rulesets/ancients/engine/ancients-engine.js';
import { ancientsOdds, mean, unsavedHits } from '../../../src/rulesets/ancients/engine/ancients-odds.js';
import { seededAncientsDice } from '../../../src/rulesets/ancients/ancients-resolve.js';
import { everyWeighedThrow, smallMelees, unit } from '../../support/ancients-every-throw.js';

// The seed's table, as printed: dice thrown; rows to-hit 6+..2+; columns no save, 6+ … 2+.
const GEEKS = `
14 6+ 2.333333 1.944444 1.555556 1.166667 0.777778 0.388889
14 5+ 4.666667 3.888889 3.111111 2.333333 1.555556 0.777778
14 4+ 7 5.833333 4.666667 3.5 2.333333 1.166667
14 3+ 9.333333 7.777778 6.222222 4.666667 3.111111 1.555556
14 2+ 11.66667 9.722222 7.777778 5.833333 3.888889 1.944444
12 6+ 2 1.666667 1.333333 1 0.666667 0.333333
12 5+ 4 3.333333 2.666667 2 1.333333 0.666667
12 4+ 6 5 4 3 2 1
12 3+ 8 6.666667 5.333333 4 2.666667 1.333333
12 2+ 10 8.333333 6.666667 5 3.333333 1.666667
10 6+ 1.666667 1.388889 1.111111 0.833333 0.555556 0.277778
10 5+ 3.333333 2.777778 2.222222 1.666667 1.111111 0.555556
10 4+ 5 4.166667 3.333333 2.5 1.666667 0.833333
10 3+ 6.666667 5.555556 4.444444 3.333333 2.222222 1.111111
10 2+ 8.333333 6.944444 5.555556 4.166667 2.777778 1.388889
8 6+ 1.333333 1.111111 0.888889 0.666667 0.444444 0.222222
8 5+ 2.666667 2.222222 1.777778 1.333333 0.888889 0.444444
8 4+ 4 3.333333 2.666667 2 1.333333 0.666667
8 3+ 5.333333 4.444444 3.555556 2.666667 1.777778 0.888889
8 2+ 6.666667 5.555556 4.444444 3.333333 2.222222 1.111111
6 6+ 1 0.833333 0.666667 0.5 0.333333 0.166667
6 5+ 2 1.666667 1.333333 1 0.666667 0.333333
6 4+ 3 2.5 2 1.5 1 0.5
6 3+ 4 3.333333 2.666667 2 1.333333 0.666667
6 2+ 5 4.166667 3.333333 2.5 1.666667 0.833333`;


/**
 * The oracle: every throw the resolver asks for (test/support/ancients-every-throw.ts, weighed by
 * kind of die). Returns P(result) and the law of unsaved hits per unit, and P(winner).
 */
function bruteForce(input: AncientsInput) {
    const results = new Map(input.units.map(u => [u.id, Object.fromEntries(ANCIENTS_RESULTS.map(l => [l, 0])) as Record<string, number>]));
    const hits = new Map(input.units.map(u => [u.id, [] as number[]]));
    const winner = { attacker: 0, defender: 0, tie: 0 };
    everyWeighedThrow(input, (out, weight) => {
        for (const u of out.units) {
            results.get(u.id)![u.result] += weight;
            const h = hits.get(u.id)!;
            while (h.length <= u.hits) h.push(0);
            h[u.hits] += weight;
        }
        winner[out.winner ?? 'tie'] += weight;
    });
    return { results, hits, winner };
}

function expectAgree(input: AncientsInput): void {
    const exact = bruteForce(input);
    const odds = ancientsOdds(input);
    for (const u of odds.units) {
        for (const l of ANCIENTS_RESULTS) expect(Math.abs(u.probabilities[l] - exact.results.get(u.id)![l]), `${u.id} ${l}`).toBeLessThanOrEqual(1e-12);
        const h = exact.hits.get(u.id)!;
        for (let k = 0; k < Math.max(h.length, u.hits.length); k++) expect(Math.abs((u.hits[k] ?? 0) - (h[k] ?? 0))).toBeLessThanOrEqual(1e-12);
    }
    expect(Math.abs(odds.sides[0].wins - exact.winner.attacker)).toBeLessThanOrEqual(1e-12);
    expect(Math.abs(odds.sides[1].wins - exact.winner.defender)).toBeLessThanOrEqual(1e-12);
}

describe('Ancients odds: the seed\'s expected-hits table', () => {
    it('reproduces every figure of "For the Math Geeks" to the digits printed', () => {
        const saves: Array<number | null> = [null, 6, 5, 4, 3, 2];
        let checked = 0;
        for (const line of GEEKS.trim().split('\n')) {
            const [dice, hit, ...figures] = line.split(' ');
            figures.forEach((printed, i) => {
                const m = mean(unsavedHits(Number(dice), Number(hit.replace('+', '')), saves[i]));
                // Rounded to as many decimals as the seed prints (6 below 10, 5 above, fewer when exact).
                const decimals = printed.split('.')[1]?.length ?? 0;
                expect(m.toFixed(decimals), `${dice} dice, ${hit}, save ${saves[i] ?? '-'}`).toBe(printed);
                checked++;
            });
        }
        expect(checked).toBe(150);
    });
});

describe('Ancients odds agree with brute force through resolveAncients', () => {
    it('one pair, 3 dice each way, threshold 2, 2d6 test', () => {
        const a = unit('G.A', 'attacker', { size: 'small', weight: 'heavy', skill: 1 });
        const d = unit('P.D', 'defender', { size: 'small', weight: 'light', leadership: 8, tokens: 1 });
        expectAgree({
            units: [a, d], pairings: [{ a: a.id, aPosition: 'front', b: d.id, bPosition: 'front' }],
            splits: [{ unit: a.id, parts: [{ target: d.id, dice: 3 }] }, { unit: d.id, parts: [{ target: a.id, dice: 3 }] }],
            firstTurn: false, breakDice: 2
        });
    });

    // Up to 2 v 2, 1 or 2 dice a part (the 8 parts of 2 v 2 as before).
    const arbMelee = smallMelees(2, 2, { min: 1, max: 2 });

    it('on random small melees: up to 2 v 2, split dice, flank and rear, tokens, tested, 1d6 or 2d6 tests', () => {
        fc.assert(fc.property(arbMelee, input => {
            fc.pre(attackPlan(input).reduce((n, a) => n + a.dice, 0) <= 6);
            expectAgree(input);
        }), { numRuns: 40, seed: 6 });
    });

    it('gives every unit results and hits that each sum to 1', () => {
        fc.assert(fc.property(arbMelee, input => {
            for (const u of ancientsOdds(input).units) {
                expect(Math.abs(ANCIENTS_RESULTS.reduce((s, l) => s + u.probabilities[l], 0) - 1)).toBeLessThan(1e-12);
                expect(Math.abs(u.hits.reduce((s, p) => s + p, 0) - 1)).toBeLessThan(1e-12);
            }
        }), { numRuns: 100, seed: 7 });
    });
});

describe('Ancients odds agree with a seeded Monte Carlo of the real resolver', () => {
    it('on 2 v 2 with full pools (10, 8, 8, 6 dice) and one split, within 4 standard errors', () => {
        const A = [unit('G.Hop', 'attacker', { size: 'large', weight: 'heavy', skill: 1 }), unit('G.Pel', 'attacker', { size: 'medium', weight: 'light', formation: 'skirmish' })];
        const D = [unit('P.Imm', 'defender', { size: 'medium', weight: 'medium', leadership: 8 }), unit('P.Cav', 'defender', { size: 'small', type: 'cavalry', tokens: 1 })];
        const input: AncientsInput = {
            units: [...A, ...D],
            pairings: [
                { a: 'G.Hop', aPosition: 'front', b: 'P.Imm', bPosition: 'front' },
                { a: 'G.Hop', aPosition: 'front', b: 'P.Cav', bPosition: 'flank' },
                { a: 'G.Pel', aPosition: 'flank', b: 'P.Imm', bPosition: 'front' }
            ],
            splits: [{ unit: 'G.Hop', parts: [{ target: 'P.Imm', dice: 6 }, { target: 'P.Cav', dice: 4 }] }],
            firstTurn: false, breakDice: 2
        };
        const samples = 10_000;
        const counts = new Map<string, Record<string, number>>();
        for (let s = 0; s < samples; s++) {
            for (const u of resolveAncients(input, seededAncientsDice(7_000_000 + s)).units) {
                const c = counts.get(u.id) ?? {};
                c[u.result] = (c[u.result] ?? 0) + 1;
                c[`h${u.hits}`] = (c[`h${u.hits}`] ?? 0) + 1;
                counts.set(u.id, c);
            }
        }
        const within = (p: number, n: number) => expect(Math.abs(n / samples - p)).toBeLessThanOrEqual(4 * Math.sqrt(p * (1 - p) / samples) + 1 / samples);
        for (const u of ancientsOdds(input).units) {
            for (const l of ANCIENTS_RESULTS) within(u.probabilities[l], counts.get(u.id)?.[l] ?? 0);
            u.hits.forEach((p, h) => within(p, counts.get(u.id)?.[`h${h}`] ?? 0));
        }
    });
});
