#!/usr/bin/env node
/* global process, console */
// Installs code-server 4.100.3 (VS Code 1.100.3) into a cache folder outside the project's own
// dependencies, following the route verified on a Debian machine:
//   - `npm install code-server --ignore-scripts` (its scripts download ripgrep and need gssapi headers),
//   - install lib/vscode's production modules without scripts, point @vscode/ripgrep at Debian's rg
//     (its install script skips the download when bin/ exists), rebuild the native modules,
//   - link node_modules.asar, rebuild argon2 at the top.
// Needs the Debian packages .ci/run installs: ripgrep libkrb5-dev libsecret-1-dev libxkbfile-dev libx11-dev.
// Skips everything when `entry.js --version` already prints the version and the last step's marker exists.
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';

export const CODE_SERVER_VERSION = '4.100.3';

/** Where code-server lives: $UMPIRE_E2E_CACHE, else ~/.cache/umpire-e2e; one folder per version. */
export function codeServerHome() {
    const cache = process.env.UMPIRE_E2E_CACHE || path.join(os.homedir(), '.cache', 'umpire-e2e');
    return path.join(cache, `code-server-${CODE_SERVER_VERSION}`);
}

export function codeServerEntry(home = codeServerHome()) {
    return path.join(home, 'node_modules', 'code-server', 'out', 'node', 'entry.js');
}

const MARKER = '.umpire-install-complete';

export function installedVersion(home = codeServerHome()) {
    const entry = codeServerEntry(home);
    if (!fs.existsSync(entry) || !fs.existsSync(path.join(home, MARKER))) return undefined;
    const r = spawnSync(process.execPath, [entry, '--version'], { encoding: 'utf8', timeout: 60000 });
    // The first run also prints a note about its config file: keep only the version line.
    return r.status === 0 ? r.stdout.split('\n').find(line => /^\d+\.\d+\.\d+ /.test(line)) : undefined;
}

function run(cmd, args, cwd, extraEnv = {}) {
    const started = Date.now();
    console.log(`[install-code-server] (${path.relative(os.homedir(), cwd) || cwd}) ${cmd} ${args.join(' ')}`);
    const r = spawnSync(cmd, args, {
        cwd,
        stdio: ['ignore', 'inherit', 'inherit'],
        env: { ...process.env, npm_config_yes: 'true', npm_config_audit: 'false', npm_config_fund: 'false',
            npm_config_update_notifier: 'false', npm_config_loglevel: 'warn', ...extraEnv }
    });
    if (r.status !== 0) {
        throw new Error(`${cmd} ${args.join(' ')} failed in ${cwd} (exit ${r.status ?? r.signal})`);
    }
    console.log(`[install-code-server]   done in ${((Date.now() - started) / 1000).toFixed(0)} s`);
}

function requireCommand(file, debianPackage) {
    if (!fs.existsSync(file)) {
        throw new Error(`${file} is missing: apt-get install -y ${debianPackage} (.ci/run does this)`);
    }
}

export function installCodeServer(home = codeServerHome()) {
    const version = installedVersion(home);
    if (version?.startsWith(CODE_SERVER_VERSION)) {
        console.log(`[install-code-server] code-server ${version} already in ${home}`);
        return codeServerEntry(home);
    }
    requireCommand('/usr/bin/rg', 'ripgrep');
    // A half-finished install (no marker) is not trusted: start again from an empty folder.
    fs.rmSync(home, { recursive: true, force: true });
    fs.mkdirSync(home, { recursive: true });
    fs.writeFileSync(path.join(home, 'package.json'), JSON.stringify({ name: 'umpire-e2e-code-server', private: true }, null, 2));
    const npm = 'npm';
    run(npm, ['install', `code-server@${CODE_SERVER_VERSION}`, '--ignore-scripts'], home);
    const vscodeDir = path.join(home, 'node_modules', 'code-server', 'lib', 'vscode');
    run(npm, ['install', '--omit=dev', '--ignore-scripts'], vscodeDir);
    const rgBin = path.join(vscodeDir, 'node_modules', '@vscode', 'ripgrep', 'bin');
    fs.mkdirSync(rgBin, { recursive: true });
    fs.rmSync(path.join(rgBin, 'rg'), { force: true });
    fs.symlinkSync('/usr/bin/rg', path.join(rgBin, 'rg'));
    // node-pty's install script runs `npx node-gyp`: npm_config_yes lets npx fetch it without a prompt.
    run(npm, ['rebuild'], vscodeDir);
    const asar = path.join(vscodeDir, 'node_modules.asar');
    fs.rmSync(asar, { force: true });
    fs.symlinkSync('node_modules', asar);
    run(npm, ['rebuild', 'argon2'], home);
    fs.writeFileSync(path.join(home, MARKER), new Date().toISOString() + '\n');
    const after = installedVersion(home);
    if (!after?.startsWith(CODE_SERVER_VERSION)) {
        throw new Error(`code-server installed in ${home} but --version printed ${JSON.stringify(after)}`);
    }
    console.log(`[install-code-server] installed ${after}`);
    return codeServerEntry(home);
}

if (process.argv[1] && fileURLToPath(import.meta.url) === path.resolve(process.argv[1])) {
    try {
        const started = Date.now();
        installCodeServer();
        console.log(`[install-code-server] ready after ${((Date.now() - started) / 1000).toFixed(0)} s`);
    } catch (err) {
        console.error(`[install-code-server] ${err instanceof Error ? err.message : String(err)}`);
        process.exit(1);
    }
}
