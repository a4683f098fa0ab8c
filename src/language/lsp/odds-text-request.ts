/**
 * The odds as Markdown, for editors without the Odds view (docs/editors.md): per action, each unit's
 * chance of each result and its counts, and each side's number of units with each result (mean ± sd), from the same `umpire.odds` answer the view
 * draws. Shown as a generated document (window/showDocument) where the client can open one, else as a
 * message; always also the command's answer.
 */
import type { LangiumSharedServices } from 'langium/lsp';
import type { CancellationToken } from 'vscode-languageserver';
import { meanSdText, unitCounts, type OddsAnswer, type OddsArgs, type OddsReport, type OddsText, type OddsUnavailable } from '../../protocol.js';
import type { EditorSide } from './outcome-requests.js';
import { clientSupport } from './client-support.js';

/** Writes a generated file where the editor can open it and gives its URI (the Node server has one; the web worker not). */
export type ScratchWriter = (name: string, text: string) => Promise<string>;

/** 0.4166… → "41.7%"; a possible but tiny chance is not shown as 0. */
function percent(p: number): string {
    if (p < 1e-12) return '0';
    if (p > 1 - 1e-12) return '100%';
    if (p < 0.0005) return '<0.1%';
    return `${(100 * p).toFixed(1)}%`;
}

const cell = (text: string) => text.replace(/\|/g, '\\|');

function reportMarkdown(report: OddsReport): string[] {
    const labels = [...new Set(report.units.flatMap(u => Object.keys(u.probabilities)))]
        .filter(l => report.units.some(u => (u.probabilities[l] ?? 0) > 1e-12));
    const lines = [`## ${report.kind} ${report.name}${report.turn ? ` (turn ${report.turn})` : ''}: exact odds`, ''];
    // The counts the rule set gives per unit (hits, DPs, …), as mean ± sd.
    const counts = unitCounts(report.units);
    const head = [...labels, ...counts.map(([, , name]) => `${name} (mean ± sd)`)];
    lines.push(`| unit | ${head.map(cell).join(' | ')} |`, `| --- |${head.map(() => ' ---: |').join('')}`);
    for (const u of report.units) {
        const cells = [...labels.map(l => percent(u.probabilities[l] ?? 0)), ...counts.map(([m, sd]) => (typeof u[m] === 'number' ? meanSdText(u[m] as number, u[sd]) : ''))];
        lines.push(`| ${cell(u.id)} | ${cells.join(' | ')} |`);
    }
    lines.push('');
    for (const side of report.sides) {
        const expected = labels.map(l => `${meanSdText(side.expected[l] ?? 0, side.sd?.[l])} ${l}`).join(', ');
        const joint = Object.entries(side.atLeastOne).map(([l, p]) => `at least one ${l}: ${percent(p)}`).join(', ');
        lines.push(`- **${side.force}** expects ${expected}${joint ? `; ${joint}` : ''}`);
    }
    for (const note of report.notes) lines.push(`- ${note}`);
    lines.push('');
    return lines;
}

function unavailableMarkdown(u: OddsUnavailable): string[] {
    return [`## ${u.action ?? 'Odds'}`, '', `No odds: ${u.reason}`, ''];
}

/** The answer of `umpire.odds` as one Markdown document under `title`. */
function oddsAsMarkdown(title: string, answer: OddsAnswer): string {
    const reports = 'actions' in answer && Array.isArray(answer.actions) ? answer.actions : [answer as OddsReport | OddsUnavailable];
    const body = reports.flatMap(r => ((r as OddsUnavailable).available === false ? unavailableMarkdown(r as OddsUnavailable) : reportMarkdown(r as OddsReport)));
    return [`# Odds: ${title}`, '', ...body].join('\n');
}

/**
 * `umpire.oddsText`: the odds of `arg` (an OddsArgs) as Markdown, shown as a generated document when
 * the client supports window/showDocument and the server can write one, else as a message.
 */
export async function showOddsText(shared: LangiumSharedServices, editor: EditorSide, odds: (arg: unknown, token?: CancellationToken) => Promise<OddsAnswer>,
    arg: unknown, token: CancellationToken | undefined, scratch: ScratchWriter | undefined): Promise<OddsText> {
    const answer = await odds(arg, token);
    const { uri, action } = (arg ?? {}) as Partial<OddsArgs>;
    const file = typeof uri === 'string' ? decodeURIComponent(uri.replace(/[?#].*$/, '').split('/').pop() ?? '') : '';
    const markdown = oddsAsMarkdown(`${action ?? 'every action'}${file ? ` (${file})` : ''}`, answer);
    const window = shared.lsp.Connection?.window;
    if (scratch && window && clientSupport(shared).showDocument) {
        const name = `odds-${file.replace(/\.battle$/, '')}${action ? `-${action}` : ''}.md`.replace(/[^\p{L}\p{N}._-]+/gu, '_');
        try {
            const shown = await scratch(name, markdown);
            if ((await window.showDocument({ uri: shown, takeFocus: true })).success) return { markdown, shown };
        } catch {
            // No file could be written or shown: the message below still gives the figures.
        }
    }
    editor.tell('info', markdown);
    return { markdown };
}
