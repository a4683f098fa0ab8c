/**
 * The odds panel's page: for each unit, a bar of its result probabilities and the "at least"
 * figures; for each side, the results it can expect. The table is pure HTML and CSS; with
 * `options.script` the page also gets its toolbar (Table/Chart, Each result/This or worse, Copy as
 * Markdown/CSV, Save chart as SVG/PNG), a place for each action's chart, the figures as JSON, and
 * the one nonce'd script that runs them (odds-webview.ts). The Content-Security-Policy allows
 * nothing else: no inline style attribute, no eval, no network. No vscode import, so that it is
 * tested like any other function.
 */
import { meanSdText, RESULT_SEVERITIES, type OddsAnswer, type OddsReport, type OddsUnavailable, type ResultRank, type ResultSeverity, type SideOdds, type UnitOdds, type WhatIfChoice } from '../protocol.js';
import stringWidth from 'string-width';
import { labelOrder, orWorseLabel, resultColours, signedPoints } from './odds-table.js';

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
    const shown = answer === undefined || isUnavailable(answer) ? [] : isMany(answer) ? answer.actions.filter((a): a is OddsReport => !isUnavailable(a)) : [answer];
    const ranks = shown.flatMap(r => [...r.results ?? [], ...r.whatIf?.after?.results ?? []]);
    // Every label of the page in one order, so that a result has one colour in every action shown.
    const styles = new StyleSheet(ranks, labelOrder(shown.flatMap(r => r.units.concat(r.whatIf?.after?.units ?? [])), u => u.probabilities, ranks));
    const tools = options.script !== undefined;
    let body: string;
    if (answer === undefined) body = `<p class="why">No odds: the language server did not answer.</p>`;
    else if (isUnavailable(answer)) body = unavailable(answer);
    else if (isMany(answer)) body = answer.actions.length === 0 ? '<p class="why">This file has no actions.</p>' : answer.actions.map((a, i) => isUnavailable(a) ? unavailable(a) : report(a, styles, tools ? i : undefined)).join('\n');
    else body = report(answer, styles, tools ? 0 : undefined);
    // One legend for the page, at its top and kept in view as it scrolls (with the toolbar, when there is one).
    const legend = shown.length > 0 ? pageLegend(shown, styles) : '';
    let head = legend;
    if (options.script) {
        const hasOdds = answer !== undefined && !isUnavailable(answer) && (!isMany(answer) || answer.actions.some(a => !isUnavailable(a)));
        head = `${tabBar('actions')}\n${hasOdds ? `${TOOLBAR}\n${legend}` : ''}`;
    }
    if (head) body = `<header class="page-head">\n${head}</header>\n${body}`;
    return oddsPage(options, answer ?? null, styles.text(), body);
}

/**
 * The page around `body`: its Content-Security-Policy (the nonce'd style sheet and, with `script`, the
 * page's script and `data` as JSON for it; nothing else), the base style sheet and the page's own `css`.
 */
export function oddsPage(options: { nonce: string, title: string, script?: OddsScript }, data: unknown, css: string, body: string): string {
    let csp = `default-src 'none'; style-src 'nonce-${options.nonce}';`;
    if (options.script) {
        csp += ` script-src 'nonce-${options.nonce}' ${options.script.cspSource}; img-src data:;`;
        // JSON in a script element: `<` escaped so that nothing in a name can close the element.
        const json = JSON.stringify(data).replace(/</g, '\\u003c');
        body = `${body}
<script type="application/json" id="odds-data" nonce="${options.nonce}">${json}</script>
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
${css}
</style>
</head>
<body>
${body}
</body>
</html>`;
}

/** The panel's two tabs: each action's odds, and the whole campaign's (odds-campaign-html.ts). */
export function tabBar(shown: 'actions' | 'campaign'): string {
    const tab = (id: 'actions' | 'campaign', text: string) => `<button type="button" role="tab" data-tab="${id}" aria-selected="${id === shown}">${text}</button>`;
    return `<div class="tabs" role="tablist" aria-label="Odds of">${tab('actions', 'Actions')}${tab('campaign', 'Campaign')}</div>`;
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
    const after = r.whatIf?.after;
    const labels = labelOrder(after ? r.units.concat(after.units) : r.units, u => u.probabilities, r.results);
    const notes = r.notes.map(n => `<p class="why">${escapeHtml(n)}</p>`).join('');
    const turn = r.turn ? ` · turn ${escapeHtml(r.turn)}` : '';
    // The toggles need the page's script: without it (tests of the bare table), none are offered.
    const toggles = chartIndex !== undefined && r.whatIfChoices && r.whatIfChoices.length > 0 ? whatIfToggles(r.whatIfChoices, r.whatIf?.changes ?? []) : '';
    const problem = r.whatIf?.problem ? `<p class="whatif-problem" role="alert">No what-if odds: ${escapeHtml(r.whatIf.problem)}</p>` : '';
    // With a what-if: the change first (the umpire's question), then each unit with both set-ups' bars.
    return `<section>
<h2>${escapeHtml(r.kind)} ${escapeHtml(r.name)} <small>${escapeHtml(r.rules)}${turn} · exact odds, before the dice</small></h2>
${toggles}${problem}${after ? changeTables(r, after, styles) : ''}
${chartIndex !== undefined ? chartPlace(chartIndex, r.name) : ''}
<div class="tables">
${after ? `<p class="compare-key"><span class="bar-name">as written</span> the odds as the file has them · <span class="bar-name what-if">what if</span> ${escapeHtml(r.whatIf!.changes.join('; '))}</p>\n` : ''}${sides(r, labels, styles, after)}
</div>
${notes}
</section>`;
}

/**
 * The key to the colours of every result the page shows, best to worst: each colour is a result's
 * severity on the scale every rule set shares (its name in the key's tooltip).
 */
function pageLegend(reports: readonly OddsReport[], styles: StyleSheet): string {
    const units = reports.flatMap(r => r.whatIf?.after ? r.units.concat(r.whatIf.after.units) : r.units);
    // By severity across the actions shown (a ladder orders one action's results only); the unranked last.
    const rank = (l: string) => { const s = styles.severity(l); return s ? RESULT_SEVERITIES.indexOf(s) : RESULT_SEVERITIES.length; };
    const labels = labelOrder(units, u => u.probabilities, reports.flatMap(r => r.results ?? [])).sort((a, b) => rank(a) - rank(b));
    const keys = labels.map(l => {
        const severity = styles.severity(l);
        const title = severity ? `${l}: ${SEVERITY_WORDS[severity]}` : l;
        return `<li class="key" title="${escapeHtml(title)}"><span class="swatch ${styles.colour(l)}" aria-hidden="true"></span>${escapeHtml(l)}</li>`;
    });
    return `<ul class="legend" aria-label="Colours of the results, best to worst">${keys.join('')}</ul>\n`;
}

/** How each severity is said in the legend's tooltips. */
const SEVERITY_WORDS: Record<ResultSeverity, string> = {
    best: 'the best result', good: 'a good result', none: 'nothing happened to the unit', even: 'neither side gained',
    setback: 'a setback', bad: 'a bad result', worse: 'a worse result', worst: 'the worst result'
};

/** Each side's units; with a what-if, each unit's row has both set-ups' bars, one above the other. */
function sides(r: OddsReport, labels: string[], styles: StyleSheet, after?: OddsReport): string {
    const forces = [...new Set([...r.sides.map(s => s.force), ...r.units.map(u => u.force)])];
    const afterUnits = new Map((after?.units ?? []).map(u => [u.id, u]));
    return forces.map(force => sideSection(force, r.sides.find(s => s.force === force), r.units.filter(u => u.force === force), labels, styles,
        after ? { side: after.sides.find(s => s.force === force), units: afterUnits } : undefined)).join('\n');
}

/**
 * The what-ifs the action offers, as native controls (so Tab, Space and the arrow keys work): a
 * checkbox per factor, modifier, fact and option, a grade picker per unit, and a box for any other change.
 * Those on are read from the answer, so that the page shows what its figures were computed with.
 */
export function whatIfToggles(choices: readonly WhatIfChoice[], on: readonly string[]): string {
    // A disclosure, open unless the page script finds the panel too narrow to show the figures beside it.
    return `<details class="whatif" open${on.length > 0 ? ' data-whatif-on' : ''}>
<summary>What if…</summary>
${whatIfGroups(choices, on, on.length > 0)}</details>
`;
}

/** The what-if box's groups of controls (`clear`: with a button that takes every what-if away). */
export function whatIfGroups(choices: readonly WhatIfChoice[], on: readonly string[], clear: boolean): string {
    const used = new Set<string>();
    const box = (c: WhatIfChoice) => {
        const checked = on.includes(c.change);
        if (checked) used.add(c.change);
        return `<label class="toggle"><input type="checkbox" data-whatif="${escapeHtml(c.change)}"${checked ? ' checked' : ''}> ${escapeHtml(c.change)}</label>`;
    };
    const group = (kind: WhatIfChoice['kind'], name: string) => {
        const items = choices.filter(c => c.kind === kind);
        return items.length === 0 ? '' : `<div class="whatif-group" role="group" aria-label="${name}"><span class="group-name">${name}</span><span class="items">${items.map(box).join(' ')}</span></div>\n`;
    };
    const pickers = choices.filter(c => c.kind === 'grade').map(c => {
        const chosen = c.grades?.find(g => on.includes(`${c.change} ${g}`));
        if (chosen) used.add(`${c.change} ${chosen}`);
        const options = [`<option value="">${escapeHtml(c.grade || 'no grade')} (as written)</option>`,
            ...(c.grades ?? []).filter(g => g !== c.grade).map(g => `<option value="${escapeHtml(g)}"${g === chosen ? ' selected' : ''}>${escapeHtml(g)}</option>`)];
        return `<label class="toggle">${escapeHtml(c.unit ?? '')} <select data-grade="${escapeHtml(c.change)}" aria-label="Grade of ${escapeHtml(c.unit ?? '')}">${options.join('')}</select></label>`;
    });
    const grades = pickers.length === 0 ? '' : `<div class="whatif-group" role="group" aria-label="Grades"><span class="group-name">Grades</span><span class="items">${pickers.join(' ')}</span></div>\n`;
    const factors = group('factor', 'Factors applied');
    const modifiers = group('modifier', 'Modifiers not applied');
    const facts = group('fact', 'Facts written');
    const options = group('option', 'Options');
    const other = on.filter(c => !used.has(c)).join('; ');
    return `${factors}${modifiers}${facts}${grades}${options}<div class="whatif-group"><span class="group-name">Other change</span><span class="items"><label class="toggle"><input type="text" data-whatif-other value="${escapeHtml(other)}" placeholder="e.g. option die d8" aria-label="Other change (what-if text, several separated by ;)"></label><button type="button" data-whatif-apply>Apply</button>${clear ? '<button type="button" data-whatif-clear>Clear what-ifs</button>' : ''}</span></div>
`;
}

/**
 * The width a change table needs, in the page's `ch`: the longest unit name, and each column's heading
 * or its widest figure (`+12.3 pp`), with the cells' padding. Narrower than this, each unit's changes
 * are listed under its name, each figure with its result, instead of being cut off on the right.
 */
function changeTableWidth(units: readonly string[], named: readonly string[]): number {
    // The names are in the editor's monospace font, wider than the page's `ch`.
    const unit = Math.ceil(1.2 * Math.max(4, ...units.map(u => u.length))) + 2;
    return unit + named.reduce((sum, l) => sum + Math.max(l.length, 8) + 2, 0);
}

/** The change in each unit's chances, in signed percentage points: each result, and each result or worse. */
function changeTables(before: OddsReport, after: OddsReport, styles: StyleSheet): string {
    const difference = before.whatIf?.difference;
    if (!difference) return '';
    type UnitChange = typeof difference.units[number];
    const ranks = [...before.results ?? [], ...after.results ?? []];
    const results = labelOrder(before.units.concat(after.units), u => u.probabilities, ranks);
    const worse = labelOrder(before.units.concat(after.units), u => u.atLeast, ranks);
    // No green or red: more of a result is good or bad depending on the result and whose side it is.
    const cell = (d: number | undefined, named: string) => `<td class="delta" data-label="${escapeHtml(named)}">${escapeHtml(signedPoints(d ?? 0))}</td>`;
    const table = (cls: string, labels: string[], named: string[], pick: (d: UnitChange) => Record<string, number>) => `<div class="change-place ${styles.stacksBelow(changeTableWidth(difference.units.map(d => d.id), named))}">
<table class="change ${cls}">
<thead><tr><th>Unit</th>${named.map(l => `<th class="delta">${escapeHtml(l)}</th>`).join('')}</tr></thead>
<tbody>
${difference.units.map(d => `<tr><td class="unit" title="${escapeHtml(d.id)}">${escapeHtml(d.id)}</td>${labels.map((l, i) => cell(pick(d)[l], named[i])).join('')}</tr>`).join('\n')}
</tbody>
</table>
</div>`;
    return `<div class="whatif-change">
<h3>Change: what if ${escapeHtml(before.whatIf!.changes.join('; '))}, minus as written</h3>
${table('results', results, results, d => d.probabilities)}
${table('or-worse', worse, worse.map(l => orWorseLabel(l, worse)), d => d.atLeast)}
</div>`;
}

function sideSection(force: string, side: SideOdds | undefined, units: UnitOdds[], labels: string[], styles: StyleSheet,
    after?: { side: SideOdds | undefined, units: ReadonlyMap<string, UnitOdds> }): string {
    const expected = (s: SideOdds | undefined) => s ? Object.entries(s.expected).filter(([, n]) => n >= 0.005).map(([l, n]) => `${meanSdText(n, s.sd?.[l])} ${escapeHtml(l)}`).join(', ') : '';
    const joint = (s: SideOdds | undefined) => s ? Object.entries(s.atLeastOne).map(([l, p]) => `at least one ${escapeHtml(l)}: <b>${percent(p)}</b>`).join(' · ') : '';
    const spread = (s: SideOdds | undefined) => (s?.sd ? ' (mean ± sd)' : '');
    const line = (s: SideOdds | undefined) => `${expected(s)}${joint(s) ? `<br>${joint(s)}` : ''}`;
    const rows = units.map(u => unitRow(u, labels, styles, after ? after.units.get(u.id) ?? null : undefined)).join('\n');
    const summary = !expected(side) ? ''
        : after ? `<p class="side">As written, expected${spread(side)}: ${line(side)}<br>What if, expected${spread(after.side)}: ${line(after.side)}</p>`
            : `<p class="side">Expected${spread(side)}: ${line(side)}</p>`;
    return `<h3>${escapeHtml(force)}</h3>
${summary}
<table class="${styles.namesTake(Math.max(4, ...units.map(u => stringWidth(u.unit))))}">
<thead><tr><th>Unit</th><th class="results">Results</th><th class="or-worse">At least</th></tr></thead>
<tbody>
${rows}
</tbody>
</table>`;
}

/**
 * A unit's bar: a segment per result as wide as its chance. Each segment shows its name and figure
 * when both fit, its figure alone when only that fits, and nothing when not even that does (the
 * style sheet's container queries, one per length of name): never a word cut short. The figures
 * are under the bar too, and in each segment's tooltip.
 */
function bar(u: UnitOdds, labels: string[], styles: StyleSheet, extra = ''): string {
    const segments = labels
        .filter(l => (u.probabilities[l] ?? 0) > 0)
        .map(l => {
            const p = u.probabilities[l];
            const text = `<span class="seg-name ${styles.nameFits(l)}">${escapeHtml(l)} </span><span class="seg-figure">${percent(p)}</span>`;
            return `<span class="seg ${styles.colour(l)} ${styles.width(p)}" title="${escapeHtml(l)} ${percent(p)}" aria-hidden="true">${text}</span>`;
        }).join('');
    return `<div class="bar${extra}">${segments}</div>`;
}

/**
 * One unit's row. With a what-if (`after`: the unit's odds then, null when it is no longer in the
 * fight), its two bars one above the other and each figure as `as written → what if (change)`.
 */
function unitRow(u: UnitOdds, labels: string[], styles: StyleSheet, after?: UnitOdds | null): string {
    // The side's heading names the force: the row names the unit (`Line#2`).
    const name = `<td class="unit" title="${escapeHtml(u.id)}">${escapeHtml(u.unit)}</td>`;
    if (after === undefined) {
        const figures = labels.filter(l => (u.probabilities[l] ?? 0) > 0).map(l => `${escapeHtml(l)} ${percent(u.probabilities[l])}`).join(' · ');
        const atLeast = Object.entries(u.atLeast ?? {}).map(([l, p]) => {
            const text = `${escapeHtml(orWorseShort(l, u))} ${percent(p)}`;
            return `<span class="atleast" title="${text}">${escapeHtml(orWorseShort(l, u))} <b>${percent(p)}</b></span>`;
        }).join(' ');
        return `<tr>${name}<td class="results">${bar(u, labels, styles)}<div class="figures">${figures}</div>${countSpreads(u)}</td><td class="or-worse">${atLeast || '—'}</td></tr>`;
    }
    const moved = (was: number, now: number | undefined) => now === undefined ? `<b>${percent(was)}</b> → —`
        : `<b>${percent(was)}</b> → <b>${percent(now)}</b> <span class="change-figure">(${escapeHtml(signedPoints(now - was))})</span>`;
    const figures = labels.filter(l => (u.probabilities[l] ?? 0) > 0 || (after?.probabilities[l] ?? 0) > 0)
        .map(l => `${escapeHtml(l)} ${moved(u.probabilities[l] ?? 0, after ? after.probabilities[l] ?? 0 : undefined)}`).join(' · ');
    const atLeast = Object.entries(u.atLeast ?? {}).map(([l, p]) =>
        `<span class="atleast" title="${escapeHtml(orWorseShort(l, u))} ${percent(p)} → ${after ? percent(after.atLeast?.[l] ?? 0) : '—'}">${escapeHtml(orWorseShort(l, u))} ${moved(p, after ? after.atLeast?.[l] ?? 0 : undefined)}</span>`).join(' ');
    const second = after ? bar(after, labels, styles, ' what-if-bar') : '<div class="why">not in the fight with the what-if</div>';
    return `<tr>${name}<td class="results"><div class="pair"><span class="bar-name">as written</span>${bar(u, labels, styles)}</div><div class="pair"><span class="bar-name what-if">what if</span>${second}</div><div class="figures">${figures}</div></td><td class="or-worse">${atLeast || '—'}</td></tr>`;
}

/**
 * Each count the engine gives a law of (Ancients' unsaved hits, Loose Files' DPs and casualties), as
 * its mean and standard deviation: `hits: mean 1.50, sd 1.02`.
 */
function countSpreads(u: UnitOdds): string {
    const counts = Object.entries(u).filter((e): e is [string, number[]] => Array.isArray(e[1]) && e[1].length > 0 && e[1].every(p => typeof p === 'number'));
    const spreads = counts.map(([name, law]) => {
        const mean = law.reduce((sum, p, k) => sum + p * k, 0);
        const sd = Math.sqrt(Math.max(0, law.reduce((sum, p, k) => sum + p * k * k, 0) - mean * mean));
        return `${escapeHtml(name)}: mean <b>${mean.toFixed(2)}</b>, sd ${sd.toFixed(2)}`;
    });
    return spreads.length === 0 ? '' : `<div class="count-spread">${spreads.join(' · ')}</div>`;
}

/** "retire+" (retire or worse) in the "At least" column; the worst result, which has nothing worse, alone. */
function orWorseShort(label: string, u: UnitOdds): string {
    return Object.keys(u.atLeast ?? {}).at(-1) === label ? label : `${label}+`;
}

/**
 * Widths, colours and the container queries of the bar segments and change tables, as classes of
 * the nonce'd sheet: the CSP forbids inline style attributes. A result's colour is its severity's
 * (`ranks`, from the server), the same for every rule set (`resultColours`).
 */
export class StyleSheet {
    private readonly rules = new Map<string, string>();
    private readonly severities: ReadonlyMap<string, ResultSeverity>;
    private colours: Map<string, { fill: string, text: string }>;

    constructor(private readonly ranks: readonly ResultRank[], labels: Iterable<string>) {
        this.severities = new Map(ranks.map(r => [r.label, r.severity]));
        this.colours = resultColours(labels, ranks);
    }

    severity(label: string): ResultSeverity | undefined {
        return this.severities.get(label);
    }

    width(p: number): string {
        const w = Math.max(0, Math.min(100, 100 * p)).toFixed(2);
        const name = `w${w.replace('.', '_')}`;
        this.rules.set(name, `.${name} { width: ${w}%; }`);
        return name;
    }

    colour(label: string): string {
        const name = `c-${label.replace(/[^a-zA-Z0-9-]/g, '_')}`;
        if (!this.rules.has(name)) {
            if (!this.colours.has(label)) this.colours = new Map([...this.colours, ...resultColours([...this.colours.keys(), label], this.ranks)]);
            const colour = this.colours.get(label)!;
            this.rules.set(name, `.${name} { background: ${colour.fill}; color: ${colour.text}; }`);
        }
        return name;
    }

    /**
     * A segment's name shows only where the segment has room for it and its figure: the name's
     * characters, a space, the figure (at most `100.0%`) and a margin, in the segment's own `ch`.
     */
    nameFits(label: string): string {
        const length = [...label].length;
        const name = `n${length}`;
        this.rules.set(name, `@container (max-width: ${length + 8}ch) { .seg-name.${name} { display: none; } }`);
        return name;
    }

    /**
     * A units' table whose longest name takes `columns` (monospaced, a wide character two): the names'
     * column as wide as that name, up to 45% of the table; where even 45% is too narrow for it, each
     * unit's name stands on a line of its own above its bar, so that no name is broken mid-word.
     */
    namesTake(columns: number): string {
        const name = `names${columns}`;
        // A monospaced letter is about 0.62 em; 1 em more for the cell's padding.
        const room = (columns * 0.62 + 1).toFixed(2);
        // A length, not min(…, 45%): a table cell's width of min() with a percentage counts as none.
        // Where the length is more than 45% of the table, the table is stacked anyway.
        this.rules.set(name, `.${name} th:first-child { width: ${room}em; }\n`
            + `@container (max-width: ${(Number(room) / 0.45).toFixed(1)}em) { .${name}, .${name} tbody, .${name} tr, .${name} td { display: block; width: auto; } `
            + `.${name} thead { display: none; } .${name} td { border-top: none; } .${name} td.unit { border-top: 1px solid var(--vscode-editorWidget-border, #ddd); padding-bottom: 0; } }`);
        return name;
    }

    /** A change table that needs `width` ch is listed unit by unit in a narrower place. */
    stacksBelow(width: number): string {
        const name = `stack${width}`;
        this.rules.set(name, `@container (max-width: ${width}ch) { .${name} thead { display: none; } .${name} tr { display: block; padding: 3px 0; border-top: 1px solid var(--vscode-editorWidget-border, #ddd); } `
            + `.${name} td { display: inline-block; border: none; padding: 1px 6px 1px 0; } .${name} td.unit { display: block; } .${name} td.delta::before { content: attr(data-label) " "; opacity: 0.75; } }`);
        return name;
    }

    text(): string {
        return [...this.rules.values()].join('\n');
    }
}

const BASE_CSS = `
.tabs { display: flex; flex-wrap: wrap; gap: 2px; padding-top: 0.6em; }
.tabs [role=tab] { border-radius: 2px 2px 0 0; }
.width-probe { position: fixed; left: 0; right: 0; top: 0; height: 1px; opacity: 0; pointer-events: none; }
.campaign-tables { container-type: inline-size; }
/* A campaign's three columns share a narrow panel badly: there, each unit's name, bar and counters stand one under the other. */
@container (max-width: 36em) { table.campaign, table.campaign tbody, table.campaign tr, table.campaign td { display: block; width: auto; } table.campaign thead { display: none; } table.campaign td { border-top: none; padding-top: 1px; } table.campaign td.unit { border-top: 1px solid var(--vscode-editorWidget-border, #ddd); padding-top: 4px; } }
.counters .count, .counters .count-law { display: block; overflow-wrap: anywhere; }
.counters .count-law, .count-spread { font-size: 0.8em; opacity: 0.8; }
.se { opacity: 0.75; font-weight: normal; white-space: nowrap; }
.fought { margin: 0.2em 0; padding-left: 1.2em; overflow-wrap: anywhere; }
.tabs [aria-selected=true] { color: var(--vscode-button-foreground, #fff); background: var(--vscode-button-background, #0e639c); }
body { font-family: var(--vscode-font-family, sans-serif); color: var(--vscode-foreground, #222); padding: 0 1em 1em; }
h2 small { font-weight: normal; opacity: 0.7; font-size: 0.7em; margin-left: 0.5em; }
h3 { margin: 1.2em 0 0.3em; }
table { border-collapse: collapse; width: 100%; }
th { text-align: left; font-weight: 600; opacity: 0.8; padding: 2px 6px; }
td { padding: 4px 6px; vertical-align: top; border-top: 1px solid var(--vscode-editorWidget-border, #ddd); }
/* Nothing is cut, at any panel width: the units' table shares the width it has (its names' column as
   wide as the longest name, up to 45%, or each name above its bar: StyleSheet.namesTake), figures wrap, a bar segment shows only what fits whole (StyleSheet.nameFits),
   and a what-if's change tables are listed unit by unit where they do not fit (StyleSheet.stacksBelow). */
table:not(.change) { table-layout: fixed; }
.tables { container-type: inline-size; }
td.unit { overflow-wrap: anywhere; font-family: var(--vscode-editor-font-family, monospace); }
.bar { display: flex; height: 1.4em; width: 100%; min-width: 0; border-radius: 3px; overflow: hidden; background: var(--vscode-editorWidget-background, #eee); }
.seg { display: block; box-sizing: border-box; height: 100%; padding: 0 3px; font-size: 0.75em; line-height: 1.9em; white-space: nowrap; overflow: hidden; container-type: inline-size; }
@container (max-width: 7ch) { .seg-figure { display: none; } }
h2, h3, .side, .figures, .compare-key { overflow-wrap: anywhere; }
.figures { font-size: 0.8em; opacity: 0.8; margin-top: 2px; }
.atleast { display: block; overflow-wrap: anywhere; font-size: 0.9em; }
.legend { display: flex; flex-wrap: wrap; gap: 0.2em 1em; margin: 0; padding: 0.4em 0 0.5em; list-style: none; }
.legend .key { white-space: nowrap; }
.swatch { display: inline-block; width: 0.8em; height: 0.8em; margin-right: 0.3em; border-radius: 2px; vertical-align: middle; }
.side { margin: 0.2em 0 0.5em; }
.why { opacity: 0.8; font-style: italic; }
/* The toolbar and the colours' key stay at the top of the panel as it scrolls. */
.page-head { position: sticky; top: 0; z-index: 1; background: var(--vscode-editor-background, #fff); border-bottom: 1px solid var(--vscode-editorWidget-border, #ddd); }
.toolbar { display: flex; flex-wrap: wrap; gap: 0.8em; padding: 0.6em 0 0.2em; }
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
.whatif { min-width: 0; margin: 0.6em 0; padding: 0.4em 0.8em; border: 1px solid var(--vscode-editorWidget-border, #ddd); border-radius: 3px; }
.whatif summary { font-weight: 600; cursor: pointer; }
.whatif summary:focus-visible { outline: 1px solid var(--vscode-focusBorder, #0090f1); }
.whatif-group { margin: 0.25em 0; display: flex; flex-wrap: wrap; gap: 0.5em; align-items: baseline; }
.whatif-group .items { display: flex; flex: 1 1 12em; min-width: 0; flex-wrap: wrap; gap: 0.2em 1em; align-items: center; }
.group-name { opacity: 0.7; flex: 0 0 8.5em; }
.toggle { min-width: 0; max-width: 100%; overflow-wrap: anywhere; }
.toggle select, .toggle input[type=text] { max-width: 100%; }
input[type=text], select { font: inherit; font-size: 0.9em; color: var(--vscode-input-foreground, #222); background: var(--vscode-input-background, #fff); border: 1px solid var(--vscode-input-border, #ccc); }
input:focus-visible, select:focus-visible { outline: 1px solid var(--vscode-focusBorder, #0090f1); }
.whatif-problem { color: var(--vscode-errorForeground, #c0392b); }
.pair { display: flex; align-items: center; gap: 0.4em; margin-bottom: 2px; }
.pair .bar { flex: 1 1 0; }
.bar-name { flex: 0 0 auto; width: 5.5em; font-size: 0.75em; opacity: 0.75; white-space: nowrap; }
.bar-name.what-if, .what-if-bar { outline: 1px dashed var(--vscode-focusBorder, #0090f1); outline-offset: 1px; }
.compare-key .bar-name { display: inline-block; flex: none; padding: 0 0.3em; }
.whatif-change { margin: 0.6em 0 1em; }
.change-place { container-type: inline-size; margin-bottom: 0.6em; }
table.change td.unit { font-family: var(--vscode-editor-font-family, monospace); }
.whatif-change h3 { margin-top: 0.4em; }
/* A change is read whole: "(+<0.1 pp)" never breaks after its "<". */
.change-figure { white-space: nowrap; }
td.delta, th.delta { text-align: right; white-space: nowrap; font-variant-numeric: tabular-nums; }
`;
