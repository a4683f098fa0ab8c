/**
 * The campaign state as a person sees it in the real editor: umpire.vsix in code-server 4.100.3,
 * driven in Debian's Chromium. "Umpire: Show campaign state" on examples/campaign.battle renders the
 * state table in VS Code's Markdown preview beside the file; at 1400, 900 and 640 px neither the preview
 * nor the table scrolls sideways, no cell is cut and the rows are even (one line a row where the table
 * fits, a card a unit, all as tall, where it does not). Screenshots:
 * test-output/e2e/campaign-state-*.png. Run by `npm run test:e2e` (scripts/e2e/e2e-run.mjs).
 */
import type { FrameLocator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as workbench from './workbench.js';
import { CodeServerSession, copyExamples, outputDir } from './workbench.js';
import { labelsOutOfPlace } from './label-boxes.js';

const session = new CodeServerSession({ name: 'campaign-state', prepare: workspace => copyExamples(workspace, ['campaign.battle', 'loose-files-turn.battle']) });
let page: Page;

beforeAll(async () => {
    page = await session.start();
}, 300000);

afterAll(() => session.stop(), 60000);


/** The Markdown preview's page (a webview: a frame in a frame). */
const preview = (): FrameLocator => page.frameLocator('iframe.webview.ready').frameLocator('iframe');

describe('the campaign state in code-server 4.100.3', () => {
    for (const [file, tab] of [['campaign.battle', 'Campaign state of campaign'], ['loose-files-turn.battle', 'Campaign state of loose-files-turn']] as const) {
        it(`shows ${file}'s state whole, its rows even, at 1400, 900 and 640 px`, async () => {
            await page.setViewportSize({ width: 1400, height: 1000 });
            await workbench.openFromExplorer(page, file);
            await workbench.lens(page, 'Odds').first().waitFor({ timeout: 60000 });
            await workbench.runCommand(page, 'Umpire: Show campaign state');
            const input = page.locator('.quick-input-widget input');
            await input.waitFor({ timeout: 15000 });
            // The state at the end of the file (the first choice).
            await input.press('Enter');
            await page.locator('.tabs-container .tab', { hasText: tab }).waitFor({ timeout: 30000 });
            await preview().locator('table tbody tr').first().waitFor({ timeout: 30000 });
            for (const width of [1400, 900, 640]) {
                await page.setViewportSize({ width, height: 1000 });
                await page.waitForTimeout(500);
                expect(await labelsOutOfPlace(preview().locator('body'), { evenRows: true }), `${file} at ${width} px`).toEqual([]);
                if (width !== 900) await workbench.screenshot(page, outputDir, `campaign-state-${file.replace('.battle', '')}-${width}.png`);
            }
            await page.setViewportSize({ width: 1400, height: 1000 });
            await page.keyboard.press('Control+K');
            await page.keyboard.press('W');
        });
    }
});
