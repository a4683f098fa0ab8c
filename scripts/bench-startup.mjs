/* global process, console, performance, setTimeout */
// `npm run bench:startup` (and the last part of `npm run bench`): what a new user waits for first.
// - `umpire check` of a small example, median wall, alternated in one run with `node -e 0` (the host's speed
//   moves from minute to minute: the ratio to a bare Node start, measured in the same rounds, is the figure);
// - the language server: spawn → initialize answered, and → the first diagnostics of a small file;
// - the first exact-odds call (`umpire.odds`) in that fresh server, asked as the diagnostics arrive, and in
//   other fresh servers asked `--odds-pause` ms (1000) after them, as an umpire who reads the squiggles first
//   asks (the server warms its odds engines in that idle time: src/language/lsp/idle-warm-up.ts);
// - the first completion, asked right after that odds call (the idle warm-up makes completion's parser first).
// With `--base DIR` (a built checkout of another commit; several, comma-separated) each figure is measured for it too, in the same
// rounds, and printed beside this build's. Options: --runs N (CLI rounds, 15), --server-runs N (7), --odds-pause MS (1000), --file F,
// --server-node-args "…" (Node options for the servers: a profile of each start).
import { spawn, spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import { createRequire } from 'node:module';
import * as os from 'node:os';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import { createProtocolConnection, StreamMessageReader, StreamMessageWriter } from 'vscode-languageserver-protocol/node';
import { arg, cpuOf, machine, root } from './lsp-driver.mjs';

const runs = Number(arg('runs', '15'));
const serverRuns = Number(arg('server-runs', '7'));
const file = path.resolve(arg('file', path.join(root, 'examples', 'scrud-seed.battle')));
const baseDir = arg('base', undefined);
const oddsPause = Number(arg('odds-pause', '1000'));
/** Node options for the servers, e.g. "--cpu-prof --cpu-prof-dir=DIR" for a profile of each start. */
const serverNodeArgs = arg('server-node-args', '').split(' ').filter(Boolean);

/** The Node options a build's extension starts its server with (none in a build whose loader names none). */
function serverNodeArgsOf(dir) {
    const loader = path.join(dir, 'bin', 'code-cache.cjs');
    return fs.existsSync(loader) ? createRequire(loader)('./code-cache.cjs').serverNodeArgs ?? [] : [];
}

/** The builds measured: this one, and the one given by --base. */
const builds = [{ name: 'this build', dir: root }, ...(baseDir ? baseDir.split(',') : []).map((dir, i, all) => ({ name: all.length > 1 ? `base ${i + 1}` : 'base', dir: path.resolve(dir) }))]
    .map(b => ({ ...b, cli: path.join(b.dir, 'bin', 'umpire.cjs'), bundle: path.join(b.dir, 'out', 'language', 'main.cjs') }))
    // The server as the extension starts it: through its loader (the code cache) where the build has one.
    .map(b => ({ ...b, server: fs.existsSync(path.join(b.dir, 'bin', 'language-server.cjs')) ? path.join(b.dir, 'bin', 'language-server.cjs') : b.bundle }))
    // With the Node options the extension gives it (src/extension/main.ts: bin/code-cache.cjs `serverNodeArgs`), where the build names any.
    .map(b => ({ ...b, serverArgs: serverNodeArgsOf(b.dir) }))
    // Each build its own code cache (bin/code-cache.cjs): a build removes the caches of every other build it
    // finds, so two builds sharing the user's folder would each start without one, every time.
    .map(b => ({ ...b, env: { ...process.env, XDG_CACHE_HOME: fs.mkdtempSync(path.join(os.tmpdir(), 'umpire-bench-cache-')) } }));
for (const b of builds) {
    if (!fs.existsSync(b.bundle)) {
        console.error(`bench-startup: ${b.bundle} is missing: run npm run build in ${b.dir} first.`);
        process.exit(1);
    }
}

const median = values => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const fmt = t => `${t < 10 ? t.toFixed(2) : t.toFixed(0)} ms`;

/** GNU time, when the host has it: the CPU time of each run, which a loaded host stretches less than the wall time. */
const timeCommand = fs.existsSync('/usr/bin/time') ? '/usr/bin/time' : undefined;

/** Wall and CPU time (ms; CPU NaN without GNU time) of one process run to its end, stdout discarded. */
function timesOf(args, env = process.env) {
    const started = performance.now();
    const r = timeCommand
        ? spawnSync(timeCommand, ['-f', '%U %S', process.execPath, ...args], { stdio: ['ignore', 'ignore', 'pipe'], encoding: 'utf8', env })
        : spawnSync(process.execPath, args, { stdio: ['ignore', 'ignore', 'pipe'], encoding: 'utf8', env });
    const wall = performance.now() - started;
    if (r.status !== 0) throw new Error(`${args.join(' ')} exited ${r.status}: ${r.stderr}`);
    const [user, system] = timeCommand ? r.stderr.trim().split('\n').pop().split(' ').map(Number) : [NaN, NaN];
    return { wall, cpu: (user + system) * 1000 };
}

/** Each round runs every command once, in an order turned by one each round, so that no command always goes first. */
function cliRounds() {
    const commands = [{ name: 'node -e 0', args: ['-e', '0'] }, ...builds.map(b => ({ name: b.name, args: [b.cli, 'check', file], env: b.env }))];
    const times = new Map(commands.map(c => [c.name, []]));
    for (let round = 0; round < runs; round++) {
        for (let i = 0; i < commands.length; i++) {
            const c = commands[(round + i) % commands.length];
            times.get(c.name).push(timesOf(c.args, c.env));
        }
    }
    return new Map([...times].map(([name, t]) => [name, { wall: median(t.map(x => x.wall)), cpu: median(t.map(x => x.cpu)) }]));
}

/**
 * The CPU time (ms, to the nanosecond where Linux gives /proc/PID/schedstat) the process's main thread has run:
 * what one request costs the server, which a loaded host stretches less than the wall time. NaN elsewhere.
 */
function mainThreadCpu(pid) {
    try {
        return Number(fs.readFileSync(`/proc/${pid}/schedstat`, 'utf8').split(' ')[0]) / 1e6;
    } catch {
        return NaN;
    }
}

/**
 * One fresh server: spawn → initialize answered → first diagnostics of the file → (`pause` ms) → the first
 * odds call answered → the first completion (at the file's last line) answered.
 */
async function serverRound(b, pause) {
    const text = fs.readFileSync(file, 'utf8');
    const uri = pathToFileURL(file).toString();
    const started = performance.now();
    const proc = spawn(process.execPath, [...b.serverArgs, ...serverNodeArgs, b.server, '--stdio'], { stdio: ['pipe', 'pipe', 'ignore'], env: b.env });
    const connection = createProtocolConnection(new StreamMessageReader(proc.stdout), new StreamMessageWriter(proc.stdin));
    const diagnostics = new Promise(resolve => connection.onNotification('textDocument/publishDiagnostics', p => p.uri === uri && resolve(performance.now())));
    connection.onRequest('workspace/configuration', params => params.items.map(() => null));
    connection.onRequest(() => null);
    connection.onNotification(() => undefined);
    connection.listen();
    await connection.sendRequest('initialize', { processId: process.pid, rootUri: null, capabilities: { textDocument: { publishDiagnostics: { versionSupport: true } } } });
    const initialized = performance.now();
    connection.sendNotification('initialized', {});
    connection.sendNotification('textDocument/didOpen', { textDocument: { uri, languageId: 'battle', version: 1, text } });
    const diagnosed = await diagnostics;
    const cpu = cpuOf(proc.pid);
    if (pause > 0) await new Promise(resolve => setTimeout(resolve, pause));
    const mainBefore = mainThreadCpu(proc.pid);
    const asked = performance.now();
    const odds = await connection.sendRequest('workspace/executeCommand', { command: 'umpire.odds', arguments: [{ uri }] });
    const answered = performance.now();
    const oddsCpu = mainThreadCpu(proc.pid) - mainBefore;
    if (!odds?.available && !odds?.actions?.length) throw new Error(`the odds of ${file} were not given: ${JSON.stringify(odds).slice(0, 200)}`);
    const completionAsked = performance.now();
    const items = await connection.sendRequest('textDocument/completion', { textDocument: { uri }, position: { line: text.split('\n').length - 1, character: 0 } });
    const completion = performance.now() - completionAsked;
    if (!(Array.isArray(items) ? items : items?.items)?.length) throw new Error(`no completion was given at the end of ${file}`);
    await connection.sendRequest('shutdown');
    const exited = new Promise(resolve => proc.once('exit', resolve));
    connection.sendNotification('exit');
    await exited;
    connection.dispose();
    return { initialize: initialized - started, diagnostics: diagnosed - started, cpu, odds: answered - asked, oddsCpu, completion };
}

async function serverFigures() {
    const rounds = new Map(builds.map(b => [b.name, []]));
    for (let round = 0; round < serverRuns; round++) {
        for (let i = 0; i < builds.length; i++) {
            const b = builds[(round + i) % builds.length];
            const now = await serverRound(b, 0);
            const paused = await serverRound(b, oddsPause);
            rounds.get(b.name).push({ ...now, oddsPaused: paused.odds, oddsPausedCpu: paused.oddsCpu, completionPaused: paused.completion });
        }
    }
    return new Map([...rounds].map(([name, r]) => [name, {
        initialize: median(r.map(x => x.initialize)), diagnostics: median(r.map(x => x.diagnostics)), cpu: median(r.map(x => x.cpu)), odds: median(r.map(x => x.odds)),
        oddsCpu: median(r.map(x => x.oddsCpu)), oddsPaused: median(r.map(x => x.oddsPaused)), oddsPausedCpu: median(r.map(x => x.oddsPausedCpu)),
        completion: median(r.map(x => x.completion)), completionPaused: median(r.map(x => x.completionPaused))
    }]));
}

console.log(`## Start-up (${path.relative(root, file)}; ${machine()}; Node ${process.version})\n`);
const cli = cliRounds();
const server = await serverFigures();
const node = cli.get('node -e 0');
const head = ['figure', 'target', ...builds.map(b => b.name)];
const rows = [
    ['`node -e 0`, median wall (CPU)', '—', ...builds.map(() => `${fmt(node.wall)} (${fmt(node.cpu)})`)],
    ['`umpire check`, median wall (CPU)', '—', ...builds.map(b => `${fmt(cli.get(b.name).wall)} (${fmt(cli.get(b.name).cpu)})`)],
    ['`umpire check` ÷ `node -e 0`, wall (CPU)', '2×', ...builds.map(b => `${(cli.get(b.name).wall / node.wall).toFixed(2)}× (${(cli.get(b.name).cpu / node.cpu).toFixed(2)}×)`)],
    ['server spawn → initialize answered', '—', ...builds.map(b => fmt(server.get(b.name).initialize))],
    ['server spawn → first diagnostics (server CPU by then)', '300 ms', ...builds.map(b => `${fmt(server.get(b.name).diagnostics)} (${fmt(server.get(b.name).cpu)})`)],
    ['first odds call in a fresh server, asked as the diagnostics arrive (server main-thread CPU)', '5 ms', ...builds.map(b => `${fmt(server.get(b.name).odds)} (${fmt(server.get(b.name).oddsCpu)})`)],
    [`first odds call in a fresh server, asked ${oddsPause} ms after the diagnostics (server main-thread CPU)`, '5 ms', ...builds.map(b => `${fmt(server.get(b.name).oddsPaused)} (${fmt(server.get(b.name).oddsPausedCpu)})`)],
    ['first completion, asked right after that first odds call: as the diagnostics arrive', '—', ...builds.map(b => fmt(server.get(b.name).completion))],
    [`first completion, asked right after that first odds call: ${oddsPause} ms after the diagnostics`, '—', ...builds.map(b => fmt(server.get(b.name).completionPaused))]
];
console.log(`| ${head.join(' | ')} |\n|${head.map(() => '---').join('|')}|`);
for (const r of rows) console.log(`| ${r.join(' | ')} |`);
console.log(`\nMedians of ${runs} CLI rounds and ${serverRuns} server rounds, alternated; load average at the end: ${machine()}.`);
for (const b of builds) fs.rmSync(b.env.XDG_CACHE_HOME, { recursive: true, force: true });
