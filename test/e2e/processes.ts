/**
 * Starting and stopping what the editor test needs: code-server (VS Code 1.100.3 in a browser)
 * and Debian's Chromium. Every process is started in its own process group and stopped by its own
 * pid (the whole group, so code-server's extension host and language server go too), never by name.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import * as fs from 'node:fs';
import * as net from 'node:net';

/**
 * Notes a started process group in $UMPIRE_E2E_PIDFILE, so scripts/e2e/e2e-run.mjs can still stop it
 * if the test process itself dies before its afterAll runs.
 */
export function recordPid(pid: number | undefined, what: string): void {
    const file = process.env.UMPIRE_E2E_PIDFILE;
    if (file && pid) fs.appendFileSync(file, `${pid} ${what}\n`);
}

/** A port nobody listens on right now, chosen by the kernel. */
export function freePort(): Promise<number> {
    return new Promise((resolve, reject) => {
        const server = net.createServer();
        server.unref();
        server.once('error', reject);
        server.listen(0, '127.0.0.1', () => {
            const address = server.address();
            server.close(() => typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port')));
        });
    });
}

export interface CodeServerDirs {
    userDataDir: string;
    extensionsDir: string;
}

/** `code-server --install-extension FILE.vsix` into the throw-away extensions folder. */
export function installExtension(entry: string, vsix: string, dirs: CodeServerDirs): string {
    const r = spawnSync(process.execPath, [entry,
        '--user-data-dir', dirs.userDataDir, '--extensions-dir', dirs.extensionsDir,
        '--install-extension', vsix], { encoding: 'utf8', timeout: 120000 });
    const output = `${r.stdout}${r.stderr}`;
    if (r.status !== 0) throw new Error(`--install-extension ${vsix} failed (exit ${r.status}):\n${output}`);
    return output;
}

/** Settings that keep the workbench quiet and the editor roomy for the screenshots, plus `extra`. */
export function writeUserSettings(userDataDir: string, extra: Record<string, unknown> = {}): void {
    fs.mkdirSync(`${userDataDir}/User`, { recursive: true });
    fs.writeFileSync(`${userDataDir}/User/settings.json`, JSON.stringify({
        'workbench.startupEditor': 'none',
        'workbench.tips.enabled': false,
        'workbench.enableExperiments': false,
        'security.workspace.trust.enabled': false,
        'telemetry.telemetryLevel': 'off',
        'extensions.autoCheckUpdates': false,
        'extensions.autoUpdate': false,
        'extensions.ignoreRecommendations': true,
        'update.mode': 'none',
        'editor.minimap.enabled': false,
        'editor.fontSize': 14,
        'files.autoSave': 'off',
        ...extra
    }, null, 2));
}

export interface StartedCodeServer {
    child: ChildProcess;
    url: string;
}

/** Starts code-server on 127.0.0.1:port (no auth) in its own process group, logging to `logFile`. */
export async function startCodeServer(entry: string, port: number, dirs: CodeServerDirs, folder: string,
    logFile: string, timeoutMs = 120000): Promise<StartedCodeServer> {
    const log = fs.openSync(logFile, 'w');
    const child = spawn(process.execPath, [entry,
        '--auth', 'none', '--bind-addr', `127.0.0.1:${port}`,
        '--disable-telemetry', '--disable-update-check', '--disable-workspace-trust',
        '--disable-getting-started-override',
        '--user-data-dir', dirs.userDataDir, '--extensions-dir', dirs.extensionsDir, folder
    ], { detached: true, stdio: ['ignore', log, log] });
    fs.closeSync(log);
    recordPid(child.pid, 'code-server');
    const url = `http://127.0.0.1:${port}`;
    const deadline = Date.now() + timeoutMs;
    while (Date.now() < deadline) {
        if (child.exitCode !== null) throw new Error(`code-server exited with ${child.exitCode}; see ${logFile}`);
        try {
            const res = await fetch(`${url}/healthz`);
            if (res.ok) return { child, url };
        } catch {
            // not listening yet
        }
        await new Promise(r => setTimeout(r, 250));
    }
    await stopProcessGroup(child);
    throw new Error(`code-server did not answer on ${url} within ${timeoutMs} ms; see ${logFile}`);
}

function alive(pid: number): boolean {
    try {
        process.kill(pid, 0);
        return true;
    } catch {
        return false;
    }
}

/**
 * Ends the process group led by `child` (started with `detached: true`): SIGTERM, then SIGKILL
 * after `graceMs`. Resolves once the leader is gone.
 */
export async function stopProcessGroup(child: ChildProcess | number | undefined, graceMs = 5000): Promise<void> {
    const pid = typeof child === 'number' ? child : child?.pid;
    if (!pid) return;
    const signalGroup = (signal: NodeJS.Signals) => {
        try {
            process.kill(-pid, signal);
        } catch {
            try { process.kill(pid, signal); } catch { /* already gone */ }
        }
    };
    signalGroup('SIGTERM');
    const deadline = Date.now() + graceMs;
    while (alive(pid) && Date.now() < deadline) await new Promise(r => setTimeout(r, 100));
    // Whatever is left of the group (an extension host that ignored SIGTERM) goes too.
    signalGroup('SIGKILL');
    while (alive(pid) && Date.now() < deadline + 2000) await new Promise(r => setTimeout(r, 100));
}

/** Pids of live processes whose command line mentions `text` (e.g. the test's temp folder). */
export function processesMentioning(text: string): number[] {
    const found: number[] = [];
    for (const entry of fs.readdirSync('/proc')) {
        if (!/^\d+$/.test(entry) || Number(entry) === process.pid) continue;
        try {
            if (fs.readFileSync(`/proc/${entry}/cmdline`, 'utf8').includes(text)) found.push(Number(entry));
        } catch {
            // exited meanwhile
        }
    }
    return found;
}
