/**
 * The quick fix for a stale outcome (`outcome-stale`): resolve the action again, which replaces the
 * written block. The code action provider (src/language/lsp, quick fixes) asks for it here.
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
