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
        const report: OddsReport = { name: action.node.name, kind: action.node.kind, rules: model.rules, turn: turnLabel(action.turn) ?? null, ...body };
        return asProbabilities(report);
    } catch (err) {
        // A bug in an odds engine must not take the editor down with it.
        return { problem: `Could not compute the odds of '${action.node.name}': ${err instanceof Error ? err.message : String(err)}` };
    }
}

/** How far a law's sum may drift from 1 by rounding before it is scaled back (docs/json.md "Odds"). */
const SUM_TOLERANCE = 1e-12;

/** Clamped into [0, 1]: a sum of products can land a rounding error outside (−6.5e-16, 1.0000000000000007). */
function clamp01(p: number): number {
    return p < 0 ? 0 : p > 1 ? 1 : p;
}

/** Each figure clamped into [0, 1], then scaled so that they sum to 1 if clamping moved the sum. */
function law<T extends number[] | Record<string, number>>(figures: T): T {
    const entries = Object.entries(figures).map(([k, v]) => [k, clamp01(v)] as const);
    const sum = entries.reduce((s, [, v]) => s + v, 0);
    const scaled = sum > 0 && Math.abs(sum - 1) > SUM_TOLERANCE ? entries.map(([k, v]) => [k, v / sum] as const) : entries;
    return (Array.isArray(figures) ? scaled.map(([, v]) => v) : Object.fromEntries(scaled)) as T;
}

function clampAll(figures: Record<string, number>): Record<string, number> {
    return Object.fromEntries(Object.entries(figures).map(([k, v]) => [k, clamp01(v)]));
}

function isNumbers(value: unknown): value is number[] {
    return Array.isArray(value) && value.length > 0 && value.every(v => typeof v === 'number');
}

/**
 * Odds are probabilities, whatever the engine's rounding: every chance in [0, 1], each unit's results
 * and each law (`hits`, `dp`, … indexed by count) summing to 1, expected counts never below 0. Done
 * here once, for every rule set, rather than in each engine.
 */
export function asProbabilities(report: OddsReport): OddsReport {
    const expected = (v: number) => Math.max(0, v);
    const fields = <T extends Record<string, unknown>>(o: T): T => Object.fromEntries(Object.entries(o).map(([k, v]) => {
        if (isNumbers(v)) return [k, law(v)];
        if (typeof v === 'number' && (k.startsWith('expected') || k.startsWith('sd'))) return [k, expected(v)];
        if (typeof v === 'number' && k === 'wins') return [k, clamp01(v)];
        return [k, v];
    })) as T;
    return {
        ...report,
        units: report.units.map(u => ({
            ...fields(u),
            probabilities: law(u.probabilities),
            ...(u.atLeast ? { atLeast: clampAll(u.atLeast) } : {})
        })),
        sides: report.sides.map(s => ({
            ...fields(s),
            expected: Object.fromEntries(Object.entries(s.expected).map(([k, v]) => [k, expected(v)])),
            ...(s.sd ? { sd: Object.fromEntries(Object.entries(s.sd).map(([k, v]) => [k, expected(v)])) } : {}),
            atLeastOne: clampAll(s.atLeastOne)
        }))
    };
}

/** `expectedX` → `sdX`, the key of the standard deviation beside a mean (docs/json.md "Odds"). */
export function sdKey(meanKey: string): string | undefined {
    return meanKey.startsWith('expected') && meanKey.length > 'expected'.length ? `sd${meanKey.slice('expected'.length)}` : undefined;
}

/**
 * The standard deviations of a mixture of odds (the campaign's: one action's odds over the ways the
 * campaign may reach it, weighed by `w`, summing to 1), put in `mixed` in place of the weighted means
 * of the parts' sds that a plain mix leaves: the mixture's variance is Σ w (sd² + mean²) − mean², by
 * the law of total variance. A spread some part lacks (not known exactly there) is left out.
 */
export function mixSpreads(parts: ReadonlyArray<{ w: number, value: OddsReport }>, mixed: OddsReport): void {
    /** The mixture's sd of one figure, from each part's (mean, sd); undefined if a part has no sd of it. */
    const mixture = (mean: number, of: (r: OddsReport) => { mean: unknown, sd: unknown }) => {
        let square = 0;
        for (const p of parts) {
            const { mean: m, sd: d } = of(p.value);
            if (typeof m !== 'number' || typeof d !== 'number') return undefined;
            square += p.w * (d * d + m * m);
        }
        return Math.sqrt(Math.max(0, square - mean * mean));
    };
    const put = (target: Record<string, unknown>, key: string, v: number | undefined) => {
        if (v === undefined) delete target[key];
        else target[key] = v;
    };
    const figures = (targets: ReadonlyArray<Record<string, unknown>>, list: (r: OddsReport) => ReadonlyArray<Record<string, unknown>>) => targets.forEach((t, i) => {
        for (const key of Object.keys(t)) {
            const sd = sdKey(key);
            if (sd && sd in t) put(t, sd, mixture(t[key] as number, r => ({ mean: list(r)[i]?.[key], sd: list(r)[i]?.[sd] })));
        }
    });
    figures(mixed.units, r => r.units);
    figures(mixed.sides, r => r.sides);
    mixed.sides.forEach((side, i) => {
        for (const label of Object.keys(side.sd ?? {})) {
            put(side.sd!, label, mixture(side.expected[label] ?? 0, r => ({ mean: r.sides[i]?.expected[label] ?? 0, sd: r.sides[i]?.sd?.[label] })));
        }
        if (side.sd && Object.keys(side.sd).length === 0) delete side.sd;
    });
}

/**
 * `se` (the standard errors of a sampled campaign's odds, in the odds' shape) without the spreads'
 * entries: the error of a mixture's sd is not the spread of its parts' sds, so none is given.
 */
export function withoutSpreadErrors(se: unknown): unknown {
    const report = se as Partial<OddsReport> | undefined;
    const strip = (o: Record<string, unknown>) => Object.fromEntries(Object.entries(o).filter(([k]) => !(k === 'sd' || /^sd[A-Z]/.test(k))));
    if (!report || !Array.isArray(report.units) || !Array.isArray(report.sides)) return se;
    return { ...report, units: report.units.map(strip), sides: report.sides.map(strip) };
}
