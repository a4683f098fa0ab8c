/**
 * Driving the VS Code workbench that code-server serves, in Debian's Chromium through playwright-core:
 * starting and stopping the browser, opening a file from the Explorer, reading the editor's text,
 * finding a code lens. Shared by the tests that run umpire.vsix in code-server (the Node extension
 * host in editor.e2e.test.ts, the web-worker extension host in web-extension.e2e.test.ts).
 */
import * as path from 'node:path';
import { chromium, type Browser, type BrowserServer, type Locator, type Page } from 'playwright-core';
import { recordPid, stopProcessGroup } from './processes.js';

export interface StartedChromium {
    server: BrowserServer;
    browser: Browser;
}

/** Debian's Chromium, headless, in its own process group (recorded for scripts/e2e/e2e-run.mjs). */
export async function startChromium(): Promise<StartedChromium> {
    const server = await chromium.launchServer({
        executablePath: '/usr/bin/chromium',
        headless: true,
        args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update',
            '--disable-sync', '--no-first-run']
    });
    recordPid(server.process().pid, 'chromium');
    return { server, browser: await chromium.connect(server.wsEndpoint()) };
}

export async function stopChromium(started: StartedChromium | undefined): Promise<void> {
    if (!started) return;
    await started.browser.close().catch(() => undefined);
    const pid = started.server.process().pid;
    await started.server.close().catch(() => undefined);
    await stopProcessGroup(pid);
}

/** Opens the workbench on `folder` and waits for its Explorer. */
export async function openWorkbench(page: Page, url: string, folder: string): Promise<void> {
    await page.goto(`${url}/?folder=${encodeURIComponent(folder)}`);
    await page.locator('.monaco-workbench .explorer-folders-view').waitFor({ timeout: 90000 });
}

/** Opens a file by clicking its row in the Explorer, as an umpire would. */
export async function openFromExplorer(page: Page, name: string): Promise<void> {
    const row = page.locator('.explorer-folders-view .monaco-list-row')
        .filter({ has: page.locator('.label-name', { hasText: new RegExp(`^${name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`) }) });
    await row.click({ timeout: 30000 });
    await page.locator('.tabs-container .tab.active', { hasText: name }).waitFor({ timeout: 30000 });
}

/** The active editor's visible text, line by line, top to bottom (Monaco renders spaces as U+00A0). */
export async function editorText(page: Page): Promise<string> {
    // A string, evaluated in the page: this project's TypeScript has no DOM types.
    return page.evaluate(`[...document.querySelectorAll('.editor-group-container.active .monaco-editor .view-lines .view-line')]
        .map(el => ({ top: parseFloat(el.style.top || '0'), text: (el.textContent || '').replace(/\\u00a0/g, ' ') }))
        .sort((a, b) => a.top - b.top)
        .map(l => l.text)
        .join('\\n')`);
}

/** A code lens of the active editor, by its exact title. */
export function lens(page: Page, title: string): Locator {
    return page.locator('.editor-group-container.active .codelens-decoration a', { hasText: new RegExp(`^${title}$`) });
}

/** Polls `probe` until `ok` holds; the error names what was awaited and shows what was last seen. */
export async function waitFor<T>(what: string, probe: () => Promise<T> | T, ok: (value: T) => boolean, timeoutMs = 30000): Promise<T> {
    const deadline = Date.now() + timeoutMs;
    let last: T = await probe();
    while (!ok(last)) {
        if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}; last seen:\n${String(last)}`);
        await new Promise(r => setTimeout(r, 250));
        last = await probe();
    }
    return last;
}

export async function screenshot(page: Page, outputDir: string, name: string): Promise<void> {
    await page.screenshot({ path: path.join(outputDir, name) });
}
