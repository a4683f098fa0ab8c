/* global process, console, performance */
// `npm run bench:startup` (and the last part of `npm run bench`): what a new user waits for first.
// - `umpire check` of a small example, median wall, alternated in one run with `node -e 0` (the host's speed
//   moves from minute to minute: the ratio to a bare Node start, measured in the same rounds, is the figure);
// - the language server: spawn → initialize answered, and → the first diagnostics of a small file;
// - the first exact-odds call (`umpire.odds`) in that fresh server.
// With `--base DIR` (a built checkout of another commit) each figure is measured for it too, in the same
// rounds, and printed beside this build's. Options: --runs N (CLI rounds, 15), --server-runs N (7), --file F.
import { spawn, spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import { createProtocolConnection, StreamMessageReader, StreamMessageWriter } from 'vscode-languageserver-protocol/node';
import { arg, machine, root } from './lsp-driver.mjs';

const runs = Number(arg('runs', '15'));
const serverRuns = Number(arg('server-runs', '7'));
const file = path.resolve(arg('file', path.join(root, 'examples', 'scrud-seed.battle')));
const baseDir = arg('base', undefined);

/** The builds measured: this one, and the one given by --base. */
const builds = [{ name: 'this build', dir: root }, ...baseDir ? [{ name: 'base', dir: path.resolve(baseDir) }] : []]
    .map(b => ({ ...b, cli: path.join(b.dir, 'bin', 'umpire.cjs'), server: path.join(b.dir, 'out', 'language', 'main.cjs') }));
for (const b of builds) {
    if (!fs.existsSync(b.server)) {
        console.error(`bench-startup: ${b.server} is missing: run npm run build in ${b.dir} first.`);
        process.exit(1);
    }
}

const median = values => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const fmt = t => `${t < 10 ? t.toFixed(2) : t.toFixed(0)} ms`;

/** Wall time (ms) of one process run to its end, stdout and stderr discarded. */
function wallOf(args) {
    const started = performance.now();
    const r = spawnSync(process.execPath, args, { stdio: ['ignore', 'ignore', 'inherit'] });
    if (r.status !== 0) throw new Error(`${args.join(' ')} exited ${r.status}`);
    return performance.now() - started;
}

/** Each round runs every command once, in an order turned by one each round, so that no command always goes first. */
function cliRounds() {
    const commands = [{ name: 'node -e 0', args: ['-e', '0'] }, ...builds.map(b => ({ name: b.name, args: [b.cli, 'check', file] }))];
    const times = new Map(commands.map(c => [c.name, []]));
    for (let round = 0; round < runs; round++) {
        for (let i = 0; i < commands.length; i++) {
            const c = commands[(round + i) % commands.length];
            times.get(c.name).push(wallOf(c.args));
        }
    }
    return new Map([...times].map(([name, t]) => [name, median(t)]));
}

/** One fresh server: spawn → initialize answered → first diagnostics of the file → the first odds call answered. */
async function serverRound(server) {
    const text = fs.readFileSync(file, 'utf8');
    const uri = pathToFileURL(file).toString();
    const started = performance.now();
    const proc = spawn(process.execPath, [server, '--stdio'], { stdio: ['pipe', 'pipe', 'ignore'] });
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
    const asked = performance.now();
    const odds = await connection.sendRequest('workspace/executeCommand', { command: 'umpire.odds', arguments: [{ uri }] });
    const answered = performance.now();
    if (!odds?.available && !odds?.actions?.length) throw new Error(`the odds of ${file} were not given: ${JSON.stringify(odds).slice(0, 200)}`);
    await connection.sendRequest('shutdown');
    const exited = new Promise(resolve => proc.once('exit', resolve));
    connection.sendNotification('exit');
    await exited;
    connection.dispose();
    return { initialize: initialized - started, diagnostics: diagnosed - started, odds: answered - asked };
}

async function serverFigures() {
    const rounds = new Map(builds.map(b => [b.name, []]));
    for (let round = 0; round < serverRuns; round++) {
        for (let i = 0; i < builds.length; i++) {
            const b = builds[(round + i) % builds.length];
            rounds.get(b.name).push(await serverRound(b.server));
        }
    }
    return new Map([...rounds].map(([name, r]) => [name, {
        initialize: median(r.map(x => x.initialize)), diagnostics: median(r.map(x => x.diagnostics)), odds: median(r.map(x => x.odds))
    }]));
}

console.log(`## Start-up (${path.relative(root, file)}; ${machine()}; Node ${process.version})\n`);
const cli = cliRounds();
const server = await serverFigures();
const node = cli.get('node -e 0');
const head = ['figure', 'target', ...builds.map(b => b.name)];
const rows = [
    ['`node -e 0`, median wall', '—', ...builds.map(() => fmt(node))],
    ['`umpire check`, median wall', '—', ...builds.map(b => fmt(cli.get(b.name)))],
    ['`umpire check` ÷ `node -e 0`', '2×', ...builds.map(b => `${(cli.get(b.name) / node).toFixed(2)}×`)],
    ['server spawn → initialize answered', '—', ...builds.map(b => fmt(server.get(b.name).initialize))],
    ['server spawn → first diagnostics', '300 ms', ...builds.map(b => fmt(server.get(b.name).diagnostics))],
    ['first odds call in a fresh server', '5 ms', ...builds.map(b => fmt(server.get(b.name).odds))]
];
console.log(`| ${head.join(' | ')} |\n|${head.map(() => '---').join('|')}|`);
for (const r of rows) console.log(`| ${r.join(' | ')} |`);
console.log(`\nMedians of ${runs} CLI rounds and ${serverRuns} server rounds, alternated; load average at the end: ${machine()}.`);
