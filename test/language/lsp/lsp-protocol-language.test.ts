/**
 * The language features as the shipped server (out/language/main.cjs) offers them over stdio:
 * advertised capabilities, then formatting, completion, quick fixes, rename, outline and semantic
 * tokens answered for a real document.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CodeAction, CompletionList, DocumentSymbol, SemanticTokens, TextEdit, WorkspaceEdit } from 'vscode-languageserver-protocol/node';
import { type LspSession, repoRoot, startScratchSession, stopScratchSession } from '../../protocol/lsp-harness.js';

let workspace: string;
let session: LspSession;

beforeAll(async () => {
    ({ workspace, session } = await startScratchSession('umpire-language-', workspace => {
        fs.copyFileSync(path.join(repoRoot, 'examples', 'scrud-seed.battle'), path.join(workspace, 'scrud-seed.battle'));
    }));
}, 60000);

afterAll(() => stopScratchSession(workspace, session));

describe('language features over the protocol', () => {
    it('advertises them', () => {
        const caps = session.initializeResult!.capabilities;
        expect(caps.completionProvider?.triggerCharacters).toContain('.');
        for (const cap of ['documentFormattingProvider', 'codeActionProvider', 'renameProvider', 'documentSymbolProvider',
            'foldingRangeProvider', 'semanticTokensProvider', 'definitionProvider', 'referencesProvider'] as const) {
            expect(caps[cap], cap).toBeTruthy();
        }
    });

    it('answers for the worked example', async () => {
        const uri = await session.open('scrud-seed.battle');
        await session.diagnosticsFor(uri);
        const textDocument = { uri };
        const options = { tabSize: 2, insertSpaces: true };
        // The example is already in the canonical layout.
        expect(await session.connection.sendRequest('textDocument/formatting', { textDocument, options }) as TextEdit[]).toEqual([]);
        // After `rules ` on line 5: the rule sets.
        const completion = await session.connection.sendRequest('textDocument/completion', { textDocument, position: { line: 4, character: 6 } }) as CompletionList;
        expect(completion.items.map(i => i.label)).toEqual(expect.arrayContaining(['scrud', 'ancients', 'loose-files']));
        const symbols = await session.connection.sendRequest('textDocument/documentSymbol', { textDocument }) as DocumentSymbol[];
        expect(symbols[0].name).toBe('SCRUD worked example');
        expect(symbols[0].children!.map(s => s.name)).toEqual(['Elite', 'Veteran', 'Experienced', 'Raw', 'Attacker', 'Defender', 'Example']);
        const tokens = await session.connection.sendRequest('textDocument/semanticTokens/full', { textDocument }) as SemanticTokens;
        expect(tokens.data.length).toBeGreaterThan(0);
        const edit = await session.connection.sendRequest('textDocument/rename', { textDocument, position: { line: 11, character: 7 }, newName: 'Blue' }) as WorkspaceEdit;
        // `force Attacker` and the `Attacker` of the sides line and of both Attacker dice lines.
        expect(Object.values(edit.changes ?? {}).flat()).toHaveLength(4);
        // A quick fix on a real diagnostic: a 9 on a d6 becomes a 6, in an edit for this version.
        const text = session.document(uri).getText().replace('dice Attacker horse 1 4', 'dice Attacker horse 1 9');
        await session.change(uri, text);
        const diagnostic = (await session.diagnosticsFor(uri)).find(d => d.code === 'die-face')!;
        expect(diagnostic).toBeDefined();
        const actions = await session.connection.sendRequest('textDocument/codeAction', { textDocument, range: diagnostic.range, context: { diagnostics: [diagnostic], only: ['quickfix'] } }) as CodeAction[];
        expect(actions.map(a => a.title)).toEqual(['Change 9 to 6, the nearest face']);
        const change = actions[0].edit!.documentChanges![0] as { textDocument: { version: number }, edits: TextEdit[] };
        expect(change.textDocument.version).toBe(session.document(uri).version);
        expect(change.edits).toEqual([{ range: diagnostic.range, newText: '6' }]);
    });
});
