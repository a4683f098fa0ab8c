/**
 * Inline annotations (setting `umpire.inlayHints.enabled`), kept short so that they read at a glance
 * and survive the editor's cut (VS Code shows 43 characters by default, `editor.inlayHints.maximumLength`):
 * - at each action's header, the outcome's state first (`written`, `stale`, `not written`, `not decided`)
 *   and then its result, or the action it waits on; the tooltip has the whole result and the breakdown (as the
 *   hover does);
 * - before each die entered from the table, the unit it feeds, as an editor names a call's parameters
 *   (`Guard: 4 Line#1: 4 #2: 2`); the tooltip has its modifier, adjusted die and result;
 * - after the opponent of a written outcome line, that opponent's adjusted die, so that each line reads
 *   as the comparison it records.
 */
import { GrammarUtils, OperationCancelled, type LangiumDocument } from 'langium';
import type { InlayHintProvider, LangiumSharedServices } from 'langium/lsp';
import { InlayHintKind, MarkupKind, type CancellationToken, type Diagnostic, type InlayHint, type InlayHintParams, type MarkupContent, type Range } from 'vscode-languageserver';
import type { Outcome, Scenario } from '../generated/ast.js';
import { modelOf } from '../../core/model-cache.js';
import { factValue, targetText, unquote, type ActionModel, type ScenarioModel } from '../../core/scenario.js';
import { hasStaleOutcome, previewAction, type Preview } from './hover.js';
import { needsNewSeed } from '../../core/resolve.js';
import { waitsOn } from '../../core/campaign-state.js';
import { umpireSetting } from './settings.js';
import { whenValidated } from './current-version.js';
import { cannotResolveLabel, errorsBlocking } from './action-errors.js';
import { clientSupport } from './client-support.js';

export class BattleInlayHintProvider implements InlayHintProvider {
    constructor(private readonly shared: LangiumSharedServices) {
        // Turning the setting off or on shows at once, not at the next edit.
        shared.workspace.ConfigurationProvider.onConfigurationSectionUpdate(update => {
            // Only to a client that announced it can be asked to refresh its hints.
            if (update.section !== 'umpire' || !clientSupport(shared).inlayHintRefresh) return;
            shared.lsp.Connection?.languages.inlayHint.refresh().catch(() => undefined);
        });
    }

    async getInlayHints(document: LangiumDocument, params: InlayHintParams, cancelToken?: CancellationToken): Promise<InlayHint[]> {
        if (!await umpireSetting(this.shared, 'inlayHints.enabled', true)) return [];
        // VS Code asks right after each keystroke. Hints resolve the visible actions (at 10,000 lines
        // ~200 ms in the real editor): asked on the linked tree they ran before the edit's
        // checks and the squiggles waited. They wait for the diagnostics, as the outline does, and a
        // request the editor cancelled meanwhile (the next keystroke) is not worked out at all.
        await whenValidated(document, cancelToken);
        if (cancelToken?.isCancellationRequested) throw OperationCancelled;
        return inlayHints(document, params.range);
    }
}

/** The hints of the actions that overlap `range`. */
function inlayHints(document: LangiumDocument, range: Range): InlayHint[] {
    const model = modelOf(document.parseResult.value as Scenario);
    const hints: InlayHint[] = [];
    for (const action of model.actions) {
        const cst = action.node.$cstNode;
        if (!cst || cst.range.end.line < range.start.line || cst.range.start.line > range.end.line) continue;
        const blocking = errorsBlocking(document, model, action.node);
        const preview = previewAction(document, model, action);
        const header = (blocking.length > 0 ? blockedHint(document, action, blocking) : undefined)
            ?? headerHint(document, action, preview) ?? undecidedHint(model, action);
        if (header) hints.push(header);
        if (preview?.dice.kind !== 'seed') hints.push(...dieHints(model, action, preview));
        if (action.node.outcome) hints.push(...opponentHints(action.node.outcome));
    }
    return hints.filter(h => h.position.line >= range.start.line && h.position.line <= range.end.line);
}

/** The states an action's outcome is in, as the header hint names them first. */
type OutcomeState = 'written' | 'stale' | 'not written';

function headerHint(document: LangiumDocument, action: ActionModel, preview: Preview | undefined): InlayHint | undefined {
    const brace = GrammarUtils.findNodeForKeyword(action.node.$cstNode, '{');
    if (!brace) return undefined;
    const outcome = action.node.outcome;
    let state: OutcomeState;
    let summary: string;
    const details: string[] = [];
    if (outcome?.summary) {
        summary = unquote(outcome.summary);
        state = hasStaleOutcome(document, action.node) ? 'stale' : 'written';
        if (state === 'stale') {
            details.push('The written outcome no longer matches this action: **Resolve** it again.');
            if (preview) details.push(`Resolving again gives: ${preview.resolution.json.summary}`);
        } else {
            details.push('The outcome written below.');
        }
    } else if (preview) {
        summary = preview.resolution.json.summary;
        state = 'not written';
        details.push('What **Resolve** will write, from the dice entered or the seed.');
    } else {
        return undefined;
    }
    if (preview) details.push(['```text', ...preview.resolution.text, '```'].join('\n'));
    const tooltip: MarkupContent = { kind: MarkupKind.Markdown, value: [`**${state}**: ${summary}`, ...details].join('\n\n') };
    // The state first: the editor cuts a long result short, never the word that says whether it is current.
    return { position: brace.range.end, label: `${state} — ${summary}`, paddingLeft: true, tooltip };
}

/**
 * An unwritten action with dice of its own whose start waits on an earlier action that has none
 * (docs/campaigns.md#undecided): no result to show yet, and the hint says what it waits on, as
 * `umpire resolve` does. An action with no dice or seed of its own has no hint: its Resolve lens is
 * what to do next, and the hover says the same.
 */
function undecidedHint(model: ScenarioModel, action: ActionModel): InlayHint | undefined {
    if (action.node.outcome) return undefined;
    const brace = GrammarUtils.findNodeForKeyword(action.node.$cstNode, '{');
    const first = brace && !needsNewSeed(model, action) ? waitsOn(model, action) : undefined;
    if (!brace || !first) return undefined;
    const why = `Its start waits on ${first.kind} **${first.name}**, which has no dice or seed yet: its outcome changes the state this ${action.node.kind} starts from. **Resolve all** resolves them in order.`;
    const tooltip: MarkupContent = { kind: MarkupKind.Markdown, value: `**not decided**\n\n${why}` };
    return { position: brace.range.end, label: `not decided — waits on ${first.name}`, paddingLeft: true, tooltip };
}

/**
 * An action that errors stop from being resolved (action-errors.ts): "cannot resolve: N errors" in place
 * of a result that Resolve would refuse to write; a current written outcome keeps its own hint.
 */
function blockedHint(document: LangiumDocument, action: ActionModel, errors: readonly Diagnostic[]): InlayHint | undefined {
    const brace = GrammarUtils.findNodeForKeyword(action.node.$cstNode, '{');
    if (!brace) return undefined;
    if (action.node.outcome?.summary && !hasStaleOutcome(document, action.node)) return undefined;
    const label = cannotResolveLabel(errors.length);
    const listed = errors.slice(0, 5).map(d => `- line ${d.range.start.line + 1}: ${d.message}`);
    if (errors.length > 5) listed.push(`- and ${errors.length - 5} more`);
    const tooltip: MarkupContent = { kind: MarkupKind.Markdown, value: [`**${label}**: fix ${errors.length === 1 ? 'this' : 'these'} first.`, listed.join('\n')].join('\n\n') };
    return { position: brace.range.end, label, paddingLeft: true, tooltip };
}

/**
 * Before each entered die: the unit it feeds (the rule set's `dieHints`), as a parameter name. A unit
 * numbered like the one before it on the line shows its number only (`Fusiliers#1: 6 #2: 1`).
 */
function dieHints(model: ScenarioModel, action: ActionModel, preview: Preview | undefined): InlayHint[] {
    const hints: InlayHint[] = [];
    let previous: { line: unknown, base: string } | undefined;
    for (const hint of model.ruleset?.dieHints?.(model, action, preview?.resolution) ?? []) {
        const value = GrammarUtils.findNodesForProperty(hint.line.$cstNode, 'values')[hint.index];
        if (!value) continue;
        const numbered = /^(.*)(#\d+)$/.exec(hint.label);
        const base = numbered ? numbered[1] : hint.label;
        const label = numbered && previous?.line === hint.line && previous.base === base ? numbered[2] : hint.label;
        previous = { line: hint.line, base };
        hints.push({ position: value.range.start, label: `${label}:`, paddingRight: true, kind: InlayHintKind.Parameter, tooltip: hint.tooltip });
    }
    return hints;
}

/** `… adjusted 6 vs Defender.Grenz#1` ⟶ `(adjusted 5)` after it: the opponent's own line's figure. */
function opponentHints(outcome: Outcome): InlayHint[] {
    const adjustedOf = new Map<string, number>();
    for (const line of outcome.lines) {
        const fact = line.facts.find(f => f.key === 'adjusted');
        const value = fact ? factValue(fact) : undefined;
        if (typeof value === 'number') adjustedOf.set(targetText(line.unit), value);
    }
    const hints: InlayHint[] = [];
    for (const line of outcome.lines) {
        if (!line.opponent?.$cstNode) continue;
        const theirs = adjustedOf.get(targetText(line.opponent));
        if (theirs === undefined) continue;
        hints.push({ position: line.opponent.$cstNode.range.end, label: `(adjusted ${theirs})`, paddingLeft: true, tooltip: `${targetText(line.opponent)}'s adjusted die in this outcome` });
    }
    return hints;
}
