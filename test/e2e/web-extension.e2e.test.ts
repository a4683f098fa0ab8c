/**
 * The web extension (package.json's `browser` entry) in the real editor's web-worker extension host:
 * umpire.vsix is installed into the browser side of code-server 4.100.3 (VS Code 1.100.3), the way
 * vscode.dev installs a web extension: from an http location, with "Developer: Install Extension from
 * Location...". Nothing of Umpire is installed on the code-server side, so no Node extension host can
 * run it: the client runs in the browser's extension-host worker and starts the language server in a
 * nested worker (out/language/main-browser.js). Run by `npm run test:e2e`.
 *
 * Why not the .vsix installed on the code-server side (as editor.e2e.test.ts does) with the user setting
 * `"remote.extensionKind": { "umpire-dev.umpire": ["web"] }`? VS Code 1.100 then does run the extension
 * in the web-worker host, but the extension's files have `vscode-remote:` addresses there, and that
 * host refuses to start a worker from one: activation fails with "Creating workers from remote
 * extensions is currently not supported."
 */
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as http from 'node:http';
import * as os from 'node:os';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
    freePort, installExtension, processesMentioning, startCodeServer, stopProcessGroup, writeUserSettings, type StartedCodeServer
} from './processes.js';
import * as workbench from './workbench.js';
import {
    drawnLines, foldingControlLines, oddsPanelOf, openWorkbench, recordNotifications, shownNotifications, startChromium, stopChromium, waitFor,
    type StartedChromium
} from './workbench.js';
import { missingHints, serverAnswers, uncolouredTokens, type ServerAnswers } from './server-answers.js';
import { percent } from '../../src/extension/odds-html.js';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const outputDir = path.join(repoRoot, 'test-output', 'e2e');
// The worked example's result, as the SCRUD rules state it (docs/rules/scrud.md).
const SEED_RESULT = 'Defender foot: 3 stand-off, 1 recoil, 2 retire';

/** What the CLI (the same checks, in Node) prints for an example. */
function cli(...args: string[]): string {
    const r = spawnSync(process.execPath, [path.join(repoRoot, 'out', 'cli', 'main.cjs'), ...args], { cwd: repoRoot, encoding: 'utf8' });
    if (r.stdout === '') throw new Error(`umpire ${args.join(' ')} printed nothing: ${r.stderr}`);
    return r.stdout;
}

function required(name: string): string {
    const value = process.env[name];
    if (!value) throw new Error(`${name} is not set: run this test with 'npm run test:e2e'`);
    return value;
}

/**
 * Serves the unpacked extension folder over http, as a gallery serves a web extension's files to
 * vscode.dev: another origin than the workbench's, hence the CORS header. Notes every path asked for.
 */
function serveExtension(root: string, port: number): Promise<{ server: http.Server, requested: string[] }> {
    const requested: string[] = [];
    const server = http.createServer((req, res) => {
        const pathname = decodeURIComponent(new URL(req.url ?? '/', 'http://localhost').pathname);
        requested.push(pathname);
        const file = path.normalize(path.join(root, pathname));
        const headers = { 'Access-Control-Allow-Origin': '*' };
        if (!file.startsWith(root + path.sep) || !fs.existsSync(file) || !fs.statSync(file).isFile()) {
            res.writeHead(404, headers).end();
            return;
        }
        const type = file.endsWith('.js') || file.endsWith('.cjs') ? 'text/javascript' : file.endsWith('.json') ? 'application/json' : 'application/octet-stream';
        res.writeHead(200, { ...headers, 'Content-Type': type }).end(fs.readFileSync(file));
    });
    return new Promise(resolve => server.listen(port, '127.0.0.1', () => resolve({ server, requested })));
}

let tmp: string;
let workspace: string;
let codeServer: StartedCodeServer | undefined;
let chromium: StartedChromium | undefined;
let extensionServer: http.Server | undefined;
let requested: string[] = [];
let extensionUrl = '';
let page: Page;
const consoleLines: string[] = [];
const consoleErrors: Array<{ text: string, url: string }> = [];

beforeAll(async () => {
    const entry = required('UMPIRE_E2E_CODE_SERVER');
    const vsix = required('UMPIRE_E2E_VSIX');
    fs.mkdirSync(outputDir, { recursive: true });
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'umpire-e2e-web-'));
    workspace = path.join(tmp, 'battles');
    fs.cpSync(path.join(repoRoot, 'examples'), workspace, { recursive: true });
    // code-server unpacks the .vsix into a folder of its own; that folder is what gets served, and
    // code-server itself is started with another, empty extensions folder.
    const unpacked = path.join(tmp, 'unpacked');
    installExtension(entry, vsix, { userDataDir: path.join(tmp, 'unpack-user-data'), extensionsDir: unpacked });
    const folder = fs.readdirSync(unpacked).find(name => /^umpire-dev\.umpire-\d/.test(name));
    if (!folder) throw new Error(`--install-extension left no umpire-dev.umpire-* folder in ${unpacked}`);
    const port = await freePort();
    ({ server: extensionServer, requested } = await serveExtension(path.join(unpacked, folder), port));

    const dirs = { userDataDir: path.join(tmp, 'user-data'), extensionsDir: path.join(tmp, 'extensions') };
    // The folding controls drawn at all times, not only under the mouse: the test reads them.
    writeUserSettings(dirs.userDataDir, { 'editor.showFoldingControls': 'always' });
    codeServer = await startCodeServer(entry, await freePort(), dirs, workspace, path.join(outputDir, 'web-extension-code-server.log'));
    // Through code-server's own port proxy: the workbench may only fetch from its own origin or https
    // (connect-src 'self' ws: wss: https:), and the extension host's worker may only import scripts from
    // there, https or http://localhost (script-src), so a plain http://127.0.0.1:port/ is refused.
    extensionUrl = `${codeServer.url}/proxy/${port}/`;
    chromium = await startChromium();
    page = await chromium.browser.newPage({ viewport: { width: 1400, height: 1000 } });
    page.on('console', message => consoleLines.push(`[${message.type()}] ${message.text()}`));
    page.on('console', message => { if (message.type() === 'error') consoleErrors.push({ text: message.text(), url: message.location().url }); });
    page.on('pageerror', error => {
        consoleLines.push(`[pageerror] ${error.message}`);
        consoleErrors.push({ text: `[pageerror] ${error.message}`, url: '' });
    });
    // The extension host's worker and the language server's worker inside it.
    page.on('worker', worker => worker.on('console', message => {
        consoleLines.push(`[worker ${message.type()}] ${message.text()}`);
        if (message.type() === 'error') consoleErrors.push({ text: `[worker] ${message.text()}`, url: message.location().url });
    }));
    await recordNotifications(page);
    await openWorkbench(page, codeServer.url, workspace);
}, 300000);

afterAll(async () => {
    if (consoleLines.length) fs.writeFileSync(path.join(outputDir, 'web-extension-console.log'), consoleLines.join('\n') + '\n');
    await stopChromium(chromium);
    await stopProcessGroup(codeServer?.child);
    await new Promise(resolve => extensionServer ? extensionServer.close(resolve) : resolve(undefined));
    const leftovers = tmp ? processesMentioning(tmp) : [];
    for (const pid of leftovers) await stopProcessGroup(pid, 1000);
    if (tmp) fs.rmSync(tmp, { recursive: true, force: true });
    expect(leftovers, 'processes left running after code-server was stopped').toEqual([]);
}, 60000);

const openFromExplorer = (name: string) => workbench.openFromExplorer(page, name);
const editorText = () => workbench.editorText(page);
const lens = (title: string) => workbench.lens(page, title);
const screenshot = (name: string) => workbench.screenshot(page, outputDir, name);

/**
 * Runs a command from the command palette by its title, as an umpire would. A workbench that is
 * still starting may not list the command yet (seen on a clean CI machine): the palette is opened
 * again, for up to two minutes, until it does.
 */
async function runCommand(title: string): Promise<void> {
    const input = page.locator('.quick-input-widget input');
    const row = page.locator('.quick-input-widget .monaco-list-row', { hasText: title }).first();
    const deadline = Date.now() + 120000;
    for (;;) {
        await page.locator('.monaco-workbench').click({ position: { x: 5, y: 5 } }).catch(() => undefined);
        await page.keyboard.press('F1');
        await input.waitFor({ timeout: 15000 });
        await input.fill(`>${title}`);
        try {
            await row.waitFor({ timeout: 10000 });
            break;
        } catch (err) {
            if (Date.now() > deadline) throw err;
            await page.keyboard.press('Escape');
            await page.waitForTimeout(2000);
        }
    }
    await input.press('Enter');
}


const ACTIVE_EDITOR = '.editor-group-container.active .monaco-editor';

/** Runs a command from the palette on the editor that has the focus (no click elsewhere first). */
async function runInEditor(title: string): Promise<void> {
    await page.keyboard.press('F1');
    const input = page.locator('.quick-input-widget input');
    await input.waitFor({ timeout: 15000 });
    await input.fill(`>${title}`);
    await page.locator('.quick-input-widget .monaco-list-row', { hasText: title }).first().waitFor({ timeout: 15000 });
    await input.press('Enter');
}

/** Puts the cursor at a 0-based line and character of the active editor ("Go to Line/Column", Ctrl+G). */
async function goTo(line: number, character: number): Promise<void> {
    await page.locator(`${ACTIVE_EDITOR} .view-lines`).click();
    await page.keyboard.press('Control+G');
    const input = page.locator('.quick-input-widget input');
    await input.waitFor({ timeout: 15000 });
    await input.fill(`:${line + 1}:${character + 1}`);
    await input.press('Enter');
    await waitFor('the cursor', () => page.locator('.quick-input-widget').isVisible(), visible => !visible, 10000);
}

/**
 * Asks for completion at a 0-based line and character until a suggestion shows `label`, as an umpire asks again
 * when the first list came before the worker answered: on a loaded host the editor may show its own words
 * first, or take the keys before the cursor has moved. Three tries in all.
 */
async function suggestionsAt(line: number, character: number, label: string): Promise<void> {
    const row = page.locator('.suggest-widget .monaco-list-row', { hasText: label }).first();
    for (let attempt = 1; ; attempt++) {
        await goTo(line, character);
        await page.keyboard.press('Control+Space');
        try {
            await row.waitFor({ timeout: 15000 });
            return;
        } catch (error) {
            if (attempt === 3) throw error;
            await page.keyboard.press('Escape');
        }
    }
}

/** The server's code actions at a line, from "Source Action..." (they are of kind source.umpire): their titles. */
async function sourceActions(line: number, character: number): Promise<string[]> {
    await goTo(line, character);
    await runInEditor('Source Action...');
    const rows = page.locator('.action-widget .monaco-list-row.action');
    await rows.first().waitFor({ timeout: 30000 });
    return rows.evaluateAll(els => els.map(el => el.getAttribute('aria-label') ?? ''));
}

/**
 * Runs the code action titled `title` from the open menu with the keyboard, as the menu is used
 * (the menu blocks the mouse until it has moved).
 */
async function pickAction(title: string): Promise<void> {
    const focused = page.locator('.action-widget .monaco-list-row.action.focused');
    for (let i = 0; i < 10 && (await focused.getAttribute('aria-label')) !== title; i++) await page.keyboard.press('ArrowDown');
    expect(await focused.getAttribute('aria-label'), `the code action "${title}"`).toBe(title);
    await page.keyboard.press('Enter');
}

const toRgb = (hex: string) => `rgb(${[0, 2, 4].map(i => parseInt(hex.slice(1 + i, 3 + i), 16)).join(', ')})`;

/**
 * "Developer: Inspect Editor Tokens and Scopes" at a token: the semantic token type the editor got
 * from the server (none if the server's tokens did not arrive) and the colour the theme gives it.
 */
async function inspectToken(line: number, character: number): Promise<{ type: string | undefined, colour: string, text: string }> {
    await goTo(line, character);
    await runInEditor('Developer: Inspect Editor Tokens and Scopes');
    const widget = page.locator('.token-inspect-widget');
    await widget.waitFor({ timeout: 15000 });
    // The inspector shows "Loading..." until the theme's scopes for the token have been worked out.
    await expect.poll(() => widget.innerText(), { timeout: 15000 }).toMatch(/foreground/i);
    const text = await widget.innerText();
    await page.keyboard.press('Escape');
    const colour = /foreground\s*(#[0-9a-f]{6})/i.exec(text)?.[1];
    if (!colour) throw new Error(`the token inspector shows no foreground colour:\n${text}`);
    return { type: /semantic token type\s*(\w+)/.exec(text)?.[1], colour: toRgb(colour), text };
}

/**
 * What went wrong in the page: notifications that a request failed or an error, and console errors,
 * but for those known to be harmless (each with why).
 */
async function troubles(): Promise<string[]> {
    const notices = (await shownNotifications(page)).filter(n => /fail|error|not supported|cannot|could not/i.test(n));
    const harmless = (e: { text: string, url: string }) =>
        // The workbench asks every extension location for its translations; Umpire ships none.
        (/Failed to load resource: .*404/.test(e.text) && /\/package\.nls(\.[a-z-]+)?\.json$/.test(e.url))
        // code-server ships without Microsoft's closed-source vsda module (VS Code's signing of its own
        // connections); the workbench asks for it and goes on without it.
        || (/Failed to load resource: .*404/.test(e.text) && /\/static\/node_modules\/vsda\/rust\/web\/vsda(_bg\.wasm|\.js)$/.test(e.url))
        // code-server has no network here: the marketplace and telemetry cannot be reached.
        || (/ENOTFOUND|ERR_NAME_NOT_RESOLVED|getaddrinfo/.test(e.text) && /marketplace|open-vsx|telemetry|update/i.test(`${e.text} ${e.url}`));
    const errors = consoleErrors.filter(e => !harmless(e)).map(e => `console: ${e.text}${e.url ? ` (${e.url})` : ''}`);
    return [...notices.map(n => `notification: ${n}`), ...errors];
}

describe('the web extension in code-server\'s web-worker extension host', () => {
    const seedFile = () => path.join(workspace, 'scrud-seed.battle');

    it('installs into the browser from an http location', async () => {
        await runCommand('Install Extension from Location...');
        const input = page.locator('.quick-input-widget input');
        await waitFor('the location box', () => input.inputValue(), value => value === '', 10000);
        await input.fill(extensionUrl);
        await input.press('Enter');
        // The workbench reads the manifest from the location; nothing runs yet.
        await waitFor('the manifest to be read', () => requested, r => r.includes('/package.json'), 30000);
    }, 240000);

    it('runs the browser entry only, and starts the language server in a worker', async () => {
        await openFromExplorer('scrud-seed.battle');
        await lens('Resolve').waitFor({ timeout: 90000 });
        await lens('Odds').waitFor({ timeout: 10000 });
        expect(requested).toContain('/out/extension/main-browser.js');
        expect(requested).toContain('/out/language/main-browser.js');
        // The Node entries are never asked for, and code-server has no copy of its own to run in Node.
        expect(fs.readdirSync(path.join(tmp, 'extensions')).filter(name => name.startsWith('umpire-dev.'))).toEqual([]);
        expect(requested.filter(p => p.endsWith('.cjs'))).toEqual([]);
        expect(consoleLines.filter(line => /Activating extension 'umpire-dev\.umpire' failed/.test(line))).toEqual([]);
        await screenshot('web-01-opened.png');
    });

    it('draws what the server in the worker gives: inlay hints, semantic colours, folding, outline, hover and code actions', async () => {
        // The same file's answers from the server in Node: what the page must show, hint by hint and token by token.
        const expected: ServerAnswers = await serverAnswers(path.join(repoRoot, 'examples'), 'scrud-seed.battle');
        expect(expected.hints.length).toBeGreaterThan(10);
        expect(new Set(expected.tokens.map(t => t.type)).size).toBeGreaterThan(3);
        // The top of the file on screen: drawn line i is the file's line i.
        await goTo(0, 0);
        await waitFor('every inlay hint the server gives drawn in the editor',
            async () => missingHints((await drawnLines(page, ACTIVE_EDITOR)).map(l => l.text), expected.hints), missing => missing.length === 0, 60000);
        // Semantic tokens: the editor's own inspector names the server's token type at the first token of
        // each type (none without the server's tokens), and gives the theme's colour for it; then every
        // token of the file must be drawn in its type's colour.
        const colours = new Map<string, string>();
        for (const type of new Set(expected.tokens.map(t => t.type))) {
            const token = expected.tokens.find(t => t.type === type)!;
            const seen = await inspectToken(token.line, token.character);
            expect(seen.type, `the token inspector at "${token.text}" (line ${token.line + 1}):\n${seen.text}`).toBe(type);
            colours.set(type, seen.colour);
        }
        await goTo(0, 0);
        await waitFor('every semantic token drawn in its type\'s colour',
            async () => uncolouredTokens(await drawnLines(page, ACTIVE_EDITOR), expected.tokens, type => colours.get(type)), missing => missing.length === 0, 30000);
        await screenshot('web-04-hints-and-colours.png');
        // Folding: a control in the gutter at each range the server gives (a failed request is caught below:
        // the editor would fall back to folding by indentation).
        await waitFor('the folding controls at the server\'s ranges', () => foldingControlLines(page, ACTIVE_EDITOR),
            lines => lines.join() === expected.foldStarts.join(), 30000);
        // The outline, from the document symbols, with the side bar to itself (the list draws only the rows it shows).
        await runInEditor('Focus on Outline View');
        const filesPane = page.locator('.pane-header', { hasText: /battles/i });
        await filesPane.click();
        const outline = page.locator('.pane', { has: page.locator('.pane-header', { hasText: /outline/i }) });
        await waitFor('the outline of the scenario', () => outline.innerText(), text => expected.symbols.every(name => text.includes(name)), 30000);
        await screenshot('web-05-outline.png');
        await filesPane.click();
        // Hover on the force's name.
        const forceName = page.locator(`${ACTIVE_EDITOR} .view-lines span`, { hasText: /^Attacker$/ }).first();
        await forceName.hover();
        await page.locator('.monaco-hover', { hasText: 'Attacker' }).first().waitFor({ timeout: 30000 });
        await page.mouse.move(5, 500);
        // The server's commands as code actions at the engagement (for editors without lenses; here too).
        const engagement = expected.lines.findIndex(l => l.startsWith('engagement Example'));
        // Entered dice: no Re-roll.
        expect(await sourceActions(engagement, 12)).toEqual(['Resolve \'Example\'', 'Resolve all engagements', 'Show odds of \'Example\'']);
        await page.keyboard.press('Escape');
        expect(await troubles()).toEqual([]);
    });

    it('writes the seed\'s result into the editor when Resolve is clicked, and saves it', async () => {
        const before = fs.readFileSync(seedFile(), 'utf8');
        await lens('Resolve').click();
        // The example's own header comment quotes the result: wait for the written block, not the words.
        const text = await waitFor('the outcome block in the editor', editorText, t => t.includes(`summary "${SEED_RESULT}`));
        expect(text).toMatch(/\n {2}outcome entered check "[0-9a-f]{8}" \{\n/);
        expect(text).toContain(`    summary "${SEED_RESULT} · `);
        expect(fs.readFileSync(seedFile(), 'utf8')).toBe(before);
        await screenshot('web-02-resolved.png');
        // The web extension reaches the file only through the editor: saving goes through code-server.
        await page.locator('.editor-group-container.active .monaco-editor .view-lines').click();
        await page.keyboard.press('Control+S');
        const saved = await waitFor('the outcome on disk', () => fs.readFileSync(seedFile(), 'utf8'), t => t.includes('outcome entered'));
        expect(saved).toContain(`\n    summary "${SEED_RESULT} · `);
    });

    it('completes, formats and renames, and a code action resolves as umpire resolve --write does, byte for byte', async () => {
        const file = path.join(workspace, 'scrud-ridge.battle');
        const lines = fs.readFileSync(file, 'utf8').split('\n');
        await openFromExplorer('scrud-ridge.battle');
        await lens('Resolve').first().waitFor({ timeout: 60000 });
        // Completion on the empty last line: the top-level words.
        await suggestionsAt(lines.length - 1, 0, 'engagement');
        await page.keyboard.press('Escape');
        // Formatting: a unit line pushed out of place is put back by "Format Document".
        const unitLine = lines.indexOf('  unit Grenadiers foot Guard');
        await goTo(unitLine, 0);
        await page.keyboard.type('    ');
        await waitFor('the line out of place', editorText, t => t.includes('\n      unit Grenadiers foot Guard'), 10000);
        await runInEditor('Format Document');
        await waitFor('the formatted line', editorText, t => t.includes('\n  unit Grenadiers foot Guard\n'), 30000);
        // Rename the force where it is declared: every reference follows.
        await goTo(lines.indexOf('force Prussian {'), 8);
        await page.keyboard.press('F2');
        const renameBox = page.locator('.rename-box input');
        await renameBox.waitFor({ timeout: 30000 });
        await renameBox.fill('Austrian');
        await renameBox.press('Enter');
        await waitFor('the renamed force', editorText, t => t.includes('force Austrian {'), 30000);
        await page.keyboard.press('Control+S');
        const before = await waitFor('the renamed text on disk', () => fs.readFileSync(file, 'utf8'), t => t.includes('force Austrian {'));
        expect(before).toContain('Austrian.Landwehr, Austrian.Uhlans attacks');
        expect(before).not.toMatch(/^[^/\n]*\bPrussian\b/m);
        // What the CLI writes for the same text.
        const copy = path.join(tmp, 'ridge-by-the-cli.battle');
        fs.writeFileSync(copy, before);
        cli('resolve', '--write', '--engagement', 'Village', copy);
        const byCli = fs.readFileSync(copy, 'utf8');
        expect(byCli).not.toBe(before);
        // Resolve 'Village' from the code actions at its header.
        expect(await sourceActions(lines.findIndex(l => l.startsWith('engagement Village')), 12)).toContain('Resolve \'Village\'');
        await pickAction('Resolve \'Village\'');
        // The outcome is written into the editor (the tab shows unsaved changes), then saved.
        await page.locator('.tabs-container .tab.active.dirty', { hasText: 'scrud-ridge.battle' }).first().waitFor({ timeout: 30000 });
        await page.locator(`${ACTIVE_EDITOR} .view-lines`).click();
        await page.keyboard.press('Control+S');
        const after = await waitFor('the resolved file on disk', () => fs.readFileSync(file, 'utf8'), t => t !== before);
        expect(after).toBe(byCli);
        await screenshot('web-06-resolved-by-code-action.png');
        expect(await troubles()).toEqual([]);
    });

    it('shows the problems of broken-scrud.battle that umpire check reports', async () => {
        // The CLI runs the same checks in Node: each of its problems is expected in the Problems panel.
        const expected = cli('check', 'examples/broken-scrud.battle').split('\n')
            .map(line => /^\S+:\d+:\d+ \w+ ([a-z0-9-]+) (.*)$/.exec(line)).filter(m => m !== null)
            .map(m => ({ code: m[1], message: m[2] }));
        expect(expected.length).toBeGreaterThan(5);
        await openFromExplorer('broken-scrud.battle');
        // Squiggles are drawn for the lines on screen only: the full list is checked in the Problems panel.
        await waitFor('error squiggles', () => page.locator('.editor-group-container.active .squiggly-error').count(), n => n > 0, 60000);
        await page.keyboard.press('Control+Shift+M');
        const panel = page.locator('.markers-panel');
        await panel.waitFor({ timeout: 30000 });
        // Tall enough to list every problem (the panel's list only renders the rows it shows).
        await runCommand('View: Toggle Maximized Panel');
        const panelText = await waitFor('the problems in the Problems panel', () => panel.innerText(),
            t => expected.every(p => t.includes(p.message)), 30000);
        for (const problem of expected) expect(panelText).toContain(problem.code);
        await screenshot('web-03-problems.png');
    });
    it('Show odds, a code action, opens the Odds view with the figures of umpire odds; nothing failed meanwhile', async () => {
        const odds = JSON.parse(cli('odds', '--json', 'examples/scrud-seed.battle')) as {
            engagements: Array<{ units: Array<{ id: string, unit: string, probabilities: Record<string, number> }> }>
        };
        await runCommand('Hide Panel');
        await openFromExplorer('scrud-seed.battle');
        const lines = fs.readFileSync(seedFile(), 'utf8').split('\n');
        expect(await sourceActions(lines.findIndex(l => l.startsWith('engagement Example')), 12)).toContain('Show odds of \'Example\'');
        await pickAction('Show odds of \'Example\'');
        const { panel } = oddsPanelOf(() => page);
        for (const unit of odds.engagements[0].units.filter(u => u.id === 'Attacker.Guard' || u.id === 'Defender.Grenz#1')) {
            const row = panel().locator('tr', { has: panel().locator('td.unit', { hasText: new RegExp(`^${unit.unit.replace('#', '\\#')}$`) }) });
            const figures = await waitFor(`the odds of ${unit.id}`, () => row.locator('.figures').innerText({ timeout: 60000 }), t => t.length > 0, 60000);
            for (const [label, p] of Object.entries(unit.probabilities).filter(([, p]) => p > 0)) {
                expect(figures, `${unit.id} ${label}`).toContain(`${label} ${percent(p)}`);
            }
        }
        await screenshot('web-07-odds.png');
        // Over the whole run: no request failed, nothing was logged as an error.
        expect(await troubles()).toEqual([]);
    });
});
