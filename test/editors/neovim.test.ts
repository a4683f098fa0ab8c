/**
 * A third-party LSP client in the test run: Debian's Neovim 0.7 (`nvim`, installed by .ci/run) drives
 * `umpire lsp --stdio` headless with its built-in client (test/editors/neovim-drive.lua), as an umpire
 * using Neovim would (docs/editors.md). Its diagnostics are `umpire check`'s, line for line; hover,
 * completion, formatting (a round trip), rename, the lenses and Resolve, run from a lens and from the
 * code-action menu, work; what Resolve saves is what `umpire resolve --write` writes, byte for byte.
 * Without nvim this test fails: it is part of what CI checks, not optional.
 */
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureServerBundle, repoRoot } from '../protocol/lsp-harness.js';
import { editorWorkspace, runDriver, type EditorWorkspace } from './editor-workspace.js';

interface Seen {
    diagnostics: Record<string, string[]>;
    messages: string[];
    notifications: string[];
    lenses: Array<{ title: string, command: string, line: number }>;
    hover?: string;
    completion?: string[];
    steps: string[];
    error?: string;
}

let ws: EditorWorkspace | undefined;
let seen: Seen;
let examples: string[];
const umpire = (...args: string[]) => ws!.umpire(...args);
const read = (name: string) => ws!.read(name);

beforeAll(() => {
    ensureServerBundle();
    const nvim = spawnSync('nvim', ['--version'], { encoding: 'utf8' });
    if (nvim.status !== 0) throw new Error('nvim is not installed (Debian: apt-get install neovim; .ci/run installs it)');
    ws = editorWorkspace('umpire-neovim-');
    examples = ws.examples;
    const seed = read('scrud-seed.battle');
    fs.writeFileSync(path.join(ws.dir, 'unindented.battle'), seed.replace(/^[ \t]+/gm, ''));
    for (const copy of ['renamed.battle', 'lensed.battle', 'acted.battle', 'cli-resolved.battle']) fs.writeFileSync(path.join(ws.dir, copy), seed);
    umpire('resolve', '--write', 'cli-resolved.battle');
    seen = runDriver<Seen>(ws, 'nvim', ['--headless', '-u', 'NONE', '-i', 'NONE', '-n', '-c', `luafile ${path.join(repoRoot, 'test', 'editors', 'neovim-drive.lua')}`], 'UMPIRE_NVIM_RESULT').seen;
}, 300_000);

afterAll(() => {
    if (ws) fs.rmSync(ws.dir, { recursive: true, force: true });
});

describe('Neovim 0.7 with umpire lsp --stdio', () => {
    it('ran every step without an error or a warning of its own', () => {
        expect(seen.error).toBeUndefined();
        expect(seen.steps).toEqual(['diagnostics', 'hover and completion', 'formatting', 'rename', 'lenses', 'code action']);
        expect(seen.notifications.filter(n => /not support|error|failed/i.test(n))).toEqual([]);
    });

    it('shows for every example the problems umpire check prints, line for line', () => {
        const printed = umpire('check', ...examples).split('\n').filter(Boolean);
        expect(printed.length).toBeGreaterThan(5);
        for (const file of examples) {
            // The same lines; the server publishes them in the order its checks ran.
            expect([...seen.diagnostics[file]].sort(), file).toEqual(printed.filter(l => l.startsWith(`${file}:`)).sort());
        }
    });

    it('hovers on the engagement with its breakdown, and completes inside it', () => {
        expect(seen.hover).toContain('Example');
        expect(seen.hover).toContain('Defender foot: 3 stand-off, 1 recoil, 2 retire');
        expect(seen.completion).toEqual(expect.arrayContaining(['factor', 'dice']));
    });

    it('formats the file without its indentation back to the example, byte for byte', () => {
        expect(read('unindented.battle')).toBe(read('scrud-seed.battle'));
    });

    it('renames a force at its declaration and at every reference, not in the comments', () => {
        const before = read('scrud-seed.battle');
        const expected = before.split('\n').map(line => (line.startsWith('//') ? line : line.replace(/\bAttacker\b/g, 'Assault'))).join('\n');
        expect(expected.match(/\bAssault\b/g)?.length).toBe(4);
        expect(read('renamed.battle')).toBe(expected);
    });

    it('lists Resolve and Odds above the engagement; the Odds lens answers the odds as Markdown', () => {
        expect(seen.lenses.map(l => `${l.title} ${l.command}`)).toEqual(['Resolve umpire.resolve', 'Odds umpire.oddsText']);
        const odds = seen.messages.find(m => m.startsWith('# Odds'))!;
        expect(odds).toContain('| Attacker.Guard |');
    });

    it('Resolve, run from the lens and from the code-action menu, saves what umpire resolve --write writes', () => {
        expect(read('lensed.battle')).toBe(read('cli-resolved.battle'));
        expect(read('acted.battle')).toBe(read('cli-resolved.battle'));
    });
});
