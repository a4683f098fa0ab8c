/**
 * The Odds panel's what-ifs in the real editor (docs/reports.md#what-if): umpire.vsix in
 * code-server 4.100.3 (the Node extension host), driven in Debian's Chromium, on the SCRUD ridge. The
 * panel opens from the Ridge engagement's Odds lens with its what-if toggles; ticking "without Uphill"
 * by keyboard shows the second set-up beside the first (a second bar per unit), and the change per unit is that of
 * `umpire odds --what-if "without Uphill" --json`; "Copy as CSV" then carries the what-if's columns.
 * Screenshots: test-output/e2e/odds-what-if-*.png. Run by `npm run test:e2e` (scripts/e2e/e2e-run.mjs);
 * alone, after `npm run package`: UMPIRE_E2E_CODE_SERVER=… UMPIRE_E2E_VSIX=umpire.vsix
 * npx vitest run --config test/e2e/vitest.e2e.config.ts test/e2e/odds-what-if.e2e.test.ts
 */
import { spawnSync } from 'node:child_process';
import * as path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as workbench from './workbench.js';
import { CodeServerSession, oddsPanelOf, copyExamples, outputDir, repoRoot, waitFor } from './workbench.js';
import { labelsOutOfPlace } from './label-boxes.js';
import type { OddsReport } from '../../src/protocol.js';

const session = new CodeServerSession({ name: 'what-if', prepare: workspace => copyExamples(workspace, ['scrud-ridge.battle']), clipboard: true });
let page: Page;
let workspace: string;

beforeAll(async () => {
    page = await session.start();
    workspace = session.workspace;
}, 300000);

afterAll(() => session.stop(), 60000);

const { panel, button, notification } = oddsPanelOf(() => page);

interface CliWhatIf {
    before: OddsReport;
    after: OddsReport;
    difference: { units: Array<{ id: string, probabilities: Record<string, number>, atLeast: Record<string, number> }> };
}

/** `umpire odds FILE --engagement Ridge --what-if CHANGE --json`, from the CLI the same build ships. */
function cliWhatIf(file: string, change: string): CliWhatIf {
    const r = spawnSync(process.execPath, [path.join(repoRoot, 'bin', 'umpire.cjs'), 'odds', file, '--engagement', 'Ridge', '--what-if', change, '--json'], { encoding: 'utf8' });
    expect(r.status, r.stderr).toBe(0);
    return JSON.parse(r.stdout) as CliWhatIf;
}

/** "+3.2 pp" as a number of points (the page's minus is U+2212). */
const points = (cell: string): number => (cell === '0 pp' ? 0 : Number(cell.replace('−', '-').replace(/ pp$/, '')));

describe('the Odds panel\'s what-ifs in code-server 4.100.3', () => {
    it('opens from the Ridge lens with a toggle per factor applied, none on', async () => {
        await workbench.openFromExplorer(page, 'scrud-ridge.battle');
        // The first Odds lens is the Ridge engagement's.
        await workbench.lens(page, 'Odds').first().click({ timeout: 60000 });
        const uphill = panel().getByRole('checkbox', { name: 'without Uphill' });
        await uphill.waitFor({ timeout: 60000 });
        await expect(uphill.isChecked()).resolves.toBe(false);
        await expect(panel().getByRole('group', { name: 'Factors applied' }).getByRole('checkbox').count()).resolves.toBe(3);
        await expect(panel().locator('.bar.what-if-bar').count()).resolves.toBe(0);
        await workbench.screenshot(page, outputDir, 'odds-what-if-toggles.png');
    });

    it('shows the second set-up beside the first when "without Uphill" is ticked (by keyboard), with the CLI\'s differences', async () => {
        const uphill = panel().getByRole('checkbox', { name: 'without Uphill' });
        await uphill.focus();
        await page.keyboard.press('Space');
        await panel().getByRole('heading', { name: 'Change: what if without Uphill, minus as written', exact: true }).waitFor({ timeout: 60000 });
        // Each unit's row has the second set-up's bar under the first.
        const cliUnits = cliWhatIf(path.join(workspace, 'scrud-ridge.battle'), 'without Uphill').before.units.length;
        await expect(panel().locator('.bar.what-if-bar').count()).resolves.toBe(cliUnits);
        // The page was drawn anew: the box is ticked, and it has the focus again for the next key.
        await waitFor('the box ticked', () => panel().getByRole('checkbox', { name: 'without Uphill' }).isChecked(), v => v);
        await waitFor('the focus back on the box', () => panel().locator('input[data-whatif="without Uphill"]').evaluate(el => el === el.ownerDocument.activeElement), v => v, 10000);
        const cli = cliWhatIf(path.join(workspace, 'scrud-ridge.battle'), 'without Uphill');
        const table = panel().locator('table.change.results');
        const heads = await table.locator('th.delta').allTextContents();
        const rows = await table.locator('tbody tr').all();
        expect(rows).toHaveLength(cli.difference.units.length);
        for (const [i, row] of rows.entries()) {
            const cells = await row.locator('td').allTextContents();
            expect(cells[0]).toBe(cli.difference.units[i].id);
            // Shown to 0.1 point: each cell within rounding of the CLI's exact difference.
            heads.forEach((label, k) => {
                const exact = 100 * cli.difference.units[i].probabilities[label];
                // "+<0.1 pp": a change too small to show, but not none.
                if (cells[k + 1].includes('<')) expect(Math.abs(exact), `${cells[0]} ${label}`).toBeLessThan(0.1);
                else expect(Math.abs(points(cells[k + 1]) - exact), `${cells[0]} ${label}`).toBeLessThanOrEqual(0.051);
            });
        }
        await page.waitForTimeout(300);
        await workbench.screenshot(page, outputDir, 'odds-what-if-compared.png');
        await panel().locator('.bar.what-if-bar').first().scrollIntoViewIfNeeded();
        await page.waitForTimeout(300);
        await workbench.screenshot(page, outputDir, 'odds-what-if-bars.png');
    });

    it('shows the compared set-ups and the change tables whole at 1400, 900 and 640 px', async () => {
        await panel().getByRole('heading', { name: 'Change: what if without Uphill, minus as written', exact: true }).waitFor({ timeout: 60000 });
        for (const width of [1400, 900, 640]) {
            await page.setViewportSize({ width, height: 1000 });
            await page.waitForTimeout(500);
            expect(await labelsOutOfPlace(panel().locator('body')), `at ${width} px`).toEqual([]);
            // Every result's change is on screen: the change table is not cut after a column.
            const cells = await panel().locator('table.change.results tbody tr').first().locator('td.delta').evaluateAll(tds => tds.map(td => {
                const r = td.getBoundingClientRect();
                return r.width > 0 && r.right <= td.ownerDocument.documentElement.clientWidth + 1;
            }));
            expect(cells.length).toBeGreaterThan(5);
            expect(cells.every(Boolean), `at ${width} px`).toBe(true);
            if (width !== 900) {
                await panel().locator('.whatif-change').first().scrollIntoViewIfNeeded();
                await page.waitForTimeout(300);
                await workbench.screenshot(page, outputDir, `odds-what-if-change-${width}.png`);
            }
        }
        await page.setViewportSize({ width: 1400, height: 1000 });
        await page.waitForTimeout(300);
    });

    it('copies the what-if\'s columns as CSV while it is shown', async () => {
        await button('Copy as CSV').click();
        await notification(/Copied the chance of each result for \d+ units as CSV/).waitFor({ timeout: 20000 });
        const csv = await waitFor('the CSV on the clipboard', () => page.evaluate('navigator.clipboard.readText()') as Promise<string>, t => t.startsWith('Action,'));
        const lines = csv.trimEnd().split('\r\n').map(l => l.split(','));
        const cli = cliWhatIf(path.join(workspace, 'scrud-ridge.battle'), 'without Uphill');
        const won = lines[0].indexOf('won (what if: without Uphill) (%)');
        expect(won).toBeGreaterThan(2);
        expect(lines[0][won + 1]).toBe('won (change) (pp)');
        cli.after.units.forEach((u, i) => {
            expect(Number(lines[i + 1][won])).toBeCloseTo(100 * u.probabilities.won, 4);
            expect(Number(lines[i + 1][won + 1])).toBeCloseTo(100 * cli.difference.units[i].probabilities.won, 4);
        });
    });

    it('adds a grade picked from the keyboard to the what-if, and keeps the box ticked', async () => {
        const ligne = panel().getByRole('combobox', { name: 'Grade of French.Ligne' });
        await ligne.focus();
        // The first choice below "as written" is the first grade the file declares: Guard.
        await page.keyboard.press('ArrowDown');
        await panel().getByRole('heading', { name: 'Change: what if without Uphill; grade French.Ligne Guard, minus as written', exact: true }).waitFor({ timeout: 60000 });
        await expect(panel().getByRole('checkbox', { name: 'without Uphill' }).isChecked()).resolves.toBe(true);
        await expect(panel().getByRole('combobox', { name: 'Grade of French.Ligne' }).inputValue()).resolves.toBe('Guard');
        const cli = spawnSync(process.execPath, [path.join(repoRoot, 'bin', 'umpire.cjs'), 'odds', path.join(workspace, 'scrud-ridge.battle'), '--engagement', 'Ridge',
            '--what-if', 'without Uphill', '--what-if', 'grade French.Ligne Guard', '--json'], { encoding: 'utf8' });
        expect(cli.status, cli.stderr).toBe(0);
        const difference = (JSON.parse(cli.stdout) as CliWhatIf).difference;
        const ligne1 = await panel().locator('table.change.results tbody tr', { hasText: 'French.Ligne#1' }).locator('td').allTextContents();
        const heads = await panel().locator('table.change.results th.delta').allTextContents();
        const exact = difference.units.find(u => u.id === 'French.Ligne#1')!.probabilities;
        heads.forEach((label, k) => {
            if (!ligne1[k + 1].includes('<')) expect(Math.abs(points(ligne1[k + 1]) - 100 * exact[label]), label).toBeLessThanOrEqual(0.051);
        });
        await workbench.screenshot(page, outputDir, 'odds-what-if-grade.png');
    });

    it('tells an error the what-if makes at its line and column of the file on disk, and the what-if that put it there', async () => {
        const other = panel().locator('input[data-whatif-other]');
        await other.fill('with Woods on Nowhere');
        await other.press('Enter');
        const problem = panel().locator('.whatif-problem');
        await problem.waitFor({ timeout: 60000 });
        // The added factor goes after `seed 1806`, line 47 of the file on disk, wherever the other changes moved it in the copy.
        await expect(problem.textContent()).resolves.toContain("line 47, column 12 (in what 'with Woods on Nowhere' puts there): There is no force named 'Nowhere'.");
        await problem.scrollIntoViewIfNeeded();
        await workbench.screenshot(page, outputDir, 'odds-what-if-error.png');
    });
});
