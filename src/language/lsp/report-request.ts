/**
 * `umpire.report` ("Umpire: Export battle report"): the battle report that `umpire report`
 * writes (src/report/, docs/reports.md), built from the open document. Arguments: [{ uri, format?, turn? }].
 */
import type { LangiumSharedServices } from 'langium/lsp';
import type { CancellationToken } from 'vscode-languageserver';
import { validatedDocument } from './validated-document.js';
import { modelOf } from '../../core/model-cache.js';
import type { ReportResult } from '../../protocol.js';
import { battleReport } from '../../report/battle-report.js';
import { loadCharts } from '../../report/charts-loader.js';
import { reportHtml, reportMarkdown } from '../../report/render.js';

export async function battleReportCommand(shared: LangiumSharedServices, arg: unknown, token?: CancellationToken): Promise<ReportResult> {
    const a = (arg ?? {}) as { uri?: unknown, format?: unknown, turn?: unknown };
    if (typeof a.uri !== 'string') return { available: false, reason: 'umpire.report needs [{ uri, format?, turn? }]: run it from an open .battle file.' };
    if (a.format !== undefined && a.format !== 'html' && a.format !== 'md') return { available: false, reason: "'format' is html or md." };
    if (a.turn !== undefined && typeof a.turn !== 'string') return { available: false, reason: "'turn' is a turn's number or name." };
    const document = await validatedDocument(shared, a.uri, token);
    if (typeof document === 'string') return { available: false, reason: document };
    const uri = document.uri;
    if ((document.diagnostics ?? []).some(d => (d.severity ?? 1) === 1)) return { available: false, reason: 'Fix the errors in the file before writing a report.' };
    const model = modelOf(document.parseResult.value);
    const report = battleReport(model, { turn: a.turn });
    if ('problem' in report) return { available: false, reason: `${report.problem[0].toUpperCase()}${report.problem.slice(1)}.` };
    // The charts are drawn outside the workspace lock: the report above is plain data already.
    const { reportCharts } = await loadCharts();
    const charts = await reportCharts(report, model.ruleset?.vocabulary.resultLadder ?? []);
    const base = uri.path.split('/').pop()!.replace(/\.[^.]*$/, '');
    if (a.format === 'md') {
        return { available: true, text: reportMarkdown(report, charts, { withCharts: true, chartPrefix: `${base}-` }), charts: Object.fromEntries([...charts].map(([name, svg]) => [`${base}-${name}`, svg])) };
    }
    return { available: true, text: reportHtml(report, charts) };
}
