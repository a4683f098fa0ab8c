/**
 * The umpire's commands as code actions at an action: "Resolve", "Re-roll", "Resolve all" and "Show
 * odds", the same commands as the code lenses above it, for editors that show no lenses (Helix, Emacs
 * eglot) or whose umpire prefers the code-action menu. Offered where the cursor (the request's range)
 * is inside an action the file's rule set resolves; their kind is `source` (VS Code lists them under
 * "Source Action…", not with the quick fixes' light bulb, as it has the lenses).
 */
import type { LangiumDocument } from 'langium';
import type { CodeAction, CodeActionParams } from 'vscode-languageserver';
import type { Scenario } from '../generated/ast.js';
import { modelOf } from '../../core/model-cache.js';
import { isResolvable } from '../../core/resolve.js';
import { hasOdds } from '../../core/odds.js';
import { UmpireCommands, type OddsArgs, type ResolveArgs } from '../../protocol.js';
import { actionAt } from './editor-requests.js';
import { oddsCommandFor, type ClientSupport } from './client-support.js';

/** The code action kind of the umpire's commands (a `source` action of Umpire's own). */
const UMPIRE_SOURCE_KIND = 'source.umpire';

export function actionCommands(document: LangiumDocument, params: CodeActionParams, support: ClientSupport): CodeAction[] {
    if (params.context.only && !params.context.only.some(kind => UMPIRE_SOURCE_KIND === kind || UMPIRE_SOURCE_KIND.startsWith(`${kind}.`))) return [];
    const root = document.parseResult.value as Scenario;
    const node = actionAt(root, document.textDocument.offsetAt(params.range.start));
    if (!node?.name) return [];
    const model = modelOf(root);
    const action = model.actions.find(a => a.node === node);
    if (!action || !model.ruleset || !isResolvable(model, action)) return [];
    const uri = document.uri.toString();
    const version = document.textDocument.version;
    const args: ResolveArgs = { uri, version, action: node.name };
    const command = (title: string, id: string, argument: unknown): CodeAction =>
        ({ title, kind: UMPIRE_SOURCE_KIND, command: { title, command: id, arguments: [argument] } });
    const actions = [command(`Resolve '${node.name}'`, UmpireCommands.resolve, args)];
    // Entered dice are the table's: a new seed would not change them (as the lenses).
    if (!model.ruleset.usesEnteredDice(model, action)) actions.push(command(`Re-roll '${node.name}'`, UmpireCommands.reroll, args));
    actions.push(command('Resolve all engagements', UmpireCommands.resolveAll, { uri, version }));
    if (hasOdds(model, action)) {
        const odds: OddsArgs = { uri, action: node.name };
        actions.push(command(`Show odds of '${node.name}'`, oddsCommandFor(support), odds));
    }
    return actions;
}
