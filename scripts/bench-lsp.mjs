#!/usr/bin/env node
/* global process, console */
// `npm run bench:lsp`: edit latency and memory of the bundled language server (out/language/main.cjs,
// the file the .vsix ships), driven over stdio as an editor drives it, on generated SCRUD campaigns.
// For each size it prints: didOpen → first diagnostics; a one-character edit → diagnostics (p50/p95
// over --edits edits at random places); hover, completion and code-lens latency; the server's RSS;
// and beside them a cold `umpire check` of the same file (wall, CPU, max RSS).
//
//   node scripts/bench-lsp.mjs [--sizes 1000,10000,50000,200000] [--edits 50] [--seed 7]
//
// Figures depend on the machine and its load: the script prints the load average with them.
import { spawn, spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { createProtocolConnection, StreamMessageReader, StreamMessageWriter } from 'vscode-languageserver-protocol/node.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const server = path.join(root, 'out', 'language', 'main.cjs');
const arg = (name, fallback) => {
    const i = process.argv.indexOf(`--${name}`);
    return i >= 0 ? process.argv[i + 1] : fallback;
};
const sizes = arg('sizes', '1000,10000,50000,200000').split(',').map(Number);
const edits = Number(arg('edits', '50'));
let state = Number(arg('seed', '7'));
const random = () => ((state = (state * 1103515245 + 12345) % 2147483648) / 2147483648);

if (!fs.existsSync(server)) {
    console.error('bench:lsp: out/language/main.cjs is missing: run npm run build first.');
    process.exit(1);
}

/** A SCRUD campaign of about `lines` lines: forces of units, and engagements with seeds between them. */
function scenario(lines) {
    const out = ['scenario "Benchmark"', 'rules scrud', 'grade Veteran +1', 'grade Line 0', 'modifier Uphill -1', ''];
    let k = 0;
    while (out.length < lines) {
        out.push(`force F${k} {`, '  unit Guard foot Veteran', '  unit Line foot Line x3', '  unit Hussars horse Line', '}');
        if (k > 0) out.push(`engagement E${k} {`, `  F${k} attacks F${k - 1}`, `  factor Uphill on F${k}`, `  seed ${k}`, '}');
        k++;
    }
    return out.join('\n') + '\n';
}

const percentile = (xs, p) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(p * xs.length))];
const ms = x => `${x.toFixed(0)} ms`;

function rssOf(pid) {
    const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
    return Number(/VmRSS:\s+(\d+)/.exec(status)[1]) / 1024;
}

async function measure(lines) {
    const text = scenario(lines);
    const file = path.join(os.tmpdir(), `umpire-bench-${lines}.battle`);
    fs.writeFileSync(file, text);
    const uri = pathToFileURL(file).toString();
    const proc = spawn(process.execPath, [server, '--stdio'], { stdio: ['pipe', 'pipe', 'ignore'] });
    const connection = createProtocolConnection(new StreamMessageReader(proc.stdout), new StreamMessageWriter(proc.stdin));
    connection.listen();
    let waiting;
    connection.onNotification('textDocument/publishDiagnostics', params => {
        if (params.uri === uri && waiting && (params.version === undefined || params.version >= waiting.version)) waiting.resolve(params);
    });
    connection.onRequest('workspace/configuration', params => params.items.map(() => null));
    connection.onRequest('client/registerCapability', () => null);
    connection.onRequest('workspace/codeLens/refresh', () => null);
    connection.onRequest('workspace/inlayHint/refresh', () => null);
    connection.onRequest('workspace/semanticTokens/refresh', () => null);
    const diagnosticsFor = version => new Promise(resolve => { waiting = { version, resolve }; });
    await connection.sendRequest('initialize', { processId: process.pid, rootUri: null, capabilities: { textDocument: { publishDiagnostics: { versionSupport: true } } } });
    connection.sendNotification('initialized', {});

    let started = performance.now();
    let diagnostics = diagnosticsFor(1);
    connection.sendNotification('textDocument/didOpen', { textDocument: { uri, languageId: 'battle', version: 1, text } });
    await diagnostics;
    const open = performance.now() - started;

    const docLines = text.split('\n');
    const latencies = [];
    for (let v = 2; v < 2 + edits; v++) {
        // One character: a space typed at the start of a random line (the file stays valid).
        const line = Math.floor(random() * (docLines.length - 1));
        started = performance.now();
        diagnostics = diagnosticsFor(v);
        connection.sendNotification('textDocument/didChange', { textDocument: { uri, version: v }, contentChanges: [{ range: { start: { line, character: 0 }, end: { line, character: 0 } }, text: ' ' }] });
        await diagnostics;
        latencies.push(performance.now() - started);
    }
    const middle = Math.floor(docLines.length / 2);
    const timed = async (method, params) => { const t = performance.now(); await connection.sendRequest(method, params); return performance.now() - t; };
    const hover = await timed('textDocument/hover', { textDocument: { uri }, position: { line: middle, character: 10 } });
    const completion = await timed('textDocument/completion', { textDocument: { uri }, position: { line: middle, character: 2 } });
    const lens = await timed('textDocument/codeLens', { textDocument: { uri } });
    const rss = rssOf(proc.pid);
    await connection.sendRequest('shutdown');
    const exited = new Promise(resolve => { proc.once('exit', resolve); setTimeout(resolve, 5000); });
    await connection.sendNotification('exit');
    await exited;
    connection.dispose();
    if (proc.exitCode === null) proc.kill();

    const cold = spawnSync('/usr/bin/time', ['-f', '%e %U %S %M', process.execPath, path.join(root, 'bin', 'umpire.cjs'), 'check', file], { encoding: 'utf8' });
    const [wall, user, sys, maxKb] = cold.stderr.trim().split('\n').pop().split(' ').map(Number);
    fs.rmSync(file);
    return { lines: docLines.length - 1, open, p50: percentile(latencies, 0.5), p95: percentile(latencies, 0.95), hover, completion, lens, rss, cold: { wall, cpu: user + sys, rss: maxKb / 1024 } };
}

console.log(`bench:lsp on ${os.cpus().length} cores, load average ${os.loadavg().map(l => l.toFixed(1)).join(' ')}, ${edits} edits per size`);
console.log('lines     didOpen→diag   edit→diag p50   p95      hover   completion  codeLens   server RSS   cold check (wall / CPU / RSS)');
for (const lines of sizes) {
    const r = await measure(lines);
    console.log([
        String(r.lines).padEnd(9), ms(r.open).padStart(12), ms(r.p50).padStart(15), ms(r.p95).padStart(8),
        ms(r.hover).padStart(9), ms(r.completion).padStart(12), ms(r.lens).padStart(10), `${r.rss.toFixed(0)} MB`.padStart(12),
        `   ${r.cold.wall.toFixed(2)} s / ${r.cold.cpu.toFixed(2)} s / ${r.cold.rss.toFixed(0)} MB`
    ].join(' '));
}
