/* global process, console, performance, setTimeout */
// What the benchmarks share (scripts/bench-lsp.mjs, scripts/bench-resolve-all.mjs): their command-line
// options, the bundled language server driven over stdio as an editor drives it, the CPU time and
// memory of a process, and a timed run of the CLI.
import { spawn, spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { createProtocolConnection, StreamMessageReader, StreamMessageWriter } from 'vscode-languageserver-protocol/node';

export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** `--name value` from the command line, else `fallback`. */
export function arg(name, fallback) {
    const i = process.argv.indexOf(`--${name}`);
    return i >= 0 ? process.argv[i + 1] : fallback;
}

/**
 * The options every benchmark takes: another build of the server or CLI (say, of an older commit)
 * measured the same way, and Node options for the server only (a profile of it: docs/performance.md).
 */
export function buildOptions(benchmark) {
    const server = path.resolve(arg('server', path.join(root, 'out', 'language', 'main.cjs')));
    const cli = path.resolve(arg('cli', path.join(root, 'bin', 'umpire.cjs')));
    const serverNodeArgs = arg('server-node-args', '').split(' ').filter(Boolean);
    if (!fs.existsSync(server)) {
        console.error(`${benchmark}: ${path.relative(process.cwd(), server)} is missing: run npm run build first.`);
        process.exit(1);
    }
    return { server, cli, serverNodeArgs };
}

/** The CPU time (user + system, ms) a process has used: on a shared machine, a measure the load does not stretch. */
export function cpuOf(pid) {
    const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return (Number(fields[11]) + Number(fields[12])) * 10;
}

/**
 * A process's CPU time (ms) on its main thread and on its other threads (V8's compiler and GC helpers,
 * libuv's pool), from each thread's `schedstat` (nanoseconds, where `stat` counts 10 ms ticks): an edit's
 * own work is on the main thread, while code V8 optimises for it is compiled on the others. Undefined where
 * the kernel keeps no `schedstat`.
 */
export function threadCpuOf(pid) {
    let main = 0, helpers = 0, read = 0;
    try {
        for (const tid of fs.readdirSync(`/proc/${pid}/task`)) {
            let ns;
            try {
                ns = Number(fs.readFileSync(`/proc/${pid}/task/${tid}/schedstat`, 'utf8').split(' ')[0]);
            } catch {
                continue; // a thread that ended meanwhile
            }
            read++;
            if (tid === String(pid)) main += ns;
            else helpers += ns;
        }
    } catch {
        return undefined;
    }
    if (read === 0) return undefined;
    return { main: main / 1e6, helpers: helpers / 1e6 };
}

/** A process's resident memory now and at its peak, in kB. */
export function memoryOf(pid) {
    const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
    return { rssKb: Number(/VmRSS:\s+(\d+)/.exec(status)[1]), peakKb: Number(/VmHWM:\s+(\d+)/.exec(status)[1]) };
}

/** Wall and CPU seconds and max RSS (kB) of one run of the CLI, with its exit code and output. */
export function timedCli(cli, args) {
    const r = spawnSync('/usr/bin/time', ['-f', '%e %U %S %M', process.execPath, cli, ...args], { encoding: 'utf8', maxBuffer: 1 << 28 });
    const [wall, user, sys, maxKb] = r.stderr.trim().split('\n').pop().split(' ').map(Number);
    return { code: r.status, wall, cpu: user + sys, maxKb, stdout: r.stdout };
}

/** The machine, for the first line of a benchmark's output: figures depend on its cores and its load. */
export function machine() {
    return `${os.cpus().length} cores, load average ${os.loadavg().map(l => l.toFixed(1)).join(' ')}`;
}

/**
 * The server (`server`, a bundle run by this Node with `nodeArgs` before it) over stdio, initialized.
 * `published` lists every publishDiagnostics with its time; `diagnosticsFor(uri, version)` resolves
 * with the first diagnostics of that file for that version or a later one, published before or after
 * the call (or for any version, from a server that does not say). `capabilities` are the server's. `applyEdit` answers the server's workspace edits (refused by default).
 */
export async function startServer(server, { nodeArgs = [], applyEdit } = {}) {
    const proc = spawn(process.execPath, [...nodeArgs, server, '--stdio'], { stdio: ['pipe', 'pipe', 'ignore'] });
    const connection = createProtocolConnection(new StreamMessageReader(proc.stdout), new StreamMessageWriter(proc.stdin));
    const published = [];
    const waiting = new Set();
    const answers = (w, params) => w.uri === params.uri && (w.version === undefined || params.version === undefined || params.version >= w.version);
    connection.onNotification('textDocument/publishDiagnostics', params => {
        published.push({ at: performance.now(), uri: params.uri, version: params.version, diagnostics: params.diagnostics });
        for (const w of waiting) {
            if (answers(w, params)) {
                waiting.delete(w);
                w.resolve(params);
            }
        }
    });
    connection.onRequest('workspace/configuration', params => params.items.map(() => null));
    connection.onRequest('client/registerCapability', () => null);
    connection.onRequest('workspace/codeLens/refresh', () => null);
    connection.onRequest('workspace/inlayHint/refresh', () => null);
    connection.onRequest('workspace/semanticTokens/refresh', () => null);
    connection.onRequest('window/workDoneProgress/create', () => null);
    connection.onNotification('window/showMessage', () => undefined);
    connection.onNotification('window/logMessage', () => undefined);
    connection.onNotification('$/progress', () => undefined);
    connection.onRequest('workspace/applyEdit', params => applyEdit?.(params) ?? { applied: false, failureReason: 'benchmark' });
    connection.listen();
    const { capabilities } = await connection.sendRequest('initialize', { processId: process.pid, rootUri: null, capabilities: { textDocument: { publishDiagnostics: { versionSupport: true } } } });
    connection.sendNotification('initialized', {});

    // Diagnostics already published count: a quick server can answer before the caller asks.
    const diagnosticsFor = (uri, version) => new Promise(resolve => {
        const w = { uri, version, resolve };
        const earlier = published.find(p => answers(w, p));
        if (earlier) resolve(earlier);
        else waiting.add(w);
    });
    /** Opens a file (its text as given) and waits for its first diagnostics; resolves with them and how long they took. */
    const open = async (file, text) => {
        const uri = pathToFileURL(file).toString();
        const started = performance.now();
        const diagnostics = diagnosticsFor(uri, 1);
        connection.sendNotification('textDocument/didOpen', { textDocument: { uri, languageId: 'battle', version: 1, text } });
        const params = await diagnostics;
        return { uri, ms: performance.now() - started, diagnostics: params.diagnostics };
    };
    /** Sends one edit (a change event) of `version`; does not wait. */
    const change = (uri, version, range, text) => connection.sendNotification('textDocument/didChange', {
        textDocument: { uri, version }, contentChanges: [{ range, text }]
    });
    const stop = async () => {
        await connection.sendRequest('shutdown');
        const exited = new Promise(resolve => { proc.once('exit', resolve); setTimeout(resolve, 5000); });
        await connection.sendNotification('exit');
        await exited;
        connection.dispose();
        if (proc.exitCode === null) proc.kill();
    };
    return { proc, connection, capabilities, published, diagnosticsFor, open, change, stop };
}
