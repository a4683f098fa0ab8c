/**
 * SCRUD in a campaign's odds (docs/odds.md#campaign-odds): the exact joint law of an engagement's
 * results (S4–S6), of which a campaign carries only the routs. Listed throw by throw through the
 * engine, each unit's die as it is thrown (S1, S2), while the throws stay within the budget; a pursuit
 * throw (S-ex.6) changes no state, so it is left to the sampled path.
 */
import { everyThrow } from '../../core/campaign-throws.js';
import type { OutcomeLaw } from '../../core/ruleset.js';
import type { Unresolvable } from '../../core/resolution.js';
import type { ActionModel, ScenarioModel } from '../../core/scenario.js';
import { resolveScrud } from './engine/scrud-engine.js';
import { buildScrudInput, pursuitRuleOf, scrudCombatDice, scrudTables } from './scrud-reader.js';

export function scrudOutcomeLaw(model: ScenarioModel, action: ActionModel, budget: number): OutcomeLaw | Unresolvable | undefined {
    const input = buildScrudInput(model, action.node);
    if (!input) return { problem: `Engagement '${action.node.name}' needs two sides: write 'A attacks B'.` };
    if (pursuitRuleOf(model, action.node)) return undefined;
    const tables = scrudTables(model, action.node);
    const throws = everyThrow(source => resolveScrud(input, scrudCombatDice(input, source), tables), budget);
    return throws?.map(({ p, value }) => ({ p, lines: value.units.map(u => ({ unit: u.id, result: u.result, facts: [] })) }));
}
