#!/usr/bin/env node
/* global process, console */
// `npm run bench:instructions`: the instructions a cold `umpire check` runs, on generated SCRUD campaigns
// (scripts/bench-files.mjs), counted by valgrind (docs/performance.md, "Counted in instructions").
// CPU seconds on a shared machine move by half within a day, so they cannot tell two builds apart by a few
// per cent; the instruction count of the whole process can, within about 2 %. Node runs with
// `--single-threaded`, so V8's garbage collection and optimizing compiles happen on the main thread and
// are counted with the rest. Under valgrind a run is 40–60 times slower: 50,000 lines take 90–120 s.
//
//   node scripts/bench-instructions.mjs [--sizes 1000,10000,50000] [--cli bin/umpire.cjs] [--runs 1]
//
// Needs valgrind (Debian: `apt-get install valgrind`); without it the script says so and exits 2.
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { campaign } from './bench-files.mjs';
import { arg } from './lsp-driver.mjs';

const sizes = arg('sizes', '1000,10000,50000').split(',').filter(Boolean).map(Number);
const cli = path.resolve(arg('cli', 'bin/umpire.cjs'));
const runs = Math.max(1, Number(arg('runs', '1')));

if (spawnSync('valgrind', ['--version']).error) {
    console.error('bench:instructions needs valgrind (apt-get install valgrind).');
    process.exit(2);
}

/** Instructions of `node --single-threaded CLI check FILE`, all of the process, as cachegrind counts them. */
function instructions(file) {
    const r = spawnSync('valgrind', ['--tool=cachegrind', '--cache-sim=no', '--cachegrind-out-file=/dev/null',
        process.execPath, '--single-threaded', cli, 'check', file], { encoding: 'utf8', maxBuffer: 1 << 28 });
    const refs = /I\s+refs:\s+([\d,]+)/.exec(r.stderr);
    if (!refs) throw new Error(`valgrind printed no count:\n${r.stderr.slice(-2000)}`);
    return Number(refs[1].replaceAll(',', ''));
}

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'umpire-bench-instructions-'));
try {
    console.log(`bench:instructions: ${path.relative(process.cwd(), cli)}, node ${process.version}, ${runs} run(s) a size`);
    console.log('file                lines   instructions (G)');
    for (const size of sizes) {
        const file = path.join(dir, `campaign-${size}.battle`);
        const text = campaign(size);
        fs.writeFileSync(file, text);
        const counts = Array.from({ length: runs }, () => instructions(file) / 1e9);
        console.log(`campaign    ${String(text.split('\n').length - 1).padStart(13)}   ${counts.map(c => c.toFixed(2)).join(' ')}`);
    }
} finally {
    fs.rmSync(dir, { recursive: true, force: true });
}
