#!/usr/bin/env node
/* global process, console, performance, setTimeout */
// `npm run bench:lsp`: edit latency and memory of the bundled language server (out/language/main.cjs,
// the file the .vsix ships), driven over stdio as an editor drives it, on generated SCRUD campaigns.
// For each size it prints: didOpen → first diagnostics; a one-character edit → diagnostics (p50/p95
// over --edits edits at random places, and the server's CPU time per edit, which the machine's load
// does not stretch); hover, completion and code-lens latency; the server's RSS;
// and beside them a cold `umpire check` of the same file (wall, CPU, max RSS: the medians of --cold-runs runs, the
// CPU's range beside them).
//
// Then the same for files with thousands of errors (--error-sizes, --errors problems each: names not
// declared, lines that do not read, checks that fail, or only those --error-kinds names; the number
// of problems the server counts is printed beside them), and for a campaign split over files (--campaign ENGAGEMENTS/FILES: an order of
// battle imported by scenario files; one scenario file opened and edited, its imports read from disk).
//
// Then the same for campaigns kept as turns (--turn-sizes, --per-turn engagements in each turn): the
// edits are made inside the turns only (an edit inside a turn of hundreds of actions).
//
// Then the typing run: --keys keystrokes, one every --pace ms, typed into a --typing-lines file (half-typed
// lines included, as a person types), and it prints each keystroke's change → diagnostics (p50/p95/max: the
// time from a keystroke to the first diagnostics of its text or a later one), the server's CPU time per keystroke
// (which the machine's load does not stretch), how often diagnostics came
// while typing (the longest gap), how long after the last keystroke the diagnostics of the final text came,
// and a hover sent right after five quick keystrokes. --typing-at says where: `middle` (a factor line typed
// into the middle engagement), `top` (the same into the first engagement, every action of the file after
// it) or `header` (the scenario's title typed longer, in its `scenario "…"` line); a list runs each.
//
//   node scripts/bench-lsp.mjs [--sizes 1000,10000,50000,200000] [--edits 50] [--read-ms 0] [--seed 7] [--cold-runs 5]
//                              [--error-sizes 10000,50000] [--errors 20000] [--error-kinds names,syntax,checks] [--campaign 500/20]
//                              [--turn-sizes 10000,50000] [--per-turn 200]
//                              [--keys 300] [--pace 160] [--typing-lines 10000] [--typing-at middle,top,header]
//                              [--editor-requests 10000,50000]
//                              [--editor-typing 10000,50000] [--editor-edits 40] [--editor-pace 300]
//                              [--server out/language/main.cjs] [--cli bin/umpire.cjs]
//                              [--server-node-args "--cpu-prof --cpu-prof-dir=/tmp/prof"]
//
// Figures depend on the machine and its load: the script prints the load average with them.
// BENCH_EACH=1 prints each edit's line and latency on stderr (where in the file the slow edits were).
// --read-ms N waits N ms after the first diagnostics before the first edit, as an umpire reads them before
// typing (0, the default, types at once): what the server does in idle time after a document's first build (its
// action keys, the warm-up) then falls outside the edits' CPU.
// --editor-requests 10000,50000 times what an editor asks for over the whole file after an edit
// (semantic tokens, document symbols, folding ranges, code lenses).
// --editor-typing 10000,50000 edits as VS Code does: the four asked once after the open (untimed), then after each one-character edit (at a random line)
// the four whole-file requests go out at once, without waiting for them; the still-pending ones are
// cancelled ($/cancelRequest) when the next edit goes out, --editor-pace ms after the diagnostics
// came (or sooner, once all four answered). Semantic tokens are asked as a delta of the last answer
// when the server offers deltas. It prints edit → diagnostics p50/p95 over --editor-edits edits and
// each request's p50/p95 (answered ones; how many were cancelled or refused as stale beside them),
// and the server's RSS at the end (the answers it keeps included).
//
// At the end it compares the figures of docs/performance.md (scripts/bench-figures.mjs) with their
// targets and exits 1 when one is missed; --write-figures rewrites that page's figures table (every
// figure must have been measured: the default sizes measure them all).
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { campaign, ERROR_KINDS, errorFile, splitCampaign, turnsCampaign } from './bench-files.mjs';
import { CancellationTokenSource } from 'vscode-languageserver-protocol/node';
import { arg, buildOptions, cpuOf, machine, memoryOf, root, startServer, threadCpuOf, timedCli } from './lsp-driver.mjs';
import { FIGURES, figuresOf, missedTargets, writeFigures } from './bench-figures.mjs';

const { server, cli, serverNodeArgs } = buildOptions('bench:lsp');
const keys = Number(arg('keys', '300'));
const pace = Number(arg('pace', '160'));
const typingLines = Number(arg('typing-lines', '10000'));
const typingAt = arg('typing-at', 'middle').split(',').filter(Boolean);
const list = value => value.split(',').filter(Boolean).map(Number);
const sizes = list(arg('sizes', '1000,10000,50000,200000'));
const errorSizes = list(arg('error-sizes', '10000,50000'));
const errors = Number(arg('errors', '20000'));
const turnSizes = list(arg('turn-sizes', ''));
const perTurn = Number(arg('per-turn', '200'));
const errorKinds = arg('error-kinds', ERROR_KINDS.join(',')).split(',');
const coldRuns = Math.max(1, Number(arg('cold-runs', '5')));
const [engagements, campaignFiles] = arg('campaign', '500/20').split('/').map(Number);
const edits = Number(arg('edits', '50'));
const readMs = Number(arg('read-ms', '0'));
const editorRequestSizes = list(arg('editor-requests', ''));
const editorTypingSizes = list(arg('editor-typing', ''));
const editorEdits = Number(arg('editor-edits', '40'));
const editorPace = Number(arg('editor-pace', '300'));
// An edit of a 200,000-line file takes seconds: fewer of them, so that the run ends in minutes.
const editsFor = lines => (lines > 100000 ? Math.min(edits, 10) : edits);
let state = Number(arg('seed', '7'));
const random = () => ((state = (state * 1103515245 + 12345) % 2147483648) / 2147483648);

const percentile = (xs, p) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(p * xs.length))];
const ms = x => `${x.toFixed(0)} ms`;
const rssOf = pid => memoryOf(pid).rssKb / 1024;

/** How many problems the server counts: those published, and the rest that `too-many-problems` says there are. */
function problemsIn(diagnostics) {
    const more = diagnostics.find(d => d.code === 'too-many-problems');
    const rest = more ? Number(/(\d+) more/.exec(more.message)?.[1] ?? 0) : 0;
    return diagnostics.length - (more ? 1 : 0) + rest;
}

/**
 * One row of the table: `files` written to a fresh folder, the first opened in the server; then
 * one-character edits of it (a space typed at the start of a random line), hover, completion and
 * code lenses in its middle, and a cold `umpire check` of it. `editable`, when given, says which
 * lines (0-based) the edits may go to.
 */
async function measure(files, editCount, editable) {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'umpire-bench-lsp-'));
    try {
        for (const f of files) fs.writeFileSync(path.join(dir, f.name), f.text);
        const file = path.join(dir, files[0].name);
        const text = files[0].text;
        const s = await startServer(server, { nodeArgs: serverNodeArgs });
        const opened = await s.open(file, text);
        const { uri } = opened;
        const docLines = text.split('\n');
        const latencies = [];
        // As an umpire reads the first squiggles before typing: what the server leaves for idle time is done then.
        if (readMs > 0) await new Promise(resolve => setTimeout(resolve, readMs));
        const cpuBefore = cpuOf(s.proc.pid);
        const threadsBefore = threadCpuOf(s.proc.pid);
        let threadsAfterFirst;
        for (let v = 2; v < 2 + editCount; v++) {
            const line = editable ? editable[Math.floor(random() * editable.length)] : Math.floor(random() * (docLines.length - 1));
            const started = performance.now();
            const diagnostics = s.diagnosticsFor(uri, v);
            s.change(uri, v, { start: { line, character: 0 }, end: { line, character: 0 } }, ' ');
            await diagnostics;
            latencies.push(performance.now() - started);
            if (v === 2) threadsAfterFirst = threadCpuOf(s.proc.pid);
            if (process.env.BENCH_EACH) console.error(`edit line ${line}: ${(performance.now() - started).toFixed(0)} ms  ${JSON.stringify(docLines[line].slice(0, 50))}`);
        }
        const cpuPerEdit = (cpuOf(s.proc.pid) - cpuBefore) / editCount;
        const split = editSplit(threadsBefore, threadsAfterFirst, threadCpuOf(s.proc.pid), editCount);
        const middle = Math.floor(docLines.length / 2);
        const timed = async (method, params) => { const t = performance.now(); await s.connection.sendRequest(method, params); return performance.now() - t; };
        const hover = await timed('textDocument/hover', { textDocument: { uri }, position: { line: middle, character: 10 } });
        const completion = await timed('textDocument/completion', { textDocument: { uri }, position: { line: middle, character: 2 } });
        const lens = await timed('textDocument/codeLens', { textDocument: { uri } });
        const rss = rssOf(s.proc.pid);
        await s.stop();
        const cold = coldCheck(file);
        return {
            lines: docLines.length - 1, problems: problemsIn(opened.diagnostics), open: opened.ms, edits: editCount,
            p50: percentile(latencies, 0.5), p95: percentile(latencies, 0.95), cpuPerEdit, split, hover, completion, lens, rss,
            cold
        };
    } finally {
        fs.rmSync(dir, { recursive: true, force: true });
    }
}

/**
 * The server's CPU in the first edit and, per edit, in the later ones, each with its main thread's part.
 * Typed at once, the first edit also makes the keys the open left for later (docs/performance.md, "A first
 * build's keys, made after its problems"), and V8 compiles that code and the edits' own as it turns hot, so
 * CPU/edit over a few dozen edits mixes the two; this says which is which.
 */
function editSplit(before, afterFirst, after, editCount) {
    if (!before || !afterFirst || !after || editCount < 2) return undefined;
    const total = t => t.main + t.helpers;
    return {
        first: total(afterFirst) - total(before), firstMain: afterFirst.main - before.main,
        later: (total(after) - total(afterFirst)) / (editCount - 1), laterMain: (after.main - afterFirst.main) / (editCount - 1)
    };
}

/**
 * A cold `umpire check` of `file`, run --cold-runs times (the machine's speed moves by a third between runs
 * minutes apart, so one run says little): the median wall and CPU time, the CPU range, the median max RSS.
 */
function coldCheck(file) {
    const runs = Array.from({ length: coldRuns }, () => timedCli(cli, ['check', file]));
    const median = values => values.sort((a, b) => a - b)[Math.floor((values.length - 1) / 2)];
    const cpus = runs.map(r => r.cpu).sort((a, b) => a - b);
    return { wall: median(runs.map(r => r.wall)), cpu: median(cpus), cpuMin: cpus[0], cpuMax: cpus[cpus.length - 1], rss: median(runs.map(r => r.maxKb / 1024)) };
}

function row(label, r) {
    console.log([
        label.padEnd(18), String(r.lines).padStart(7), String(r.problems).padStart(9), ms(r.open).padStart(13), ms(r.p50).padStart(14), ms(r.p95).padStart(8),
        ms(r.cpuPerEdit).padStart(9), String(r.edits).padStart(6), ms(r.hover).padStart(8), ms(r.completion).padStart(11), ms(r.lens).padStart(9),
        `${r.rss.toFixed(0)} MB`.padStart(11),
        `   ${r.cold.wall.toFixed(2)} s / ${r.cold.cpu.toFixed(2)} s${coldRuns > 1 ? ` (${r.cold.cpuMin.toFixed(2)}–${r.cold.cpuMax.toFixed(2)})` : ''} / ${r.cold.rss.toFixed(0)} MB`
    ].join(' '));
    const s = r.split;
    if (s) console.log(`  of its CPU/edit: first edit ${ms(s.first)} (main thread ${ms(s.firstMain)}), later edits ${s.later.toFixed(1)} ms each (main thread ${s.laterMain.toFixed(1)} ms)`);
}

const sleep = ms => new Promise(resolve => setTimeout(resolve, ms));

/** The requests VS Code sends for the whole file after an edit (outline and breadcrumbs, folding, colours, lenses). */
const EDITOR_REQUESTS = [
    ['semanticTokens', 'textDocument/semanticTokens/full'],
    ['documentSymbol', 'textDocument/documentSymbol'],
    ['foldingRange', 'textDocument/foldingRange'],
    ['codeLens', 'textDocument/codeLens']
];

/** Each of EDITOR_REQUESTS timed once, one after the other, after a one-character edit in the middle of a `lines`-line campaign and its diagnostics. */
async function editorRequests(lines) {
    const { s, uri, close } = await openCampaign(lines, 'requests');
    // VS Code asks for all four when it opens the file (untimed here): the edit's are the ones timed.
    for (const [, method] of EDITOR_REQUESTS) await s.connection.sendRequest(method, { textDocument: { uri } });
    const diagnostics = s.diagnosticsFor(uri, 2);
    s.change(uri, 2, { start: { line: Math.floor(lines / 2), character: 0 }, end: { line: Math.floor(lines / 2), character: 0 } }, ' ');
    await diagnostics;
    const times = [];
    for (const [, method] of EDITOR_REQUESTS) {
        const t = performance.now();
        await s.connection.sendRequest(method, { textDocument: { uri } });
        times.push(performance.now() - t);
    }
    await close();
    return times;
}

/**
 * Edits as VS Code makes them with an outline, folding, colours and lenses shown: a space typed at the
 * start of a random line, and at once the four whole-file requests, not awaited. The next edit goes
 * out once all four answered, or `editorPace` ms after the edit's diagnostics came, cancelling the
 * requests still pending, as VS Code does when the text changes under them.
 */
async function editorTyping(lines) {
    const { s, uri, text, close } = await openCampaign(lines, 'editor-typing');
    const docLines = text.split('\n');
    const delta = s.capabilities.semanticTokensProvider?.full?.delta === true;
    const names = EDITOR_REQUESTS.map(([name]) => name);
    const latencies = Object.fromEntries(names.map(n => [n, []]));
    const refused = Object.fromEntries(names.map(n => [n, 0]));
    const diagnostics = [];
    let resultId;
    // VS Code asks for all four when it opens the file: so does this run, untimed.
    for (const [name, method] of EDITOR_REQUESTS) {
        const answer = await s.connection.sendRequest(method, { textDocument: { uri } });
        if (name === 'semanticTokens') resultId = answer?.resultId;
    }
    let pending = [];
    const cpuBefore = cpuOf(s.proc.pid);
    for (let v = 2; v < 2 + editorEdits; v++) {
        for (const p of pending) p.source.cancel();
        await Promise.all(pending.map(p => p.done));
        const line = Math.floor(random() * (docLines.length - 1));
        const started = performance.now();
        const published = s.diagnosticsFor(uri, v);
        s.change(uri, v, { start: { line, character: 0 }, end: { line, character: 0 } }, ' ');
        pending = EDITOR_REQUESTS.map(([name, method]) => {
            const source = new CancellationTokenSource();
            const tokensDelta = name === 'semanticTokens' && delta && resultId !== undefined;
            const params = tokensDelta ? { textDocument: { uri }, previousResultId: resultId } : { textDocument: { uri } };
            const t = performance.now();
            const entry = { source, answered: false };
            entry.done = s.connection.sendRequest(tokensDelta ? 'textDocument/semanticTokens/full/delta' : method, params, source.token).then(answer => {
                entry.answered = true;
                latencies[name].push(performance.now() - t);
                if (name === 'semanticTokens' && answer?.resultId) resultId = answer.resultId;
            }, () => { entry.answered = true; refused[name]++; });
            return entry;
        });
        await published;
        diagnostics.push(performance.now() - started);
        await Promise.race([Promise.all(pending.map(p => p.done)), sleep(editorPace)]);
        pending = pending.filter(p => !p.answered);
    }
    await Promise.all(pending.map(p => p.done));
    const cpuPerEdit = (cpuOf(s.proc.pid) - cpuBefore) / editorEdits;
    const rss = rssOf(s.proc.pid);
    await close();
    return { lines: docLines.length - 1, diagnostics, latencies, refused, cpuPerEdit, delta, rss };
}

/** A generated `lines`-line campaign written to a temp file and opened in a fresh server; `close` stops both. */
async function openCampaign(lines, label) {
    const text = campaign(lines);
    const file = path.join(os.tmpdir(), `umpire-bench-${label}-${lines}.battle`);
    fs.writeFileSync(file, text);
    const s = await startServer(server, { nodeArgs: serverNodeArgs });
    const { uri } = await s.open(file, text);
    return { s, uri, text, close: async () => { await s.stop(); fs.rmSync(file); } };
}

/**
 * Where the typing run types (`--typing-at`): the line and column of the first keystroke, the text
 * typed over and over, and the line and column the hover after five quick keystrokes asks about (the
 * first force of the engagement typed into, or of the first engagement when typing in the header).
 */
function typingPlace(docLines, at) {
    const engagementAfter = from => docLines.findIndex((l, i) => i > from && l.startsWith('engagement '));
    if (at === 'header') {
        const line = docLines.findIndex(l => l.startsWith('scenario "'));
        return { line, column: docLines[line].lastIndexOf('"'), typed: ' of the northern campaign', hover: { line: engagementAfter(0) + 1, character: 3 } };
    }
    if (at !== 'top' && at !== 'middle') throw new Error(`--typing-at: top, middle or header, not ${at}`);
    // The line after the `F attacks G` line of the engagement: new lines are typed there.
    const attacks = engagementAfter(at === 'top' ? 0 : docLines.length / 2) + 1;
    const k = Number(/^ {2}F(\d+)[. ]/.exec(docLines[attacks])?.[1] ?? 1);
    return { line: attacks + 1, column: 0, typed: `  factor Uphill on F${k}.Line#1\n`, hover: { line: attacks, character: 3 } };
}

/**
 * Typing at a person's pace, at `--typing-at`: one keystroke every `pace` ms, over and over, without
 * waiting for the server. Then five quick keystrokes and a hover at once.
 */
async function typing(lines, at) {
    const { s, uri, text, close } = await openCampaign(lines, 'typing');
    const docLines = text.split('\n');
    const place = typingPlace(docLines, at);
    const typed = place.typed;
    let { line, column } = place;
    let version = 1, i = 0;
    const sentAt = new Map();
    const key = () => {
        const ch = typed[i++ % typed.length];
        version++;
        sentAt.set(version, performance.now());
        s.change(uri, version, { start: { line, character: column }, end: { line, character: column } }, ch);
        if (ch === '\n') { line++; column = 0; } else column++;
    };
    const from = s.published.length;
    const cpuBefore = cpuOf(s.proc.pid);
    const first = performance.now();
    let lastKey = first;
    for (let n = 0; n < keys; n++) {
        key();
        lastKey = performance.now();
        await sleep(pace);
    }
    const last = performance.now();
    const final = version;
    await s.diagnosticsFor(uri, final);
    const cpuPerKey = (cpuOf(s.proc.pid) - cpuBefore) / keys;
    // From the last keystroke to when they were published (which can be before the wait began).
    const caughtUp = s.published.find(p => p.uri === uri && p.version >= final).at - lastKey;
    const during = s.published.slice(from).filter(p => p.uri === uri && p.at <= last);
    const times = [first, ...during.map(p => p.at), last];
    const longestGap = Math.max(...times.slice(1).map((t, j) => t - times[j]));
    // Each keystroke's change → diagnostics: to the first publication of its version or a later one.
    const ours = s.published.slice(from).filter(p => p.uri === uri);
    const changeToDiagnostics = [...sentAt].map(([v, t]) => ours.find(p => p.version >= v).at - t);
    const rss = rssOf(s.proc.pid);
    // Five quick keystrokes, then at once a hover on a force's reference.
    for (let n = 0; n < 5; n++) key();
    const t = performance.now();
    await s.connection.sendRequest('textDocument/hover', { textDocument: { uri }, position: place.hover });
    const hover = performance.now() - t;
    await close();
    return {
        lines: docLines.length - 1, keys, publishes: during.length, longestGap, caughtUp, hover, rss, cpuPerKey,
        p50: percentile(changeToDiagnostics, 0.5), p95: percentile(changeToDiagnostics, 0.95), max: Math.max(...changeToDiagnostics)
    };
}

const startedOn = machine();
console.log(`bench:lsp on ${startedOn}, ${edits} edits per file (10 past 100,000 lines)`);
/** The rows measured, for the figures of docs/performance.md. */
const measured = [];
const measureRow = async (kind, size, label, ...args) => {
    const result = await measure(...args);
    measured.push({ kind, size, result });
    return [label, result];
};
console.log('file                lines  problems  didOpen→diag  edit→diag p50     p95  CPU/edit  edits    hover  completion  codeLens  server RSS   cold check (wall / CPU (range) / RSS)');
for (const lines of sizes) row(...await measureRow('campaign', lines, 'campaign', [{ name: `campaign-${lines}.battle`, text: campaign(lines) }], editsFor(lines)));
const errorLabel = errorKinds.length === ERROR_KINDS.length ? `${errors} errors` : `${errors} ${errorKinds.join('+')}`;
// Only the default errors (20,000 of every kind) are the figures' "with 20,000 errors".
const errorKind = errors === 20000 && errorKinds.length === ERROR_KINDS.length ? 'errors' : 'other errors';
for (const lines of errorSizes) row(...await measureRow(errorKind, lines, errorLabel, [{ name: `errors-${lines}.battle`, text: errorFile(lines, errors, errorKinds) }], editsFor(lines)));
for (const lines of turnSizes) {
    const text = turnsCampaign(lines, perTurn);
    // The lines inside a turn, between its `turn N {` and its `}`.
    const inside = [];
    let open = false;
    text.split('\n').forEach((l, i) => {
        if (l.startsWith('turn ')) open = true;
        else if (l === '}' && open) open = false;
        else if (open) inside.push(i);
    });
    row(`turns of ${perTurn}`, await measure([{ name: `turns-${lines}.battle`, text }], editsFor(lines), inside));
}
if (engagements > 0 && campaignFiles > 0) {
    const files = splitCampaign(engagements, campaignFiles);
    const r = await measure(files, edits);
    row(`${engagements}/${campaignFiles} files`, { ...r, lines: files.reduce((n, f) => n + f.text.split('\n').length - 1, 0) });
}
if (editorRequestSizes.length > 0) {
    console.log(`what an editor asks for after an edit, whole file (${EDITOR_REQUESTS.map(([name]) => name).join(', ')}), ms after one edit:`);
    for (const lines of editorRequestSizes) console.log(`  ${String(lines).padStart(7)} lines: ${(await editorRequests(lines)).map(t => ms(t)).join(' / ')}`);
}
if (editorTypingSizes.length > 0) {
    console.log(`edits with the editor's requests in flight (${editorEdits} edits, the next ${editorPace} ms after the diagnostics or once all answered; pending requests cancelled):`);
    for (const lines of editorTypingSizes) {
        const r = await editorTyping(lines);
        const pq = xs => (xs.length ? `${percentile(xs, 0.5).toFixed(0)}/${percentile(xs, 0.95).toFixed(0)}` : '-/-');
        const each = Object.keys(r.latencies).map(n => `${n}${n === 'semanticTokens' && r.delta ? ' (delta)' : ''} ${pq(r.latencies[n])}${r.refused[n] ? ` (${r.refused[n]} cancelled/stale)` : ''}`);
        console.log(`  ${String(r.lines).padStart(7)} lines: edit→diag p50/p95 ${pq(r.diagnostics)} ms, CPU/edit ${ms(r.cpuPerEdit)}; requests p50/p95 ms: ${each.join(', ')}; server RSS ${r.rss.toFixed(0)} MB`);
    }
}
for (const at of keys > 0 ? typingAt : []) {
    const r = await typing(typingLines, at);
    console.log(`typing into ${r.lines} lines (${at}): ${r.keys} keystrokes ${pace} ms apart; change→diag p50/p95/max ${ms(r.p50)}/${ms(r.p95)}/${ms(r.max)}, server CPU ${ms(r.cpuPerKey)} a keystroke; diagnostics published ${r.publishes} times while typing, ` +
        `longest wait ${ms(r.longestGap)}; final diagnostics ${ms(r.caughtUp)} after the last keystroke; ` +
        `hover right after 5 quick keystrokes ${ms(r.hover)}; server RSS ${r.rss.toFixed(0)} MB`);
}

const figures = figuresOf(measured);
if (figures.size > 0) {
    const missed = missedTargets(figures);
    const withTarget = FIGURES.filter(f => f.target !== undefined && figures.has(f.id)).length;
    console.log(missed.length === 0 ? `targets: all ${withTarget} measured met` : `targets missed:\n  ${missed.join('\n  ')}`);
    if (process.argv.includes('--write-figures')) {
        const day = new Date().toISOString().slice(0, 16).replace('T', ' ');
        writeFigures(path.join(root, 'docs', 'performance.md'), figures,
            `Measured ${day} UTC by \`npm run bench:lsp -- --write-figures\` (${process.argv.slice(2).filter(a => a !== '--write-figures').join(' ') || 'default sizes'}), Node ${process.version}, ${startedOn} at the start and ${os.loadavg()[0].toFixed(1)} at the end.`);
        console.log('docs/performance.md: figures written');
    }
    if (missed.length > 0) process.exitCode = 1;
}
