/**
 * A dice plan: which dice an action needs, as requests, in the order its rule set takes them
 * (docs/rules/<id>.md#dice-plan). Most requests are fixed before a die is thrown; some depend on earlier
 * dice (a save for each hit received, a pursuit throw for each winner): those are conditional, with
 * the reason and the most dice they can take.
 *
 * Validation walks the plan against the entered dice (`walkDicePlan` with an auditing source): it
 * counts the fixed dice without resolving, and works out the conditional ones from the dice read
 * before them by the rule that decides, not by resolving and rendering the action.
 *
 * Pure: no Langium, no model.
 */
import type { DiceRequest, DiceSource } from './dice-source.js';

/** A request whose count is known before any die is thrown. */
export interface FixedDice {
    readonly kind: 'fixed';
    readonly request: DiceRequest;
}

/** Requests that depend on dice taken before them. */
export interface ConditionalDice {
    readonly kind: 'conditional';
    /** Why the count depends on earlier dice, as an umpire reads it ("one save per hit received (A5)"). */
    readonly reason: string;
    /** The most dice these requests can take together. */
    readonly upTo: number;
    /**
     * The requests made once the dice before them are known: `earlier[i]` holds the values the
     * plan's i-th request so far received (fixed or conditional, in order). Empty when none is due.
     */
    requests(earlier: ReadonlyArray<readonly number[]>): readonly DiceRequest[];
}

export type DicePlanStep = FixedDice | ConditionalDice;

/** The dice of one action, in the order its rule set takes them. */
export interface DicePlan {
    readonly steps: readonly DicePlanStep[];
}

/** A plan step for a request fixed in advance. */
export function fixedDice(request: DiceRequest): FixedDice {
    return { kind: 'fixed', request };
}

/** The dice the plan takes whatever the dice show. */
export function fixedDiceCount(plan: DicePlan): number {
    return plan.steps.reduce((n, s) => n + (s.kind === 'fixed' ? s.request.count : 0), 0);
}

/** The most dice the plan can take. */
export function mostDiceCount(plan: DicePlan): number {
    return plan.steps.reduce((n, s) => n + (s.kind === 'fixed' ? s.request.count : s.upTo), 0);
}

/**
 * Takes the plan's dice from a source in the plan's order, deciding each conditional step from the
 * values taken before it. Returns every request made with its values. Requests of no dice are made
 * too (a source may record them), so callers see the plan as the rule set wrote it.
 */
export function walkDicePlan(plan: DicePlan, source: DiceSource): Array<{ request: DiceRequest, values: readonly number[] }> {
    const out: Array<{ request: DiceRequest, values: readonly number[] }> = [];
    for (const step of plan.steps) {
        const requests = step.kind === 'fixed' ? [step.request] : step.requests(out.map(t => t.values));
        for (const request of requests) out.push({ request, values: source.take(request) });
    }
    return out;
}
