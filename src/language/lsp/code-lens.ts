/**
 * Resolve / Re-roll / Odds above every action the scenario's rule set resolves. Lenses are computed
 * from the parse alone, never by resolving (Langium 4 has no lens resolve step: PITFALLS).
 */
import type { LangiumDocument } from 'langium';
import { GrammarUtils } from 'langium';
import type { CodeLensProvider } from 'langium/lsp';
import type { CodeLens, CodeLensParams } from 'vscode-languageserver';
import type { Scenario } from '../generated/ast.js';
import { modelOf } from '../../core/model-cache.js';
import { rulesetPlugin } from '../../core/resolve.js';
import { isResolvable, UmpireCommands, type ResolveArgs } from './commands.js';

export class BattleCodeLensProvider implements CodeLensProvider {
    provideCodeLens(document: LangiumDocument, _params: CodeLensParams): CodeLens[] {
        const root = document.parseResult.value as Scenario;
        const model = modelOf(root);
        const plugin = rulesetPlugin(model.rules);
        if (!plugin) return [];
        const uri = document.uri.toString();
        const version = document.textDocument.version;
        const lenses: CodeLens[] = [];
        for (const action of model.actions) {
            const cst = action.node.$cstNode;
            if (!cst || !action.node.name || !isResolvable(model, action)) continue;
            const name = GrammarUtils.findNodeForProperty(cst, 'name') ?? cst;
            const range = { start: cst.range.start, end: name.range.end };
            const args: ResolveArgs = { uri, version, action: action.node.name };
            lenses.push({ range, command: { title: 'Resolve', command: UmpireCommands.resolve, arguments: [args] } });
            // Entered dice are the table's: a new seed would not change them.
            if (!plugin.hasEnteredDice(model, action)) {
                lenses.push({ range, command: { title: 'Re-roll', command: UmpireCommands.reroll, arguments: [args] } });
            }
            lenses.push({ range, command: { title: 'Odds', command: UmpireCommands.showOdds, arguments: [{ uri, action: action.node.name }] } });
        }
        return lenses;
    }
}
