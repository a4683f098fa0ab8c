/**
 * The playground page: Monaco on the left, talking over LSP (./lsp.ts) to the Umpire language server in
 * a web worker; on the right the last outcome, the Odds view and the campaign state. The scenario can
 * be shared as a link (its text compressed into the URL fragment) or downloaded as a .battle file.
 * Static files only: nothing on the page reaches a server.
 */
import './editor-features.js';
import * as monaco from 'monaco-editor/editor/editor.api.js';
import { compressToEncodedURIComponent, decompressFromEncodedURIComponent } from 'lz-string';
import type { CodeLens, Diagnostic } from 'vscode-languageserver-protocol/browser';
import { examples, keywords } from 'umpire:examples';
import { escapeHtml, renderOddsHtml } from '../src/extension/odds-html.js';
import { UmpireCommands, type OddsAnswer, type ResolveAllResult, type StatusResult } from '../src/protocol.js';
import { LANGUAGE_ID, UmpireServer, type RequestRecord } from './lsp.js';
import { attachSealPanel } from './seal-panel.js';

/** What the test (and a curious umpire in the console) can read: the page's own timings. */
interface PlaygroundState {
    timings: { serverReadyMs?: number, firstDiagnosticsMs?: number };
    lastResolve?: unknown;
    /** Every feature request to the server and how it went (lsp.ts). */
    requests?: RequestRecord[];
}
const state: PlaygroundState = { timings: {} };
(window as unknown as { umpirePlayground: PlaygroundState }).umpirePlayground = state;

const REFRESH_DELAY_MS = 300;

// Monaco starts its worker late (when it first needs one) and may start it again later. Its script is
// read once, while the page loads, so that the page keeps working once the network has gone.
const editorWorkerScript = fetch('./editor.worker.js').then(r => r.blob()).then(blob => URL.createObjectURL(blob));
(self as unknown as { MonacoEnvironment: monaco.Environment }).MonacoEnvironment = {
    getWorker: async () => new Worker(await editorWorkerScript, { name: 'editor' })
};

function byId<T extends HTMLElement>(id: string): T {
    const el = document.getElementById(id);
    if (!el) throw new Error(`the page has no #${id}`);
    return el as T;
}

const picker = byId<HTMLSelectElement>('example');
const serverState = byId('server-state');
const notice = byId('notice');
const problems = byId('problems');
const outcome = byId('outcome');
const oddsView = byId<HTMLIFrameElement>('odds-view');
const oddsTitle = byId('odds-title');
const statusView = byId('status');
const shareBox = byId('share-box');
const shareLink = byId<HTMLInputElement>('share-link');
const scenarioTitle = byId('scenario-name');

// ---- the language: words from the grammar, names coloured by the server's semantic tokens ----
monaco.languages.register({ id: LANGUAGE_ID, extensions: ['.battle'], aliases: ['Battle'] });
monaco.languages.setLanguageConfiguration(LANGUAGE_ID, {
    comments: { lineComment: '//', blockComment: ['/*', '*/'] },
    brackets: [['{', '}']],
    autoClosingPairs: [{ open: '{', close: '}' }, { open: '"', close: '"' }]
});
monaco.languages.setMonarchTokensProvider(LANGUAGE_ID, {
    keywords,
    tokenizer: {
        root: [
            [/\/\/.*$/, 'comment'],
            [/\/\*/, 'comment', '@comment'],
            [/"([^"\\]|\\.)*"/, 'string'],
            [/[a-zA-Z_][\w-]*/, { cases: { '@keywords': 'keyword', '@default': 'identifier' } }],
            [/[+-]?\d+/, 'number']
        ],
        comment: [[/[^*/]+/, 'comment'], [/\*\//, 'comment', '@pop'], [/[*/]/, 'comment']]
    }
});
monaco.editor.defineTheme('umpire', {
    base: 'vs', inherit: true, colors: {},
    rules: [
        { token: 'namespace', foreground: '267f99', fontStyle: 'bold' },
        { token: 'variable', foreground: '001080' },
        { token: 'type', foreground: '267f99' },
        { token: 'decorator', foreground: 'af00db' },
        { token: 'function', foreground: '795e26', fontStyle: 'bold' },
        { token: 'enumMember', foreground: '0070c1' },
        { token: 'property', foreground: '001080' },
        { token: 'number', foreground: '098658' }
    ]
});

// ---- messages and questions from the server, shown above the editor ----
function tell(kind: 'error' | 'warning' | 'info', text: string): void {
    notice.className = `notice ${kind}`;
    notice.textContent = text;
}

function ask(text: string, choices: string[]): Promise<string | undefined> {
    return new Promise(resolve => {
        notice.className = 'notice question';
        notice.textContent = text + ' ';
        for (const choice of [...choices, 'Dismiss']) {
            const button = document.createElement('button');
            button.textContent = choice;
            button.onclick = () => {
                notice.textContent = '';
                resolve(choice === 'Dismiss' ? undefined : choice);
            };
            notice.append(button);
        }
    });
}

// ---- the editor and the file in it ----

/** The scenario's name, as its `scenario "…"` line gives it; "Untitled" without one. */
function scenarioName(text: string): string {
    const title = /^[ \t]*scenario[ \t]+"((?:[^"\\\n]|\\.)*)"/m.exec(text)?.[1].replace(/\\(.)/g, '$1').trim();
    return title || 'Untitled';
}

/** The name as a file name (Download, the shared link's `n=`): its letters and digits, dashes between. */
function fileNameOf(name: string): string {
    return name.replace(/[^\p{L}\p{N}]+/gu, '-').replace(/^-+|-+$/g, '').slice(0, 80) || 'Untitled';
}

/** The scenario in the editor, named from its text: the page shows it, and Share, Download and the notices use it. */
let scenario = 'Untitled';
let fileName = 'Untitled';

function nameFromText(): void {
    scenario = scenarioName(model?.getValue() ?? '');
    fileName = fileNameOf(scenario);
    scenarioTitle.textContent = scenario;
    document.title = `${scenario} — Umpire playground`;
}
let model: monaco.editor.ITextModel | undefined;
let modelCount = 0;
const editor = monaco.editor.create(byId('editor'), {
    theme: 'umpire', automaticLayout: true, minimap: { enabled: false }, fontSize: 14,
    'semanticHighlighting.enabled': true, scrollBeyondLastLine: false, renderWhitespace: 'none',
    stickyScroll: { enabled: false }
});

/** The language server's worker, started by boot.ts before this script loaded (a new one if that did not run). */
function serverWorker(): Worker {
    const booted = window as unknown as { umpireServerWorker?: Worker };
    const worker = booted.umpireServerWorker ?? new Worker('./main-browser.js', { name: 'Umpire language server' });
    booted.umpireServerWorker = undefined;
    return worker;
}

const server = new UmpireServer(serverWorker(), {
    diagnostics: (uri, diagnostics) => {
        if (state.timings.firstDiagnosticsMs === undefined) state.timings.firstDiagnosticsMs = Math.round(performance.now());
        if (model && uri === model.uri.toString()) showProblems(diagnostics);
        scheduleRefresh();
    },
    message: tell,
    ask,
    edited: (edited, ranges) => {
        // Bring the written outcome into view, as the umpire will want to read it.
        if (edited === model && ranges.length > 0) editor.revealLinesInCenterIfOutsideViewport(ranges[0].startLineNumber, ranges[0].startLineNumber + 3);
    }
});

attachSealPanel(server, () => model?.uri.toString());
state.requests = server.requests;

/** Opens `text` as the file `name` (a fresh model, so that undo never crosses files). */
function openFile(name: string, text: string): void {
    if (model) {
        server.close(model);
        model.dispose();
    }
    // The number keeps each opened text a new document for the server, even under the same name.
    model = monaco.editor.createModel(text, LANGUAGE_ID, monaco.Uri.parse(`inmemory://playground/${++modelCount}/${encodeURIComponent(name)}.battle`));
    model.onDidChangeContent(() => {
        nameFromText();
        scheduleRefresh();
    });
    editor.setModel(model);
    server.open(model);
    nameFromText();
    oddsTarget = undefined;
    outcome.textContent = '';
    problems.textContent = 'Checking…';
}

function showProblems(diagnostics: Diagnostic[]): void {
    problems.textContent = '';
    problems.dataset.count = String(diagnostics.length);
    if (diagnostics.length === 0) {
        problems.textContent = 'No problems.';
        return;
    }
    const list = document.createElement('ul');
    for (const d of [...diagnostics].sort((a, b) => a.range.start.line - b.range.start.line)) {
        const item = document.createElement('li');
        item.className = `problem ${d.severity === 1 ? 'error' : d.severity === 2 ? 'warning' : 'info'}`;
        item.textContent = `line ${d.range.start.line + 1}: ${d.message}`;
        item.onclick = () => {
            editor.revealLineInCenter(d.range.start.line + 1);
            editor.setPosition({ lineNumber: d.range.start.line + 1, column: d.range.start.character + 1 });
            editor.focus();
        };
        list.append(item);
    }
    problems.append(list);
}

// ---- the server's commands: Resolve (lens or button), Odds, campaign state ----
interface ResolveResult { applied: boolean, changed?: boolean, summary?: string, seed?: number | null, reason?: string }

async function resolve(command: typeof UmpireCommands.resolve | typeof UmpireCommands.reroll, args: unknown): Promise<void> {
    const result = await server.executeCommand<ResolveResult>(command, [args]);
    state.lastResolve = result;
    const action = (args as { action?: string }).action ?? '';
    if (result.applied && result.summary) {
        outcome.textContent = `${action}: ${result.summary}${result.seed != null ? ` (seed ${result.seed})` : ''}`;
        tell('info', result.changed === false ? `${action}: the outcome written already says this.` : `${action} resolved; its outcome is written below it.`);
    } else if (result.reason) {
        outcome.textContent = '';
    }
}

async function resolveAll(): Promise<void> {
    if (!model) return;
    const result = await server.executeCommand<ResolveAllResult>(UmpireCommands.resolveAll, [{ uri: model.uri.toString(), version: model.getVersionId() }]);
    if (result.applied && result.resolved.length > 0) outcome.textContent = result.resolved.map(r => `${r.action}: ${r.summary}`).join('\n');
}

monaco.editor.registerCommand(UmpireCommands.resolve, (_accessor, args: unknown) => void resolve(UmpireCommands.resolve, args));
monaco.editor.registerCommand(UmpireCommands.reroll, (_accessor, args: unknown) => void resolve(UmpireCommands.reroll, args));
monaco.editor.registerCommand(UmpireCommands.showOdds, (_accessor, target: { action?: string }) => {
    oddsTarget = target?.action;
    void refreshOdds();
});

/** The Resolve lens of the action at the cursor (or the nearest one above it; else the first). */
async function lensAtCursor(title: string): Promise<CodeLens | undefined> {
    if (!model) return undefined;
    const line = (editor.getPosition()?.lineNumber ?? 1) - 1;
    const lenses = ((await server.codeLenses(model)) ?? []).filter(l => l.command?.title === title);
    return lenses.filter(l => l.range.start.line <= line).pop() ?? lenses[0];
}

byId('resolve').onclick = async () => {
    const lens = await lensAtCursor('Resolve');
    if (!lens?.command) {
        tell('info', 'This file has nothing to resolve: no action its rule set can resolve.');
        return;
    }
    await resolve(UmpireCommands.resolve, lens.command.arguments?.[0]);
};
byId('resolve-all').onclick = () => void resolveAll();
byId('odds').onclick = async () => {
    const lens = await lensAtCursor('Odds');
    oddsTarget = (lens?.command?.arguments?.[0] as { action?: string } | undefined)?.action;
    await refreshOdds();
};

/** The action the Odds view shows; undefined: every action of the file. */
let oddsTarget: string | undefined;
let refreshTimer: ReturnType<typeof setTimeout> | undefined;
let asked = 0;

function scheduleRefresh(): void {
    if (refreshTimer) clearTimeout(refreshTimer);
    refreshTimer = setTimeout(() => void refreshSide(), REFRESH_DELAY_MS);
}

/** Every pane follows the text: the odds, the campaign state, and the share link when it is shown. */
async function refreshSide(): Promise<void> {
    if (!shareBox.hidden) shareLink.value = shareUrl();
    await Promise.all([refreshOdds(), refreshStatus()]);
}

async function refreshOdds(): Promise<void> {
    if (!model) return;
    const ask = ++asked;
    const title = oddsTarget ? `Odds: ${oddsTarget} (${scenario})` : `Odds: ${scenario}`;
    let answer: OddsAnswer;
    try {
        answer = await server.executeCommand<OddsAnswer>(UmpireCommands.odds, [{ uri: model.uri.toString(), action: oddsTarget }]);
    } catch (err) {
        answer = { available: false, action: oddsTarget, reason: `the language server could not compute them (${String(err)}).` };
    }
    if (ask !== asked) return; // a later refresh is under way: its answer is the one to show
    oddsTitle.textContent = `${oddsTarget ?? 'every action'} · ${scenario}`;
    const nonce = btoa(String.fromCharCode(...crypto.getRandomValues(new Uint8Array(16))));
    oddsView.srcdoc = renderOddsHtml(answer, { nonce, title });
}

async function refreshStatus(): Promise<void> {
    if (!model) return;
    type Status = StatusResult | null;
    const result = await server.executeCommand<Status>(UmpireCommands.status, [{ uri: model.uri.toString() }])
        .catch((err): Status => ({ available: false, reason: String(err) }));
    statusView.innerHTML = result?.available && result.markdown !== undefined
        ? markdownTable(result.markdown)
        : `<p class="why">${escapeHtml(result?.reason ?? 'No campaign state.')}</p>`;
}

/** The status table's markdown (headings, one pipe table, **bold**) as HTML; everything escaped first. */
function markdownTable(markdown: string): string {
    const html: string[] = [];
    let rows: string[][] = [];
    const flush = () => {
        if (rows.length === 0) return;
        const [head, ...body] = rows;
        html.push(`<table><thead><tr>${head.map(c => `<th>${c}</th>`).join('')}</tr></thead><tbody>${body.map(r => `<tr>${r.map(c => `<td>${c}</td>`).join('')}</tr>`).join('')}</tbody></table>`);
        rows = [];
    };
    const inline = (text: string) => escapeHtml(text).replace(/\*\*(.+?)\*\*/g, '<strong>$1</strong>');
    for (const line of markdown.split('\n')) {
        if (line.startsWith('|')) {
            const cells = line.slice(1, line.endsWith('|') ? -1 : undefined).split('|').map(c => c.trim());
            if (!cells.every(c => /^:?-+:?$/.test(c))) rows.push(cells.map(inline));
            continue;
        }
        flush();
        const heading = /^(#{1,6})\s+(.*)$/.exec(line);
        if (heading) html.push(`<h3>${inline(heading[2])}</h3>`);
        else if (line.trim() !== '') html.push(`<p>${inline(line)}</p>`);
    }
    flush();
    return html.join('\n');
}

// ---- share and download ----
/** The link to the text as it is now (the page's address keeps it too). */
function shareUrl(): string {
    const fragment = `n=${encodeURIComponent(fileName)}&s=${compressToEncodedURIComponent(model?.getValue() ?? '')}`;
    history.replaceState(null, '', `${location.pathname}#${fragment}`);
    return location.href;
}

byId('share').onclick = async () => {
    if (!model) return;
    shareLink.value = shareUrl();
    shareBox.hidden = false;
    shareLink.select();
    try {
        await navigator.clipboard.writeText(shareLink.value);
        tell('info', `The link is copied: whoever opens it sees ${scenario}, as it is now.`);
    } catch {
        tell('info', `Copy the link below: whoever opens it sees ${scenario}, as it is now.`);
    }
};

byId('download').onclick = () => {
    if (!model) return;
    const url = URL.createObjectURL(new Blob([model.getValue()], { type: 'text/plain' }));
    const a = document.createElement('a');
    a.href = url;
    a.download = `${fileName}.battle`;
    a.click();
    setTimeout(() => URL.revokeObjectURL(url), 1000);
};

// ---- the examples and the first file ----
for (const example of examples) {
    const option = document.createElement('option');
    option.value = example.name;
    option.textContent = `${example.name}.battle`;
    picker.append(option);
}
picker.onchange = () => {
    const example = examples.find(e => e.name === picker.value);
    if (!example) return;
    history.replaceState(null, '', `${location.pathname}?example=${encodeURIComponent(example.name)}`);
    shareBox.hidden = true;
    tell('info', '');
    openFile(example.name, example.text);
};

/** The shared scenario in the fragment (`#n=NAME&s=TEXT`), or a reason it cannot be read. */
function sharedFile(): { name: string, text: string } | string | undefined {
    const params = new URLSearchParams(location.hash.slice(1));
    const packed = params.get('s');
    if (packed === null) return undefined;
    // URLSearchParams reads '+' as a space; lz-string's alphabet uses '+', so the raw fragment is read.
    const raw = /(?:^#|&)s=([^&]*)/.exec(location.hash)?.[1] ?? packed;
    const text = decompressFromEncodedURIComponent(raw);
    // A link this page made compresses back to itself; a damaged one decompresses to nothing or to noise.
    if (!text || compressToEncodedURIComponent(text) !== raw) return 'The shared link is damaged (its scenario could not be read): the first example is shown instead.';
    const name = (params.get('n') ?? 'shared').replace(/[^\w.-]/g, '_').slice(0, 80) || 'shared';
    return { name, text };
}

async function main(): Promise<void> {
    serverState.textContent = 'starting the language server…';
    await server.start();
    state.timings.serverReadyMs = Math.round(performance.now());
    serverState.textContent = 'language server ready (in this page: nothing is sent anywhere)';
    document.body.dataset.server = 'ready';
    const shared = sharedFile();
    const wanted = new URLSearchParams(location.search).get('example');
    const first = examples.find(e => e.name === wanted) ?? examples.find(e => e.name === 'scrud-seed') ?? examples[0];
    if (typeof shared === 'object') {
        picker.value = '';
        openFile(shared.name, shared.text);
        tell('info', `Opened the shared scenario ${scenario}.`);
    } else {
        if (typeof shared === 'string') tell('warning', shared);
        picker.value = first.name;
        openFile(first.name, first.text);
    }
}

main().catch(err => {
    serverState.textContent = `The language server did not start: ${String(err)}`;
    document.body.dataset.server = 'failed';
});
