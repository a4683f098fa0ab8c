/**
 * One record of each edit: the editor's change events (ranges, several to a version, versions built
 * together or one by one, now and then the whole text) give the span a parse in pieces splices at and
 * the kept answers move by (src/language/lsp/text-documents.ts, battle-document-factory.ts
 * `ParsedFrom.change`). After every version built, the document edited in place must give what a fresh
 * server gives for the same text: diagnostics, semantic tokens, outline, folding and lenses.
 */
import { describe, expect, it } from 'vitest';
import * as fs from 'node:fs';
import { EmptyFileSystem, TextDocument, URI, type LangiumDocument } from 'langium';
import type { LangiumServices } from 'langium/lsp';
import type { Connection, TextDocumentContentChangeEvent } from 'vscode-languageserver';
import { createBattleServices } from '../../../src/language/battle-module.js';
import { parsedFrom } from '../../../src/language/battle-document-factory.js';
import type { BattleTextDocuments } from '../../../src/language/lsp/text-documents.js';
import { spanBetween } from '../../../src/language/text-change.js';
// @ts-expect-error: a plain ES module of the benchmarks, without types
import { turnsCampaign } from '../../../scripts/bench-files.mjs';
import { seeded } from '../../support/seeded.js';

const EXAMPLES = ['scrud-ridge', 'campaign', 'ancients-tokens', 'loose-files-turn', 'cowpens', 'broken-campaign'];
const texts: string[] = [
    ...EXAMPLES.map(name => fs.readFileSync(new URL(`../../../examples/${name}.battle`, import.meta.url), 'utf8')),
    turnsCampaign(120, 4) as string
];

/** The server's services, their open documents listening on a connection the test speaks for. */
function editorServer() {
    const services = createBattleServices(EmptyFileSystem);
    const handlers = new Map<string, (event: unknown) => void>();
    const connection = new Proxy({}, { get: (_, name) => (handler: (event: unknown) => void) => { handlers.set(String(name), handler); return { dispose() {} }; } });
    const documents = services.shared.workspace.TextDocuments as BattleTextDocuments;
    documents.listen(connection as unknown as Connection);
    return {
        services,
        documents,
        open: (uri: string, text: string) => handlers.get('onDidOpenTextDocument')!({ textDocument: { uri, languageId: 'battle', version: 1, text } }),
        change: (uri: string, version: number, contentChanges: TextDocumentContentChangeEvent[]) =>
            handlers.get('onDidChangeTextDocument')!({ textDocument: { uri, version }, contentChanges })
    };
}

const cold = createBattleServices(EmptyFileSystem);
let coldCount = 0;

const id = (doc: LangiumDocument) => ({ textDocument: { uri: doc.uri.toString() } });

/** Everything the editor shows of a document, as plain data (the address and version made the same on both sides). */
async function seen(s: LangiumServices, doc: LangiumDocument) {
    const p = s.lsp;
    const answers = {
        diagnostics: (doc.diagnostics ?? []).map(d => ({ range: d.range, message: d.message, code: d.code, severity: d.severity })),
        tokens: (await p.SemanticTokenProvider!.semanticHighlight(doc, id(doc))).data,
        symbols: await p.DocumentSymbolProvider!.getSymbols(doc, id(doc)),
        folding: await p.FoldingRangeProvider!.getFoldingRanges(doc, id(doc)),
        lenses: await p.CodeLensProvider!.provideCodeLens(doc, id(doc))
    };
    return JSON.parse(JSON.stringify(answers).replaceAll(doc.uri.toString(), 'URI').replace(/"version":\d+/g, '"version":0'));
}

async function coldSeen(text: string) {
    const uri = URI.parse(`file:///cold/${++coldCount}.battle`);
    const doc = cold.shared.workspace.LangiumDocumentFactory.fromTextDocument(TextDocument.create(uri.toString(), 'battle', 1, text));
    cold.shared.workspace.LangiumDocuments.addDocument(doc);
    await cold.shared.workspace.DocumentBuilder.build([doc], { validation: true });
    try {
        return await seen(cold.Battle, doc);
    } finally {
        cold.shared.workspace.LangiumDocuments.deleteDocument(uri);
    }
}

const INSERTS = [' ', 'x', '1', '\n', '}', '{', '"', '/* c */', 'grade G +1\n', '  factor Wet on F1.Line\n'];

/** The line and column of an offset, as the editor names them. */
function positionAt(text: string, offset: number) {
    const before = text.slice(0, offset);
    const line = before.split('\n').length - 1;
    return { line, character: offset - (before.lastIndexOf('\n') + 1) };
}

/**
 * One change event on `text`: a range replaced by new text, sometimes typed over itself (the events then
 * name more than a comparison of the texts finds). Returns the event and the text it leaves.
 */
function oneEvent(text: string, random: () => number): { event: TextDocumentContentChangeEvent, text: string } {
    const at = Math.floor(random() * text.length);
    const end = Math.min(text.length, at + Math.floor(random() * 8));
    const kind = Math.floor(random() * 4);
    const insert = kind === 0 ? '' : kind === 1 ? INSERTS[Math.floor(random() * INSERTS.length)] : kind === 2 ? text.slice(at, end) + INSERTS[Math.floor(random() * 4)] : text.slice(at, end);
    const range = { start: positionAt(text, at), end: positionAt(text, end) };
    return { event: { range, text: insert }, text: text.slice(0, at) + insert + text.slice(end) };
}

describe('one record of each edit', () => {
    it('records the span the editor\'s change events replaced, several to a version, across versions', () => {
        const { documents, open, change } = editorServer();
        const uri = 'file:///record.battle';
        const text = 'scenario "A"\nrules scrud\nforce A { unit X foot }\n';
        open(uri, text);
        // "X" typed over itself and one more character: the events name the word, a comparison only the new character.
        change(uri, 2, [{ range: { start: { line: 2, character: 15 }, end: { line: 2, character: 16 } }, text: 'XY' }]);
        expect(documents.edits.changeBetween(uri, 1, 2)).toEqual({ span: { prefix: 40, suffix: text.length - 41 }, oldLength: text.length, newLength: text.length + 1 });
        expect(spanBetween(text, documents.get(uri)!.getText())).toEqual({ prefix: 41, suffix: text.length - 41 });
        // Two events in one version, then a third version: the spans compose.
        change(uri, 3, [
            { range: { start: { line: 0, character: 10 }, end: { line: 0, character: 11 } }, text: 'B' },
            { range: { start: { line: 3, character: 0 }, end: { line: 3, character: 0 } }, text: 'grade G +1\n' }
        ]);
        const after = documents.get(uri)!.getText();
        expect(documents.edits.changeBetween(uri, 1, 3)).toEqual({ span: { prefix: 10, suffix: 0 }, oldLength: text.length, newLength: after.length });
        expect(documents.edits.changeBetween(uri, 2, 3)!.span).toEqual({ prefix: 10, suffix: 0 });
        // The whole text sent: no span (the texts are compared); a version never seen: none.
        change(uri, 4, [{ text: after + '\n' }]);
        expect(documents.edits.changeBetween(uri, 3, 4)).toBeUndefined();
        expect(documents.edits.changeBetween(uri, 1, 4)).toBeUndefined();
        expect(documents.edits.changeBetween(uri, 7, 9)).toBeUndefined();
        // Opened again: the record starts afresh.
        open(uri, text);
        expect(documents.edits.changeBetween(uri, 1, 2)).toBeUndefined();
    });

    it('after every version built, the document edited by change events gives what a fresh server gives', async () => {
        let fromEvents = 0, wider = 0, builds = 0;
        for (const [n, start] of texts.entries()) {
            const { services, documents, open, change } = editorServer();
            const uri = `file:///warm/${n}.battle`;
            open(uri, start);
            const workspace = services.shared.workspace;
            const doc = workspace.LangiumDocumentFactory.fromTextDocument(documents.get(uri)!);
            workspace.LangiumDocuments.addDocument(doc);
            await workspace.DocumentBuilder.build([doc], { validation: true });
            const random = seeded(4000 + n);
            let version = 1, text = start;
            for (let step = 0; step < 14; step++) {
                // One to three versions before the build, each of one to three events (now and then the whole text).
                const before = text;
                for (let v = 1 + Math.floor(random() * 3); v > 0; v--) {
                    const events: TextDocumentContentChangeEvent[] = [];
                    if (random() < 0.05) {
                        text = oneEvent(text, random).text;
                        events.push({ text });
                    } else {
                        for (let e = 1 + Math.floor(random() * 3); e > 0; e--) {
                            const one = oneEvent(text, random);
                            events.push(one.event);
                            text = one.text;
                        }
                    }
                    change(uri, ++version, events);
                }
                expect(documents.get(uri)!.getText()).toBe(text);
                await workspace.DocumentBuilder.update([URI.parse(uri)], []);
                const current = workspace.LangiumDocuments.getDocument(URI.parse(uri))!;
                builds++;
                const parse = parsedFrom(current)!;
                expect(parse.text).toBe(text);
                // A step whose edits left the text as it was is not parsed again (Langium compares the texts).
                if (parse.change && text !== before) {
                    // Every changed character lies inside the span recorded.
                    const { prefix, suffix } = parse.change;
                    expect(parse.previous).toBe(before);
                    expect(text.slice(0, prefix)).toBe(before.slice(0, prefix));
                    expect(text.slice(text.length - suffix)).toBe(before.slice(before.length - suffix));
                    const compared = spanBetween(before, text);
                    if (documents.edits.changeBetween(uri, version - 1, version) || compared.prefix !== prefix) fromEvents++;
                    if (compared.prefix > prefix || compared.suffix > suffix) wider++;
                }
                expect(await seen(services.Battle, current), `${EXAMPLES[n] ?? 'turns'} step ${step}`).toEqual(await coldSeen(text));
            }
        }
        // The events' spans were used, and many of them named more than a comparison would.
        expect(builds).toBe(texts.length * 14);
        expect(fromEvents).toBeGreaterThan(20);
        expect(wider).toBeGreaterThan(10);
    }, 300_000);
});
