/**
 * Exact odds of one action, whatever the rule set, in one shape (docs/json.md "Odds"): the CLI's
 * `umpire odds`, the editor's Odds view and hovers all call `oddsForAction`.
 */
import type { ActionModel, RulesetId, ScenarioModel } from './scenario.js';
import { turnLabel } from './scenario.js';
import type { Unresolvable } from './resolution.js';
import { scrudOddsPlugin } from '../rulesets/scrud/scrud-odds-report.js';
import { oddsSizeProblem } from './size-guards.js';
import { ancientsOddsPlugin } from '../rulesets/ancients/ancients-odds-report.js';
import { looseFilesOddsPlugin } from '../rulesets/loose-files/loose-files-odds-report.js';

/** One unit's chances. Probabilities are keyed by the RULES.md result labels and sum to 1. */
export interface UnitOdds {
    force: string;
    /** The unit's name, with `#k` for one of several (as in resolve's JSON). */
    unit: string;
    /** `Force.Unit` or `Force.Unit#k`, as written in the file. */
    id: string;
    probabilities: Record<string, number>;
    /** Cumulative chances along the rule set's ladder of results, e.g. "retire or worse". */
    atLeast?: Record<string, number>;
    /** Ancients: hits[h] = P(exactly h unsaved hits taken). */
    hits?: number[];
    [extra: string]: unknown;
}

export interface SideOdds {
    force: string;
    /** Expected number of the side's units with each label. */
    expected: Record<string, number>;
    /** P(at least one of the side's units gets the label), for the labels the engine computes jointly. */
    atLeastOne: Record<string, number>;
    [extra: string]: unknown;
}

export interface OddsReport {
    name: string;
    kind: string;
    rules: RulesetId;
    turn: string | null;
    units: UnitOdds[];
    sides: SideOdds[];
    /** Anything the umpire should know about these figures (e.g. a joint chance left out). */
    notes: string[];
    [extra: string]: unknown;
}

/** The part of a report a rule set's odds plugin fills in; the action's name, kind and turn are added here. */
export type OddsBody = Pick<OddsReport, 'units' | 'sides' | 'notes'> & Record<string, unknown>;

export interface OddsPlugin {
    readonly id: RulesetId;
    /** The action kinds this rule set has odds for. */
    readonly kinds: readonly string[];
    odds(model: ScenarioModel, action: ActionModel): OddsBody | Unresolvable;
}

const plugins = new Map<RulesetId, OddsPlugin>([scrudOddsPlugin, ancientsOddsPlugin, looseFilesOddsPlugin].map(p => [p.id, p]));

/** Rule sets add their odds here as they land. */
export function registerOdds(plugin: OddsPlugin): void {
    plugins.set(plugin.id, plugin);
}

export function oddsPlugin(id: RulesetId): OddsPlugin | undefined {
    return plugins.get(id);
}

/** Whether odds can be asked for this action at all (for code lenses and hovers). */
export function hasOdds(model: ScenarioModel, action: ActionModel): boolean {
    return plugins.get(model.rules)?.kinds.includes(action.node.kind) ?? false;
}

/** The exact odds of one action, or why there are none. Never throws. */
export function oddsForAction(model: ScenarioModel, action: ActionModel): OddsReport | Unresolvable {
    const plugin = plugins.get(model.rules);
    if (!plugin) return { problem: `No odds for the ${model.rules} rules yet.` };
    if (!plugin.kinds.includes(action.node.kind)) return { problem: `${model.rules} has no odds for a '${action.node.kind}' action.` };
    const tooLarge = oddsSizeProblem(model, action);
    if (tooLarge) return tooLarge;
    try {
        const body = plugin.odds(model, action);
        if ('problem' in body) return body as Unresolvable;
        return { name: action.node.name, kind: action.node.kind, rules: model.rules, turn: turnLabel(action.turn) ?? null, ...body };
    } catch (err) {
        // A bug in an odds engine must not take the editor down with it.
        return { problem: `Could not compute the odds of '${action.node.name}': ${err instanceof Error ? err.message : String(err)}` };
    }
}
