/**
 * The editor's whole-file answers kept per element (src/language/lsp/kept-per-element.ts): semantic
 * tokens (full, delta and range), the outline, folding ranges and code lenses of a document edited in
 * place must be, after every edit of random edit sequences, exactly what a fresh server computes for
 * the same text. The edits add, remove, rename and duplicate elements, break the syntax and mend it,
 * and the answers are asked for only now and then (so that a kept answer is several parses old), some
 * of them while the next edit is being built, some cancelled.
 */
import { describe, expect, it } from 'vitest';
import * as fs from 'node:fs';
import { isDeepStrictEqual } from 'node:util';
import { AstUtils, EmptyFileSystem, GrammarUtils, isOperationCancelled, TextDocument, URI, type AstNode, type LangiumDocument } from 'langium';
import { DefaultFoldingRangeProvider, type LangiumServices, type SemanticTokenAcceptor } from 'langium/lsp';
import { TextDocument as EditorDocument } from 'vscode-languageserver-textdocument';
import { CancellationTokenSource, LSPErrorCodes, ResponseError, SemanticTokensBuilder, type SemanticTokens, type SemanticTokensDelta } from 'vscode-languageserver';
import { createBattleServices } from '../../../src/language/battle-module.js';
import { BattleSemanticTokenProvider } from '../../../src/language/lsp/semantic-tokens.js';
import { BattleFoldingRangeProvider } from '../../../src/language/lsp/symbols.js';
import { BattleCaches } from '../../../src/language/battle-caches.js';
// @ts-expect-error: a plain ES module of the benchmarks, without types
import { campaign, turnsCampaign } from '../../../scripts/bench-files.mjs';
import { seeded } from '../../support/seeded.js';

const EXAMPLES = ['scrud-ridge', 'campaign', 'ancients-tokens', 'loose-files-turn', 'cowpens', 'broken-campaign', 'house-rules-scrud'];
const texts: string[] = [
    ...EXAMPLES.map(name => fs.readFileSync(new URL(`../../../examples/${name}.battle`, import.meta.url), 'utf8')),
    campaign(400) as string,
    turnsCampaign(400, 8) as string,
    // Block comments (folded) between elements, inside them and inside a turn.
    (turnsCampaign(120, 4) as string).replace(/\nturn 2 \{\n/, '\n/* the second turn\n   was fought in rain\n*/\nturn 2 {\n/*\n rain\n*/\n').replace(/\nforce F3 \{\n/, '\n/*\n a\n b\n*/\nforce F3 {\n  /*\n   c\n  */\n')
];

const warm = createBattleServices(EmptyFileSystem);
const cold = createBattleServices(EmptyFileSystem);
let coldCount = 0;

const INSERTS = [' ', 'x', '1', '\n', '\n\n', '}', '{', '"', '/* c */', '/*\n  c\n*/\n', 'grade G +1\n', 'modifier Wet -1\n', 'force Z {\n  unit A foot Line x2\n}\n', 'engagement Q {\n  F1 attacks F2\n}\n', '  factor Wet on F1.Line\n'];

/** One edit somewhere: a character or a few typed or deleted, a line removed, duplicated or added, a name changed. */
function edit(text: string, random: () => number): string {
    const at = Math.floor(random() * text.length);
    const lineStart = text.lastIndexOf('\n', at - 1) + 1;
    const lineEnd = text.indexOf('\n', at) < 0 ? text.length : text.indexOf('\n', at) + 1;
    switch (Math.floor(random() * 6)) {
        case 0: return text.slice(0, at) + INSERTS[Math.floor(random() * INSERTS.length)] + text.slice(at);
        case 1: return text.slice(0, at) + text.slice(at + 1 + Math.floor(random() * 6));
        case 2: return text.slice(0, lineStart) + text.slice(lineEnd);
        case 3: return text.slice(0, lineEnd) + text.slice(lineStart, lineEnd) + text.slice(lineEnd);
        case 4: return text.slice(0, lineStart) + INSERTS[8 + Math.floor(random() * (INSERTS.length - 8))] + text.slice(lineStart);
        default: {
            const name = /\b([A-Z]\w*)\b/.exec(text.slice(at, at + 200));
            if (!name) return text.slice(0, at) + 'e' + text.slice(at);
            const from = at + name.index;
            return text.slice(0, from) + name[1] + 'r' + text.slice(from + name[1].length);
        }
    }
}

const lsp = (s: LangiumServices) => s.lsp;
const id = (doc: LangiumDocument) => ({ textDocument: { uri: doc.uri.toString() } });

/** Every answer, as plain data (the lenses' document address and version made the same on both sides). */
async function answers(s: LangiumServices, doc: LangiumDocument, token?: CancellationTokenSource) {
    const p = lsp(s);
    const tokens = await p.SemanticTokenProvider!.semanticHighlight(doc, id(doc), token?.token);
    const symbols = await p.DocumentSymbolProvider!.getSymbols(doc, id(doc), token?.token);
    const folding = await p.FoldingRangeProvider!.getFoldingRanges(doc, id(doc), token?.token);
    const lenses = await p.CodeLensProvider!.provideCodeLens(doc, id(doc), token?.token);
    return {
        tokens: tokens.data, symbols: JSON.parse(JSON.stringify(symbols)), folding: JSON.parse(JSON.stringify(folding)),
        lenses: JSON.parse(JSON.stringify(lenses).replaceAll(doc.uri.toString(), 'URI').replace(/"version":\d+/g, '"version":0'))
    };
}

async function coldAnswers(text: string) {
    const uri = URI.parse(`file:///cold/${++coldCount}.battle`);
    const doc = cold.shared.workspace.LangiumDocumentFactory.fromTextDocument(TextDocument.create(uri.toString(), 'battle', 1, text));
    cold.shared.workspace.LangiumDocuments.addDocument(doc);
    await cold.shared.workspace.DocumentBuilder.build([doc], { validation: true });
    try {
        return { doc, ...await answers(cold.Battle, doc) };
    } finally {
        cold.shared.workspace.LangiumDocuments.deleteDocument(uri);
    }
}

/** The text as the editor holds it at `version`, built as the server builds a change (in pieces). */
function editorChange(uri: string, text: string, version: number): Promise<void> {
    warm.shared.workspace.TextDocuments!.set(EditorDocument.create(uri, 'battle', version, text));
    return warm.shared.workspace.DocumentBuilder.update([URI.parse(uri)], []);
}

function applyDelta(data: number[], delta: SemanticTokens | SemanticTokensDelta): number[] {
    if ('data' in delta) return delta.data;
    const out = [...data];
    for (const e of [...delta.edits].sort((a, b) => b.start - a.start)) out.splice(e.start, e.deleteCount, ...(e.data ?? []));
    return out;
}

/** Refused because the text changed or the request was cancelled: what a request overtaken by an edit may answer. */
function overtaken(error: unknown): boolean {
    return isOperationCancelled(error) || (error instanceof ResponseError && error.code === LSPErrorCodes.ContentModified);
}

/** The tokens of Langium's way: every node of the tree walked, in order, with the provider's own highlightElement. */
class WholeTreeTokens extends BattleSemanticTokenProvider {
    wholeTreeTokens(doc: LangiumDocument): number[] {
        const builder = new SemanticTokensBuilder();
        const acceptor: SemanticTokenAcceptor = options => {
            if (!('property' in options)) throw new Error('only properties are highlighted');
            const nodes = typeof options.index === 'number'
                ? [GrammarUtils.findNodeForProperty(options.node.$cstNode, options.property, options.index)].filter(n => n !== undefined)
                : GrammarUtils.findNodesForProperty(options.node.$cstNode, options.property);
            let modifiers = 0;
            for (const m of typeof options.modifier === 'string' ? [options.modifier] : options.modifier ?? []) modifiers |= this.tokenModifiers[m];
            for (const n of nodes) builder.push(n.range.start.line, n.range.start.character, n.range.end.character - n.range.start.character, this.tokenTypes[options.type], modifiers);
        };
        for (const node of AstUtils.streamAst(doc.parseResult.value)) this.highlightElement(node as AstNode, acceptor);
        return builder.build().data;
    }
}

/** Langium's own folding provider, with the same blocks: every node walked, every leaf of the file read for comments. */
class WholeTreeFolding extends DefaultFoldingRangeProvider {
    private readonly battle: BattleFoldingRangeProvider;
    constructor(services: LangiumServices) {
        super(services);
        this.battle = new BattleFoldingRangeProvider(services, new BattleCaches());
    }
    protected override shouldProcess(node: AstNode): boolean {
        return (this.battle as unknown as { shouldProcess(n: AstNode): boolean }).shouldProcess(node);
    }
    protected override shouldProcessContent(node: AstNode): boolean {
        return (this.battle as unknown as { shouldProcessContent(n: AstNode): boolean }).shouldProcessContent(node);
    }
}

describe('the editor\'s whole-file answers kept per element', () => {
    it('are after every edit what a fresh server answers for the same text, and what a walk of the whole tree gives', async () => {
        const wholeTokens = new WholeTreeTokens(cold.Battle, new BattleCaches());
        const wholeFolding = new WholeTreeFolding(cold.Battle);
        let compared = 0, kept = 0;
        for (const [t, start] of texts.entries()) {
            const random = seeded(1000 + t);
            const uri = `file:///warm/kept-${t}.battle`;
            let text = start;
            let version = 1;
            await editorChange(uri, text, version);
            const doc = warm.shared.workspace.LangiumDocuments.getDocument(URI.parse(uri))!;
            let lastTokens: { id: string, data: number[] } | undefined;
            for (let e = 0; e < 30; e++) {
                text = edit(text, random);
                await editorChange(uri, text, ++version);
                // Asked now and then: a kept answer may be several parses old.
                if (random() < 0.35 && e < 29) continue;
                const want = await coldAnswers(text);
                const got = await answers(warm.Battle, doc);
                expect(got.tokens, `tokens, text ${t}, edit ${e}`).toEqual(want.tokens);
                expect(got.symbols, `outline, text ${t}, edit ${e}`).toEqual(want.symbols);
                expect(got.folding, `folding, text ${t}, edit ${e}`).toEqual(want.folding);
                expect(got.lenses, `lenses, text ${t}, edit ${e}`).toEqual(want.lenses);
                expect(want.tokens).toEqual(wholeTokens.wholeTreeTokens(want.doc));
                expect(want.folding).toEqual(JSON.parse(JSON.stringify(wholeFolding.getFoldingRanges(want.doc, id(want.doc)))));
                // A delta from the last answer the client holds gives the same tokens.
                const tokens = warm.Battle.lsp.SemanticTokenProvider!;
                if (lastTokens) {
                    const delta = await tokens.semanticHighlightDelta(doc, { ...id(doc), previousResultId: lastTokens.id });
                    if ('edits' in delta) kept++;
                    expect(applyDelta(lastTokens.data, delta), `delta, text ${t}, edit ${e}`).toEqual(want.tokens);
                    lastTokens = { id: delta.resultId!, data: want.tokens };
                } else {
                    const full = await tokens.semanticHighlight(doc, id(doc));
                    lastTokens = { id: full.resultId!, data: full.data };
                }
                // The tokens of a range are those of the whole file inside it.
                const lines = text.split('\n').length;
                const from = Math.floor(random() * lines), to = Math.min(lines, from + 1 + Math.floor(random() * 40));
                const range = { start: { line: from, character: 0 }, end: { line: to, character: 0 } };
                const ranged = await tokens.semanticHighlightRange(doc, { ...id(doc), range });
                expect(decode(ranged.data)).toEqual(decode(want.tokens).filter(([line]) => line >= from && line < to));
                compared++;
            }
        }
        expect(compared).toBeGreaterThan(150);
        expect(kept).toBeGreaterThan(50);
    }, 600_000);

    /** The warm answers after each of `steps` (texts), asked only where `ask` says, each compared with a cold server's. */
    async function sequence(name: string, steps: string[], ask: boolean[]): Promise<void> {
        const uri = `file:///warm/${name}.battle`;
        for (const [i, text] of steps.entries()) {
            await editorChange(uri, text, i + 1);
            if (!ask[i]) continue;
            const doc = warm.shared.workspace.LangiumDocuments.getDocument(URI.parse(uri))!;
            const { doc: _, ...want } = await coldAnswers(text);
            expect(await answers(warm.Battle, doc), `${name}, step ${i}`).toEqual(want);
        }
    }

    const HEAD = 'scenario "Kept"\nrules scrud\ngrade Line 0\n';
    const FORCE = (name: string) => `force ${name} {\n  unit U foot Line x2\n  unit V foot Line\n}\n`;

    it('move the elements after an edit on the line they start on by its columns', async () => {
        const line = 'grade A +1 grade B +2 modifier M -1 modifier N +1\n';
        const steps = [HEAD + line + FORCE('F') + FORCE('G')];
        for (const insert of ['x', 'xx', '', 'grade Q +3 ']) steps.push(HEAD + insert + line + FORCE('F') + FORCE('G'));
        steps.push(HEAD + line.replace('grade B', 'grade BB') + FORCE('F') + FORCE('G'));
        steps.push(HEAD + line.replace('grade B +2', 'grade B +2\n') + FORCE('F') + FORCE('G'));
        await sequence('columns', steps, steps.map(() => true));
    });

    it('place a kept element where it is when the text between two answers repeats (an element deleted, the same typed again)', async () => {
        // Asked at the first text only, then after both edits: the two texts are the same, but the
        // element kept is the second force of the first text, now the first.
        const twice = HEAD + FORCE('F') + FORCE('F') + FORCE('G');
        const once = HEAD + FORCE('F') + FORCE('G');
        await sequence('repeated', [twice, once, twice], [true, false, true]);
        const thrice = HEAD + FORCE('F') + FORCE('F') + FORCE('F');
        await sequence('repeated-more', [thrice, HEAD + FORCE('F') + FORCE('F'), thrice, HEAD + FORCE('F'), thrice], [true, false, false, false, true]);
    });

    it('answer requests overtaken by the next edit, some cancelled, with one text\'s whole answer or a refusal, never a mix', async () => {
        const random = seeded(77);
        const uri = 'file:///warm/overtaken.battle';
        // Big enough that a cold answer pauses (every 200 elements made) and the edit's build comes in between.
        let text = campaign(2500) as string;
        let version = 1;
        await editorChange(uri, text, version);
        const doc = warm.shared.workspace.LangiumDocuments.getDocument(URI.parse(uri))!;
        let answered = 0, refused = 0, late = 0;
        const p = warm.Battle.lsp;
        const requests = {
            tokens: (t: CancellationTokenSource) => Promise.resolve(p.SemanticTokenProvider!.semanticHighlight(doc, id(doc), t.token)).then(r => r.data),
            symbols: (t: CancellationTokenSource) => p.DocumentSymbolProvider!.getSymbols(doc, id(doc), t.token),
            folding: (t: CancellationTokenSource) => p.FoldingRangeProvider!.getFoldingRanges(doc, id(doc), t.token),
            lenses: (t: CancellationTokenSource) => p.CodeLensProvider!.provideCodeLens(doc, id(doc), t.token)
        };
        for (let e = 0; e < 25; e++) {
            const before = text;
            text = edit(text, random);
            // All four asked at once at the older version, as VS Code asks; then the edit arrives, and
            // some requests are cancelled by the client (as VS Code cancels them when the text changes).
            const sources = Object.keys(requests).map(() => new CancellationTokenSource());
            const asked = Object.values(requests).map((request, i) => Promise.resolve(request(sources[i])).then(
                answer => JSON.parse(JSON.stringify(answer ?? null).replaceAll(doc.uri.toString(), 'URI').replace(/"version":\d+/g, '"version":0')) as unknown,
                (error: unknown) => {
                    if (!overtaken(error)) throw error;
                    return undefined;
                }));
            const building = editorChange(uri, text, ++version);
            for (const source of sources) if (random() < 0.3) source.cancel();
            await building;
            const got = await Promise.all(asked);
            const now = await coldAnswers(text);
            const older = await coldAnswers(before);
            for (const [i, name] of Object.keys(requests).entries()) {
                if (got[i] === undefined) { refused++; continue; }
                answered++;
                const want = (a: typeof now) => (name === 'tokens' ? a.tokens : a[name as 'symbols' | 'folding' | 'lenses']);
                // The current text's answer, or the older text's (asked for, and answered before the edit
                // arrived): one or the other whole, never a mix.
                const same = (a: unknown) => isDeepStrictEqual(a, got[i]);
                expect(same(want(now)) || same(want(older)), `edit ${e}, ${name}: an answer for neither text`).toBe(true);
                if (!same(want(now))) late++;
            }
        }
        expect(answered + refused).toBe(100);
        expect(answered).toBeGreaterThan(20);
        console.log(`overtaken requests: ${answered} answered (${late} for the text they were asked at, before the edit arrived), ${refused} refused`);
    }, 300_000);
});

/** Tokens with their absolute line and character. */
function decode(data: number[]): number[][] {
    const out: number[][] = [];
    let line = 0, char = 0;
    for (let i = 0; i < data.length; i += 5) {
        line += data[i];
        char = data[i] === 0 ? char + data[i + 1] : data[i + 1];
        out.push([line, char, data[i + 2], data[i + 3], data[i + 4]]);
    }
    return out;
}
