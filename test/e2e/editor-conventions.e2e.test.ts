/**
 * The editor conventions in the real editor: umpire.vsix in code-server 4.100.3, driven in
 * Chromium. The inlay hints (the state first, the unit before each die); the language status item
 * (rule set, engagements resolved / unresolved / stale) read from the status bar's `{}`; Resolve at
 * the cursor by its keybinding; Odds at the cursor from the editor's context menu; the campaign state
 * rendered in the Markdown preview; the walkthrough. Each step leaves a screenshot in
 * test-output/e2e/ (conventions-*.png). Run by `npm run test:e2e`.
 */
import { type FrameLocator, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as workbench from './workbench.js';
import { CodeServerSession, copyExamples, outputDir, waitFor } from './workbench.js';

// The worked example's result, as the SCRUD seed (docs/rules/scrud.md) states it.
const SEED_SUMMARY = 'Defender foot: 3 stand-off, 1 recoil, 2 retire · Attacker horse: 1 recoil, 1 retire';

const session = new CodeServerSession({ name: 'conventions', prepare: workspace => copyExamples(workspace, ['scrud-seed.battle', 'campaign.battle']) });
let page: Page;

beforeAll(async () => {
    page = await session.start();
}, 300000);

afterAll(() => session.stop(), 60000);

const editorText = () => workbench.editorText(page);
const screenshot = (name: string) => workbench.screenshot(page, outputDir, name);

/** Puts the cursor at the start of the first visible line holding `text`, by clicking it. */
async function clickLine(text: string, button: 'left' | 'right' = 'left'): Promise<void> {
    await page.locator('.editor-group-container.active .monaco-editor .view-line', { hasText: text }).first().click({ button, position: { x: 40, y: 5 } });
}


/**
 * The hover of the status bar's `{}` (the language status), opened afresh, and its text: the item's
 * text (the rule set), its detail (the counts) and its command link.
 */
async function languageStatusText(): Promise<string> {
    await page.keyboard.press('Escape');
    await page.mouse.move(700, 5);
    const item = page.locator('.statusbar-item[id="status.languageStatus"]');
    await item.waitFor({ timeout: 30000 });
    const detail = page.getByText(/\d+ resolved, \d+ unresolved, \d+ stale|no engagements yet|checking/).first();
    await item.hover();
    try {
        await detail.waitFor({ timeout: 5000 });
    } catch {
        await item.click();
        await detail.waitFor({ timeout: 10000 });
    }
    const hover = detail.locator('xpath=ancestor::*[contains(@class, "hover")][1]');
    return (await hover.count()) > 0 ? hover.innerText() : detail.innerText();
}

describe('the editor conventions in code-server 4.100.3', () => {
    it('shows the rule set and the unresolved engagement in the language status', async () => {
        await workbench.openFromExplorer(page, 'scrud-seed.battle');
        await workbench.lens(page, 'Resolve').waitFor({ timeout: 60000 });
        const text = await waitFor('the SCRUD status with its counts', languageStatusText, t => /1 action: 0 resolved, 1 unresolved, 0 stale/.test(t), 60000);
        expect(text).toContain('SCRUD');
        expect(text).toContain('Resolve all');
        await screenshot('conventions-01-language-status.png');
        await page.keyboard.press('Escape');
    });

    it('shows short inlay hints: the state first at the header, the unit before each die, the details on hover', async () => {
        // The hints are part of the rendered lines; VS Code cuts one at 43 characters, after the state word.
        const text = await waitFor('the inlay hints', editorText, t => /engagement Example \{\s*not written — Defender foot: 3 stand-off/.test(t)
            && /dice Attacker foot\s*Guard:\s*4\s*Line#1:\s*4\s*#2:\s*2\s*Fusiliers#1:\s*6\s*#2:\s*1/.test(t), 60000);
        expect(text).toMatch(/dice Defender horse\s*Dragoons#1:\s*3\s*#2:\s*5/);
        await screenshot('conventions-00-inlay-hints.png');
        // The die's details are in the hint's tooltip.
        await page.locator('.editor-group-container.active .view-line span', { hasText: /^Guard:/ }).first().hover();
        await page.locator('.monaco-hover', { hasText: 'Attacker.Guard: die 4, mod +2, adjusted 6 → stand-off vs Defender.Grenz#1' }).waitFor({ timeout: 15000 });
        await screenshot('conventions-00-inlay-hint-tooltip.png');
        await page.mouse.move(700, 5);
    });

    it('resolves the engagement at the cursor with Ctrl+Alt+R, and the status counts it', async () => {
        await clickLine('dice Attacker horse');
        await page.keyboard.press('Control+Alt+R');
        const text = await waitFor('the outcome block in the editor', editorText, t => t.includes(`summary "${SEED_SUMMARY}"`));
        expect(text).toMatch(/\n {2}outcome entered check "[0-9a-f]{8}" \{\n/);
        const status = await waitFor('the status to count it resolved', languageStatusText, t => /1 action: 1 resolved, 0 unresolved, 0 stale/.test(t), 30000);
        expect(status).toContain('Campaign state');
        // A screen reader hears the rule set and the counts in one sentence.
        await expect(page.locator('[aria-label*="1 action: 1 resolved, 0 unresolved, 0 stale"]').first().getAttribute('aria-label'))
            .resolves.toContain('Umpire: SCRUD, 1 action: 1 resolved, 0 unresolved, 0 stale');
        await screenshot('conventions-02-resolved-at-cursor.png');
        await page.keyboard.press('Escape');
    });

    it('says where to put the cursor when it is outside every engagement', async () => {
        await clickLine('force Defender');
        await page.keyboard.press('Control+Alt+R');
        await page.locator('.notifications-toasts', { hasText: 'not inside an engagement' }).waitFor({ timeout: 30000 });
        await page.locator('.notifications-toasts .codicon-notifications-clear').first().click().catch(() => undefined);
    });

    it('opens the Odds panel of the engagement at the cursor from the editor\'s context menu', async () => {
        await clickLine('dice Defender foot', 'right');
        const menuItem = page.locator('.context-view .action-item', { hasText: 'Show odds at cursor' });
        await menuItem.waitFor({ timeout: 15000 });
        expect(await page.locator('.context-view .action-item', { hasText: 'Resolve engagement at cursor' }).count()).toBe(1);
        await screenshot('conventions-03-context-menu.png');
        await menuItem.click();
        await page.locator('.tabs-container .tab', { hasText: 'Odds: Example' }).waitFor({ timeout: 30000 });
        const frame: FrameLocator = page.frameLocator('iframe.webview.ready').frameLocator('iframe');
        await frame.locator('body', { hasText: 'Defender' }).waitFor({ timeout: 30000 });
        await screenshot('conventions-04-odds-at-cursor.png');
    });

    it('shows the campaign state rendered in the Markdown preview, not an unsaved document', async () => {
        await workbench.openFromExplorer(page, 'campaign.battle');
        await workbench.lens(page, 'Resolve').first().waitFor({ timeout: 60000 });
        const dirtyBefore = await page.locator('.tabs-container .tab.dirty').count();
        await workbench.runCommand(page, 'Umpire: Show campaign state');
        const input = page.locator('.quick-input-widget input');
        await input.waitFor({ timeout: 15000 });
        await input.press('Enter');
        await page.locator('.tabs-container .tab', { hasText: 'Campaign state of campaign' }).waitFor({ timeout: 30000 });
        const preview = page.frameLocator('iframe.webview.ready').frameLocator('iframe');
        await preview.locator('table').first().waitFor({ timeout: 30000 });
        expect(await preview.locator('table tbody tr').count()).toBeGreaterThan(0);
        // No new unsaved document that would ask to be saved (scrud-seed.battle holds its Resolve, unsaved).
        expect(await page.locator('.tabs-container .tab.dirty').count()).toBe(dirtyBefore);
        await screenshot('conventions-05-campaign-state.png');
    });

    it('opens the walkthrough from the Welcome page', async () => {
        await workbench.runCommand(page, 'Welcome: Open Walkthrough...');
        const row = page.locator('.quick-input-widget .monaco-list-row', { hasText: 'Umpiring with Umpire' }).first();
        await row.waitFor({ timeout: 15000 });
        await row.click();
        const steps = page.locator('.gettingStartedContainer .getting-started-step');
        await steps.first().waitFor({ timeout: 30000 });
        // The walkthrough's page beside each step shows only when the editor is wide enough.
        await workbench.runCommand(page, 'View: Toggle Maximize Editor Group');
        // The step's page (media/walkthrough/new-scenario.md) is rendered in a webview beside the steps.
        const media = page.frameLocator('.getting-started-media iframe.webview.ready').frameLocator('iframe');
        await media.locator('h1', { hasText: 'Start a scenario' }).waitFor({ timeout: 30000 });
        const titles = await page.locator('.gettingStartedContainer .getting-started-step .step-title').allInnerTexts();
        expect(titles.map(t => t.trim())).toEqual(['Start a scenario', 'Resolve an engagement', 'See the odds', 'Follow the campaign']);
        await screenshot('conventions-06-walkthrough.png');
    });
});
