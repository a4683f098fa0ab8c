#!/usr/bin/env node
/* global process, console */
// Generated .battle files for the benchmarks (scripts/bench-lsp.mjs, scripts/bench-resolve-all.mjs):
// clean SCRUD campaigns of any size, the same with thousands of errors of every kind (names that are
// not declared, lines that do not read, checks that fail), an example repeated with its forces renamed,
// and a campaign split over files (an order of battle imported by scenario files).
//
// Run alone it writes one file, to look at or to time `umpire check` on:
//   node scripts/bench-files.mjs campaign|errors|repeated LINES [ERRORS [names,syntax,checks]] > FILE
//   node scripts/bench-files.mjs turns LINES [ENGAGEMENTS_PER_TURN] > FILE
//   node scripts/bench-files.mjs season ENGAGEMENTS > FILE
import * as fs from 'node:fs';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

const HEADER = ['scenario "Benchmark"', 'rules scrud', 'grade Veteran +1', 'grade Line 0', 'modifier Uphill -1', ''];

/** A force of four units (6 units with counts). */
const force = k => [`force F${k} {`, '  unit Guard foot Veteran', '  unit Line foot Line x3', '  unit Hussars horse Line', '}'];

/**
 * An engagement of force k against force k − 1, with a seed. Each unit fights once: force k's Guard and first Line
 * attack here, its second Line and Hussars defend in the next engagement, so no unit a seed routs is sent in again.
 */
const engagement = k => [`engagement E${k} {`, `  F${k}.Guard, F${k}.Line#1 attacks F${k - 1}.Line#2, F${k - 1}.Hussars`, `  factor Uphill on F${k}`, `  seed ${k}`, '}'];

/** A SCRUD campaign of about `lines` lines: forces of units, and engagements with seeds between them. */
export function campaign(lines) {
    const out = [...HEADER];
    for (let k = 0; out.length < lines; k++) {
        out.push(...force(k));
        if (k > 0) out.push(...engagement(k));
    }
    return out.join('\n') + '\n';
}

/**
 * The same campaign kept as turns: every force first, then the engagements in turns of
 * `perTurn` each (`turn 1 { … }`), so that almost every line sits inside a long turn, as an umpire
 * who keeps a season by turns writes it. About `lines` lines, as `campaign`.
 */
export function turnsCampaign(lines, perTurn = 200) {
    const out = [...HEADER];
    const count = Math.max(2, Math.floor((lines - HEADER.length) / 10));
    for (let k = 0; k < count; k++) out.push(...force(k));
    for (let k = 1; k < count; k++) {
        if ((k - 1) % perTurn === 0) {
            if (k > 1) out.push('}');
            out.push(`turn ${(k - 1) / perTurn + 1} {`);
        }
        out.push(...engagement(k).map(line => `  ${line}`));
    }
    out.push('}');
    return out.join('\n') + '\n';
}

/**
 * Blocks with errors, with about how many problems each gives, of the three kinds the validator
 * meets: names not declared (linking), lines that do not read (parsing), checks that fail
 * (validation). `wide` more pairs of unknown names on a line make the first denser (each pair: an
 * unknown force, an unknown unit, which is also on both sides).
 */
const BROKEN = [
    (k, b, wide) => ({
        kind: 'names',
        errors: 14 + 3 * wide,
        lines: [`engagement U${b} {`,
            `  F${k} attacks Foe${b}, F${k}.Gaurd, F${k}.Lin, F${k}.Husars${Array.from({ length: wide }, (_, i) => `, Foe${b}x${i}, F${k}.Gard${i}`).join('')}`,
            `  factor Uphil, Downhill on Foe${b}.Line, F${k}.Gard, F${k}.Hussar`, `  seed ${b}`, '}']
    }),
    // Each in its own block, so that the parser's recovery does not swallow the next.
    (k, b) => ({
        kind: 'syntax',
        errors: 4,
        lines: [`engagement S${b} {`, `  F${k} attack F${k - 1}`, '}', `force G${b} {`, '  unit Foot foot Line x', '}',
            `engagement T${b} {`, `  F${k} attacks F${k - 1}`, `  seed x${b}`, '}', `engagement W${b} {`, `  F${k} attacks F${k - 1}`, `  factor on F${k}`, '}']
    }),
    // The same force on both sides, a seed out of range, a count of zero.
    (k, b) => ({ kind: 'checks', errors: 3, lines: [`engagement V${b} {`, `  F${k}.Guard attacks F${k}.Line`, '  seed 99999999999', '}', `force Z${b} {`, '  unit Ghost foot x0', '}'] })
];
/** The kinds of mistakes `errorFile` makes by default: all three. */
export const ERROR_KINDS = ['names', 'syntax', 'checks'];

/**
 * A SCRUD campaign of about `lines` lines with about `errors` problems spread evenly through it,
 * of the `kinds` given in turn (names not declared, lines that do not read, checks that fail); the
 * rest as `campaign`. The count is approximate: `umpire check` says how many there are. A file
 * without syntax errors is parsed in pieces when edited; one with them is parsed whole at each edit
 * (docs/performance.md#incremental-parsing).
 */
export function errorFile(lines, errors, kinds = ERROR_KINDS) {
    const out = [...HEADER];
    const perLine = errors / lines;
    const blocks = BROKEN.filter(b => kinds.includes(b(1, 0, 0).kind));
    const sample = blocks.map(b => b(1, 0, 0));
    const blockLines = sample.reduce((n, b) => n + b.lines.length, 0), blockErrors = sample.reduce((n, b) => n + b.errors, 0);
    // Broken blocks must be denser than the file, leaving room for the clean forces and engagements.
    const wide = kinds.includes('names') ? Math.max(0, Math.ceil((1.6 * perLine * blockLines - blockErrors) / 3)) : 0;
    let made = 0, b = 0;
    for (let k = 0; out.length < lines; k++) {
        out.push(...force(k));
        if (k === 0) continue;
        out.push(...engagement(k));
        while (made < errors && made < out.length * perLine && out.length < lines) {
            const block = blocks[b % blocks.length](k, b, wide);
            b++;
            out.push(...block.lines);
            made += block.errors;
        }
    }
    return out.join('\n') + '\n';
}

/**
 * One example repeated to about `lines` lines, each copy's forces renamed (French1, Prussian1, …)
 * and its engagements left naming the originals: every side, factor and dice line is an unknown
 * name with hundreds of close spellings (a file that once took 25 s to check).
 */
export function repeatedExample(lines, example = 'scrud-ridge.battle') {
    const text = fs.readFileSync(path.join(root, 'examples', example), 'utf8');
    const body = text.split('\n');
    const start = body.findIndex(l => /^(grade|modifier|force)\b/.test(l));
    const header = body.slice(0, start);
    const declarations = body.slice(start).filter(l => /^(grade|modifier) /.test(l));
    const rest = body.slice(start).filter(l => !/^(grade|modifier) /.test(l));
    const out = [...header, ...declarations];
    for (let copy = 1; out.length < lines; copy++) {
        for (const line of rest) {
            const renamed = line.replace(/^force (\S+)/, `force $1${copy}`).replace(/^((?:engagement|fire|move|morale|redress|command) )(\S+)/, `$1$2${copy}`);
            out.push(renamed);
        }
    }
    return out.join('\n') + '\n';
}

/**
 * A campaign split over files: `orders.battle`, the order of battle (every force), and `files`
 * scenario files that import it, holding `engagements` engagements between them. Returns the files'
 * names and texts, scenario files first.
 */
export function splitCampaign(engagements, files) {
    const forces = engagements + 1;
    const orders = ['scenario "Order of battle"', 'rules scrud', 'grade Veteran +1', 'grade Line 0', 'modifier Uphill -1', ''];
    for (let k = 0; k < forces; k++) orders.push(...force(k));
    const out = [];
    const per = Math.ceil(engagements / files);
    for (let f = 0; f < files; f++) {
        const lines = [`scenario "Day ${f + 1}"`, 'rules scrud', 'import "orders.battle"', ''];
        for (let k = 1 + f * per; k <= Math.min(engagements, (f + 1) * per); k++) lines.push(...engagement(k));
        out.push({ name: `day-${String(f + 1).padStart(2, '0')}.battle`, text: lines.join('\n') + '\n' });
    }
    out.push({ name: 'orders.battle', text: orders.join('\n') + '\n' });
    return out;
}

/**
 * A long season of two sides only: `engagements` fights of two fresh foot units against two, one a turn,
 * each with a seed (write their outcomes with `umpire resolve --write`). Every fight adds to the same two
 * sides' luck over the season, whose law soon grows past the exact bound: the sampled path's load.
 */
export function twoSidedSeason(engagements) {
    const out = ['scenario "Long season"', 'rules scrud', 'grade Veteran +1', ''];
    for (const side of ['Blue', 'Red']) {
        out.push(`force ${side} {`);
        for (let k = 1; k <= engagements; k++) out.push(`  unit P${k} foot${k % 3 === 0 ? ' Veteran' : ''} x2`);
        out.push('}');
    }
    for (let k = 1; k <= engagements; k++) {
        out.push(`turn ${k} {`, `  engagement E${k} {`, `    Blue.P${k}#1, Blue.P${k}#2 attacks Red.P${k}#1, Red.P${k}#2`, `    seed ${k}`, '  }', '}');
    }
    return out.join('\n') + '\n';
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
    const [kind, lines, errors, kinds] = process.argv.slice(2);
    const n = Number(lines ?? 10000);
    const text = kind === 'errors' ? errorFile(n, Number(errors ?? 20000), kinds?.split(',') ?? ERROR_KINDS) : kind === 'repeated' ? repeatedExample(n)
        : kind === 'campaign' ? campaign(n) : kind === 'turns' ? turnsCampaign(n, Number(errors ?? 200)) : kind === 'season' ? twoSidedSeason(n) : undefined;
    if (text === undefined) {
        console.error('usage: node scripts/bench-files.mjs campaign|errors|repeated LINES [ERRORS [names,syntax,checks]] > FILE\n' +
            '       node scripts/bench-files.mjs turns LINES [ENGAGEMENTS_PER_TURN] > FILE\n' +
            '       node scripts/bench-files.mjs season ENGAGEMENTS > FILE');
        process.exit(2);
    }
    process.stdout.write(text);
}
