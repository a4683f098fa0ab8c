/**
 * Fuzz: examples with tokens deleted, duplicated and swapped, random bytes, huge numbers,
 * deep nesting, long lines, unicode and CRLF. Nothing may throw out of parse, link, validate or any
 * LSP provider; every range they give lies inside the document. `npm run fuzz` runs the same
 * properties on ≥ 100,000 cases (scripts/fuzz.mjs).
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { examples, exercise, mutatedExample } from './fuzz-support.js';

const ALL = examples();

describe('mutated examples never break the server', () => {
    it('has the examples to mutate', () => {
        expect(ALL.length).toBeGreaterThanOrEqual(5);
    });

    it('no provider throws and every range lies inside the document', async () => {
        await fc.assert(fc.asyncProperty(mutatedExample(ALL), fc.array(fc.nat(), { maxLength: 3 }), async (input, picks) => {
            expect(await exercise(input.text, picks)).toEqual([]);
        }), { numRuns: 25, seed: 9 });
    });

    it('random bytes and random unicode are diagnosed, not fatal', async () => {
        const text = fc.oneof(
            fc.uint8Array({ maxLength: 400 }).map(b => Buffer.from(b).toString('latin1')),
            fc.string({ unit: 'binary', maxLength: 200 }),
            fc.string({ unit: 'grapheme', maxLength: 200 })
        );
        await fc.assert(fc.asyncProperty(text, async t => {
            expect(await exercise(t)).toEqual([]);
        }), { numRuns: 30, seed: 9 });
    });

    it('the unmutated examples pass the same checks', async () => {
        for (const e of ALL) expect(await exercise(e.text), e.name).toEqual([]);
    });
});
