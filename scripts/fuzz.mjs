// The large fuzz run: `npm run fuzz` (or `node scripts/fuzz.mjs --scale 0.1` for a tenth).
// Bundles test/fuzz-support.ts (the same inputs and checks as test/fuzz-*.test.ts), runs every
// property on its share of ≥ 100,000 cases, and prints the count of cases and failures. Failures
// (first five per property, unshrunk) go to test-output/fuzz-failures.json. Exit 1 on any failure.
import * as esbuild from 'esbuild';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { createRequire } from 'node:module';
import { performance } from 'node:perf_hooks';

const arg = (name, fallback) => {
    const i = process.argv.indexOf(`--${name}`);
    return i >= 0 ? Number(process.argv[i + 1]) : fallback;
};
const scale = arg('scale', 1);
const seed = arg('seed', 20260909);
const onlyAt = process.argv.indexOf('--only');
const only = onlyAt >= 0 ? process.argv[onlyAt + 1] : undefined;
const trace = process.argv.includes('--trace');
if (trace) fs.mkdirSync('test-output', { recursive: true });

const outfile = path.join(os.tmpdir(), `umpire-fuzz-${process.pid}.cjs`);
await esbuild.build({
    entryPoints: ['test/fuzz-support.ts'], outfile, bundle: true, format: 'cjs', platform: 'node', target: 'node20',
    mainFields: ['module', 'main'], logLevel: 'warning'
});
const require = createRequire(import.meta.url);
const fz = require(outfile);
const fc = require('fast-check');
fs.rmSync(outfile);
// Langium prints a validator's exception before turning it into a diagnostic; the checks count that
// diagnostic as a failure, so the print is only noise here.
console.error = () => undefined;

const examples = fz.examples(path.resolve('examples'));
const MAX_SEED = 0xffffffff;

/** name, share of the cases, the inputs, and the check (returns broken properties; may throw). */
const properties = [
    ['parse, link, validate: no throw, ranges inside (mutated examples)', 0.08,
        fz.mutatedExample(examples), async input => fz.diagnosticProblems(input.text)],
    ['parse, link, validate: no throw, ranges inside (random bytes and unicode)', 0.33,
        fc.oneof(fc.uint8Array({ maxLength: 300 }).map(b => Buffer.from(b).toString('latin1')),
            fc.string({ unit: 'binary', maxLength: 200 }), fc.string({ unit: 'grapheme', maxLength: 120 })),
        async text => fz.diagnosticProblems(text)],
    ['parse, link, validate: no throw, ranges inside (mutated pieces of examples)', 0.40,
        fz.mutatedPiece(examples), async text => fz.diagnosticProblems(text)],
    ['every LSP provider, resolve and odds (mutated examples)', 0.01,
        fc.tuple(fz.mutatedExample(examples), fc.array(fc.nat(), { maxLength: 3 })), async ([input, picks]) => fz.exercise(input.text, picks)],
    ['formatting idempotent and meaning-preserving (respaced examples)', 0.01,
        fz.respacedExample(examples), async input => fz.formattingProblems(input.text)],
    ['formatting idempotent and meaning-preserving (mutated examples)', 0.03,
        fz.mutatedExample(examples, 2), async input => fz.formattingProblems(input.text)],
    ['resolve with a seed is deterministic (every example action)', 0.005,
        fc.tuple(fc.constantFrom(...examples), fc.integer({ min: 0, max: MAX_SEED })), async ([e, s]) => fz.determinismProblems(e.text, s)],
    ['per-unit odds sum to 1 (random SCRUD engagements)', 0.155,
        fz.scrudScenario, async text => fz.scrudOddsProblems(text)]
];

const TOTAL = Math.round(100_000 * scale);
const failures = {};
let cases = 0, failed = 0;
const started = performance.now();
for (const [name, share, arbitrary, check] of properties) {
    if (only && !name.includes(only)) continue;
    const n = Math.max(1, Math.round(TOTAL * share));
    const t0 = performance.now();
    let bad = 0, slowest = 0;
    // Generated in batches from a seed per property, so that a run can be repeated exactly.
    for (let done = 0, batch = 0; done < n; batch++) {
        const size = Math.min(500, n - done);
        for (const input of fc.sample(arbitrary, { numRuns: size, seed: seed + batch * 7919 + name.length })) {
            let problems;
            const t = performance.now();
            // The input under test is on disk while it runs: a fatal crash (out of memory) leaves it behind.
            if (trace) fs.writeFileSync('test-output/fuzz-current.json', JSON.stringify({ property: name, input }));
            try {
                problems = await check(input);
            } catch (err) {
                problems = [`threw: ${err instanceof Error ? err.stack : String(err)}`];
            }
            slowest = Math.max(slowest, performance.now() - t);
            if (problems.length > 0) {
                bad++;
                const list = (failures[name] ??= []);
                if (list.length < 5) {
                    list.push({ input, problems });
                    fs.mkdirSync('test-output', { recursive: true });
                    fs.writeFileSync('test-output/fuzz-failures.json', JSON.stringify(failures, null, 1));
                }
            }
        }
        done += size;
    }
    cases += n; failed += bad;
    console.log(`${String(n).padStart(7)} cases  ${String(bad).padStart(4)} failures  ${((performance.now() - t0) / 1000).toFixed(0).padStart(5)} s  slowest ${slowest.toFixed(0).padStart(5)} ms  ${name}`);
}
console.log(`fuzz: ${cases} cases, ${failed} failures, ${((performance.now() - started) / 1000).toFixed(0)} s (seed ${seed})`);
if (failed > 0) {
    fs.mkdirSync('test-output', { recursive: true });
    fs.writeFileSync('test-output/fuzz-failures.json', JSON.stringify(failures, null, 1));
    console.log('failing inputs: test-output/fuzz-failures.json');
}
process.exit(failed > 0 ? 1 : 0);
