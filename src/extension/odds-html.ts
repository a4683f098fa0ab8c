/**
 * The odds panel's page: for each unit, a bar of its result probabilities and the "at least"
 * figures; for each side, the results it can expect. The table is pure HTML and CSS; with
 * `options.script` the page also gets its toolbar (Table/Chart, Each result/This or worse, Copy as
 * Markdown/CSV, Save chart as SVG/PNG), a place for each action's chart, the figures as JSON, and
 * the one nonce'd script that runs them (odds-webview.ts). The Content-Security-Policy allows
 * nothing else: no inline style attribute, no eval, no network. No vscode import, so that it is
 * tested like any other function.
 */
import type { OddsAnswer, OddsReport, OddsUnavailable, SideOdds, UnitOdds } from '../protocol.js';

/** Result labels in the order an umpire reads them, best to worst; the colours follow. */
const LABEL_COLOURS: Record<string, string> = {
    'won': '#3f9b4f', 'stand-off': '#8a8f98', 'unpaired': '#c4c8ce', 'recoil': '#e3c14b',
    'retire': '#e69a3a', 'retreat': '#d9652b', 'rout': '#c0392b'
};
const OTHER_COLOURS = ['#4f7fc0', '#8e5ec4', '#2aa1a1', '#b5497d', '#6d8f2f', '#a0703a'];

export function escapeHtml(text: string): string {
    return text.replace(/[&<>"']/g, c => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', '\'': '&#39;' }[c]!));
}

export function percent(p: number): string {
    if (p > 0 && p < 0.001) return '<0.1%';
    if (p < 1 && p > 0.999) return '>99.9%';
    return `${(100 * p).toFixed(1)}%`;
}

function isUnavailable(x: unknown): x is OddsUnavailable {
    return typeof x === 'object' && x !== null && (x as OddsUnavailable).available === false;
}

function isMany(x: OddsAnswer): x is { actions: Array<OddsReport | OddsUnavailable> } {
    return Array.isArray((x as { actions?: unknown }).actions);
}

/** Builds the page; `nonce` must be fresh for each page (it is what lets the style sheet in). */
export function renderOddsHtml(answer: OddsAnswer | undefined, options: { nonce: string, title: string, script?: OddsScript }): string {
    const styles = new StyleSheet();
    const tools = options.script !== undefined;
    let body: string;
    if (answer === undefined) body = `<p class="why">No odds: the language server did not answer.</p>`;
    else if (isUnavailable(answer)) body = unavailable(answer);
    else if (isMany(answer)) body = answer.actions.length === 0 ? '<p class="why">This file has no actions.</p>' : answer.actions.map((a, i) => isUnavailable(a) ? unavailable(a) : report(a, styles, tools ? i : undefined)).join('\n');
    else body = report(answer, styles, tools ? 0 : undefined);
    let csp = `default-src 'none'; style-src 'nonce-${options.nonce}';`;
    if (options.script) {
        csp += ` script-src 'nonce-${options.nonce}' ${options.script.cspSource}; img-src data:;`;
        const hasOdds = answer !== undefined && !isUnavailable(answer) && (!isMany(answer) || answer.actions.some(a => !isUnavailable(a)));
        // JSON in a script element: `<` escaped so that nothing in a name can close the element.
        const data = JSON.stringify(answer ?? null).replace(/</g, '\\u003c');
        body = `${hasOdds ? TOOLBAR : ''}
${body}
<script type="application/json" id="odds-data" nonce="${options.nonce}">${data}</script>
<script nonce="${options.nonce}" src="${escapeHtml(options.script.src)}"></script>`;
    }
    return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="UTF-8">
<meta http-equiv="Content-Security-Policy" content="${csp}">
<meta name="viewport" content="width=device-width, initial-scale=1.0">
<title>${escapeHtml(options.title)}</title>
<style nonce="${options.nonce}">
${BASE_CSS}
${styles.text()}
</style>
</head>
<body>
${body}
</body>
</html>`;
}

/** The page's script: its address in the webview, and the webview's CSP source for it. */
export interface OddsScript {
    src: string;
    cspSource: string;
}

const TOOLBAR = `<div class="toolbar" role="toolbar" aria-label="Odds view">
<span role="group" aria-label="Show as"><button type="button" data-show="table" aria-pressed="true">Table</button><button type="button" data-show="chart" aria-pressed="false">Chart</button></span>
<span role="group" aria-label="Figures"><button type="button" data-distribution="results" aria-pressed="true" title="The chance of each result">Each result</button><button type="button" data-distribution="orWorse" aria-pressed="false" title="The chance of each result or a worse one">This or worse</button></span>
<span role="group" aria-label="Copy the figures shown"><button type="button" data-copy="markdown">Copy as Markdown</button><button type="button" data-copy="csv">Copy as CSV</button></span>
</div>`;

function chartPlace(index: number, name: string): string {
    return `<div class="chart-area">
<div class="chart" data-index="${index}" role="img" aria-label="Chart of the odds of ${escapeHtml(name)}"></div>
<div class="chart-tools"><button type="button" data-save="svg" data-index="${index}">Save chart as SVG</button><button type="button" data-save="png" data-index="${index}">Save chart as PNG</button></div>
</div>`;
}

function unavailable(u: OddsUnavailable): string {
    return `<section><h2>${escapeHtml(u.action ?? 'Odds')}</h2><p class="why">No odds: ${escapeHtml(u.reason)}</p></section>`;
}

function report(r: OddsReport, styles: StyleSheet, chartIndex: number | undefined): string {
    const forces = [...new Set([...r.sides.map(s => s.force), ...r.units.map(u => u.force)])];
    const labels = labelOrder(r.units);
    const legend = labels.map(l => `<span class="key"><span class="swatch ${styles.colour(l)}"></span>${escapeHtml(l)}</span>`).join(' ');
    const sides = forces.map(force => sideSection(force, r.sides.find(s => s.force === force), r.units.filter(u => u.force === force), labels, styles)).join('\n');
    const notes = r.notes.map(n => `<p class="why">${escapeHtml(n)}</p>`).join('');
    const turn = r.turn ? ` · turn ${escapeHtml(r.turn)}` : '';
    return `<section>
<h2>${escapeHtml(r.kind)} ${escapeHtml(r.name)} <small>${escapeHtml(r.rules)}${turn} · exact odds, before the dice</small></h2>
${chartIndex !== undefined ? chartPlace(chartIndex, r.name) : ''}
<div class="tables">
<p class="legend">${legend}</p>
${sides}
</div>
${notes}
</section>`;
}

function sideSection(force: string, side: SideOdds | undefined, units: UnitOdds[], labels: string[], styles: StyleSheet): string {
    const expected = side ? Object.entries(side.expected).filter(([, n]) => n >= 0.005).map(([l, n]) => `${n.toFixed(2)} ${escapeHtml(l)}`).join(', ') : '';
    const joint = side ? Object.entries(side.atLeastOne).map(([l, p]) => `at least one ${escapeHtml(l)}: <b>${percent(p)}</b>`).join(' · ') : '';
    const rows = units.map(u => unitRow(u, labels, styles)).join('\n');
    return `<h3>${escapeHtml(force)}</h3>
${expected ? `<p class="side">Expected: ${expected}${joint ? `<br>${joint}` : ''}</p>` : ''}
<table>
<thead><tr><th>Unit</th><th class="results">Results</th><th class="or-worse">At least</th></tr></thead>
<tbody>
${rows}
</tbody>
</table>`;
}

function unitRow(u: UnitOdds, labels: string[], styles: StyleSheet): string {
    const segments = labels
        .filter(l => (u.probabilities[l] ?? 0) > 0)
        .map(l => {
            const p = u.probabilities[l];
            return `<span class="seg ${styles.colour(l)} ${styles.width(p)}" title="${escapeHtml(l)} ${percent(p)}">${p >= 0.18 ? escapeHtml(`${l} ${percent(p)}`) : ''}</span>`;
        }).join('');
    const figures = labels.filter(l => (u.probabilities[l] ?? 0) > 0).map(l => `${escapeHtml(l)} ${percent(u.probabilities[l])}`).join(' · ');
    const atLeast = Object.entries(u.atLeast ?? {}).map(([l, p]) => `<span class="atleast">${escapeHtml(l)}${l === 'rout' ? '' : '+'} <b>${percent(p)}</b></span>`).join(' ');
    // The side's heading names the force: the row names the unit (`Line#2`).
    return `<tr><td class="unit" title="${escapeHtml(u.id)}">${escapeHtml(u.unit)}</td><td class="results"><div class="bar">${segments}</div><div class="figures">${figures}</div></td><td class="or-worse">${atLeast || '—'}</td></tr>`;
}

/** Known labels best to worst, then any others in the order they appear. */
function labelOrder(units: UnitOdds[]): string[] {
    const seen = new Set<string>();
    for (const u of units) for (const l of Object.keys(u.probabilities)) seen.add(l);
    const known = Object.keys(LABEL_COLOURS).filter(l => seen.has(l));
    return [...known, ...[...seen].filter(l => !(l in LABEL_COLOURS))];
}

/** Widths and colours as classes of the nonce'd sheet: the CSP forbids inline style attributes. */
class StyleSheet {
    private readonly rules = new Map<string, string>();
    private others = 0;

    width(p: number): string {
        const w = Math.max(0, Math.min(100, 100 * p)).toFixed(2);
        const name = `w${w.replace('.', '_')}`;
        this.rules.set(name, `.${name} { width: ${w}%; }`);
        return name;
    }

    colour(label: string): string {
        const name = `c-${label.replace(/[^a-zA-Z0-9-]/g, '_')}`;
        if (!this.rules.has(name)) {
            const colour = LABEL_COLOURS[label] ?? OTHER_COLOURS[this.others++ % OTHER_COLOURS.length];
            this.rules.set(name, `.${name} { background: ${colour}; }`);
        }
        return name;
    }

    text(): string {
        return [...this.rules.values()].join('\n');
    }
}

const BASE_CSS = `
body { font-family: var(--vscode-font-family, sans-serif); color: var(--vscode-foreground, #222); padding: 0 1em 1em; }
h2 small { font-weight: normal; opacity: 0.7; font-size: 0.7em; margin-left: 0.5em; }
h3 { margin: 1.2em 0 0.3em; }
table { border-collapse: collapse; width: 100%; }
th { text-align: left; font-weight: 600; opacity: 0.8; padding: 2px 6px; }
td { padding: 4px 6px; vertical-align: top; border-top: 1px solid var(--vscode-editorWidget-border, #ddd); }
td.unit { white-space: nowrap; font-family: var(--vscode-editor-font-family, monospace); }
.bar { display: flex; height: 1.4em; width: 100%; min-width: 6em; border-radius: 3px; overflow: hidden; background: var(--vscode-editorWidget-background, #eee); }
.seg { display: block; height: 100%; color: #fff; font-size: 0.75em; line-height: 1.9em; white-space: nowrap; overflow: hidden; text-indent: 3px; }
.figures { font-size: 0.8em; opacity: 0.8; margin-top: 2px; }
.atleast { display: block; white-space: nowrap; font-size: 0.9em; }
.legend .key { margin-right: 1em; white-space: nowrap; }
.swatch { display: inline-block; width: 0.8em; height: 0.8em; margin-right: 0.3em; border-radius: 2px; vertical-align: middle; }
.side { margin: 0.2em 0 0.5em; }
.why { opacity: 0.8; font-style: italic; }
.toolbar { position: sticky; top: 0; z-index: 1; display: flex; flex-wrap: wrap; gap: 0.8em; padding: 0.6em 0; background: var(--vscode-editor-background, #fff); border-bottom: 1px solid var(--vscode-editorWidget-border, #ddd); }
.toolbar [role=group], .chart-tools { display: inline-flex; gap: 2px; }
button { font: inherit; font-size: 0.9em; padding: 3px 9px; cursor: pointer; border: 1px solid var(--vscode-button-border, transparent); border-radius: 2px;
  color: var(--vscode-button-secondaryForeground, #222); background: var(--vscode-button-secondaryBackground, #e4e4e4); }
button:hover { background: var(--vscode-button-secondaryHoverBackground, #d0d0d0); }
button[aria-pressed=true] { color: var(--vscode-button-foreground, #fff); background: var(--vscode-button-background, #0e639c); }
button:focus-visible { outline: 1px solid var(--vscode-focusBorder, #0090f1); outline-offset: 1px; }
.chart-area { display: none; margin: 0.5em 0; }
.chart-tools { margin-top: 0.3em; }
body.show-chart .chart-area { display: block; }
body.show-chart .tables { display: none; }
body.dist-results .or-worse, body.dist-orWorse .results { display: none; }
`;
