// `npm run bench:limits`: three hostile files — a unit of x1000000000, a generated
// 50,000-line scenario and a megabyte of random bytes — checked by the CLI (`node bin/umpire.cjs
// check`) and by the language server (out/language/main.cjs over stdio, as VS Code runs it). Prints
// wall time, CPU time and peak RSS (from /usr/bin/time -v when present, else the process's own).
// Build first: `npm run build` (or `node esbuild.mjs`).
import { spawn, spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const rpc = require('vscode-languageserver-protocol/node');
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'umpire-limits-'));
const TIME = fs.existsSync('/usr/bin/time') ? '/usr/bin/time' : undefined;

/** The three files. The scenario is valid: every force is declared before it fights. */
function write() {
    const files = {};
    files['x1000000000'] = path.join(dir, 'huge-count.battle');
    fs.writeFileSync(files['x1000000000'], 'scenario "Huge"\nrules scrud\nforce A {\n  unit Horde foot x1000000000\n}\nforce B {\n  unit Line foot x99999999999999999999\n}\nengagement E {\n  A attacks B\n  seed 99999999999999999999\n}\n');
    const lines = ['scenario "Big"', 'rules scrud', 'grade Veteran +1', 'modifier Tired -1'];
    for (let f = 0; lines.length < 50_000; f++) {
        lines.push(`force F${f} {`);
        for (let u = 0; u < 20; u++) lines.push(`  unit U${u} foot Veteran x2`);
        lines.push('}');
        if (f > 0) lines.push(`engagement E${f} {`, `  F${f - 1} attacks F${f}`, `  factor Tired on F${f}.U1#1`, `  seed ${f}`, '}');
    }
    files['50,000 lines'] = path.join(dir, 'big.battle');
    fs.writeFileSync(files['50,000 lines'], lines.join('\n') + '\n');
    // Random bytes from a fixed linear congruential sequence, so every run reads the same megabyte.
    const bytes = Buffer.alloc(1_000_000);
    for (let i = 0, s = 12345; i < bytes.length; i++) { s = (Math.imul(s, 1103515245) + 12345) >>> 0; bytes[i] = s >>> 24; }
    files['1 MB random bytes'] = path.join(dir, 'random.battle');
    fs.writeFileSync(files['1 MB random bytes'], bytes);
    // The same bytes with every brace made a blank: not refused for nesting, so the lexer and the
    // parser see the whole megabyte of garbage (the flood that the cap of 200 problems is for).
    files['1 MB, no braces'] = path.join(dir, 'random-flat.battle');
    fs.writeFileSync(files['1 MB, no braces'], bytes.map(b => (b === 0x7b || b === 0x7d ? 0x20 : b)));
    return files;
}

/** Peak RSS and CPU from /usr/bin/time -v's report. */
function parseTime(text) {
    const num = re => Number(re.exec(text)?.[1] ?? NaN);
    return { rssMb: num(/Maximum resident set size \(kbytes\): (\d+)/) / 1024, cpu: num(/User time \(seconds\): ([\d.]+)/) + num(/System time \(seconds\): ([\d.]+)/) };
}

function cli(file) {
    const args = ['bin/umpire.cjs', 'check', file];
    const t0 = performance.now();
    const r = TIME ? spawnSync(TIME, ['-v', process.execPath, ...args], { encoding: 'utf8', maxBuffer: 1 << 26 })
        : spawnSync(process.execPath, args, { encoding: 'utf8', maxBuffer: 1 << 26 });
    const wall = (performance.now() - t0) / 1000;
    const diagnostics = r.stdout.split('\n').filter(l => / (error|warning|info|hint) /.test(l)).length;
    return { wall, diagnostics, exit: r.status, ...(TIME ? parseTime(r.stderr) : {}) };
}

/** Opens the file in the bundled server and waits for its diagnostics. */
async function server(file) {
    const text = fs.readFileSync(file, 'utf8');
    const uri = pathToFileURL(file).toString();
    const child = TIME ? spawn(TIME, ['-v', process.execPath, 'out/language/main.cjs', '--stdio'], { stdio: ['pipe', 'pipe', 'pipe'] })
        : spawn(process.execPath, ['out/language/main.cjs', '--stdio'], { stdio: ['pipe', 'pipe', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', d => { stderr += d; });
    const connection = rpc.createProtocolConnection(new rpc.StreamMessageReader(child.stdout), new rpc.StreamMessageWriter(child.stdin));
    connection.onRequest(rpc.ConfigurationRequest.type, params => params.items.map(() => null));
    connection.onRequest(rpc.RegistrationRequest.type, () => undefined);
    connection.onRequest(rpc.WorkDoneProgressCreateRequest.type, () => undefined);
    connection.listen();
    await connection.sendRequest(rpc.InitializeRequest.type, { processId: process.pid, rootUri: null, capabilities: { workspace: { configuration: true } }, workspaceFolders: null });
    await connection.sendNotification(rpc.InitializedNotification.type, {});
    const t0 = performance.now();
    const published = new Promise(resolve => connection.onNotification(rpc.PublishDiagnosticsNotification.type, p => { if (p.uri === uri) resolve(p.diagnostics); }));
    await connection.sendNotification(rpc.DidOpenTextDocumentNotification.type, { textDocument: { uri, languageId: 'battle', version: 1, text } });
    const diagnostics = await published;
    const wall = (performance.now() - t0) / 1000;
    // The server answers a hover on line 1 after the build: it is still responsive.
    await connection.sendRequest(rpc.HoverRequest.type, { textDocument: { uri }, position: { line: 0, character: 0 } });
    await connection.sendRequest(rpc.ShutdownRequest.type);
    await connection.sendNotification(rpc.ExitNotification.type);
    await new Promise(resolve => child.on('exit', resolve));
    connection.dispose();
    return { wall, diagnostics: diagnostics.length, ...(TIME ? parseTime(stderr) : {}) };
}

const fmt = r => `${r.wall.toFixed(1).padStart(5)} s wall  ${Number.isFinite(r.cpu) ? `${r.cpu.toFixed(1).padStart(5)} s CPU  ` : ''}${Number.isFinite(r.rssMb) ? `${r.rssMb.toFixed(0).padStart(4)} MB peak RSS  ` : ''}${String(r.diagnostics).padStart(3)} diagnostics`;
const files = write();
console.log('Hostile files: time to diagnostics, and peak memory of the process');
for (const [name, file] of Object.entries(files)) {
    console.log(`${name.padEnd(18)} CLI     ${fmt(cli(file))}`);
    console.log(`${name.padEnd(18)} server  ${fmt(await server(file))}`);
}
fs.rmSync(dir, { recursive: true, force: true });
