/**
 * VS Code asks for the whole file's semantic tokens, outline, folding ranges and code lenses at once
 * after every edit (and for the inlay hints on screen). Langium answers the outline and folding as soon as the tree is parsed, semantic
 * tokens once it is linked: in the middle of the edit's build, so that the umpire's squiggles waited
 * for them. They now wait for the edit's diagnostics: in a big file, with the four sent
 * right behind each edit, the diagnostics of that edit must reach the client before any of the four
 * answers. Order, not milliseconds: the server writes both on one stream.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
    CodeLensRequest, DocumentSymbolRequest, FoldingRangeRequest, InlayHintRequest, SemanticTokensRequest
} from 'vscode-languageserver-protocol/node';
import { type LspSession, startScratchSession, stopScratchSession } from './lsp-harness.js';
// @ts-expect-error: a plain ES module of the benchmarks, without types
import { campaign } from '../../scripts/bench-files.mjs';

let workspace: string;
let session: LspSession;

beforeAll(async () => {
    ({ workspace, session } = await startScratchSession('umpire-order-', workspace => {
        // Big enough that a whole-file answer made cold takes a while (about 10,000 lines).
        fs.writeFileSync(path.join(workspace, 'season.battle'), campaign(10000) as string);
    }));
}, 60_000);

afterAll(() => stopScratchSession(workspace, session));

describe('the editor\'s whole-file requests after an edit', () => {
    it('are answered after the edit\'s diagnostics are published, at the open and after each edit', async () => {
        const uri = await session.open('season.battle');
        const requests = [
            ['semantic tokens', () => session.connection.sendRequest(SemanticTokensRequest.type, { textDocument: { uri } })],
            ['outline', () => session.connection.sendRequest(DocumentSymbolRequest.type, { textDocument: { uri } })],
            ['folding', () => session.connection.sendRequest(FoldingRangeRequest.type, { textDocument: { uri } })],
            ['code lenses', () => session.connection.sendRequest(CodeLensRequest.type, { textDocument: { uri } })],
            // Not whole-file, but sent at every keystroke and resolving the actions on screen.
            ['inlay hints', () => session.connection.sendRequest(InlayHintRequest.type, { textDocument: { uri }, range: { start: { line: 4000, character: 0 }, end: { line: 4060, character: 0 } } })]
        ] as const;
        const early: string[] = [];
        /** Sends the four at once for the document's current version; each notes whether that version's diagnostics had come before it. */
        const askAll = () => {
            const version = session.document(uri).version;
            return Promise.all(requests.map(async ([name, send]) => {
                const answer = await send();
                if (session.publishedVersion(uri) !== version) early.push(`${name} at version ${version}`);
                return answer;
            }));
        };
        await askAll();
        let text = session.document(uri).getText();
        const lines = text.split('\n');
        for (let e = 0; e < 6; e++) {
            // A character typed at the start of a line spread over the file, then the four at once.
            const line = Math.floor(lines.length * (0.1 + 0.15 * e));
            const at = text.split('\n').slice(0, line).join('\n').length + 1;
            text = text.slice(0, at) + (e % 2 ? ' ' : '\n') + text.slice(at);
            await session.change(uri, text);
            const answers = await askAll();
            expect(answers.every(a => a !== null && a !== undefined)).toBe(true);
        }
        expect(early).toEqual([]);
        await session.diagnosticsFor(uri);
    }, 120_000);
});
