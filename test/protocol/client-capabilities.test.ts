/**
 * The server follows what each client announced at initialize (src/language/lsp/client-support.ts),
 * spoken to over stdio as the bundled server the .vsix ships. A client as small as many editors' LSP
 * clients (no code lenses, no documentChanges, no refreshes, no file watching, no showDocument, no
 * Odds view) still resolves an engagement, by a code action, to the very text `umpire resolve --write`
 * writes, and gets the odds as Markdown; one with window/showDocument gets them as a document.
 */
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DidChangeConfigurationNotification, type ClientCapabilities, type CodeAction, type Command } from 'vscode-languageserver-protocol/node';
import { ensureServerBundle, LspSession, repoRoot } from './lsp-harness.js';
import type { OddsText } from '../../src/protocol.js';

/** What a small client announces: text sync, diagnostics, hover and code actions, nothing else. */
const SMALL_CLIENT: ClientCapabilities = {
    workspace: { applyEdit: true, workspaceEdit: { documentChanges: false } },
    textDocument: {
        synchronization: { dynamicRegistration: false },
        publishDiagnostics: {},
        hover: { contentFormat: ['markdown', 'plaintext'] },
        codeAction: { codeActionLiteralSupport: { codeActionKind: { valueSet: ['', 'quickfix', 'source'] } } }
    }
};

const sessions: LspSession[] = [];
let workspace: string;

async function session(capabilities: ClientCapabilities): Promise<LspSession> {
    const s = new LspSession(workspace, { capabilities });
    sessions.push(s);
    await s.initialize();
    return s;
}

function cli(...args: string[]): string {
    return spawnSync(process.execPath, [path.join(repoRoot, 'bin', 'umpire.cjs'), ...args], { cwd: workspace, encoding: 'utf8' }).stdout;
}

const commandOf = (a: CodeAction | Command) => ('command' in a && typeof a.command === 'object' ? a.command : a as Command);

beforeAll(() => {
    ensureServerBundle();
    workspace = fs.mkdtempSync(path.join(os.tmpdir(), 'umpire-clients-'));
    fs.cpSync(path.join(repoRoot, 'examples'), workspace, { recursive: true });
}, 60_000);

afterAll(() => {
    for (const s of sessions) s.kill();
    if (workspace) fs.rmSync(workspace, { recursive: true, force: true });
});

describe('a client without code lenses, documentChanges, refreshes or the Odds view', () => {
    let small: LspSession;
    let uri: string;
    let actions: Array<CodeAction | Command>;

    beforeAll(async () => {
        small = await session(SMALL_CLIENT);
        uri = await small.open('scrud-seed.battle');
        await small.diagnosticsFor(uri);
        const engagement = small.document(uri).getText().split('\n').findIndex(l => l.startsWith('engagement Example'));
        // The cursor inside the engagement, on its first statement.
        actions = (await small.codeActions(uri, engagement + 1, 4)) ?? [];
    }, 60_000);

    it('is offered Resolve, Resolve all and Show odds as code actions at the engagement (no Re-roll: the dice are entered)', () => {
        expect(actions.map(a => a.title)).toEqual(["Resolve 'Example'", 'Resolve all engagements', "Show odds of 'Example'"]);
        expect(actions.map(a => commandOf(a).command)).toEqual(['umpire.resolve', 'umpire.resolveAll', 'umpire.oddsText']);
    });

    it('is offered nothing outside an action', async () => {
        expect(await small.codeActions(uri, 0, 0)).toEqual([]);
    });

    it('gets the odds as Markdown, in a message, with the figures of umpire odds', async () => {
        const show = commandOf(actions.find(a => a.title.startsWith('Show odds'))!);
        const answer = await small.executeCommand(show.command, show.arguments) as OddsText;
        const odds = JSON.parse(cli('odds', '--json', 'scrud-seed.battle')) as { engagements: Array<{ units: Array<{ id: string, probabilities: Record<string, number> }> }> };
        const guard = odds.engagements[0].units.find(u => u.id === 'Attacker.Guard')!;
        const row = answer.markdown.split('\n').find(l => l.startsWith('| Attacker.Guard |'))!;
        expect(row).toContain(`${(100 * guard.probabilities['stand-off']).toFixed(1)}%`);
        expect(answer.markdown).toMatch(/^# Odds: Example \(scrud-seed\.battle\)\n/);
        expect(answer.shown).toBeUndefined();
        expect(small.messages).toContain(answer.markdown);
        expect(small.serverRequests).not.toContain('window/showDocument');
    });

    it('resolves by the Resolve code action: a plain `changes` edit, and the text umpire resolve --write writes', async () => {
        const resolve = commandOf(actions.find(a => a.title.startsWith('Resolve \''))!);
        const result = await small.executeCommand(resolve.command, resolve.arguments) as { applied: boolean };
        expect(result.applied).toBe(true);
        const edit = small.appliedEdits.at(-1)!.edit;
        expect(edit.documentChanges).toBeUndefined();
        expect(Object.keys(edit.changes ?? {})).toEqual([uri]);
        const copy = path.join(workspace, 'written-by-the-cli.battle');
        fs.copyFileSync(path.join(workspace, 'scrud-seed.battle'), copy);
        cli('resolve', '--write', copy);
        expect(small.document(uri).getText()).toBe(fs.readFileSync(copy, 'utf8'));
    });

    it('is sent no refresh when the settings change (it announced no refreshSupport)', async () => {
        await small.connection.sendNotification(DidChangeConfigurationNotification.type, { settings: { umpire: { inlayHints: { enabled: false } } } });
        // A round trip after the notification: the server has handled it when the hover comes back.
        await small.hover(uri, 0, 0);
        expect(small.serverRequests.filter(m => m.endsWith('/refresh'))).toEqual([]);
    });

    it('sees an importer checked again when an imported file changes on disk (the server watches it)', async () => {
        const season = await small.open('season-2.battle');
        expect(await small.diagnosticsFor(season)).toEqual([]);
        small.forgetDiagnostics(season);
        const armies = path.join(workspace, 'armies.battle');
        fs.writeFileSync(armies, fs.readFileSync(armies, 'utf8').replace('unit Grenadiers foot Guard', 'unit Grenzer foot Guard'));
        const after = await small.diagnosticsFor(season, 20_000);
        expect(after.map(d => d.code)).toContain('unknown-reference');
        expect(after.find(d => d.code === 'unknown-reference')?.message).toContain('Grenadiers');
    }, 30_000);
});

describe('clients that announce more', () => {
    it('one with window/showDocument gets the odds as a generated Markdown document', async () => {
        const s = await session({ ...SMALL_CLIENT, window: { showDocument: { support: true } } });
        const uri = await s.open('scrud-ridge.battle');
        await s.diagnosticsFor(uri);
        const answer = await s.executeCommand('umpire.oddsText', [{ uri }]) as OddsText;
        expect(answer.shown).toMatch(/^file:.*\.md$/);
        expect(s.shownDocuments).toEqual([answer.shown]);
        expect(fs.readFileSync(fileURLToPath(answer.shown!), 'utf8')).toBe(answer.markdown);
        expect(answer.markdown).toContain('| unit |');
    });

    it('one with inlay-hint refreshSupport is asked to refresh when the settings change', async () => {
        const s = await session({ ...SMALL_CLIENT, workspace: { ...SMALL_CLIENT.workspace, inlayHint: { refreshSupport: true } } });
        await s.connection.sendNotification(DidChangeConfigurationNotification.type, { settings: { umpire: { inlayHints: { enabled: false } } } });
        await expect.poll(() => s.serverRequests, { timeout: 10_000 }).toContain('workspace/inlayHint/refresh');
    });

    it('one that answers configuration requests is registered for configuration changes only if it announced it takes that registration', async () => {
        const answers = await session({ ...SMALL_CLIENT, workspace: { ...SMALL_CLIENT.workspace, configuration: true } });
        // The server asks for the settings right after it would have registered.
        await expect.poll(() => answers.serverRequests, { timeout: 10_000 }).toContain('workspace/configuration');
        expect(answers.registered).not.toContain('workspace/didChangeConfiguration');
        const registers = await session({ ...SMALL_CLIENT, workspace: { ...SMALL_CLIENT.workspace, configuration: true, didChangeConfiguration: { dynamicRegistration: true } } });
        await expect.poll(() => registers.registered, { timeout: 10_000 }).toContain('workspace/didChangeConfiguration');
    });

    it('the VS Code extension, which runs the Odds view, gets umpire.showOdds in lenses and code actions', async () => {
        const s = await session({ ...SMALL_CLIENT, experimental: { commands: { commands: ['umpire.showOdds'] } }, textDocument: { ...SMALL_CLIENT.textDocument, codeLens: {} } });
        const uri = await s.open('scrud-seed.battle');
        await s.diagnosticsFor(uri);
        const odds = (await s.codeLenses(uri))!.find(l => l.command?.title === 'Odds')!;
        expect(odds.command!.command).toBe('umpire.showOdds');
        const line = s.document(uri).getText().split('\n').findIndex(l => l.startsWith('engagement Example'));
        const actions = (await s.codeActions(uri, line + 1, 4))!;
        expect(actions.map(a => commandOf(a).command)).toContain('umpire.showOdds');
    });
});
