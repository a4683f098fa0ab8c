/**
 * Formatting: on every file that parses, formatting keeps the scenario (parse → format →
 * parse gives the same AST, compared without positions) and formatting twice changes nothing.
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { build, examples, formatted, formattingProblems, hasSyntaxErrors, meaning, mutatedExample, respacedExample } from './fuzz-support.js';

const ALL = examples();

describe('formatting is idempotent and keeps the meaning', () => {
    it('on every example', async () => {
        for (const e of ALL) expect(await formattingProblems(e.text), e.name).toEqual([]);
    });

    it('on examples with blanks, line breaks and comments moved about', async () => {
        await fc.assert(fc.asyncProperty(respacedExample(ALL), async input => {
            expect(await formattingProblems(input.text)).toEqual([]);
        }), { numRuns: 15, seed: 9 });
    });

    it('on mutated examples that still parse', async () => {
        await fc.assert(fc.asyncProperty(mutatedExample(ALL, 2), async input => {
            expect(await formattingProblems(input.text)).toEqual([]);
        }), { numRuns: 15, seed: 9 });
    });

    it('can fail: a reordered file is a different scenario', async () => {
        // The comparison is not blind: swapping two units changes the serialised model.
        const a = await build('force A {\n  unit X foot\n  unit Y horse\n}\n', 'meaning-a');
        const b = await build('force A {\n  unit Y horse\n  unit X foot\n}\n', 'meaning-b');
        expect(hasSyntaxErrors(a) || hasSyntaxErrors(b)).toBe(false);
        expect(meaning(a)).not.toEqual(meaning(b));
        expect(await formatted('force   A {unit X foot}')).toBe('force A {\n  unit X foot\n}\n');
    });
});
