/**
 * No lost text: the editor's resolve edit touches only its own outcome block and is
 * refused on a stale version; `umpire resolve --write` is atomic, and any failure — in writing or in
 * resolving — leaves the file byte for byte as it was, with no temporary file behind.
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import fc from 'fast-check';
import { TextDocument, type LangiumDocument } from 'langium';
import type { ApplyWorkspaceEditParams, TextDocumentEdit, TextEdit } from 'vscode-languageserver';
import { OutcomeCommands } from '../../src/language/lsp/outcome-requests.js';
import { isAction, isOutcome, type Action } from '../../src/language/generated/ast.js';
import { nodeIo, type WriteIo } from '../../src/cli/atomic-write.js';
import { resolveWriteCommand } from '../../src/cli/resolve-write.js';
import { ancientsRuleset } from '../../src/rulesets/ancients/ancients-ruleset.js';
import { build, examples, respacedExample, services } from '../fuzz-support.js';
import { AstUtils } from 'langium';
import { scratchChecker } from '../support/services.js';

const CLEAN = examples().filter(e => !e.name.startsWith('broken'));

/** Resolves one action through the server's command and returns the edits it sent (or why not). */
async function resolveThroughServer(doc: LangiumDocument, action: string, version: number): Promise<{ edits?: TextEdit[], sentVersion?: number | null, reason?: string }> {
    let sent: ApplyWorkspaceEditParams | undefined;
    const commands = new OutcomeCommands(services.shared, {
        applyEdit: async params => { sent = params; return { applied: true }; },
        tell: () => undefined,
        ask: async () => undefined
    }, scratchChecker(), () => 12345);
    const r = await commands.resolve({ uri: doc.uri.toString(), version, action }, false);
    if (!sent) return { reason: r.reason ?? 'nothing sent' };
    const change = sent.edit.documentChanges![0] as TextDocumentEdit;
    return { edits: change.edits as TextEdit[], sentVersion: change.textDocument.version };
}

/** The text the edit may not touch: everything before the action's last statement ends, and from its closing `}` on. */
function untouchable(text: string, action: Action): { head: string, tail: string } {
    const statements = action.statements.map(s => s.$cstNode!.end);
    const open = text.indexOf('{', action.$cstNode!.offset) + 1;
    const headEnd = Math.max(open, ...statements);
    return { head: text.slice(0, headEnd), tail: text.slice(action.$cstNode!.end - 1) };
}

describe('the resolve edit touches only its own outcome block', () => {
    it('for every action of every example, with blanks moved about and CRLF', async () => {
        let edited = 0;
        await fc.assert(fc.asyncProperty(respacedExample(CLEAN), fc.boolean(), fc.nat(), async (input, crlf, pick) => {
            const text = crlf ? input.text.replace(/\r?\n/g, '\r\n') : input.text;
            const doc = await build(text, 'lost-text');
            if ((doc.diagnostics ?? []).some(d => d.severity === 1)) return;
            const actions = AstUtils.streamAst(doc.parseResult.value).filter(isAction).toArray();
            if (actions.length === 0) return; // an order of battle (examples/armies.battle) has no action
            const action = actions[pick % actions.length];
            const sent = await resolveThroughServer(doc, action.name, doc.textDocument.version);
            if (!sent.edits) return; // nothing to write (a diceless action, an odds-only kind): nothing may change
            expect(sent.sentVersion).toBe(doc.textDocument.version);
            edited++;
            const after = TextDocument.applyEdits(doc.textDocument, sent.edits);
            const { head, tail } = untouchable(text, action);
            expect(after.startsWith(head)).toBe(true);
            expect(after.endsWith(tail)).toBe(true);
            // What was inserted is one outcome block, and the file keeps its line endings.
            const inserted = after.slice(head.length, after.length - tail.length);
            expect(inserted.match(/\boutcome\b/g)).toHaveLength(1);
            if (crlf) expect(after.replace(/\r\n/g, '')).not.toMatch(/\n/);
            // The new block is what the action reads back as its outcome.
            const reread = await build(after, 'lost-text-after');
            const again = AstUtils.streamAst(reread.parseResult.value).filter(isAction).find(a => a.name === action.name)!;
            expect(isOutcome(again.outcome)).toBe(true);
        }), { numRuns: 15, seed: 9 });
        expect(edited).toBeGreaterThanOrEqual(5);
    });

    it('is refused when the document changed since the lens was shown (stale version)', async () => {
        const text = CLEAN.find(e => e.name === 'scrud-seed.battle')!.text;
        const doc = await build(text, 'stale');
        const sent = await resolveThroughServer(doc, 'Example', doc.textDocument.version - 1);
        expect(sent.edits).toBeUndefined();
        expect(sent.reason).toMatch(/changed/);
        // The same request at the current version is accepted and names that version.
        expect((await resolveThroughServer(doc, 'Example', doc.textDocument.version)).sentVersion).toBe(doc.textDocument.version);
    });
});

describe('resolve --write leaves the file as it was on any failure', () => {
    let dir: string;
    let file: string;
    const ORIGINAL = fs.readFileSync('examples/campaign.battle', 'utf8').replace(/\n[ \t]*outcome [^{]*\{[^}]*\}/g, '');
    beforeEach(() => {
        dir = fs.mkdtempSync(path.join(os.tmpdir(), 'umpire-lost-'));
        file = path.join(dir, 'campaign.battle');
        fs.writeFileSync(file, ORIGINAL);
    });
    afterEach(() => { vi.restoreAllMocks(); fs.rmSync(dir, { recursive: true, force: true }); });

    const STEPS = ['openSync', 'readSync', 'writeSync', 'fsyncSync', 'closeSync', 'fstatSync', 'statSync', 'realpathSync'] as const;

    for (const step of STEPS) {
        it(`when ${step} fails`, async () => {
            const failing: WriteIo = { ...nodeIo, [step]: () => { throw Object.assign(new Error(`EIO: ${step} failed`), { code: 'EIO' }); } };
            await expect(resolveWriteCommand(file, {}, () => undefined, failing)).rejects.toThrow(/unchanged|EIO/);
            expect(fs.readFileSync(file, 'utf8')).toBe(ORIGINAL);
            expect(fs.readdirSync(dir)).toEqual(['campaign.battle']);
        });
    }

    it('when resolving the last engagement throws, after the first ones were resolved', async () => {
        const plugin = ancientsRuleset;
        const real = plugin.resolve.bind(plugin);
        vi.spyOn(plugin, 'resolve').mockImplementation((model, action, dice) => {
            if (action.node.name === 'Camp') throw new Error('a bug in the engine');
            return real(model, action, dice);
        });
        await expect(resolveWriteCommand(file, {}, () => undefined)).rejects.toThrow(/Camp/);
        expect(fs.readFileSync(file, 'utf8')).toBe(ORIGINAL);
        expect(fs.readdirSync(dir)).toEqual(['campaign.battle']);
    });

    it('can fail: with nothing failing the file is written', async () => {
        await resolveWriteCommand(file, {}, () => undefined);
        expect(fs.readFileSync(file, 'utf8')).not.toBe(ORIGINAL);
        expect(fs.readdirSync(dir)).toEqual(['campaign.battle']);
    });
});
