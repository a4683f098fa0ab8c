#!/usr/bin/env node
/* global process, console */
// `npm run test:e2e`: the shipped extension in the real editor, and the playground page.
//   1. install code-server 4.100.3 into the cache folder (skipped when already there),
//   2. build and package the extension (`npm run build`, `npm run package`: umpire-VERSION.vsix),
//   3. build the playground site into playground-dist/ (scripts/playground.mjs),
//   4. run test/e2e/*.e2e.test.ts with vitest: editor.e2e.test.ts installs the .vsix into a throw-away
//      extensions folder, starts code-server and Chromium, clicks the code lens (Node extension host);
//      web-extension.e2e.test.ts installs the same .vsix into the browser side of code-server from an
//      http location and does the same in the web-worker extension host; playground.e2e.test.ts
//      serves playground-dist/ and drives the page in Chromium. Each stops what it started.
// Whatever the test started is stopped here too, by pid, if the test process died before its cleanup.
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { installCodeServer } from './install-code-server.mjs';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const outputDir = path.join(repoRoot, 'test-output', 'e2e');

function step(title, cmd, args, env = {}) {
    const started = Date.now();
    console.log(`\n[e2e] ${title}: ${cmd} ${args.join(' ')}`);
    const r = spawnSync(cmd, args, { cwd: repoRoot, stdio: ['ignore', 'inherit', 'inherit'], env: { ...process.env, ...env } });
    console.log(`[e2e] ${title}: exit ${r.status ?? r.signal} after ${((Date.now() - started) / 1000).toFixed(0)} s`);
    return r.status ?? 1;
}

/** Ends a process group the test recorded, if it is still alive and still what the test started. */
function stopLeftover(pid, what) {
    let cmdline = '';
    try {
        cmdline = fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8');
    } catch {
        return; // gone
    }
    const expected = { chromium: 'chromium', playground: 'playground-serve' }[what] ?? 'code-server';
    if (!cmdline.includes(expected)) return; // pid reused by someone else
    console.log(`[e2e] stopping leftover ${what} (process group ${pid})`);
    try { process.kill(-pid, 'SIGKILL'); } catch { /* already gone */ }
}

function main() {
    const started = Date.now();
    fs.mkdirSync(outputDir, { recursive: true });
    const entry = installCodeServer();
    if (step('build', 'npm', ['run', 'build']) !== 0) return 1;
    // vsce names the package after package.json's name and version.
    const { name, version } = JSON.parse(fs.readFileSync(path.join(repoRoot, 'package.json'), 'utf8'));
    const vsix = path.join(repoRoot, `${name}-${version}.vsix`);
    fs.rmSync(vsix, { force: true });
    if (step('package', 'npm', ['run', 'package']) !== 0 || !fs.existsSync(vsix)) return 1;
    console.log(`[e2e] ${path.basename(vsix)}: ${(fs.statSync(vsix).size / 1024).toFixed(0)} KB`);
    if (step('playground', 'node', ['scripts/playground.mjs']) !== 0) return 1;
    const pidFile = path.join(outputDir, 'pids.txt');
    fs.rmSync(pidFile, { force: true });
    let status;
    try {
        status = step('editor and playground tests', 'npx', ['vitest', 'run', '--config', 'test/e2e/vitest.e2e.config.ts',
            '--reporter=default', '--reporter=json', `--outputFile.json=${path.join(outputDir, 'vitest.json')}`], {
            UMPIRE_E2E_CODE_SERVER: entry, UMPIRE_E2E_VSIX: vsix, UMPIRE_E2E_PIDFILE: pidFile
        });
    } finally {
        if (fs.existsSync(pidFile)) {
            for (const line of fs.readFileSync(pidFile, 'utf8').split('\n').filter(Boolean)) {
                const [pid, what] = line.split(' ');
                stopLeftover(Number(pid), what);
            }
        }
    }
    console.log(`[e2e] ${status === 0 ? 'passed' : 'FAILED'} in ${((Date.now() - started) / 1000).toFixed(0)} s; screenshots and code-server.log in ${path.relative(repoRoot, outputDir)}/`);
    return status;
}

try {
    process.exitCode = main();
} catch (err) {
    console.error(`[e2e] ${err instanceof Error ? err.message : String(err)}`);
    process.exitCode = 1;
}
