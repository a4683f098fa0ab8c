#!/usr/bin/env node
/* global process, console, performance, setTimeout */
// `npm run bench:resolve-all`: what Resolve all costs (issue 19), on chained SCRUD campaigns.
// Campaign N: N forces of 20 units ×2; engagement Ek pits force k−1 against force k, so every
// engagement fights a force the one before it fought, and reads the state its outcome left.
// For each --forces size it prints `umpire check` and `umpire resolve --write` (wall, CPU, max RSS);
// then, on the largest, `umpire.resolveAll` over LSP to the bundled server (out/language/main.cjs):
// time and server RSS (now, and its peak) for a first, second and third call (the client refuses the
// edit, so the second call does the same work: memory must not grow), and how soon a cancelled call
// answers.
//
//   node scripts/bench-resolve-all.mjs [--forces 10,20,40] [--cancel-after 200]
//                                      [--server out/language/main.cjs] [--cli bin/umpire.cjs]
//                                      [--server-node-args "--cpu-prof --cpu-prof-dir=/tmp/prof"]
//
// Figures depend on the machine and its load: the script prints the load average with them.
import { spawn, spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { CancellationTokenSource, createProtocolConnection, ExecuteCommandRequest, StreamMessageReader, StreamMessageWriter } from 'vscode-languageserver-protocol/node.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const arg = (name, fallback) => {
    const i = process.argv.indexOf(`--${name}`);
    return i >= 0 ? process.argv[i + 1] : fallback;
};
const server = path.resolve(arg('server', path.join(root, 'out', 'language', 'main.cjs')));
const cli = path.resolve(arg('cli', path.join(root, 'bin', 'umpire.cjs')));
const sizes = arg('forces', '10,20,40').split(',').map(Number);
const cancelAfter = Number(arg('cancel-after', '200'));
// Node options for the server only (a profile of it: docs/performance.md).
const serverNodeArgs = arg('server-node-args', '').split(' ').filter(Boolean);

if (!fs.existsSync(server)) {
    console.error('bench:resolve-all: out/language/main.cjs is missing: run npm run build first.');
    process.exit(1);
}

/** `forces` forces of 20 units ×2, each fighting the next: forces − 1 chained engagements with seeds. */
function chainedCampaign(forces) {
    const lines = ['scenario "Long campaign"', 'rules scrud', 'grade Veteran +1', 'modifier Tired -1'];
    for (let f = 0; f < forces; f++) {
        lines.push(`force F${f} {`);
        for (let u = 0; u < 20; u++) lines.push(`  unit U${u} foot Veteran x2`);
        lines.push('}');
    }
    for (let f = 1; f < forces; f++) {
        lines.push(`turn ${f} {`, `  engagement E${f} {`, `    F${f - 1} attacks F${f}`, `    factor Tired on F${f}.U1#1`, `    seed ${f}`, '  }', '}');
    }
    return lines.join('\n') + '\n';
}

const mb = kb => `${(kb / 1024).toFixed(0)} MB`;
const s = x => `${(x / 1000).toFixed(2)} s`;

/** Wall, CPU and max RSS of one CLI run. */
function timedCli(args) {
    const r = spawnSync('/usr/bin/time', ['-f', '%e %U %S %M', process.execPath, cli, ...args], { encoding: 'utf8' });
    const [wall, user, sys, maxKb] = r.stderr.trim().split('\n').pop().split(' ').map(Number);
    return { code: r.status, wall, cpu: user + sys, maxKb, stdout: r.stdout };
}

function memoryOf(pid) {
    const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
    return { rssKb: Number(/VmRSS:\s+(\d+)/.exec(status)[1]), peakKb: Number(/VmHWM:\s+(\d+)/.exec(status)[1]) };
}

async function startServer(file, text) {
    const uri = pathToFileURL(file).toString();
    const proc = spawn(process.execPath, [...serverNodeArgs, server, '--stdio'], { stdio: ['pipe', 'pipe', 'ignore'] });
    const connection = createProtocolConnection(new StreamMessageReader(proc.stdout), new StreamMessageWriter(proc.stdin));
    let edits = 0;
    connection.onRequest('workspace/configuration', params => params.items.map(() => null));
    connection.onRequest('client/registerCapability', () => null);
    connection.onRequest('workspace/codeLens/refresh', () => null);
    connection.onRequest('workspace/inlayHint/refresh', () => null);
    connection.onRequest('workspace/semanticTokens/refresh', () => null);
    connection.onRequest('window/workDoneProgress/create', () => null);
    connection.onNotification('window/showMessage', () => undefined);
    connection.onNotification('window/logMessage', () => undefined);
    connection.onNotification('$/progress', () => undefined);
    // The edit is refused, so that every call resolves the whole campaign again.
    connection.onRequest('workspace/applyEdit', () => { edits++; return { applied: false, failureReason: 'benchmark' }; });
    let diagnosed;
    const opened = new Promise(resolve => { diagnosed = resolve; });
    connection.onNotification('textDocument/publishDiagnostics', params => { if (params.uri === uri) diagnosed(params); });
    connection.listen();
    await connection.sendRequest('initialize', { processId: process.pid, rootUri: null, capabilities: {} });
    connection.sendNotification('initialized', {});
    connection.sendNotification('textDocument/didOpen', { textDocument: { uri, languageId: 'battle', version: 1, text } });
    const diagnostics = await opened;
    const stop = async () => {
        await connection.sendRequest('shutdown');
        const exited = new Promise(resolve => { proc.once('exit', resolve); setTimeout(resolve, 5000); });
        await connection.sendNotification('exit');
        await exited;
        connection.dispose();
        if (proc.exitCode === null) proc.kill();
    };
    return { uri, proc, connection, diagnostics, stop, edits: () => edits };
}

console.log(`bench:resolve-all on ${os.cpus().length} cores, load average ${os.loadavg().map(l => l.toFixed(1)).join(' ')}`);
console.log('forces  engagements  lines   check (wall / CPU / RSS)        resolve --write (wall / CPU / RSS)');
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'umpire-bench-resolve-all-'));
try {
    for (const forces of sizes) {
        const text = chainedCampaign(forces);
        const file = path.join(dir, `chain-${forces}.battle`);
        fs.writeFileSync(file, text);
        const check = timedCli(['check', file]);
        const write = timedCli(['resolve', file, '--write']);
        if (write.code !== 0) throw new Error(`resolve --write failed (${write.code}): ${write.stdout}`);
        const again = timedCli(['resolve', file, '--write']);
        if (!/nothing changed/.test(again.stdout)) throw new Error(`a second resolve --write changed the file: ${again.stdout}`);
        console.log([
            String(forces).padEnd(7), String(forces - 1).padEnd(12), String(text.split('\n').length - 1).padEnd(7),
            `${check.wall.toFixed(2)} s / ${check.cpu.toFixed(2)} s / ${mb(check.maxKb)}`.padEnd(31),
            `${write.wall.toFixed(2)} s / ${write.cpu.toFixed(2)} s / ${mb(write.maxKb)}`
        ].join(' '));
    }

    const forces = Math.max(...sizes);
    const text = chainedCampaign(forces);
    const file = path.join(dir, `server-${forces}.battle`);
    fs.writeFileSync(file, text);
    const { uri, proc, connection, diagnostics, stop, edits } = await startServer(file, text);
    if (diagnostics.diagnostics.some(d => d.severity === 1)) throw new Error(`the campaign has errors: ${diagnostics.diagnostics[0].message}`);
    const call = async token => connection.sendRequest(ExecuteCommandRequest.type, { command: 'umpire.resolveAll', arguments: [{ uri, version: 1 }] }, token);
    const before = memoryOf(proc.pid);
    console.log(`umpire.resolveAll over LSP, ${forces - 1} chained engagements, ${text.split('\n').length - 1} lines; server RSS before ${mb(before.rssKb)}`);
    for (const n of [1, 2, 3]) {
        const t = performance.now();
        const result = await call();
        const took = performance.now() - t;
        if (edits() !== n) throw new Error(`call ${n} sent no edit: ${JSON.stringify(result)}`);
        const m = memoryOf(proc.pid);
        console.log(`  call ${n}: ${s(took)}; server RSS after ${mb(m.rssKb)}, peak so far ${mb(m.peakKb)}`);
    }
    const latencies = [];
    for (let i = 0; i < 3; i++) {
        const source = new CancellationTokenSource();
        const answered = call(source.token).then(() => 'answered', err => (err.code === -32800 ? 'cancelled' : `error ${err.code}`));
        await new Promise(resolve => setTimeout(resolve, cancelAfter));
        const at = performance.now();
        source.cancel();
        const how = await answered;
        latencies.push(`${(performance.now() - at).toFixed(0)} ms (${how})`);
    }
    console.log(`  cancelled ${cancelAfter} ms after it was sent: answered ${latencies.join(', ')} after the cancel; edits sent ${edits() - 3}`);
    await stop();
} finally {
    fs.rmSync(dir, { recursive: true, force: true });
}
