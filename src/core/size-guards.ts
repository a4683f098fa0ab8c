/**
 * The size guards of resolve and odds (docs/limits.md): an action with a side larger than
 * the limits is refused with a reason instead of throwing thousands of dice or freezing on odds.
 */
import { settingName } from './limits.js';
import { sideUnits } from './scenario.js';
import type { ActionModel, ScenarioModel } from './scenario.js';
import type { Unresolvable } from './resolution.js';

function largestSide(model: ScenarioModel, action: ActionModel): number {
    const sides = sideUnits(model, action.node);
    return sides ? Math.max(sides.attackers.length, sides.defenders.length) : 0;
}

/** Why an action is too large to resolve, or undefined. */
export function resolveSizeProblem(model: ScenarioModel, action: ActionModel): Unresolvable | undefined {
    const n = largestSide(model, action);
    if (n <= model.limits.maxUnitsPerSide) return undefined;
    return { problem: `'${action.node.name}' has a side of ${n} units; an action resolves at most ${model.limits.maxUnitsPerSide} a side (setting ${settingName('maxUnitsPerSide')}).` };
}

/** Why exact odds would take too long, or undefined: the time budget, said instead of freezing. */
export function oddsSizeProblem(model: ScenarioModel, action: ActionModel): Unresolvable | undefined {
    const n = largestSide(model, action);
    if (n <= model.limits.maxOddsUnitsPerSide) return undefined;
    return { problem: `Exact odds for a side of ${n} units would take too long; they are computed up to ${model.limits.maxOddsUnitsPerSide} a side (setting ${settingName('maxOddsUnitsPerSide')}).` };
}
