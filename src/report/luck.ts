/**
 * How lucky a written result was, against the exact odds faced beforehand (docs/reports.md#luck).
 *
 * A unit's results are ranked by its rule set's ladder (best to worst, ties grouped). For the
 * result it got, with p the law of its results before the dice:
 *   - `atLeastAsGood` = P(a result as good as this one or better): small means the dice were kind;
 *   - `percentile` = P(worse) + ½ P(as good): the mid-rank percentile, 50% is par, high is lucky.
 * The mid-rank percentile has expectation exactly ½ under the unit's own law, whatever the law
 * (Σ p(x)·(F(x−) + p(x)/2) = (Σ p)²/2), so a side's mean over its units, or over a campaign, is
 * exactly 50% on average even though the units' results are not independent.
 *
 * Over a whole campaign, the percentile of a side's sum of these percentiles among every way the written
 * actions' dice could have fallen is ./season-luck.ts.
 */
import type { ScenarioModel, ActionModel } from '../core/scenario.js';
import { targetText } from '../core/scenario.js';
import { oddsForAction } from '../core/odds.js';
import { isUnresolvable } from '../core/resolve.js';
import type { Unresolvable } from '../core/resolution.js';
import type { OddsReport } from '../protocol.js';

export interface UnitLuck {
    id: string;
    force: string;
    result: string;
    atLeastAsGood: number;
    percentile: number;
}

export interface SideLuck {
    force: string;
    /** The units measured (those whose result is on the ladder). */
    units: number;
    /** Mean of their percentiles; exactly 50% on average under the odds. */
    meanPercentile: number;
    /** Per result label: the expected count under the odds, and how many got it. */
    expected: Record<string, number>;
    actual: Record<string, number>;
}

/**
 * The luck of one result, or undefined when the ladder does not rank it or every label the unit
 * could get (a label with a chance off the ladder leaves no exact figure).
 */
export function unitLuck(ladder: ReadonlyArray<readonly string[]>, probabilities: Readonly<Record<string, number>>, result: string): Omit<UnitLuck, 'id' | 'force' | 'result'> | undefined {
    const groupOf = (label: string) => ladder.findIndex(g => g.includes(label));
    const own = groupOf(result);
    if (own < 0) return undefined;
    let better = 0, same = 0, worse = 0;
    for (const [label, p] of Object.entries(probabilities)) {
        if (p <= 0) continue;
        const g = groupOf(label);
        if (g < 0) return undefined;
        if (g < own) better += p; else if (g === own) same += p; else worse += p;
    }
    // A result the odds gave no chance to means the odds and the record disagree (a stale outcome).
    if (same <= 0) return undefined;
    // The odds sum to 1: counted from the worse side, the worst result is exactly 100%, not 99.99…%.
    return { atLeastAsGood: worse === 0 ? 1 : better + same, percentile: worse + same / 2 };
}

/** Adds the luck of units to per-side totals (in the order sides are first met). */
export function sideLuck(units: ReadonlyArray<UnitLuck & { probabilities: Readonly<Record<string, number>> }>): SideLuck[] {
    const sides = new Map<string, SideLuck & { sum: number }>();
    for (const u of units) {
        let s = sides.get(u.force);
        if (!s) sides.set(u.force, s = { force: u.force, units: 0, meanPercentile: 0, expected: {}, actual: {}, sum: 0 });
        s.units++;
        s.sum += u.percentile;
        for (const [label, p] of Object.entries(u.probabilities)) s.expected[label] = (s.expected[label] ?? 0) + p;
        s.actual[u.result] = (s.actual[u.result] ?? 0) + 1;
    }
    return [...sides.values()].map(({ sum, ...s }) => ({ ...s, meanPercentile: s.units ? sum / s.units : 0.5 }));
}

/** A unit's luck with the law it was measured against. */
export type MeasuredLuck = UnitLuck & { probabilities: Readonly<Record<string, number>> };

/** The luck of each written result of the action that its odds rank: none without a written outcome or odds. */
export function measuredLuck(model: ScenarioModel, action: ActionModel, odds: OddsReport | Unresolvable = oddsForAction(model, action)): MeasuredLuck[] {
    const outcome = action.node.outcome;
    if (!outcome) return [];
    if (isUnresolvable(odds)) return [];
    const ladder = model.ruleset?.vocabulary.resultLadder ?? [];
    const byId = new Map(odds.units.map(u => [u.id, u]));
    const luck: MeasuredLuck[] = [];
    for (const line of outcome.lines) {
        const u = byId.get(targetText(line.unit));
        const l = u && unitLuck(ladder, u.probabilities, line.result);
        if (u && l) luck.push({ id: u.id, force: u.force, result: line.result, ...l, probabilities: u.probabilities });
    }
    return luck;
}
