/**
 * `umpire report FILE [--turn T] [--engagement NAME] [--format md|html] [--out FILE] [--luck]`: a
 * battle report ready to publish (docs/reports.md). The data comes from src/report/battle-report.ts;
 * Markdown goes with its charts as SVG files beside it, HTML is one self-contained page.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { modelOf } from '../core/model-cache.js';
import { battleReport, type BattleReport } from '../report/battle-report.js';
import { loadCharts } from '../report/charts-loader.js';
import { reportHtml, reportMarkdown } from '../report/render.js';
import { CliError, formatDiagnostic, hasErrors, inFileOrder, loadFile, toStderr } from './load.js';

export interface ReportCliOptions {
    turn?: string;
    engagement?: string;
    format?: string;
    out?: string;
    luck?: boolean;
}

export async function reportCommand(file: string, options: ReportCliOptions, out: (line: string) => void, err: (line: string) => void = toStderr): Promise<number> {
    const format = options.format ?? (options.out?.toLowerCase().endsWith('.html') ? 'html' : 'md');
    if (format !== 'md' && format !== 'html') throw new CliError(`--format is md or html, not '${format}'`);
    const loaded = await loadFile(file);
    if (hasErrors(loaded.diagnostics)) {
        for (const d of inFileOrder(loaded.diagnostics).filter(x => (x.severity ?? 1) === 1)) err(formatDiagnostic(file, d));
        throw new CliError(`${file}: fix the errors above before writing a report`, 1);
    }
    const model = modelOf(loaded.document.parseResult.value);
    const report = battleReport(model, { turn: options.turn, engagement: options.engagement });
    if ('problem' in report) throw new CliError(`${file}: ${report.problem}`, 1);
    const luckOnly = options.luck === true;
    const { reportCharts } = await loadCharts();
    const charts = await reportCharts(report, model.ruleset?.vocabulary.resultLadder ?? [], { luckOnly });
    if (format === 'html') {
        const html = reportHtml(report, charts, { luckOnly });
        if (options.out === undefined) out(html.trimEnd());
        else {
            writeText(options.out, html);
            out(`${options.out}: wrote ${what(report, luckOnly)}${charts.size > 0 ? `, with ${plural(charts.size, 'chart')} inside` : ''}.`);
        }
        return 0;
    }
    if (options.out === undefined) {
        // On stdout there is nowhere to put the SVG files: the Markdown says so instead of linking to nothing.
        out(reportMarkdown(report, charts, { withCharts: false, luckOnly }).trimEnd());
        if (charts.size > 0) out('\n(charts are written as SVG files beside the report with --out FILE.md)');
        return 0;
    }
    // Charts go beside the report, named after it: r.md → r-Ford-odds.svg, r-luck.svg.
    const base = path.basename(options.out).replace(/\.[^.]*$/, '');
    const dir = path.dirname(options.out);
    const written = [...charts].map(([name, svg]) => {
        const chart = path.join(dir, `${base}-${name}`);
        writeText(chart, svg);
        return chart;
    });
    writeText(options.out, reportMarkdown(report, charts, { withCharts: true, chartPrefix: `${base}-`, luckOnly }));
    // Said after the writing, so that what is said is what is on disk.
    out(`${options.out}: wrote ${what(report, luckOnly)}${written.length > 0 ? `, and ${plural(written.length, 'chart')} beside it: ${written.join(', ')}` : ''}.`);
    return 0;
}

/** What a report holds, as the line that says it was written puts it. */
function what(report: BattleReport, luckOnly: boolean): string {
    return luckOnly ? 'the luck of each side' : `the battle report (${plural(report.actions.length, 'action')})`;
}

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

function writeText(file: string, text: string): void {
    try {
        fs.writeFileSync(file, text, 'utf8');
    } catch (err) {
        throw new CliError(`${file}: cannot be written (${(err as NodeJS.ErrnoException).code ?? err})`);
    }
}
