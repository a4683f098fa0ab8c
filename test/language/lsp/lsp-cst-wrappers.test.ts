/**
 * The parse leaves out the nodes of wrapper calls (`Element`, `Statement`, `Word`, …: Umpire's node builder,
 * src/language/battle-cst-builder.ts), putting their one child in their place. Everything that reads the
 * tree must answer as it did on Langium's tree, wrappers included: here each example (and a copy with
 * comments everywhere) is built twice, once with Langium's own `construct` (the wrappers kept), and the
 * diagnostics and the editor's answers are compared, the answers at positions all over the text.
 */
import * as fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { CstNodeBuilder, CstUtils, EmptyFileSystem, TextDocument, URI, type LangiumDocument } from 'langium';
import type { LangiumServices } from 'langium/lsp';
import { createBattleServices } from '../../../src/language/battle-module.js';
import { BattleCstNodeBuilder } from '../../../src/language/battle-cst-builder.js';

// Langium's own method: Umpire's builder without it leaves out no wrapper (set on Umpire's class for one build below).
const langiumConstruct = CstNodeBuilder.prototype.construct;
const repaired = createBattleServices(EmptyFileSystem);
const wrapped = createBattleServices(EmptyFileSystem);

const examples = fs.readdirSync(new URL('../../../examples/', import.meta.url)).filter(f => f.endsWith('.battle'))
    .map(f => [f, fs.readFileSync(new URL(`../../../examples/${f}`, import.meta.url), 'utf8')] as const);

/** Comments before and after every other line, and between its words. */
function commented(text: string): string {
    return text.split('\n').map((line, i) => i % 2 ? `/* a */ ${line.replace(/ (?=\S)/g, ' /* b */ ')} // c` : line).join('\n');
}

let count = 0;

async function build(services: ReturnType<typeof createBattleServices>, text: string, keepWrappers: boolean): Promise<LangiumDocument> {
    const uri = URI.parse(`file:///wrappers/${++count}.battle`);
    const own = BattleCstNodeBuilder.prototype.construct;
    if (keepWrappers) BattleCstNodeBuilder.prototype.construct = langiumConstruct;
    try {
        // The factory parses the text at once.
        const doc = services.shared.workspace.LangiumDocumentFactory.fromTextDocument(TextDocument.create(uri.toString(), 'battle', 1, text));
        services.shared.workspace.LangiumDocuments.addDocument(doc);
        await services.shared.workspace.DocumentBuilder.build([doc], { validation: true });
        return doc;
    } finally {
        BattleCstNodeBuilder.prototype.construct = own;
    }
}

const plain = (value: unknown, doc: LangiumDocument) => JSON.parse(JSON.stringify(value ?? null).replaceAll(doc.uri.toString(), 'URI').replaceAll(encodeURIComponent(doc.uri.toString()), 'URI').replace(/"version":\d+/g, '"version":0')) as unknown;

/** The whole-file answers, the diagnostics, and the answers at each of `offsets`. */
async function answers(services: LangiumServices, doc: LangiumDocument, offsets: readonly number[]) {
    const lsp = services.lsp;
    const id = { textDocument: { uri: doc.uri.toString() } };
    const whole = {
        diagnostics: plain(doc.diagnostics, doc),
        tokens: (await lsp.SemanticTokenProvider!.semanticHighlight(doc, id)).data,
        symbols: plain(await lsp.DocumentSymbolProvider!.getSymbols(doc, id), doc),
        folding: plain(await lsp.FoldingRangeProvider!.getFoldingRanges(doc, id), doc),
        lenses: plain(await lsp.CodeLensProvider!.provideCodeLens(doc, id), doc),
        format: plain(await lsp.Formatter!.formatDocument(doc, { ...id, options: { tabSize: 2, insertSpaces: true } }), doc)
    };
    const at = [];
    for (const offset of offsets) {
        const position = doc.textDocument.positionAt(offset);
        const params = { ...id, position };
        at.push(plain({
            offset,
            completion: (await lsp.CompletionProvider!.getCompletion(doc, params))?.items.map(i => [i.label, i.kind, i.textEdit, i.sortText]),
            hover: await lsp.HoverProvider!.getHoverContent(doc, params),
            definition: await lsp.DefinitionProvider!.getDefinition(doc, params),
            references: await lsp.ReferencesProvider!.findReferences(doc, { ...params, context: { includeDeclaration: true } }),
            highlight: await lsp.DocumentHighlightProvider!.getDocumentHighlight(doc, params),
            rename: await lsp.RenameProvider!.prepareRename(doc, params)
        }, doc));
    }
    return { whole, at };
}

describe('the tree without wrapper nodes', () => {
    it('gives the diagnostics and the editor\'s answers of Langium\'s tree, on every example, with comments', async () => {
        let compared = 0;
        for (const [name, text] of examples) {
            for (const source of [text, commented(text)]) {
                const doc = await build(repaired, source, false);
                const before = await build(wrapped, source, true);
                // The repair did leave nodes out, and Langium's tree kept them.
                const composites = (d: LangiumDocument) => CstUtils.streamCst(d.parseResult.value.$cstNode!).filter(n => 'content' in n).count();
                expect(composites(doc), name).toBeLessThan(composites(before));
                // Positions: the start, middle and end of every third token (every fifth in the larger examples), and the text's end.
                const leaves = CstUtils.streamCst(doc.parseResult.value.$cstNode!).filter(n => !('content' in n)).toArray();
                const step = leaves.length > 200 ? 5 : 3;
                const offsets = leaves.filter((_, i) => i % step === 0).flatMap(l => [l.offset, l.offset + (l.length >> 1), l.end]);
                offsets.push(source.length);
                expect(await answers(repaired.Battle, doc, offsets), name).toEqual(await answers(wrapped.Battle, before, offsets));
                compared += offsets.length;
            }
        }
        expect(compared).toBeGreaterThan(1000);
    }, 300_000);
});
