/**
 * Luck over a season (docs/reports.md#season-luck): per side, how the written dice of a whole campaign
 * rank among all the ways they could have fallen.
 *
 * A side's season statistic is T = the sum of the percentiles (./luck.ts) of its measured results, every
 * written outcome taken (the same results, with the same figures, as each engagement's luck). Each action
 * is thrown again from the position it was fought in, what came before as written: the dice of one
 * action are independent of another's, and each action's results fall by its exact odds: a side's one
 * measured unit by its own law, several by the joint law of the outcome (`Ruleset.campaignOdds.outcomeLaw`;
 * the units of one fight are not independent), used only where it tells their results apart. T' is the
 * statistic of such a season thrown again, and
 *   - `percentile` = P(T' < T) + ½ P(T' = T): 50% is par, high is lucky (mid-rank, like a unit's);
 *   - `atLeastAsLucky` = P(T' ≥ T): the chance of a season as lucky as this one or luckier.
 * Exact: each action's law of T per side, convolved over the actions, while every law stays within
 * `lawBudget` ways and the law of the sum within `maxPoints` values. Beyond that, seeded Monte Carlo:
 * every action thrown again from a seed of one stream (pure-rand) through the rule set's own
 * `resolve`, each figure with its standard error, the same seed giving the same figures.
 */
import { uniformInt } from 'pure-rand/distribution/uniformInt';
import { xoroshiro128plus } from 'pure-rand/generator/xoroshiro128plus';
import { MAX_SEED } from '../core/dice.js';
import type { OutcomeLineText, Unresolvable } from '../core/resolution.js';
import { isUnresolvable } from '../core/resolve.js';
import { resolveSizeProblem } from '../core/size-guards.js';
import type { SampledOddsOptions } from '../core/campaign-odds.js';
import type { OutcomeLaw } from '../core/ruleset.js';
import type { ActionModel, ScenarioModel } from '../core/scenario.js';
import { measuredLuck, unitLuck, type MeasuredLuck } from './luck.js';

export interface SeasonLuckOptions extends SampledOddsOptions {
    /** The most values a side's law of T may take on the exact path (100,000 by default). */
    maxPoints?: number;
    /** The most pairs of values the exact path may add up in all, over every action and side (no bound by default). */
    maxWork?: number;
}

/**
 * The editor's figure (`quickSeasonLuck`): the exact path within `maxWork`, else Monte Carlo in which an
 * action is thrown again through the rule set only when its law is not known, at most `throws` times in all.
 */
export interface QuickSeasonOptions extends SeasonLuckOptions {
    /** The most actions thrown again through the rule set's `resolve` over all the samples (500 by default). */
    throws?: number;
    /** Fewer samples than this give no figure (100 by default). */
    minSamples?: number;
}

const QUICK_DEFAULTS = { maxPoints: 20_000, maxWork: 2_000_000, throws: 500, minSamples: 100 } as const;

const DEFAULTS = { samples: 2000, seed: 1, lawBudget: 50_000, maxPoints: 100_000 } as const;

/** Two sums of percentiles closer than this are the same value (a tie). */
const TIE = 1e-9;

interface SeasonSideLuck {
    force: string;
    /** Unit results measured, and the actions they come from. */
    units: number;
    actions: number;
    /** Null for a side with no result measured: no figure, rather than 50%. */
    meanPercentile: number | null;
    percentile: number | null;
    atLeastAsLucky: number | null;
    /** Standard errors (Monte Carlo). */
    se?: { percentile: number, atLeastAsLucky: number };
}

export interface SeasonLuck {
    /** `none`: no written outcome has odds to measure luck against. */
    method: 'exact' | 'monte-carlo' | 'none';
    /** Actions with a measured result. */
    actions: number;
    samples?: number;
    seed?: number;
    /** Why the season was sampled. */
    why?: string;
    sides: SeasonSideLuck[];
}

/** One action's measured results, by side. */
interface Measured {
    action: ActionModel;
    units: MeasuredLuck[];
    /** Each side's law in this action, once found (or why there is none). */
    steps?: Array<{ force: string, step: Map<number, { t: number, p: number }> }> | Sampled;
}

class Sampled extends Error {}

type Observed = ReadonlyMap<string, { t: number, units: number, actions: number }>;

/** The season as written: each action's measured results, the sides, and each side's observed T. */
interface Written {
    measured: Measured[];
    forces: string[];
    observed: Observed;
}

function written(model: ScenarioModel, actions: readonly ActionModel[]): Written {
    const measured: Measured[] = actions.map(action => ({ action, units: measuredLuck(model, action) })).filter(m => m.units.length > 0);
    const forces = [...model.forces.keys()];
    for (const m of measured) for (const u of m.units) if (!forces.includes(u.force)) forces.push(u.force);
    const observed = new Map<string, { t: number, units: number, actions: number }>(forces.map(f => [f, { t: 0, units: 0, actions: 0 }]));
    for (const m of measured) {
        for (const force of new Set(m.units.map(u => u.force))) observed.get(force)!.actions++;
        for (const u of m.units) { const o = observed.get(u.force)!; o.t += u.percentile; o.units++; }
    }
    return { measured, forces, observed };
}

/** Season luck over the given actions (the file's, in the order resolved, by default), or why there is none. */
export function seasonLuck(model: ScenarioModel, actions: readonly ActionModel[], options: SeasonLuckOptions = {}): SeasonLuck | Unresolvable {
    const w = written(model, actions);
    const found = exactOrWhy(model, w, options);
    if (found.luck) return found.luck;
    return sampledSeason(model, w, options, found.why);
}

/**
 * The figure the editor shows (`umpire.fileSummary`): cheap on a long season. Exact while the exact
 * path stays within `maxWork`; else seeded Monte Carlo where each action's side with a known law (its
 * unit's odds, or the action's joint law) draws its value from that law, and only the other actions
 * are thrown again through the rule set, at most `throws` in all (fewer samples on a long season; none
 * below `minSamples`). Each side's figure reads only its own values, so each draws on its own. The
 * same file gives the same figures; sampled, they may differ from `seasonLuck`'s within their errors.
 */
export function quickSeasonLuck(model: ScenarioModel, actions: readonly ActionModel[], options: QuickSeasonOptions = {}): SeasonLuck | Unresolvable {
    const w = written(model, actions);
    const found = exactOrWhy(model, w, { maxPoints: QUICK_DEFAULTS.maxPoints, maxWork: QUICK_DEFAULTS.maxWork, ...options });
    if (found.luck) return found.luck;
    return drawnSeason(model, w, options, found.why);
}

/** The exact figures, `none`, or why the season is to be sampled (or, with `method: 'exact'`, the problem). */
function exactOrWhy(model: ScenarioModel, w: Written, options: SeasonLuckOptions): { luck?: SeasonLuck | Unresolvable, why?: string } {
    const { measured, forces, observed } = w;
    if (measured.length === 0) {
        return { luck: { method: 'none', actions: 0, sides: forces.map(force => ({ force, units: 0, actions: 0, meanPercentile: null, percentile: null, atLeastAsLucky: null })) } };
    }
    const method = options.method ?? 'auto';
    if (method === 'monte-carlo') return {};
    try {
        const laws = exactLaws(model, measured, forces, options);
        return { luck: { method: 'exact', actions: measured.length, sides: forces.map(force => side(force, observed.get(force)!, laws.get(force)!)) } };
    } catch (err) {
        if (!(err instanceof Sampled)) throw err;
        if (method === 'exact') return { luck: { problem: `no exact season luck: ${err.message}` } };
        return { why: err.message };
    }
}

/** A side's figures from its law of T' (value → chance) and its observed T. */
function side(force: string, o: { t: number, units: number, actions: number }, law: ReadonlyMap<number, { t: number, p: number }>): SeasonSideLuck {
    if (o.units === 0) return { force, units: 0, actions: 0, meanPercentile: null, percentile: null, atLeastAsLucky: null };
    let below = 0, tie = 0;
    for (const { t, p } of law.values()) {
        if (t < o.t - TIE) below += p; else if (t <= o.t + TIE) tie += p;
    }
    return { force, units: o.units, actions: o.actions, meanPercentile: o.t / o.units, percentile: below + tie / 2, atLeastAsLucky: Math.min(1, 1 - below) };
}

/** The value a unit's result in a thrown-again action scores: its percentile under the odds it faced. */
function percentileOf(model: ScenarioModel, m: Measured, u: MeasuredLuck, lines: readonly OutcomeLineText[]): number {
    const line = lines.find(l => l.unit === u.id);
    const l = line && unitLuck(model.ruleset?.vocabulary.resultLadder ?? [], u.probabilities, line.result);
    if (!l) throw new Sampled(`the law of ${m.action.node.kind} ${m.action.node.name} gives ${u.id} a result its odds do not rank`);
    return l.percentile;
}

/** Each side's exact law of T', convolved over the actions. */
function exactLaws(model: ScenarioModel, measured: readonly Measured[], forces: readonly string[], options: SeasonLuckOptions): Map<string, Map<number, { t: number, p: number }>> {
    const budget = options.lawBudget ?? DEFAULTS.lawBudget;
    const maxPoints = options.maxPoints ?? DEFAULTS.maxPoints;
    const maxWork = options.maxWork ?? Infinity;
    let work = 0;
    const laws = new Map(forces.map(f => [f, new Map([[0, { t: 0, p: 1 }]])]));
    for (const m of measured) {
        for (const { force, step } of stepLaws(model, m, budget)) {
            const before = laws.get(force)!;
            if (before.size * step.size > maxPoints * 64) throw new Sampled(`the law of ${force}'s season would take more than ${maxPoints} values`);
            if ((work += before.size * step.size) > maxWork) throw new Sampled(`the laws of the season would take more than ${maxWork} sums to add up`);
            const after = new Map<number, { t: number, p: number }>();
            for (const a of before.values()) for (const b of step.values()) addPoint(after, a.t + b.t, a.p * b.p);
            if (after.size > maxPoints) throw new Sampled(`the law of ${force}'s season takes more than ${maxPoints} values`);
            laws.set(force, after);
        }
    }
    return laws;
}

/**
 * Each side's law of its value in one action (value → chance): a side with one measured result, that
 * unit's odds; several, the action's joint law (their results are not independent). Sampled when the
 * joint law cannot be had.
 */
function stepLaws(model: ScenarioModel, m: Measured, budget: number): Array<{ force: string, step: Map<number, { t: number, p: number }> }> {
    // The exact path and then the draws of `quickSeasonLuck` ask for the same laws: each is found once.
    if (m.steps) {
        if (m.steps instanceof Sampled) throw m.steps;
        return m.steps;
    }
    try {
        return m.steps = stepLawsOf(model, m, budget);
    } catch (err) {
        if (err instanceof Sampled) m.steps = err;
        throw err;
    }
}

function stepLawsOf(model: ScenarioModel, m: Measured, budget: number): Array<{ force: string, step: Map<number, { t: number, p: number }> }> {
    const sides = [...new Set(m.units.map(u => u.force))].map(force => ({ force, units: m.units.filter(u => u.force === force) }));
    const law = sides.some(x => x.units.length > 1) ? jointLaw(model, m, budget) : undefined;
    return sides.map(({ force, units }) => {
        const step = new Map<number, { t: number, p: number }>();
        if (units.length === 1) {
            for (const [label, p] of Object.entries(units[0].probabilities)) if (p > 0) addPoint(step, percentileOf(model, m, units[0], [{ unit: units[0].id, result: label, facts: [] }]), p);
        } else {
            for (const entry of law!) {
                if (entry.p <= 0) continue;
                let t = 0;
                for (const u of units) t += percentileOf(model, m, u, entry.lines);
                addPoint(step, t, entry.p);
            }
        }
        return { force, step };
    });
}

/**
 * The rule set's joint law of the action's outcome, when it tells each measured unit's results apart as
 * its odds do (a law may merge results the campaign state does not tell apart: then it cannot rank them).
 */
function jointLaw(model: ScenarioModel, m: Measured, budget: number): OutcomeLaw {
    const name = `${m.action.node.kind} ${m.action.node.name}`;
    if (resolveSizeProblem(model, m.action)) throw new Sampled(`${name} is too large for its law to be listed`);
    const law = model.ruleset?.campaignOdds?.outcomeLaw(model, m.action, budget);
    if (!law) throw new Sampled(`the joint law of ${name} has more than ${budget} ways to fall, or its rules give none`);
    if (isUnresolvable(law)) throw new Sampled(`${name} cannot be read: ${law.problem}`);
    for (const u of m.units) {
        const marginal: Record<string, number> = {};
        for (const entry of law) {
            const line = entry.lines.find(l => l.unit === u.id);
            if (line) marginal[line.result] = (marginal[line.result] ?? 0) + entry.p;
        }
        const labels = new Set([...Object.keys(marginal), ...Object.keys(u.probabilities)]);
        if ([...labels].some(l => Math.abs((marginal[l] ?? 0) - (u.probabilities[l] ?? 0)) > 1e-9)) {
            throw new Sampled(`the joint law of ${name} does not tell ${u.id}'s results apart as its odds do`);
        }
    }
    return law;
}

function addPoint(law: Map<number, { t: number, p: number }>, t: number, p: number): void {
    const key = Math.round(t / TIE);
    const seen = law.get(key);
    if (seen) seen.p += p; else law.set(key, { t, p });
}

/** An action thrown again from a seed through the rule set's `resolve`: the lines it gives, or why it cannot be. */
function thrownAgain(model: ScenarioModel, m: Measured, seed: number): readonly OutcomeLineText[] | Unresolvable {
    try {
        const r = model.ruleset!.resolve(model, m.action, { kind: 'seed', seed });
        if (isUnresolvable(r)) return { problem: `${m.action.node.kind} ${m.action.node.name} cannot be thrown again: ${r.problem}` };
        return r.lines;
    } catch (err) {
        return { problem: `${m.action.node.kind} ${m.action.node.name} cannot be thrown again: ${err instanceof Error ? err.message : String(err)}` };
    }
}

/** Adds the thrown-again action's measured results to each side's value. */
function addThrown(model: ScenarioModel, m: Measured, lines: readonly OutcomeLineText[], t: Map<string, number>): Unresolvable | undefined {
    for (const u of m.units) {
        try {
            t.set(u.force, t.get(u.force)! + percentileOf(model, m, u, lines));
        } catch (err) {
            return { problem: err instanceof Error ? err.message : String(err) };
        }
    }
    return undefined;
}

/** Seasons thrown again, each action from its own seed through the rule set's `resolve`. */
function sampledSeason(model: ScenarioModel, w: Written, options: SeasonLuckOptions, why: string | undefined): SeasonLuck | Unresolvable {
    const samples = Math.max(2, Math.floor(options.samples ?? DEFAULTS.samples));
    return monteCarlo(w, samples, options, why, (rng, t) => {
        for (const m of w.measured) {
            const lines = thrownAgain(model, m, uniformInt(rng, 0, MAX_SEED - 1));
            if (isUnresolvable(lines)) return lines;
            const problem = addThrown(model, m, lines, t);
            if (problem) return problem;
        }
        return undefined;
    });
}

/** A law as a table to draw from: values and their cumulative chances. */
interface Drawable { force: string, values: number[], cumulative: number[] }

function drawable(force: string, step: ReadonlyMap<number, { t: number, p: number }>): Drawable {
    const values: number[] = [], cumulative: number[] = [];
    let c = 0;
    for (const { t, p } of step.values()) { values.push(t); cumulative.push(c += p); }
    return { force, values, cumulative };
}

/** The value at chance u of the law (u uniform in [0, 1)). */
function draw(d: Drawable, u: number): number {
    const x = u * d.cumulative[d.cumulative.length - 1];
    let lo = 0, hi = d.cumulative.length - 1;
    while (lo < hi) {
        const mid = (lo + hi) >> 1;
        if (d.cumulative[mid] > x) hi = mid; else lo = mid + 1;
    }
    return d.values[lo];
}

/** `quickSeasonLuck`'s seasons: each side's value drawn from its law where known, the other actions thrown again. */
function drawnSeason(model: ScenarioModel, w: Written, options: QuickSeasonOptions, why: string | undefined): SeasonLuck | Unresolvable {
    const budget = options.lawBudget ?? DEFAULTS.lawBudget;
    const plans = w.measured.map(m => {
        try {
            return { m, sides: stepLaws(model, m, budget).map(({ force, step }) => drawable(force, step)) };
        } catch (err) {
            if (!(err instanceof Sampled)) throw err;
            return { m, sides: undefined };
        }
    });
    const thrown = plans.filter(p => !p.sides).length;
    const throws = options.throws ?? QUICK_DEFAULTS.throws;
    const samples = Math.max(2, Math.floor(Math.min(options.samples ?? DEFAULTS.samples, thrown === 0 ? Infinity : throws / thrown)));
    const least = options.minSamples ?? QUICK_DEFAULTS.minSamples;
    if (samples < least) return { problem: `${thrown} action${thrown === 1 ? '' : 's'} would be thrown again: more than ${throws} throws for ${least} seasons` };
    return monteCarlo(w, samples, options, why, (rng, t) => {
        for (const { m, sides } of plans) {
            if (sides) {
                for (const d of sides) t.set(d.force, t.get(d.force)! + draw(d, uniformInt(rng, 0, UNIT - 1) / UNIT));
                continue;
            }
            const lines = thrownAgain(model, m, uniformInt(rng, 0, MAX_SEED - 1));
            if (isUnresolvable(lines)) return lines;
            const problem = addThrown(model, m, lines, t);
            if (problem) return problem;
        }
        return undefined;
    });
}

/** Draws of 2^31 steps between 0 and 1. */
const UNIT = 2 ** 31;

/**
 * Each side's season percentile and P(T' ≥ T) over `samples` seasons, each made by `season` from one
 * stream (pure-rand, from the seed), with their standard errors.
 */
function monteCarlo(w: Written, samples: number, options: SampledOddsOptions, why: string | undefined,
    season: (rng: ReturnType<typeof xoroshiro128plus>, t: Map<string, number>) => Unresolvable | undefined): SeasonLuck | Unresolvable {
    const { measured, forces, observed } = w;
    const seed = (options.seed ?? DEFAULTS.seed) >>> 0;
    const rng = xoroshiro128plus(seed | 0);
    const score = new Map(forces.map(f => [f, { mid: 0, mid2: 0, atLeast: 0 }]));
    for (let i = 0; i < samples; i++) {
        const t = new Map(forces.map(f => [f, 0]));
        const problem = season(rng, t);
        if (problem) return problem;
        for (const force of forces) {
            const o = observed.get(force)!.t, x = t.get(force)!, s = score.get(force)!;
            const mid = x < o - TIE ? 1 : x <= o + TIE ? 0.5 : 0;
            s.mid += mid; s.mid2 += mid * mid;
            if (x >= o - TIE) s.atLeast++;
        }
    }
    const se = (m1: number, m2: number) => Math.sqrt(Math.max(0, m2 / samples - (m1 / samples) ** 2) / (samples - 1));
    return {
        method: 'monte-carlo', actions: measured.length, samples, seed, ...(why ? { why } : {}),
        sides: forces.map((force): SeasonSideLuck => {
            const o = observed.get(force)!, s = score.get(force)!;
            if (o.units === 0) return { force, units: 0, actions: 0, meanPercentile: null, percentile: null, atLeastAsLucky: null };
            const atLeast = s.atLeast / samples;
            return {
                force, units: o.units, actions: o.actions, meanPercentile: o.t / o.units, percentile: s.mid / samples, atLeastAsLucky: atLeast,
                se: { percentile: se(s.mid, s.mid2), atLeastAsLucky: se(s.atLeast, s.atLeast) }
            };
        })
    };
}

// ─── The words status, reports and the editor show ───────────────────────────────────────────────

const pct = (p: number) => (p < 0.0005 && p > 0 ? '<0.1%' : p > 0.9995 && p < 1 ? '>99.9%' : `${(p * 100).toFixed(1)}%`);

/** A figure with its standard error when sampled: `31.2% ±1.0`. */
function seasonFigure(p: number | null, se: number | undefined): string {
    if (p === null) return '—';
    return se === undefined ? pct(p) : `${pct(p)} ±${(100 * se).toFixed(1)}`;
}

export const SEASON_HEADER = ['Side', 'Results', 'Mean percentile', 'Season percentile', 'P(as lucky or luckier)'];

/** One row a side: its measured results, their mean percentile, the season percentile and P(T' ≥ T). */
export function seasonRows(luck: SeasonLuck): string[][] {
    return luck.sides.map(s => s.units === 0
        ? [s.force, 'none written', '—', '—', '—']
        : [s.force, `${s.units} in ${s.actions} action${s.actions === 1 ? '' : 's'}`, seasonFigure(s.meanPercentile, undefined),
            seasonFigure(s.percentile, s.se?.percentile), seasonFigure(s.atLeastAsLucky, s.se?.atLeastAsLucky)]);
}

/** The sentence above the table: how the figures were found, or that there are none. */
export function seasonHeading(luck: SeasonLuck | Unresolvable): string {
    if (isUnresolvable(luck)) return `Luck over the season: none (${luck.problem}).`;
    if (luck.method === 'none') return 'Luck over the season: no written outcome has odds to measure luck against.';
    const how = luck.method === 'exact' ? 'exact' : `Monte Carlo over ${luck.samples} seasons from seed ${luck.seed}, ±N the standard error${luck.why ? `; sampled: ${luck.why}` : ''}`;
    return `Luck over the season (${how}): the written dice of ${luck.actions} action${luck.actions === 1 ? '' : 's'} against every way they could have fallen, each action thrown again from where it was fought.`;
}
