/**
 * The open document a server command works on, once it is validated: `workspace/executeCommand`
 * does not wait for the build, so a command that reads the model waits for it here. A string says
 * why there is no such document, in words for the umpire.
 */
import { DocumentState, URI, type LangiumDocument } from 'langium';
import type { LangiumSharedServices } from 'langium/lsp';
import type { CancellationToken } from 'vscode-languageserver';
import type { Scenario } from '../generated/ast.js';

export async function validatedDocument(shared: LangiumSharedServices, uri: string, token?: CancellationToken): Promise<LangiumDocument<Scenario> | string> {
    const parsed = URI.parse(uri);
    const documents = shared.workspace.LangiumDocuments;
    if (!documents.getDocument(parsed)) return `The file ${uri} is not open in the language server.`;
    try {
        await shared.workspace.DocumentBuilder.waitUntil(DocumentState.Validated, parsed, token);
    } catch (err) {
        return `The file could not be checked: ${err instanceof Error ? err.message : String(err)}`;
    }
    return (documents.getDocument(parsed) as LangiumDocument<Scenario> | undefined) ?? `The file ${uri} was closed.`;
}
