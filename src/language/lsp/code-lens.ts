/**
 * Resolve / Re-roll / Odds above every action the scenario's rule set resolves. Lenses are computed
 * from the parse alone, never by resolving (Langium 4 has no code-lens resolve step, so every lens is
 * computed in full on each request).
 */
import type { LangiumDocument, TextDocumentProvider } from 'langium';
import { GrammarUtils } from 'langium';
import type { CodeLensProvider, LangiumServices } from 'langium/lsp';
import type { CodeLens, CodeLensParams } from 'vscode-languageserver';
import type { Scenario } from '../generated/ast.js';
import { modelOf } from '../../core/model-cache.js';
import { isResolvable } from '../../core/resolve.js';
import { hasOdds } from '../../core/odds.js';
import { UmpireCommands, type OddsArgs, type ResolveArgs } from '../../protocol.js';

export class BattleCodeLensProvider implements CodeLensProvider {
    private readonly editorTexts: TextDocumentProvider | undefined;

    constructor(services: LangiumServices) {
        this.editorTexts = services.shared.workspace.TextDocuments;
    }

    provideCodeLens(document: LangiumDocument, _params: CodeLensParams): CodeLens[] {
        const root = document.parseResult.value as Scenario;
        const model = modelOf(root);
        const ruleset = model.ruleset;
        if (!ruleset) return [];
        const uri = document.uri.toString();
        const version = this.versionOf(document);
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

    /**
     * The version a lens's command names. A file the server read from disk (version 0) and that the
     * editor has just opened (version 1, the same text) may be asked for lenses before the server has
     * built the opened copy: the lenses are right for the editor's text, so they name its version, or
     * the first Resolve would be refused as "the file changed".
     */
    private versionOf(document: LangiumDocument): number {
        const built = document.textDocument;
        const editor = this.editorTexts?.get(document.uri.toString());
        return editor && editor.version !== built.version && editor.getText() === built.getText() ? editor.version : built.version;
    }
}
