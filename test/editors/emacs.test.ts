/**
 * Emacs with Eglot in the test run: Debian's Emacs 28 and elpa-eglot 1.9 (installed by .ci/run) drive
 * `umpire lsp --stdio` in batch (test/editors/emacs-drive.el), set up as docs/editors.md says. Its
 * diagnostics are `umpire check`'s, line for line; Eglot shows no code lenses, so the engagement is
 * resolved from the code-action menu, and what it saves is what `umpire resolve --write` writes, byte
 * for byte; "Show odds" answers the odds as Markdown, Eglot having no Odds view.
 * Without Emacs this test is skipped on a developer's machine, and fails in CI, where it must run.
 */
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureServerBundle, repoRoot } from '../protocol/lsp-harness.js';
import { editorWorkspace, runDriver, type EditorWorkspace } from './editor-workspace.js';

interface Seen {
    steps: string[];
    diagnostics: Record<string, string[]>;
    messages: string[];
    odds?: string;
    error?: string;
}

const emacs = spawnSync('emacs', ['--version'], { encoding: 'utf8' });
const hasEmacs = emacs.status === 0;
if (!hasEmacs && process.env.CI) {
    throw new Error('emacs is not installed, and CI must run this test (Debian: apt-get install emacs-nox elpa-eglot; .ci/run installs them)');
}

let ws: EditorWorkspace | undefined;
let seen: Seen;
let examples: string[];
const umpire = (...args: string[]) => ws!.umpire(...args);
const read = (name: string) => ws!.read(name);

beforeAll(() => {
    if (!hasEmacs) return;
    ensureServerBundle();
    ws = editorWorkspace('umpire-emacs-');
    examples = ws.examples;
    for (const copy of ['acted.battle', 'cli-resolved.battle']) fs.copyFileSync(path.join(ws.dir, 'scrud-seed.battle'), path.join(ws.dir, copy));
    umpire('resolve', '--write', 'cli-resolved.battle');
    // Not -Q: Debian's site start-up is what puts elpa-eglot on the load path, as for any Debian user.
    const { seen: got, run } = runDriver<Seen>(ws, 'emacs', ['--batch', '-l', path.join(repoRoot, 'test', 'editors', 'emacs-drive.el')], 'UMPIRE_EMACS_RESULT');
    seen = got;
    // Eglot's own warnings (an unsupported registration, a failed request) go to the output.
    seen.messages = [...seen.messages, ...`${run.stderr}\n${run.stdout}`.split('\n').filter(l => /warning|error|fail/i.test(l) && !/^Loading /.test(l))];
}, 300_000);

afterAll(() => {
    if (ws) fs.rmSync(ws.dir, { recursive: true, force: true });
});

describe.skipIf(!hasEmacs)('Emacs 28 with Eglot and umpire lsp --stdio', () => {
    it('ran every step, with no error and no warning from Eglot', () => {
        expect(seen.error).toBeUndefined();
        expect(seen.steps).toEqual(['diagnostics', 'resolve', 'odds']);
        expect(seen.messages.filter(m => /warning|error|fail|not support/i.test(m))).toEqual([]);
    });

    it('shows for every example the problems umpire check prints, line for line', () => {
        const printed = umpire('check', ...examples).split('\n').filter(Boolean);
        expect(printed.length).toBeGreaterThan(5);
        for (const file of examples) {
            expect([...seen.diagnostics[file]].sort(), file).toEqual(printed.filter(l => l.startsWith(`${file}:`)).sort());
        }
    });

    it('the code action Resolve saves what umpire resolve --write writes, byte for byte', () => {
        expect(read('acted.battle')).toContain('outcome entered');
        expect(read('acted.battle')).toBe(read('cli-resolved.battle'));
    });

    it('the code action Show odds answers the odds as Markdown, with the figures of umpire odds', () => {
        const odds = JSON.parse(umpire('odds', '--json', 'scrud-seed.battle')) as { engagements: Array<{ units: Array<{ id: string }> }> };
        expect(seen.odds).toMatch(/^# Odds: Example/);
        for (const unit of odds.engagements[0].units) expect(seen.odds).toContain(`| ${unit.id} |`);
    });
});
