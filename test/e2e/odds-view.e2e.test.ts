/**
 * The Odds panel in the real editor (issue 17): umpire.vsix in code-server 4.100.3 (the Node extension
 * host), driven in Debian's Chromium. The panel opens from the Odds lens; its toggles switch the
 * table for the chart (drawn by Vega in the page) and the chance of each result for "this or worse";
 * "Copy as CSV" puts on the clipboard exactly the figures `umpire odds --json` gives; "Save chart as
 * SVG" asks where (VS Code's save dialog) and writes the file. Screenshots: test-output/e2e/odds-*.png.
 * Run by `npm run test:e2e` (scripts/e2e/e2e-run.mjs).
 */
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { type FrameLocator, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as workbench from './workbench.js';
import { CodeServerSession, copyExamples, outputDir, repoRoot, waitFor } from './workbench.js';
import type { OddsReport } from '../../src/protocol.js';

const session = new CodeServerSession({ name: 'odds', prepare: workspace => copyExamples(workspace, ['scrud-seed.battle']), clipboard: true });
let page: Page;
let workspace: string;

beforeAll(async () => {
    page = await session.start();
    workspace = session.workspace;
}, 300000);

afterAll(() => session.stop(), 60000);

/** The Odds panel's page: VS Code puts a webview's page in a frame inside a frame. */
const panel = (): FrameLocator => page.frameLocator('iframe.webview.ready').frameLocator('#active-frame');
const button = (name: string) => panel().getByRole('button', { name, exact: true });
const notification = (text: string | RegExp) => page.locator('.notification-toast .notification-list-item-message', { hasText: text });

/** `umpire odds FILE --json`, from the CLI the same build ships. */
function cliOdds(file: string): OddsReport[] {
    const r = spawnSync(process.execPath, [path.join(repoRoot, 'bin', 'umpire.cjs'), 'odds', file, '--json'], { encoding: 'utf8' });
    expect(r.status, r.stderr).toBe(0);
    return (JSON.parse(r.stdout) as { engagements: OddsReport[] }).engagements;
}

describe('the Odds panel in code-server 4.100.3', () => {
    it('opens from the Odds lens with its table and toolbar', async () => {
        await workbench.openFromExplorer(page, 'scrud-seed.battle');
        await workbench.lens(page, 'Odds').click({ timeout: 60000 });
        await button('Copy as CSV').waitFor({ timeout: 60000 });
        await expect(button('Table').getAttribute('aria-pressed')).resolves.toBe('true');
        await panel().locator('td.unit', { hasText: 'Guard' }).first().waitFor({ timeout: 10000 });
        await workbench.screenshot(page, outputDir, 'odds-table.png');
    });

    it('shows the chart, and the chance of each result or worse, at the toggles (by keyboard)', async () => {
        await button('Chart').focus();
        await page.keyboard.press('Enter');
        await panel().locator('.chart canvas').first().waitFor({ timeout: 30000 });
        await expect(button('Chart').getAttribute('aria-pressed')).resolves.toBe('true');
        await expect(panel().locator('.tables').first().isVisible()).resolves.toBe(false);
        await button('This or worse').focus();
        await page.keyboard.press('Space');
        await waitFor('"This or worse" pressed', () => button('This or worse').getAttribute('aria-pressed'), v => v === 'true');
        // The chart is drawn again for the new figures: its canvas is replaced.
        await panel().locator('.chart canvas').first().waitFor({ timeout: 30000 });
        await page.waitForTimeout(500);
        await workbench.screenshot(page, outputDir, 'odds-chart-or-worse.png');
    });

    it('copies the figures shown as CSV: those of `umpire odds --json`, each result or worse', async () => {
        await button('Copy as CSV').click();
        await notification(/Copied the chance of each result or worse for \d+ units as CSV/).waitFor({ timeout: 20000 });
        const csv = await waitFor('the CSV on the clipboard', () => page.evaluate('navigator.clipboard.readText()') as Promise<string>, t => t.startsWith('Action,'));
        const lines = csv.trimEnd().split('\r\n').map(l => l.split(','));
        const [report] = cliOdds(path.join(workspace, 'scrud-seed.battle'));
        const labels = Object.keys(report.units[0].atLeast!);
        expect(lines[0]).toEqual(['Action', 'Force', 'Unit', ...labels.map((l, i) => `${i === labels.length - 1 ? l : `${l} or worse`} (%)`)]);
        expect(lines.slice(1).map(l => `${l[1]}.${l[2]}`)).toEqual(report.units.map(u => u.id));
        report.units.forEach((u, i) => labels.forEach((l, k) => expect(Number(lines[i + 1][3 + k])).toBeCloseTo(100 * u.atLeast![l], 4)));
        await workbench.screenshot(page, outputDir, 'odds-copied.png');
    });

    it('saves the chart as SVG where the save dialog says', async () => {
        await button('Save chart as SVG').first().click();
        // VS Code's own save dialog in the browser: its path box proposes the file beside the scenario.
        const input = page.locator('.quick-input-widget input');
        await input.waitFor({ timeout: 20000 });
        await workbench.screenshot(page, outputDir, 'odds-save-dialog.png');
        await waitFor('the proposed file name', () => input.inputValue(), v => /\/battles\/scrud-seed-Example-odds\.svg$/.test(v), 10000);
        await input.press('Enter');
        const saved = path.join(workspace, 'scrud-seed-Example-odds.svg');
        await waitFor('the SVG file', () => fs.existsSync(saved), ok => ok, 20000);
        const svg = await waitFor('the SVG written', () => fs.readFileSync(saved, 'utf8'), t => t.trimEnd().endsWith('</svg>'));
        expect(svg).toMatch(/^<svg [^>]*xmlns="http:\/\/www\.w3\.org\/2000\/svg"/);
        expect(svg).toContain('chance of each result or worse');
        for (const unit of cliOdds(path.join(workspace, 'scrud-seed.battle'))[0].units) expect(svg).toContain(unit.id);
    });
});
