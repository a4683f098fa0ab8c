/**
 * One unit's campaign state, and how one line of the record changes it: the core's own part (its
 * status and what set it, its last result, its formation, the umpire's notes) and the rule set's
 * counters, which the rule set declares (`Ruleset.campaign.counters`, src/core/campaign-counters.ts).
 * The timeline (src/core/campaign-state.ts) walks the file and keeps these states; the words they are
 * shown in belong to the views (src/core/status-words.ts, src/core/status-table.ts, src/language/lsp/state-hover.ts).
 */
import type { UnitState } from '../language/generated/ast.js';
import { addOutcomeFact, counterKeys, overlayCounters, setStateKey, startCounters, type CampaignCounter, type Counters } from './campaign-counters.js';
import type { Ruleset } from './ruleset.js';
import { factValue, type StatValue, type UnitModel } from './scenario.js';

/** Whether a unit can still fight: routed, destroyed and fled units cannot until rallied. */
export type UnitStatus = 'ready' | 'routed' | 'destroyed' | 'fled';

/** What set a unit's status: an action's outcome, or a `ruling` or hand-set `state` line. */
export interface StatusCause {
    /** The status it left the unit in, or `rallied` when it brought the unit back. */
    readonly what: Exclude<UnitStatus, 'ready'> | 'rallied';
    /** The action whose outcome did it. */
    readonly action?: { readonly kind: string, readonly name: string, readonly turn?: string };
    /** The line that did it, when no outcome did. */
    readonly line?: 'ruling' | 'state';
}

export interface UnitCampaignState {
    readonly unit: string;
    readonly status: UnitStatus;
    /** What set the status; undefined while ready from the start. */
    readonly statusCause?: StatusCause;
    /** The last written result for the unit and where it was written. */
    readonly lastResult?: { readonly result: string, readonly action: string, readonly turn?: string, readonly settled?: true };
    /** The rule set's counters by name (`Ruleset.campaign.counters`). */
    readonly counters: Counters;
    /**
     * The formation the unit has taken since the file began (a written `formation X` fact, or a `state`
     * line); undefined while it keeps its declared one. The rule set gives the words their meaning.
     */
    readonly formation?: string;
    /** Reasons and notes from rulings and hand-set states, in file order. */
    readonly notes: readonly string[];
}

/** The `state` and `ruling` keys of every rule set: the status, the formation and the umpire's words. */
const CORE_STATE_KEYS: readonly string[] = ['routed', 'destroyed', 'fled', 'rallied', 'formation', 'reason', 'note'];

const NO_COUNTERS: readonly CampaignCounter[] = [];

function countersOf(ruleset: Ruleset | undefined): readonly CampaignCounter[] {
    return ruleset?.campaign.counters ?? NO_COUNTERS;
}

/** Keys a `state` or `ruling` line may set in a file of this rule set (docs/campaigns.md): its counters' first, then the core's. */
export function stateKeys(ruleset: Ruleset | undefined): readonly string[] {
    return [...counterKeys(countersOf(ruleset)).keys, ...CORE_STATE_KEYS];
}

/** The keys that take a number of 0 or more: a count counter's own keys and those that say what is left of a stat. */
export function countStateKeys(ruleset: Ruleset | undefined): readonly string[] {
    return countersOf(ruleset).filter(c => c.kind === 'count').flatMap(c => [...(c.keys ?? []), ...(c.leftKeys ?? [])]);
}

/** A unit's state before anything is written about it: what its declaration says. */
export function declaredState(unit: UnitModel, ruleset: Ruleset | undefined): UnitCampaignState {
    return { unit: unit.id, status: 'ready', counters: startCounters(countersOf(ruleset), unit.stats), notes: [] };
}

/** One written outcome line: the result label and the facts the rule sets agreed on. */
export function applyOutcomeLine(ruleset: Ruleset | undefined, state: UnitCampaignState, last: NonNullable<UnitCampaignState['lastResult']>,
    facts: ReadonlyArray<readonly [string, StatValue]>, action: NonNullable<StatusCause['action']>): UnitCampaignState {
    const result = last.result;
    const outResults = ruleset?.campaign.outResults ?? {};
    const outFacts = ruleset?.campaign.outFacts ?? {};
    const declared = countersOf(ruleset);
    let next: UnitCampaignState = { ...state, lastResult: last };
    const out = Object.hasOwn(outResults, result) ? outResults[result] : undefined;
    if (out && out !== 'ready') next = { ...next, status: out, statusCause: { what: out, action } };
    // An officer's rally that finds the unit out of the fight brings it back; otherwise it only removed what it removes.
    if (result === 'rallied' && next.status !== 'ready') next = { ...next, status: 'ready', statusCause: { what: 'rallied', action } };
    for (const [key, value] of facts) {
        const counters = addOutcomeFact(declared, next.counters, key, value);
        if (counters !== next.counters) next = { ...next, counters };
        const gone = Object.hasOwn(outFacts, key) ? outFacts[key] : undefined;
        if (gone && gone !== 'ready') next = { ...next, status: gone, statusCause: { what: gone, action } };
        if (key === 'formation' && typeof value === 'string') next = { ...next, formation: value };
    }
    return next;
}

/** A hand-set `state` or an umpire's `ruling`: each key sets its value outright (not added). */
export function applyStateLine(ruleset: Ruleset | undefined, state: UnitCampaignState, line: UnitState, unit: UnitModel): UnitCampaignState {
    let next: UnitCampaignState = state;
    const by = line.kind === 'ruling' ? 'ruling' : 'state';
    const declared = countersOf(ruleset);
    for (const fact of line.facts) {
        const value = factValue(fact);
        const counters = setStateKey(declared, next.counters, fact.key, value, unit);
        if (counters !== next.counters) next = { ...next, counters };
        switch (fact.key) {
            case 'routed': case 'destroyed': case 'fled':
                next = { ...next, status: fact.key, statusCause: { what: fact.key, line: by } }; break;
            case 'rallied': next = { ...next, status: 'ready', statusCause: { what: 'rallied', line: by } }; break;
            case 'formation': if (typeof value === 'string') next = { ...next, formation: value }; break;
            // A note without its text is an error of the line (state-value): it adds no note.
            case 'reason': case 'note':
                if (value !== true) next = { ...next, notes: [...next.notes, `${line.kind === 'ruling' ? 'Ruling' : 'State'}: ${String(value)}`] };
                break;
        }
    }
    return next;
}

/** The declared stats with a state laid over them (see `effectiveStats`). */
export function overlay(ruleset: Ruleset | undefined, stats: ReadonlyMap<string, StatValue>, state: UnitCampaignState): ReadonlyMap<string, StatValue> {
    const out = new Map(stats);
    overlayCounters(countersOf(ruleset), out, stats, state.counters);
    if (state.formation !== undefined) out.set('formation', state.formation);
    return out;
}
