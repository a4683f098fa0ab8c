/**
 * The campaign state of a unit as its hover shows it (src/language/lsp/hover.ts): read from the one
 * timeline (src/core/campaign-state.ts), in the words of the status table (src/core/status-table.ts).
 */
import { stateAtEnd, unitStateAt } from '../../core/campaign-state.js';
import { stateColumns } from '../../core/status-table.js';
import { causeText, lastResultText, statusText } from '../../core/status-words.js';
import type { Action } from '../generated/ast.js';
import type { ActionModel, ScenarioModel, UnitModel } from '../../core/scenario.js';

function actionNode(action: ActionModel | Action): Action {
    return '$type' in action ? action : action.node;
}

/**
 * Markdown for a hover on a unit: its state as the action sees it (before its outcome), or at the end
 * of the file when no action is given. Written to sit under the hover's own title line (the unit's name).
 */
export function stateHoverMarkdown(model: ScenarioModel, unit: UnitModel, atAction?: ActionModel | Action): string {
    const state = atAction ? unitStateAt(model, atAction, unit) : stateAtEnd(model).get(unit.id);
    if (!state) return '';
    const where = atAction ? `before **${actionNode(atAction).name}**` : 'at the end of the file';
    const parts = [`Campaign state ${where}: **${statusText(state)}**`];
    if (state.statusCause && state.status !== 'ready') parts[0] += ` — ${causeText(state.statusCause)}`;
    const facts: string[] = [];
    if (state.lastResult) facts.push(`last result ${lastResultText(state)}`);
    // Each counter in the rule set's words (`Ruleset.campaign.columns`).
    for (const c of stateColumns(model)) {
        const words = c.hover(state.counters, unit);
        if (words !== undefined) facts.push(words);
    }
    if (facts.length > 0) parts.push(facts.join(' · '));
    for (const note of state.notes) parts.push(`_${note}_`);
    return parts.join('\n\n');
}
