/**
 * The rule sets the tool resolves, behind one interface, so that the CLI, the language server and
 * the campaign state treat every rule set alike. Each rule set's plugin lives in its own file.
 */
import { isSeed } from '../language/generated/ast.js';
import type { ActionModel, RulesetId, ScenarioModel } from './scenario.js';
import type { DiceChoice, Resolution, Unresolvable } from './resolution.js';
import { scrudPlugin } from '../rulesets/scrud/scrud-report.js';
import { ancientsPlugin } from '../rulesets/ancients/ancients-report.js';
import { looseFilesPlugin } from '../rulesets/loose-files/loose-files-report.js';
import { resolveSizeProblem } from './size-guards.js';

export interface RulesetPlugin {
    readonly id: RulesetId;
    /** The action kinds (`engagement`, `fire`, …) this rule set resolves. */
    readonly kinds: readonly string[];
    /** Whether the umpire typed in the dice thrown on the table for this action. */
    hasEnteredDice(model: ScenarioModel, action: ActionModel): boolean;
    /** Applies the rules. Never throws on a broken action: it says what is missing instead. */
    resolve(model: ScenarioModel, action: ActionModel, dice: DiceChoice): Resolution | Unresolvable;
}

const plugins = new Map<RulesetId, RulesetPlugin>([[scrudPlugin.id, scrudPlugin], [ancientsPlugin.id, ancientsPlugin], [looseFilesPlugin.id, looseFilesPlugin]]);

/** Rule sets are added here as they land; a scenario naming another gets "not supported yet". */
export function registerRuleset(plugin: RulesetPlugin): void {
    plugins.set(plugin.id, plugin);
}

export function rulesetPlugin(id: RulesetId): RulesetPlugin | undefined {
    return plugins.get(id);
}

export function isUnresolvable<T extends object>(value: T | Unresolvable): value is Unresolvable {
    return 'problem' in value;
}

export interface ResolveOptions {
    /** A seed that replaces the action's own (the CLI's `--seed`). */
    seed?: number;
    /** Ignore the action's seed and any recorded one: throw new dice (the Re-roll lens). */
    reroll?: boolean;
    /** Where a new seed comes from when one is needed. */
    newSeed: () => number;
}

/**
 * Which dice an action is resolved with: the dice entered from the table; else the seed asked for;
 * else the action's `seed`; else the seed its written outcome recorded (so resolving again changes
 * nothing); else a new seed, which the written outcome records.
 */
export function chooseDice(model: ScenarioModel, action: ActionModel, options: ResolveOptions): DiceChoice {
    const plugin = rulesetPlugin(model.rules);
    if (plugin?.hasEnteredDice(model, action)) return { kind: 'entered' };
    if (options.seed !== undefined) return { kind: 'seed', seed: options.seed };
    if (!options.reroll) {
        const own = action.node.statements.find(isSeed);
        if (own) return { kind: 'seed', seed: own.value };
        const recorded = action.node.outcome?.seed;
        if (recorded !== undefined) return { kind: 'seed', seed: recorded };
    }
    return { kind: 'seed', seed: options.newSeed() };
}

export function resolveAction(model: ScenarioModel, action: ActionModel, options: ResolveOptions): { resolution: Resolution, dice: DiceChoice } | Unresolvable {
    const plugin = rulesetPlugin(model.rules);
    if (!plugin) return { problem: `The ${model.rules} rules are not supported yet.` };
    if (!plugin.kinds.includes(action.node.kind)) {
        return { problem: `${model.rules} has no '${action.node.kind}' action.` };
    }
    const tooLarge = resolveSizeProblem(model, action);
    if (tooLarge) return tooLarge;
    const dice = chooseDice(model, action, options);
    try {
        const resolution = plugin.resolve(model, action, dice);
        if (isUnresolvable(resolution)) return resolution;
        return { resolution, dice };
    } catch (err) {
        // A bug in a rule set must not take the editor down with it; the umpire is told.
        return { problem: `Could not resolve '${action.node.name}': ${err instanceof Error ? err.message : String(err)}` };
    }
}
