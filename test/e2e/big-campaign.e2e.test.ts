/**
 * Editing a large campaign in the real editor: a campaign of 10,000 lines (the benchmark's generated file) opened in
 * code-server 4.100.3 with umpire.vsix, and typed into half-way down as an umpire would: a force's
 * name mistyped gets its squiggle, the fix clears it, and Resolve at the cursor writes the outcome
 * there, and its header's hint turns to "written". The times are printed (the editor's figures beside `npm run bench:lsp`'s), not asserted: a
 * shared two-core machine stretches them. Each step leaves a screenshot in test-output/e2e/ (big-*.png).
 */
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as workbench from './workbench.js';
import { CodeServerSession, copyExamples, outputDir, repoRoot, waitFor } from './workbench.js';

const FILE = 'campaign-10k.battle';
const text = execFileSync(process.execPath, [path.join(repoRoot, 'scripts', 'bench-files.mjs'), 'campaign', '10000'], { encoding: 'utf8' });
const lines = text.split('\n');
// The engagement half-way down, and its `F500.Guard, F500.Line#1 attacks F499.Line#2, F499.Hussars` line (1-based, as Go to Line counts).
const engagementAt = lines.indexOf('engagement E500 {');
const attacksLine = engagementAt + 2;

const session = new CodeServerSession({
    name: 'big',
    prepare: workspace => {
        copyExamples(workspace, ['scrud-seed.battle']);
        fs.writeFileSync(path.join(workspace, FILE), text);
    }
});
let page: Page;

beforeAll(async () => {
    page = await session.start();
}, 300000);

afterAll(() => session.stop(), 60000);

const editorText = () => workbench.editorText(page);
const screenshot = (name: string) => workbench.screenshot(page, outputDir, name);
const errorSquiggles = () => page.locator('.editor-group-container.active .squiggly-error').count();

/** Milliseconds since `started`, printed with what they measured. */
function report(what: string, started: number): number {
    const ms = Math.round(performance.now() - started);
    console.log(`big campaign (${lines.length - 1} lines): ${what}: ${ms} ms`);
    return ms;
}

describe('a 10,000-line campaign in code-server 4.100.3', () => {
    it('opens with its code lenses', async () => {
        // A small file first: the extension and its server start, apart from the big file's own time.
        let started = performance.now();
        await workbench.openFromExplorer(page, 'scrud-seed.battle');
        await workbench.lens(page, 'Resolve').first().waitFor({ timeout: 120000 });
        report('the extension started (a small file open → its Resolve lens)', started);
        expect(engagementAt).toBeGreaterThan(4000);
        expect(lines[attacksLine - 1]).toBe('  F500.Guard, F500.Line#1 attacks F499.Line#2, F499.Hussars');
        started = performance.now();
        await workbench.openFromExplorer(page, FILE);
        await waitFor('the big file in the editor', editorText, t => t.includes('force F0 {'), 60000);
        await workbench.lens(page, 'Resolve').first().waitFor({ timeout: 120000 });
        report('open → first Resolve lens', started);
        await screenshot('big-00-opened.png');
    });

    it('flags a mistyped force half-way down, and clears it when fixed', async () => {
        await page.locator('.editor-group-container.active .monaco-editor .view-lines').click();
        await page.keyboard.press('Control+G');
        await page.locator('.quick-input-widget input').waitFor({ timeout: 15000 });
        await page.keyboard.type(String(attacksLine));
        await page.keyboard.press('Enter');
        await waitFor('the engagement half-way down on screen', editorText, t => t.includes('  F500.Guard, F500.Line#1 attacks F499.Line#2, F499.Hussars'));
        expect(await errorSquiggles()).toBe(0);
        await page.keyboard.press('End');
        let started = performance.now();
        await page.keyboard.type('x');
        await waitFor('the squiggle under Hussarsx', errorSquiggles, n => n >= 1, 60000);
        report('keystroke → squiggle', started);
        // The squiggle is a decoration under the text: the mouse rests on the mistyped name itself, found in the line's text.
        const line = page.locator('.editor-group-container.active .view-line', { hasText: 'F499.Hussarsx' }).locator('span').first();
        const lineText = (await line.innerText()).replace(/\u00a0/g, ' ');
        const box = (await line.boundingBox())!;
        await line.hover({ position: { x: box.width * (lineText.indexOf('Hussarsx') + 4) / lineText.length, y: box.height / 2 } });
        await page.locator('.monaco-hover', { hasText: 'Hussarsx' }).waitFor({ timeout: 30000 });
        await screenshot('big-01-mistyped-force.png');
        await page.mouse.move(700, 5);

        started = performance.now();
        await page.keyboard.press('Backspace');
        await waitFor('the squiggle to clear', errorSquiggles, n => n === 0, 60000);
        report('fix → squiggle cleared', started);
    });

    it('resolves the engagement at the cursor, half-way down', async () => {
        const started = performance.now();
        await page.keyboard.press('Control+Alt+R');
        const after = await waitFor('the outcome block under E500', editorText, t => /seed 500\n {2}outcome seed 500 check "[0-9a-f]{8}" \{/.test(t), 60000);
        report('Ctrl+Alt+R → outcome written', started);
        expect(after).toMatch(/ {4}summary "[^"]+"/);
        expect(await errorSquiggles()).toBe(0);
        // The header's hint follows the written outcome once the server has checked the new text.
        const written = performance.now();
        await waitFor('the hint at E500 to say written', editorText, t => /engagement E500 \{\s*written — /.test(t), 60000);
        report('outcome written → its hint says written', written);
        await screenshot('big-02-resolved.png');
    });
});
