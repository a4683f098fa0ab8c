/**
 * The seed's "For the Math Geeks" table (docs/rules/ancients.md): all 150 printed cells, digit for digit, from the
 * project's exact computation. SEED_TEXT is copied verbatim from the seed (its numbers, not ours).
 */
import { describe, expect, it } from 'vitest';
import {
    expectedHits, expectedHitsTable, formatLikeSeed, rational, SAVE_COLUMNS, tableLines, TO_HIT_ROWS, unsavedHitsDistribution
} from '../../../src/rulesets/ancients/engine/ancients-table.js';
import { parseDiceList } from '../../../src/rulesets/ancients/ancients-table-command.js';

/** As printed in docs/rules/ancients.md#a-table. */
const SEED_TEXT: readonly string[] = [
`14 - 6+ 5+ 4+ 3+ 2+
6+ 2.333333 1.944444 1.555556 1.166667 0.777778 0.388889
5+ 4.666667 3.888889 3.111111 2.333333 1.555556 0.777778
4+ 7 5.833333 4.666667 3.5 2.333333 1.166667
3+ 9.333333 7.777778 6.222222 4.666667 3.111111 1.555556
2+ 11.66667 9.722222 7.777778 5.833333 3.888889 1.944444`,
`12 - 6+ 5+ 4+ 3+ 2+
6+ 2 1.666667 1.333333 1 0.666667 0.333333
5+ 4 3.333333 2.666667 2 1.333333 0.666667
4+ 6 5 4 3 2 1
3+ 8 6.666667 5.333333 4 2.666667 1.333333
2+ 10 8.333333 6.666667 5 3.333333 1.666667`,
`10 - 6+ 5+ 4+ 3+ 2+
6+ 1.666667 1.388889 1.111111 0.833333 0.555556 0.277778
5+ 3.333333 2.777778 2.222222 1.666667 1.111111 0.555556
4+ 5 4.166667 3.333333 2.5 1.666667 0.833333
3+ 6.666667 5.555556 4.444444 3.333333 2.222222 1.111111
2+ 8.333333 6.944444 5.555556 4.166667 2.777778 1.388889`,
`8 - 6+ 5+ 4+ 3+ 2+
6+ 1.333333 1.111111 0.888889 0.666667 0.444444 0.222222
5+ 2.666667 2.222222 1.777778 1.333333 0.888889 0.444444
4+ 4 3.333333 2.666667 2 1.333333 0.666667
3+ 5.333333 4.444444 3.555556 2.666667 1.777778 0.888889
2+ 6.666667 5.555556 4.444444 3.333333 2.222222 1.111111`,
`6 - 6+ 5+ 4+ 3+ 2+
6+ 1 0.833333 0.666667 0.5 0.333333 0.166667
5+ 2 1.666667 1.333333 1 0.666667 0.333333
4+ 3 2.5 2 1.5 1 0.5
3+ 4 3.333333 2.666667 2 1.333333 0.666667
2+ 5 4.166667 3.333333 2.5 1.666667 0.833333`
];

describe('the seed\'s expected-hits table', () => {
    const blocks = SEED_TEXT.map(b => b.split('\n').map(l => l.trim().split(' ')));
    it('holds 5 blocks of 5 rows of 6 printed values: 150 cells', () => {
        expect(blocks.flatMap(b => b.slice(1).map(r => r.slice(1))).flat()).toHaveLength(150);
    });
    for (const block of blocks) {
        const dice = Number(block[0][0]);
        it(`${dice} dice: every cell, digit for digit`, () => {
            const table = expectedHitsTable(dice);
            block.slice(1).forEach((row, r) => {
                expect(`${table.rows[r].toHit}+`).toBe(row[0]);
                row.slice(1).forEach((printed, c) => expect([row[0], c, table.rows[r].cells[c].text]).toEqual([row[0], c, printed]));
            });
            // The whole block, laid out as the seed lays it out.
            expect(tableLines(table)).toEqual(block.map(l => l.join(' ')));
        });
    }
});

describe('exact values', () => {
    it('are n · (7 − toHit)/6 · (save − 1)/6, from the full distribution\'s mean', () => {
        for (let n = 1; n <= 14; n++) for (const h of TO_HIT_ROWS) for (const s of SAVE_COLUMNS) {
            const expected = rational(BigInt(n * (7 - h) * (s === null ? 6 : s - 1)), 36n);
            expect(expectedHits(n, h, s)).toEqual(expected);
        }
    });
    it('the distribution sums to one', () => {
        const { weights, total } = unsavedHitsDistribution(10, 4, 5);
        expect(weights.reduce((a, b) => a + b, 0n)).toBe(total);
        // P(0 unsaved) = (1 − 1/2 · 4/6)^10 = (2/3)^10.
        expect(weights[0] * 3n ** 10n).toBe(total * 2n ** 10n);
    });
    it('prints like an 8-character spreadsheet cell', () => {
        expect(formatLikeSeed(rational(35n, 3n))).toBe('11.66667');
        expect(formatLikeSeed(rational(7n, 18n))).toBe('0.388889');
        expect(formatLikeSeed(rational(7n, 2n))).toBe('3.5');
        expect(formatLikeSeed(rational(7n, 1n))).toBe('7');
        expect(formatLikeSeed(rational(1n, 8n))).toBe('0.125');
        expect(formatLikeSeed(rational(700n, 3n))).toBe('233.3333');
    });
});

describe('umpire table --dice', () => {
    it('reads counts, ranges and lists', () => {
        expect(parseDiceList(undefined)).toEqual([14, 12, 10, 8, 6]);
        expect(parseDiceList('6..9')).toEqual([6, 7, 8, 9]);
        expect(parseDiceList('6,8..9')).toEqual([6, 8, 9]);
        expect(() => parseDiceList('9..6')).toThrow(/smaller first/);
        expect(() => parseDiceList('x')).toThrow(/not a count/);
        expect(() => parseDiceList('0')).toThrow(/from 1/);
    });
});
