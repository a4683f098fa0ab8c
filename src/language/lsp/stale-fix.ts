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
import { actionModelOf, modelOf } from '../../core/model-cache.js';
import { outcomeStatus } from '../../core/resolve.js';
import { actionOffsets, resolutionEdit, toRangeEdit } from '../../core/outcome-edit.js';

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
 * `outcome-altered`: the block as Resolve wrote it, byte for byte: the replay of the outcome's own
 * dice on the document as it is now (the code action runs on the editor's current version).
 */
export function restoreOutcomeActions(document: LangiumDocument, diagnostic: Diagnostic): CodeAction[] {
    if (diagnostic.code !== Codes.outcomeAltered) return [];
    const root = document.parseResult.value as Scenario;
    const node = actionAt(root, document.textDocument.offsetAt(diagnostic.range.start));
    const model = modelOf(root);
    const action = node ? actionModelOf(model, node) : undefined;
    const status = action ? outcomeStatus(model, action) : undefined;
    const text = document.textDocument.getText();
    const offsets = node ? actionOffsets(node, text) : undefined;
    if (status?.kind !== 'altered' || !offsets) return [];
    const edit = toRangeEdit(text, resolutionEdit(text, offsets, status.resolution, status.dice));
    return [{
        title: 'Restore the outcome as its dice give it',
        kind: CodeActionKind.QuickFix,
        diagnostics: [diagnostic],
        isPreferred: true,
        edit: { changes: { [document.uri.toString()]: [edit] } }
    }];
}
