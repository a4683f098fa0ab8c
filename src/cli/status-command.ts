/**
 * `umpire status FILE [--at TURN] [--markdown | --json]`: every unit's campaign state, as the written
 * outcomes, state lines and rulings leave it (docs/campaigns.md), and each side's luck over the season
 * up to then (docs/reports.md#season-luck).
 */
import { actionsThrough } from '../core/campaign-odds.js';
import { modelOf } from '../core/model-cache.js';
import { isUnresolvable } from '../core/resolve.js';
import type { ScenarioModel } from '../core/scenario.js';
import { markdownTableLines, markdownText, plainTableLines, statusMarkdown, statusPlainLines, statusTable } from '../core/status-table.js';
import { SEASON_HEADER, seasonHeading, seasonLuck, seasonRows, type SeasonLuck } from '../report/season-luck.js';
import type { Unresolvable } from '../core/resolution.js';
import { CliError, formatDiagnostic, loadFile, inFileOrder, toStderr } from './load.js';

export interface StatusCliOptions {
    at?: string;
    markdown?: boolean;
    json?: boolean;
}

/** The version of `status --json`'s shape (docs/json.md#status); fields are only ever added. */
const STATUS_SCHEMA = 1;

export async function statusCommand(file: string, options: StatusCliOptions, out: (line: string) => void, err: (line: string) => void = toStderr): Promise<number> {
    if (options.markdown && options.json) throw new CliError('--markdown and --json are two ways to print the same state: choose one');
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
    const season = seasonThrough(model, options.at);
    if (options.json) {
        out(JSON.stringify({ schema: STATUS_SCHEMA, file, rules: model.rules, title: model.title ?? null, at: options.at ?? null, ...table, season }, null, 2));
    } else if (options.markdown) {
        out(statusMarkdown(model, table));
        out('');
        out(markdownText(seasonHeading(season)));
        if (hasRows(season)) {
            out('');
            out(markdownTableLines(SEASON_HEADER, seasonRows(season)).join('\n'));
        }
    } else {
        out(`${model.title ?? file}: state ${table.when}`);
        out('');
        for (const line of statusPlainLines(table)) out(line);
        out('');
        out(seasonHeading(season));
        if (hasRows(season)) {
            out('');
            for (const line of plainTableLines(SEASON_HEADER, seasonRows(season))) out(line);
        }
    }
    return 0;
}

/**
 * The season's luck over the written actions up to the end of the turn (all of them without one), in
 * file order as the report takes them, so that `status` and `report --luck` give the same figures.
 */
function seasonThrough(model: ScenarioModel, at: string | undefined): SeasonLuck | Unresolvable {
    if (at === undefined) return seasonLuck(model, model.actions);
    const span = actionsThrough(model, at);
    if (isUnresolvable(span)) return span;
    const through = new Set(span.actions);
    return seasonLuck(model, model.actions.filter(a => through.has(a)));
}

function hasRows(season: SeasonLuck | Unresolvable): season is SeasonLuck {
    return !isUnresolvable(season) && season.method !== 'none';
}
