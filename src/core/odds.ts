/**
 * Exact odds of one action, whatever the rule set, in one shape (docs/json.md "Odds"): the CLI's
 * `umpire odds`, the editor's Odds view and hovers all call `oddsForAction`.
 */
import type { OddsReport } from '../protocol.js';
import { turnLabel, type ActionModel, type ScenarioModel } from './scenario.js';
import type { Unresolvable } from './resolution.js';
import { oddsSizeProblem } from './size-guards.js';

/** Whether odds can be asked for this action at all (for code lenses and hovers). */
export function hasOdds(model: ScenarioModel, action: ActionModel): boolean {
    return model.ruleset?.oddsKinds.includes(action.node.kind) ?? false;
}

/** The exact odds of one action, or why there are none. Never throws. */
export function oddsForAction(model: ScenarioModel, action: ActionModel): OddsReport | Unresolvable {
    const ruleset = model.ruleset;
    if (!ruleset) return { problem: `No odds for the ${model.rules} rules: they are not known.` };
    if (!ruleset.oddsKinds.includes(action.node.kind)) return { problem: `${ruleset.id} has no odds for a '${action.node.kind}' action.` };
    const tooLarge = oddsSizeProblem(model, action);
    if (tooLarge) return tooLarge;
    try {
        const body = ruleset.odds(model, action);
        if ('problem' in body) return body as Unresolvable;
        return { name: action.node.name, kind: action.node.kind, rules: model.rules, turn: turnLabel(action.turn) ?? null, ...body };
    } catch (err) {
        // A bug in an odds engine must not take the editor down with it.
        return { problem: `Could not compute the odds of '${action.node.name}': ${err instanceof Error ? err.message : String(err)}` };
    }
}
