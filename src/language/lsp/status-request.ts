/**
 * `umpire.status` ("Umpire: Show campaign state"): the forces' state as a markdown table,
 * the same table `umpire status --markdown` prints. Arguments: [{ uri, at? }], `at` a turn's number
 * or name (the state at the end of that turn); without it, the state at the end of the file.
 */
import type { LangiumSharedServices } from 'langium/lsp';
import type { CancellationToken } from 'vscode-languageserver';
import { validatedDocument } from './validated-document.js';
import { modelOf } from '../../core/model-cache.js';
import { statusMarkdown, statusTable } from '../../core/status-table.js';
import type { StatusResult } from '../../protocol.js';


export async function campaignStatus(shared: LangiumSharedServices, arg: unknown, token?: CancellationToken): Promise<StatusResult> {
    const a = (arg ?? {}) as { uri?: unknown, at?: unknown };
    if (typeof a.uri !== 'string') return { available: false, reason: 'umpire.status needs [{ uri, at? }]: run it from an open .battle file.' };
    if (a.at !== undefined && typeof a.at !== 'string' && typeof a.at !== 'number') return { available: false, reason: "'at' is a turn's number or name." };
    // The state must come from a linked, checked file.
    const document = await validatedDocument(shared, a.uri, token);
    if (typeof document === 'string') return { available: false, reason: document };
    return shared.workspace.WorkspaceLock.read(() => {
        const model = modelOf(document.parseResult.value);
        const table = statusTable(model, a.at === undefined ? undefined : String(a.at));
        if ('problem' in table) return { available: false, reason: `${table.problem[0].toUpperCase()}${table.problem.slice(1)}.` };
        return { available: true, markdown: statusMarkdown(model, table) };
    });
}
