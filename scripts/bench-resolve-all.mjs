#!/usr/bin/env node
/* global console, performance, setTimeout */
// `npm run bench:resolve-all`: what Resolve all costs, on chained SCRUD campaigns.
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
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { CancellationTokenSource, ExecuteCommandRequest } from 'vscode-languageserver-protocol/node';
import { arg, buildOptions, machine, memoryOf, startServer, timedCli } from './lsp-driver.mjs';

const { server, cli, serverNodeArgs } = buildOptions('bench:resolve-all');
const sizes = arg('forces', '10,20,40').split(',').map(Number);
const cancelAfter = Number(arg('cancel-after', '200'));

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

console.log(`bench:resolve-all on ${machine()}`);
console.log('forces  engagements  lines   check (wall / CPU / RSS)        resolve --write (wall / CPU / RSS)');
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'umpire-bench-resolve-all-'));
try {
    for (const forces of sizes) {
        const text = chainedCampaign(forces);
        const file = path.join(dir, `chain-${forces}.battle`);
        fs.writeFileSync(file, text);
        const check = timedCli(cli, ['check', file]);
        const write = timedCli(cli, ['resolve', file, '--write']);
        if (write.code !== 0) throw new Error(`resolve --write failed (${write.code}): ${write.stdout}`);
        const again = timedCli(cli, ['resolve', file, '--write']);
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
    // The edit is refused, so that every call resolves the whole campaign again.
    let sent = 0;
    const edits = () => sent;
    const { proc, connection, open, stop } = await startServer(server, { nodeArgs: serverNodeArgs, applyEdit: () => { sent++; return undefined; } });
    const { uri, diagnostics } = await open(file, text);
    if (diagnostics.some(d => d.severity === 1)) throw new Error(`the campaign has errors: ${diagnostics[0].message}`);
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
