/**
 * A battle report as Markdown (charts as SVG files beside it) or as one self-contained HTML page
 * (charts inline, no external reference; light and dark by prefers-color-scheme; printable).
 * Both are written from the same blocks, so they say the same thing.
 */
import type { BattleReport, ActionReport } from './battle-report.js';
import { isUnresolvable } from '../core/resolve.js';
import { markdownTableLines, markdownText } from '../core/status-table.js';
import type { SideLuck } from './luck.js';
import { meanSdText, unitCounts } from '../protocol.js';
import { SEASON_HEADER, seasonHeading, seasonRows } from './season-luck.js';

type Block =
    | { kind: 'h', level: number, text: string }
    | { kind: 'p', text: string }
    | { kind: 'table', header: string[], rows: string[][] }
    | { kind: 'code', text: string, lang: string }
    /** `alt` names the chart (its image's text); `caption` says what it shows, under it. */
    | { kind: 'chart', file: string, alt: string, caption: string, svg: string };

/** The charts of a report, by file name (`<action>-odds.svg`, `luck.svg`). */
export type Charts = ReadonlyMap<string, string>;

const pct = (p: number) => (p < 0.0005 && p > 0 ? '<0.1%' : p > 0.9995 && p < 1 ? '>99.9%' : `${(p * 100).toFixed(1)}%`);

export function chartFile(action: string): string {
    return `${action}-odds.svg`;
}

/** Every unit has one result for certain: the dice cannot change what happens (no table or chart says more). */
export function isCertain(units: ReadonlyArray<{ probabilities: Record<string, number> }>): boolean {
    return units.length > 0 && units.every(u => Object.values(u.probabilities).some(p => p > 1 - 1e-12));
}

function certainResult(probabilities: Record<string, number>): string {
    return Object.entries(probabilities).find(([, p]) => p > 1 - 1e-12)?.[0] ?? '';
}

function luckRows(sides: readonly SideLuck[]): string[][] {
    return sides.map(s => {
        const labels = [...new Set([...Object.keys(s.expected).filter(k => s.expected[k] > 1e-9), ...Object.keys(s.actual)])];
        return [s.force, String(s.units), pct(s.meanPercentile), labels.map(l => `${l} ${s.actual[l] ?? 0} (exp. ${(s.expected[l] ?? 0).toFixed(2)})`).join(', ')];
    });
}

const LUCK_HEADER = ['Side', 'Units', 'Mean percentile', 'Results: got (expected)'];

function actionBlocks(a: ActionReport, charts: Charts): Block[] {
    const blocks: Block[] = [{ kind: 'h', level: 3, text: `${a.kind} ${a.name}${a.turn ? ` — turn ${a.turn}` : ''}` }];
    blocks.push({ kind: 'p', text: 'Set-up:' }, { kind: 'code', text: a.setup || '(empty)', lang: 'battle' });
    blocks.push({ kind: 'p', text: `Dice: ${a.dice}.` });
    if (a.record !== 'current' && a.record !== 'none') blocks.push({ kind: 'p', text: `Note: the written outcome is ${a.record} (it no longer follows from the set-up as written); its lines are shown as written.` });
    if (a.lines.length > 0) blocks.push({ kind: 'p', text: 'Step by step:' }, { kind: 'code', text: a.lines.join('\n'), lang: 'text' });
    if (a.summary !== undefined) blocks.push({ kind: 'p', text: `Result: ${a.summary}` });
    if ('problem' in a.odds) blocks.push({ kind: 'p', text: `No odds: ${a.odds.problem}` });
    else if (isCertain(a.odds.units)) {
        // A move that only moves: a table of 100% and a chart of one colour would say nothing more.
        blocks.push({ kind: 'p', text: `No dice could change it: ${a.odds.units.map(u => `${u.id} ${certainResult(u.probabilities)}`).join(', ')}.` });
        for (const n of a.odds.notes) blocks.push({ kind: 'p', text: `Note: ${n}` });
    } else {
        const labels = [...new Set(a.odds.units.flatMap(u => Object.entries(u.probabilities).filter(([, p]) => p > 1e-12).map(([l]) => l)))];
        const got = new Map(a.luck.map(l => [l.id, l]));
        blocks.push({ kind: 'p', text: 'The odds faced beforehand (exact), the result written, and how lucky it was:' });
        // The counts the rule set gives per unit (hits, DPs, …), as mean ± sd, as the CLI prints them.
        const counts = unitCounts(a.odds.units);
        blocks.push({
            kind: 'table', header: ['Unit', ...labels, ...counts.map(([, , name]) => `${name} (mean ± sd)`), 'Got', 'P(this or better)', 'Percentile'],
            rows: a.odds.units.map(u => {
                const l = got.get(u.id);
                const count = counts.map(([m, sd]) => (typeof u[m] === 'number' ? meanSdText(u[m] as number, u[sd]) : ''));
                return [u.id, ...labels.map(x => pct(u.probabilities[x] ?? 0)), ...count, l?.result ?? '—', l ? pct(l.atLeastAsGood) : '—', l ? pct(l.percentile) : '—'];
            })
        });
        const svg = charts.get(chartFile(a.name));
        if (svg) {
            blocks.push({
                kind: 'chart', file: chartFile(a.name), alt: `Odds of ${a.name}`, svg,
                caption: `The odds of ${a.kind} ${a.name}: for each unit, the chance of each result, best to worst${a.luck.length > 0 ? ', the result written outlined' : ''} (the figures of the table above).`
            });
        }
        for (const n of a.odds.notes) blocks.push({ kind: 'p', text: `Note: ${n}` });
    }
    if (a.sides.length > 0) blocks.push({ kind: 'p', text: 'Luck per side:' }, { kind: 'table', header: LUCK_HEADER, rows: luckRows(a.sides) });
    return blocks;
}

/** The luck section alone (`umpire report --luck`). */
function luckBlocks(report: BattleReport, charts: Charts): Block[] {
    const blocks: Block[] = [{ kind: 'h', level: 2, text: 'Luck' }];
    if (report.luck.length === 0) return [...blocks, { kind: 'p', text: 'No written outcome has odds to measure luck against.' }];
    blocks.push({ kind: 'p', text: 'How each side\'s dice ran against the exact odds over every written outcome reported. A unit\'s percentile is P(a worse result) + ½ P(as good), under the odds it faced: 50% is par, and the mean over any set of results is exactly 50% on average.' });
    blocks.push({ kind: 'table', header: LUCK_HEADER, rows: luckRows(report.luck) });
    blocks.push({ kind: 'p', text: seasonHeading(report.season) });
    if (!isUnresolvable(report.season) && report.season.method !== 'none') blocks.push({ kind: 'table', header: SEASON_HEADER, rows: seasonRows(report.season) });
    const svg = charts.get('luck.svg');
    if (svg) {
        blocks.push({
            kind: 'chart', file: 'luck.svg', alt: 'Luck per engagement', svg,
            caption: 'Luck per engagement: each side\'s mean percentile in each engagement (50% is par; higher is luckier).'
        });
    }
    return blocks;
}

/** A chance, with the Monte Carlo's standard error when the campaign was sampled: `41.7% ±0.8`. */
function chanceText(p: number, se: number | undefined): string {
    return se === undefined ? pct(p) : `${pct(p)} ±${(100 * se).toFixed(1)}`;
}

/**
 * The campaign's odds: each unit's chance of each end state, its counters' mean ± sd, and each side's
 * chance of at least one loss of each kind and its expected losses. Tables only: each unit's few end
 * states are read at a glance as figures, and a chart of them would repeat the table.
 */
function campaignBlocks(campaign: NonNullable<BattleReport['campaign']>): Block[] {
    if ('problem' in campaign) return [{ kind: 'h', level: 2, text: 'Campaign odds' }, { kind: 'p', text: `No campaign odds: ${campaign.problem}` }];
    const when = campaign.through === null ? 'at the end of the file' : `at the end of turn ${campaign.through}`;
    const how = campaign.method === 'exact' ? `exact, over ${campaign.states} joint state${campaign.states === 1 ? '' : 's'} at most`
        : `Monte Carlo over ${campaign.samples} campaigns from seed ${campaign.seed}; ±N is the standard error of a figure`;
    const statuses = ['ready', 'routed', 'destroyed', 'fled'].filter(s => campaign.units.some(u => (u.status[s] ?? 0) > 0));
    const counters = [...new Set(campaign.units.flatMap(u => Object.keys(u.counters)))];
    const tested = campaign.units.some(u => u.tested !== undefined);
    const blocks: Block[] = [{ kind: 'h', level: 2, text: `Campaign odds ${when}` }];
    blocks.push({ kind: 'p', text: `Where each unit stands ${when} over every way the campaign's dice can fall, every action's dice open (${how}):` });
    blocks.push({
        kind: 'table', header: ['Unit', ...statuses, ...counters.map(c => `${c} (mean ± sd)`), ...(tested ? ['tested'] : [])],
        rows: campaign.units.map(u => [u.id, ...statuses.map(s => chanceText(u.status[s] ?? 0, u.se?.status[s])),
            ...counters.map(c => u.counters[c] ? `${u.counters[c].mean.toFixed(2)} ± ${u.counters[c].sd.toFixed(2)}` : '—'),
            ...(tested ? [u.tested === undefined ? '—' : chanceText(u.tested as number, u.se?.tested as number | undefined)] : [])])
    });
    const lost = [...new Set(campaign.sides.flatMap(s => Object.keys(s.atLeastOne)))];
    if (lost.length > 0) {
        blocks.push({ kind: 'p', text: 'Per side, the chance of losing at least one unit in each way, and the number lost:' });
        blocks.push({
            kind: 'table', header: ['Side', ...lost.flatMap(l => [`P(at least one ${l})`, `${l} (mean ± sd)`])],
            rows: campaign.sides.map(s => [s.force, ...lost.flatMap(l => [chanceText(s.atLeastOne[l] ?? 0, s.se?.atLeastOne[l]),
                s.losses[l] ? `${s.losses[l].mean.toFixed(2)} ± ${s.losses[l].sd.toFixed(2)}` : '—'])])
        });
    }
    for (const a of campaign.actions.filter(x => x.fought < 1 - 1e-12)) {
        blocks.push({ kind: 'p', text: `${a.kind} ${a.name} is fought as written ${pct(a.fought)} of the time (a unit of it is out of the fight by then otherwise).` });
    }
    for (const n of campaign.notes) blocks.push({ kind: 'p', text: `Note: ${n}` });
    return blocks;
}

function reportBlocks(report: BattleReport, charts: Charts): Block[] {
    const blocks: Block[] = [{ kind: 'h', level: 1, text: `${report.title} — battle report` }];
    blocks.push({ kind: 'p', text: `Rules: ${report.rules}. Written by umpire from the file's recorded outcomes; odds are exact.` });
    blocks.push({ kind: 'h', level: 2, text: 'Forces' });
    blocks.push({ kind: 'table', header: ['Force', 'Unit', 'Arm', 'Grade', 'Stats'], rows: report.forces.map(f => [f.force, f.unit, f.arm, f.grade, f.stats]) });
    blocks.push({ kind: 'h', level: 2, text: 'Engagements' });
    if (report.actions.length === 0) blocks.push({ kind: 'p', text: 'No action matches.' });
    for (const a of report.actions) blocks.push(...actionBlocks(a, charts));
    blocks.push(...luckBlocks(report, charts));
    if (report.campaign) blocks.push(...campaignBlocks(report.campaign));
    if ('problem' in report.state) blocks.push({ kind: 'p', text: `No state table: ${report.state.problem}` });
    else {
        blocks.push({ kind: 'h', level: 2, text: `Campaign state ${report.state.when}` });
        blocks.push({ kind: 'table', header: report.state.header, rows: report.state.rows });
    }
    return blocks;
}

function toMarkdown(blocks: readonly Block[], withCharts: boolean, chartPrefix: string): string {
    const out: string[] = [];
    for (const b of blocks) {
        if (b.kind === 'h') out.push(`${'#'.repeat(b.level)} ${markdownText(b.text)}`);
        else if (b.kind === 'p') out.push(markdownText(b.text));
        else if (b.kind === 'code') {
            // A fence longer than any backtick run inside, so that nothing the file says closes it.
            const fence = '`'.repeat(Math.max(3, ...[...b.text.matchAll(/`+/g)].map(m => m[0].length + 1)));
            out.push(`${fence}${b.lang}\n${b.text}\n${fence}`);
        } else if (b.kind === 'table') {
            out.push(markdownTableLines(b.header, b.rows).join('\n'));
        } else if (withCharts) out.push(`![${markdownText(b.alt)}](${encodeURI(chartPrefix + b.file)})\n\n*${markdownText(b.caption)}*`);
    }
    return out.join('\n\n') + '\n';
}

function esc(text: string): string {
    return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

const CSS = `
:root { color-scheme: light dark; --fg: #1d1d1d; --bg: #fff; --muted: #666; --rule: #ccc; --code: #f4f4f4; }
@media (prefers-color-scheme: dark) { :root { --fg: #e6e6e6; --bg: #181a1b; --muted: #aaa; --rule: #444; --code: #23272a; } }
body { font: 15px/1.5 system-ui, sans-serif; color: var(--fg); background: var(--bg); max-width: 60rem; margin: 2rem auto; padding: 0 1rem; }
h1, h2, h3 { line-height: 1.2; } h2 { border-bottom: 1px solid var(--rule); padding-bottom: .2rem; }
table { border-collapse: collapse; margin: .5rem 0 1rem; font-size: 13px; }
.table-scroll { max-width: 100%; overflow-x: auto; }
th, td { border: 1px solid var(--rule); padding: .25rem .5rem; text-align: left; vertical-align: top; }
pre { background: var(--code); padding: .6rem .8rem; overflow-x: auto; font-size: 13px; }
figure { margin: .5rem 0 1rem; } svg { max-width: 100%; height: auto; } figcaption { color: var(--muted); font-size: 13px; }
section.action { break-inside: avoid-page; }
@media print { body { max-width: none; margin: 0; font-size: 11pt; } :root { --fg: #000; --bg: #fff; --code: #f4f4f4; --rule: #999; }
  .umpire-chart text { fill: #000 !important; } pre { white-space: pre-wrap; } h2 { break-after: avoid; } }
`;

function toHtml(title: string, blocks: readonly Block[]): string {
    const out: string[] = [];
    let open = false;
    for (const b of blocks) {
        if (b.kind === 'h') {
            if (open) { out.push('</section>'); open = false; }
            if (b.level === 3) { out.push('<section class="action">'); open = true; }
            out.push(`<h${b.level}>${esc(b.text)}</h${b.level}>`);
        } else if (b.kind === 'p') out.push(`<p>${esc(b.text)}</p>`);
        else if (b.kind === 'code') out.push(`<pre><code>${esc(b.text)}</code></pre>`);
        else if (b.kind === 'table') {
            // A wide table scrolls in a box of its own on a narrow screen: the page itself never does.
            out.push(`<div class="table-scroll"><table><thead><tr>${b.header.map(h => `<th>${esc(h)}</th>`).join('')}</tr></thead><tbody>` +
                b.rows.map(r => `<tr>${r.map(c => `<td>${esc(c)}</td>`).join('')}</tr>`).join('') + '</tbody></table></div>');
        } else out.push(`<figure>${b.svg}<figcaption>${esc(b.caption)}</figcaption></figure>`);
    }
    if (open) out.push('</section>');
    return `<!doctype html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n<meta name="viewport" content="width=device-width, initial-scale=1">\n` +
        `<title>${esc(title)}</title>\n<style>${CSS}</style>\n</head>\n<body>\n${out.join('\n')}\n</body>\n</html>\n`;
}

/** Markdown, with `![…](prefix + file)` for each chart when the charts are written beside it. */
export function reportMarkdown(report: BattleReport, charts: Charts, options: { withCharts: boolean, chartPrefix?: string, luckOnly?: boolean }): string {
    const blocks = options.luckOnly ? luckBlocks(report, charts) : reportBlocks(report, charts);
    return toMarkdown(blocks, options.withCharts, options.chartPrefix ?? '');
}

export function reportHtml(report: BattleReport, charts: Charts, options: { luckOnly?: boolean } = {}): string {
    return toHtml(`${report.title} — battle report`, options.luckOnly ? luckBlocks(report, charts) : reportBlocks(report, charts));
}
