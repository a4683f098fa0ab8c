/* global process, console */
// `npm run bench`: how fast the exact odds are, beside brute force and a 10^6-sample Monte Carlo of
// the real resolvers, and how fast `umpire check` reads a large scenario. Prints Markdown tables
// (docs/odds.md quotes them). Times are medians of several runs (process.hrtime).
// Options: --quick (fewer sizes and runs, for a smoke test); --base DIR (the start-up figures of another build beside these).
import { spawnSync } from 'node:child_process';
import * as esbuild from 'esbuild';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const quick = process.argv.includes('--quick');
const outfile = path.join(root, 'out', 'bench', 'bench-lib.mjs');
await esbuild.build({
    entryPoints: [path.join(root, 'scripts', 'bench-lib.ts')], outfile, bundle: true, format: 'esm', platform: 'node',
    target: 'node20', mainFields: ['module', 'main'], logLevel: 'error',
    // The Langium release the parser checks it was built with (as esbuild.mjs defines it).
    define: { __LANGIUM_VERSION__: JSON.stringify(JSON.parse(fs.readFileSync(path.join(root, 'node_modules', 'langium', 'package.json'), 'utf8')).version) },
    banner: { js: "import { createRequire } from 'node:module'; const require = createRequire(import.meta.url);" }
});
const lib = await import(pathToFileURL(outfile).href);

const now = () => process.hrtime.bigint();
const ms = (t0, t1) => Number(t1 - t0) / 1e6;
/** Median wall time of `runs` calls, in ms. */
function timeIt(fn, runs) {
    const times = [];
    for (let i = 0; i < runs; i++) { const t0 = now(); fn(); times.push(ms(t0, now())); }
    times.sort((a, b) => a - b);
    return times[Math.floor(times.length / 2)];
}
const fmtMs = t => (t < 0.1 ? t.toFixed(3) : t < 10 ? t.toFixed(2) : t < 1000 ? t.toFixed(1) : `${(t / 1000).toFixed(2)} s`);
const fmtLong = t => (t < 1000 ? `${fmtMs(t)} ms` : t < 3.6e6 ? `${(t / 1000).toFixed(1)} s` : t < 8.64e7 ? `${(t / 3.6e6).toFixed(1)} h`
    : t < 3.156e10 ? `${(t / 8.64e7).toFixed(0)} days` : t < 3.156e13 ? `${(t / 3.156e10).toFixed(0)} years` : `${(t / 3.156e10).toExponential(1)} years`);
function table(head, rows) {
    console.log(`| ${head.join(' | ')} |`);
    console.log(`|${head.map(() => '---').join('|')}|`);
    for (const r of rows) console.log(`| ${r.join(' | ')} |`);
    console.log('');
}

// ---------------------------------------------------------------- SCRUD
const MODS = [2, 1, 0, -1];
/** n v n in one arm (foot), grades cycling +2, +1, 0, −1 on the attacker and +1, 0, −1, +2 on the defender. */
function scrudEngagement(n) {
    const side = (force, shift) => ({
        force, units: Array.from({ length: n }, (_, i) => ({
            id: `${force}.U${i + 1}`, force, unit: `U${i + 1}`, arm: 'foot', die: lib.D6, modifier: MODS[(i + shift) % 4]
        }))
    });
    return { attacker: side('A', 0), defender: side('D', 1), pooled: false };
}
function scrudBrute(input) {
    const all = [...input.attacker.units, ...input.defender.units];
    const nA = input.attacker.units.length;
    const thrown = new Array(all.length).fill(1);
    let count = 0;
    const walk = i => {
        if (i === all.length) { lib.resolveScrud(input, { attacker: thrown.slice(0, nA), defender: thrown.slice(nA) }); count++; return; }
        for (let f = 1; f <= 6; f++) { thrown[i] = f; walk(i + 1); }
    };
    walk(0);
    return count;
}
function scrudMonteCarlo(input, samples) {
    for (let s = 0; s < samples; s++) lib.resolveScrud(input, lib.throwScrudDice(input, s));
}

const MC = 1_000_000;
const sizes = quick ? [1, 3, 14] : [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 25, 50, 100, 200, 500, 1000];
console.log(`## SCRUD: n v n foot, d6, four grades (Node ${process.version}, ${process.platform}/${process.arch})\n`);
const scrudRows = [];
let perThrow = null;
for (const n of sizes) {
    const input = scrudEngagement(n);
    const runs = n <= 14 ? (quick ? 3 : 7) : n <= 200 ? 3 : 1;
    const odds = timeIt(() => lib.scrudOdds(input), runs);
    const throws = 6 ** (2 * n);
    let brute;
    if (throws <= 50_000) {
        const t = timeIt(() => scrudBrute(input), 1);
        perThrow = t / throws;
        brute = `${fmtLong(t)} (${throws} throws)`;
    } else {
        // Estimated from the measured cost per throw (scaled by dice count); in logs, as 6^2000 overflows.
        const log10ms = Math.log10(perThrow * (n / 3)) + 2 * n * Math.log10(6);
        const est = log10ms < 15 ? fmtLong(10 ** log10ms) : `10^${Math.round(log10ms - Math.log10(3.156e10))} years`;
        brute = `skipped: 6^${2 * n} throws ≈ ${est} est.`;
    }
    // The Monte Carlo is timed on a slice of the 10^6 samples and scaled, except where it is cheap enough to run whole.
    const slice = n <= 4 ? MC : n <= 14 ? (n === 14 && !quick ? MC : 20_000) : n <= 100 ? 2_000 : 100;
    const mcT = timeIt(() => scrudMonteCarlo(input, slice), 1) * (MC / slice);
    const mc = slice === MC ? fmtLong(mcT) : `${fmtLong(mcT)} (from ${slice} samples)`;
    scrudRows.push([`${n} v ${n}`, String(2 * n), fmtLong(odds), brute, mc]);
    process.stderr.write(`scrud ${n} v ${n}: odds ${fmtLong(odds)}\n`);
}
table(['engagement', 'dice', 'exact odds', 'brute force (all throws)', `Monte Carlo 10^6`], scrudRows);

// ---------------------------------------------------------------- the example
{
    const file = path.join(root, 'examples', 'scrud-large.battle');
    const loaded = await lib.loadText(file, fs.readFileSync(file, 'utf8'));
    const model = lib.modelOf(loaded.document.parseResult.value);
    const rows = model.actions.map(action => {
        const t = timeIt(() => lib.oddsForAction(model, action), quick ? 5 : 21);
        return [`examples/scrud-large.battle ${action.node.name}`, '14 v 14 foot, 6 v 6 horse', fmtMs(t)];
    });
    table(['engagement', 'size', 'oddsForAction (ms, median)'], rows);
}

// ---------------------------------------------------------------- Ancients
function ancientsUnit(id, side, size) {
    const [force, unit] = id.split('.');
    return { id, force, unit, side, size, skill: 0, weight: 'medium', type: 'infantry', formation: 'formed', leadership: 7,
        shock: false, defensive: false, tokens: 0, tested: false, move: undefined, charged: false, followUp: false };
}
/** One unit throwing `dice` split as evenly as it goes over `k` opponents, each throwing `dice` back at it. */
function ancientsEngagement(dice, k) {
    const hero = ancientsUnit('A.Hero', 'attacker', 'large');
    const foes = Array.from({ length: k }, (_, i) => ancientsUnit(`D.Foe${i + 1}`, 'defender', 'medium'));
    const share = i => Math.floor(dice / k) + (i < dice % k ? 1 : 0);
    return {
        units: [hero, ...foes],
        pairings: foes.map((f, i) => ({ a: hero.id, aPosition: 'front', b: f.id, bPosition: i === 0 ? 'front' : 'flank' })),
        splits: [{ unit: hero.id, parts: foes.map((f, i) => ({ target: f.id, dice: share(i) })) },
            ...foes.map(f => ({ unit: f.id, parts: [{ target: hero.id, dice }] }))],
        firstTurn: false, breakDice: 2
    };
}
if (lib.ancientsOdds) {
    console.log('## Ancients: one unit against 1–3 opponents, every unit throwing N dice (split over its opponents)\n');
    const rows = [];
    for (const dice of quick ? [6, 14] : [6, 7, 8, 9, 10, 11, 12, 13, 14]) {
        for (const k of [1, 2, 3]) {
            const input = ancientsEngagement(dice, k);
            const odds = timeIt(() => lib.ancientsOdds(input), quick ? 3 : 7);
            const hitDice = dice * (k + 1);
            const slice = 2_000;
            const mcT = timeIt(() => { for (let s = 0; s < slice; s++) lib.resolveAncients(input, lib.seededAncientsDice(s)); }, 1) * (MC / slice);
            rows.push([String(dice), String(k), fmtMs(odds), `skipped: ≥ 6^${hitDice} hit throws`, `${fmtLong(mcT)} (from ${slice} samples)`]);
        }
    }
    table(['dice', 'opponents', 'exact odds (ms)', 'brute force', 'Monte Carlo 10^6'], rows);
}

// ---------------------------------------------------------------- umpire check
function bigScenario(units, engagements) {
    const forces = 200, perForce = units / forces;
    const lines = ['scenario "Bench: a very large campaign"', 'rules scrud', 'grade Elite +2', 'grade Veteran +1', 'grade Line 0', 'grade Raw -1',
        'modifier Uphill +1', 'modifier Tired -1', ''];
    const grades = ['Elite', 'Veteran', 'Line', 'Raw'];
    for (let f = 0; f < forces; f++) {
        lines.push(`force F${f} {`);
        for (let u = 0; u < perForce; u++) lines.push(`  unit U${u} ${u % 5 === 0 ? 'horse' : 'foot'} ${grades[(f + u) % 4]}`);
        lines.push('}', '');
    }
    for (let e = 0; e < engagements; e++) {
        const a = e % forces, d = (e * 7 + 1) % forces === a ? (a + 1) % forces : (e * 7 + 1) % forces;
        lines.push(`engagement E${e} {`, `  F${a} attacks F${d}`, `  factor Uphill on F${d}.U1`, `  seed ${e}`, '}', '');
    }
    return lines.join('\n');
}
{
    const text = bigScenario(5000, 1000);
    const file = path.join(root, 'out', 'bench', 'big.battle');
    fs.writeFileSync(file, text);
    const runs = quick ? 1 : 3;
    let problems = 0;
    const times = [];
    for (let i = 0; i < runs; i++) {
        const t0 = now();
        const loaded = await lib.loadText(file, text);
        times.push(ms(t0, now()));
        problems = loaded.diagnostics.length;
    }
    times.sort((a, b) => a - b);
    const t = times[Math.floor(times.length / 2)];
    console.log('## `umpire check` (parse, link, validate) in process\n');
    table(['scenario', 'size', 'check (median)', 'throughput', 'problems'], [[
        '5,000 units, 1,000 engagements', `${(text.length / 1024).toFixed(0)} KiB, ${text.split('\n').length} lines`, fmtLong(t),
        `${Math.round(5000 / (t / 1000))} units/s, ${Math.round(1000 / (t / 1000))} engagements/s`, String(problems)
    ]]);
}

// ---------------------------------------------------------------- campaign odds (docs/odds.md#campaign-odds)
/** A SCRUD campaign of `n` engagements, one a turn, ten units a side, each fighting about every tenth turn. */
function longCampaign(n) {
    const lines = ['scenario "A long campaign"', 'rules scrud', 'grade Veteran +1', 'grade Raw -1', ''];
    for (const [force, grade] of [['A', 'Veteran'], ['B', 'Raw']]) lines.push(`force ${force} {`, ...Array.from({ length: 10 }, (_, i) => `  unit U${i} foot ${i % 2 ? grade : ''}`.trimEnd()), '}', '');
    for (let e = 0; e < n; e++) lines.push(`turn ${e + 1} {`, `  engagement E${e} {`, `    A.U${e % 10} attacks B.U${(e * 3) % 10}`, '  }', '}', '');
    return lines.join('\n');
}
/** The exact path's target for an example campaign's first call (docs/performance.md#campaign-odds). */
const CAMPAIGN_FIRST_CALL_TARGET_MS = 500;
{
    console.log('## Campaign odds (`umpire odds FILE --campaign`, every action\'s dice open)\n');
    console.log(`First call on a fresh model, then the median of warm calls; target for the examples: first call under ${CAMPAIGN_FIRST_CALL_TARGET_MS} ms.\n`);
    const rows = [];
    // Every example that has actions of its rule set (the broken ones, which have errors, are left out).
    const campaigns = fs.readdirSync(path.join(root, 'examples')).filter(f => f.endsWith('.battle') && !f.startsWith('broken-')).map(f => f.slice(0, -'.battle'.length)).sort();
    const cases = campaigns.map(name => [`examples/${name}.battle`, path.join(root, 'examples', `${name}.battle`), fs.readFileSync(path.join(root, 'examples', `${name}.battle`), 'utf8'), true]);
    const generated = path.join(root, 'out', 'bench', 'long-campaign.battle');
    fs.writeFileSync(generated, longCampaign(40));
    cases.push(['generated, 40 engagements in 40 turns', generated, fs.readFileSync(generated, 'utf8'), false]);
    for (const [label, file, text, example] of cases) {
        const model = lib.modelOf((await lib.loadText(file, text)).document.parseResult.value);
        for (const method of ['auto', 'monte-carlo']) {
            let report;
            const t0 = now();
            report = lib.campaignOdds(model, { method, samples: 2000 });
            const first = ms(t0, now());
            if ('problem' in report) { rows.push([label, method, '—', report.problem, '', '']); continue; }
            if (report.actions.length === 0) break;
            const t = timeIt(() => { report = lib.campaignOdds(model, { method, samples: 2000 }); }, quick ? 1 : 3);
            const how = report.method === 'exact' ? `exact, ${report.states} joint states` : `Monte Carlo, ${report.samples} campaigns`;
            const target = example && method === 'auto' && report.method === 'exact' ? (first < CAMPAIGN_FIRST_CALL_TARGET_MS ? 'yes' : 'no') : '';
            rows.push([label, method, how, fmtLong(first), fmtLong(t), target]);
        }
    }
    table(['campaign', 'asked', 'method', 'first call', 'warm (median)', `first < ${CAMPAIGN_FIRST_CALL_TARGET_MS} ms`], rows);
}

const mem = process.memoryUsage();
console.log(`Peak memory (maxRSS): ${(process.resourceUsage().maxRSS / 1024).toFixed(0)} MiB; heap used at the end ${(mem.heapUsed / 2 ** 20).toFixed(0)} MiB.`);

// What a new user waits for first: `umpire check` of a small file beside `node -e 0`, the server's first
// diagnostics and first odds (scripts/bench-startup.mjs, also `npm run bench:startup`). `--base DIR` is passed on.
console.log('');
const startupArgs = [path.join(root, 'scripts', 'bench-startup.mjs'), ...quick ? ['--runs', '5', '--server-runs', '3'] : []];
const baseAt = process.argv.indexOf('--base');
if (baseAt >= 0) startupArgs.push('--base', process.argv[baseAt + 1]);
const startup = spawnSync(process.execPath, startupArgs, { stdio: 'inherit' });
if (startup.status !== 0) process.exitCode = startup.status ?? 1;
