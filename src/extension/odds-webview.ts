/**
 * The script of the Odds panel's page (bundled by esbuild.mjs to out/extension/odds-webview.js and
 * loaded only by that page, so that Vega stays out of the extension's and the server's bundles).
 * It draws each action's chart with Vega-Lite, and runs the page's buttons:
 *   "Table" / "Chart"             what the panel shows (the table is the page's own HTML);
 *   "Each result" / "This or worse"  which figures: the chance of each result, or of it or worse;
 *   "Copy as Markdown" / "Copy as CSV"  ask the extension to copy the figures shown (odds-table.ts);
 *   "Save chart as SVG" / "Save chart as PNG"  send Vega's image to the extension, which asks where
 *                                   to save it: the page itself never writes files;
 *   "Actions" / "Campaign"          the tabs: the extension draws the page again with the other figures;
 *   "Through"                       the Campaign tab's turn, asked of the extension likewise;
 *   "What if…"                      the toggles, grade pickers and "Other change" box: each change
 *                                   sends the what-ifs now on to the extension, which asks the server
 *                                   for both set-ups and draws the page again (the control keeps focus);
 *                                   on the Campaign tab with the engagement and house rules picked.
 * The page's Content-Security-Policy forbids eval, so Vega runs with its expression interpreter.
 * The choices survive a refresh of the page (the webview's state).
 */
import { parse, View } from 'vega';
import { compile, type TopLevelSpec } from 'vega-lite';
import { expressionInterpreter } from 'vega-interpreter';
import { labelOrder, orWorseLabel, resultColours, type OddsDistribution } from './odds-table.js';
import { labelLines, type OddsAnswer, type OddsReport, type OddsUnavailable } from '../protocol.js';
import type { OddsPageMessage, OddsPanelMessage } from './odds-messages.js';

/** The little of the DOM this page uses (this project's TypeScript has no DOM types). */
interface El {
    dataset: Record<string, string | undefined>;
    hidden: boolean;
    clientWidth: number;
    textContent: string | null;
    querySelector(selector: string): { clientWidth: number } | null;
    checked?: boolean;
    value?: string;
    focus(): void;
    classList: { toggle(name: string, on: boolean): void };
    setAttribute(name: string, value: string): void;
    getAttribute(name: string): string | null;
    addEventListener(type: string, listener: (e: unknown) => void): void;
}
/** What an IntersectionObserver tells of the width probe: the whole of it, and the part in the window. */
interface Seen { isIntersecting: boolean, boundingClientRect: { width: number }, intersectionRect: { width: number } }
type Observer = new (report: (entries: Seen[]) => void, options: { threshold: number[] }) => { observe(el: unknown): void };
interface Canvas2d { font: string, measureText(text: string): { width: number } }
interface Page {
    document: {
        getElementById(id: string): El | null, querySelectorAll(selector: string): Iterable<El>,
        documentElement: { style: Record<string, string> },
        createElement(tag: 'canvas'): { getContext(kind: '2d'): Canvas2d | null },
        createElement(tag: 'div'): { className: string },
        body: El & { appendChild(el: unknown): void }
    };
    acquireVsCodeApi(): { postMessage(message: OddsPageMessage): void, getState(): unknown, setState(state: unknown): void };
    addEventListener(type: 'message', listener: (e: { data: OddsPanelMessage }) => void): void;
    addEventListener(type: 'resize', listener: () => void): void;
}

type ShowAs = 'table' | 'chart';
interface State { showAs: ShowAs, distribution: OddsDistribution, focus?: string, whatIfOpen?: boolean }

const page = globalThis as unknown as Page;
const doc = page.document;
const vscode = page.acquireVsCodeApi();
const answer = JSON.parse(doc.getElementById('odds-data')?.textContent ?? 'null') as OddsAnswer | null;
const reports: Array<OddsReport | OddsUnavailable> = !answer ? [] : 'actions' in answer && Array.isArray(answer.actions) ? answer.actions : [answer as OddsReport];
const saved = vscode.getState() as Partial<State> | undefined;
const state: State = { showAs: saved?.showAs === 'chart' ? 'chart' : 'table', distribution: saved?.distribution === 'orWorse' ? 'orWorse' : 'results', focus: saved?.focus, whatIfOpen: saved?.whatIfOpen };
const views = new Map<number, View>();
/** The figures the charts were last drawn for: they are drawn when first shown, and again when the figures change. */
let drawnFor: OddsDistribution | undefined;
let drawing: Promise<void> = Promise.resolve();

/** The fonts Vega draws the chart's texts in, and the height of a line of a unit's name. */
const FONT = { label: '11px sans-serif', title: 'bold 13px sans-serif', line: 13 } as const;
const pen = doc.createElement('canvas').getContext('2d');

/** A text's width in pixels in `font`, as Vega's canvas draws it. */
function widthIn(font: string): (text: string) => number {
    return text => {
        if (!pen) return 7 * Array.from(text).length;
        pen.font = font;
        return pen.measureText(text).width;
    };
}

/**
 * The chart's sizes for a panel `available` pixels wide: the room for the units' names on the left (as
 * wide as the longest name, up to 45% of the chart; a longer name takes more lines), and the bars'
 * width, so that the whole chart, its labels included, fits the panel.
 */
function chartSize(available: number, names: readonly string[]): { names: number, width: number, whole: number } {
    const whole = Math.min(880, available - 16);
    const longest = Math.max(0, ...names.map(widthIn(FONT.label)));
    const room = Math.ceil(Math.min(longest, Math.max(80, 0.45 * whole), 260));
    return { names: room, width: Math.max(40, whole - room - 20), whole };
}

/**
 * The chart of one action. In the panel it has no legend of its own: the page's key to the colours
 * stays in view above it. A saved chart (`legend`) carries its legend under the bars, in as many
 * columns as the bars' width leaves room for.
 */
function chartSpec(report: OddsReport, distribution: OddsDistribution, foreground: string, size: ReturnType<typeof chartSize>, legend = false): TopLevelSpec {
    const pick = distribution === 'results' ? (u: OddsReport['units'][number]) => u.probabilities : (u: OddsReport['units'][number]) => u.atLeast ?? {};
    const ranks = report.results ?? [];
    const labels = labelOrder(report.units, pick, ranks);
    const named = distribution === 'results' ? labels : labels.map(l => orWorseLabel(l, labels));
    // Each unit's name in lines that fit its room (joined by line breaks, which the axis splits again).
    const rows = new Map(report.units.map(u => [u.id, labelLines(u.id, size.names, widthIn(FONT.label))]));
    const values = report.units.flatMap(u => labels.map((l, i) => ({ unit: u.id, row: rows.get(u.id)!.join('\n'), label: named[i], rank: i, p: pick(u)[l] ?? 0 })));
    const tallest = Math.max(1, ...[...rows.values()].map(r => r.length));
    // The table's colours: each result's severity, in the order of all the action's results.
    const colours = resultColours(labelOrder(report.units, u => u.probabilities, ranks).concat(labels), ranks);
    const range = labels.map(l => colours.get(l)!.fill);
    const axis = { labelColor: foreground, titleColor: foreground, gridOpacity: 0.25, labelFont: 'sans-serif', labelFontSize: 11, labelLimit: 0 };
    // No text has a limit: each is made to fit, so none is cut.
    const legendColumn = Math.max(...named.map(widthIn(FONT.label))) + 30;
    const title = `${report.kind} ${report.name}: ${distribution === 'results' ? 'chance of each result' : 'chance of each result or worse'}`;
    const common = {
        $schema: 'https://vega.github.io/schema/vega-lite/v5.json',
        background: 'transparent',
        width: size.width,
        config: {
            axis,
            legend: {
                labelColor: foreground, titleColor: foreground, orient: 'bottom', direction: 'horizontal', titleOrient: 'top', labelFont: 'sans-serif', labelFontSize: 11, labelLimit: 0,
                columns: Math.max(1, Math.min(named.length, Math.floor(size.width / legendColumn)))
            },
            title: { color: foreground, anchor: 'start', font: 'sans-serif', fontSize: 13, limit: 0 }, view: { stroke: null }
        },
        title: { text: labelLines(title, size.whole, widthIn(FONT.title)) },
        data: { values }
    } as const;
    const y = { field: 'row', type: 'nominal', sort: null, title: null, axis: { labelExpr: "split(datum.label, '\\n')", labelLineHeight: FONT.line } } as const;
    const colour = { field: 'label', type: 'nominal', title: 'result', sort: named, scale: { domain: named, range }, ...(legend ? {} : { legend: null }) } as const;
    const tooltip = [{ field: 'unit', title: 'unit' }, { field: 'label', title: 'result' }, { field: 'p', title: 'chance', format: '.1%' }];
    // A unit's band is tall enough for every line of its name.
    const band = tallest * FONT.line + 6;
    if (distribution === 'results') {
        return { ...common, height: { step: Math.max(22, band) }, mark: 'bar', encoding: { y, x: { field: 'p', type: 'quantitative', stack: 'zero', title: 'chance', axis: { format: '.0%' }, scale: { domain: [0, 1] } }, color: colour, order: { field: 'rank', type: 'quantitative' }, tooltip } };
    }
    // One thin bar per result in each unit's band: the bars fall from the mildest result to the worst.
    return { ...common, height: { step: Math.max(7, Math.ceil(band / Math.max(1, labels.length))) }, mark: 'bar', encoding: { y, yOffset: { field: 'label', type: 'nominal', sort: named }, x: { field: 'p', type: 'quantitative', title: 'chance', axis: { format: '.0%' }, scale: { domain: [0, 1] } }, color: colour, tooltip } };
}

function drawCharts(): Promise<void> {
    if (drawnFor !== state.distribution) {
        drawnFor = state.distribution;
        const distribution = drawnFor;
        drawing = drawing.then(() => drawAll(distribution));
    }
    return drawing;
}

async function drawAll(distribution: OddsDistribution): Promise<void> {
    for (const v of views.values()) v.finalize();
    views.clear();
    const foreground = (globalThis as unknown as { getComputedStyle(el: unknown): { color: string } }).getComputedStyle(doc.body).color || '#888';
    for (const el of doc.querySelectorAll('.chart')) {
        const index = Number(el.dataset.index);
        const report = reports[index];
        if (!report || (report as OddsUnavailable).available === false) continue;
        // The bars take the panel's width, less the units' names on the left.
        const size = chartSize(el.clientWidth || 600, (report as OddsReport).units.map(u => u.id));
        try {
            let view = await drawChart(el, chartSpec(report as OddsReport, distribution, foreground, size));
            // Drawn wider than the panel (an axis's or the legend's labels took more room than reckoned):
            // the bars give up the difference, and the chart is drawn once more.
            const over = (el.querySelector('canvas')?.clientWidth ?? 0) - el.clientWidth;
            if (over > 0) {
                view.finalize();
                view = await drawChart(el, chartSpec(report as OddsReport, distribution, foreground, { ...size, width: Math.max(40, size.width - Math.ceil(over) - 2) }));
            }
            views.set(index, view);
        } catch (err) {
            el.textContent = `The chart could not be drawn: ${String(err)}`;
        }
    }
}

async function drawChart(el: El, spec: TopLevelSpec): Promise<View> {
    // `ast: true` and the interpreter: no `new Function`, which the page's policy forbids.
    const runtime = parse(compile(spec).spec, undefined, { ast: true });
    const view = new View(runtime, { expr: expressionInterpreter, renderer: 'canvas', container: el as never, hover: true });
    await view.runAsync();
    return view;
}

function show(): void {
    doc.body.classList.toggle('show-chart', state.showAs === 'chart');
    doc.body.classList.toggle('show-table', state.showAs === 'table');
    doc.body.classList.toggle('dist-results', state.distribution === 'results');
    doc.body.classList.toggle('dist-orWorse', state.distribution === 'orWorse');
    for (const b of doc.querySelectorAll('button[data-show]')) b.setAttribute('aria-pressed', String(b.dataset.show === state.showAs));
    for (const b of doc.querySelectorAll('button[data-distribution]')) b.setAttribute('aria-pressed', String(b.dataset.distribution === state.distribution));
    vscode.setState(state);
    vscode.postMessage({ type: 'choices', distribution: state.distribution });
    if (state.showAs === 'chart') void drawCharts();
}

async function save(format: 'svg' | 'png', index?: number): Promise<void> {
    await drawCharts();
    const at = index ?? [...views.keys()][0];
    const view = at === undefined ? undefined : views.get(at);
    const report = at === undefined ? undefined : reports[at];
    if (!view || !report) {
        vscode.postMessage({ type: 'problem', text: 'There is no chart to save: this panel has no odds to draw.' });
        return;
    }
    // The saved chart is drawn apart, with its legend (the page's key does not go with the file).
    const el = [...doc.querySelectorAll('.chart')].find(c => Number(c.dataset.index) === at);
    const foreground = (globalThis as unknown as { getComputedStyle(el: unknown): { color: string } }).getComputedStyle(doc.body).color || '#888';
    const size = chartSize(Math.max(640, el?.clientWidth ?? 0), (report as OddsReport).units.map(u => u.id));
    const saved = new View(parse(compile(chartSpec(report as OddsReport, state.distribution, foreground, size, true)).spec, undefined, { ast: true }), { expr: expressionInterpreter, renderer: 'none' });
    await saved.runAsync();
    const data = format === 'svg' ? await saved.toSVG() : await saved.toImageURL('png', 2);
    saved.finalize();
    vscode.postMessage({ type: 'save', format, action: (report as OddsReport).name, data });
}

for (const b of doc.querySelectorAll('button[data-show]')) b.addEventListener('click', () => { state.showAs = b.dataset.show === 'chart' ? 'chart' : 'table'; show(); });
for (const b of doc.querySelectorAll('button[data-distribution]')) {
    b.addEventListener('click', () => {
        state.distribution = b.dataset.distribution === 'orWorse' ? 'orWorse' : 'results';
        show();
    });
}
for (const b of doc.querySelectorAll('button[data-copy]')) b.addEventListener('click', () => vscode.postMessage({ type: 'copy', format: b.dataset.copy === 'csv' ? 'csv' : 'markdown', distribution: state.distribution }));
for (const b of doc.querySelectorAll('button[data-save]')) b.addEventListener('click', () => void save(b.dataset.save === 'png' ? 'png' : 'svg', Number(b.dataset.index)));
// A chart takes the panel's width when drawn: when the panel is resized it is drawn again (or when next shown).
let resizing: ReturnType<typeof setTimeout> | undefined;
page.addEventListener('resize', () => {
    clearTimeout(resizing);
    resizing = setTimeout(() => {
        drawnFor = undefined;
        if (state.showAs === 'chart') void drawCharts();
    }, 200);
});
// The palette's "Save odds chart as SVG/PNG" asks the page for its first chart.
page.addEventListener('message', e => { if (e.data?.type === 'save') void save(e.data.format); });

/** The what-ifs now on: the boxes ticked, the grades picked, then the "Other change" text (split at `;`). */
function whatIfChanges(): string[] {
    const changes: string[] = [];
    for (const b of doc.querySelectorAll('input[data-whatif]')) if (b.checked && b.dataset.whatif) changes.push(b.dataset.whatif);
    for (const s of doc.querySelectorAll('select[data-grade]')) if (s.value) changes.push(`${s.dataset.grade} ${s.value}`);
    for (const o of doc.querySelectorAll('input[data-whatif-other]')) changes.push(...(o.value ?? '').split(';').map(t => t.trim()).filter(t => t.length > 0));
    return changes;
}

/** The Campaign tab's engagement and house rules pickers (absent on the actions' page). */
const campaignPickers = () => ({
    engagement: [...doc.querySelectorAll('select[data-campaign-engagement]')][0],
    house: [...doc.querySelectorAll('select[data-campaign-house]')][0]
});

/**
 * Asks for the odds with `changes`; the page is drawn again, and `focus` names the control to focus
 * then. On the Campaign tab the engagement and house rules picked go with them; "Clear" (`cleared`)
 * takes the house rules away too.
 */
function askWhatIf(focus: string, changes = whatIfChanges(), cleared = false): void {
    state.focus = focus;
    vscode.setState(state);
    const { engagement, house } = campaignPickers();
    vscode.postMessage(engagement || house
        ? { type: 'whatIf', changes, engagement: engagement?.value ?? '', house: cleared ? '' : house?.value ?? '' }
        : { type: 'whatIf', changes });
}

for (const b of doc.querySelectorAll('button[data-tab]')) {
    b.addEventListener('click', () => {
        if (b.getAttribute('aria-selected') === 'true') return;
        askAgain(`tab:${b.dataset.tab}`, { type: 'tab', tab: b.dataset.tab === 'campaign' ? 'campaign' : 'actions' });
    });
}
for (const s of doc.querySelectorAll('select[data-through]')) s.addEventListener('change', () => askAgain('through:', { type: 'through', through: s.value ?? '' }));

/** Asks the extension for other figures; the page is drawn again, with `focus` on the control that asked. */
function askAgain(focus: string, message: OddsPageMessage): void {
    state.focus = focus;
    vscode.setState(state);
    vscode.postMessage(message);
}

for (const b of doc.querySelectorAll('input[data-whatif]')) b.addEventListener('change', () => askWhatIf(`whatif:${b.dataset.whatif}`));
for (const s of doc.querySelectorAll('select[data-grade]')) s.addEventListener('change', () => askWhatIf(`grade:${s.dataset.grade}`));
for (const o of doc.querySelectorAll('input[data-whatif-other]')) o.addEventListener('keydown', e => { if ((e as { key?: string }).key === 'Enter') askWhatIf('other'); });
for (const b of doc.querySelectorAll('button[data-whatif-apply]')) b.addEventListener('click', () => askWhatIf('other'));
for (const b of doc.querySelectorAll('button[data-whatif-clear]')) b.addEventListener('click', () => askWhatIf('other', [], true));
// Another engagement: the changes of the last one's lines (`with`/`without` a factor or fact) are not
// its own, so only the changes of the whole file (grades, options) go with it.
for (const s of doc.querySelectorAll('select[data-campaign-engagement]')) {
    s.addEventListener('change', () => askWhatIf('engagement:', whatIfChanges().filter(c => !/^with(out)? (?!option )/.test(c))));
}
for (const s of doc.querySelectorAll('select[data-campaign-house]')) s.addEventListener('change', () => askWhatIf('house:'));

/** After a what-if, the control that made it has the focus again (the page was drawn anew). */
function restoreFocus(): void {
    const key = state.focus;
    if (!key) return;
    // Once: a later refresh (the umpire typing in the file) must not take the focus back.
    state.focus = undefined;
    vscode.setState(state);
    const [kind, value] = [key.slice(0, key.indexOf(':') < 0 ? key.length : key.indexOf(':')), key.slice(key.indexOf(':') + 1)];
    const candidates = kind === 'whatif' ? [...doc.querySelectorAll('input[data-whatif]')].filter(b => b.dataset.whatif === value)
        : kind === 'tab' ? [...doc.querySelectorAll('button[data-tab]')].filter(b => b.dataset.tab === value)
        : kind === 'through' ? [...doc.querySelectorAll('select[data-through]')]
        : kind === 'grade' ? [...doc.querySelectorAll('select[data-grade]')].filter(s => s.dataset.grade === value)
        : kind === 'engagement' ? [...doc.querySelectorAll('select[data-campaign-engagement]')]
        : kind === 'house' ? [...doc.querySelectorAll('select[data-campaign-house]')]
            : [...doc.querySelectorAll('input[data-whatif-other]')];
    candidates[0]?.focus();
}

/**
 * In a narrow panel the what-if box starts closed, so that the figures are on the first screen; it is
 * open while a what-if is on, and stays as the umpire last left it (the page is drawn anew after each).
 */
function foldWhatIfs(): void {
    const narrow = (globalThis as unknown as { innerWidth?: number }).innerWidth ?? 1000;
    for (const box of doc.querySelectorAll('details.whatif')) {
        (box as unknown as { open: boolean }).open = box.dataset.whatifOn !== undefined || (state.whatIfOpen ?? narrow >= 480);
        box.addEventListener('toggle', () => {
            state.whatIfOpen = (box as unknown as { open: boolean }).open;
            vscode.setState(state);
        });
    }
}

/**
 * The page as wide as the part of the panel a person sees. A workbench narrower than its parts' least
 * widths (640 px with the Explorer open) lays the editor groups out past the window's right edge, and
 * the panel's page is then wider than what shows of it: its key and buttons would run off the edge.
 * A probe as wide as the page, watched with the window as the root (a frame's observer is clipped by
 * every frame above it and by the window), tells how much shows; the page is made that wide, and a
 * chart drawn again for it.
 */
function fitShownWidth(): void {
    const observer = (globalThis as unknown as { IntersectionObserver?: Observer }).IntersectionObserver;
    if (!observer) return;
    const probe = doc.createElement('div');
    probe.className = 'width-probe';
    doc.body.appendChild(probe);
    const root = doc.documentElement.style;
    new observer(entries => {
        const seen = entries.at(-1);
        if (!seen) return;
        const shown = Math.floor(seen.intersectionRect.width);
        const cut = seen.isIntersecting && shown > 0 && shown < seen.boundingClientRect.width - 1;
        const width = cut ? `${shown}px` : '';
        if (root.width === width) return;
        root.width = width;
        drawnFor = undefined;
        if (state.showAs === 'chart') void drawCharts();
    }, { threshold: Array.from({ length: 101 }, (_, i) => i / 100) }).observe(probe);
}

fitShownWidth();
foldWhatIfs();
show();
restoreFocus();
