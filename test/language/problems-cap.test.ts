/**
 * A file with thousands of mistakes (docs/limits.md#problems-cap): the first 200 problems are listed
 * in the order found (syntax errors, then unknown names, then the checks), the rest counted right by
 * the last one, `too-many-problems`, without being worded.
 */
import { describe, expect, it } from 'vitest';
import type { Diagnostic } from 'vscode-languageserver';
import { Codes } from '../../src/core/codes.js';
import { MAX_DIAGNOSTICS } from '../../src/language/battle-document-validator.js';
import { validate } from '../support/services.js';

const HEADER = 'rules scrud\ngrade Line 0\nmodifier Uphill -1\n';

/** Copy `n` of a block of mistakes: its own names, so that copies do not clash or resolve each other. */
function block(n: number): string {
    return [
        `force F${n} {`, '  unit Guard foot Line', '  unit Line foot Line x3', '}',
        `force G${n} {`, '  unit Guard foot Line', '}',
        // Unknown names: a force, a unit of a known force, a modifier.
        `engagement U${n} {`, `  F${n} attacks Foe${n}, F${n}.Gaurd`, `  factor Uphil on F${n}`, '}',
        // A line that does not read, twice on one line (one error a line), and another in its own block.
        `engagement S${n} {`, `  F${n} attacks G${n}`, `  seed x${n} x${n}`, '}',
        `force H${n} {`, '  unit Foot foot Line x', '}',
        // Failed checks: a force on both sides, a count of zero.
        `engagement V${n} {`, `  F${n}.Guard attacks F${n}.Line`, '}',
        `force Z${n} {`, '  unit Ghost foot x0', '}'
    ].join('\n') + '\n';
}

async function problemsOf(copies: number, lineBreak = '\n'): Promise<Diagnostic[]> {
    const text = HEADER + Array.from({ length: copies }, (_, n) => block(n)).join('');
    return (await validate(text.replace(/\n/g, lineBreak))).diagnostics;
}

/** How many problems a list stands for: those listed, and those the last says there are more. */
function counted(diagnostics: readonly Diagnostic[]): number {
    const last = diagnostics[diagnostics.length - 1];
    if (last?.code !== Codes.tooManyProblems) return diagnostics.length;
    return diagnostics.length - 1 + Number(/(\d+) more/.exec(last.message as string)![1]);
}

const PHASES: readonly string[] = [Codes.syntaxError, Codes.unknownReference];
const phaseOf = (d: Diagnostic) => (PHASES.includes(d.code as string) ? PHASES.indexOf(d.code as string) : PHASES.length);
const before = (a: Diagnostic, b: Diagnostic) => a.range.start.line < b.range.start.line
    || (a.range.start.line === b.range.start.line && a.range.start.character <= b.range.start.character);

describe('a file with thousands of problems', () => {
    it('counts every problem past the 200 listed, syntax errors one a line', async () => {
        const one = await problemsOf(1);
        const perCopy = counted(one);
        expect(one.some(d => d.code === Codes.tooManyProblems)).toBe(false);
        expect(new Set(one.map(d => d.code))).toEqual(new Set([Codes.syntaxError, Codes.unknownReference, Codes.sideMixesForces, Codes.sameForceBothSides, Codes.countZero]));
        // Two syntax errors in `seed x0 x0` count once; the unit line's `x` once.
        expect(one.filter(d => d.code === Codes.syntaxError)).toHaveLength(2);
        for (const copies of [80, 250]) {
            const many = await problemsOf(copies);
            expect(many).toHaveLength(MAX_DIAGNOSTICS + 1);
            expect(counted(many)).toBe(copies * perCopy);
        }
    });

    it('lists the first 200 in the order found: syntax errors, then unknown names, then the checks, each in file order', async () => {
        const many = await problemsOf(250);
        const listed = many.slice(0, MAX_DIAGNOSTICS);
        // 500 syntax errors in the file: the 200 listed are the first 200 of them.
        expect(listed.every(d => d.code === Codes.syntaxError)).toBe(true);
        const fewer = (await problemsOf(60)).slice(0, MAX_DIAGNOSTICS);
        expect(fewer.filter(d => d.code === Codes.syntaxError)).toHaveLength(120);
        for (let i = 1; i < fewer.length; i++) {
            const [a, b] = [fewer[i - 1], fewer[i]];
            expect(phaseOf(a)).toBeLessThanOrEqual(phaseOf(b));
            if (phaseOf(a) === phaseOf(b) && phaseOf(a) < PHASES.length) expect(before(a, b)).toBe(true);
        }
        // The listed ones are in full: words, a link to their explanation, and a close spelling where there is one.
        const gaurd = fewer.find(d => d.code === Codes.unknownReference && /'Gaurd'/.test(d.message as string));
        expect(gaurd?.message).toContain("did you mean 'Guard'");
        expect(gaurd?.data).toMatchObject({ replacements: ['Guard'] });
        expect(fewer.every(d => d.codeDescription?.href.endsWith(`#${d.code}`))).toBe(true);
    });

    it('lists the same problems, and counts the same, each time', async () => {
        const [a, b] = [await problemsOf(120), await problemsOf(120)];
        expect(b).toEqual(a);
    });

    it('places and counts them the same in a file of \\r\\n line breaks', async () => {
        const [lf, crlf] = [await problemsOf(250), await problemsOf(250, '\r\n')];
        expect(counted(crlf)).toBe(counted(lf));
        expect(crlf.map(d => [d.code, d.range])).toEqual(lf.map(d => [d.code, d.range]));
    });
});
