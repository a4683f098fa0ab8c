#!/usr/bin/env node
/* global process, console */
// `npm run test:vscode`: test/vscode/suite.ts in a desktop VS Code extension host, through
// @vscode/test-electron. NEEDS INTERNET: it downloads VS Code (cached in .vscode-test/).
// It bundles the extension (`npm run build`) and the suite, then opens a throw-away copy of
// examples/ plus the broken fixture as the workspace.
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import * as esbuild from 'esbuild';
import { runTests } from '@vscode/test-electron';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');

async function main() {
    const build = spawnSync('npm', ['run', 'build'], { cwd: repoRoot, stdio: 'inherit' });
    if (build.status !== 0) return 1;
    const suite = path.join(repoRoot, 'out', 'test', 'vscode', 'suite.cjs');
    await esbuild.build({
        entryPoints: [path.join(repoRoot, 'test', 'vscode', 'suite.ts')], outfile: suite,
        bundle: true, format: 'cjs', platform: 'node', target: 'node20', external: ['vscode'], logLevel: 'warning'
    });
    const workspace = fs.mkdtempSync(path.join(os.tmpdir(), 'umpire-vscode-'));
    fs.cpSync(path.join(repoRoot, 'examples'), workspace, { recursive: true });
    fs.copyFileSync(path.join(repoRoot, 'test', 'fixtures', 'protocol', 'broken.battle'), path.join(workspace, 'broken.battle'));
    try {
        await runTests({
            version: process.env.UMPIRE_VSCODE_VERSION || 'stable',
            extensionDevelopmentPath: repoRoot,
            extensionTestsPath: suite,
            launchArgs: [workspace, '--disable-extensions', '--disable-workspace-trust']
        });
        return 0;
    } catch (err) {
        const message = err instanceof Error ? err.message : String(err);
        console.error(`test:vscode failed: ${message}`);
        if (/ENOTFOUND|EAI_AGAIN|ECONNREFUSED|ETIMEDOUT/.test(message)) {
            console.error('test:vscode downloads VS Code (or set UMPIRE_VSCODE_VERSION to a cached one): it needs internet.');
        }
        return 1;
    } finally {
        fs.rmSync(workspace, { recursive: true, force: true });
    }
}

process.exitCode = await main();
