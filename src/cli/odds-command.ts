/**
 * `umpire odds FILE`: the exact chances of every result, per unit and per side, before any die is
 * thrown. The figures come from the same engine as the editor's Odds view (src/report/odds.ts).
 */
import stringWidth from 'string-width';
import { modelOf } from '../core/model-cache.js';
import { oddsForAction, sdKey } from '../core/odds.js';
import { meanSdText, type OddsReport, type UnitOdds } from '../protocol.js';
import { isUnresolvable } from '../core/resolve.js';
import { CliError, formatDiagnostic, hasErrors, loadFile, loadText, inFileOrder, toStderr, type LoadedFile } from './load.js';
import { selectActions } from './resolve-command.js';
import { madeStep, oddsDifference, parseWhatIf, placeOnDisk, type WhatIfStep } from '../report/what-if.js';
import type { Diagnostic } from 'vscode-languageserver';

export interface OddsCliOptions {
    engagement?: string;
    json?: boolean;
    /** Changes to the engagement's set-up, applied in order (docs/reports.md#what-if). */
    whatIf?: string[];
    /** The odds of the whole campaign (docs/odds.md#campaign-odds), to the end of `through` or of the file. */
    campaign?: boolean;
    through?: string;
    /** With `campaign`: the file-wide house rules of this file in place of the scenario's own. */
    house?: string;
    fromRecord?: boolean;
    samples?: number;
    seed?: number;
    method?: 'auto' | 'exact' | 'monte-carlo';
}

/** The file read and checked: its errors printed, and nothing more done, when it has any. */
export async function loadChecked(file: string, err: (line: string) => void): Promise<LoadedFile> {
    const loaded = await loadFile(file);
    if (hasErrors(loaded.diagnostics)) {
        for (const d of inFileOrder(loaded.diagnostics).filter(x => (x.severity ?? 1) === 1)) err(formatDiagnostic(file, d));
        throw new CliError(`${file}: fix the errors above before asking for odds`, 1);
    }
    return loaded;
}

export async function oddsCommand(file: string, options: OddsCliOptions, out: (line: string) => void, err: (line: string) => void = toStderr): Promise<number> {
    // `--campaign` has a command of its own (campaign-odds-command.ts, chosen in main.ts): never answered here as one action's odds.
    if (options.campaign) throw new CliError('--campaign is answered by campaignOddsCommand');
    if (options.through !== undefined || options.fromRecord || options.samples !== undefined || options.seed !== undefined || options.method !== undefined || options.house !== undefined) {
        throw new CliError('--through, --from-record, --samples, --seed, --method and --house go with --campaign');
    }
    const loaded = await loadChecked(file, err);
    const model = modelOf(loaded.document.parseResult.value);
    if (options.whatIf && options.whatIf.length > 0) return whatIfCommand(file, loaded.text, options.engagement, options.whatIf, options.json === true, out, err);
    const reports: OddsReport[] = [];
    const skipped: string[] = [];
    for (const action of selectActions(model, options.engagement, file)) {
        const r = oddsForAction(model, action);
        if (isUnresolvable(r)) {
            // Asked for by name, a missing answer is an error; in a whole file, say so and go on.
            if (options.engagement !== undefined) throw new CliError(`${file}: ${r.problem}`, 1);
            skipped.push(`${action.node.kind} ${action.node.name}: ${r.problem}`);
            continue;
        }
        reports.push(r);
        if (!options.json) printOdds(r, out);
    }
    if (options.json) out(JSON.stringify({ file, rules: model.rules, engagements: reports, skipped }, null, 2));
    else for (const s of skipped) out(`(no odds) ${s}`);
    return 0;
}

/**
 * `umpire odds FILE --engagement NAME --what-if CHANGE…`: the odds as written and with the changes,
 * and the difference per unit and result. The changed set-up is the file's text edited and checked
 * again through the same services, so both sets of figures come from the same code.
 */
async function whatIfCommand(file: string, text: string, engagement: string | undefined, changes: string[], json: boolean,
    out: (line: string) => void, err: (line: string) => void): Promise<number> {
    if (engagement === undefined) throw new CliError('--what-if needs --engagement NAME: the engagement whose set-up changes');
    let edited = text;
    const steps: WhatIfStep[] = [];
    for (const change of changes) {
        const parsed = parseWhatIf(change);
        if ('problem' in parsed) throw new CliError(parsed.problem);
        // Each change is made on the text the previous one left, read afresh.
        const current = await loadText(file, edited);
        const model = modelOf(current.document.parseResult.value);
        const action = selectActions(model, engagement, file)[0];
        const made = madeStep(model, action, parsed, change, edited);
        if ('problem' in made) throw new CliError(`${file}: what if ${change}: ${made.problem}`, 1);
        steps.push(made.step);
        edited = made.text;
    }
    const odds = async (source: string, label: string): Promise<OddsReport> => {
        const loaded = await loadText(file, source);
        if (hasErrors(loaded.diagnostics)) {
            // Told at the lines of the file on disk: the changed copy is nowhere to be opened.
            for (const d of inFileOrder(loaded.diagnostics).filter(x => (x.severity ?? 1) === 1)) err(onDisk(d, source, source === text ? [] : steps, file, label));
            throw new CliError(`${file}: the set-up ${label} has the errors above`, 1);
        }
        const model = modelOf(loaded.document.parseResult.value);
        const r = oddsForAction(model, selectActions(model, engagement, file)[0]);
        if (isUnresolvable(r)) throw new CliError(`${file} (${label}): ${r.problem}`, 1);
        return r;
    };
    const whatIf = changes.join('; ');
    const before = await odds(text, 'as written');
    const after = await odds(edited, `what if ${whatIf}`);
    const difference = oddsDifference(before, after);
    if (json) {
        out(JSON.stringify({ file, rules: before.rules, engagement, whatIf: changes, before, after, difference }, null, 2));
        return 0;
    }
    out('As written:');
    printOdds(before, out);
    out(`What if ${whatIf}:`);
    printOdds(after, out);
    out(`Difference (what if ${whatIf} minus as written), in percentage points:`);
    const labels = columns(before.units.concat(after.units), 'probabilities');
    const worse = columns(before.units.concat(after.units), 'atLeast');
    const pp = (d: number) => signed(100 * d, 1);
    table([['unit', ...labels, ...worse.map(l => `≥${l}`)], ...difference.units.map(u =>
        [u.id, ...labels.map(l => pp(u.probabilities[l] ?? 0)), ...worse.map(l => pp(u.atLeast[l] ?? 0))])], out);
    out('  per side (expected number of units):');
    table([['side', ...labels], ...difference.sides.map(s => [s.force, ...labels.map(l => signed(s.expected[l] ?? 0, 2))])], out);
    return 0;
}

/**
 * A difference to `digits` places with its sign: `+3.2`, `−0.4`, `0` for none, and `+<0.1` for one too
 * small to show but not none (never `−0.0`, which reads as a change and as no change at once).
 */
export function signed(d: number, digits: number): string {
    if (Math.abs(d) < 5e-11) return '0';
    const sign = d > 0 ? '+' : '−';
    const shown = Math.abs(d).toFixed(digits);
    return Number(shown) === 0 ? `${sign}<${(10 ** -digits).toFixed(digits)}` : `${sign}${shown}`;
}

/**
 * A problem of the changed set-up as `file:line:col …` at its place in the file on disk, read back
 * through each what-if's edits; one in a line a what-if put in is told at the place it went in.
 */
export function onDisk(d: Diagnostic, edited: string, steps: readonly WhatIfStep[], file: string, label: string): string {
    const at = placeOnDisk(steps, edited, d.range.start);
    const located = formatDiagnostic(file, { ...d, range: { start: at, end: at } });
    return `${located} (${label}${at.addedBy ? `: in what '${at.addedBy}' puts here` : ''})`;
}

/** 0.4166… → "41.7%"; tiny but possible chances are not shown as a flat 0. */
export function percent(p: number): string {
    if (p < 1e-12) return '0'; // rounding dust, not a chance
    if (p > 1 - 1e-12) return '100%';
    if (p < 0.0005) return '<0.1%';
    if (p > 0.9995 && p < 1) return '>99.9%';
    return `${(p * 100).toFixed(1)}%`;
}

/** The labels worth a column: those with any chance for some unit, in the rule set's order. */
function columns(units: readonly UnitOdds[], key: 'probabilities' | 'atLeast'): string[] {
    const labels: string[] = [];
    for (const u of units) {
        for (const [label, p] of Object.entries(u[key] ?? {})) if (p > 1e-12 && !labels.includes(label)) labels.push(label);
    }
    const order = Object.keys(units[0]?.[key] ?? {});
    return labels.sort((a, b) => order.indexOf(a) - order.indexOf(b));
}

/** The counts a rule set may give per unit: the key of the mean (its sd beside it as `sdX`) and the column's title. */
const EXPECTED: ReadonlyArray<[string, string]> = [
    ['expectedHits', 'hits'], ['expectedTokens', 'tokens'], ['expectedDistance', 'inches'],
    ['expectedDp', 'DP'], ['expectedCasualties', 'cas.']
];

/**
 * A count as "mean ± sd" (the sd left out where it is not known), with the standard error of the mean
 * in brackets when the figure was sampled: the look of the campaign's counters.
 */
function countText(mean: number, sd: unknown, se?: unknown): string {
    const error = typeof se === 'number' ? (typeof sd === 'number' ? ` (±${se.toFixed(2)})` : ` ±${se.toFixed(2)}`) : '';
    return meanSdText(mean, sd) + error;
}

/** Columns lined up by the columns each cell takes in a terminal (string-width: `騎兵隊` takes six). */
export function table(rows: string[][], out: (line: string) => void): void {
    const widths = rows[0].map((_, c) => Math.max(...rows.map(r => stringWidth(r[c]))));
    const pad = (cell: string, c: number) => {
        const room = ' '.repeat(widths[c] - stringWidth(cell));
        return c === 0 ? cell + room : room + cell;
    };
    for (const r of rows) out('  ' + r.map(pad).join('  ').trimEnd());
}

/**
 * One action's odds as a table. `title` replaces the heading; `se`, the standard error of each figure in
 * the report's own shape (a sampled campaign's), is printed beside each chance.
 */
export function printOdds(report: OddsReport, out: (line: string) => void, shown: { title?: string, se?: OddsReport } = {}): void {
    const turn = report.turn ? ` (turn ${report.turn})` : '';
    out(shown.title ?? `${report.kind} ${report.name}${turn}: exact odds`);
    const se = shown.se;
    const pc = (p: number, e: number | undefined) => (e === undefined ? percent(p) : `${percent(p)} ±${(100 * e).toFixed(1)}`);
    const labels = columns(report.units, 'probabilities');
    const worse = columns(report.units, 'atLeast');
    // Expected values a rule set reports per unit (hits, tokens, inches, DPs, casualties), when present.
    const extras = EXPECTED.filter(([key]) => report.units.some(u => typeof u[key] === 'number'));
    const head = ['unit', ...labels, ...worse.map(l => `≥${l}`), ...extras.map(([, title]) => `${title} (mean ± sd)`)];
    const rows = [head];
    report.units.forEach((u, i) => {
        const e = se?.units[i];
        const row = [u.id, ...labels.map(l => pc(u.probabilities[l] ?? 0, e?.probabilities[l])), ...worse.map(l => pc(u.atLeast?.[l] ?? 0, e?.atLeast?.[l]))];
        for (const [key] of extras) row.push(typeof u[key] === 'number' ? countText(u[key] as number, u[sdKey(key)!], e?.[key]) : '');
        rows.push(row);
    });
    table(rows, out);
    out('  per side (number of units: mean ± sd; chance of at least one):');
    const sideRows = [['side', ...labels, ...Object.keys(report.sides[0]?.atLeastOne ?? {}).map(l => `P(≥1 ${l})`)]];
    report.sides.forEach((s, i) => {
        const e = se?.sides[i];
        const joint = Object.keys(report.sides[0]?.atLeastOne ?? {}).map(l => (s.atLeastOne[l] === undefined ? '—' : pc(s.atLeastOne[l], e?.atLeastOne[l])));
        sideRows.push([s.force, ...labels.map(l => countText(s.expected[l] ?? 0, s.sd?.[l], e?.expected[l])), ...joint]);
    });
    table(sideRows, out);
    for (const n of report.notes) out(`  note: ${n}`);
    out('');
}
