/**
 * The outcome edit (src/report/outcome-edit.ts): exact text and range, idempotence, CRLF, end of
 * file without a newline, one-line actions, and the written block parsing back with no problems.
 */
import { describe, expect, it } from 'vitest';
import * as fs from 'node:fs';
import { modelOf } from '../../src/core/model-cache.js';
import { actionOffsets, applyEdits, detectEol, isNoOp, positionAt, resolutionEdit, toRangeEdit, type OffsetEdit } from '../../src/core/outcome-edit.js';
import { isUnresolvable, resolveAction } from '../../src/core/resolve.js';
import { battle as services, parse } from '../support/services.js';

const seedExample = fs.readFileSync(new URL('../../examples/scrud-seed.battle', import.meta.url), 'utf8');

/** Resolves the named action of `text` (a fixed seed when one is drawn) and returns the edit. */
async function editFor(text: string, name: string, seed = 7): Promise<{ edit: OffsetEdit, after: string }> {
    const doc = await parse(text);
    const model = modelOf(doc.parseResult.value);
    const action = model.actions.find(a => a.node.name === name)!;
    const r = resolveAction(model, action, { newSeed: () => seed });
    if (isUnresolvable(r)) throw new Error(r.problem);
    const edit = resolutionEdit(text, actionOffsets(action.node, text)!, r.resolution, r.dice);
    return { edit, after: applyEdits(text, [edit]) };
}

async function problems(text: string): Promise<string[]> {
    const doc = await parse(text, { validation: true });
    return (doc.diagnostics ?? []).map(d => `${d.code}: ${d.message}`);
}

const SMALL = `rules scrud
grade Elite +2
force A {
  unit Guard foot Elite
}
force B {
  unit Line foot
}
engagement E {
  A attacks B
  dice A foot 4
  dice B foot 5
}
`;

// Hand-worked (S2, S6): Guard 4 + 2 = 6 against Line 5 + 0 = 5, a difference of 1: Line recoils, Guard won.
const SMALL_BLOCK = [
    '  outcome entered check "CHECK" {',
    '    summary "B foot: 1 recoil"',
    '    A.Guard: won, die 4, mod +2, adjusted 6 vs B.Line',
    '    B.Line: recoil, die 5, mod 0, adjusted 5 vs A.Guard',
    '  }'
];

describe('the outcome edit', () => {
    it('inserts the block on the lines above the closing brace: exact range and text', async () => {
        const { edit, after } = await editFor(SMALL, 'E');
        const close = SMALL.lastIndexOf('}');
        expect(edit.start).toBe(close);
        expect(edit.end).toBe(close);
        expect(toRangeEdit(SMALL, edit).range).toEqual({ start: { line: 12, character: 0 }, end: { line: 12, character: 0 } });
        const check = /check "([0-9a-f]{8})"/.exec(edit.newText)![1];
        expect(edit.newText).toBe(SMALL_BLOCK.join('\n').replace('CHECK', check) + '\n');
        // Nothing else changed: the file is the old one with the block spliced in.
        expect(after).toBe(SMALL.slice(0, close) + edit.newText + SMALL.slice(close));
    });

    it('writes the SCRUD worked example\'s result under its engagement', async () => {
        const { edit, after } = await editFor(seedExample, 'Example');
        expect(edit.newText).toMatch(/^ {2}outcome entered check "[0-9a-f]{8}" \{\n {4}summary "[^"]+"\n/);
        expect(edit.newText).toContain('\n    Attacker.Guard: stand-off, die 4, mod +2, adjusted 6 vs Defender.Grenz#1\n');
        expect(after.endsWith(`${edit.newText}}\n`)).toBe(true);
        expect(await problems(after)).toEqual([]);
    });

    it('is idempotent: resolving again with the same dice gives the same bytes', async () => {
        const once = (await editFor(SMALL, 'E')).after;
        const { edit, after: twice } = await editFor(once, 'E');
        expect(twice).toBe(once);
        expect(isNoOp(once, edit)).toBe(true);
        // The replaced range is exactly the old block, from the start of its line.
        const start = once.indexOf('  outcome');
        expect(edit.start).toBe(start);
        expect(edit.end).toBe(once.indexOf('  }\n}') + 3);
    });

    it('replaces an old block exactly, never duplicating it', async () => {
        const old = SMALL.replace('  dice B foot 5\n', '  dice B foot 5\n  outcome seed 3 check "00000000" {\n    summary "old"\n    A.Guard: routed\n  }\n');
        const { edit, after } = await editFor(old, 'E');
        expect(edit.start).toBe(old.indexOf('  outcome'));
        expect(edit.end).toBe(old.indexOf('  }\n}') + 3);
        expect(after.match(/outcome/g)).toHaveLength(1);
        expect(after).toBe((await editFor(SMALL, 'E')).after);
    });

    it('keeps a CRLF file CRLF', async () => {
        const crlf = SMALL.replace(/\n/g, '\r\n');
        expect(detectEol(crlf)).toBe('\r\n');
        const { edit, after } = await editFor(crlf, 'E');
        expect(edit.newText).toContain('\r\n');
        expect(after.replace(/\r\n/g, '')).not.toMatch(/[\r\n]/);
        expect(toRangeEdit(crlf, edit).range.start).toEqual({ line: 12, character: 0 });
        expect((await editFor(after, 'E')).after).toBe(after);
        expect(await problems(after)).toEqual([]);
    });

    it('handles an engagement at the end of the file without a trailing newline', async () => {
        const noEol = SMALL.trimEnd();
        const { edit, after } = await editFor(noEol, 'E');
        expect(after.endsWith('  }\n}')).toBe(true);
        expect(after.slice(0, edit.start)).toBe(noEol.slice(0, edit.start));
        expect((await editFor(after, 'E')).after).toBe(after);
        expect(await problems(after)).toEqual([]);
    });

    it('gives a one-line engagement its block and a closing brace on its own line', async () => {
        const oneLine = SMALL.replace(/engagement E \{[\s\S]*\}\n$/, 'engagement E { A attacks B dice A foot 4 dice B foot 5 }\n');
        const { after } = await editFor(oneLine, 'E');
        expect(after).toContain('engagement E { A attacks B dice A foot 4 dice B foot 5 \n  outcome entered');
        expect(after.endsWith('  }\n}\n')).toBe(true);
        expect((await editFor(after, 'E')).after).toBe(after);
        expect(await problems(after)).toEqual([]);
    });

    it('indents the block inside a turn, one level below its action, and records a drawn seed', async () => {
        const inTurn = SMALL.replace(/engagement E \{[\s\S]*\}\n$/, 'turn 1 {\n    engagement E {\n        A attacks B\n    }\n}\n');
        const { edit, after } = await editFor(inTurn, 'E', 4242);
        expect(edit.newText.split('\n')[0]).toMatch(/^ {6}outcome seed 4242 check "[0-9a-f]{8}" \{$/);
        expect(edit.newText.split('\n')[1]).toMatch(/^ {8}summary /);
        expect(after).toContain('      }\n    }\n}\n');
        // Resolving again uses the recorded seed: same bytes, and the parser sees a current outcome.
        expect((await editFor(after, 'E', 1)).after).toBe(after);
        expect(await problems(after)).toEqual([]);
    });

    it('writes blocks the formatter leaves as they are, in every example (no flip-flop between them)', async () => {
        const dir = new URL('../../examples/', import.meta.url);
        for (const file of fs.readdirSync(dir).filter(f => f.endsWith('.battle') && !f.startsWith('broken'))) {
            const text = fs.readFileSync(new URL(file, dir), 'utf8');
            // An order of battle has no action; a file that imports one is tested beside it (test/cli/imports.test.ts).
            if (!/^\s*(engagement|fire|move|morale|redress|command) /m.test(text) || /^import /m.test(text)) continue;
            const model = modelOf((await parse(text)).parseResult.value);
            const edits = model.actions.flatMap(a => {
                const r = resolveAction(model, a, { newSeed: () => 5 });
                return isUnresolvable(r) ? [] : [resolutionEdit(text, actionOffsets(a.node, text)!, r.resolution, r.dice)];
            });
            expect(edits.length, file).toBeGreaterThan(0);
            const written = await parse(applyEdits(text, edits));
            const formatting = await services.lsp.Formatter!.formatDocument(written, {
                textDocument: { uri: written.uri.toString() }, options: { tabSize: 2, insertSpaces: true }
            });
            expect(formatting.map(e => `${file}:${e.range.start.line + 1} ${JSON.stringify(e.newText)}`)).toEqual([]);
        }
    });

    it('counts positions like an editor', () => {
        expect(positionAt('ab\r\ncd\ne', 4)).toEqual({ line: 1, character: 0 });
        expect(positionAt('ab\r\ncd\ne', 8)).toEqual({ line: 2, character: 1 });
        expect(positionAt('a\rb', 2)).toEqual({ line: 1, character: 0 });
    });
});
