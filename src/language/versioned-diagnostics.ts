import { URI } from 'langium';
import type { LangiumSharedServices } from 'langium/lsp';
import type { Connection } from 'vscode-languageserver';
import { parsedFrom } from './battle-document-factory.js';

/**
 * Diagnostics are published with the version of the text they were computed from (LSP's
 * `publishDiagnostics.version`). Langium publishes without one; while the umpire types, a build may
 * finish after newer edits arrived (src/language/battle-workspace-lock.ts lets a long-starved build
 * finish), and the editor, or a benchmark, can then tell the answer belongs to an older text.
 */
export function publishWithVersions(connection: Connection, shared: LangiumSharedServices): void {
    const send = connection.sendDiagnostics.bind(connection);
    connection.sendDiagnostics = params => {
        if (params.version !== undefined) return send(params);
        const document = shared.workspace.LangiumDocuments.getDocument(URI.parse(params.uri));
        const from = document && parsedFrom(document);
        const live = document?.textDocument;
        // An unchanged text is not parsed again (Langium compares it), so its tree is the current version's.
        const version = from && live && from.text === live.getText() ? live.version : from?.version;
        return send(version === undefined ? params : { ...params, version });
    };
}
