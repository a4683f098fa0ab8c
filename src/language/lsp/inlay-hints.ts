/**
 * Inline annotations (setting `umpire.inlayHints.enabled`): the result at each action's header;
 * after each die entered from the table, what the rule set says of it (SCRUD: the unit it feeds,
 * with its adjusted die and result);
 * after the opponent of a written outcome line, that opponent's adjusted die, so that each line reads
 * as the comparison it records.
 */
import { GrammarUtils, type LangiumDocument } from 'langium';
import type { InlayHintProvider, LangiumSharedServices } from 'langium/lsp';
import { InlayHintKind, type CancellationToken, type InlayHint, type InlayHintParams, type Range } from 'vscode-languageserver';
import type { Outcome, Scenario } from '../generated/ast.js';
import { modelOf } from '../../core/model-cache.js';
import { factValue, targetText, unquote, type ActionModel, type ScenarioModel } from '../../core/scenario.js';
import { hasStaleOutcome, previewAction, type Preview } from './hover.js';
import { umpireSetting } from './settings.js';

export class BattleInlayHintProvider implements InlayHintProvider {
    constructor(private readonly shared: LangiumSharedServices) {
        // Turning the setting off or on shows at once, not at the next edit.
        shared.workspace.ConfigurationProvider.onConfigurationSectionUpdate(update => {
            if (update.section !== 'umpire') return;
            shared.lsp.Connection?.languages.inlayHint.refresh().catch(() => undefined);
        });
    }

    async getInlayHints(document: LangiumDocument, params: InlayHintParams, _cancelToken?: CancellationToken): Promise<InlayHint[]> {
        if (!await umpireSetting(this.shared, 'inlayHints.enabled', true)) return [];
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
        const preview = previewAction(document, model, action);
        const header = headerHint(document, action, preview);
        if (header) hints.push(header);
        if (preview?.dice.kind !== 'seed') hints.push(...dieHints(model, action, preview));
        if (action.node.outcome) hints.push(...opponentHints(action.node.outcome));
    }
    return hints.filter(h => h.position.line >= range.start.line && h.position.line <= range.end.line);
}

function headerHint(document: LangiumDocument, action: ActionModel, preview: Preview | undefined): InlayHint | undefined {
    const brace = GrammarUtils.findNodeForKeyword(action.node.$cstNode, '{');
    if (!brace) return undefined;
    const outcome = action.node.outcome;
    let label: string;
    let tooltip: string;
    if (outcome?.summary) {
        const stale = hasStaleOutcome(document, action.node);
        label = `${unquote(outcome.summary)}${stale ? ' (stale)' : ''}`;
        tooltip = stale ? 'The written outcome no longer matches this action: resolve it again.' : 'The outcome written below.';
    } else if (preview) {
        label = `${preview.resolution.json.summary} (not written)`;
        tooltip = 'What Resolve will write, from the dice entered or the seed.';
    } else {
        return undefined;
    }
    // Editors cut long hints short (VS Code at 43 characters): the tooltip has the whole result.
    return { position: brace.range.end, label: `→ ${label}`, paddingLeft: true, tooltip: `${label}\n\n${tooltip}` };
}

/** After each entered die: what the rule set says it fed (its `dieHints`). */
function dieHints(model: ScenarioModel, action: ActionModel, preview: Preview | undefined): InlayHint[] {
    const hints: InlayHint[] = [];
    for (const hint of model.ruleset?.dieHints?.(model, action, preview?.resolution) ?? []) {
        const value = GrammarUtils.findNodesForProperty(hint.line.$cstNode, 'values')[hint.index];
        if (value) hints.push({ position: value.range.end, label: hint.label, paddingLeft: true, kind: InlayHintKind.Parameter, tooltip: hint.tooltip });
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
