/**
 * The shipped extension in the real editor: umpire.vsix installed into code-server 4.100.3
 * (VS Code 1.100.3), driven in Debian's Chromium with playwright-core. Run by `npm run test:e2e`
 * (scripts/e2e/e2e-run.mjs installs code-server, builds and packages, then runs this file).
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as workbench from './workbench.js';
import { CodeServerSession, outputDir, repoRoot, waitFor } from './workbench.js';

// The worked example's result, as the SCRUD seed (docs/rules/scrud.md) states it.
const SEED_SUMMARY = 'Defender foot: 3 stand-off, 1 recoil, 2 retire · Attacker horse: 1 recoil, 1 retire';
const GUARD_LINE = 'Attacker.Guard: stand-off, die 4, mod +2, adjusted 6 vs Defender.Grenz#1';

const session = new CodeServerSession({ name: 'editor', prepare: workspace => {
    // The examples that are broken on purpose stay out: the Problems panel is to show the fixture's problems only.
    fs.cpSync(path.join(repoRoot, 'examples'), workspace, { recursive: true, filter: src => !path.basename(src).startsWith('broken') });
    fs.copyFileSync(path.join(repoRoot, 'test', 'fixtures', 'protocol', 'broken.battle'), path.join(workspace, 'broken.battle'));
} });
let page: Page;
let workspace: string;

beforeAll(async () => {
    page = await session.start();
    workspace = session.workspace;
}, 300000);

afterAll(() => session.stop(), 60000);

const openFromExplorer = (name: string) => workbench.openFromExplorer(page, name);
const editorText = () => workbench.editorText(page);
const lens = (title: string) => workbench.lens(page, title);
const screenshot = (name: string) => workbench.screenshot(page, outputDir, name);

/** The "Start-up:" lines the extension wrote to its "Umpire" log (src/extension/first-answers.ts), read from code-server's log folder. */
function startUpLines(): string[] {
    const logs = path.join(path.dirname(workspace), 'user-data', 'logs');
    if (!fs.existsSync(logs)) return [];
    const files = (fs.readdirSync(logs, { recursive: true }) as string[]).filter(f => path.basename(f) === 'Umpire.log');
    return files.flatMap(f => fs.readFileSync(path.join(logs, f), 'utf8').split('\n')).filter(l => l.includes('Start-up:'));
}

describe('umpire.vsix in code-server 4.100.3', () => {
    const seedFile = () => path.join(workspace, 'scrud-seed.battle');
    let savedOnce = '';

    it('shows the code lenses above the engagement once scrud-seed.battle is opened', async () => {
        await openFromExplorer('scrud-seed.battle');
        await lens('Resolve').waitFor({ timeout: 60000 });
        await lens('Odds').waitFor({ timeout: 10000 });
        // Dice are entered in the example, so there is nothing to re-roll.
        expect(await lens('Re-roll').count()).toBe(0);
        // The inlay hints come after the lenses and redraw the lines: the clicks below wait for them.
        await waitFor('the inlay hints', editorText, t => /engagement Example \{\s*not written — /.test(t), 30000);
        await screenshot('01-opened.png');
    });

    it('logs how long the start took: the server ready after activation, the first diagnostics and lenses after the open', async () => {
        const lines = await waitFor('the three start-up lines in the Umpire log', startUpLines, l => l.length >= 3, 30000);
        const ms = (pattern: RegExp) => Number(lines.find(l => pattern.test(l))?.match(/ (\d+) ms /)?.[1]);
        const figures = {
            'extension activation → server ready': ms(/server was ready/),
            'didOpen of scrud-seed.battle → first diagnostics': ms(/first diagnostics of scrud-seed\.battle/),
            'didOpen of scrud-seed.battle → first code lenses': ms(/first code lenses of scrud-seed\.battle/)
        };
        for (const [what, value] of Object.entries(figures)) {
            console.log(`[e2e] start-up: ${what}: ${value} ms (load average ${os.loadavg().map(l => l.toFixed(1)).join(' ')})`);
            expect(value).toBeGreaterThanOrEqual(0);
        }
    });

    it('writes the seed\'s outcome into the editor when Resolve is clicked', async () => {
        const before = fs.readFileSync(seedFile(), 'utf8');
        await lens('Resolve').click();
        const written = (t: string) => t.includes(`summary "${SEED_SUMMARY}"`);
        // The first click writes: the lenses name the editor's version even when they were asked for before the server
        // built the file the editor had just opened (BattleCodeLensProvider.versionOf).
        const text = await waitFor('the outcome block in the editor', editorText, written, 30000);
        expect(text).toMatch(/\n {2}outcome entered check "[0-9a-f]{8}" \{\n/);
        expect(text).toContain(`    ${GUARD_LINE}`);
        // Not saved yet: the file on disk is as it was, and the tab shows it is dirty.
        expect(fs.readFileSync(seedFile(), 'utf8')).toBe(before);
        await page.locator('.tabs-container .tab.active.dirty').waitFor({ timeout: 10000 });
        await lens('Resolve').waitFor({ timeout: 30000 });
        await screenshot('02-resolved.png');
    });

    it('saves the outcome to disk with Ctrl+S', async () => {
        await page.locator('.editor-group-container.active .monaco-editor .view-lines').click();
        await page.keyboard.press('Control+S');
        savedOnce = await waitFor('the outcome on disk', () => fs.readFileSync(seedFile(), 'utf8'), t => t.includes('outcome entered'));
        expect(savedOnce).toMatch(/\n {2}outcome entered check "[0-9a-f]{8}" \{\n {4}summary "[^"\n]+"\n/);
        expect(savedOnce).toContain(`\n    summary "${SEED_SUMMARY}"\n`);
        expect(savedOnce).toContain(`\n    ${GUARD_LINE}\n`);
        expect(savedOnce.match(/outcome entered/g)).toHaveLength(1);
        await page.locator('.tabs-container .tab.active:not(.dirty)').waitFor({ timeout: 10000 });
    });

    it('leaves the text unchanged when Resolve is clicked again', async () => {
        // The view shows the header's hint and the pairings' hints among the text: they follow the written outcome
        // once the server has checked the saved text, so the view is read after that, not while they still say
        // "not written".
        const shown = await waitFor('the hint at Example to say written', editorText, t => /engagement Example \{\s*written — /.test(t), 30000);
        await lens('Resolve').click();
        // The command's round trip (client → server → applyEdit) has no visible end when nothing
        // changes: give it time, then check both the editor and, after saving, the disk.
        await page.waitForTimeout(3000);
        expect(await editorText()).toBe(shown);
        await page.locator('.editor-group-container.active .monaco-editor .view-lines').click();
        await page.keyboard.press('Control+S');
        await page.waitForTimeout(1000);
        expect(fs.readFileSync(seedFile(), 'utf8')).toBe(savedOnce);
    });

    it('restores the file exactly with one undo', async () => {
        const original = fs.readFileSync(path.join(repoRoot, 'examples', 'scrud-seed.battle'), 'utf8');
        await page.locator('.editor-group-container.active .monaco-editor .view-lines').click();
        await page.keyboard.press('Control+Z');
        await waitFor('the outcome block to go', editorText, t => !t.includes('outcome entered'));
        await page.keyboard.press('Control+S');
        await waitFor('the undone file on disk', () => fs.readFileSync(seedFile(), 'utf8'), t => !t.includes('outcome entered'));
        expect(fs.readFileSync(seedFile(), 'utf8')).toBe(original);
    });

    it('shows the problems of a broken file', async () => {
        await openFromExplorer('broken.battle');
        await waitFor('three error squiggles', () => page.locator('.editor-group-container.active .squiggly-error').count(), n => n >= 3, 60000);
        await page.keyboard.press('Control+Shift+M');
        const panel = page.locator('.markers-panel');
        await panel.waitFor({ timeout: 30000 });
        const panelText = await waitFor('the three problems in the Problems panel',
            () => panel.innerText(), t => ['die-face', 'dice-count', 'unknown-reference'].every(code => t.includes(code)));
        expect(panelText).toContain("There is no modifier named 'Tired'");
        expect(panelText).toContain('A d6 cannot show 7');
        await screenshot('03-problems.png');
    });
});
