/**
 * `umpire report … --format html` opened in Debian's Chromium (playwright-core), offline: the page
 * must show every engagement, its charts and the state table without fetching anything, in light
 * and dark, and its campaign odds (each unit's end states, each side's losses) whole at every width. Screenshots go to test-output/e2e/report-*.png (run by `npm run test:e2e`, which builds out/ first).
 */
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { chromium, type Browser, type BrowserServer } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { recordPid, stopProcessGroup } from './processes.js';
import { labelsOutOfPlace } from './label-boxes.js';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
// The screenshots beside the editor's (test-output/e2e/report-*.png).
const outputDir = path.join(repoRoot, 'test-output', 'e2e');
const reportFile = path.join(outputDir, 'campaign-report.html');

let browserServer: BrowserServer | undefined;
let browser: Browser | undefined;

beforeAll(async () => {
    fs.mkdirSync(outputDir, { recursive: true });
    const r = spawnSync(process.execPath, [path.join(repoRoot, 'out', 'cli', 'main.cjs'), 'report', 'examples/campaign.battle', '--format', 'html', '--out', reportFile],
        { cwd: repoRoot, encoding: 'utf8' });
    if (r.status !== 0) throw new Error(`umpire report failed (${r.status}): ${r.stderr}`);
    browserServer = await chromium.launchServer({
        executablePath: '/usr/bin/chromium',
        headless: true,
        args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run']
    });
    recordPid(browserServer.process().pid, 'chromium');
    browser = await chromium.connect(browserServer.wsEndpoint());
}, 120000);

afterAll(async () => {
    await browser?.close().catch(() => undefined);
    const pid = browserServer?.process().pid;
    await browserServer?.close().catch(() => undefined);
    await stopProcessGroup(pid);
}, 60000);

describe('the HTML battle report in Chromium', () => {
    it('shows every table and chart whole at 1400, 900 and 640 px: the page never scrolls sideways, a wide table scrolls in its own box', async () => {
        const context = await browser!.newContext({ viewport: { width: 1400, height: 900 } });
        const page = await context.newPage();
        await page.goto(pathToFileURL(reportFile).href);
        for (const width of [1400, 900, 640]) {
            await page.setViewportSize({ width, height: 900 });
            await page.waitForTimeout(200);
            expect(await labelsOutOfPlace(page.locator('body'), { scrollingTables: true }), `at ${width} px`).toEqual([]);
            // Each chart fits the page, and says what it shows under it.
            const charts = await page.locator('figure').evaluateAll(figures => figures.map(f => ({
                right: f.querySelector('svg')!.getBoundingClientRect().right, width: f.ownerDocument.documentElement.clientWidth,
                caption: f.querySelector('figcaption')?.textContent ?? ''
            })));
            expect(charts).toHaveLength(4);
            // Every text of every chart whole: none cut with an ellipsis.
            expect(await page.locator('figure svg text').evaluateAll(texts => texts.map(t => t.textContent ?? '').filter(t => t.includes('…')))).toEqual([]);
            for (const c of charts) {
                expect(c.right).toBeLessThanOrEqual(c.width + 1);
                expect(c.caption.length).toBeGreaterThan(20);
            }
            if (width !== 900) await page.screenshot({ path: path.join(outputDir, `report-${width}.png`), fullPage: false });
        }
        await context.close();
    });

    for (const colorScheme of ['light', 'dark'] as const) {
        it(`shows every engagement, its chart and the state table, offline (${colorScheme})`, async () => {
            const context = await browser!.newContext({ viewport: { width: 1100, height: 900 }, colorScheme });
            const elsewhere: string[] = [];
            const url = pathToFileURL(reportFile).href;
            await context.route('**/*', route => {
                if (route.request().url() === url) return route.continue();
                elsewhere.push(route.request().url());
                return route.abort();
            });
            const page = await context.newPage();
            await page.goto(url);
            const headings = await page.locator('section.action h3').allTextContents();
            expect(headings).toEqual(['engagement Ford — turn 1 "The ford"', 'engagement Pass — turn 2 "The pass"', 'engagement Camp — turn 3 "The camp"']);
            // Each engagement's odds chart is drawn: an SVG with one bar segment per unit and result.
            for (const section of await page.locator('section.action').all()) {
                const svg = section.locator('svg.umpire-chart');
                await expect.poll(() => svg.count()).toBe(1);
                expect((await svg.boundingBox())!.width).toBeGreaterThan(300);
                expect(await svg.locator('.mark-rect path').count()).toBeGreaterThan(3);
            }
            expect(await page.getByRole('img', { name: 'Luck per engagement' }).count()).toBe(1);
            const state = page.locator('h2', { hasText: 'Campaign state' });
            await expect.poll(() => state.count()).toBe(1);
            expect(await page.locator('table').last().locator('tbody tr').count()).toBe(4);
            // The text is readable on the page's own background: dark on light, light on dark.
            const [fg, bg] = await page.evaluate<string[]>('[getComputedStyle(document.body).color, getComputedStyle(document.body).backgroundColor]');
            const lum = (rgb: string) => rgb.match(/\d+/g)!.slice(0, 3).map(Number).reduce((a, b) => a + b, 0) / 3;
            if (colorScheme === 'light') expect(lum(fg)).toBeLessThan(lum(bg) - 128); else expect(lum(fg)).toBeGreaterThan(lum(bg) + 128);
            const chartText = await page.evaluate<string>('getComputedStyle(document.querySelector("svg.umpire-chart text")).fill');
            if (colorScheme === 'dark') expect(lum(chartText)).toBeGreaterThan(160); else expect(lum(chartText)).toBeLessThan(100);
            await page.screenshot({ path: path.join(outputDir, `report-${colorScheme}.png`), fullPage: true });
            expect(elsewhere).toEqual([]);
            await context.close();
        });
    }

    it("shows the campaign's odds, the figures of `umpire odds --campaign`, whole at 1400, 900 and 640 px", async () => {
        const cli = spawnSync(process.execPath, [path.join(repoRoot, 'out', 'cli', 'main.cjs'), 'odds', 'examples/campaign.battle', '--campaign', '--json'], { cwd: repoRoot, encoding: 'utf8' });
        const units = (JSON.parse(cli.stdout) as { units: Array<{ id: string, status: Record<string, number> }> }).units;
        const context = await browser!.newContext({ viewport: { width: 1400, height: 900 } });
        const page = await context.newPage();
        await page.goto(pathToFileURL(reportFile).href);
        const heading = page.locator('h2', { hasText: 'Campaign odds at the end of the file' });
        await expect.poll(() => heading.count()).toBe(1);
        const table = page.locator('h2:has-text("Campaign odds") ~ div.table-scroll table').first();
        expect(await table.locator('thead th').allTextContents()).toEqual(['Unit', 'ready', 'destroyed', 'tokens (mean ± sd)', 'tested']);
        for (const u of units) {
            const row = table.locator('tbody tr', { hasText: u.id });
            expect(await row.locator('td').nth(2).textContent(), u.id).toBe(`${(100 * u.status.destroyed).toFixed(1)}%`);
        }
        for (const width of [1400, 900, 640]) {
            await page.setViewportSize({ width, height: 900 });
            await page.waitForTimeout(200);
            expect(await labelsOutOfPlace(page.locator('body'), { scrollingTables: true }), `at ${width} px`).toEqual([]);
            await heading.evaluate(h => h.scrollIntoView({ block: 'start' }));
            await page.screenshot({ path: path.join(outputDir, `report-campaign-${width}.png`), fullPage: false });
        }
        await context.close();
    });
});
