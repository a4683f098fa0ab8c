/**
 * The campaign in the editor: the `umpire.status` server command, and turns in the outline.
 */
import * as fs from 'node:fs';
import { EmptyFileSystem } from 'langium';
import { parseHelper } from 'langium/test';
import { describe, expect, it } from 'vitest';
import type { DocumentSymbol } from 'vscode-languageserver';
import { createBattleServices } from '../src/language/battle-module.js';
import type { Scenario } from '../src/language/generated/ast.js';

const { shared, Battle } = createBattleServices(EmptyFileSystem);
const parse = parseHelper<Scenario>(Battle);
const EXAMPLE = fs.readFileSync('examples/campaign.battle', 'utf8');

async function status(args: unknown[]): Promise<{ available: boolean, markdown?: string, reason?: string }> {
    return await shared.lsp.ExecuteCommandHandler!.executeCommand('umpire.status', args) as { available: boolean, markdown?: string, reason?: string };
}

describe('umpire.status', () => {
    it('is advertised by the server', () => {
        expect(shared.lsp.ExecuteCommandHandler!.commands).toContain('umpire.status');
    });

    it('returns the markdown table of the open file, at the end or after a turn', async () => {
        const doc = await parse(EXAMPLE, { validation: true });
        const uri = doc.uri.toString();
        const end = await status([{ uri }]);
        expect(end.available).toBe(true);
        expect(end.markdown).toContain('### The Successor campaign — state at the end of the file');
        expect(end.markdown).toContain('| Gauls | Boii | **destroyed** | destroyed (Camp, turn 3) | 1 | taken | destroyed in engagement Camp (turn 3) |');
        const one = await status([{ uri, at: 1 }]);
        expect(one.markdown).toContain('state after turn 1 "The ford"');
        expect(one.markdown).toContain('| Gauls | Boii | ready | — | 0 | — |  |');
    });

    it('says why when it cannot answer', async () => {
        expect(await status([])).toMatchObject({ available: false, reason: expect.stringContaining('needs [{ uri, at? }]') });
        expect(await status([{ uri: 'file:///nowhere.battle' }])).toMatchObject({ available: false, reason: expect.stringContaining('is not open') });
        const doc = await parse(EXAMPLE, { validation: true });
        expect(await status([{ uri: doc.uri.toString(), at: 'Dusk' }])).toEqual({ available: false, reason: "There is no turn 'Dusk' (turns: 1, 2, 3)." });
    });
});

describe('the outline', () => {
    it('shows each turn with its engagements inside', async () => {
        const doc = await parse(EXAMPLE);
        const symbols = await Battle.lsp.DocumentSymbolProvider!.getSymbols(doc, { textDocument: { uri: doc.uri.toString() } }) as DocumentSymbol[];
        const all = (list: DocumentSymbol[]): DocumentSymbol[] => list.flatMap(s => [s, ...all(s.children ?? [])]);
        const turns = all(symbols).filter(s => s.detail && ['The ford', 'The pass', 'The camp'].includes(s.detail));
        expect(turns.map(t => [t.detail, (t.children ?? []).map(c => c.name)])).toEqual([
            ['The ford', ['Ford']], ['The pass', ['Pass']], ['The camp', ['Camp']]
        ]);
    });
});
