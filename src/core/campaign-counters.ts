/**
 * The counters a rule set keeps in each unit's campaign state, as data its `Ruleset` declares
 * (`Ruleset.campaign.counters`, in `src/rulesets/<id>/<id>-counters.ts`): what each counts, which
 * outcome facts and `state`/`ruling` keys change it, which declared stat gives its start, how it lays
 * over the stats an action reads, and how the status table and hovers name it (`Ruleset.campaign.columns`).
 * The core carries them by name without knowing any (docs/campaigns.md#what-each-rule-set-counts).
 */
import type { StatValue, UnitModel } from './scenario.js';

/** A counter's value: a count, or a flag that is set or not. */
type CounterValue = number | boolean;

/** A unit's counters by name, as its rule set declares them. */
export type Counters = Readonly<Record<string, CounterValue>>;

/** One counter of a rule set's campaign state. */
export interface CampaignCounter {
    /** Its name in the state (`Counters`). */
    readonly name: string;
    /** A count (from 0) or a flag (set or not). */
    readonly kind: 'count' | 'flag';
    /** The declared stat that gives its start: a count takes its number, a flag is set by any value but 0. None: 0, or not set. */
    readonly start?: string;
    /** Outcome facts that change it: a count adds the fact's number, a flag is set. */
    readonly facts?: readonly string[];
    /** `state` and `ruling` keys that set it outright: a count to the number, a flag to whether the value is other than 0. */
    readonly keys?: readonly string[];
    /** `state` and `ruling` keys that clear a flag. */
    readonly clearKeys?: readonly string[];
    /**
     * `state` and `ruling` keys that say what is left of the declared stat of the same name: the count
     * is that stat less the number (what has been lost).
     */
    readonly leftKeys?: readonly string[];
    /** A count that may go below 0 (one only added to, for the record); any other count stays at 0 or more. */
    readonly signed?: true;
    /**
     * The stat an action reads it as (`effectiveStats`): `total` the stat holds the count (or, for a flag,
     * is there only while it is set), `less` the declared stat less the count. None: the rules never read it.
     */
    readonly stat?: { readonly name: string, readonly as: 'total' | 'less' };
}

/** One thing the status table, a unit's hover and the campaign's odds show of a unit's counters. */
export interface StateColumn {
    /** Its name in the campaign odds' JSON (docs/json.md#campaign-odds): a count's law, or a flag's chance. */
    readonly name: string;
    readonly kind: 'count' | 'flag';
    /** The status table's header. */
    readonly header: string;
    /** What it shows: a number for a count, whether it is set for a flag. */
    value(counters: Counters, unit: UnitModel): CounterValue;
    /** The status table's cell. */
    cell(counters: Counters, unit: UnitModel): string;
    /** The words of a unit's hover, or undefined to leave it out there. */
    hover(counters: Counters, unit: UnitModel): string | undefined;
}

/** The usual column of a count: its number in the table, and "words N" in the hover. */
export function countColumn(name: string, header: string, words: string, counter = name): StateColumn {
    const value = (c: Counters) => countOf(c, counter);
    return { name, kind: 'count', header, value, cell: c => String(value(c)), hover: c => `${words} ${value(c)}` };
}

/** A count by its name: 0 when it is not kept. */
export function countOf(counters: Counters, name: string): number {
    const v = counters[name];
    return typeof v === 'number' ? v : 0;
}

function num(value: StatValue | CounterValue | undefined): number {
    return typeof value === 'number' ? value : 0;
}

/** The counters at the start of the file: what the unit's declared stats say. */
export function startCounters(declared: readonly CampaignCounter[], stats: ReadonlyMap<string, StatValue>): Counters {
    const out: Record<string, CounterValue> = {};
    for (const c of declared) {
        const v = c.start === undefined ? undefined : stats.get(c.start);
        out[c.name] = c.kind === 'flag' ? v !== undefined && v !== 0 : num(v);
    }
    return out;
}

function countAdded(c: CampaignCounter, now: CounterValue, n: number): number {
    const sum = (typeof now === 'number' ? now : 0) + n;
    return c.signed ? sum : Math.max(0, sum);
}

/** The counters after one fact of a written outcome line; the same object when no counter reads it. */
export function addOutcomeFact(declared: readonly CampaignCounter[], counters: Counters, key: string, value: StatValue): Counters {
    let next = counters;
    for (const c of declared) {
        if (!c.facts?.includes(key)) continue;
        next = { ...next, [c.name]: c.kind === 'flag' ? true : countAdded(c, next[c.name], num(value)) };
    }
    return next;
}

/** The counters after one key of a `state` or `ruling` line, which sets its value outright; the same object when no counter reads it. */
export function setStateKey(declared: readonly CampaignCounter[], counters: Counters, key: string, value: StatValue, unit: UnitModel): Counters {
    let next = counters;
    for (const c of declared) {
        if (c.keys?.includes(key)) next = { ...next, [c.name]: c.kind === 'flag' ? value !== 0 : Math.max(0, num(value)) };
        else if (c.clearKeys?.includes(key)) next = { ...next, [c.name]: false };
        else if (c.leftKeys?.includes(key)) next = { ...next, [c.name]: Math.max(0, num(unit.stats.get(key)) - num(value)) };
    }
    return next;
}

/** The declared stats with the counters laid over them (see `effectiveStats`). */
export function overlayCounters(declared: readonly CampaignCounter[], out: Map<string, StatValue>, stats: ReadonlyMap<string, StatValue>, counters: Counters): void {
    for (const c of declared) {
        if (!c.stat) continue;
        const v = counters[c.name];
        const name = c.stat.name;
        if (c.stat.as === 'less') {
            const base = stats.get(name);
            if (typeof base === 'number') out.set(name, Math.max(0, base - num(v)));
        } else if (c.kind === 'flag') {
            if (v === true) out.set(name, true); else out.delete(name);
        } else if (v !== 0 || out.has(name)) out.set(name, num(v));
    }
}

/** Every `state`/`ruling` key and outcome fact the counters read, in declaration order. */
export function counterKeys(declared: readonly CampaignCounter[]): { keys: string[], facts: string[] } {
    const keys = new Set<string>(), facts = new Set<string>();
    for (const c of declared) {
        for (const k of [...(c.keys ?? []), ...(c.leftKeys ?? []), ...(c.clearKeys ?? [])]) keys.add(k);
        for (const f of c.facts ?? []) facts.add(f);
    }
    return { keys: [...keys], facts: [...facts] };
}
