/**
 * Completion parses the text since the last whole top-level element before the cursor, not since the
 * file's start (src/language/lsp/completion.ts). Its answer must be the one the whole text
 * gives: compared at every token's start and end, and inside every word, of examples with and without
 * syntax errors, turns and imports, and of texts cut short at an element and mid-line.
 */
import * as fs from 'node:fs';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { CstUtils, type LangiumDocument, type TextDocument } from 'langium';
import { DefaultCompletionProvider, type LangiumServices, type NextFeature } from 'langium/lsp';
import type { CompletionItem } from 'vscode-languageserver';
import { BattleCompletionProvider } from '../../../src/language/lsp/completion.js';
import { battle, parse } from '../../support/services.js';
// @ts-expect-error: a plain ES module of the benchmarks, without types
import { campaign, errorFile } from '../../../scripts/bench-files.mjs';

/** Langium's own way of reading the text before the cursor, untouched by BattleCompletionProvider. */
const langium = DefaultCompletionProvider.prototype as unknown as {
    findFeaturesAt(document: TextDocument, offset: number): NextFeature[];
    backtrackToAnyToken(text: string, offset: number): unknown;
};

/** The provider as Langium has it: every request lexes the whole text and parses all of it before the cursor. */
class WholeTextCompletion extends BattleCompletionProvider {
    protected override findFeaturesAt(document: TextDocument, offset: number): NextFeature[] {
        return langium.findFeaturesAt.call(this, document, offset);
    }

    protected override backtrackToAnyToken(text: string, offset: number): ReturnType<BattleCompletionProvider['backtrackToAnyToken']> {
        return langium.backtrackToAnyToken.call(this, text, offset) as ReturnType<BattleCompletionProvider['backtrackToAnyToken']>;
    }
}

const sliced = battle.lsp.CompletionProvider as BattleCompletionProvider;
const whole = new WholeTextCompletion(battle as LangiumServices);

const example = (name: string) => fs.readFileSync(new URL(`../../../examples/${name}.battle`, import.meta.url), 'utf8');

/** What a client sees of an item (the text edit places it; sortText orders it). */
function shown(items: CompletionItem[] | undefined): string[] {
    return (items ?? []).map(i => JSON.stringify([i.label, i.kind, i.detail, i.sortText, i.textEdit])).sort();
}

/** Every token's start and end, and one place inside each word longer than one character. */
function placesIn(document: LangiumDocument): number[] {
    const places = new Set<number>();
    for (const node of CstUtils.streamCst(document.parseResult.value.$cstNode!)) {
        if (node.hidden || !('tokenType' in node)) continue;
        places.add(node.offset);
        places.add(node.end);
        if (node.length > 1) places.add(node.offset + Math.floor(node.length / 2));
    }
    return [...places].sort((a, b) => a - b);
}

async function compareAt(document: LangiumDocument, offsets: number[]): Promise<number> {
    let compared = 0;
    for (const offset of offsets) {
        const position = document.textDocument.positionAt(offset);
        const params = { textDocument: { uri: document.uri.toString() }, position };
        const mine = await sliced.getCompletion(document, params);
        const theirs = await whole.getCompletion(document, params);
        expect(shown(mine?.items), `at ${position.line + 1}:${position.character + 1}`).toEqual(shown(theirs?.items));
        compared++;
    }
    return compared;
}

afterEach(() => vi.restoreAllMocks());

describe('completion parses from the element before the cursor', () => {
    for (const name of ['scrud-ridge', 'campaign', 'cowpens', 'loose-files-turn', 'ancients-flank', 'house-rules-scrud', 'season-1', 'broken-campaign', 'broken-loose-files']) {
        it(`offers what the whole text offers, everywhere in ${name}`, async () => {
            const document = await parse(example(name));
            expect(await compareAt(document, placesIn(document))).toBeGreaterThan(50);
        }, 120_000);
    }

    it('offers what the whole text offers in texts cut short, at an element and mid-line', async () => {
        const text = campaign(2000) as string;
        const after = (word: string, fraction: number) => text.indexOf(word, Math.floor(text.length * fraction));
        const cuts = [after('engagement', 0.2), after('\n', 0.35) - 3, after('seed', 0.5) + 2, after('attacks', 0.65) + 3, after('unit', 0.8) + 6, text.length - 40];
        expect(cuts.every(cut => cut > 1000)).toBe(true);
        for (const cut of cuts) {
            const document = await parse(text.slice(0, cut));
            const places = placesIn(document);
            await compareAt(document, places.slice(-25));
        }
    }, 120_000);

    it('offers what the whole text offers in a file with syntax errors and unknown names all through it', async () => {
        const document = await parse(errorFile(1500, 300) as string);
        expect(document.parseResult.parserErrors.length).toBeGreaterThan(20);
        const places = placesIn(document);
        // Every 37th place, and every place of two stretches, one of them the file's end.
        const picked = [...places.filter((_, i) => i % 37 === 0), ...places.slice(places.length / 2, places.length / 2 + 60), ...places.slice(-60)];
        expect(await compareAt(document, picked)).toBeGreaterThan(200);
    }, 240_000);

    it('parses from near the cursor, not from the file\'s start, when syntax errors come far before it', async () => {
        const document = await parse(errorFile(3000, 600, ['syntax']) as string);
        const text = document.textDocument.getText();
        expect(document.parseResult.parserErrors.length).toBeGreaterThan(50);
        const parser = battle.parser.CompletionParser;
        const parsed: number[] = [];
        const original = parser.parse.bind(parser);
        vi.spyOn(parser, 'parse').mockImplementation(input => { parsed.push(input.length); return original(input); });
        const offset = text.lastIndexOf('attacks');
        const params = { textDocument: { uri: document.uri.toString() }, position: document.textDocument.positionAt(offset) };
        const mine = await sliced.getCompletion(document, params);
        expect(parsed.length).toBeGreaterThan(0);
        expect(Math.max(...parsed)).toBeLessThan(offset / 2);
        vi.restoreAllMocks();
        expect(shown(mine?.items)).toEqual(shown((await whole.getCompletion(document, params))?.items));
    });

    it('lexes and parses less than the text before the cursor, far down a clean file', async () => {
        const document = await parse(campaign(300) as string);
        const parser = battle.parser.CompletionParser;
        const parsed: number[] = [];
        const original = parser.parse.bind(parser);
        vi.spyOn(parser, 'parse').mockImplementation(text => { parsed.push(text.length); return original(text); });
        const lexer = battle.parser.Lexer;
        const lexed: number[] = [];
        const tokenize = lexer.tokenize.bind(lexer);
        vi.spyOn(lexer, 'tokenize').mockImplementation((text, options) => { lexed.push(text.length); return tokenize(text, options); });
        const offset = document.textDocument.getText().lastIndexOf('attacks');
        await sliced.getCompletion(document, { textDocument: { uri: document.uri.toString() }, position: document.textDocument.positionAt(offset) });
        expect(parsed.length).toBeGreaterThan(0);
        expect(Math.max(...parsed)).toBeLessThan(offset / 2);
        expect(lexed.length).toBeGreaterThan(0);
        expect(Math.max(...lexed)).toBeLessThan(offset / 2);
    });
});
