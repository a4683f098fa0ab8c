/**
 * The campaign in the editor: the `umpire.status` server command, and turns in the outline.
 */
import * as fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { DocumentSymbol } from 'vscode-languageserver';
import { parse, services as allServices } from '../../support/services.js';

const { shared, Battle } = allServices;
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

describe('the hover on a unit', () => {
    async function hoverAt(text: string, line: number, needle: string): Promise<string> {
        const doc = await parse(text, { validation: true });
        const lines = text.split('\n');
        const character = lines[line].indexOf(needle) + needle.length - 2;
        const hover = await Battle.lsp.HoverProvider!.getHoverContent(doc, { textDocument: { uri: doc.uri.toString() }, position: { line, character } });
        return (hover?.contents as { value: string } | undefined)?.value ?? '';
    }

    it('shows the state each engagement sees: fresh at the ford, the ford\'s token and test at the pass', async () => {
        const lines = EXAMPLE.split('\n');
        const inside = (name: string) => lines.findIndex((l, i) => l.includes('Successors.Thureophoroi') && i > lines.findIndex(x => x.includes(`engagement ${name} {`)));
        const ford = await hoverAt(EXAMPLE, inside('Ford'), 'Successors.Thureophoroi');
        expect(ford).toContain('Campaign state before **Ford**: **ready**');
        expect(ford).toContain('damage tokens 0 · no break test yet (+1)');
        const pass = await hoverAt(EXAMPLE, inside('Pass'), 'Successors.Thureophoroi');
        expect(pass).toContain('Campaign state before **Pass**: **ready**');
        expect(pass).toContain('last result holds (Ford, turn 1) · damage tokens 1 · has made a break test');
    });

    it('shows a destroyed unit on its declaration (the end of the file)', async () => {
        const line = EXAMPLE.split('\n').findIndex(l => l.includes('unit Boii'));
        const md = await hoverAt(EXAMPLE, line, 'unit Boii');
        expect(md).toContain('Campaign state at the end of the file: **destroyed** — destroyed in engagement Camp (turn 3)');
    });
});
