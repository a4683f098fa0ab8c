// The figures of docs/performance.md: which `npm run bench:lsp` measurements they are, the target each
// must meet, and the table between the page's markers that `npm run bench:lsp -- --write-figures`
// rewrites. test/performance-figures.test.ts holds the page to this list.
import * as fs from 'node:fs';

/**
 * One figure: `from` names the benchmark row it is read from (its kind and the size asked for), `value`
 * picks it from that row's result; `target` is what it must not exceed, in `unit` (none: shown only).
 */
export const FIGURES = [
    { id: 'edit-10k-p95', what: 'edit → diagnostics, 10,000 lines, p95', unit: 'ms', target: 100, from: ['campaign', 10000], value: r => r.p95 },
    { id: 'edit-50k-p50', what: 'edit → diagnostics, 50,000 lines, p50', unit: 'ms', target: 150, from: ['campaign', 50000], value: r => r.p50 },
    { id: 'edit-50k-p95', what: 'edit → diagnostics, 50,000 lines, p95', unit: 'ms', target: 300, from: ['campaign', 50000], value: r => r.p95 },
    { id: 'errors-50k-p50', what: 'edit → diagnostics, 50,000 lines with 20,000 errors, p50', unit: 'ms', target: 150, from: ['errors', 50000], value: r => r.p50 },
    { id: 'errors-50k-p95', what: 'edit → diagnostics, 50,000 lines with 20,000 errors, p95', unit: 'ms', target: 300, from: ['errors', 50000], value: r => r.p95 },
    { id: 'cpu-50k', what: 'server CPU per edit, 50,000 lines', unit: 'ms', from: ['campaign', 50000], value: r => r.cpuPerEdit },
    { id: 'open-50k', what: 'open → first diagnostics, 50,000 lines', unit: 's', target: 2, from: ['campaign', 50000], value: r => r.open / 1000 },
    { id: 'rss-50k', what: 'server memory with 50,000 lines open (RSS)', unit: 'MB', target: 400, from: ['campaign', 50000], value: r => r.rss },
    { id: 'hover-50k', what: 'hover, 50,000 lines', unit: 'ms', from: ['campaign', 50000], value: r => r.hover },
    { id: 'completion-50k', what: 'completion, 50,000 lines', unit: 'ms', from: ['campaign', 50000], value: r => r.completion },
    { id: 'cold-10k', what: 'cold `umpire check`, 10,000 lines, CPU', unit: 's', from: ['campaign', 10000], value: r => r.cold.cpu },
    { id: 'cold-50k', what: 'cold `umpire check`, 50,000 lines, CPU', unit: 's', target: 2, from: ['campaign', 50000], value: r => r.cold.cpu },
    { id: 'cold-200k', what: 'cold `umpire check`, 200,000 lines, CPU', unit: 's', target: 8, from: ['campaign', 200000], value: r => r.cold.cpu }
];

export const START = '<!-- figures: written by `npm run bench:lsp -- --write-figures`; do not edit by hand -->';
export const END = '<!-- end of figures -->';

/** A measured value as the table shows it. */
export function formatValue(unit, value) {
    return unit === 's' ? `${value.toFixed(2)} s` : `${Math.round(value)} ${unit}`;
}

/** A target as the table shows it ("—" for a figure shown without one). */
export function formatTarget(figure) {
    return figure.target === undefined ? '—' : `${figure.target} ${figure.unit}`;
}

/** The figures' values from the benchmark's rows: `rows` holds `{ kind, size, result }`. */
export function figuresOf(rows) {
    const values = new Map();
    for (const f of FIGURES) {
        const row = rows.find(r => r.kind === f.from[0] && r.size === f.from[1]);
        if (row) values.set(f.id, f.value(row.result));
    }
    return values;
}

/** The figures with a target that the values miss, as lines to print. */
export function missedTargets(values) {
    return FIGURES.filter(f => f.target !== undefined && values.has(f.id) && values.get(f.id) > f.target)
        .map(f => `${f.what}: ${formatValue(f.unit, values.get(f.id))}, target ${formatTarget(f)}`);
}

/** The table of every figure, and the line that says where and when it was measured. */
export function figuresTable(values, measuredOn) {
    const lines = ['| figure | target | measured | met |', '| --- | --- | --- | --- |'];
    for (const f of FIGURES) {
        const value = values.get(f.id);
        const met = f.target === undefined ? '—' : value <= f.target ? 'yes' : '**no**';
        lines.push(`| ${f.what} | ${formatTarget(f)} | ${formatValue(f.unit, value)} | ${met} |`);
    }
    return [...lines, '', measuredOn];
}

/** The page with its table replaced; every figure must have been measured. */
export function withFigures(page, values, measuredOn) {
    const missing = FIGURES.filter(f => !values.has(f.id)).map(f => f.what);
    if (missing.length > 0) throw new Error(`--write-figures needs every figure measured; missing: ${missing.join('; ')}`);
    const start = page.indexOf(START), end = page.indexOf(END);
    if (start < 0 || end < start) throw new Error('the page has no figures markers');
    return page.slice(0, start + START.length) + '\n' + figuresTable(values, measuredOn).join('\n') + '\n' + page.slice(end);
}

/** Rewrites the figures table of `file` (docs/performance.md). */
export function writeFigures(file, values, measuredOn) {
    fs.writeFileSync(file, withFigures(fs.readFileSync(file, 'utf8'), values, measuredOn));
}

/** The rows of the page's figures table: `{ what, target, measured, met }` each. */
export function readFigures(page) {
    const start = page.indexOf(START), end = page.indexOf(END);
    if (start < 0 || end < start) return [];
    return page.slice(start + START.length, end).split('\n').filter(l => l.startsWith('| ') && !/^\| (figure|---) /.test(l))
        .map(l => l.slice(2, -2).split(' | ')).map(([what, target, measured, met]) => ({ what, target, measured, met }));
}
