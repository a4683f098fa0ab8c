import { describe, expect, it } from 'vitest';
import { closeSpellings, possessive } from '../../src/core/spelling.js';

describe('spelling', () => {
    it('offers close spellings, closest first, at most two letters off', () => {
        expect(closeSpellings('Lin', ['Line', 'Guard', 'Lion'])).toEqual(['Line', 'Lion']);
        expect(closeSpellings('Blu', ['Blue', 'Red'])).toEqual(['Blue']);
        expect(closeSpellings('X', ['Line'])).toEqual([]);
    });

    it('gives what comparing every candidate in full gives, on a thousand names of every length', () => {
        let state = 11;
        const random = (n: number) => ((state = (state * 1103515245 + 12345) % 2147483648) % n);
        const letters = 'abcABé';
        const word = () => Array.from({ length: random(9) }, () => letters[random(letters.length)]).join('');
        const names = Array.from({ length: 1000 }, word);
        for (let i = 0; i < 100; i++) {
            const name = word();
            expect(closeSpellings(name, names), name).toEqual(fullComparison(name, names));
        }
    });

    it('counts a swap of two neighbouring letters as one edit: Rwa is Raw, uphil is uphill', () => {
        expect(closeSpellings('Rwa', ['Raw', 'Elite'])).toEqual(['Raw']);
        expect(closeSpellings('Gaurd', ['Guard', 'Guards'])).toEqual(['Guard', 'Guards']);
        expect(closeSpellings('uphil', ['uphill', 'woods', 'wheel'])).toEqual(['uphill']);
        expect(closeSpellings('ab', ['ba'])).toEqual(['ba']);
    });

    it('compares whole names: a long name far off is not offered', () => {
        expect(closeSpellings('French', Array.from({ length: 2000 }, (_, i) => `French${i}`))).toEqual(['French0', 'French1', 'French2']);
        expect(closeSpellings('Guard', ['Guardsmen', 'Gaurd', 'Guards'])).toEqual(['Gaurd', 'Guards']);
    });

    it("writes a possessive as an umpire does: Immortals' rear, Guard's flank", () => {
        expect(possessive('Persians.Immortals')).toBe("Persians.Immortals'");
        expect(possessive('French.Guard')).toBe("French.Guard's");
    });
});

/** The plain way: the edit distance to every candidate, in full. */
function fullComparison(name: string, candidates: readonly string[]): string[] {
    if (!name) return [];
    // The optimal string alignment distance, the whole table: a swap of neighbours is one edit.
    const distance = (a: string, b: string): number => {
        const d = Array.from({ length: a.length + 1 }, (_, i) => Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)));
        for (let i = 1; i <= a.length; i++) {
            for (let j = 1; j <= b.length; j++) {
                d[i][j] = Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
                if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d[i][j] = Math.min(d[i][j], d[i - 2][j - 2] + 1);
            }
        }
        return d[a.length][b.length];
    };
    return candidates.filter(Boolean)
        .map(n => ({ n, d: distance(name.toLowerCase(), n.toLowerCase()) }))
        .filter(({ d }) => d <= Math.min(2, Math.floor(name.length / 2)))
        .sort((a, b) => a.d - b.d).slice(0, 3).map(({ n }) => n);
}
