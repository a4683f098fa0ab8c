/**
 * The one guarded entry point through which every action is resolved, whatever its rule set (the
 * CLI, the editor's Resolve, hovers, previews and the stale-outcome check all come here): size
 * limits first, the dice chosen once, and a rule set's failure turned into a reason, never a throw.
 */
import { isSeed } from '../language/generated/ast.js';
import { outcomeOf, unquote, type ActionModel, type ScenarioModel } from './scenario.js';
import type { DiceChoice, Resolution, Unresolvable } from './resolution.js';
import type { Ruleset } from './ruleset.js';
import { resolveSizeProblem } from './size-guards.js';
import { tablesFor } from './house-rules.js';
import { fingerprint } from './fingerprint.js';
import { firstAlteration, type Alteration } from './outcome-verify.js';
import type { Action, Outcome } from '../language/generated/ast.js';
import { coreKept } from './kept.js';

export function isUnresolvable<T extends object>(value: T | Unresolvable): value is Unresolvable {
    return 'problem' in value;
}

export interface ResolveOptions {
    /** A seed that replaces the action's own (the CLI's `--seed`). */
    seed?: number;
    /** Ignore the action's seed and any recorded one: throw new dice (the Re-roll lens). */
    reroll?: boolean;
    /** Where a new seed comes from when one is needed; `reroll` is the re-roll count it is drawn for. */
    newSeed: (action: ActionModel, reroll: number) => number;
}

/** The rule set of the file, if it resolves this kind of action (what gets lenses). */
export function resolverOf(model: ScenarioModel, action: ActionModel): Ruleset | undefined {
    const ruleset = model.ruleset;
    return ruleset?.kinds.includes(action.node.kind) ? ruleset : undefined;
}

/** Whether the scenario's rule set resolves this kind of action. */
export function isResolvable(model: ScenarioModel, action: ActionModel): boolean {
    return resolverOf(model, action) !== undefined;
}

/**
 * The dice an action is resolved with when no new seed is drawn: the dice entered from the table;
 * else the seed asked for; else the action's `seed`; else the seed its written outcome recorded (so
 * resolving again changes nothing). Undefined when only a new seed would do.
 */
function knownDice(model: ScenarioModel, action: ActionModel, options: Omit<ResolveOptions, 'newSeed'> = {}): DiceChoice | undefined {
    if (model.ruleset?.usesEnteredDice(model, action)) return { kind: 'entered' };
    if (options.seed !== undefined) return { kind: 'seed', seed: options.seed };
    if (options.reroll) return undefined;
    const own = action.node.statements.find(isSeed);
    const outcome = outcomeOf(model, action.node);
    // The re-roll count stays with the seed it was recorded for.
    if (own) return withReroll(own.value, outcome !== undefined && outcome.seed === own.value ? outcome.reroll : undefined);
    const recorded = outcome?.seed;
    return recorded !== undefined ? withReroll(recorded, outcome?.reroll) : undefined;
}

function withReroll(seed: number, reroll: number | undefined): DiceChoice {
    return reroll ? { kind: 'seed', seed, reroll } : { kind: 'seed', seed };
}

/** How many times the action has been re-rolled, as its written outcome records. */
function rerollCount(model: ScenarioModel, action: ActionModel): number {
    return outcomeOf(model, action.node)?.reroll ?? 0;
}

/** Whether resolving the action would draw a new seed (it has no dice, seed or recorded seed). */
export function needsNewSeed(model: ScenarioModel, action: ActionModel, options: Omit<ResolveOptions, 'newSeed'> = {}): boolean {
    return knownDice(model, action, options) === undefined;
}

/**
 * The dice of `knownDice`, else a new seed, which the written outcome records; a Re-roll's seed
 * counts one more re-roll than the outcome it replaces, so that every re-roll shows in the record.
 */
function chooseDice(model: ScenarioModel, action: ActionModel, options: ResolveOptions): DiceChoice {
    const known = knownDice(model, action, options);
    if (known) return known;
    const reroll = options.reroll ? rerollCount(model, action) + 1 : 0;
    return withReroll(options.newSeed(action, reroll), reroll);
}

/** Resolves with the given dice, through the guards: what every path that resolves calls. */
function resolveWith(model: ScenarioModel, action: ActionModel, dice: DiceChoice): Resolution | Unresolvable {
    const ruleset = model.ruleset;
    if (!ruleset) return { problem: `The ${model.rules} rules are not known: nothing can be resolved.` };
    if (!ruleset.kinds.includes(action.node.kind)) return { problem: `${model.rules} has no '${action.node.kind}' action.` };
    const tooLarge = resolveSizeProblem(model, action);
    if (tooLarge) return tooLarge;
    try {
        return withHouseRules(model, action, ruleset.resolve(model, action, dice));
    } catch (err) {
        // A bug in a rule set must not take the editor down with it; the umpire is told.
        return { problem: `Could not resolve '${action.node.name}': ${err instanceof Error ? err.message : String(err)}` };
    }
}

/**
 * The fingerprint of an outcome covers the house rules in force for its action (docs/house-rules.md),
 * so that changing one flags the outcomes it would change as stale. With none, the rule set's own
 * fingerprint stands as it always has.
 */
function withHouseRules(model: ScenarioModel, action: ActionModel, resolution: Resolution | Unresolvable): Resolution | Unresolvable {
    if (isUnresolvable(resolution)) return resolution;
    const house = tablesFor(model, action).changes();
    if (!house) return resolution;
    return { ...resolution, json: { ...resolution.json, check: fingerprint({ check: resolution.json.check, house }) } };
}

type Replay = { resolution: Resolution, dice: DiceChoice } | Unresolvable | undefined;

/**
 * Replays kept per model and action, with the outcome they replayed: the validator, the timeline (which
 * verifies each written outcome before it carries it) and hovers ask for the same one.
 */
const replays = coreKept.table<ScenarioModel, Map<Action, { outcome: Outcome, replay: Replay }>>({
    name: 'replays', keeps: 'each written outcome\'s replay, with the outcome it replayed',
    keyedBy: 'a model, then an action node',
    againWhen: 'the model is new, or the action holds another outcome'
});

/**
 * Resolves a written outcome again from the dice it records (its seed, or the entered dice): what
 * the stale and altered checks and hovers compare the file with.
 */
export function replayOutcome(model: ScenarioModel, action: ActionModel): Replay {
    const outcome = outcomeOf(model, action.node);
    if (!outcome) return undefined;
    let kept = replays.get(model);
    const found = kept?.get(action.node);
    if (found && found.outcome === outcome) return found.replay;
    const dice: DiceChoice = outcome.entered ? { kind: 'entered' } : withReroll(outcome.seed ?? 0, outcome.reroll);
    const resolution = resolveWith(model, action, dice);
    const replay = isUnresolvable(resolution) ? resolution : { resolution, dice };
    if (!kept) replays.set(model, kept = new Map());
    kept.set(action.node, { outcome, replay });
    return replay;
}

/** How a written outcome stands against its action as the file says it now. */
export type OutcomeStatus =
    | { kind: 'none' }
    /** Written by hand, without a fingerprint: the umpire's own. */
    | { kind: 'hand-written' }
    /** Thrown from a seed while dice are now entered, or the other way round. */
    | { kind: 'dice-changed', enteredNow: boolean }
    /** Thrown from one seed while the action's own `seed` line now names another. */
    | { kind: 'seed-changed', recorded: number, own: number }
    | { kind: 'unresolvable', problem: string }
    | { kind: 'current' }
    /**
     * Its fingerprint matches (the inputs are those it was written from) but a line of the block says
     * other than its own dice give: the record was edited by hand (docs/campaigns.md#altered).
     */
    | { kind: 'altered', alteration: Alteration, resolution: Resolution, dice: DiceChoice }
    | { kind: 'stale' };

/** Compares a written outcome's fingerprint with the one its recorded dice give today. */
export function outcomeStatus(model: ScenarioModel, action: ActionModel): OutcomeStatus {
    const outcome = outcomeOf(model, action.node);
    if (!outcome || !model.ruleset) return { kind: 'none' };
    if (outcome.check === undefined) return { kind: 'hand-written' };
    const enteredNow = model.ruleset.usesEnteredDice(model, action);
    if (outcome.entered !== enteredNow) return { kind: 'dice-changed', enteredNow };
    // The action's own seed is what resolving uses (knownDice): an outcome thrown from another seed
    // no longer says what the file would give, however well its fingerprint matches its own dice.
    const own = action.node.statements.find(isSeed);
    if (!enteredNow && own && outcome.seed !== undefined && own.value !== outcome.seed) {
        return { kind: 'seed-changed', recorded: outcome.seed, own: own.value };
    }
    const again = replayOutcome(model, action);
    if (!again) return { kind: 'none' };
    if (isUnresolvable(again)) return { kind: 'unresolvable', problem: again.problem };
    if (again.resolution.json.check !== unquote(outcome.check)) return { kind: 'stale' };
    const alteration = firstAlteration(outcome, again.resolution);
    return alteration ? { kind: 'altered', alteration, ...again } : { kind: 'current' };
}

export function resolveAction(model: ScenarioModel, action: ActionModel, options: ResolveOptions): { resolution: Resolution, dice: DiceChoice } | Unresolvable {
    if (!model.ruleset) return { problem: `The ${model.rules} rules are not known: nothing can be resolved.` };
    if (!model.ruleset.kinds.includes(action.node.kind)) return { problem: `${model.rules} has no '${action.node.kind}' action.` };
    const tooLarge = resolveSizeProblem(model, action);
    if (tooLarge) return tooLarge;
    const dice = chooseDice(model, action, options);
    const resolution = resolveWith(model, action, dice);
    return isUnresolvable(resolution) ? resolution : { resolution, dice };
}

/**
 * The outcome an action without a written one is sure to get from its own dice (entered from the
 * table, or its own `seed`), or undefined when it has none yet or cannot be resolved. The campaign
 * state carries it to later actions, so that `check`, the editor and Resolve all judge them from the
 * same state (a volley after a combat that drove its unit back throws the dice it has left).
 */
export function settledOutcome(model: ScenarioModel, action: ActionModel): Resolution | undefined {
    if (outcomeOf(model, action.node) || !model.ruleset?.kinds.includes(action.node.kind)) return undefined;
    const dice = knownDice(model, action);
    if (!dice) return undefined;
    const resolution = resolveWith(model, action, dice);
    return isUnresolvable(resolution) ? undefined : resolution;
}
