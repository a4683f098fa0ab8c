/**
 * Campaign state: what has happened to every unit at any point of the file.
 *
 * The file is the campaign's record, so the state comes from it alone. Walking the file in order,
 * each hand-set `state` line and each `ruling` line sets what it names, and each written outcome
 * changes the units its lines name (docs/campaigns.md lists every key): a result the rule set names
 * in `campaign.outResults` takes a unit out of the fight, and each fact or key changes the counters
 * the rule set declares (`campaign.counters`, src/core/campaign-counters.ts); one unit's state and
 * how one line changes it are in src/core/unit-campaign-state.ts.
 *
 * A unit's declared stats are its counters at the start of the file, as the rule set's counters say.
 * Rule sets read a unit's stats through `effectiveStats`, which lays the state carried to that action
 * over the declared stats, so a later engagement sees what earlier ones left.
 *
 * Pure over the model: no Langium services, no I/O. Built once per model and cached.
 */
import type { AstNode } from 'langium';
import type { Action, Outcome, Target, Turn, UnitState } from '../language/generated/ast.js';
import { needsNewSeed, outcomeStatus, settledOutcome } from './resolve.js';
import type { Resolution } from './resolution.js';
import { isAction, isHouse, isTurn, isUnitState } from '../language/generated/ast.js';
import { actionKey, actionModelOf, contextOf, headerKeyOf, moveEntry, sameReading, sameSettledInputs, type ActionKey } from './model-cache.js';
import { carriedKey, documentKey, factValue, outcomeOf, turnLabel, unitsOf, unquote, type ActionModel, type ScenarioModel, type StatValue, type UnitModel } from './scenario.js';
import { applyOutcomeLine, applyStateLine, declaredState, overlay, type UnitCampaignState } from './unit-campaign-state.js';
import { coreKept } from './kept.js';
import { countsOnly, roles, type Role } from './action-roles.js';

// ─── The timeline ────────────────────────────────────────────────────────────────────────────────

/**
 * Points of the file are numbered in file order: element k (an action or a state line) is point 2k;
 * the written outcome of an action at 2k takes effect at 2k + 1. An action reads the state of the
 * points before it; the end of a turn is after its last element.
 *
 * Built once per model, then still written to: a settled result is worked out only when something
 * reads it (`settle`), so the histories, `outSince` and `settled` grow as the timeline is read.
 */
interface Timeline {
    /** Per unit id, its states in point order (each entry holds from its point on). */
    readonly history: Map<string, Array<{ point: number, state: UnitCampaignState }>>;
    readonly actionPoint: Map<Action, number>;
    readonly statePoint: Map<UnitState, number>;
    /** The point just after each turn's last element. */
    readonly turnEnd: Map<Turn, number>;
    end: number;
    /** The top-level elements that take points, in file order, each with the point it starts at. */
    readonly steps: Step[];
    /**
     * Per force name (as written, declared or not), the first point at which an action, an outcome or a
     * `state` line named it: nothing before reads its units, so an edit of the force keeps the timeline
     * before that point (`keptPart`).
     */
    readonly firstNamed: Map<string, number>;
    /**
     * Per unit id, the first point from which it is out of the fight, as far as the results worked out
     * so far say: a pending result is worked out before any later action or line that names its unit.
     */
    readonly outSince: Map<string, number>;
    /**
     * Per unit id, the first unwritten action its state waits on (one that needs a new seed, or
     * waits itself), and the point from which it does.
     */
    readonly waitsOn: Map<string, Action>;
    readonly waitsSince: Map<string, number>;
    /** The unwritten actions that wait on an undecided one, with that one. */
    readonly waiting: Map<Action, Action>;
    /** The unwritten actions whose outcome is settled and has been worked out, with the outcome their dice give. */
    readonly settled: Map<Action, Resolution>;
    /** The settled actions whose outcome is not worked out yet (in no set order: each has its point). */
    readonly pending: Map<Action, Pending>;
    /**
     * Per unit id, the pending action it takes part in: at most one, since visiting a later action or
     * line that names the unit works the earlier one out first. The unit has no history after it.
     */
    readonly pendingOf: Map<string, Pending>;
    /**
     * Histories this timeline shares with the one it continued, or with the one that continued it:
     * copied before either changes them, since both may still be read (and settle results) after.
     */
    readonly shared: Set<readonly unknown[]>;
    /**
     * Per action, the units it names and those its outcome may write, by id: they depend on the node and
     * the forces alone, so a timeline that continues another with the same forces takes them over, and an
     * edit near the top looks up again none of the actions after it.
     */
    unitIds: WeakMap<Action, ActionUnitIds>;
    /**
     * Counts the pending results that could not be worked out (`settle`): each was settled while pending, and is
     * not since (`settledWatch`).
     */
    unsettled: number;
    /**
     * Counts the times a later model took this timeline over in place, its swapped nodes' entries put under
     * the new nodes (`takeOverSwapped`): a model that held it before reads it no more (`timeline`).
     */
    generation: number;
}

/** The units an action names (its participants), and those its outcome may write a line for (`lineUnits`). */
interface ActionUnitIds {
    readonly named: readonly string[];
    written?: readonly string[];
    /**
     * The models of the forces it names (`forcesNamed` order) the ids were read from: another one, and they are read
     * again. Held weakly: a timeline taken over whole by later models keeps its entries, and a force's model
     * holds its nodes, and through them the tree of the parse they were last part of.
     */
    readonly forces: ReadonlyArray<WeakRef<object> | undefined>;
}

/** An unwritten action whose dice are known: its result is worked out when one of its units is read after it. */
interface Pending {
    readonly action: Action;
    readonly point: number;
    /** Every unit it names (its participants), by id. */
    readonly units: readonly string[];
}

interface Step {
    readonly node: Action | UnitState | Turn;
    readonly start: number;
    /** The outcomes of its actions when it was read, as its model read them (`outcomeOf`: an overlay's too). */
    readonly outcomes: ReadonlyArray<Outcome | undefined>;
}

const timelines = coreKept.table<ScenarioModel, { readonly timeline: Timeline, readonly generation: number }>({
    name: 'timelines', keeps: 'a model\'s campaign timeline (the one every view reads), with the generation of it the model read',
    keyedBy: 'a model',
    againWhen: 'the model is new, or a later model of the file took its timeline over in place (the generation moved on): the model builds its own from the start'
});

/**
 * The timeline last built for each document's tree (by its CST root, which the parse in pieces
 * keeps), or for each run of models with outcomes laid over the tree (`carriedKey`): the next model
 * keeps its part before the first change. A run's first model starts from the document's timeline,
 * which it reads and leaves as it was.
 */
/**
 * How many elements the timelines continued took as kept from the parse's record, without comparing them
 * (before the span the edits changed: `fromRecord`; the steps after it: `tailKept`), how many steps they took over from the timeline they continued, how many of those were new nodes that
 * read as the old ones did (`swapped`), and how many models took the last timeline over whole, as it
 * was (`taken`): tests read them.
 */
export const timelineCounts = { fromRecord: 0, tailKept: 0, stepsKept: 0, swapped: 0, taken: 0, takenSwapped: 0, rebuilt: 0 };

const latest = coreKept.table<object, Built>({
    name: 'last timelines', keeps: 'the timeline last built for a file\'s tree, with its model\'s declarations, which the next model continues from its first changed element',
    keyedBy: 'what carries from a file\'s last model to its next (`carriedKey`: its CST root, or an overlay\'s run)',
    againWhen: 'the rule set, a force, a grade, a modifier, an option, a house block or the header changed (the whole timeline built again), else from the first element that is another node or reads another outcome'
});

/**
 * A timeline with what its model's declarations were: not the model itself, which would keep every
 * cache held per model (factor totals, action keys, tables) one edit longer.
 */
interface Built {
    readonly declared: Declared;
    readonly timeline: Timeline;
    /** The parse's token for the tree it was built on (`ModelContext.edits`), for a model without an overlay. */
    readonly tree?: object;
}

/** `header`: the header's rule set, seal and options as read (`headerKeyOf`: its nodes are new after every edit of it). */
type Declared = Pick<ScenarioModel, 'ruleset' | 'forces' | 'grades' | 'modifiers' | 'options' | 'houses' | 'limits'> & { readonly header: string };

function declaredOf(model: ScenarioModel): Declared {
    const { ruleset, forces, grades, modifiers, options, houses, limits } = model;
    return { ruleset, forces, grades, modifiers, options, houses, limits, header: headerKeyOf(model.root) };
}

function timeline(model: ScenarioModel): Timeline {
    const held = timelines.get(model);
    if (held && held.generation === held.timeline.generation) return held.timeline;
    if (held) return ownTimeline(model);
    let t: Timeline;
    const key = carriedKey(model);
    const before = latest.get(key) ?? (model.overlay ? latest.get(documentKey(model)) : undefined);
    const kept = keptPart(model, before);
    if (before && kept?.whole && !model.overlay) {
        // Every step is the node it was, each force reads as it did: the last timeline is this model's as it
        // is, results worked out since included. The two models read and settle one timeline: what either
        // works out is what the other would (the same nodes, read under the same declarations).
        t = before.timeline;
        timelineCounts.taken++;
    } else if (before && kept && !model.overlay && kept.steps === before.timeline.steps.length && kept.point === before.timeline.end) {
        // Every step kept, some under new nodes that read as the old ones did (white space typed into an
        // engagement): the last timeline is this model's once those nodes' entries are put under the new ones.
        t = before.timeline;
        takeOverSwapped(model, t, kept.swapped);
        timelineCounts.takenSwapped++;
    } else {
        t = emptyTimeline();
        // Cached before it is filled: settling a pending outcome resolves an action, which reads the
        // state of the points before it from this same timeline, already built that far.
        timelines.set(model, { timeline: t, generation: t.generation });
        buildTimeline(model, t, before, kept);
    }
    timelines.set(model, { timeline: t, generation: t.generation });
    latest.set(key, { declared: declaredOf(model), timeline: t, tree: model.overlay ? undefined : contextOf(model.root).edits?.tree });
    return t;
}

/**
 * A timeline built from the start for a model whose timeline a later model took over in place (an
 * older version's model read after an edit, which no view of the current text does): the later
 * model's timeline is left as it is, and goes on being the one the next model continues.
 */
function ownTimeline(model: ScenarioModel): Timeline {
    const t = emptyTimeline();
    timelines.set(model, { timeline: t, generation: t.generation });
    buildTimeline(model, t, undefined, undefined);
    timelineCounts.rebuilt++;
    return t;
}

function emptyTimeline(): Timeline {
    return {
        history: new Map(), actionPoint: new Map(), statePoint: new Map(), turnEnd: new Map(), end: 0,
        steps: [], firstNamed: new Map(), outSince: new Map(),
        waitsOn: new Map(), waitsSince: new Map(), waiting: new Map(), settled: new Map(),
        pending: new Map(), pendingOf: new Map(), shared: new Set(), unitIds: new WeakMap(), unsettled: 0, generation: 0
    };
}

/**
 * Takes a timeline over for a model that keeps all its steps, some under new nodes that read as the old ones
 * did (`swapped`, old → new): each swapped node's point, result, waits and pending result are put under its new
 * node, in place, and the generation moves on, so the models that read it before build their own if they are
 * read again (`timeline`). What this costs is the swapped nodes' and the waiting units', not the file's.
 */
function takeOverSwapped(model: ScenarioModel, t: Timeline, swapped: ReadonlyMap<AstNode, AstNode>): void {
    t.generation++;
    const as = <N>(node: N): N => (swapped.get(node as AstNode) as N | undefined) ?? node;
    for (const [was, now] of swapped) {
        // A turn's element that is the same node in both (the turn alone was parsed again) stays as it is.
        if (was === now) continue;
        moveEntry(t.actionPoint, was as Action, now as Action);
        moveEntry(t.statePoint, was as UnitState, now as UnitState);
        moveEntry(t.turnEnd, was as Turn, now as Turn);
        moveEntry(t.settled, was as Action, now as Action);
        const ids = t.unitIds.get(was as Action);
        if (ids) t.unitIds.set(now as Action, ids);
        const pending = t.pending.get(was as Action);
        if (pending) {
            // A new entry, not the old one changed: a timeline continued from this one may hold the old.
            t.pending.delete(was as Action);
            addPending(t, { action: now as Action, point: pending.point, units: pending.units });
        }
        moveEntry(t.waiting, was as Action, now as Action);
    }
    for (const [action, on] of t.waiting) if (swapped.has(on)) t.waiting.set(action, as(on));
    for (const [id, on] of t.waitsOn) if (swapped.has(on)) t.waitsOn.set(id, as(on));
    for (let i = 0; i < t.steps.length; i++) {
        const step = t.steps[i], now = as(step.node);
        if (now === step.node) continue;
        t.steps[i] = { node: now, start: step.start, outcomes: outcomesOf(model, now) };
        timelineCounts.swapped++;
    }
    timelineCounts.stepsKept += t.steps.length;
    keepSettledResults(swapped);
}

const initialStates = coreKept.table<UnitModel, { ruleset: ScenarioModel['ruleset'], state: UnitCampaignState }>({
    name: 'initial states', keeps: 'a unit\'s state before anything is written about it',
    keyedBy: 'a unit\'s model (kept with its force\'s), with the rule set it was read under',
    againWhen: 'the unit is new, or the rule set changed'
});

/**
 * A unit's state before anything is written about it: what its declaration says. Kept by the unit's
 * model, which is kept with its force's (src/core/scenario.ts): an edit elsewhere makes none again.
 */
function initialState(model: ScenarioModel, unit: UnitModel): UnitCampaignState {
    let kept = initialStates.get(unit);
    // The rule set's counters decide it: a `rules` line changed over a kept force makes it again.
    if (!kept || kept.ruleset !== model.ruleset) initialStates.set(unit, kept = { ruleset: model.ruleset, state: declaredState(unit, model.ruleset) });
    return kept.state;
}

/** Whether the element's actions hold the outcomes they held, as the model reads them (no array made: every kept element is asked). */
function sameOutcomes(model: ScenarioModel, el: Action | UnitState | Turn, outcomes: ReadonlyArray<Outcome | undefined>): boolean {
    // By `$type` (no subtypes among the elements): every kept step is asked at every build.
    if (el.$type === 'Action') return outcomes.length === 1 && outcomeOf(model, el as Action) === outcomes[0];
    if (el.$type !== 'Turn') return outcomes.length === 0;
    let i = 0;
    for (const inner of (el as Turn).elements) if (inner.$type === 'Action' && (i >= outcomes.length || outcomeOf(model, inner as Action) !== outcomes[i++])) return false;
    return i === outcomes.length;
}

function outcomesOf(model: ScenarioModel, el: Action | UnitState | Turn): Array<Outcome | undefined> {
    if (isAction(el)) return [outcomeOf(model, el)];
    if (isTurn(el)) return el.elements.filter(isAction).map(a => outcomeOf(model, a));
    return [];
}

const unitsById = coreKept.table<object, Map<string, UnitModel>>({
    name: 'units by id', keeps: 'a force\'s units by id',
    keyedBy: 'a force\'s model',
    againWhen: 'the force is new'
});

/** The unit with this id (`Force.Unit#2`: a force's name has no dot), found through its force's index, kept with the force's model. */
function unitWithId(model: ScenarioModel, id: string): UnitModel | undefined {
    const dot = id.indexOf('.');
    const force = dot < 0 ? undefined : model.forces.get(id.slice(0, dot));
    if (!force) return undefined;
    let index = unitsById.get(force);
    if (!index) unitsById.set(force, index = new Map(force.units.map(u => [u.id, u])));
    return index.get(id);
}

/**
 * What of an earlier timeline of the same file holds for this model: the steps before the first
 * element that changed (a new node, or a kept action read with another outcome: an overlay's), and before the
 * first action or line that names a force whose model changed (any edit of its text: its units may be
 * others). Everything from there is built again. The timeline resolves the actions not written yet
 * (settled outcomes), which read the grades, modifiers, options and house rules: a change to one of
 * those builds the whole timeline again. Of the forces, a result reads only those of the units it
 * resolves, named at its point or before.
 */
function keptPart(model: ScenarioModel, before: Built | undefined): KeptPart | undefined {
    if (!before || before.declared.ruleset !== model.ruleset) return undefined;
    const old = before.declared, t = before.timeline;
    // Read alike under the same limits and grades (`sameDeclarations`), a node parsed again says what the one it
    // replaced said. Not for a model with outcomes laid over the tree: its outcomes are not its nodes' text.
    const alike = !model.overlay && sameLimits(old.limits, model.limits);
    const changedForces = new Set<string>();
    for (const [name, force] of model.forces) {
        const was = old.forces.get(name);
        // White space typed into a force makes it a new model with the same units: not a change.
        if (was !== force && !(alike && was !== undefined && sameForce(was, force))) changedForces.add(name);
    }
    for (const name of old.forces.keys()) if (!model.forces.has(name)) changedForces.add(name);
    if (!sameDeclarations(old, declaredOf(model))) return undefined;
    const swapped = new Map<AstNode, AstNode>();
    let complete = true;
    let steps = 0;
    const elements = model.root.elements;
    let i = 0;
    // The elements the parse's record says are the same nodes in place since the tree this timeline was built on
    // (a model without an overlay, continuing one without: the same nodes read the same outcomes) are its steps
    // as they were: counted, not compared. The rest are compared, from the first the edits replaced, up to the
    // kept elements after the span the edits changed (`tail`): from the first of those that is its step's node
    // on, the elements are the earlier tree's last ones and the steps the timeline's last ones, in order.
    const change = !model.overlay && before.tree ? contextOf(model.root).edits?.changedSince(before.tree) : undefined;
    const kept = change?.first;
    let tail = change && change.first + change.added <= elements.length ? change.first + change.added : elements.length;
    if (kept !== undefined && kept <= elements.length) {
        let last: unknown;
        for (; i < kept; i++) {
            const el = elements[i];
            if (el.$type === 'Action' || el.$type === 'UnitState' || el.$type === 'Turn') { steps++; last = el; }
        }
        // The record and the timeline disagree (never expected): everything is compared.
        if (steps > t.steps.length || (steps > 0 && t.steps[steps - 1].node !== last)) { i = steps = 0; tail = elements.length; }
        timelineCounts.fromRecord += i;
    }
    // By `$type` (no subtypes among the elements): the reflection's `isX` is slower, and every element is visited on every build.
    // A step that is a new node reading as the old one did (white space typed into an engagement) is the old
    // step under its new node (`swapped`): the steps after it are compared on.
    for (; i < elements.length; i++) {
        const el = elements[i];
        if (el.$type !== 'Action' && el.$type !== 'UnitState' && el.$type !== 'Turn') continue;
        const step = t.steps[steps];
        if (i >= tail && step?.node === el) {
            timelineCounts.tailKept += t.steps.length - steps;
            steps = t.steps.length;
            break;
        }
        if (!step || ((step.node !== el || !sameOutcomes(model, el, step.outcomes)) && !(alike && swapsFor(step.node, el, swapped)))) {
            complete = false;
            break;
        }
        steps++;
    }
    let point = steps < t.steps.length ? t.steps[steps].start : t.end;
    for (const name of changedForces) point = Math.min(point, t.firstNamed.get(name) ?? point);
    // Back to the start of the step that holds the point.
    while (steps > 0 && t.steps[steps - 1].start >= point) steps--;
    if (steps > 0 && point < (steps < t.steps.length ? t.steps[steps].start : t.end)) steps--;
    const whole = complete && steps === t.steps.length && swapped.size === 0;
    return { steps, point: steps < t.steps.length ? t.steps[steps].start : t.end, changedForces, swapped, whole };
}

/**
 * What of an earlier timeline holds for a model: its first `steps` steps, up to `point`; `swapped`, the old
 * nodes among them the model holds as new nodes that read alike (old → new, a turn's elements each); `whole`,
 * every step of the model is the old one's node, none swapped, none added or taken out, and nothing names a
 * changed force.
 */
interface KeptPart {
    readonly steps: number;
    readonly point: number;
    readonly changedForces: ReadonlySet<string>;
    readonly swapped: ReadonlyMap<AstNode, AstNode>;
    readonly whole: boolean;
}

/**
 * Whether a new step reads as the old step did, and if so the old nodes with the new ones that stand for them
 * (a turn's elements pair up in order: elements that read alike are the same elements).
 */
function swapsFor(old: Action | UnitState | Turn, el: Action | UnitState | Turn, swapped: Map<AstNode, AstNode>): boolean {
    if (old.$type !== el.$type || !sameReading(old, el)) return false;
    if (el.$type === 'Turn') {
        const a = (old as Turn).elements, b = (el as Turn).elements;
        if (a.length !== b.length || a.some((inner, j) => inner.$type !== b[j].$type)) return false;
        for (let j = 0; j < a.length; j++) swapped.set(a[j], b[j]);
    }
    swapped.set(old, el);
    return true;
}

/** The same units from the same text: a force parsed again as it read (its grades are the same nodes: `sameDeclarations`), given the same room. */
function sameForce(a: ScenarioModel['forces'] extends ReadonlyMap<string, infer F> ? F : never, b: typeof a): boolean {
    return a.units.length === b.units.length && sameReading(a.node, b.node);
}

function sameLimits(a: ScenarioModel['limits'], b: ScenarioModel['limits']): boolean {
    if (a === b) return true;
    const keys = Object.keys(a) as Array<keyof typeof a>;
    return keys.length === Object.keys(b).length && keys.every(k => a[k] === b[k]);
}

/** The grades, modifiers and house rules the actions' resolutions read are the same nodes, and the options and the rest of the header read the same. */
function sameDeclarations(a: Declared, b: Declared): boolean {
    const sameMap = <V>(x: ReadonlyMap<string, V>, y: ReadonlyMap<string, V>) => x.size === y.size && [...x].every(([k, v]) => y.get(k) === v);
    return sameMap(a.grades, b.grades) && sameMap(a.modifiers, b.modifiers) && sameMap(a.options, b.options)
        && a.houses.length === b.houses.length && a.houses.every((h, i) => h.node === b.houses[i].node && h.turn === b.houses[i].turn)
        && a.header === b.header;
}

function buildTimeline(model: ScenarioModel, t: Timeline, before: Built | undefined, kept: KeptPart | undefined): void {
    const P = kept?.point ?? 0;
    if (kept && before) {
        keepBefore(model, t, before.timeline, kept.steps, P, kept.swapped);
        timelineCounts.stepsKept += kept.steps;
        // The same forces (`keptPart`): every action names the units it named.
        t.unitIds = before.timeline.unitIds;
    }
    const waitsOn = t.waitsOn;
    const turnOf = (el: Action): Turn | undefined => (isTurn(el.$container) ? el.$container : undefined);
    let k = P / 2;
    const visit = (el: unknown) => {
        if (isAction(el)) {
            const point = 2 * k++;
            const outcome = outcomeOf(model, el);
            t.actionPoint.set(el, point);
            for (const force of forcesNamed(el)) if (!t.firstNamed.has(force)) t.firstNamed.set(force, point);
            const resolvable = model.ruleset?.kinds.includes(el.kind) === true;
            // Needed for an unwritten action (it may wait or settle), and to work out, before this action
            // is read, the pending results of the units it names: the out-of-action check reads `outSince`.
            const ids = resolvable && (!outcome || t.pendingOf.size > 0) ? unitIdsOf(model, t, el) : undefined;
            const units = ids ? ids.named : NO_IDS;
            settleUnits(model, t, units);
            const turn = turnOf(el);
            const altered = outcome?.check !== undefined ? alteredReplay(model, el) : undefined;
            if (altered) {
                // A block edited by hand (`outcome-altered`): the state builds on what its dice give, never on the edit.
                for (const line of altered.lines) carry(model, t, el, turn, point, unitsNamed(model, line.unit), line.result, line.facts);
            } else if (outcome) {
                for (const line of outcome.lines) {
                    // A half-typed line (no unit or result yet) changes nothing; the parser reports it.
                    if (!line.unit || line.result === undefined) continue;
                    named(t, line.unit, point);
                    carry(model, t, el, turn, point, unitsOf(model, line.unit), line.result, line.facts.map(f => [f.key, factValue(f)] as const));
                }
            } else if (resolvable && actionModelOf(model, el)) {
                // Not written yet. If its dice are in the file (entered, its own seed, or none thrown) and
                // nothing it starts from is undecided, its outcome is settled: Resolve will write exactly
                // this, so later actions see it (docs/campaigns.md#settled). It is worked out when a later
                // action, line or view reads one of its units (`settle`): most units of a season fight
                // once, and resolving every engagement at every edit was most of a check's time. If it needs
                // a new seed, or one of its units waits on an action that does, nothing is decided yet: the
                // units its outcome writes wait on that action from here on (a unit it names only by a
                // `factor` or `dice` line keeps its state whatever the outcome, and waits on nothing).
                const blocker = units.map(id => waitsOn.get(id)).find(a => a !== undefined);
                if (blocker) t.waiting.set(el, blocker);
                const undecided = blocker ?? (needsNewSeed(model, actionModelOf(model, el)!) ? el : undefined);
                const written = ids!.written ??= lineUnits(model, el);
                if (undecided) {
                    for (const id of written) if (!waitsOn.has(id)) { waitsOn.set(id, undecided); t.waitsSince.set(id, point); }
                } else addPending(t, { action: el, point, units: written });
            }
        } else if (isUnitState(el)) {
            const point = 2 * k++;
            t.statePoint.set(el, point);
            named(t, el.target, point);
            for (const u of el.target ? unitsOf(model, el.target) : []) setState(t, point, applyStateLine(model.ruleset, currentOf(model, t, u), el, u));
        } else if (isTurn(el)) {
            resolutionOrderOfTurn(model, el).forEach(visit);
            t.turnEnd.set(el, 2 * k);
        }
    };
    let index = 0;
    for (const el of model.root.elements) {
        if (el.$type !== 'Action' && el.$type !== 'UnitState' && el.$type !== 'Turn') continue;
        if (index++ < t.steps.length) continue;
        t.steps.push({ node: el, start: 2 * k, outcomes: outcomesOf(model, el) });
        visit(el);
    }
    t.end = 2 * k;
}

const NO_IDS: readonly string[] = [];

/** The units the action names, by id, as `participants` lists them (kept per node: see `Timeline.unitIds`). */
function unitIdsOf(model: ScenarioModel, t: Timeline, action: Action): ActionUnitIds {
    let ids = t.unitIds.get(action);
    if (!ids || !sameForces(model, action, ids.forces)) {
        t.unitIds.set(action, ids = { named: participants(model, action).map(p => p.unit.id), forces: forcesNamed(action).map(name => weakly(model.forces.get(name))) });
    }
    return ids;
}

/** Whether the forces the action names have the models they had (a force edited is a new model: its units may be others). */
function sameForces(model: ScenarioModel, action: Action, forces: ReadonlyArray<WeakRef<object> | undefined>): boolean {
    const names = forcesNamed(action);
    for (let i = 0; i < names.length; i++) {
        const force = model.forces.get(names[i]), was = forces[i];
        // A model gone is not this one: the ids are read again.
        if (force === undefined ? was !== undefined : was?.deref() !== force) return false;
    }
    return true;
}

function weakly(force: object | undefined): WeakRef<object> | undefined {
    return force === undefined ? undefined : new WeakRef(force);
}

const forcesOfAction = coreKept.table<Action, readonly string[]>({
    name: 'action forces', keeps: 'the names of the forces an action\'s references name, each once',
    keyedBy: 'an action node',
    againWhen: 'the node is new'
});

/** The forces an action's references name, by name as written (declared or not), each once in order. */
function forcesNamed(action: Action): readonly string[] {
    let found = forcesOfAction.get(action);
    if (!found) {
        // An action names a few forces: a list searched beats a set made for each action of a build.
        const names: string[] = [];
        for (const { target } of roles(action)) if (target.force && !names.includes(target.force.$refText)) names.push(target.force.$refText);
        forcesOfAction.set(action, found = names);
    }
    return found;
}

/**
 * The units an action's outcome may write a line for: those a side, a relation, a split or a facts
 * line names. A `factor` or `dice` line only adds to a unit named so (a factor on a whole force
 * names every unit of it, most of which fight elsewhere): a unit named only there waits on no
 * pending result of this action. test/core/campaign-settle-on-read.test.ts holds every rule set's
 * outcomes of the examples to this.
 */
function lineUnits(model: ScenarioModel, action: Action): string[] {
    const ids = new Set<string>();
    for (const { target } of roles(action)) if (!countsOnly(target)) for (const u of unitsOf(model, target)) ids.add(u.id);
    return [...ids];
}

/**
 * The part of the earlier timeline before point P, taken into this one: its steps and points, and
 * each unit's history before P (a history wholly before P is shared, not copied: see `shared`), the
 * results worked out before P and the settled actions before P still pending, worked out here when read.
 * A node this model holds as a new node that reads alike (`swapped`) is taken under its new node: its
 * point, its result, whether it waits and on what, as the old one's.
 */
function keepBefore(model: ScenarioModel, t: Timeline, old: Timeline, keptSteps: number, P: number, swapped: ReadonlyMap<AstNode, AstNode>): void {
    const as = swapped.size === 0 ? <N>(node: N): N => node : <N>(node: N): N => (swapped.get(node as AstNode) as N | undefined) ?? node;
    // A force whose units changed has no state before P: nothing before P names it (`keptPart`).
    for (const [id, h] of old.history) {
        if (h.length === 0 || h[0].point >= P) continue;
        if (h[h.length - 1].point < P) {
            t.history.set(id, h);
            t.shared.add(h);
            old.shared.add(h);
        } else t.history.set(id, h.filter(e => e.point < P));
    }
    for (let i = 0; i < keptSteps; i++) {
        const step = old.steps[i];
        const el = step.node;
        const now = as(el);
        if (now === el) t.steps.push(step);
        else {
            t.steps.push({ node: now, start: step.start, outcomes: outcomesOf(model, now) });
            timelineCounts.swapped++;
        }
        if (el.$type === 'Action') t.actionPoint.set(now as Action, old.actionPoint.get(el as Action)!);
        else if (el.$type === 'UnitState') t.statePoint.set(now as UnitState, old.statePoint.get(el as UnitState)!);
        else {
            for (const inner of (el as Turn).elements) {
                if (inner.$type === 'Action') t.actionPoint.set(as(inner), old.actionPoint.get(inner)!);
                else if (inner.$type === 'UnitState') t.statePoint.set(as(inner), old.statePoint.get(inner)!);
            }
            t.turnEnd.set(now as Turn, old.turnEnd.get(el as Turn)!);
        }
    }
    for (const [name, point] of old.firstNamed) if (point < P) t.firstNamed.set(name, point);
    for (const [id, point] of old.outSince) if (point < P) t.outSince.set(id, point);
    for (const [id, point] of old.waitsSince) if (point < P) { t.waitsSince.set(id, point); t.waitsOn.set(id, as(old.waitsOn.get(id)!)); }
    for (const [action, on] of old.waiting) if (old.actionPoint.get(action)! < P) t.waiting.set(as(action), as(on));
    for (const [action, outcome] of old.settled) if (old.actionPoint.get(action)! < P) t.settled.set(as(action), outcome);
    // Pending there, pending here: the same dice and the same state before it give the same result.
    for (const pending of old.pending.values()) {
        if (pending.point >= P) continue;
        const action = as(pending.action);
        addPending(t, action === pending.action ? pending : { action, point: pending.point, units: pending.units });
    }
    keepSettledResults(swapped);
}

/** A result kept for a swapped action is its new node's too (read only under the key it was worked out with). */
function keepSettledResults(swapped: ReadonlyMap<AstNode, AstNode>): void {
    for (const [was, now] of swapped) {
        const result = was.$type === 'Action' ? settledResults.get(was as Action) : undefined;
        if (result && !settledResults.has(now as Action)) settledResults.set(now as Action, result);
    }
}

function addPending(t: Timeline, pending: Pending): void {
    t.pending.set(pending.action, pending);
    for (const id of pending.units) t.pendingOf.set(id, pending);
}

function named(t: Timeline, target: Target | undefined, point: number): void {
    const force = target?.force?.$refText;
    if (force !== undefined && !t.firstNamed.has(force)) t.firstNamed.set(force, point);
}

/** The units an outcome line names: a unit by its id, or every unit of a force. */
function unitsNamed(model: ScenarioModel, id: string): readonly UnitModel[] {
    const unit = unitWithId(model, id);
    return unit ? [unit] : model.forces.get(id)?.units ?? [];
}

/** The unit's latest state in the timeline, its pending result worked out first. */
function currentOf(model: ScenarioModel, t: Timeline, unit: UnitModel): UnitCampaignState {
    const pending = t.pendingOf.get(unit.id);
    if (pending) settle(model, t, pending);
    const h = t.history.get(unit.id);
    return h && h.length > 0 ? h[h.length - 1].state : initialState(model, unit);
}

/** One outcome line carried to the units it names, from the point after its action. */
function carry(model: ScenarioModel, t: Timeline, el: Action, turn: Turn | undefined, point: number, unitsOfLine: readonly UnitModel[], result: string,
    facts: ReadonlyArray<readonly [string, StatValue]>): void {
    const at = { kind: el.kind, name: el.name, turn: turnLabel(turn) };
    // Settled, not written yet: the same result, said to be not written where it is shown.
    const action = el.name, label = turnLabel(turn);
    const last = outcomeOf(model, el) ? { result, action, turn: label } : { result, action, turn: label, settled: true as const };
    for (const u of unitsOfLine) {
        const h = t.history.get(u.id);
        // A line for a unit its action does not name (no rule set writes one): laid in at its point.
        const before = h && h.length > 0 && h[h.length - 1].point > point + 1 ? stateBefore(model, t, u.id, point + 2) : currentOf(model, t, u);
        setState(t, point + 1, applyOutcomeLine(model.ruleset, before, last, facts, at));
    }
}

function stateBefore(model: ScenarioModel, t: Timeline, id: string, point: number): UnitCampaignState {
    return lookup(model, t, id, point)!;
}

/** A unit's new state from this point on (copying a history shared with another timeline first). */
function setState(t: Timeline, point: number, next: UnitCampaignState): void {
    let h = t.history.get(next.unit);
    if (!h) t.history.set(next.unit, h = []);
    else if (t.shared.has(h)) {
        t.shared.delete(h);
        t.history.set(next.unit, h = h.slice());
    }
    let at = h.length;
    while (at > 0 && h[at - 1].point > point) at--;
    if (at > 0 && h[at - 1].point === point) {
        h[at - 1] = { point, state: next };
        // Out only for a moment (a later line of the same outcome brought it back): never out.
        if (next.status === 'ready' && t.outSince.get(next.unit) === point) t.outSince.delete(next.unit);
    } else h.splice(at, 0, { point, state: next });
    const since = t.outSince.get(next.unit);
    if (next.status !== 'ready' && (since === undefined || since > point)) t.outSince.set(next.unit, point);
}

/** Works out the pending results of these units (before the point being visited reads them). */
function settleUnits(model: ScenarioModel, t: Timeline, units: readonly string[]): void {
    if (t.pendingOf.size === 0) return;
    for (const id of units) {
        const pending = t.pendingOf.get(id);
        if (pending) settle(model, t, pending);
    }
}

/** How deep settling may call itself (a result that reads a unit whose own result is pending) before it goes in file order. */
const SETTLE_DEPTH = 16;
let settling = 0;

/**
 * Works out a pending settled result and carries its lines to its units from the point after it,
 * as the eager walk did: it reads only the points before its own, so the order in which results are
 * worked out changes none of them. Resolving reads its units' states before it, which may settle
 * an earlier pending result in turn; past `SETTLE_DEPTH`, every earlier pending result is worked out
 * first, in file order, so a chain of thousands of actions never recurses thousands deep.
 */
function settle(model: ScenarioModel, t: Timeline, pending: Pending): void {
    if (t.pending.get(pending.action) !== pending) return;
    if (settling >= SETTLE_DEPTH) {
        // In point order, which the map's own order need not be (`takeOverSwapped` moves entries).
        const earlier = [...t.pending.values()].filter(p => p.point < pending.point).sort((a, b) => a.point - b.point);
        for (const each of earlier) settle(model, t, each);
    }
    t.pending.delete(pending.action);
    for (const id of pending.units) if (t.pendingOf.get(id) === pending) t.pendingOf.delete(id);
    const result = settledResult(model, pending.action);
    if (!result) {
        t.unsettled++;
        return;
    }
    t.settled.set(pending.action, result);
    const el = pending.action;
    const turn = isTurn(el.$container) ? el.$container : undefined;
    for (const line of result.lines) carry(model, t, el, turn, pending.point, unitsNamed(model, line.unit), line.result, line.facts);
}

const settledResults = coreKept.table<Action, { readonly ruleset: ScenarioModel['ruleset'], readonly inputs: ActionKey, readonly result: Resolution | undefined }>({
    name: 'settled results', keeps: 'the result an unwritten action\'s known dice settle (or none: it cannot be resolved), as the timeline carries it',
    keyedBy: 'an action node (the parse in pieces keeps an unchanged element as the same node), with the rule set and the key of what its resolution reads (`settledInputsKey`) it was worked out under',
    againWhen: 'the node is new, the rule set changed, or its key changed: its text (its dice, seed, factor and fact lines), the declarations (a grade, a modifier, an option, a house rule, a force it or an earlier writer of its units names), an import, the limits, or an earlier step that writes one of its units\' states (an outcome written or changed, a state or ruling line, a result settled another way)'
});

/**
 * The result an unwritten action's known dice settle. Kept across builds by the key of what its
 * resolution reads (`settledInputsKey`), the states its units carry to it and the forces it and their
 * earlier writers name included, not the other forces: an edit elsewhere leaves it as it was, and the timeline continued or built again
 * carries it without resolving it again. A model with outcomes laid over the tree (`overlay`: their
 * lines are not in the key) and a file built once (`umpire check`) work it out and keep nothing.
 */
function settledResult(model: ScenarioModel, action: Action): Resolution | undefined {
    const am = actionModelOf(model, action);
    if (!am) return undefined;
    const inputs = model.overlay || contextOf(model.root).once ? undefined : actionKey(model, action);
    const kept = inputs === undefined ? undefined : settledResults.get(action);
    if (kept && sameSettledInputs(kept.inputs, inputs!) && kept.ruleset === model.ruleset) return kept.result;
    settling++;
    let result: Resolution | undefined;
    try {
        result = settledOutcome(model, am);
    } finally {
        settling--;
    }
    if (inputs !== undefined) settledResults.set(action, { ruleset: model.ruleset, inputs, result });
    return result;
}

/** The replay of a written outcome whose lines were edited by hand (its fingerprint still matching), else undefined. */
function alteredReplay(model: ScenarioModel, action: Action): Resolution | undefined {
    const am = actionModelOf(model, action);
    const status = am ? outcomeStatus(model, am) : undefined;
    return status?.kind === 'altered' ? status.resolution : undefined;
}

/**
 * A turn's elements in the order their outcomes take effect: the rule set's order of play for its
 * actions (`Ruleset.orderWithinTurn`), each `state` and `ruling` line staying in its place among them
 * (the slots of the actions are filled in the new order). Without an order of play, file order.
 */
function resolutionOrderOfTurn(model: ScenarioModel, turn: Turn): ReadonlyArray<Action | UnitState> {
    const order = model.ruleset?.orderWithinTurn;
    // House blocks change tables, not state: they have no place in the order of outcomes.
    const elements = turn.elements.filter((el): el is Action | UnitState => !isHouse(el));
    if (!order) return elements;
    const inTurn = model.actions.filter(a => a.turn === turn);
    const ordered = order(model, inTurn);
    // A rule set that returns other than a permutation of the turn's actions is ignored: file order.
    if (ordered.length !== inTurn.length || new Set(ordered).size !== inTurn.length || !ordered.every(a => inTurn.includes(a))) return elements;
    let next = 0;
    return elements.map(el => (isAction(el) ? ordered[next++].node : el));
}

/**
 * Every action in the order it is resolved and its outcome carried: file order, except that within a
 * turn the rule set's order of play decides (`Ruleset.orderWithinTurn`). Resolve all follows it.
 */
export function resolutionOrder(model: ScenarioModel): ActionModel[] {
    const t = timeline(model);
    return [...model.actions].sort((a, b) => (t.actionPoint.get(a.node) ?? 0) - (t.actionPoint.get(b.node) ?? 0));
}

/**
 * For each of these actions (in the order they are resolved), whether nothing that takes a point of the
 * timeline stands between it and the next one — for the last, between it and the end asked about (the
 * end of the turn `through`, or of the file): no `state` or `ruling` line, no other action. Then the
 * states the next one reads are just those its outcome left, in every way the outcomes can fall, and a
 * campaign's odds carry them on without a timeline for each way (src/core/campaign-odds.ts).
 */
export function quietAfter(model: ScenarioModel, actions: readonly ActionModel[], through: Turn | undefined): boolean[] {
    const t = timeline(model);
    const taken = [...t.actionPoint.values(), ...t.statePoint.values()].sort((a, b) => a - b);
    const end = through ? t.turnEnd.get(through) ?? t.end : t.end;
    // The first point taken after `point`: a binary search over the points in order.
    const nextTaken = (point: number): number => {
        let lo = 0, hi = taken.length;
        while (lo < hi) {
            const mid = (lo + hi) >> 1;
            if (taken[mid] <= point) lo = mid + 1; else hi = mid;
        }
        return lo < taken.length ? taken[lo] : Number.POSITIVE_INFINITY;
    };
    return actions.map((a, i) => {
        const point = t.actionPoint.get(a.node);
        if (point === undefined) return false;
        const next = i + 1 < actions.length ? t.actionPoint.get(actions[i + 1].node) : end;
        return next !== undefined && nextTaken(point) >= next;
    });
}

/**
 * A unit's state after one line of an action's outcome, as the timeline carries it (`carry`): a
 * campaign's odds tell the many ways an action can fall apart by the states they leave, without a
 * timeline for each.
 */
export function stateAfterLine(model: ScenarioModel, state: UnitCampaignState, action: Action, line: { result: string, facts: ReadonlyArray<readonly [string, StatValue]> }): UnitCampaignState {
    const turn = isTurn(action.$container) ? action.$container : undefined;
    const at = { kind: action.kind, name: action.name, turn: turnLabel(turn) };
    return applyOutcomeLine(model.ruleset, state, { result: line.result, action: action.name, turn: at.turn }, line.facts, at);
}

function lookup(model: ScenarioModel, t: Timeline, unit: UnitModel | string, point: number): UnitCampaignState | undefined {
    const id = typeof unit === 'string' ? unit : unit.id;
    // A pending result that takes effect before the point is worked out now (it may add to the history).
    const pending = t.pendingOf.get(id);
    if (pending && pending.point + 1 < point) settle(model, t, pending);
    const h = t.history.get(id);
    if (!h || h.length === 0 || h[0].point >= point) return initialOf(model, id);
    let found = h[0].state;
    // Binary search: the last entry whose point is before `point`.
    let lo = 1, hi = h.length - 1;
    while (lo <= hi) {
        const mid = (lo + hi) >> 1;
        if (h[mid].point < point) { found = h[mid].state; lo = mid + 1; } else hi = mid - 1;
    }
    return found;
}

/** A unit's state at the start of the file, by its id; undefined for a unit the model does not have. */
function initialOf(model: ScenarioModel, id: string): UnitCampaignState | undefined {
    const unit = unitWithId(model, id);
    return unit && initialState(model, unit);
}

function allAt(model: ScenarioModel, point: number): Map<string, UnitCampaignState> {
    const t = timeline(model);
    const out = new Map<string, UnitCampaignState>();
    for (const force of model.forces.values()) for (const u of force.units) out.set(u.id, lookup(model, t, u, point)!);
    return out;
}

// ─── Reading the state ───────────────────────────────────────────────────────────────────────────

function actionNode(action: ActionModel | Action): Action {
    return '$type' in action ? action : action.node;
}

/** Every unit's state as the action sees it: after everything written before it, before its own outcome. */
export function stateAt(model: ScenarioModel, action: ActionModel | Action): ReadonlyMap<string, UnitCampaignState> {
    return allAt(model, pointOf(model, action));
}

function pointOf(model: ScenarioModel, action: ActionModel | Action): number {
    return timeline(model).actionPoint.get(actionNode(action)) ?? timeline(model).end + 1;
}

/**
 * The earlier action, not written and not decided yet (it has no dice or seed), that this unwritten
 * action's start waits on: one of its units fights in that one first, directly or through another
 * action that waits on it. Undefined when the action's start is decided (docs/campaigns.md#undecided).
 */
export function waitsOn(model: ScenarioModel, action: ActionModel | Action): Action | undefined {
    const node = actionNode(action);
    return outcomeOf(model, node) ? undefined : timeline(model).waiting.get(node);
}

/**
 * Whether an unwritten action's outcome is settled by its own dice (worked out yet or not): false when it is
 * written, needs a new seed, or waits on an action that does. What `settledOf` tells without working it out.
 * A test for the actions of one model, its timeline read once (the order check asks it of every unwritten
 * action at every build), asked one action at a time while other readers work results out (the order check
 * asks it in the campaign checks' own walk): `changed()` tells whether an answer given may be another now, a
 * pending result it called settled having been found since to be one that cannot be worked out. An answer
 * false stays false: an action that is not pending is never pending later.
 */
export function settledWatch(model: ScenarioModel): { isSettled: (action: ActionModel | Action) => boolean, changed: () => boolean } {
    let t: Timeline | undefined;
    let unsettled = 0;
    return {
        isSettled: action => {
            const node = actionNode(action);
            if (outcomeOf(model, node)) return false;
            if (!t) {
                t = timeline(model);
                unsettled = t.unsettled;
            }
            return t.pending.has(node) || t.settled.has(node);
        },
        changed: () => t !== undefined && t.unsettled !== unsettled
    };
}

/**
 * The outcome an unwritten action's own dice settle, as the timeline carried it to later actions
 * (the one Resolve writes); undefined when it is written, undecided or waits on an undecided one.
 */
export function settledOf(model: ScenarioModel, action: ActionModel | Action): Resolution | undefined {
    const node = actionNode(action);
    if (outcomeOf(model, node)) return undefined;
    const t = timeline(model);
    const pending = t.pending.get(node);
    if (pending) settle(model, t, pending);
    return t.settled.get(node);
}

/** One unit's state as the action sees it. */
export function unitStateAt(model: ScenarioModel, action: ActionModel | Action, unit: UnitModel | string): UnitCampaignState | undefined {
    return lookup(model, timeline(model), unit, pointOf(model, action));
}

/** One unit's state after the action's own outcome. */
export function unitStateAfter(model: ScenarioModel, action: ActionModel | Action, unit: UnitModel | string): UnitCampaignState | undefined {
    return lookup(model, timeline(model), unit, pointOf(model, action) + 2);
}

/** Every unit's state at the end of the file. */
export function stateAtEnd(model: ScenarioModel): ReadonlyMap<string, UnitCampaignState> {
    return allAt(model, timeline(model).end + 1);
}

/** The turns of the file in order, with the label `--at` matches: the turn's number or name. */
export function turnsOf(model: ScenarioModel): Turn[] {
    return [...timeline(model).turnEnd.keys()];
}

/** Every unit's state at the end of a turn, named by its number, name or title; undefined if there is none. */
export function stateAfterTurn(model: ScenarioModel, label: string): { turn: Turn, states: ReadonlyMap<string, UnitCampaignState> } | undefined {
    const t = timeline(model);
    const turn = turnsOf(model).find(tn => turnLabel(tn) === label)
        ?? turnsOf(model).find(tn => tn.title !== undefined && unquote(tn.title).toLowerCase() === label.toLowerCase());
    if (!turn) return undefined;
    return { turn, states: allAt(model, t.turnEnd.get(turn)! + 1) };
}

/**
 * The unit's stats as the rules read them at this action: its declared stats with the state carried
 * to this point laid over them, as the rule set's counters say (`CampaignCounter.stat`: a total, a
 * flag present only while set, or a declared stat less what was lost), and its formation.
 * Every rule set reads unit stats through here, so that earlier outcomes change later fights.
 */
export function effectiveStats(model: ScenarioModel, action: ActionModel | Action, unit: UnitModel): ReadonlyMap<string, StatValue> {
    const state = unitStateAt(model, action, unit);
    if (!state) return unit.stats;
    return overlay(model.ruleset, unit.stats, state);
}

// ─── Who takes part in an action ─────────────────────────────────────────────────────────────────

export interface Participation {
    readonly unit: UnitModel;
    readonly role: Role;
    readonly target: Target;
}

/** Every unit an action names, with its role (a whole force names each of its units). */
export function participants(model: ScenarioModel, action: Action): Participation[] {
    const out: Participation[] = [];
    for (const { target, role } of roles(action)) for (const unit of unitsOf(model, target)) out.push({ unit, role, target });
    return out;
}

/** Whether a reference names the unit: its force, every instance of its unit, or it by index. */
export function names(target: Target, unit: UnitModel): boolean {
    if (target.force?.$refText !== unit.force) return false;
    if (!target.unit) return true;
    return target.unit.$refText === unit.name && (target.index === undefined || (unit.index ?? 1) === target.index);
}

/**
 * Units that are out of the fight at some point of the file where an action or a line names them
 * again: the only ones the out-of-action check needs. In declaration order; recorded as the timeline
 * is built, so no walk over every unit. A settled result not worked out yet belongs to units that
 * nothing after it names (visiting a later action or line that names one works it out first), so no
 * check asks about them; a view that reads them (status, a hover) works it out, and then they are
 * listed too, which changes no check's answer.
 */
export function unitsEverOut(model: ScenarioModel): UnitModel[] {
    // Only a written outcome, a state or ruling line, or an outcome settled before it is written
    // changes a unit's state: a file without actions or state lines needs no timeline.
    if (model.states.length === 0 && model.actions.length === 0) return [];
    const t = timeline(model);
    if (t.outSince.size === 0) return [];
    const byForce = new Map<string, UnitModel[]>();
    for (const id of t.outSince.keys()) {
        const unit = unitWithId(model, id);
        if (!unit) continue;
        const list = byForce.get(unit.force);
        if (list) list.push(unit); else byForce.set(unit.force, [unit]);
    }
    const out: UnitModel[] = [];
    for (const name of model.forces.keys()) out.push(...(byForce.get(name) ?? []).sort((a, b) => a.order - b.order));
    return out;
}
