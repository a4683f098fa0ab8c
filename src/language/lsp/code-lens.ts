/**
 * Resolve / Re-roll / Odds above every action the scenario's rule set resolves. Lenses are computed
 * from the parse alone, never by resolving (Langium 4 has no code-lens resolve step, so every lens is
 * computed in full on each request).
 */
import type { AstNode, LangiumDocument, TextDocumentProvider } from 'langium';
import { GrammarUtils } from 'langium';
import type { CodeLensProvider, LangiumServices } from 'langium/lsp';
import type { BattleCaches } from '../battle-caches.js';
import type { CancellationToken, CodeLens, CodeLensParams, Range } from 'vscode-languageserver';
import type { Scenario } from '../generated/ast.js';
import { modelOf } from '../../core/model-cache.js';
import { isResolvable } from '../../core/resolve.js';
import { hasOdds } from '../../core/odds.js';
import { UmpireCommands, type OddsArgs, type ResolveArgs } from '../../protocol.js';
import { isValidatedNow, whenValidated } from './current-version.js';
import { KeptPerElement, movePosition, topsOf } from './kept-per-element.js';
import { errorsBlocking } from './action-errors.js';
import { clientSupport, oddsCommandFor } from './client-support.js';

export class BattleCodeLensProvider implements CodeLensProvider {
    private readonly editorTexts: TextDocumentProvider | undefined;

    /** Where each action's lenses go (its first line up to its name), kept per action as the outline's entries are (kept-per-element.ts). */
    private readonly ranges: KeptPerElement<Range>;

    constructor(private readonly services: LangiumServices, caches: BattleCaches) {
        this.editorTexts = services.shared.workspace.TextDocuments;
        this.ranges = new KeptPerElement<Range>(caches, 'lens places', "each action's lens range", {
            make: node => {
                const cst = node.$cstNode!;
                const name = GrammarUtils.findNodeForProperty(cst, 'name') ?? cst;
                return { start: { ...cst.range.start }, end: { ...name.range.end } };
            },
            move: (range, from, to) => ({ start: movePosition(range.start, from, to), end: movePosition(range.end, from, to) })
        });
    }

    /**
     * The lenses once the document is validated at the editor's version, after the edit's diagnostics
     * went out (current-version.ts): at once when it already is (a caller in the same process gets
     * them without waiting), else when it will be.
     */
    provideCodeLens(document: LangiumDocument, _params: CodeLensParams, cancelToken?: CancellationToken): CodeLens[] | Promise<CodeLens[]> {
        if (isValidatedNow(document)) return this.lensesOf(document);
        return whenValidated(document, cancelToken).then(() => this.lensesOf(document));
    }

    private lensesOf(document: LangiumDocument): CodeLens[] {
        const root = document.parseResult.value as Scenario;
        const model = modelOf(root);
        const ruleset = model.ruleset;
        if (!ruleset) return [];
        const uri = document.uri.toString();
        const version = this.versionOf(document);
        const lenses: CodeLens[] = [];
        // The Odds view where the client has one; else the odds as Markdown (client-support.ts).
        const showOdds = oddsCommandFor(clientSupport(this.services.shared));
        const nodes: AstNode[] = model.actions.filter(a => a.node.$cstNode).map(a => a.node);
        const { entries } = this.ranges.entries(document, nodes, topsOf(root, nodes));
        let next = 0;
        for (const action of model.actions) {
            if (!action.node.$cstNode) continue;
            const range = entries[next++];
            if (!action.node.name || !isResolvable(model, action)) continue;
            const args: ResolveArgs = { uri, version, action: action.node.name };
            // No Resolve where an error stops it (the header hint says "cannot resolve").
            const blocked = errorsBlocking(document, model, action.node).length > 0;
            if (!blocked) lenses.push({ range, command: { title: 'Resolve', command: UmpireCommands.resolve, arguments: [args] } });
            // Entered dice are the table's: a new seed would not change them.
            if (!blocked && !ruleset.usesEnteredDice(model, action)) {
                lenses.push({ range, command: { title: 'Re-roll', command: UmpireCommands.reroll, arguments: [args] } });
            }
            // Only where the rule set has odds (Loose Files morale, re-dressing and command have none).
            if (hasOdds(model, action)) {
                const odds: OddsArgs = { uri, action: action.node.name };
                lenses.push({ range, command: { title: 'Odds', command: showOdds, arguments: [odds] } });
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
