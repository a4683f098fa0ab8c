/**
 * The Odds panel's figures as a table to paste: "Copy as Markdown" (a campaign blog, a forum post)
 * and "Copy as CSV" (a spreadsheet). One row per unit of every action shown, with either the chance
 * of each result or the chance of each result "or worse" (the panel's "This or worse" toggle):
 * what the umpire sees is what is copied. No vscode import: tested like any other function.
 */
import { SEVERITY_COLOURS, type OddsAnswer, type OddsReport, type OddsUnavailable, type ResultRank, type UnitOdds } from '../protocol.js';

/** Which figures: the chance of each result, or of each result or worse (`atLeast`). */
export type OddsDistribution = 'results' | 'orWorse';

interface OddsTable {
    header: string[];
    /** Of each figure column: a chance (0..1), or a change in chance (what-if minus as written). */
    kinds: Array<'chance' | 'change'>;
    /** Action, force, unit, then one figure per figure column. */
    rows: Array<{ action: string, force: string, unit: string, figures: number[] }>;
    /** Why an action shown has no figures. */
    missing: Array<{ action: string, reason: string }>;
    /** The what-if shown beside the set-up as written, when there is one (its columns are in the table). */
    whatIf?: string;
}

function reportsOf(answer: OddsAnswer): Array<OddsReport | OddsUnavailable> {
    return 'actions' in answer && Array.isArray(answer.actions) ? answer.actions : [answer as OddsReport | OddsUnavailable];
}

function isUnavailable(x: OddsReport | OddsUnavailable): x is OddsUnavailable {
    return (x as OddsUnavailable).available === false;
}

/**
 * The labels of some figures best to worst, as the server ranks them (`OddsReport.results`, the rule
 * set's ladder), then any others in the order they appear.
 */
export function labelOrder(units: readonly UnitOdds[], pick: (u: UnitOdds) => Record<string, number> | undefined = u => u.probabilities,
    ranks: readonly ResultRank[] = []): string[] {
    const seen = new Set<string>();
    for (const u of units) for (const l of Object.keys(pick(u) ?? {})) seen.add(l);
    const ranked = ranks.map(r => r.label).filter(l => seen.has(l));
    return [...new Set([...ranked, ...seen])];
}

/**
 * The colours of results the rule set does not rank (`OddsReport.results` leaves them out): blues,
 * purples and browns, never the greens and reds of the severity scale, which say good and bad.
 */
const UNRANKED_COLOURS = ['#3f6fb5', '#7e4fb8', '#a8437a', '#86663a', '#4d5f9e', '#93509a'];

/**
 * Each label's colour and the text colour that reads on it: its severity's (`ranks`, from the server),
 * the same for every rule set, or one of the unranked colours in turn.
 */
export function resultColours(labels: Iterable<string>, ranks: readonly ResultRank[]): Map<string, { fill: string, text: string }> {
    const severities = new Map(ranks.map(r => [r.label, r.severity]));
    const colours = new Map<string, { fill: string, text: string }>();
    let others = 0;
    for (const label of labels) {
        if (colours.has(label)) continue;
        const severity = severities.get(label);
        colours.set(label, severity ? SEVERITY_COLOURS[severity] : { fill: UNRANKED_COLOURS[others++ % UNRANKED_COLOURS.length], text: '#ffffff' });
    }
    return colours;
}

/** How a column of "or worse" figures is headed: the worst result has nothing worse. */
export function orWorseLabel(label: string, labels: readonly string[]): string {
    return label === labels.at(-1) ? label : `${label} or worse`;
}

/**
 * The rows to copy. With a what-if shown (one action, `whatIf.after`), each figure comes three
 * times: as written, with the what-if, and the change (the what-if's figure minus the one as written).
 */
export function oddsTable(answer: OddsAnswer, distribution: OddsDistribution): OddsTable {
    const all = reportsOf(answer);
    const reports = all.filter((r): r is OddsReport => !isUnavailable(r));
    const after = reports.length === 1 ? reports[0].whatIf?.after : undefined;
    const units = reports.flatMap(r => r.units).concat(after?.units ?? []);
    const pick = distribution === 'results' ? (u: UnitOdds) => u.probabilities : (u: UnitOdds) => u.atLeast;
    const labels = labelOrder(units, pick, reports.flatMap(r => r.results ?? []));
    const named = distribution === 'results' ? labels : labels.map(l => orWorseLabel(l, labels));
    const missing = all.filter(isUnavailable).map(u => ({ action: u.action ?? 'odds', reason: u.reason }));
    const rows = (r: OddsReport) => r.units.map(u => ({ action: r.name, force: u.force, unit: u.unit, figures: labels.map(l => pick(u)?.[l] ?? 0) }));
    if (!after) return { header: ['Action', 'Force', 'Unit', ...named], kinds: labels.map(() => 'chance'), rows: reports.flatMap(rows), missing };
    const whatIf = reports[0].whatIf!.changes.join('; ');
    const afterUnits = new Map(after.units.map(u => [u.id, u]));
    return {
        header: ['Action', 'Force', 'Unit', ...named.flatMap(l => [l, `${l} (what if)`, `${l} (change)`])],
        kinds: labels.flatMap(() => ['chance', 'chance', 'change'] as const),
        rows: reports[0].units.map(u => {
            const v = afterUnits.get(u.id);
            return {
                action: reports[0].name, force: u.force, unit: u.unit,
                figures: labels.flatMap(l => {
                    const was = pick(u)?.[l] ?? 0;
                    const now = v ? pick(v)?.[l] ?? 0 : NaN;
                    return [was, now, now - was];
                })
            };
        }),
        missing,
        whatIf
    };
}

/** A change in chance as signed percentage points: `+3.2 pp`, `−0.4 pp`, `0 pp`. */
export function signedPoints(d: number): string {
    if (Number.isNaN(d)) return '—';
    if (Math.abs(d) < 5e-13) return '0 pp';
    const points = Math.abs(100 * d);
    return `${d > 0 ? '+' : '−'}${points < 0.05 ? '<0.1' : points.toFixed(1)} pp`;
}

function percent(p: number): string {
    if (p > 0 && p < 0.001) return '<0.1%';
    if (p < 1 && p > 0.999) return '>99.9%';
    return `${(100 * p).toFixed(1)}%`;
}

function mdCell(text: string): string {
    return text.replace(/\\/g, '\\\\').replace(/\|/g, '\\|').replace(/\r?\n/g, ' ');
}

/** A Markdown (GFM) table, figures as the panel shows them (`53.6%`); actions without odds say why below. */
export function oddsMarkdown(answer: OddsAnswer, distribution: OddsDistribution): string {
    const t = oddsTable(answer, distribution);
    const lines: string[] = [];
    if (t.rows.length > 0) {
        lines.push(`| ${t.header.map(mdCell).join(' | ')} |`, `| ${t.header.map((_, i) => (i < 3 ? '---' : '---:')).join(' | ')} |`);
        for (const r of t.rows) lines.push(`| ${[r.action, r.force, r.unit].map(mdCell).join(' | ')} | ${r.figures.map((p, i) => (t.kinds[i] === 'change' ? signedPoints(p) : Number.isNaN(p) ? '—' : percent(p))).join(' | ')} |`);
        if (t.whatIf) lines.push('', `What if: ${mdCell(t.whatIf)} (change: what if minus as written, in percentage points)`);
    }
    for (const m of t.missing) lines.push('', `No odds for ${mdCell(m.action)}: ${mdCell(m.reason)}`);
    return lines.join('\n').replace(/^\n/, '') + '\n';
}

function csvField(text: string): string {
    return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/**
 * RFC 4180 CSV: a header, then one line per unit; figures are percentages as plain numbers (to 4
 * decimals, so that a spreadsheet can sum and chart them) with the unit in the header.
 */
export function oddsCsv(answer: OddsAnswer, distribution: OddsDistribution): string {
    const t = oddsTable(answer, distribution);
    // A what-if's columns name it: the CSV may be pasted far from the panel.
    const header = t.header.map((h, i) => (i < 3 ? h : `${t.whatIf ? h.replace(/\(what if\)$/, `(what if: ${t.whatIf})`) : h} (${t.kinds[i - 3] === 'change' ? 'pp' : '%'})`));
    const lines = [header.map(csvField).join(',')];
    for (const r of t.rows) lines.push([r.action, r.force, r.unit].map(csvField).concat(r.figures.map(p => (Number.isNaN(p) ? '' : (100 * p).toFixed(4)))).join(','));
    return lines.join('\r\n') + '\r\n';
}
