/**
 * A written outcome must still match its engagement: the fingerprint it recorded is compared with
 * one computed from the engagement as it stands, with the dice the outcome says it used.
 */
import type { ValidationAcceptor } from 'langium';
import type { Action } from '../generated/ast.js';
import type { ScenarioModel } from '../../core/scenario.js';
import { isUnresolvable, rulesetPlugin } from '../../core/resolve.js';
import { unquote } from '../../core/scenario.js';
import { Codes } from './codes.js';

export function checkOutcome(model: ScenarioModel, action: Action, accept: ValidationAcceptor): void {
    const outcome = action.outcome;
    if (!outcome || outcome.check === undefined) return;
    const plugin = rulesetPlugin(model.rules);
    const actionModel = model.actions.find(a => a.node === action);
    if (!plugin || !actionModel) return;
    const entered = plugin.hasEnteredDice(model, actionModel);
    if (outcome.entered !== entered) {
        accept('warning', entered
            ? 'This outcome was thrown from a seed, but the engagement now has dice entered from the table: resolve it again.'
            : 'This outcome used dice entered from the table, which are no longer there: resolve it again.',
        { node: outcome, keyword: 'outcome', code: Codes.outcomeStale });
        return;
    }
    const dice = outcome.entered ? { kind: 'entered' as const } : { kind: 'seed' as const, seed: outcome.seed ?? 0 };
    const resolution = plugin.resolve(model, actionModel, dice);
    if (isUnresolvable(resolution)) {
        accept('warning', `This outcome can no longer be worked out: ${resolution.problem} Fix the engagement, then resolve it again.`,
            { node: outcome, keyword: 'outcome', code: Codes.outcomeUnresolvable });
        return;
    }
    if (resolution.json.check !== unquote(outcome.check)) {
        accept('warning', `This outcome no longer matches engagement '${action.name}': its units, factors or dice, or the state carried from earlier outcomes, changed after it was written. Resolve it again.`,
            { node: outcome, keyword: 'outcome', code: Codes.outcomeStale });
    }
}
