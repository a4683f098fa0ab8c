/**
 * The playground page (npm run playground) in Debian's Chromium, driven with playwright-core: the
 * language server's web-worker bundle, Monaco and the page, served as static files by
 * scripts/playground-serve.mjs. Run by `npm run test:e2e` (scripts/e2e/e2e-run.mjs builds the site first).
 *
 * What the page shows is compared with what the CLI (the same server code, in Node) says about the
 * same file: the diagnostics of broken-scrud.battle, the odds of scrud-seed.battle.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser, type BrowserContext, type BrowserServer, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { percent } from '../../src/extension/odds-html.js';
import { freePort, recordPid, stopProcessGroup } from './processes.js';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const dist = path.join(repoRoot, 'playground-dist');
const outputDir = path.join(repoRoot, 'test-output', 'e2e');
// The worked example's result, as the SCRUD rules state it (docs/rules/scrud.md).
const SEED_RESULT = 'Defender foot: 3 stand-off, 1 recoil, 2 retire';

let server: ChildProcess | undefined;
let origin = '';
let browserServer: BrowserServer | undefined;
let browser: Browser | undefined;

/** The CLI's answer on an example: the same rules and checks, run by Node instead of the worker. */
function cli(...args: string[]): string {
    const r = spawnSync(process.execPath, [path.join(repoRoot, 'out', 'cli', 'main.cjs'), ...args], { cwd: repoRoot, encoding: 'utf8' });
    if (r.stdout === '') throw new Error(`umpire ${args.join(' ')} printed nothing: ${r.stderr}`);
    return r.stdout;
}

beforeAll(async () => {
    if (!fs.existsSync(path.join(dist, 'index.html')) || !fs.existsSync(path.join(repoRoot, 'out', 'cli', 'main.cjs'))) {
        throw new Error('playground-dist/ or out/ is missing: run this test with `npm run test:e2e` (or `npm run playground` first)');
    }
    fs.mkdirSync(outputDir, { recursive: true });
    const port = await freePort();
    origin = `http://127.0.0.1:${port}`;
    server = spawn(process.execPath, [path.join(repoRoot, 'scripts', 'playground-serve.mjs'), '--port', String(port)],
        { detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
    recordPid(server.pid, 'playground');
    const deadline = Date.now() + 30000;
    for (;;) {
        if (server.exitCode !== null) throw new Error(`playground-serve.mjs exited with ${server.exitCode}`);
        if ((await fetch(`${origin}/index.html`).then(r => r.ok, () => false))) break;
        if (Date.now() > deadline) throw new Error(`the playground server did not answer on ${origin}`);
        await new Promise(r => setTimeout(r, 200));
    }
    browserServer = await chromium.launchServer({
        executablePath: '/usr/bin/chromium',
        headless: true,
        args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update',
            '--disable-sync', '--no-first-run']
    });
    recordPid(browserServer.process().pid, 'chromium');
    browser = await chromium.connect(browserServer.wsEndpoint());
}, 120000);

afterAll(async () => {
    await browser?.close().catch(() => undefined);
    const chromiumPid = browserServer?.process().pid;
    await browserServer?.close().catch(() => undefined);
    await stopProcessGroup(chromiumPid);
    await stopProcessGroup(server);
}, 60000);

/**
 * A fresh browser context in which only the playground's own origin answers: any request elsewhere
 * is refused and noted, so that a page that needs the network fails here.
 */
async function offlineContext(): Promise<{ context: BrowserContext, page: Page, elsewhere: string[], errors: string[] }> {
    const context = await browser!.newContext({ viewport: { width: 1400, height: 900 }, acceptDownloads: true });
    const elsewhere: string[] = [];
    await context.route('**/*', route => {
        const url = route.request().url();
        if (url.startsWith(`${origin}/`) || url.startsWith('blob:') || url.startsWith('data:')) return route.continue();
        elsewhere.push(url);
        return route.abort();
    });
    const page = await context.newPage();
    const errors: string[] = [];
    page.on('pageerror', err => errors.push(err.message));
    return { context, page, elsewhere, errors };
}

async function serverReady(page: Page): Promise<void> {
    await page.locator('body[data-server="ready"]').waitFor({ timeout: 60000 });
}

async function screenshot(page: Page, name: string): Promise<void> {
    await page.screenshot({ path: path.join(outputDir, name) });
}

/** The Monaco editor's visible text, top to bottom (Monaco renders spaces as U+00A0). */
function editorText(page: Page): Promise<string> {
    return page.evaluate(`[...document.querySelectorAll('#editor .view-lines .view-line')]
        .map(el => ({ top: parseFloat(el.style.top || '0'), text: (el.textContent || '').replace(/\\u00a0/g, ' ') }))
        .sort((a, b) => a.top - b.top).map(l => l.text).join('\\n')`);
}

/** The scenario as the Download button saves it. */
async function download(page: Page, name: string): Promise<{ file: string, text: string }> {
    const [saved] = await Promise.all([page.waitForEvent('download'), page.click('#download')]);
    const target = path.join(outputDir, `playground-${name}`);
    await saved.saveAs(target);
    return { file: saved.suggestedFilename(), text: fs.readFileSync(target, 'utf8') };
}

describe('the playground page in Chromium', () => {
    let page: Page;
    let context: BrowserContext;
    let elsewhere: string[];
    let errors: string[];
    let resolvedText = '';
    let shareLink = '';

    it('loads with no network but its own static files, and shows broken-scrud.battle\'s diagnostics', async () => {
        ({ context, page, elsewhere, errors } = await offlineContext());
        await page.goto(`${origin}/?example=broken-scrud`);
        await serverReady(page);
        const expected = cli('check', 'examples/broken-scrud.battle').split('\n')
            .map(l => /^[^:]+:(\d+):\d+ error \S+ (.*)$/.exec(l)).filter(m => m !== null).map(m => `line ${m[1]}: ${m[2]}`);
        expect(expected.length).toBeGreaterThan(5);
        const problems = page.locator('#problems li.problem.error');
        await problems.first().waitFor({ timeout: 60000 });
        expect((await problems.allInnerTexts()).sort()).toEqual([...expected].sort());
        // Monaco underlines them too.
        expect(await page.locator('#editor .squiggly-error').count()).toBeGreaterThan(0);
        const timings = await page.evaluate('window.umpirePlayground.timings') as { serverReadyMs: number, firstDiagnosticsMs: number };
        const kb = (file: string) => (fs.statSync(path.join(dist, file)).size / 1024).toFixed(0);
        const siteKb = fs.readdirSync(dist).reduce((sum, f) => sum + fs.statSync(path.join(dist, f)).size, 0) / 1024;
        console.log(`[playground] worker bundle main-browser.js: ${kb('main-browser.js')} KB; page main.js (Monaco and the page): ${kb('main.js')} KB; ` +
            `whole site: ${siteKb.toFixed(0)} KB; ` +
            `page load → server ready: ${timings.serverReadyMs} ms; page load → first diagnostics: ${timings.firstDiagnosticsMs} ms`);
        expect(timings.firstDiagnosticsMs).toBeGreaterThan(0);
        // The worker is the very bundle the web extension ships.
        expect(fs.readFileSync(path.join(dist, 'main-browser.js')).equals(fs.readFileSync(path.join(repoRoot, 'out', 'language', 'main-browser.js')))).toBe(true);
        await screenshot(page, 'playground-broken.png');
        expect(elsewhere).toEqual([]);
        // From here on the browser has no network at all: the page must not need it.
        await context.setOffline(true);
    });

    it('Resolve on scrud-seed.battle writes the worked example\'s result into the text', async () => {
        await page.selectOption('#example', 'scrud-seed');
        const lens = page.locator('#editor .codelens-decoration a', { hasText: /^Resolve$/ });
        await lens.first().waitFor({ timeout: 60000 });
        expect(await page.locator('#problems').innerText()).toBe('No problems.');
        await lens.first().click();
        await page.locator('#outcome', { hasText: SEED_RESULT }).waitFor({ timeout: 30000 });
        await expect.poll(() => editorText(page), { timeout: 30000 }).toContain(`summary "${SEED_RESULT}`);
        // The text is what `umpire resolve --write` makes of the same file, byte for byte.
        const copy = path.join(outputDir, 'playground-cli-resolved.battle');
        fs.copyFileSync(path.join(repoRoot, 'examples', 'scrud-seed.battle'), copy);
        cli('resolve', '--write', copy);
        const saved = await download(page, 'resolved.battle');
        expect(saved.file).toBe('scrud-seed.battle');
        expect(saved.text).toContain(SEED_RESULT);
        expect(saved.text).toBe(fs.readFileSync(copy, 'utf8'));
        resolvedText = saved.text;
        await screenshot(page, 'playground-resolved.png');
    });

    it('the Odds view shows the seed example\'s figures, as `umpire odds` computes them', async () => {
        const odds = JSON.parse(cli('odds', '--json', 'examples/scrud-seed.battle')) as {
            engagements: Array<{ units: Array<{ id: string, unit: string, probabilities: Record<string, number> }> }>
        };
        const guard = odds.engagements[0].units.find(u => u.id === 'Attacker.Guard')!;
        const hussar = odds.engagements[0].units.find(u => u.id === 'Attacker.Hussars#2')!;
        await page.locator('#editor .codelens-decoration a', { hasText: /^Odds$/ }).first().click();
        await page.locator('#odds-title', { hasText: 'Example' }).waitFor({ timeout: 30000 });
        const view = page.frameLocator('#odds-view');
        await view.locator('h2', { hasText: 'Example' }).waitFor({ timeout: 30000 });
        for (const unit of [guard, hussar]) {
            const row = view.locator('tr', { has: page.locator('td.unit', { hasText: new RegExp(`^${unit.unit.replace('#', '\\#')}$`) }) });
            const figures = await row.locator('.figures').innerText();
            for (const [label, p] of Object.entries(unit.probabilities).filter(([, p]) => p > 0)) {
                expect(figures, `${unit.id} ${label}`).toContain(`${label} ${percent(p)}`);
            }
        }
        await screenshot(page, 'playground-odds.png');
        // Nothing went wrong in the page meanwhile, though the network has been off since the first test.
        expect(errors).toEqual([]);
    });

    it('a shared link opened in a fresh browser shows the same scenario and the same outcome', async () => {
        await page.click('#share');
        shareLink = await page.inputValue('#share-link');
        expect(shareLink).toMatch(new RegExp(`^${origin}/#n=scrud-seed&s=`));
        await context.close();

        const fresh = await offlineContext();
        await fresh.page.goto(shareLink);
        await serverReady(fresh.page);
        await fresh.page.locator('#problems', { hasText: 'No problems.' }).waitFor({ timeout: 60000 });
        expect(await editorText(fresh.page)).toContain(`summary "${SEED_RESULT}`);
        const restored = await download(fresh.page, 'shared.battle');
        expect(restored).toEqual({ file: 'scrud-seed.battle', text: resolvedText });
        // Resolving again there gives the same outcome, already written: the entered dice decide it.
        await fresh.page.click('#resolve');
        await fresh.page.locator('#outcome', { hasText: SEED_RESULT }).waitFor({ timeout: 30000 });
        await fresh.page.locator('#notice', { hasText: 'already says this' }).waitFor({ timeout: 30000 });
        expect((await download(fresh.page, 'shared-again.battle')).text).toBe(resolvedText);
        await screenshot(fresh.page, 'playground-shared.png');
        expect(fresh.elsewhere).toEqual([]);
        expect(fresh.errors).toEqual([]);
        await fresh.context.close();
    });

    it('a damaged shared link says so and opens an example instead', async () => {
        const { context: ctx, page: p } = await offlineContext();
        await p.goto(`${origin}/#n=x&s=not-lz-data`);
        await serverReady(p);
        await p.locator('#notice', { hasText: 'The shared link is damaged' }).waitFor({ timeout: 30000 });
        await expect.poll(() => p.inputValue('#example')).toBe('scrud-seed');
        await ctx.close();
    });
});
