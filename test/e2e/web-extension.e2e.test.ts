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
import { openWorkbench, startChromium, stopChromium, waitFor, type StartedChromium } from './workbench.js';

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
    writeUserSettings(dirs.userDataDir);
    codeServer = await startCodeServer(entry, await freePort(), dirs, workspace, path.join(outputDir, 'web-extension-code-server.log'));
    // Through code-server's own port proxy: the workbench may only fetch from its own origin or https
    // (connect-src 'self' ws: wss: https:), and the extension host's worker may only import scripts from
    // there, https or http://localhost (script-src), so a plain http://127.0.0.1:port/ is refused.
    extensionUrl = `${codeServer.url}/proxy/${port}/`;
    chromium = await startChromium();
    page = await chromium.browser.newPage({ viewport: { width: 1400, height: 1000 } });
    page.on('console', message => consoleLines.push(`[${message.type()}] ${message.text()}`));
    page.on('pageerror', error => consoleLines.push(`[pageerror] ${error.message}`));
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
});
