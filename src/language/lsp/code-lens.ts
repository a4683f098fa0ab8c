/**
 * Resolve / Re-roll / Odds above every action the scenario's rule set resolves. Lenses are computed
 * from the parse alone, never by resolving (Langium 4 has no code-lens resolve step, so every lens is
 * computed in full on each request).
 */
import type { LangiumDocument } from 'langium';
import { GrammarUtils } from 'langium';
import type { CodeLensProvider } from 'langium/lsp';
import type { CodeLens, CodeLensParams } from 'vscode-languageserver';
import type { Scenario } from '../generated/ast.js';
import { modelOf } from '../../core/model-cache.js';
import { isResolvable } from '../../core/resolve.js';
import { hasOdds } from '../../core/odds.js';
import { UmpireCommands, type OddsArgs, type ResolveArgs } from '../../protocol.js';

export class BattleCodeLensProvider implements CodeLensProvider {
    provideCodeLens(document: LangiumDocument, _params: CodeLensParams): CodeLens[] {
        const root = document.parseResult.value as Scenario;
        const model = modelOf(root);
        const ruleset = model.ruleset;
        if (!ruleset) return [];
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
            if (!ruleset.usesEnteredDice(model, action)) {
                lenses.push({ range, command: { title: 'Re-roll', command: UmpireCommands.reroll, arguments: [args] } });
            }
            // Only where the rule set has odds (Loose Files morale, re-dressing and command have none).
            if (hasOdds(model, action)) {
                const odds: OddsArgs = { uri, action: action.node.name };
                lenses.push({ range, command: { title: 'Odds', command: UmpireCommands.showOdds, arguments: [odds] } });
            }
        }
        return lenses;
    }
}
