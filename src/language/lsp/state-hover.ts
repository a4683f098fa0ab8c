/**
 * The campaign state of a unit as its hover shows it (src/language/lsp/hover.ts): read from the one
 * timeline (src/core/campaign-state.ts), in the words of the status table (src/core/status-table.ts).
 */
import { stateAtEnd, unitStateAt } from '../../core/campaign-state.js';
import { lastResultText, standsText, stateColumns, statusText } from '../../core/status-table.js';
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
    if (state.statusSource && state.status !== 'ready') parts[0] += ` — ${state.statusSource}`;
    const facts: string[] = [];
    if (state.lastResult) facts.push(`last result ${lastResultText(state)}`);
    for (const c of stateColumns(model)) {
        if (c === 'dp') facts.push(`DP ${state.dp}`);
        else if (c === 'casualties') facts.push(`casualties ${state.casualties}`);
        else if (c === 'stands') facts.push(`stands ${standsText(model, unit, state)}`);
        else if (c === 'tokens') facts.push(`damage tokens ${state.tokens}`);
        else if (c === 'tested') facts.push(state.tested ? 'has made a break test' : 'no break test yet (+1)');
        else if (c === 'cp' && state.cpSpent > 0) facts.push(`CP spent ${state.cpSpent}`);
    }
    if (facts.length > 0) parts.push(facts.join(' · '));
    for (const note of state.notes) parts.push(`_${note}_`);
    return parts.join('\n\n');
}
