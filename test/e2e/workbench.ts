/**
 * Driving the VS Code workbench that code-server serves, in Debian's Chromium through playwright-core:
 * one session (umpire.vsix installed into a throw-away code-server, Chromium on its workbench, all
 * stopped by pid afterwards: `CodeServerSession`), opening a file from the Explorer, reading the
 * editor's text, finding a code lens. Shared by the tests that run umpire.vsix in code-server (the Node
 * extension host in editor, editor-conventions, odds-view and odds-what-if; the web-worker extension
 * host in web-extension.e2e.test.ts).
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser, type BrowserServer, type FrameLocator, type Locator, type Page } from 'playwright-core';
import {
    freePort, installExtension, processesMentioning, recordPid, startCodeServer, stopProcessGroup, writeUserSettings, type StartedCodeServer
} from './processes.js';

export const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
/** Where the screenshots and code-server's logs go. */
export const outputDir = path.join(repoRoot, 'test-output', 'e2e');

/** An environment variable that `npm run test:e2e` (scripts/e2e/e2e-run.mjs) sets. */
function required(name: string): string {
    const value = process.env[name];
    if (!value) throw new Error(`${name} is not set: run this test with 'npm run test:e2e'`);
    return value;
}

/** Copies examples/NAME for each name into `workspace`. */
export function copyExamples(workspace: string, names: readonly string[]): void {
    for (const name of names) fs.copyFileSync(path.join(repoRoot, 'examples', name), path.join(workspace, name));
}

export interface SessionOptions {
    /** Names the temp folder (`umpire-e2e-NAME-…`) and code-server's log (`code-server-NAME.log`). */
    readonly name: string;
    /** Fills the (empty) workspace folder before code-server opens it. */
    readonly prepare: (workspace: string) => void;
    /** Lets the page read the clipboard back, as a paste would. */
    readonly clipboard?: boolean;
    /** User settings beside the quiet defaults of `writeUserSettings`. */
    readonly settings?: Record<string, unknown>;
}

/**
 * umpire.vsix in code-server, driven in Chromium: `start` installs the .vsix into a throw-away
 * extensions folder, starts code-server on a free port and Chromium, and opens the workbench on the
 * workspace folder; `stop` stops both by pid (the whole process groups) and fails when anything
 * started from the temp folder (the extension host, the language server) outlives them.
 */
export class CodeServerSession {
    /** The temp folder holding the workspace, the user data and the extensions. */
    tmp = '';
    /** The folder code-server opened. */
    workspace = '';
    page!: Page;
    private codeServer: StartedCodeServer | undefined;
    private chromium: StartedChromium | undefined;

    constructor(private readonly options: SessionOptions) {}

    async start(): Promise<Page> {
        const entry = required('UMPIRE_E2E_CODE_SERVER');
        const vsix = required('UMPIRE_E2E_VSIX');
        fs.mkdirSync(outputDir, { recursive: true });
        this.tmp = fs.mkdtempSync(path.join(os.tmpdir(), `umpire-e2e-${this.options.name}-`));
        this.workspace = path.join(this.tmp, 'battles');
        fs.mkdirSync(this.workspace);
        this.options.prepare(this.workspace);
        const dirs = { userDataDir: path.join(this.tmp, 'user-data'), extensionsDir: path.join(this.tmp, 'extensions') };
        writeUserSettings(dirs.userDataDir, this.options.settings);
        const installLog = installExtension(entry, vsix, dirs);
        if (!/was successfully installed/.test(installLog)) throw new Error(`installing ${vsix} said:\n${installLog}`);
        if (!fs.readdirSync(dirs.extensionsDir).some(d => /^umpire-dev\.umpire-\d/.test(d))) {
            throw new Error(`umpire is not in ${dirs.extensionsDir} after installing ${vsix}`);
        }
        this.codeServer = await startCodeServer(entry, await freePort(), dirs, this.workspace, path.join(outputDir, `code-server-${this.options.name}.log`));
        this.chromium = await startChromium();
        const context = await this.chromium.browser.newContext({ viewport: { width: 1400, height: 1000 } });
        if (this.options.clipboard) await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: this.codeServer.url });
        this.page = await context.newPage();
        await openWorkbench(this.page, this.codeServer.url, this.workspace);
        return this.page;
    }

    /** Stops whatever `start` got to start, even when it failed half-way. */
    async stop(): Promise<void> {
        await stopChromium(this.chromium);
        await stopProcessGroup(this.codeServer?.child);
        // Nothing started from the temp folder (extension host, the language server from the
        // installed .vsix) may outlive the test.
        const leftovers = this.tmp ? processesMentioning(this.tmp) : [];
        for (const pid of leftovers) await stopProcessGroup(pid, 1000);
        if (this.tmp) fs.rmSync(this.tmp, { recursive: true, force: true });
        if (leftovers.length > 0) throw new Error(`processes left running after code-server was stopped: ${leftovers.join(', ')}`);
    }
}

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
    // The first: a file may be open in two editor groups (the Odds panel's group opens files too).
    const tab = page.locator('.tabs-container .tab.active', { hasText: name }).first();
    // A click that lands while the workbench is taking focus back (from a webview or a dialog just closed) only
    // selects the row: the umpire would click again, and so does this.
    for (let attempt = 1; ; attempt++) {
        await row.click({ timeout: 30000 });
        try {
            await tab.waitFor({ timeout: attempt < 3 ? 10000 : 30000 });
            return;
        } catch (error) {
            if (attempt === 3) throw error;
            await page.keyboard.press('Escape');
        }
    }
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

/**
 * Whether the palette has left the typed command within 10 s: closed, or showing the command's own
 * pick (a command such as "Welcome: Open Walkthrough..." asks which one in the same widget).
 */
async function paletteLeft(widget: Locator, typed: string): Promise<boolean> {
    const input = widget.locator('input');
    for (const end = Date.now() + 10000; Date.now() < end; await widget.page().waitForTimeout(100)) {
        if (!(await widget.isVisible())) return true;
        const value = await input.inputValue({ timeout: 1000 }).catch(() => typed);
        if (value !== typed) return true;
    }
    return false;
}

/**
 * Runs a command from the palette by its title, as an umpire would: typed, then Enter on the row it
 * selects. The palette may not open, or close again (a page such as the walkthrough takes the focus
 * while it lays itself out), while the workbench is still starting: opening it, typing, finding the
 * row selected and pressing Enter are retried together, for up to 90 s. The palette leaving the typed
 * command after Enter is what says the command ran.
 */
export async function runCommand(page: Page, title: string): Promise<void> {
    const widget = page.locator('.quick-input-widget');
    const input = widget.locator('input');
    const selected = widget.locator('.monaco-list-row.focused', { hasText: title });
    const deadline = Date.now() + 90000;
    for (;;) {
        try {
            await page.keyboard.press('F1');
            await input.waitFor({ timeout: 15000 });
            await input.fill(`>${title}`, { timeout: 10000 });
            await selected.waitFor({ timeout: 10000 });
            await input.press('Enter', { timeout: 5000 });
            if (await paletteLeft(widget, `>${title}`)) return;
            throw new Error(`the palette still offers "${title}" after Enter`);
        } catch (err) {
            if (Date.now() > deadline) throw err;
            await page.keyboard.press('Escape');
            await page.waitForTimeout(2000);
        }
    }
}

/**
 * The Odds panel's page (VS Code puts a webview's page in a frame inside a frame), its buttons, and the
 * workbench's notifications; `page` is read when a locator is made, after the session has started.
 */
export function oddsPanelOf(page: () => Page) {
    const panel = (): FrameLocator => page().frameLocator('iframe.webview.ready').frameLocator('#active-frame');
    return {
        panel,
        button: (name: string) => panel().getByRole('button', { name, exact: true }),
        notification: (text: string | RegExp) => page().locator('.notification-toast .notification-list-item-message', { hasText: text })
    };
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

/** A line as the editor draws it: its text (hints included) and each run of text in one colour. */
export interface DrawnLine {
    readonly text: string;
    readonly spans: ReadonlyArray<{ readonly text: string, readonly color: string, readonly bold: boolean }>;
}

/**
 * The lines of the Monaco editor inside `editorSelector`, top to bottom (the first one on screen
 * first), each with its coloured runs: what the page really shows of the semantic colours and the
 * inlay hints. Monaco renders spaces as U+00A0; they are given back as spaces.
 */
export function drawnLines(page: Page, editorSelector: string): Promise<DrawnLine[]> {
    return page.evaluate(`[...document.querySelectorAll(${JSON.stringify(`${editorSelector} .view-lines .view-line`)})]
        .map(el => ({ top: parseFloat(el.style.top || '0'), el }))
        .sort((a, b) => a.top - b.top)
        .map(({ el }) => ({
            text: (el.textContent || '').replace(/\\u00a0/g, ' '),
            spans: [...el.querySelectorAll('span')].filter(s => s.children.length === 0).map(s => ({
                text: (s.textContent || '').replace(/\\u00a0/g, ' '),
                color: getComputedStyle(s).color,
                bold: Number(getComputedStyle(s).fontWeight) >= 600 || getComputedStyle(s).fontWeight === 'bold'
            }))
        }))`) as Promise<DrawnLine[]>;
}

/** The lines (0-based, of those on screen from the top) that have a folding control in the gutter. */
export function foldingControlLines(page: Page, editorSelector: string): Promise<number[]> {
    return page.evaluate(`[...document.querySelectorAll(${JSON.stringify(`${editorSelector} .margin-view-overlays > div`)})]
        .map(el => ({ top: parseFloat(el.style.top || '0'), fold: el.querySelector('.codicon-folding-expanded, .codicon-folding-collapsed') !== null }))
        .sort((a, b) => a.top - b.top)
        .map((line, index) => line.fold ? index : -1)
        .filter(index => index >= 0)`) as Promise<number[]>;
}

/**
 * Records every notification the workbench shows (its toasts come and go): call before the page
 * loads; `shownNotifications` reads them back.
 */
export async function recordNotifications(page: Page): Promise<void> {
    await page.addInitScript(`(() => {
        const seen = window.__umpireNotifications = [];
        const note = root => {
            for (const el of root.querySelectorAll ? root.querySelectorAll('.notification-list-item-message') : []) {
                const text = (el.textContent || '').trim();
                if (text && !seen.includes(text)) seen.push(text);
            }
        };
        new MutationObserver(changes => changes.forEach(c => { note(c.target); c.addedNodes.forEach(n => n.nodeType === 1 && note(n)); }))
            .observe(document, { childList: true, subtree: true, characterData: true });
    })()`);
}

export function shownNotifications(page: Page): Promise<string[]> {
    return page.evaluate('window.__umpireNotifications || []') as Promise<string[]>;
}
