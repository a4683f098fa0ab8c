import { describe, expect, it } from 'vitest';
import { closeSpellings, possessive } from '../../src/core/spelling.js';

describe('spelling', () => {
    it('offers close spellings, closest first, at most two letters off', () => {
        expect(closeSpellings('Lin', ['Line', 'Guard', 'Lion'])).toEqual(['Line', 'Lion']);
        expect(closeSpellings('Blu', ['Blue', 'Red'])).toEqual(['Blue']);
        expect(closeSpellings('X', ['Line'])).toEqual([]);
    });

    it("writes a possessive as an umpire does: Immortals' rear, Guard's flank", () => {
        expect(possessive('Persians.Immortals')).toBe("Persians.Immortals'");
        expect(possessive('French.Guard')).toBe("French.Guard's");
    });
});
