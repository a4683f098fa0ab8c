/**
 * `umpire.status` (issue 8, "Umpire: Show campaign state"): the forces' state as a markdown table,
 * the same table `umpire status --markdown` prints. Arguments: [{ uri, at? }], `at` a turn's number
 * or name (the state at the end of that turn); without it, the state at the end of the file.
 */
import { DocumentState, URI, type LangiumDocument } from 'langium';
import type { LangiumSharedServices } from 'langium/lsp';
import type { CancellationToken } from 'vscode-languageserver';
import type { Scenario } from '../generated/ast.js';
import { modelOf } from '../../core/model-cache.js';
import { statusMarkdown, statusTable } from '../../core/status-table.js';
import type { StatusResult } from '../../protocol.js';


export async function campaignStatus(shared: LangiumSharedServices, arg: unknown, token?: CancellationToken): Promise<StatusResult> {
    const a = (arg ?? {}) as { uri?: unknown, at?: unknown };
    if (typeof a.uri !== 'string') return { available: false, reason: 'umpire.status needs [{ uri, at? }]: run it from an open .battle file.' };
    if (a.at !== undefined && typeof a.at !== 'string' && typeof a.at !== 'number') return { available: false, reason: "'at' is a turn's number or name." };
    const uri = URI.parse(a.uri);
    const documents = shared.workspace.LangiumDocuments;
    if (!documents.getDocument(uri)) return { available: false, reason: `The file ${a.uri} is not open in the language server.` };
    try {
        // executeCommand does not wait for the build: the state must come from a linked, checked file.
        await shared.workspace.DocumentBuilder.waitUntil(DocumentState.Validated, uri, token);
    } catch (err) {
        return { available: false, reason: `The file could not be checked: ${err instanceof Error ? err.message : String(err)}` };
    }
    return shared.workspace.WorkspaceLock.read(() => {
        const document = documents.getDocument(uri) as LangiumDocument<Scenario> | undefined;
        if (!document) return { available: false, reason: `The file ${a.uri} was closed.` };
        const model = modelOf(document.parseResult.value);
        const table = statusTable(model, a.at === undefined ? undefined : String(a.at));
        if ('problem' in table) return { available: false, reason: `${table.problem[0].toUpperCase()}${table.problem.slice(1)}.` };
        return { available: true, markdown: statusMarkdown(model, table) };
    });
}
