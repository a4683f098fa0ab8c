/**
 * A band is one token (docs/house-rules.md): `4.. 1` is the open band 4.. with the value 1, `..-2 0`
 * the band ..-2 with the value 0, whatever the spaces after it; a band written wrong (`4...5`, `5..3`,
 * `3 .. 4`) gets `house-band` with a message that says how to write it, and the spaced one a fix.
 */
import { describe, expect, it } from 'vitest';
import { expectCompletion, parseHelper } from 'langium/test';
import { TextDocument } from 'vscode-languageserver-textdocument';
import type { CodeAction, CompletionList, Diagnostic, TextDocumentEdit, TextEdit } from 'vscode-languageserver';
import type { HouseEntry, Scenario } from '../../src/language/generated/ast.js';
import { parseBand } from '../../src/core/bands.js';
import { entryKey, keyText } from '../../src/core/house-rules.js';
import { Codes } from '../../src/core/codes.js';
import { battle as services } from '../support/services.js';

const parse = parseHelper<Scenario>(services);

async function house(rules: string, rows: string) {
    const doc = await parse(`rules ${rules}\nhouse {\n  ${rows}\n}\n`, { validation: true });
    const entries = doc.parseResult.value.elements.flatMap(e => e.$type === 'House' ? e.rows.flatMap(r => r.entries) : []);
    return { doc, entries, diagnostics: (doc.diagnostics ?? []) as Diagnostic[], parseErrors: doc.parseResult.parserErrors.length + doc.parseResult.lexerErrors.length };
}

const read = (entries: HouseEntry[]) => entries.map(e => [entryKey(e) ? keyText(entryKey(e)!) : undefined, e.number ?? e.word]);

describe('parseBand', () => {
    it('reads the four shapes, signs and all', () => {
        expect(parseBand('3..4')).toEqual({ band: { from: 3, to: 4 } });
        expect(parseBand('5..')).toEqual({ band: { from: 5, to: null } });
        expect(parseBand('..-9')).toEqual({ band: { from: null, to: -9 } });
        expect(parseBand('-4..-2')).toEqual({ band: { from: -4, to: -2 } });
        expect(parseBand('+1..+3')).toEqual({ band: { from: 1, to: 3 } });
    });

    it('says what is wrong with a malformed or empty band', () => {
        expect(parseBand('4...5')).toEqual({ problem: expect.stringContaining("'4...5' is not a band: write two dots") });
        expect(parseBand('..')).toEqual({ problem: expect.stringContaining('a number on at least one side') });
        expect(parseBand('3..4..5')).toHaveProperty('problem');
        expect(parseBand('5..3')).toEqual({ problem: 'The band 5..3 is empty: write the lower number first (3..5).' });
    });
});

describe('a band is one token', () => {
    it('`4.. 1` is the open band 4.. with the value 1, not the band 4..1', async () => {
        const { entries, diagnostics, parseErrors } = await house('ancients', 'to-hit ..-2 5, -1..0 4, 1.. 3');
        expect(parseErrors).toBe(0);
        expect(diagnostics).toEqual([]);
        expect(read(entries)).toEqual([['..-2', 5], ['-1..0', 4], ['1..', 3]]);
        const joined = await house('ancients', 'to-hit ..-2 5, -1..0 4, 1..3');
        // Without the space, 1..3 is a band and the row misses its value.
        expect(joined.parseErrors).toBeGreaterThan(0);
    });

    it('`..-2 0` is the band ..-2 with the value 0', async () => {
        const { entries, parseErrors } = await house('loose-files', 'combat-dp ..-2 0');
        expect(parseErrors).toBe(0);
        expect(entries[0].band?.range).toBe('..-2');
        expect(entries[0].number).toBe(0);
    });

    it('spaces, tabs and line breaks after a band only separate it from its value', async () => {
        for (const gap of [' ', '   ', '\t', '\n    ']) {
            const { entries, diagnostics, parseErrors } = await house('scrud', `result 0 stand-off, 1..2 recoil,${gap}3..${gap}retreat, 4..${gap}5, 5.. rout`);
            expect(parseErrors, JSON.stringify(gap)).toBe(0);
            expect(read(entries).slice(1, 3)).toEqual([['1..2', 'recoil'], ['3..', 'retreat']]);
            // `4.. 5` is the band 4.. with the value 5 (not a result: house-value), not the band 4..5.
            expect(read(entries)[3]).toEqual(['4..', 5]);
            expect(diagnostics.some(d => d.code === Codes.houseValue && (d.message as string).includes("not '5'"))).toBe(true);
        }
    });

    it('`3 .. 4` and `3 ..4` (spaces inside) get house-band, and the fix joins the band', async () => {
        for (const spaced of ['3 .. 4', '3 ..4']) {
            const { doc, diagnostics, parseErrors } = await house('scrud', `result 0 stand-off, 1..2 recoil, ${spaced} retreat, 5.. rout`);
            expect(parseErrors).toBe(0);
            const d = diagnostics.find(x => x.code === Codes.houseBand);
            expect(d?.message).toBe("'result': A band is one word, written without spaces: 3..4.");
            const actions = await services.lsp.CodeActionProvider!.getCodeActions(doc, {
                textDocument: { uri: doc.uri.toString() }, range: d!.range, context: { diagnostics: [d!] }
            }) as CodeAction[];
            const fix = actions.find(a => a.title.includes('3..4'));
            expect(fix, actions.map(a => a.title).join(', ')).toBeDefined();
            const fixed = TextDocument.applyEdits(doc.textDocument, (fix!.edit!.documentChanges![0] as TextDocumentEdit).edits as TextEdit[]);
            expect(fixed).toContain('1..2 recoil, 3..4 retreat, 5.. rout');
            expect((await parse(fixed, { validation: true })).diagnostics).toEqual([]);
        }
    });

    it('a malformed band (`4...5`, `..`) or an empty one (`5..3`) gets house-band, not a syntax error', async () => {
        const { diagnostics, parseErrors } = await house('scrud', 'result 0 stand-off, 1..2 recoil, 3...4 retreat, 5..3 rout, .. rout');
        expect(parseErrors).toBe(0);
        expect(diagnostics.filter(d => d.code === Codes.houseBand).map(d => d.message)).toEqual([
            "'result': '3...4' is not a band: write two dots between the numbers, with no spaces: 3..4 (3 to 4), 5.. (5 or more), ..-9 (-9 or less).",
            "'result': The band 5..3 is empty: write the lower number first (3..5).",
            "'result': '..' is not a band: write a number on at least one side of the two dots: 5.. (5 or more), ..-9 (-9 or less)."
        ]);
        expect(diagnostics.every(d => d.severity === 1)).toBe(true);
    });

    it('the formatter keeps an open band and its number apart, and a band whole', async () => {
        const doc = await parse('rules ancients\nhouse {\n  to-hit   ..-2   5 ,-1..0 4,1..   3\n}\n');
        const edits = await services.lsp.Formatter!.formatDocument(doc, { textDocument: { uri: doc.uri.toString() }, options: { tabSize: 2, insertSpaces: true } });
        expect(TextDocument.applyEdits(doc.textDocument, edits)).toBe('rules ancients\n\nhouse {\n  to-hit ..-2 5, -1..0 4, 1.. 3\n}\n');
    });

    it('a fraction and a dotted name are not bands', async () => {
        const doc = await parse('rules loose-files\nforce A { unit Line foot }\nforce B { unit Line foot }\nfire F { A.Line fires at B.Line: range 9.5 }\n', { validation: true });
        expect(doc.parseResult.lexerErrors).toEqual([]);
        expect(doc.parseResult.parserErrors).toEqual([]);
    });

    it('completion offers the table\'s values after an open band, and the hover reads it as a band', async () => {
        let list: CompletionList | undefined;
        await expectCompletion(services)({ text: 'rules scrud\nhouse {\n  result 0 stand-off, 1..4 recoil, 5.. <|>\n}\n', index: 0, assert: c => { list = c; }, disposeAfterCheck: true });
        expect(list?.items.map(i => i.label)).toEqual(expect.arrayContaining(['rout', 'retreat', 'stand-off']));
        const doc = await parse('rules scrud\nhouse {\n  result 0 stand-off, 1..4 recoil, 5.. rout\n}\n');
        const offset = doc.textDocument.getText().indexOf('5..');
        const hover = await services.lsp.HoverProvider!.getHoverContent(doc, { textDocument: { uri: doc.uri.toString() }, position: doc.textDocument.positionAt(offset + 1) });
        const text = JSON.stringify(hover?.contents);
        expect(text).toContain('house rule: result');
        expect(text).toContain("This entry replaces the seed's `4.. rout`.");
    });
});
