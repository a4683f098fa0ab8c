/**
 * What the language server answers in Node (out/language/main.cjs over stdio, test/protocol/lsp-harness.ts)
 * for an example: its inlay hints, semantic tokens, folding ranges and outline. The browser tests compare
 * what the editor in the page draws with these, so that a hint or a colour the worker failed to give is
 * noticed, not only a request that failed outright.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import {
    DocumentSymbolRequest, FoldingRangeRequest, InlayHintRequest, SemanticTokensRequest, type DocumentSymbol, type InlayHint
} from 'vscode-languageserver-protocol/node';
import { LspSession, ensureServerBundle } from '../protocol/lsp-harness.js';
import type { DrawnLine } from './workbench.js';

export interface ExpectedHint {
    readonly line: number;
    readonly character: number;
    readonly label: string;
}

export interface ExpectedToken {
    readonly line: number;
    readonly character: number;
    readonly text: string;
    /** The legend's name of the token's type (namespace, variable, type…). */
    readonly type: string;
}

export interface ServerAnswers {
    readonly lines: string[];
    readonly hints: ExpectedHint[];
    readonly tokens: ExpectedToken[];
    /** The first line (0-based) of each folding range. */
    readonly foldStarts: number[];
    /** The outline's names: each top-level symbol and its children. */
    readonly symbols: string[];
}

function labelOf(hint: InlayHint): string {
    return typeof hint.label === 'string' ? hint.label : hint.label.map(part => part.value).join('');
}

/** The server's answers for `file` (a path relative to `folder`), as it would give them to an editor. */
export async function serverAnswers(folder: string, file: string): Promise<ServerAnswers> {
    ensureServerBundle();
    const session = new LspSession(folder);
    try {
        const init = await session.initialize();
        const legend = init.capabilities.semanticTokensProvider?.legend;
        if (!legend) throw new Error('the server announces no semantic tokens legend');
        const uri = await session.open(file);
        await session.diagnosticsFor(uri);
        const lines = fs.readFileSync(path.join(folder, file), 'utf8').split('\n');
        const whole = { start: { line: 0, character: 0 }, end: { line: lines.length, character: 0 } };
        const textDocument = { uri };
        const hints = await session.answerWithin('inlay hints', session.connection.sendRequest(InlayHintRequest.type, { textDocument, range: whole })) ?? [];
        const tokens = await session.answerWithin('semantic tokens', session.connection.sendRequest(SemanticTokensRequest.type, { textDocument }));
        const folds = await session.answerWithin('folding ranges', session.connection.sendRequest(FoldingRangeRequest.type, { textDocument })) ?? [];
        const symbols = await session.answerWithin('document symbols', session.connection.sendRequest(DocumentSymbolRequest.type, { textDocument })) ?? [];
        return {
            lines,
            hints: hints.map(h => ({ line: h.position.line, character: h.position.character, label: labelOf(h) })),
            tokens: decodeTokens(tokens?.data ?? [], legend.tokenTypes, lines),
            foldStarts: [...new Set(folds.map(f => f.startLine))].sort((a, b) => a - b),
            symbols: (symbols as DocumentSymbol[]).flatMap(s => [s.name, ...(s.children ?? []).map(c => c.name)])
        };
    } finally {
        await session.shutdown().catch(() => undefined);
    }
}

/** LSP's relative encoding (5 numbers a token) read back into positions, texts and type names. */
function decodeTokens(data: number[], types: string[], lines: string[]): ExpectedToken[] {
    const tokens: ExpectedToken[] = [];
    let line = 0;
    let character = 0;
    for (let i = 0; i + 4 < data.length; i += 5) {
        line += data[i];
        character = data[i] === 0 ? character + data[i + 1] : data[i + 1];
        tokens.push({ line, character, text: lines[line].slice(character, character + data[i + 2]), type: types[data[i + 3]] });
    }
    return tokens;
}

/** A line's text without any white space (spaces, Monaco's U+00A0, the hair spaces that pad a hint). */
function squeezed(text: string): string {
    return text.replace(/[\s\u00a0\u200a\u200b]+/g, '');
}

/**
 * The hints the editor does not draw: on each line (`rendered[i]` is line i as drawn, hints and all),
 * each hint's label, in order, as far as the editor shows them. VS Code and Monaco draw at most
 * `maximumLength` characters of hints a line (`editor.inlayHints.maximumLength`, 43 by default):
 * the hint that crosses it is cut short with "…" and the ones after it are not drawn.
 */
export function missingHints(rendered: readonly string[], hints: readonly ExpectedHint[], maximumLength = 43): string[] {
    const missing: string[] = [];
    const byLine = new Map<number, ExpectedHint[]>();
    for (const hint of hints) byLine.set(hint.line, [...byLine.get(hint.line) ?? [], hint]);
    for (const [line, onLine] of byLine) {
        const drawn = squeezed(rendered[line] ?? '');
        let from = 0;
        let used = 0;
        for (const hint of [...onLine].sort((a, b) => a.character - b.character)) {
            if (maximumLength > 0 && used > maximumLength) break;
            used += hint.label.length;
            const over = maximumLength > 0 ? used - maximumLength : 0;
            const shown = squeezed(over > 0 ? hint.label.slice(0, -over) : hint.label);
            const at = drawn.indexOf(shown, from);
            if (at < 0) missing.push(`line ${line + 1}: "${hint.label}" (drawn: "${rendered[line] ?? ''}")`);
            else from = at + shown.length;
        }
    }
    return missing;
}

/**
 * The tokens the editor does not draw in their type's colour: on the token's line (`drawn[i]` is
 * line i), the token's text with every character in `colourOf(type)` (a computed CSS colour; the
 * editor may split one token over several runs). Types `colourOf` gives nothing for are not looked at.
 */
export function uncolouredTokens(drawn: readonly DrawnLine[], tokens: readonly ExpectedToken[],
    colourOf: (type: string) => string | undefined): string[] {
    const missing: string[] = [];
    for (const token of tokens) {
        const colour = colourOf(token.type);
        if (colour === undefined) continue;
        const chars = (drawn[token.line]?.spans ?? []).flatMap(span => [...span.text].map(ch => ({ ch, color: span.color })));
        const text = chars.map(c => c.ch).join('');
        let found = false;
        for (let at = text.indexOf(token.text); at >= 0 && !found; at = text.indexOf(token.text, at + 1)) {
            found = chars.slice(at, at + token.text.length).every(c => c.color === colour);
        }
        if (!found) {
            const at = text.indexOf(token.text);
            const seen = at < 0 ? 'not drawn' : chars.slice(at, at + token.text.length).map(c => `${c.ch} ${c.color}`).join(', ');
            missing.push(`line ${token.line + 1}: ${token.type} "${token.text}" not all in ${colour} (${seen})`);
        }
    }
    return missing;
}
