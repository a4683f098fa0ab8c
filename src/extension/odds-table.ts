/**
 * The Odds panel's figures as a table to paste: "Copy as Markdown" (a campaign blog, a forum post)
 * and "Copy as CSV" (a spreadsheet). One row per unit of every action shown, with either the chance
 * of each result or the chance of each result "or worse" (the panel's "This or worse" toggle):
 * what the umpire sees is what is copied. No vscode import: tested like any other function.
 */
import type { OddsAnswer, OddsReport, OddsUnavailable, UnitOdds } from '../protocol.js';

/** Which figures: the chance of each result, or of each result or worse (`atLeast`). */
export type OddsDistribution = 'results' | 'orWorse';

/** Result labels in the order an umpire reads them, best to worst; others follow as they come. */
const RESULT_ORDER = ['won', 'stand-off', 'unpaired', 'recoil', 'retire', 'retreat', 'rout'];

interface OddsTable {
    header: string[];
    /** Action, force, unit, then one probability (0..1) per figure column. */
    rows: Array<{ action: string, force: string, unit: string, figures: number[] }>;
    /** Why an action shown has no figures. */
    missing: Array<{ action: string, reason: string }>;
}

function reportsOf(answer: OddsAnswer): Array<OddsReport | OddsUnavailable> {
    return 'actions' in answer && Array.isArray(answer.actions) ? answer.actions : [answer as OddsReport | OddsUnavailable];
}

function isUnavailable(x: OddsReport | OddsUnavailable): x is OddsUnavailable {
    return (x as OddsUnavailable).available === false;
}

/** Known labels best to worst, then any others in the order they appear. */
export function labelOrder(units: readonly UnitOdds[], pick: (u: UnitOdds) => Record<string, number> | undefined = u => u.probabilities): string[] {
    const seen = new Set<string>();
    for (const u of units) for (const l of Object.keys(pick(u) ?? {})) seen.add(l);
    return [...RESULT_ORDER.filter(l => seen.has(l)), ...[...seen].filter(l => !RESULT_ORDER.includes(l))];
}

/** How a column of "or worse" figures is headed: the worst result has nothing worse. */
export function orWorseLabel(label: string, labels: readonly string[]): string {
    return label === labels.at(-1) ? label : `${label} or worse`;
}

export function oddsTable(answer: OddsAnswer, distribution: OddsDistribution): OddsTable {
    const all = reportsOf(answer);
    const reports = all.filter((r): r is OddsReport => !isUnavailable(r));
    const units = reports.flatMap(r => r.units);
    const pick = distribution === 'results' ? (u: UnitOdds) => u.probabilities : (u: UnitOdds) => u.atLeast;
    const labels = labelOrder(units, pick);
    const header = ['Action', 'Force', 'Unit', ...(distribution === 'results' ? labels : labels.map(l => orWorseLabel(l, labels)))];
    return {
        header,
        rows: reports.flatMap(r => r.units.map(u => ({ action: r.name, force: u.force, unit: u.unit, figures: labels.map(l => pick(u)?.[l] ?? 0) }))),
        missing: all.filter(isUnavailable).map(u => ({ action: u.action ?? 'odds', reason: u.reason }))
    };
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
        for (const r of t.rows) lines.push(`| ${[r.action, r.force, r.unit].map(mdCell).join(' | ')} | ${r.figures.map(percent).join(' | ')} |`);
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
    const header = t.header.map((h, i) => (i < 3 ? h : `${h} (%)`));
    const lines = [header.map(csvField).join(',')];
    for (const r of t.rows) lines.push([r.action, r.force, r.unit].map(csvField).concat(r.figures.map(p => (100 * p).toFixed(4))).join(','));
    return lines.join('\r\n') + '\r\n';
}
