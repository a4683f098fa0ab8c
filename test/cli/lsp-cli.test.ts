/**
 * `umpire lsp --stdio`: the language server any LSP editor starts (docs/editors.md), run through
 * bin/umpire.cjs as an installed `umpire` is. It is the extension's server: the same capabilities,
 * and for every example the same problems, at the same places, as `umpire check` prints.
 */
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Diagnostic } from 'vscode-languageserver-protocol/node';
import { ensureServerBundle, LspSession, repoRoot } from '../protocol/lsp-harness.js';

const umpireBin = path.join(repoRoot, 'bin', 'umpire.cjs');
let workspace: string;
let session: LspSession;

beforeAll(async () => {
    ensureServerBundle();
    workspace = fs.mkdtempSync(path.join(os.tmpdir(), 'umpire-lsp-cli-'));
    fs.cpSync(path.join(repoRoot, 'examples'), workspace, { recursive: true });
    session = new LspSession(workspace, { command: [process.execPath, umpireBin, 'lsp', '--stdio'] });
    await session.initialize();
}, 60_000);

afterAll(() => {
    session?.kill();
    if (workspace) fs.rmSync(workspace, { recursive: true, force: true });
});

/** `umpire check`'s line for a problem the server published. */
const asCheckLine = (file: string, d: Diagnostic) =>
    `${file}:${d.range.start.line + 1}:${d.range.start.character + 1} ${['', 'error', 'warning', 'info', 'hint'][d.severity ?? 1]} ${d.code} ${d.message}`;

describe('umpire lsp --stdio', () => {
    it('answers initialize with the extension server\'s capabilities', () => {
        const capabilities = session.initializeResult!.capabilities;
        expect(capabilities.codeLensProvider).toBeTruthy();
        expect(capabilities.hoverProvider).toBeTruthy();
        expect(capabilities.documentFormattingProvider).toBeTruthy();
        expect(capabilities.renameProvider).toBeTruthy();
        expect(capabilities.executeCommandProvider?.commands).toContain('umpire.resolve');
    });

    it('publishes, for every example, the problems umpire check prints', async () => {
        const files = fs.readdirSync(workspace).filter(f => f.endsWith('.battle')).sort();
        expect(files.length).toBeGreaterThan(10);
        const printed = spawnSync(process.execPath, [umpireBin, 'check', ...files], { cwd: workspace, encoding: 'utf8' }).stdout.split('\n').filter(Boolean);
        expect(printed.length).toBeGreaterThan(5);
        for (const file of files) {
            const uri = await session.open(file);
            const published = (await session.diagnosticsFor(uri)).map(d => asCheckLine(file, d)).sort();
            expect(published, file).toEqual(printed.filter(line => line.startsWith(`${file}:`)).sort());
        }
    }, 120_000);

    it('ends with exit code 0 after shutdown and exit', async () => {
        expect(await session.shutdown()).toBe(0);
    });

    it('without a transport, says which to give and exits 2', () => {
        const r = spawnSync(process.execPath, [umpireBin, 'lsp'], { encoding: 'utf8' });
        expect(r.status).toBe(2);
        expect(r.stderr).toContain('--stdio');
    });
});
