/**
 * Re-roll through the shipped language server, on an engagement with its own `seed` line: the one
 * edit rewrites that line to the new seed and writes the outcome with its re-roll count, so the new
 * outcome is current at once — `umpire check` finds nothing stale and Resolve all changes nothing —
 * and every re-roll shows in the record, the hover, the report and the campaign state.
 */
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MarkupContent } from 'vscode-languageserver-protocol/node';
import { ensureServerBundle, LspSession, repoRoot, type ResolveAllResult, type ResolveCommandResult } from './lsp-harness.js';

let workspace: string;
let session: LspSession;
let uri: string;
const file = () => path.join(workspace, 'reroll.battle');

beforeAll(async () => {
    ensureServerBundle();
    workspace = fs.mkdtempSync(path.join(os.tmpdir(), 'umpire-reroll-'));
    const example = fs.readFileSync(path.join(repoRoot, 'examples', 'scrud-seed.battle'), 'utf8');
    // The worked example with its table dice replaced by the engagement's own seed.
    fs.writeFileSync(file(), example.replace(/^\s*dice .*\n/gm, '').replace('Attacker attacks Defender', 'Attacker attacks Defender\n  seed 6'));
    session = new LspSession(workspace);
    await session.initialize();
    uri = await session.open('reroll.battle');
    expect(await session.diagnosticsFor(uri)).toEqual([]);
}, 60000);

afterAll(() => {
    session?.kill();
    if (workspace) fs.rmSync(workspace, { recursive: true, force: true });
});

async function lens(title: string) {
    const found = (await session.codeLenses(uri))!.find(l => l.command?.title === title);
    expect(found, title).toBeDefined();
    return found!.command!;
}

async function run(title: string): Promise<ResolveCommandResult> {
    const command = await lens(title);
    return await session.executeCommand(command.command, command.arguments) as ResolveCommandResult;
}

function cli(...args: string[]) {
    fs.writeFileSync(file(), session.document(uri).getText());
    const r = spawnSync(process.execPath, [path.join(repoRoot, 'bin', 'umpire.cjs'), ...args], { encoding: 'utf8' });
    return { code: r.status, out: r.stdout, err: r.stderr };
}

describe('Re-roll on an engagement with its own seed line', () => {
    it('Resolve writes the seed\'s outcome, with no re-roll recorded', async () => {
        const result = await run('Resolve');
        expect(result).toEqual(expect.objectContaining({ applied: true, seed: 6 }));
        const text = session.document(uri).getText();
        expect(text).toMatch(/\n {2}seed 6\n/);
        expect(text).toMatch(/\n {2}outcome seed 6 check "[0-9a-f]{8}" \{\n/);
        expect(await session.diagnosticsFor(uri)).toEqual([]);
    });

    it('rewrites the seed line to the new seed in the same edit, and records the re-roll', async () => {
        const edits = session.appliedEdits.length;
        const before = session.document(uri).getText();
        const result = await run('Re-roll');
        expect(result.applied).toBe(true);
        expect(result.seed).not.toBe(6);
        // One edit, one change of the document: an undo step takes back both the seed and the outcome.
        expect(session.appliedEdits.length).toBe(edits + 1);
        const changes = session.appliedEdits[edits].edit.documentChanges!;
        expect(changes).toHaveLength(1);
        expect((changes[0] as { edits: unknown[] }).edits).toHaveLength(1);
        const after = session.document(uri).getText();
        expect(after).toContain(`\n  seed ${result.seed}\n`);
        expect(after).not.toMatch(/\n {2}seed 6\n/);
        expect(after).toMatch(new RegExp(`\\n {2}outcome seed ${result.seed} reroll 1 check "[0-9a-f]{8}" \\{\\n`));
        // Nothing else changed: the seed line and the outcome block put back give the text before.
        const restored = after.replace(`\n  seed ${result.seed}\n`, '\n  seed 6\n')
            .replace(/ {2}outcome seed [0-9]+ reroll 1 check "[0-9a-f]{8}" \{\n(?: {4}.*\n)+ {2}\}\n/, '');
        expect(restored).toBe(before.replace(/ {2}outcome seed 6 check "[0-9a-f]{8}" \{\n(?: {4}.*\n)+ {2}\}\n/, ''));
        expect(await session.diagnosticsFor(uri)).toEqual([]);
    });

    it('leaves nothing stale for umpire check, and Resolve all changes nothing', async () => {
        const checked = cli('check', file());
        expect(checked.err + checked.out).not.toMatch(/stale/i);
        expect(checked.code).toBe(0);
        const text = session.document(uri).getText();
        const command = await lens('Resolve');
        const all = await session.executeCommand('umpire.resolveAll', [{ uri, version: command.arguments![0].version }]) as ResolveAllResult & { changed?: boolean };
        expect(all.applied).toBe(true);
        expect(all.changed).toBe(false);
        expect(session.document(uri).getText()).toBe(text);
        // Nor does the CLI's --write.
        const written = cli('resolve', file(), '--write');
        expect(written.code).toBe(0);
        expect(written.out).toContain('nothing changed');
        expect(fs.readFileSync(file(), 'utf8')).toBe(text);
    });

    it('counts every re-roll, and shows the count in the hover, the report and the campaign state', async () => {
        const second = await run('Re-roll');
        const text = session.document(uri).getText();
        expect(text).toMatch(new RegExp(`\\n {2}outcome seed ${second.seed} reroll 2 check`));
        expect(text).toContain(`\n  seed ${second.seed}\n`);
        expect(await session.diagnosticsFor(uri)).toEqual([]);
        const line = text.split('\n').findIndex(l => l.startsWith('engagement'));
        const hover = await session.hover(uri, line, 2);
        expect((hover!.contents as MarkupContent).value).toContain(`seed ${second.seed}, re-rolled twice`);
        const report = cli('report', file());
        expect(report.code).toBe(0);
        expect(report.out).toContain(`seed ${second.seed}, re-rolled twice`);
        const status = cli('status', file());
        expect(status.code).toBe(0);
        expect(status.out).toContain('re-rolled twice');
    });
});
