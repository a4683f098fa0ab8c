/**
 * The report's charts as standalone SVG, drawn by Vega-Lite compiled to Vega and rendered headless
 * (`renderer: 'none'`, `toSVG()`): no browser and no canvas. Vega 5 / Vega-Lite 5 are pinned because
 * their 6.x lines need Node 22. Each SVG carries its own light and dark colours (a `<style>` with
 * prefers-color-scheme), so it reads the same inline in the HTML and as a file beside the Markdown.
 */
import stringWidth from 'string-width';
import * as vega from 'vega';
import { compile, type TopLevelSpec } from 'vega-lite';
import type { ActionReport, BattleReport } from './battle-report.js';
import { chartFile, isCertain, type Charts } from './render.js';
import { labelLines, SEVERITY_COLOURS } from '../protocol.js';

/** Results the rule set does not rank: colours that say neither good nor bad. */
const UNRANKED = ['#3f6fb5', '#7e4fb8', '#a8437a', '#86663a'];

const DARK_STYLE = '<style>@media (prefers-color-scheme: dark) { .umpire-chart text { fill: #e6e6e6; } ' +
    '.umpire-chart .role-axis-domain line, .umpire-chart .role-axis-tick line { stroke: #aaa; } ' +
    '.umpire-chart .role-axis-grid line { stroke: #555; } }</style>';

async function render(spec: TopLevelSpec, label: string): Promise<string> {
    const view = new vega.View(vega.parse(compile(spec).spec), { renderer: 'none' });
    const svg = await view.toSVG();
    view.finalize();
    // A class for the dark colours, an accessible name, and no fixed white background.
    return svg.replace('<svg ', `<svg class="umpire-chart" role="img" aria-label="${escapeAttr(label)}" `)
        .replace(/<rect width="[\d.]+" height="[\d.]+" fill="white"\/>/, '')
        .replace(/(<svg[^>]*>)/, `$1<title>${escapeAttr(label)}</title>${DARK_STYLE}`);
}

function escapeAttr(text: string): string {
    return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

const CONFIG = { background: 'transparent', font: 'sans-serif', view: { stroke: null }, axis: { labelFontSize: 12, titleFontSize: 12, labelLimit: 0, labelLineHeight: 15 }, legend: { labelFontSize: 12, titleFontSize: 12, labelLimit: 0 }, title: { fontSize: 14, limit: 0 } } as const;

/**
 * A label's width as headless Vega reckons it (no canvas: 0.8 of the font size a character, two for
 * a wide one), so that the lines it is broken into are those Vega lays out, every one whole.
 */
const reckoned = (size: number) => (text: string) => 0.8 * size * stringWidth(text);

/** The room left of the bars for a unit's name and result, in lines of at most this many pixels. */
const NAMES = 240;

/**
 * Odds bars: one bar per unit, the chance of each result stacked in the ladder's order (best
 * first), the result it got outlined.
 */
async function oddsChart(action: ActionReport, ladder: ReadonlyArray<readonly string[]>): Promise<string | undefined> {
    if ('problem' in action.odds || isCertain(action.odds.units)) return undefined;
    const got = new Map(action.luck.map(l => [l.id, l.result]));
    const order = ladder.flat();
    const rank = (label: string) => { const i = order.indexOf(label); return i < 0 ? order.length : i; };
    const values = action.odds.units.flatMap(u => Object.entries(u.probabilities)
        .filter(([, p]) => p > 1e-12)
        .map(([label, p]) => {
            const unit = u.id + (got.has(u.id) ? ` — ${got.get(u.id)}` : '');
            return { unit, row: labelLines(unit, NAMES, reckoned(12)).join('\n'), label, p, rank: rank(label), got: got.get(u.id) === label };
        }));
    const tallest = Math.max(1, ...values.map(v => v.row.split('\n').length));
    const labels = [...new Set(values.map(v => v.label))].sort((a, b) => rank(a) - rank(b));
    // The Odds view's colours: each result's severity on the scale every rule set shares.
    const severities = new Map(action.results.map(r => [r.label, r.severity]));
    const range = labels.map((l, i) => { const s = severities.get(l); return s ? SEVERITY_COLOURS[s].fill : UNRANKED[i % UNRANKED.length]; });
    const spec: TopLevelSpec = {
        $schema: 'https://vega.github.io/schema/vega-lite/v5.json',
        config: CONFIG,
        title: `${action.kind} ${action.name}: the odds faced (outlined: the result written)`,
        width: 520,
        // Each name in as many lines as it takes (joined by line breaks, which the axis splits again).
        height: { step: Math.max(20, 15 * tallest + 6) },
        data: { values },
        mark: { type: 'bar', strokeWidth: 2.5 },
        encoding: {
            y: { field: 'row', type: 'nominal', sort: null, title: null, axis: { labelExpr: "split(datum.label, '\\n')" } },
            x: { field: 'p', type: 'quantitative', stack: 'zero', title: 'chance', axis: { format: '.0%' }, scale: { domain: [0, 1] } },
            color: { field: 'label', type: 'nominal', sort: labels, title: 'result', scale: { domain: labels, range } },
            order: { field: 'rank', type: 'quantitative' },
            stroke: { condition: { test: 'datum.got', value: '#1a1a1a' }, value: null },
            tooltip: [{ field: 'unit' }, { field: 'label' }, { field: 'p', format: '.1%' }]
        }
    };
    return render(spec, `Odds of ${action.name}`);
}

/** Luck per engagement: each side's mean percentile (50% is par), one group of bars per action. */
async function luckChart(actions: readonly ActionReport[]): Promise<string | undefined> {
    const values = actions.flatMap(a => a.sides.map(s => ({ action: a.name, side: s.force, percentile: s.meanPercentile })));
    if (values.length === 0) return undefined;
    const spec: TopLevelSpec = {
        $schema: 'https://vega.github.io/schema/vega-lite/v5.json',
        config: CONFIG,
        title: 'Luck per engagement: mean percentile of each side\'s results (50% = as expected)',
        width: 520,
        data: { values },
        layer: [
            {
                mark: 'bar',
                encoding: {
                    y: { field: 'action', type: 'nominal', sort: null, title: null },
                    yOffset: { field: 'side', type: 'nominal' },
                    x: { field: 'percentile', type: 'quantitative', scale: { domain: [0, 1] }, axis: { format: '.0%' }, title: 'percentile (higher = luckier)' },
                    color: { field: 'side', type: 'nominal', title: 'side' },
                    tooltip: [{ field: 'action' }, { field: 'side' }, { field: 'percentile', format: '.1%' }]
                }
            },
            { mark: { type: 'rule', strokeDash: [4, 3], color: '#888' }, encoding: { x: { datum: 0.5 } } }
        ]
    };
    return render(spec, 'Luck per engagement');
}

/** Every chart of a report, by the file name it gets beside the Markdown. */
export async function reportCharts(report: BattleReport, ladder: ReadonlyArray<readonly string[]>, options: { luckOnly?: boolean } = {}): Promise<Charts> {
    const charts = new Map<string, string>();
    if (!options.luckOnly) {
        for (const a of report.actions) {
            const svg = await oddsChart(a, ladder);
            if (svg) charts.set(chartFile(a.name), svg);
        }
    }
    const luck = await luckChart(report.actions);
    if (luck) charts.set('luck.svg', luck);
    return charts;
}
