/**
 * The npm package as an umpire installs it: `npm pack` (the bundles this run built; `npm pack` itself
 * builds first through `prepare`), installed into an empty folder with the network off, gives a working
 * `umpire check`, `resolve`, `odds` and `umpire lsp --stdio`. The tarball holds the bundles and the
 * documents, not the sources or the tests, and installing it fetches nothing: every dependency is
 * inside the bundles.
 */
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureServerBundle, LspSession, repoRoot } from '../protocol/lsp-harness.js';

let tmp: string;
let installed: string;
let packed: Array<{ path: string }>;
const npm = (args: string[], cwd: string) => spawnSync('npm', args, { cwd, encoding: 'utf8', env: { ...process.env, npm_config_audit: 'false', npm_config_fund: 'false', npm_config_update_notifier: 'false' } });

beforeAll(() => {
    ensureServerBundle();
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'umpire-pack-'));
    // --ignore-scripts: the bundles are this run's (built once for every test file); a build here would
    // rewrite out/ under the other test files' servers.
    const pack = npm(['pack', '--json', '--ignore-scripts', '--pack-destination', tmp], repoRoot);
    if (pack.status !== 0) throw new Error(`npm pack failed: ${pack.stderr}`);
    const [result] = JSON.parse(pack.stdout) as Array<{ filename: string, files: Array<{ path: string }> }>;
    packed = result.files;
    installed = path.join(tmp, 'empty-folder');
    fs.mkdirSync(installed);
    const install = npm(['install', '--offline', '--no-package-lock', path.join(tmp, result.filename)], installed);
    if (install.status !== 0) throw new Error(`npm install of the tarball failed: ${install.stderr}`);
}, 180_000);

afterAll(() => {
    if (tmp) fs.rmSync(tmp, { recursive: true, force: true });
});

const umpire = (...args: string[]) => spawnSync(path.join(installed, 'node_modules', '.bin', 'umpire'), args, { cwd: repoRoot, encoding: 'utf8' });

describe('the npm package, installed into an empty folder offline', () => {
    it('holds the bundles, the bin script and the documents; no sources, tests or extension bundles', () => {
        const files = packed.map(f => f.path);
        expect(files).toEqual(expect.arrayContaining(['bin/umpire.cjs', 'out/cli/main.cjs', 'out/language/main.cjs', 'out/report/charts.cjs', 'package.json', 'README.md', 'docs/editors.md']));
        expect(files.filter(f => /^(src|test|scripts|playground|node_modules)\/|\.ts$|\.map$/.test(f))).toEqual([]);
        expect(files.filter(f => f.startsWith('out/extension/'))).toEqual([]);
    });

    it('installs nothing beside itself: no dependency to fetch', () => {
        expect(fs.readdirSync(path.join(installed, 'node_modules')).filter(n => !n.startsWith('.'))).toEqual(['umpire']);
    });

    it('says the version of package.json', () => {
        const { version } = JSON.parse(fs.readFileSync(path.join(repoRoot, 'package.json'), 'utf8')) as { version: string };
        expect(umpire('--version').stdout.trim()).toBe(version);
    });

    it('checks, resolves and computes odds as the checkout\'s umpire does', () => {
        const local = (...args: string[]) => spawnSync(process.execPath, ['bin/umpire.cjs', ...args], { cwd: repoRoot, encoding: 'utf8' });
        for (const args of [['check', 'examples/scrud-seed.battle'], ['check', 'examples/broken-scrud.battle'], ['resolve', 'examples/scrud-seed.battle'], ['odds', 'examples/scrud-ridge.battle']]) {
            const got = umpire(...args);
            const want = local(...args);
            expect({ status: got.status, stdout: got.stdout }, args.join(' ')).toEqual({ status: want.status, stdout: want.stdout });
        }
        expect(umpire('resolve', 'examples/scrud-seed.battle').stdout).toContain('3 stand-off, 1 recoil, 2 retire');
    });

    it('starts the language server with umpire lsp --stdio', async () => {
        const session = new LspSession(path.join(repoRoot, 'examples'), { command: [path.join(installed, 'node_modules', '.bin', 'umpire'), 'lsp', '--stdio'] });
        try {
            const init = await session.initialize();
            expect(init.capabilities.executeCommandProvider?.commands).toContain('umpire.resolve');
            const uri = await session.open('broken-scrud.battle');
            expect((await session.diagnosticsFor(uri)).length).toBeGreaterThan(5);
            expect(await session.shutdown()).toBe(0);
        } finally {
            session.kill();
        }
    });
});
