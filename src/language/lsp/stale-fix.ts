/**
 * The quick fixes for a written outcome: a stale one (`outcome-stale`) is resolved again, which
 * replaces the written block; an altered one (`outcome-altered`) is written back as its dice give it.
 * The code action provider (src/language/lsp, quick fixes) asks for them here.
 */
import type { LangiumDocument } from 'langium';
import { CodeActionKind, type CodeAction, type Diagnostic } from 'vscode-languageserver';
import type { Scenario } from '../generated/ast.js';
import { Codes } from '../../core/codes.js';
import { actionAt } from './editor-requests.js';
import { UmpireCommands, type ResolveArgs } from '../../protocol.js';

export function staleOutcomeActions(document: LangiumDocument, diagnostic: Diagnostic): CodeAction[] {
    if (diagnostic.code !== Codes.outcomeStale) return [];
    const root = document.parseResult.value as Scenario;
    const action = actionAt(root, document.textDocument.offsetAt(diagnostic.range.start));
    if (!action?.name) return [];
    const args: ResolveArgs = { uri: document.uri.toString(), version: document.textDocument.version, action: action.name };
    return [{
        title: `Resolve '${action.name}' again (replaces the outcome)`,
        kind: CodeActionKind.QuickFix,
        diagnostics: [diagnostic],
        isPreferred: true,
        command: { title: 'Resolve', command: UmpireCommands.resolve, arguments: [args] }
    }];
}

/**
 * `outcome-altered`: the block as Resolve wrote it, byte for byte (the validator's replay, in
 * `data.restore` as offsets into the text it checked: the code action runs on that same version).
 */
export function restoreOutcomeActions(document: LangiumDocument, diagnostic: Diagnostic): CodeAction[] {
    const restore = (diagnostic.data as { restore?: { start: number, end: number, newText: string } } | undefined)?.restore;
    if (diagnostic.code !== Codes.outcomeAltered || !restore) return [];
    const text = document.textDocument;
    const edit = { range: { start: text.positionAt(restore.start), end: text.positionAt(restore.end) }, newText: restore.newText };
    return [{
        title: 'Restore the outcome as its dice give it',
        kind: CodeActionKind.QuickFix,
        diagnostics: [diagnostic],
        isPreferred: true,
        edit: { changes: { [document.uri.toString()]: [edit] } }
    }];
}
