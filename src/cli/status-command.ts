/**
 * `umpire status FILE [--at TURN] [--markdown]`: every unit's campaign state, as the written
 * outcomes, state lines and rulings leave it (docs/campaigns.md).
 */
import { modelOf } from '../core/model-cache.js';
import { statusMarkdown, statusPlainLines, statusTable } from '../core/status-table.js';
import { CliError, formatDiagnostic, loadFile, inFileOrder, toStderr } from './load.js';

export interface StatusCliOptions {
    at?: string;
    markdown?: boolean;
}

export async function statusCommand(file: string, options: StatusCliOptions, out: (line: string) => void, err: (line: string) => void = toStderr): Promise<number> {
    const loaded = await loadFile(file);
    const parse = loaded.document.parseResult;
    if (parse.lexerErrors.length > 0 || parse.parserErrors.length > 0) {
        for (const d of inFileOrder(loaded.diagnostics).filter(x => (x.severity ?? 1) === 1)) err(formatDiagnostic(file, d));
        throw new CliError(`${file}: fix the syntax errors above first`, 1);
    }
    // Other errors do not stop the table (it shows what the file says), but the umpire is told.
    const errors = loaded.diagnostics.filter(d => (d.severity ?? 1) === 1);
    if (errors.length > 0) err(`umpire: ${file} has ${errors.length} error${errors.length === 1 ? '' : 's'} ('umpire check ${file}' lists them); the state reads the file as it is.`);
    const model = modelOf(parse.value);
    const table = statusTable(model, options.at);
    if ('problem' in table) throw new CliError(`${file}: ${table.problem}`, 1);
    if (options.markdown) out(statusMarkdown(model, table));
    else {
        out(`${model.title ?? file}: state ${table.when}`);
        out('');
        for (const line of statusPlainLines(table)) out(line);
    }
    return 0;
}
