/**
 * The odds of a whole campaign (docs/odds.md#campaign-odds): each action's odds over every way the
 * actions before it that are not decided can fall, and each unit's chances at the end of a turn or
 * of the file.
 *
 * A *world* is one way the open actions so far have fallen: the outcome lines each wrote, laid over
 * the parse tree on a model of its own as Resolve all lays new outcomes there (`outcomeNode`,
 * `withOutcomes`; the tree is never changed), so that the one campaign timeline
 * (src/core/campaign-state.ts) carries them and the rules read each later start through
 * `effectiveStats`, as they always do. No second way of laying a state over a unit's stats
 * exists, so a campaign's odds cannot read a start that Resolve would not.
 *
 * The worlds are walked through the actions in the order they are resolved (`resolutionOrder`).
 * Worlds whose units stand in the same state are merged, so the work grows with the number of joint
 * states, not of throws. The exact path asks the rule set for each open action's joint law of
 * outcomes (`Ruleset.campaignOdds`): exact while every action has one within `lawBudget` ways and no
 * more than `maxWorlds` joint states are kept at once. Past that, the campaign is sampled: each world
 * throws each open action from a seed drawn from one stream (pure-rand, as seeded dice are), through
 * the rule set's own `resolve`, so the same seed gives the same figures, and every figure carries its
 * standard error.
 *
 * An action one of whose fighting units is out of the fight in a world (routed, destroyed, fled) cannot
 * be fought as written there (`unit-out-of-action`): in that world it writes nothing, and the action's
 * chance of being fought says how often.
 */
import { uniformInt } from 'pure-rand/distribution/uniformInt';
import { xoroshiro128plus } from 'pure-rand/generator/xoroshiro128plus';
import type { Action, Outcome, Turn } from '../language/generated/ast.js';
import type { OddsReport } from '../protocol.js';
import { participants, quietAfter, resolutionOrder, stateAfterLine, stateAfterTurn, stateAtEnd, turnsOf, unitStateAfter, unitStateAt, type Participation } from './campaign-state.js';
import { counterKeys } from './campaign-counters.js';
import type { UnitCampaignState } from './unit-campaign-state.js';
import { MAX_SEED } from './dice.js';
import { hasOdds, mixSpreads, oddsForAction, withoutSpreadErrors } from './odds.js';
import type { OutcomeLineText, Resolution, Unresolvable } from './resolution.js';
import { outcomeNode } from './resolve-all.js';
import { isUnresolvable, needsNewSeed } from './resolve.js';
import type { OutcomeLaw, Ruleset } from './ruleset.js';
import { outcomeOf, turnLabel, unquote, withOutcomes, type ActionModel, type ScenarioModel, type UnitModel } from './scenario.js';
import { resolveSizeProblem } from './size-guards.js';
import { coreKept } from './kept.js';

/** How a figure over many actions is found: exactly while it stays small, else by seeded sampling. */
export interface SampledOddsOptions {
    /** `exact` fails rather than sample; `monte-carlo` samples; `auto` (the default) is exact while it stays small. */
    method?: 'auto' | 'exact' | 'monte-carlo';
    /** Campaigns (or seasons) sampled (Monte Carlo), 2000 by default. */
    samples?: number;
    /** The seed of the sampling stream, 1 by default: the same seed gives the same figures. */
    seed?: number;
    /** The most ways one action's outcome may fall on the exact path (50,000 by default). */
    lawBudget?: number;
}

export interface CampaignOddsOptions extends SampledOddsOptions {
    /** The turn whose end is asked about (its number, name or title); the end of the file without it. */
    through?: string;
    /**
     * Keep the record: written outcomes and the dice in the file (entered, or an action's own seed) stand,
     * and only the actions not decided yet are open. Without it, every action's dice are open: the
     * campaign's odds before its first die.
     */
    fromRecord?: boolean;
    /** The most joint states the exact path keeps at once (4096 by default). */
    maxWorlds?: number;
}

const CAMPAIGN_ODDS_DEFAULTS = { samples: 2000, seed: 1, maxWorlds: 4096, lawBudget: 50_000 } as const;

/** A count's law (`law[k]` = P(k)), its mean and standard deviation; with a sampled campaign, their standard errors. */
export interface CountLaw {
    law: number[];
    mean: number;
    sd: number;
    se?: { law: number[], mean: number };
}

interface CampaignUnitOdds {
    force: string;
    unit: string;
    id: string;
    /** P(each status at the end): ready, routed, destroyed, fled. */
    status: Record<string, number>;
    /** The rule set's count columns at the end (`Ruleset.campaign.columns`), each as a law. */
    counters: Record<string, CountLaw>;
    /** Standard errors of `status` and of each flag's chance (a sampled campaign). */
    se?: { status: Record<string, number>, [flag: string]: number | Record<string, number> };
    /** P(each of the rule set's flag columns is set at the end), by its name, where the rule set keeps one. */
    [flag: string]: unknown;
}

interface CampaignSideOdds {
    force: string;
    /** P(at least one of the force's units ends in each out-of-the-fight status). */
    atLeastOne: Record<string, number>;
    /** The number of its units in each such status: mean and standard deviation. */
    losses: Record<string, { mean: number, sd: number }>;
    se?: { atLeastOne: Record<string, number>, losses: Record<string, number> };
}

interface CampaignActionOdds {
    name: string;
    kind: string;
    turn: string | null;
    /** Whether its dice were open (not fixed by the record). */
    open: boolean;
    /** P(it is fought as written: none of its fighting units is out of the fight). */
    fought: number;
    /** The units that, in some world, are out of the fight when it comes, with the chance of each. */
    outOfTheFight: Record<string, number>;
    /** How many different starts it has over the worlds. */
    starts: number;
    /** Its odds over every start it is fought from, weighed by their chances (the one-action shape of docs/json.md#odds). */
    odds?: OddsReport;
    /** The standard error of each figure of `odds`, in the same shape (a sampled campaign). */
    oddsSe?: unknown;
    /** Why it has no odds, when it has none. */
    problem?: string;
}

export interface CampaignOddsReport {
    rules: string;
    /** The turn asked about, or null for the end of the file. */
    through: string | null;
    fromRecord: boolean;
    method: 'exact' | 'monte-carlo';
    /** Sampled campaigns and the seed of the stream (Monte Carlo only). */
    samples?: number;
    seed?: number;
    /** The most joint states kept at once. */
    states: number;
    actions: CampaignActionOdds[];
    units: CampaignUnitOdds[];
    sides: CampaignSideOdds[];
    notes: string[];
}

/** One way the open actions so far have fallen: the outcome each wrote, its chance, and (sampled) how many campaigns. */
interface World {
    readonly p: number;
    readonly n: number;
    /** The outcomes written so far, the latest first (shared with the worlds it came from). */
    readonly written: Written | undefined;
    /** The model its timeline was built on, kept while the world is walked: the same outcomes give the same timeline. */
    model?: ScenarioModel;
    /**
     * The states at the end asked about, when the last action's lines are all that the end reads (`endStates`):
     * those of `base`, the tracked units' laid over them from `states` (by their place among the tracked).
     */
    readonly end?: { readonly base: ReadonlyMap<string, UnitCampaignState>, readonly states: ReadonlyArray<UnitCampaignState | undefined> };
    /**
     * The tracked units' states just after the action that made this world, as its outcome left them (`after`,
     * or the world's timeline): what the next action reads when nothing stands between them (`quietAfter`).
     */
    readonly states?: ReadonlyArray<UnitCampaignState | undefined>;
}

/** One action's outcome in a world, and the ones before it: a list whose tail the worlds that came from one share. */
interface Written {
    readonly action: Action;
    readonly lines: readonly OutcomeLineText[];
    readonly before: Written | undefined;
    /** Its outcome block (`withOutcome`), made when a world's model first lays it over the tree. */
    node?: Outcome;
}

/** What one outcome line does to its unit from a world's start: the unit's place among the tracked, its state after and that state's key. */
interface Move {
    readonly i: number;
    readonly state: UnitCampaignState;
    key: string;
}

/** Thrown by the exact path when it would grow past its bounds: the campaign is sampled instead. */
class TooLarge extends Error {}

const carriedFacts = new WeakMap<Ruleset, ReadonlySet<string>>();

/** The facts of an outcome line that the campaign state reads (`applyOutcomeLine` in unit-campaign-state.ts): the rule set's counters', its out-of-the-fight facts, the formation. */
function carriedBy(ruleset: Ruleset): ReadonlySet<string> {
    let found = carriedFacts.get(ruleset);
    if (!found) carriedFacts.set(ruleset, found = new Set([...counterKeys(ruleset.campaign.counters).facts, ...Object.keys(ruleset.campaign.outFacts ?? {}), 'formation']));
    return found;
}

/** A line as the campaign carries it: its unit, its result, and only the facts the state reads. */
function carried(line: OutcomeLineText, ruleset: Ruleset): OutcomeLineText {
    const keys = carriedBy(ruleset);
    return { unit: line.unit, result: line.result, facts: line.facts.filter(([key]) => keys.has(key)) };
}

function stateKey(s: UnitCampaignState | undefined): string {
    if (!s) return '-';
    return `${s.status}|${Object.values(s.counters).map(v => (v === true ? 1 : v === false ? 0 : v)).join('|')}|${s.formation ?? ''}`;
}

/** The odds of a campaign, or why there are none. Never throws on a file's content. */
export function campaignOdds(model: ScenarioModel, options: CampaignOddsOptions = {}): CampaignOddsReport | Unresolvable {
    const ruleset = model.ruleset;
    if (!ruleset) return { problem: `No odds for the ${model.rules} rules: they are not known.` };
    const span = actionsThrough(model, options.through);
    if ('problem' in span) return span;
    const method = options.method ?? 'auto';
    if (method !== 'monte-carlo') {
        try {
            return new CampaignWalk(model, span, options, 'exact').run();
        } catch (err) {
            if (!(err instanceof TooLarge) || method === 'exact') throw err;
            return new CampaignWalk(model, span, options, 'monte-carlo', err.message).run();
        }
    }
    return new CampaignWalk(model, span, options, 'monte-carlo').run();
}

interface Span {
    readonly actions: readonly ActionModel[];
    readonly turn: Turn | undefined;
}

/**
 * The actions the rule set resolves up to the end of the turn asked about (its number, name or title),
 * in the order they are resolved; all of them without one (`odds --campaign --through`, `status --at`).
 */
export function actionsThrough(model: ScenarioModel, through: string | undefined): Span | Unresolvable {
    const resolved = resolutionOrder(model).filter(a => model.ruleset?.kinds.includes(a.node.kind) === true);
    if (through === undefined) return { actions: resolved, turn: undefined };
    const turns = turnsOf(model);
    const turn = turns.find(t => turnLabel(t) === through)
        ?? turns.find(t => t.title !== undefined && unquote(t.title).toLowerCase() === through.toLowerCase());
    if (!turn) return { problem: `there is no turn '${through}' (turns: ${turns.map(t => turnLabel(t)).join(', ') || 'none'})` };
    const last = turns.indexOf(turn);
    const actions: ActionModel[] = [];
    let current = -1;
    for (const a of resolved) {
        if (a.turn) current = turns.indexOf(a.turn);
        // An action between turns belongs to the turn above it, but comes after that turn's end.
        if (current > last || (!a.turn && current === last)) break;
        actions.push(a);
    }
    return { actions, turn };
}

class CampaignWalk {
    private readonly open: ReadonlySet<Action>;
    private readonly tracked: readonly string[];
    private readonly trackedIndex: ReadonlyMap<string, number>;
    /** What this run's worlds' models keep their timelines by (`OutcomeOverlay.run`): not the document's. */
    private readonly runKey = {};
    private readonly samples: number;
    private readonly seed: number;
    private readonly rng;
    private states = 1;
    private readonly notes: string[] = [];
    /** For each action asked about, whether nothing stands between it and the next (or the end): `quietAfter`. */
    private readonly quiet: readonly boolean[];
    /** Every action asked about is open: then the units no open action names stand alike in every world. */
    private readonly allOpen: boolean;

    constructor(private readonly model: ScenarioModel, private readonly span: Span, private readonly options: CampaignOddsOptions,
        private readonly method: 'exact' | 'monte-carlo', why?: string) {
        const open = span.actions.filter(a => !options.fromRecord || (!outcomeOf(model, a.node) && needsNewSeed(model, a)));
        this.open = new Set(open.map(a => a.node));
        this.tracked = [...new Set(open.flatMap(a => participants(model, a.node).map(p => p.unit.id)))];
        this.trackedIndex = new Map(this.tracked.map((id, i) => [id, i]));
        this.samples = Math.max(2, Math.floor(options.samples ?? CAMPAIGN_ODDS_DEFAULTS.samples));
        this.seed = (options.seed ?? CAMPAIGN_ODDS_DEFAULTS.seed) >>> 0;
        this.rng = xoroshiro128plus(this.seed | 0);
        this.quiet = quietAfter(model, span.actions, span.turn);
        this.allOpen = open.length === span.actions.length;
        if (why) this.notes.push(`Sampled: ${why}.`);
    }

    run(): CampaignOddsReport {
        const start: World = { p: 1, n: this.method === 'exact' ? 0 : this.samples, written: undefined };
        let worlds: World[] = [start];
        const actions: CampaignActionOdds[] = [];
        for (const [i, action] of this.span.actions.entries()) {
            const step = this.step(worlds, action, i);
            worlds = step.next;
            actions.push(step.odds);
        }
        const { units, sides } = this.tally(worlds);
        return {
            rules: this.model.rules, through: this.span.turn ? turnLabel(this.span.turn)! : null, fromRecord: this.options.fromRecord === true,
            method: this.method, ...(this.method === 'monte-carlo' ? { samples: this.samples, seed: this.seed } : {}),
            states: this.states, actions, units, sides, notes: this.notes
        };
    }

    /** An outcome with no lines for each open action: what it holds until the world has thrown it. */
    private readonly blank = new Map<Action, Outcome>();

    /**
     * Runs `f` on a model whose open actions read the world's outcomes, laid over the tree (`withOutcomes`:
     * the tree is never changed). Those the world has not thrown yet read a blank one: the states read are
     * all from before them, and the timeline then neither resolves them (an action's own seed) nor makes
     * later ones wait on them.
     */
    private inWorld<T>(world: World, f: (model: ScenarioModel) => T): T {
        if (!world.model) {
            const installed = new Map<Action, Outcome>();
            for (let w = world.written; w; w = w.before) if (!installed.has(w.action)) installed.set(w.action, w.node ??= blankOutcome(w.action, w.lines));
            const outcomes = new Map<Action, Outcome>();
            for (const node of this.open) {
                let blank = this.blank.get(node);
                if (!blank) this.blank.set(node, blank = blankOutcome(node, []));
                outcomes.set(node, installed.get(node) ?? blank);
            }
            // A model of its own: the timeline is cached per model, and built again from the first outcome that differs from the last world's.
            world.model = withOutcomes(this.model, outcomes, this.runKey);
        }
        return f(world.model);
    }

    /**
     * The worlds merged by the state of the units open actions name, as the action sees it. When nothing
     * stands between the action before and this one (`carried`), each world's states are those it carries,
     * told apart already (`keep`): no world's timeline is built to tell them.
     */
    private merged(worlds: readonly World[], action: ActionModel, carried: boolean): readonly World[] {
        let groups: readonly World[] = worlds;
        if (!carried) {
            const byKey = new Map<string, World>();
            for (const w of worlds) {
                const key = this.inWorld(w, m => this.tracked.map(id => stateKey(unitStateAt(m, action, id))).join(';'));
                const seen = byKey.get(key);
                byKey.set(key, seen ? { ...seen, p: seen.p + w.p, n: seen.n + w.n } : w);
            }
            groups = [...byKey.values()];
        }
        this.states = Math.max(this.states, groups.length);
        if (this.method === 'exact' && groups.length > (this.options.maxWorlds ?? CAMPAIGN_ODDS_DEFAULTS.maxWorlds)) {
            throw new TooLarge(`more than ${this.options.maxWorlds ?? CAMPAIGN_ODDS_DEFAULTS.maxWorlds} joint states of the units before ${action.node.kind} ${action.node.name}`);
        }
        return groups;
    }

    private step(worlds: readonly World[], action: ActionModel, index: number): { next: World[], odds: CampaignActionOdds } {
        const last = index === this.span.actions.length - 1;
        // Nothing between the action before and this one: each world's units start from the states it carries.
        const carried = index > 0 && this.quiet[index - 1] && worlds.every(w => w.states !== undefined);
        const groups = this.merged(worlds, action, carried);
        const next: Kept = new Map();
        const isOpen = this.open.has(action.node);
        const out: Record<string, number> = {};
        const fought: Array<{ p: number, n: number, report: OddsReport }> = [];
        const odds = new Map<string, OddsReport | Unresolvable>();
        const laws = new Map<string, OutcomeLaw>();
        const samplers = new Map<string, (seed: number) => readonly OutcomeLineText[] | Unresolvable>();
        // A world's model for each start: the rule set reads only the start of the units it names (as `odds` and `laws` are kept by it).
        const models = new Map<string, ScenarioModel>();
        const parts = participants(this.model, action.node);
        const withOdds = hasOdds(this.model, action);
        // The end asked about, laid under each world's states, when nothing after this action changes a state and the units no open action names stand alike in every world.
        let sharedEnd: ReadonlyMap<string, UnitCampaignState> | undefined;
        let shareEnd = last && isOpen && carried && this.allOpen && this.quiet[index];
        let foughtP = 0, problem: string | undefined;
        for (const w of groups) {
            const before = carried ? w.states! : this.inWorld(w, m => this.tracked.map(id => unitStateAt(m, action, id)));
            const stateOf = (p: Participation) => (carried ? before[this.trackedIndex.get(p.unit.id)!] : this.inWorld(w, m => unitStateAt(m, action, p.unit)));
            const modelOf = (start: string): ScenarioModel => {
                let m = models.get(start);
                if (!m) models.set(start, m = this.inWorld(w, wm => wm));
                return m;
            };
            let end: ReadonlyMap<string, UnitCampaignState> | undefined;
            if (last && isOpen) {
                end = sharedEnd ?? this.inWorld(w, m => this.endAfter(m, action));
                if (shareEnd) { sharedEnd = end; shareEnd = false; }
            }
            const absent = outOfTheFight(parts, stateOf);
            if (absent.length > 0) {
                for (const id of absent) out[id] = (out[id] ?? 0) + w.p;
                // It writes nothing in this world: an empty outcome, so that no later action waits on it.
                keep(next, before.map(stateKey), w.p, w.n, () => (!isOpen ? this.carriedOn(w)
                    // The last action asked about, and nothing after it changes a state: the end is what the world had before it.
                    : end ? { p: w.p, n: w.n, written: w.written, end: { base: end, states: before } } : withOutcome(w, action, [], before)));
                continue;
            }
            foughtP += w.p;
            const start = parts.map(p => `${p.unit.id}=${stateKey(stateOf(p))}`).join(';');
            if (withOdds) {
                let r = odds.get(start);
                if (!r) odds.set(start, r = oddsForAction(modelOf(start), action));
                if (isUnresolvable(r)) problem ??= r.problem; else fought.push({ p: w.p, n: w.n, report: r });
            }
            if (!isOpen) {
                const after = this.inWorld(w, m => this.tracked.map(id => unitStateAfter(m, action, id)));
                keep(next, after.map(stateKey), w.p, w.n, () => ({ ...w, states: after }));
                continue;
            }
            const falls = this.method === 'exact' ? this.cachedLaw(laws, start, modelOf, action) : this.sampled(this.samplerFor(samplers, start, modelOf, action), w);
            const keys = before.map(stateKey);
            // What each line leaves its unit in, from this world's start: worked out once, not once for each way the action falls.
            const moves = new Map<OutcomeLineText, Move | null>();
            for (const fall of falls) {
                const p = this.method === 'exact' ? w.p * fall.p : fall.p, n = (fall as { n?: number }).n ?? 0;
                const fellKeys = [...keys];
                const states = this.after(before, fellKeys, action, fall.lines, moves);
                keep(next, fellKeys, p, n, () => (end ? { p, n, written: w.written, end: { base: end, states } } : withOutcome(w, action, fall.lines, states, p, n)));
            }
        }
        const report: CampaignActionOdds = {
            name: action.node.name, kind: action.node.kind, turn: turnLabel(action.turn) ?? null, open: isOpen,
            fought: foughtP, outOfTheFight: out, starts: odds.size
        };
        if (fought.length > 0) {
            const total = fought.reduce((s, f) => s + f.p, 0);
            const parts = fought.map(f => ({ w: f.p / total, n: f.n, value: f.report as unknown }));
            report.odds = mix(parts) as OddsReport;
            // A mixture's spread is not the mean of its parts' spreads.
            mixSpreads(parts as Array<{ w: number, value: OddsReport }>, report.odds);
            if (this.method === 'monte-carlo') report.oddsSe = withoutSpreadErrors(spread(parts, report.odds));
        } else if (problem) report.problem = problem;
        return { next: worldsOf(next), odds: report };
    }

    /** The law of the action from this start, listed once for every world that starts alike. */
    private cachedLaw(laws: Map<string, OutcomeLaw>, start: string, modelOf: (start: string) => ScenarioModel, action: ActionModel): OutcomeLaw {
        let law = laws.get(start);
        if (!law) laws.set(start, law = this.lawOf(modelOf(start), action));
        return law;
    }

    /** How the action is thrown from a seed from this start: the rule set's sampler, else `resolve` (a failure as a reason). */
    private samplerFor(samplers: Map<string, (seed: number) => readonly OutcomeLineText[] | Unresolvable>, start: string,
        modelOf: (start: string) => ScenarioModel, action: ActionModel): (seed: number) => readonly OutcomeLineText[] | Unresolvable {
        let found = samplers.get(start);
        if (!found) {
            const model = modelOf(start);
            const own = attempt(() => model.ruleset!.campaignOdds?.sampler?.(model, action));
            const sampler = own !== undefined && !isUnresolvable(own) ? own : undefined;
            found = sampler ? seed => attempt(() => sampler(seed)) : seed => {
                const r = resolved(model, action, { kind: 'seed', seed });
                return isUnresolvable(r) ? r : r.lines;
            };
            samplers.set(start, found);
        }
        return found;
    }

    /** A world in which a decided action is not fought: it goes on as it was, its units' states read from its timeline at the next action. */
    private carriedOn(w: World): World {
        return w.states ? { ...w, states: undefined } : w;
    }

    /**
     * The tracked units' states once the action's lines are carried, as the timeline carries them;
     * `keys` (their state keys before) are changed in place for the units the lines name.
     */
    private after(before: ReadonlyArray<UnitCampaignState | undefined>, keys: string[], action: ActionModel, lines: readonly OutcomeLineText[],
        moves: Map<OutcomeLineText, Move | null>): Array<UnitCampaignState | undefined> {
        const states = [...before];
        let moved: number[] | undefined;
        for (const line of lines) {
            let move = moves.get(line);
            if (move === undefined) {
                const i = this.trackedIndex.get(line.unit);
                move = i === undefined || !before[i] ? null : { i, state: stateAfterLine(this.model, before[i]!, action.node, line), key: '' };
                if (move) move.key = stateKey(move.state);
                moves.set(line, move);
            }
            if (!move) continue;
            const i = move.i;
            // A second line for the same unit starts from what the first left (`moves` holds what a line does from the start).
            if (moved?.includes(i)) keys[i] = stateKey(states[i] = stateAfterLine(this.model, states[i]!, action.node, line));
            else { states[i] = move.state; keys[i] = move.key; (moved ??= []).push(i); }
        }
        return states;
    }

    /**
     * The states at the end asked about, when nothing after this action (the last one asked about) changes
     * any unit's state in this world: then, whatever the action writes, the end holds just what its lines
     * leave, and no timeline need be built for each way it falls. Undefined when something does (a `state`
     * or `ruling` line after it): each world's timeline is read at the end.
     */
    private endAfter(model: ScenarioModel, action: ActionModel): ReadonlyMap<string, UnitCampaignState> | undefined {
        const end = this.endStates(model);
        for (const u of this.reportedUnits()) if (end.get(u.id) !== unitStateAfter(model, action, u)) return undefined;
        return end;
    }

    private endStates(model: ScenarioModel): ReadonlyMap<string, UnitCampaignState> {
        return (this.span.turn ? stateAfterTurn(model, turnLabel(this.span.turn)!)?.states : stateAtEnd(model)) ?? stateAtEnd(model);
    }

    /** The open action's exact law in this world: the rule set's, or one outcome when it throws no dice. */
    private lawOf(model: ScenarioModel, action: ActionModel): OutcomeLaw {
        const budget = this.options.lawBudget ?? CAMPAIGN_ODDS_DEFAULTS.lawBudget;
        const tooLarge = resolveSizeProblem(model, action);
        if (tooLarge) throw new TooLarge(`${action.node.kind} ${action.node.name} is too large for its law to be listed`);
        const law = model.ruleset!.campaignOdds?.outcomeLaw(model, action, budget);
        if (law && !isUnresolvable(law)) return mergedLaw(law, model);
        if (law) throw new TooLarge(`${action.node.kind} ${action.node.name} cannot be read: ${law.problem}`);
        if (model.ruleset!.dicePlan?.(model, action)?.steps.length === 0) {
            const r = resolved(model, action, { kind: 'entered' });
            if (!isUnresolvable(r)) return [{ p: 1, lines: r.lines.map(l => carried(l, model.ruleset!)) }];
        }
        throw new TooLarge(`the joint law of ${action.node.kind} ${action.node.name} has more than ${budget} ways to fall, or its rules give none`);
    }

    /**
     * Each of the world's campaigns throws the action from its own seed; those that fall alike are one world.
     * `throwFrom` is the rule set's sampler for the action from this start (`CampaignOddsHooks.sampler`), or
     * `resolve` where it has none.
     */
    private sampled(throwFrom: (seed: number) => readonly OutcomeLineText[] | Unresolvable, w: World): Array<{ p: number, n: number, lines: OutcomeLineText[] }> {
        const ruleset = this.model.ruleset!;
        const byLines = new Map<string, { n: number, lines: OutcomeLineText[] }>();
        for (let i = 0; i < w.n; i++) {
            const seed = uniformInt(this.rng, 0, MAX_SEED - 1);
            const r = throwFrom(seed);
            const lines = isUnresolvable(r) ? [] : (r as readonly OutcomeLineText[]).map(l => carried(l, ruleset));
            const key = lawKey(lines, ruleset);
            const seen = byLines.get(key);
            if (seen) seen.n++; else byLines.set(key, { n: 1, lines });
        }
        return [...byLines.values()].map(({ n, lines }) => ({ p: n / this.samples, n, lines }));
    }

    /** Each unit's and each force's chances at the end, from the last worlds. */
    private tally(worlds: readonly World[]): { units: CampaignUnitOdds[], sides: CampaignSideOdds[] } {
        const ruleset = this.model.ruleset!;
        const columns = ruleset.campaign.columns.filter(c => c.kind === 'count');
        const flags = ruleset.campaign.columns.filter(c => c.kind === 'flag');
        const kinds = [...new Set(Object.values(ruleset.campaign.outResults))];
        const reported = this.reportedUnits();
        const status = reported.map(() => ({ ready: 0, routed: 0, destroyed: 0, fled: 0 } as Record<string, number>));
        const counts = reported.map(() => new Map<string, number[]>(columns.map(c => [c.name, []])));
        const flagged = reported.map(() => flags.map(() => 0));
        const forces = [...new Set(reported.map(u => u.force))];
        const sides = forces.map(() => ({ atLeastOne: Object.fromEntries(kinds.map(k => [k, 0])), m1: Object.fromEntries(kinds.map(k => [k, 0])), m2: Object.fromEntries(kinds.map(k => [k, 0])) }));
        const forceOf = reported.map(u => forces.indexOf(u.force));
        const kindOf = new Map(kinds.map((k, j) => [k, j]));
        const countsOf = reported.map((_, i) => columns.map(c => counts[i].get(c.name)!));
        // What the columns read of each state: worked out once for each state, which many worlds share.
        const read = new Map<UnitCampaignState, { flags: boolean[], counts: number[] }>();
        const lost = forces.map(() => kinds.map(() => 0));
        // The chances are added world by world, in the order the worlds come, as they always were: the same sums to the last digit.
        const trackedAt = reported.map(u => this.trackedIndex.get(u.id));
        for (const w of worlds) {
            const end = w.end;
            const states = end ? end.base : this.inWorld(w, m => this.endStates(m));
            for (const l of lost) l.fill(0);
            for (let i = 0; i < reported.length; i++) {
                const u = reported[i];
                const t = trackedAt[i];
                const s = (end && t !== undefined ? end.states[t] : undefined) ?? states.get(u.id);
                if (!s) continue;
                let r = read.get(s);
                if (!r) read.set(s, r = { flags: flags.map(c => c.value(s.counters, u) === true), counts: columns.map(c => Number(c.value(s.counters, u))) });
                status[i][s.status] += w.p;
                for (let f = 0; f < flags.length; f++) if (r.flags[f]) flagged[i][f] += w.p;
                for (let c = 0; c < columns.length; c++) add(countsOf[i][c], r.counts[c], w.p);
                const k = kindOf.get(s.status);
                if (k !== undefined) lost[forceOf[i]][k]++;
            }
            for (let f = 0; f < forces.length; f++) {
                const side = sides[f];
                for (let j = 0; j < kinds.length; j++) {
                    const k = kinds[j], n = lost[f][j];
                    if (n > 0) side.atLeastOne[k] += w.p;
                    side.m1[k] += w.p * n;
                    side.m2[k] += w.p * n * n;
                }
            }
        }
        const sampled = this.method === 'monte-carlo';
        const seP = (p: number) => Math.sqrt(Math.max(0, p * (1 - p)) / (this.samples - 1));
        const units = reported.map((u, i): CampaignUnitOdds => ({
            force: u.force, unit: u.id.slice(u.force.length + 1), id: u.id, status: status[i],
            counters: Object.fromEntries(columns.map(c => [c.name, countLaw(counts[i].get(c.name)!, sampled ? this.samples : 0)])),
            ...Object.fromEntries(flags.map((c, f) => [c.name, flagged[i][f]])),
            ...(sampled ? { se: { status: mapValues(status[i], seP), ...Object.fromEntries(flags.map((c, f) => [c.name, seP(flagged[i][f])])) } } : {})
        }));
        const sideOdds = forces.map((force, f): CampaignSideOdds => {
            const sd = (k: string) => Math.sqrt(Math.max(0, sides[f].m2[k] - sides[f].m1[k] ** 2));
            return {
                force, atLeastOne: sides[f].atLeastOne,
                losses: Object.fromEntries(kinds.map(k => [k, { mean: sides[f].m1[k], sd: sd(k) }])),
                ...(sampled ? { se: { atLeastOne: mapValues(sides[f].atLeastOne, seP), losses: Object.fromEntries(kinds.map(k => [k, sd(k) / Math.sqrt(this.samples - 1)])) } } : {})
            };
        });
        return { units, sides: sideOdds };
    }

    /** The units the actions asked about name, in the order of their forces' declarations. */
    private reported?: UnitModel[];

    private reportedUnits(): UnitModel[] {
        if (this.reported) return this.reported;
        const ids = new Set(this.span.actions.flatMap(a => participants(this.model, a.node).map(p => p.unit.id)));
        return this.reported = [...this.model.forces.values()].flatMap(f => f.units.filter(u => ids.has(u.id)));
    }
}

/** The world with the action's outcome written (its block made when a model first lays it: `blankOutcome`), and the states it leaves. */
function withOutcome(w: World, action: ActionModel, lines: readonly OutcomeLineText[], states: ReadonlyArray<UnitCampaignState | undefined>, p = w.p, n = w.n): World {
    return { p, n, written: { action: action.node, lines, before: w.written }, states };
}

/** The lines as an outcome block without a fingerprint: one the timeline carries as written. */
function blankOutcome(action: Action, lines: readonly OutcomeLineText[]): Outcome {
    const resolution = { json: { summary: '' }, lines: [...lines], text: [] } as unknown as Resolution;
    const node = outcomeNode(action, resolution, { kind: 'entered' });
    (node as { check?: string }).check = undefined;
    return node;
}

/** Worlds kept by their units' states, each with the chance (and campaigns) of all the worlds merged into it so far. */
type Kept = Map<string, { world: World, p: number, n: number }>;

/**
 * Adds the world to those that leave the tracked units in these states (their keys): worlds that leave the same
 * states are one (the first one's outcomes stand for all), so the work grows with the states, not the
 * throws. `make` writes the world's outcome only when it is the first of its states; the chances are
 * added in the order the worlds come (`worldsOf` gives each kept world its total).
 */
function keep(worlds: Kept, keys: readonly string[], p: number, n: number, make: () => World): void {
    const key = keys.join(';');
    const seen = worlds.get(key);
    if (seen) { seen.p += p; seen.n += n; } else worlds.set(key, { world: make(), p, n });
}

function worldsOf(kept: Kept): World[] {
    const out: World[] = [];
    for (const { world, p, n } of kept.values()) out.push(world.p === p && world.n === n ? world : { ...world, p, n });
    return out;
}

/** The units that fight in the action (or are shot at) but are out of the fight as it starts (`stateOf`: as the action sees them). */
function outOfTheFight(parts: readonly Participation[], stateOf: (p: Participation) => UnitCampaignState | undefined): string[] {
    const out = new Set<string>();
    for (const p of parts) {
        const status = stateOf(p)?.status ?? 'ready';
        if (status === 'ready') continue;
        if (p.role === 'fights' || (p.role === 'target' && status !== 'routed')) out.add(p.unit.id);
    }
    return [...out];
}

/** `f()`, or what it threw as a reason. */
function attempt<T>(f: () => T): T | Unresolvable {
    try {
        return f();
    } catch (err) {
        return { problem: err instanceof Error ? err.message : String(err) };
    }
}

/** Resolves with the given dice through the rule set, a failure as a reason. */
function resolved(model: ScenarioModel, action: ActionModel, dice: { kind: 'seed', seed: number } | { kind: 'entered' }): Resolution | Unresolvable {
    try {
        return model.ruleset!.resolve(model, action, dice);
    } catch (err) {
        return { problem: err instanceof Error ? err.message : String(err) };
    }
}

/** The lines as the campaign tells them apart: a result counts only when it takes a unit out of the fight or brings it back. */
function lawKey(lines: readonly OutcomeLineText[], ruleset: Ruleset): string {
    const outResults = ruleset.campaign.outResults;
    return JSON.stringify(lines.map(l => [l.unit, Object.hasOwn(outResults, l.result) || l.result === 'rallied' ? l.result : '', l.facts]));
}

const mergedLaws = coreKept.table<OutcomeLaw, { ruleset: Ruleset, merged: OutcomeLaw }>({
    name: 'merged laws', keeps: 'an action\'s law with its ways merged by the states they leave',
    keyedBy: 'the law (kept by its action node, `byInput`), with the rule set it was merged under',
    againWhen: 'the law is new, or another rule set reads it'
});

/** `mergeLaw`, once for each law a rule set gives (one it keeps for an input it has seen again is merged once). */
function mergedLaw(law: OutcomeLaw, model: ScenarioModel): OutcomeLaw {
    const seen = mergedLaws.get(law);
    if (seen && seen.ruleset === model.ruleset) return seen.merged;
    const merged = mergeLaw(law, model);
    mergedLaws.set(law, { ruleset: model.ruleset!, merged });
    return merged;
}

/**
 * The law with each line reduced to what the campaign carries, and the entries that fall alike merged
 * (as `lawKey` tells them apart: by `linePart`). A rule set's law may share its line objects among its
 * entries (a unit's few ends): each is told apart and reduced once. Only an entry that is the first of
 * its kind has its lines reduced.
 */
function mergeLaw(law: OutcomeLaw, model: ScenarioModel): OutcomeLaw {
    const ruleset = model.ruleset!;
    const outResults = ruleset.campaign.outResults;
    const kept = carriedBy(ruleset);
    const parts = new Map<OutcomeLineText, string>();
    const reduced = new Map<OutcomeLineText, OutcomeLineText>();
    const reduce = (l: OutcomeLineText) => {
        let r = reduced.get(l);
        if (!r) reduced.set(l, r = carried(l, ruleset));
        return r;
    };
    const byKey = new Map<string, { p: number, lines: OutcomeLineText[] }>();
    for (const entry of law) {
        if (entry.p === 0) continue;
        let key = '';
        for (const l of entry.lines) {
            let part = parts.get(l);
            if (part === undefined) parts.set(l, part = linePart(l, kept, outResults));
            key += part;
        }
        const seen = byKey.get(key);
        if (seen) seen.p += entry.p; else byKey.set(key, { p: entry.p, lines: entry.lines.map(reduce) });
    }
    return [...byKey.values()];
}

/**
 * A line's part of `lawKey`, as a word that ends itself (so that a list of lines is the words one after
 * another): two lines have the same part exactly when `lawKey` reads the same of them (their units, the
 * results that count, the carried facts, each value as JSON writes it).
 */
function linePart(line: OutcomeLineText, kept: ReadonlySet<string>, outResults: Readonly<Record<string, unknown>>): string {
    const result = Object.hasOwn(outResults, line.result) || line.result === 'rallied' ? line.result : '';
    let part = `[${JSON.stringify(line.unit)}${JSON.stringify(result)}`;
    for (const [key, value] of line.facts) {
        if (!kept.has(key)) continue;
        part += `${JSON.stringify(key)}:${typeof value === 'string' ? JSON.stringify(value) : typeof value === 'number' ? (Number.isFinite(value) ? String(value) : 'null') : String(value)},`;
    }
    return `${part}]`;
}

function add(law: number[], k: number, p: number): void {
    const i = Math.max(0, Math.round(k));
    while (law.length <= i) law.push(0);
    law[i] += p;
}

function countLaw(law: number[], samples: number): CountLaw {
    if (law.length === 0) law.push(1);
    const mean = law.reduce((s, p, k) => s + p * k, 0);
    const sd = Math.sqrt(Math.max(0, law.reduce((s, p, k) => s + p * k * k, 0) - mean * mean));
    if (samples === 0) return { law, mean, sd };
    return { law, mean, sd, se: { law: law.map(p => Math.sqrt(Math.max(0, p * (1 - p)) / (samples - 1))), mean: sd / Math.sqrt(samples - 1) } };
}

function mapValues(o: Record<string, number>, f: (v: number) => number): Record<string, number> {
    return Object.fromEntries(Object.entries(o).map(([k, v]) => [k, f(v)]));
}

/**
 * Weighed parts of one shape: each number the weighted mean of the parts', each list of words their union.
 * The parts are many worlds but few reports (one for each start the action has): each report is walked
 * once, its numbers added part by part in the parts' order, as a walk of every part would add them.
 */
function mix(parts: ReadonlyArray<{ w: number, value: unknown }>): unknown {
    const { values, of } = distinct(parts);
    return mixOf(values, of, parts.map(p => p.w), values.map((_, d) => d));
}

/** The parts' values told apart by identity, in the order they first come, and the one each part has. */
function distinct(parts: ReadonlyArray<{ value: unknown }>): { values: unknown[], of: number[] } {
    const index = new Map<unknown, number>();
    const values: unknown[] = [];
    const of = parts.map(p => {
        let d = index.get(p.value);
        if (d === undefined) { index.set(p.value, d = values.length); values.push(p.value); }
        return d;
    });
    return { values, of };
}

/**
 * `mix` over the parts: part i has the value `values[of[i]]` and the weight `w[i]`; `present` lists the values
 * the parts have, in the order they first come (the parts are only ever narrowed by value, so it stays so).
 */
function mixOf(values: readonly unknown[], of: readonly number[], w: readonly number[], present: readonly number[]): unknown {
    const first = values[present[0]];
    if (typeof first === 'number') {
        let s = 0;
        for (let i = 0; i < of.length; i++) {
            const v = values[of[i]];
            s += w[i] * (typeof v === 'number' ? v : 0);
        }
        return s;
    }
    if (Array.isArray(first)) {
        if (first.every(v => typeof v === 'string')) return [...new Set(present.flatMap(d => values[d] as string[]))];
        const length = Math.max(...present.map(d => { const v = values[d]; return Array.isArray(v) ? v.length : 0; }));
        const fill = typeof first[0] === 'number' ? undefined : first;
        return Array.from({ length }, (_, i) => {
            const child: unknown[] = [];
            for (const d of present) child[d] = (values[d] as unknown[])[i] ?? (fill ? fill[i] : 0);
            return mixOf(child, of, w, present);
        });
    }
    if (first !== null && typeof first === 'object') {
        const keys = [...new Set(present.flatMap(d => Object.keys(values[d] as object)))];
        return Object.fromEntries(keys.map(k => {
            const child: unknown[] = [];
            for (const d of present) child[d] = (values[d] as Record<string, unknown>)[k];
            // The parts without the key are left out of its mean.
            const kept = present.filter(d => child[d] !== undefined);
            if (kept.length === present.length) return [k, mixOf(child, of, w, present)];
            const keptOf: number[] = [], keptW: number[] = [];
            for (let i = 0; i < of.length; i++) if (child[of[i]] !== undefined) { keptOf.push(of[i]); keptW.push(w[i]); }
            return [k, mixOf(child, keptOf, keptW, kept)];
        }));
    }
    return first;
}

/**
 * The standard error of each number of `mixed` over sampled campaigns: the spread of the figure from
 * start to start, each start counted by its campaigns. Words and flags are left out.
 */
function spread(parts: ReadonlyArray<{ n: number, value: unknown }>, mixed: unknown): unknown {
    const { values, of } = distinct(parts);
    const n = parts.map(p => p.n);
    return spreadOf(values, of, n, values.map((_, d) => d), n.reduce((s, x) => s + x, 0), mixed);
}

/** `spread` over the parts as `mixOf` has them (`count`: the campaigns of all the parts). */
function spreadOf(values: readonly unknown[], of: readonly number[], n: readonly number[], present: readonly number[], count: number, mixed: unknown): unknown {
    if (typeof mixed === 'number') {
        let sum = 0;
        for (let i = 0; i < of.length; i++) {
            const v = values[of[i]];
            sum += n[i] * ((typeof v === 'number' ? v : 0) - mixed) ** 2;
        }
        return count > 1 ? Math.sqrt(sum / (count - 1) / count) : 0;
    }
    const childOf = (at: (value: unknown) => unknown): unknown[] => {
        const child: unknown[] = [];
        for (const d of present) child[d] = at(values[d]);
        return child;
    };
    if (Array.isArray(mixed)) {
        if (mixed.every(v => typeof v === 'string')) return undefined;
        return mixed.map((m, i) => spreadOf(childOf(v => (v as unknown[])[i] ?? 0), of, n, present, count, m));
    }
    if (mixed !== null && typeof mixed === 'object') {
        const out: Record<string, unknown> = {};
        for (const [k, m] of Object.entries(mixed)) {
            const s = spreadOf(childOf(v => (v as Record<string, unknown>)[k]), of, n, present, count, m);
            if (s !== undefined) out[k] = s;
        }
        return out;
    }
    return undefined;
}
