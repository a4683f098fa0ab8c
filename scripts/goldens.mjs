#!/usr/bin/env node
/* global process, console */
// Golden outputs of the real CLI on every example: what a refactor must leave byte-identical.
//   node scripts/goldens.mjs          compare the tool's outputs with test/goldens/ (exit 1 on a difference)
//   node scripts/goldens.mjs --update write them anew (only when a change of output is intended)
// test/goldens.test.ts runs the comparison in `npm test`.
import { execFile } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const goldenDir = path.join(root, 'test', 'goldens');

/** Each command run on each example, and the golden file name it is kept under. */
const COMMANDS = [
    ['check', ['check']],
    ['resolve', ['resolve']],
    ['resolve-json', ['resolve', '--json']],
    ['odds', ['odds']],
    ['odds-json', ['odds', '--json']],
    ['status', ['status']],
    ['status-md', ['status', '--markdown']]
];

function run(args, cwd = root) {
    return new Promise(resolve => {
        execFile(process.execPath, [path.join(root, 'bin', 'umpire.cjs'), ...args], { cwd, maxBuffer: 64 << 20 }, (err, stdout, stderr) => {
            const code = err ? (typeof err.code === 'number' ? err.code : 1) : 0;
            resolve(`exit ${code}\n--- stdout\n${stdout}--- stderr\n${stderr}`);
        });
    });
}

/** `resolve --write` on a copy: what it prints and the file it leaves. */
async function writeGolden(example) {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'umpire-golden-'));
    try {
        const copy = path.join(dir, path.basename(example));
        fs.copyFileSync(path.join(root, 'examples', example), copy);
        // The files it imports (docs/campaigns.md#campaigns-across-files) go beside it; only the copy is written.
        for (const [, imported] of fs.readFileSync(copy, 'utf8').matchAll(/^import "([^"/]+)"/gm)) fs.copyFileSync(path.join(root, 'examples', imported), path.join(dir, imported));
        const printed = await run(['resolve', '--write', path.basename(example)], dir);
        return `${printed}--- file\n${fs.readFileSync(copy, 'utf8')}`;
    } finally {
        fs.rmSync(dir, { recursive: true, force: true });
    }
}

/** Every golden: [file name, producer]. */
export function goldenJobs() {
    const examples = fs.readdirSync(path.join(root, 'examples')).filter(f => f.endsWith('.battle')).sort();
    const jobs = [];
    for (const example of examples) {
        const base = example.replace(/\.battle$/, '');
        for (const [name, args] of COMMANDS) jobs.push([`${base}.${name}.txt`, () => run([...args, `examples/${example}`])]);
        jobs.push([`${base}.write.txt`, () => writeGolden(example)]);
    }
    jobs.push(['table.txt', () => run(['table'])], ['table-json.txt', () => run(['table', '--json'])]);
    return jobs;
}

/** Runs the jobs a few at a time; returns [name, text] pairs. */
export async function produceGoldens(parallel = 4) {
    const jobs = goldenJobs();
    const results = new Array(jobs.length);
    let next = 0;
    const worker = async () => {
        while (next < jobs.length) {
            const i = next++;
            results[i] = [jobs[i][0], await jobs[i][1]()];
        }
    };
    await Promise.all(Array.from({ length: parallel }, worker));
    return results;
}

async function main() {
    const update = process.argv.includes('--update');
    const results = await produceGoldens();
    let differ = 0;
    if (update) fs.mkdirSync(goldenDir, { recursive: true });
    for (const [name, text] of results) {
        const file = path.join(goldenDir, name);
        if (update) { fs.writeFileSync(file, text); continue; }
        const before = fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : undefined;
        if (before !== text) { differ++; console.log(`differs: ${name}`); }
    }
    console.log(update ? `wrote ${results.length} goldens` : `${results.length - differ} of ${results.length} goldens identical`);
    process.exitCode = differ ? 1 : 0;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) await main();
