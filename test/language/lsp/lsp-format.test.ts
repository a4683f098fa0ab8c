import { describe, expect, it } from 'vitest';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { type AstNode } from 'langium';
import { expectFormatting, parseHelper } from 'langium/test';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { battle as services } from '../../support/services.js';

const parse = parseHelper(services);
const formatting = expectFormatting(services);
const OPTIONS = { tabSize: 2, insertSpaces: true };

async function format(text: string): Promise<string> {
    const doc = await parse(text);
    const edits = await services.lsp.Formatter!.formatDocument(doc, { textDocument: { uri: doc.uri.toString() }, options: OPTIONS });
    return TextDocument.applyEdits(doc.textDocument, edits);
}

/** The AST as JSON without positions: what the file means. */
async function meaning(text: string): Promise<string> {
    const doc = await parse(text);
    expect(doc.parseResult.parserErrors).toEqual([]);
    return services.serializer.JsonSerializer.serialize(doc.parseResult.value as AstNode, { textRegions: false, comments: false });
}

const examples = readdirSync('examples').filter(f => f.endsWith('.battle')).map(f => ({ name: f, text: readFileSync(join('examples', f), 'utf8') }));

/** The file's tokens and comments with the whitespace between them, split so gaps can be changed. */
function splitGaps(text: string): { pieces: string[], gaps: string[] } {
    const pieces: string[] = [], gaps: string[] = [];
    const re = /\/\*[\s\S]*?\*\/|\/\/[^\n\r]*|"(?:\\.|[^"\\\r\n])*"|(?:[^\s"/]|\/(?![/*]))+/g;
    let last = 0;
    for (const m of text.matchAll(re)) {
        gaps.push(text.slice(last, m.index));
        pieces.push(m[0]);
        last = m.index + m[0].length;
    }
    gaps.push(text.slice(last));
    return { pieces, gaps };
}

const MESSY = `// top
scenario   "x"   rules scrud
option pooled
grade A +1 // trailing on a grade
grade B { size large ,weight heavy}
modifier M - 1
// about F
force F { // trailing after a brace
  // inside
  unit U foot    A x2{tokens 1}
    unit V horse
  /* end */ }
force G {unit W foot}
engagement E { F attacks G
factor M on F.U#1,F.V
  dice F foot 1 2
  dice G  3


  outcome seed 4 check "ab" { summary "s" F.U#1 : won , die 4 vs G.W }
}
turn 1 "Dawn" { state F.V: dp 2 fire X { F.V fires at G.W: range 9 } }
// end`;

const CANONICAL = `// top
scenario "x"
rules scrud
option pooled

grade A +1 // trailing on a grade
grade B { size large, weight heavy }
modifier M -1

// about F
force F { // trailing after a brace
  // inside
  unit U foot A x2 { tokens 1 }
  unit V horse
  /* end */
}

force G {
  unit W foot
}

engagement E {
  F attacks G
  factor M on F.U#1, F.V
  dice F foot 1 2
  dice G 3

  outcome seed 4 check "ab" {
    summary "s"
    F.U#1: won, die 4 vs G.W
  }
}

turn 1 "Dawn" {
  state F.V: dp 2
  fire X {
    F.V fires at G.W: range 9
  }
}
// end
`;

describe('formatting', () => {
    it('lays a messy file out canonically', async () => {
        await formatting({ before: MESSY, after: CANONICAL, options: OPTIONS, disposeAfterCheck: true });
    });

    it('is idempotent on the canonical layout', async () => {
        expect(await format(CANONICAL)).toBe(CANONICAL);
    });

    it('never changes what the file means', async () => {
        expect(await meaning(await format(MESSY))).toBe(await meaning(MESSY));
    });

    it('puts a blank line before a block but keeps the block\'s comment attached to it', async () => {
        expect(await format('grade A 1\n// the French\nforce F { unit U foot }\n')).toBe('grade A 1\n\n// the French\nforce F {\n  unit U foot\n}\n');
    });

    it('keeps at most one blank line between one-line declarations, and none inside braces\' edges', async () => {
        expect(await format('grade A 1\n\n\n\ngrade B 2\ngrade C 3\n')).toBe('grade A 1\n\ngrade B 2\ngrade C 3\n');
        expect(await format('force F {\n\n\n  unit U foot\n\n}\n')).toBe('force F {\n  unit U foot\n}\n');
    });

    it('keeps the spacing before trailing comments, so aligned comments stay aligned', async () => {
        const text = 'grade Elite +2      // the best\ngrade Raw -1        // the worst\n';
        expect(await format(text)).toBe(text);
        expect(await format('grade Elite +2// tight\n')).toBe('grade Elite +2 // tight\n');
    });

    it('keeps an empty block on one line', async () => {
        expect(await format('force Reserve {\n\n}\nforce Spare {}\n')).toBe('force Reserve { }\n\nforce Spare { }\n');
        expect(await format('force F {\n  unit U foot {}\n}\n')).toBe('force F {\n  unit U foot { }\n}\n');
    });

    it('keeps // inside a string as text', async () => {
        const text = 'scenario "a // b"\nrules scrud\n';
        expect(await format(text)).toBe(text);
    });

    it('keeps Windows line endings', async () => {
        expect(await format('grade A 1\r\ngrade  B 2\r\n')).toBe('grade A 1\r\ngrade B 2\r\n');
    });

    it('leaves a file with syntax errors alone', async () => {
        const doc = await parse('force F { unit }\ngrade   A 1\n');
        const edits = await services.lsp.Formatter!.formatDocument(doc, { textDocument: { uri: doc.uri.toString() }, options: OPTIONS });
        expect(edits).toEqual([]);
    });

    it('formats only the lines of a range', async () => {
        await formatting({
            before: 'grade   A 1\ngrade   B 2\ngrade   C 3\n', after: 'grade   A 1\ngrade B 2\ngrade   C 3\n', options: OPTIONS,
            range: { start: { line: 1, character: 0 }, end: { line: 1, character: 11 } }, disposeAfterCheck: true
        });
    });

    describe.each(examples)('example $name', ({ text }) => {
        it('is idempotent and changes whitespace only', async () => {
            const once = await format(text);
            expect(await format(once)).toBe(once);
            expect(once.replace(/\s+/g, '')).toBe(text.replace(/\s+/g, ''));
            expect(await meaning(once)).toBe(await meaning(text));
        });

        it('gives the same layout whatever whitespace the tokens were written with', async () => {
            const canonical = await format(text);
            const { pieces, gaps } = splitGaps(text);
            // A gap keeps its class (none, spaces, one line break, a blank line) so that comments stay
            // trailing or on their own line; everything else about it is random.
            const gapArb = (gap: string, next: string) => {
                const lines = (gap.match(/\n/g) ?? []).length;
                // The space before a trailing comment is the author's (aligned comments stay aligned).
                if (gap === '' || (lines === 0 && /^\/[/*]/.test(next))) return fc.constant(gap);
                const spaces = fc.stringMatching(/^[ \t]{0,3}$/);
                if (lines === 0) return fc.stringMatching(/^[ \t]{1,4}$/);
                if (lines === 1) return fc.tuple(spaces, spaces).map(([a, b]) => `${a}\n${b}`);
                return fc.tuple(spaces, fc.integer({ min: 2, max: 4 }), spaces).map(([a, n, b]) => `${a}${'\n'.repeat(n)}${b}`);
            };
            const inner = gaps.slice(1, -1);
            await fc.assert(fc.asyncProperty(fc.tuple(...inner.map((gap, i) => gapArb(gap, pieces[i + 1]))), async (randomGaps) => {
                let shuffled = '';
                pieces.forEach((p, i) => { shuffled += (i === 0 ? gaps[0] : randomGaps[i - 1]) + p; });
                shuffled += gaps[gaps.length - 1];
                expect(await format(shuffled)).toBe(canonical);
            }), { numRuns: 15 });
        });
    });
});
