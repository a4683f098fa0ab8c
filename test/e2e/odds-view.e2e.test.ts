/**
 * The Odds panel in the real editor: umpire.vsix in code-server 4.100.3 (the Node extension
 * host), driven in Debian's Chromium. The panel opens from the Odds lens; its toggles switch the
 * table for the chart (drawn by Vega in the page) and the chance of each result for "this or worse";
 * "Copy as CSV" puts on the clipboard exactly the figures `umpire odds --json` gives; "Save chart as
 * SVG" asks where (VS Code's save dialog) and writes the file. In a narrow panel, with long unit and
 * force names and many results, no label leaves its row, and the chart draws every name whole, in as
 * many lines as it takes (the saved SVG has no text cut). Its Campaign tab, opened from its tab or a
 * turn's hover, shows every unit's end states and each side's losses through the turn picked, whole at
 * 1400, 900 and 640 px; its "What if…" box gives the campaign under a what-if and another file's house
 * rules beside it as written, with the difference `umpire odds --campaign --what-if … --house … --json`
 * gives, and tells an error of the changed set-up at the file's line. Screenshots: test-output/e2e/odds-*.png.
 * Run by `npm run test:e2e` (scripts/e2e/e2e-run.mjs).
 */
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as workbench from './workbench.js';
import { CodeServerSession, oddsPanelOf, copyExamples, outputDir, repoRoot, waitFor } from './workbench.js';
import { labelsOutOfPlace, shownWidth } from './label-boxes.js';
import type { OddsReport } from '../../src/protocol.js';

// Ancients' results (gives-ground), long unit names and a long force name: labels that would overflow.
const LONG_NAMES = `rules ancients
grade Thureophoroi { size medium, weight medium, formation formed, skill 2, leadership 7, move 5 }
force SuccessorsOfAlexanderUnderAntigonosTheOneEyed {
  unit ThureophoroiOfTheSecondLineUnderPhilipSonOfMachatas infantry Thureophoroi { tokens 2, tested }
  unit Thracians infantry { size small, weight light, formation skirmish, skill 1, leadership 5, tokens 1, move 6 }
}
force Gauls {
  unit WarriorsOfTheTectosagesWhoCrossedTheHellespont infantry { size huge, weight light, formation warband, skill 1, leadership 6, shock, move 6 }
  unit Horse cavalry { size medium, weight light, formation warband, skill 1, leadership 6, shock, move 10 }
}
engagement Pass {
  Gauls attacks SuccessorsOfAlexanderUnderAntigonosTheOneEyed
  first turn
  Gauls.WarriorsOfTheTectosagesWhoCrossedTheHellespont: charged
  Gauls.WarriorsOfTheTectosagesWhoCrossedTheHellespont vs SuccessorsOfAlexanderUnderAntigonosTheOneEyed.ThureophoroiOfTheSecondLineUnderPhilipSonOfMachatas
  Gauls.Horse vs SuccessorsOfAlexanderUnderAntigonosTheOneEyed.Thracians
  seed 12
}
`;

const session = new CodeServerSession({
    name: 'odds', clipboard: true,
    prepare: workspace => {
        copyExamples(workspace, ['scrud-seed.battle', 'ancients-flank.battle', 'loose-files-turn.battle', 'campaign.battle', 'house-rules-ancients.battle']);
        fs.writeFileSync(path.join(workspace, 'long-names.battle'), LONG_NAMES);
    }
});
let page: Page;
let workspace: string;

beforeAll(async () => {
    page = await session.start();
    workspace = session.workspace;
}, 300000);

afterAll(() => session.stop(), 60000);

const { panel, button, notification } = oddsPanelOf(() => page);

/**
 * What in the panel's page is cut, leaves its row, or reaches past the part of the panel the window
 * shows (test/e2e/label-boxes.ts). Empty when all is well.
 */
const labelsOutsideTheirRows = async () => labelsOutOfPlace(panel().locator('body'), { shownWidth: await shownWidth(page, page.locator('iframe.webview.ready')) });

/** The chart lies within the panel, which does not scroll sideways. */
const chartFits = () => panel().locator('body').evaluate(body => {
    const doc = body.ownerDocument;
    const canvas = body.querySelector('.chart canvas')?.getBoundingClientRect();
    return canvas !== undefined && canvas.width > 0 && doc.documentElement.scrollWidth <= doc.documentElement.clientWidth + 1 && canvas.right <= doc.documentElement.clientWidth + 1;
});

/** The table shown again (the panel keeps what the last test showed). */
const showTable = (unit: string) => waitFor('the table shown', async () => {
    await button('Table').click();
    return panel().locator('td.unit', { hasText: unit }).first().isVisible();
}, v => v);

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

    it('keeps every label inside its row in a narrow panel, with long names and many results', async () => {
        await workbench.openFromExplorer(page, 'long-names.battle');
        await workbench.lens(page, 'Odds').first().click({ timeout: 60000 });
        await panel().locator('td.unit', { hasText: 'Thracians' }).first().waitFor({ state: 'attached', timeout: 60000 });
        // The panel kept the chart shown by the earlier test: back to the table.
        await waitFor('the table shown', async () => {
            await button('Table').click();
            return panel().locator('td.unit', { hasText: 'Thracians' }).first().isVisible();
        }, v => v);
        for (const width of [1400, 900, 640]) {
            await page.setViewportSize({ width, height: 1000 });
            for (const figures of ['Each result', 'This or worse']) {
                await button(figures).click();
                await waitFor(`"${figures}" pressed`, () => button(figures).getAttribute('aria-pressed'), v => v === 'true');
                await page.waitForTimeout(300);
                expect(await labelsOutsideTheirRows(), `at ${width} px, ${figures}`).toEqual([]);
            }
            await button('Each result').click();
            await page.waitForTimeout(300);
            await workbench.screenshot(page, outputDir, `odds-narrow-${width}.png`);
        }
        // The chart, drawn again for the narrow panel, stays within it too.
        await button('Chart').click();
        await panel().locator('.chart canvas').first().waitFor({ timeout: 30000 });
        await waitFor('the chart within the panel', chartFits, ok => ok, 10000);
        await workbench.screenshot(page, outputDir, 'odds-narrow-chart.png');
        // What Vega drew, saved as SVG: every name whole (in lines), no text cut with an ellipsis.
        await button('Save chart as SVG').first().click();
        const input = page.locator('.quick-input-widget input');
        await waitFor('the proposed file name', () => input.inputValue(), v => /long-names-Pass-odds\.svg$/.test(v), 20000);
        await input.press('Enter');
        const saved = path.join(workspace, 'long-names-Pass-odds.svg');
        const svg = await waitFor('the SVG written', () => (fs.existsSync(saved) ? fs.readFileSync(saved, 'utf8') : ''), t => t.trimEnd().endsWith('</svg>'), 20000);
        // Each text's lines (tspans): a name's joined as they are, the title's with a space.
        const texts = [...svg.matchAll(/<text[^>]*>([^]*?)<\/text>/g)].map(m => m[1].match(/<tspan[^>]*>[^<]*<\/tspan>/g)?.map(t => t.replace(/<[^>]+>/g, '')) ?? [m[1]]);
        expect(svg).not.toContain('…');
        for (const unit of cliOdds(path.join(workspace, 'long-names.battle'))[0].units) expect(texts.map(t => t.join('')), unit.id).toContain(unit.id);
        expect(texts.map(t => t.join(' '))).toContain('engagement Pass: chance of each result');
        await showTable('Thracians');
        // The SCRUD seed's many results and numbered units, in the narrowest panel.
        await workbench.openFromExplorer(page, 'scrud-seed.battle');
        await workbench.lens(page, 'Odds').first().click({ timeout: 60000 });
        await panel().locator('td.unit', { hasText: 'Fusiliers#4' }).first().waitFor({ timeout: 60000 });
        await page.waitForTimeout(300);
        expect(await labelsOutsideTheirRows(), 'scrud-seed at 640 px').toEqual([]);
        await workbench.screenshot(page, outputDir, 'odds-narrow-scrud.png');
    });

    // Each rule set's results in their colours, table and chart, in a wide and a narrow window.
    for (const [rules, file, unit] of [['scrud', 'scrud-seed.battle', 'Guard'], ['ancients', 'ancients-flank.battle', 'Hoplites'], ['loose-files', 'loose-files-turn.battle', 'Line']] as const) {
        it(`shows ${file}'s odds whole at 1400, 900 and 640 px, table and chart`, async () => {
            await page.setViewportSize({ width: 1400, height: 1000 });
            await workbench.openFromExplorer(page, file);
            await workbench.lens(page, 'Odds').first().click({ timeout: 60000 });
            await panel().locator('td.unit', { hasText: unit }).first().waitFor({ state: 'attached', timeout: 60000 });
            await showTable(unit);
            for (const width of [1400, 900, 640]) {
                await page.setViewportSize({ width, height: 1000 });
                await button('Each result').click();
                await page.waitForTimeout(400);
                expect(await labelsOutsideTheirRows(), `${file} at ${width} px`).toEqual([]);
                // The key to the colours is in view at the top of the panel.
                await expect(panel().locator('.page-head .legend').isVisible()).resolves.toBe(true);
                if (width !== 900) await workbench.screenshot(page, outputDir, `odds-${rules}-table-${width}.png`);
                await button('Chart').click();
                await panel().locator('.chart canvas').first().waitFor({ timeout: 30000 });
                await waitFor(`the chart within the panel at ${width} px`, chartFits, ok => ok, 10000);
                await page.waitForTimeout(400);
                if (width !== 900) await workbench.screenshot(page, outputDir, `odds-${rules}-chart-${width}.png`);
                await showTable(unit);
            }
            await page.setViewportSize({ width: 1400, height: 1000 });
        });
    }

    it("shows the campaign's odds in the Campaign tab, through the turn picked, whole at 1400, 900 and 640 px", async () => {
        await page.setViewportSize({ width: 1400, height: 1000 });
        await workbench.openFromExplorer(page, 'campaign.battle');
        await workbench.lens(page, 'Odds').first().click({ timeout: 60000 });
        await panel().getByRole('tab', { name: 'Campaign' }).click({ timeout: 60000 });
        await panel().locator('h2', { hasText: 'Campaign at the end of the file' }).waitFor({ timeout: 120000 });
        const cli = spawnSync(process.execPath, [path.join(repoRoot, 'bin', 'umpire.cjs'), 'odds', path.join(workspace, 'campaign.battle'), '--campaign', '--json'], { encoding: 'utf8' });
        const lost = (JSON.parse(cli.stdout) as { units: Array<{ id: string, status: Record<string, number> }> }).units.find(u => u.id === 'Successors.Thureophoroi')!;
        await expect(panel().locator('tr', { hasText: 'Thureophoroi' }).locator('.figures').textContent()).resolves.toContain(`destroyed ${(100 * lost.status.destroyed).toFixed(1)}%`);
        for (const width of [1400, 900, 640]) {
            await page.setViewportSize({ width, height: 1000 });
            await page.waitForTimeout(600);
            expect(await labelsOutsideTheirRows(), `the Campaign tab at ${width} px`).toEqual([]);
            await expect(panel().locator('.page-head .legend').isVisible()).resolves.toBe(true);
            await workbench.screenshot(page, outputDir, `odds-campaign-${width}.png`);
        }
        await page.setViewportSize({ width: 1400, height: 1000 });
        await panel().locator('select[data-through]').selectOption('1');
        await panel().locator('h2', { hasText: 'Campaign at the end of turn 1' }).waitFor({ timeout: 60000 });
        await workbench.screenshot(page, outputDir, 'odds-campaign-through-1.png');
    }, 400000);

    it('answers a what-if over the campaign in the Campaign tab, with another file\'s house rules, as the CLI does, whole at 1400, 900 and 640 px', async () => {
        await page.setViewportSize({ width: 1400, height: 1000 });
        await workbench.openFromExplorer(page, 'campaign.battle');
        await workbench.lens(page, 'Odds').first().click({ timeout: 60000 });
        const campaignTab = panel().getByRole('tab', { name: 'Campaign' });
        await campaignTab.waitFor({ timeout: 60000 });
        if (await campaignTab.getAttribute('aria-selected') !== 'true') await campaignTab.click();
        await panel().locator('select[data-through]').selectOption('');
        await panel().locator('h2', { hasText: 'Campaign at the end of the file' }).waitFor({ timeout: 120000 });
        // A narrow panel earlier may have left the box folded (the page keeps it as last left): it is opened
        // before the engagement is picked and again on the page that picking draws anew; asked again until the
        // page shows Ford picked, as a page still being drawn may come folded after a click.
        const whatIfBox = panel().locator('details.campaign-whatif');
        const openWhatIfBox = async () => {
            if (await whatIfBox.getAttribute('open') === null) await whatIfBox.locator('summary').click({ timeout: 5000 }).catch(() => undefined);
        };
        const fordPicked = panel().locator('select[data-campaign-engagement] option[value="Ford"][selected]');
        await expect.poll(async () => {
            await openWhatIfBox();
            if (await fordPicked.count() === 0) await panel().locator('select[data-campaign-engagement]').selectOption('Ford', { timeout: 5000 }).catch(() => undefined);
            return fordPicked.count();
        }, { timeout: 90000, interval: 1000 }).toBe(1);
        await expect.poll(async () => {
            await openWhatIfBox();
            return whatIfBox.getAttribute('open');
        }, { timeout: 60000, interval: 500 }).not.toBeNull();
        const change = 'without fact charged on Gauls.Warriors';
        const box = panel().locator(`input[data-whatif="${change}"]`);
        await box.waitFor({ timeout: 60000 });
        await box.check();
        const heading = panel().locator('.whatif-change h3', { hasText: `Change: what if ${change}, minus as written` });
        await heading.waitFor({ timeout: 120000 });
        const cli = (args: string[]) => {
            const r = spawnSync(process.execPath, [path.join(repoRoot, 'bin', 'umpire.cjs'), 'odds', path.join(workspace, 'campaign.battle'), '--campaign', '--json', ...args], { encoding: 'utf8' });
            expect(r.status, r.stderr).toBe(0);
            return JSON.parse(r.stdout) as { after: { units: Array<{ id: string, status: Record<string, number> }> }, difference: { units: Array<{ id: string, status: Record<string, number> }>, sides: Array<{ force: string, atLeastOne: Record<string, number> }> } };
        };
        const points = (d: number) => `${d > 0 ? '+' : '−'}${Math.abs(100 * d) < 0.05 ? '<0.1' : Math.abs(100 * d).toFixed(1)} pp`;
        /** The change table's cell of `row` under `column`, and the unit's figures as written → changed. */
        const shows = async (printed: ReturnType<typeof cli>) => {
            const unit = printed.difference.units.find(u => u.id === 'Successors.Thureophoroi')!;
            const side = printed.difference.sides.find(s => s.force === 'Successors')!;
            await expect(panel().locator('table.change tr', { hasText: 'Successors.Thureophoroi' }).locator('td[data-label="destroyed"]').textContent()).resolves.toBe(points(unit.status.destroyed));
            await expect(panel().locator('table.change tr', { hasText: /^Successors[^.]/ }).locator('td[data-label="P(≥1 destroyed)"]').textContent()).resolves.toBe(points(side.atLeastOne.destroyed));
            const after = printed.after.units.find(u => u.id === 'Successors.Thureophoroi')!;
            await expect(panel().locator('table.campaign tr', { hasText: 'Thureophoroi' }).locator('.figures').textContent()).resolves.toContain(`→ ${(100 * after.status.destroyed).toFixed(1)}% (${points(unit.status.destroyed)})`);
        };
        await shows(cli(['-e', 'Ford', '--what-if', change]));
        for (const width of [1400, 900, 640]) {
            await page.setViewportSize({ width, height: 1000 });
            await page.waitForTimeout(600);
            expect(await labelsOutsideTheirRows(), `the Campaign what-if at ${width} px`).toEqual([]);
            await expect(panel().locator('.page-head .legend').isVisible()).resolves.toBe(true);
            await workbench.screenshot(page, outputDir, `odds-campaign-what-if-${width}.png`);
        }
        await page.setViewportSize({ width: 1400, height: 1000 });
        // Another file's house rules, with the what-if still on.
        await panel().locator('select[data-campaign-house]').selectOption({ label: 'house-rules-ancients.battle' });
        await panel().locator('.whatif-change h3', { hasText: `Change: with the house rules of house-rules-ancients.battle; what if ${change}` }).waitFor({ timeout: 120000 });
        await shows(cli(['-e', 'Ford', '--what-if', change, '--house', path.join(workspace, 'house-rules-ancients.battle')]));
        await page.waitForTimeout(400);
        await workbench.screenshot(page, outputDir, 'odds-campaign-house-1400.png');
        // A change whose set-up has an error: told at the line of the file on disk where the what-if puts it.
        await panel().getByRole('button', { name: 'Clear what-ifs' }).click();
        await panel().locator('.whatif-change').waitFor({ state: 'detached', timeout: 120000 });
        await panel().locator('select[data-campaign-engagement]').selectOption('Pass');
        await panel().locator('select[data-campaign-engagement] option[value="Pass"][selected]').waitFor({ state: 'attached', timeout: 60000 });
        const other = panel().locator('input[data-whatif-other]');
        await other.fill('with fact charged on Gauls.Nobody');
        await panel().getByRole('button', { name: 'Apply' }).click();
        const problem = panel().locator('.whatif-problem');
        await problem.waitFor({ timeout: 120000 });
        const r = spawnSync(process.execPath, [path.join(repoRoot, 'bin', 'umpire.cjs'), 'odds', path.join(workspace, 'campaign.battle'), '--campaign', '-e', 'Pass', '--what-if', 'with fact charged on Gauls.Nobody'], { encoding: 'utf8' });
        const [, line, column] = /campaign\.battle:(\d+):(\d+) error/.exec(r.stderr)!;
        await expect(problem.textContent()).resolves.toContain(`line ${line}, column ${column} (in what 'with fact charged on Gauls.Nobody' puts there): This force has no unit named 'Nobody'.`);
        await workbench.screenshot(page, outputDir, 'odds-campaign-what-if-error.png');
        await panel().getByRole('button', { name: 'Clear what-ifs' }).click();
        await problem.waitFor({ state: 'detached', timeout: 120000 });
    }, 400000);

    it("shows a turn's campaign odds in its hover, whose link opens the Campaign tab through that turn", async () => {
        await page.setViewportSize({ width: 1400, height: 1000 });
        await workbench.openFromExplorer(page, 'campaign.battle');
        const turn = page.locator('.editor-group-container.active .view-line', { hasText: 'turn 2 "The pass"' }).first();
        const hover = page.locator('.monaco-hover', { hasText: 'Campaign odds at the end of this turn' });
        await waitFor('the hover of turn 2', async () => {
            await turn.locator('span').first().hover();
            return hover.isVisible().catch(() => false);
        }, v => v, 120000);
        await workbench.screenshot(page, outputDir, 'odds-campaign-hover.png');
        await hover.getByRole('link', { name: "Show the campaign's odds through turn 2" }).click();
        await panel().locator('h2', { hasText: 'Campaign at the end of turn 2' }).waitFor({ timeout: 120000 });
    }, 400000);
});
