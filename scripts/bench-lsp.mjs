#!/usr/bin/env node
/* global process, console, performance, setTimeout */
// `npm run bench:lsp`: edit latency and memory of the bundled language server (out/language/main.cjs,
// the file the .vsix ships), driven over stdio as an editor drives it, on generated SCRUD campaigns.
// For each size it prints: didOpen → first diagnostics; a one-character edit → diagnostics (p50/p95
// over --edits edits at random places, and the server's CPU time per edit, which the machine's load
// does not stretch); hover, completion and code-lens latency; the server's RSS;
// and beside them a cold `umpire check` of the same file (wall, CPU, max RSS).
//
// Then the typing run (issue 19): --keys keystrokes, one every --pace ms, typed into an engagement
// in the middle of a --typing-lines file (half-typed lines included, as a person types), and it prints
// how often diagnostics came while typing (the longest gap), how long after the last keystroke the
// diagnostics of the final text came, and a hover sent right after five quick keystrokes.
//
//   node scripts/bench-lsp.mjs [--sizes 1000,10000,50000,200000] [--edits 50] [--seed 7]
//                              [--keys 300] [--pace 160] [--typing-lines 10000]
//                              [--server out/language/main.cjs] [--cli bin/umpire.cjs]
//                              [--server-node-args "--cpu-prof --cpu-prof-dir=/tmp/prof"]
//
// Figures depend on the machine and its load: the script prints the load average with them.
import { spawn, spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { createProtocolConnection, StreamMessageReader, StreamMessageWriter } from 'vscode-languageserver-protocol/node.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const arg = (name, fallback) => {
    const i = process.argv.indexOf(`--${name}`);
    return i >= 0 ? process.argv[i + 1] : fallback;
};
// Another build of the server or CLI (say, of an older commit) can be measured the same way.
const server = path.resolve(arg('server', path.join(root, 'out', 'language', 'main.cjs')));
const cli = path.resolve(arg('cli', path.join(root, 'bin', 'umpire.cjs')));
const serverNodeArgs = arg('server-node-args', '').split(' ').filter(Boolean);
const keys = Number(arg('keys', '300'));
const pace = Number(arg('pace', '160'));
const typingLines = Number(arg('typing-lines', '10000'));
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

/** The CPU time (user + system, ms) a process has used: on a shared machine, a measure the load does not stretch. */
function cpuOf(pid) {
    const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return (Number(fields[11]) + Number(fields[12])) * 10;
}

function rssOf(pid) {
    const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
    return Number(/VmRSS:\s+(\d+)/.exec(status)[1]) / 1024;
}

/** The server over stdio, with a file open; `published` lists every publishDiagnostics with its time. */
async function startServer(file, text) {
    const uri = pathToFileURL(file).toString();
    const proc = spawn(process.execPath, [...serverNodeArgs, server, '--stdio'], { stdio: ['pipe', 'pipe', 'ignore'] });
    const connection = createProtocolConnection(new StreamMessageReader(proc.stdout), new StreamMessageWriter(proc.stdin));
    connection.listen();
    let waiting;
    const published = [];
    connection.onNotification('textDocument/publishDiagnostics', params => {
        if (params.uri !== uri) return;
        published.push({ at: performance.now(), version: params.version, count: params.diagnostics.length });
        // A server that does not say which version its diagnostics are for: the first after the change counts.
        if (waiting && (params.version === undefined || params.version >= waiting.version)) waiting.resolve(params);
    });
    connection.onRequest('workspace/configuration', params => params.items.map(() => null));
    connection.onRequest('client/registerCapability', () => null);
    connection.onRequest('workspace/codeLens/refresh', () => null);
    connection.onRequest('workspace/inlayHint/refresh', () => null);
    connection.onRequest('workspace/semanticTokens/refresh', () => null);
    const diagnosticsFor = version => new Promise(resolve => { waiting = { version, resolve }; });
    await connection.sendRequest('initialize', { processId: process.pid, rootUri: null, capabilities: { textDocument: { publishDiagnostics: { versionSupport: true } } } });
    connection.sendNotification('initialized', {});

    const started = performance.now();
    const diagnostics = diagnosticsFor(1);
    connection.sendNotification('textDocument/didOpen', { textDocument: { uri, languageId: 'battle', version: 1, text } });
    await diagnostics;
    const open = performance.now() - started;
    const stop = async () => {
        await connection.sendRequest('shutdown');
        const exited = new Promise(resolve => { proc.once('exit', resolve); setTimeout(resolve, 5000); });
        await connection.sendNotification('exit');
        await exited;
        connection.dispose();
        if (proc.exitCode === null) proc.kill();
    };
    return { uri, proc, connection, diagnosticsFor, published, open, stop };
}

async function measure(lines) {
    const text = scenario(lines);
    const file = path.join(os.tmpdir(), `umpire-bench-${lines}.battle`);
    fs.writeFileSync(file, text);
    const { uri, proc, connection, diagnosticsFor, open, stop } = await startServer(file, text);
    let started, diagnostics;

    const docLines = text.split('\n');
    const latencies = [];
    const cpuBefore = cpuOf(proc.pid);
    for (let v = 2; v < 2 + edits; v++) {
        // One character: a space typed at the start of a random line (the file stays valid).
        const line = Math.floor(random() * (docLines.length - 1));
        started = performance.now();
        diagnostics = diagnosticsFor(v);
        connection.sendNotification('textDocument/didChange', { textDocument: { uri, version: v }, contentChanges: [{ range: { start: { line, character: 0 }, end: { line, character: 0 } }, text: ' ' }] });
        await diagnostics;
        latencies.push(performance.now() - started);
    }
    const cpuPerEdit = (cpuOf(proc.pid) - cpuBefore) / edits;
    const middle = Math.floor(docLines.length / 2);
    const timed = async (method, params) => { const t = performance.now(); await connection.sendRequest(method, params); return performance.now() - t; };
    const hover = await timed('textDocument/hover', { textDocument: { uri }, position: { line: middle, character: 10 } });
    const completion = await timed('textDocument/completion', { textDocument: { uri }, position: { line: middle, character: 2 } });
    const lens = await timed('textDocument/codeLens', { textDocument: { uri } });
    const rss = rssOf(proc.pid);
    await stop();

    const cold = spawnSync('/usr/bin/time', ['-f', '%e %U %S %M', process.execPath, cli, 'check', file], { encoding: 'utf8' });
    const [wall, user, sys, maxKb] = cold.stderr.trim().split('\n').pop().split(' ').map(Number);
    fs.rmSync(file);
    return { lines: docLines.length - 1, open, p50: percentile(latencies, 0.5), p95: percentile(latencies, 0.95), cpuPerEdit, hover, completion, lens, rss, cold: { wall, cpu: user + sys, rss: maxKb / 1024 } };
}

const sleep = ms => new Promise(resolve => setTimeout(resolve, ms));

/**
 * Typing at a person's pace (issue 19): a new factor line typed character by character into an
 * engagement in the middle of the file, over and over, one keystroke every `pace` ms, without waiting
 * for the server. Then five quick keystrokes and a hover at once.
 */
async function typing(lines) {
    const text = scenario(lines);
    const file = path.join(os.tmpdir(), `umpire-bench-typing-${lines}.battle`);
    fs.writeFileSync(file, text);
    const { uri, proc, connection, diagnosticsFor, published, open, stop } = await startServer(file, text);
    const docLines = text.split('\n');
    // The line after the `F attacks G` line of the middle engagement: new lines are typed there.
    let line = docLines.findIndex((l, i) => i > docLines.length / 2 && l.startsWith('engagement ')) + 2;
    const attacks = line - 1;
    const k = Number(/^ {2}F(\d+) attacks/.exec(docLines[attacks])?.[1] ?? 1);
    const typed = `  factor Uphill on F${k}.Line#2\n`;
    let version = 1, column = 0, i = 0;
    const key = () => {
        const ch = typed[i++ % typed.length];
        version++;
        connection.sendNotification('textDocument/didChange', { textDocument: { uri, version }, contentChanges: [{ range: { start: { line, character: column }, end: { line, character: column } }, text: ch }] });
        if (ch === '\n') { line++; column = 0; } else column++;
    };
    const from = published.length;
    const first = performance.now();
    for (let n = 0; n < keys; n++) {
        key();
        await sleep(pace);
    }
    const last = performance.now();
    const final = version;
    await diagnosticsFor(final);
    const caughtUp = performance.now() - last;
    const during = published.slice(from).filter(p => p.at <= last);
    const times = [first, ...during.map(p => p.at), last];
    const longestGap = Math.max(...times.slice(1).map((t, j) => t - times[j]));
    const rss = rssOf(proc.pid);
    // Five quick keystrokes, then at once a hover on the first force of the engagement typed into.
    for (let n = 0; n < 5; n++) key();
    const t = performance.now();
    await connection.sendRequest('textDocument/hover', { textDocument: { uri }, position: { line: attacks, character: 3 } });
    const hover = performance.now() - t;
    await stop();
    fs.rmSync(file);
    return { lines: docLines.length - 1, open, keys, publishes: during.length, longestGap, caughtUp, hover, rss };
}

console.log(`bench:lsp on ${os.cpus().length} cores, load average ${os.loadavg().map(l => l.toFixed(1)).join(' ')}, ${edits} edits per size`);
console.log('lines     didOpen→diag   edit→diag p50   p95   CPU/edit      hover   completion  codeLens   server RSS   cold check (wall / CPU / RSS)');
for (const lines of sizes) {
    const r = await measure(lines);
    console.log([
        String(r.lines).padEnd(9), ms(r.open).padStart(12), ms(r.p50).padStart(15), ms(r.p95).padStart(8), ms(r.cpuPerEdit).padStart(10),
        ms(r.hover).padStart(9), ms(r.completion).padStart(12), ms(r.lens).padStart(10), `${r.rss.toFixed(0)} MB`.padStart(12),
        `   ${r.cold.wall.toFixed(2)} s / ${r.cold.cpu.toFixed(2)} s / ${r.cold.rss.toFixed(0)} MB`
    ].join(' '));
}
if (keys > 0) {
    const r = await typing(typingLines);
    console.log(`typing into ${r.lines} lines: ${r.keys} keystrokes ${pace} ms apart; diagnostics published ${r.publishes} times while typing, ` +
        `longest wait ${ms(r.longestGap)}; final diagnostics ${ms(r.caughtUp)} after the last keystroke; ` +
        `hover right after 5 quick keystrokes ${ms(r.hover)}; server RSS ${r.rss.toFixed(0)} MB`);
}
