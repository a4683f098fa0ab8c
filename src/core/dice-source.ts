/**
 * One dice source for every rule set: an engine asks for dice by request (who throws, the throw's
 * label, the die and how many), and gets them from a seed or from the values entered at the table.
 *
 * Seeded dice are thrown from one stream in the order the requests come, so a rule set's order of
 * requests is its documented dice order (docs/rules/<id>.md#dice-plan): the same seed gives the same
 * dice on every machine. Entered dice are read from the values the rule set mapped from its `dice`
 * lines; reading records which value fed which die and which requests went short (an audit), so
 * that checks report die faces and dice counts on the right line without resolving.
 *
 * Pure: no Langium, no model. A rule set's entered values name their origin (its `dice` line) by
 * an opaque value of its choosing.
 */
import { SeededDice, type Die } from './dice.js';

/** A throw an engine needs: `count` dice of `die`, thrown by `who` (unit ids) under `label`. */
export interface DiceRequest {
    /** The units that throw, as the rule set names them (`Force.Unit`); a side may throw as one. */
    readonly who: readonly string[];
    /** The throw: what a `dice` line for it is labelled (`average`, `hit`, `pursuit`, an arm, …). */
    readonly label: string;
    readonly die: Die;
    readonly count: number;
}

/** One request as it was answered. */
interface TakenDice {
    readonly request: DiceRequest;
    readonly values: readonly number[];
}

/** Where an action's dice come from. */
export interface DiceSource {
    /** The dice of a request: exactly `count` from a seed; from the table, fewer when too few were entered. */
    take(request: DiceRequest): number[];
    /** Every request answered so far, in order, with its values (a fingerprint records entered dice from it). */
    readonly taken: readonly TakenDice[];
}

/** Seeded dice: one stream, thrown in the order of the requests. */
export function seededDiceSource(seed: number): DiceSource {
    const dice = new SeededDice(seed);
    const taken: TakenDice[] = [];
    return {
        taken,
        take(request) {
            const values = dice.rollMany(request.die, request.count);
            taken.push({ request, values });
            return values;
        }
    };
}

/**
 * Values entered at the table, as a rule set mapped them from one `dice` line: the units they can
 * feed, the throw they belong to, and where each value stands in the line it came from.
 */
export interface EnteredValues<Origin> {
    /** The `dice` line (or whatever the rule set points its diagnostics at). */
    readonly origin: Origin;
    /** The units whose throws these values feed: a request of any of them reads them. */
    readonly who: readonly string[];
    readonly label: string;
    readonly values: readonly number[];
    /** The index in `origin` of the first value (default 0), so the audit points at the right value. */
    readonly firstIndex?: number;
}

/** A request the entered values could not fill. */
interface DiceShortage {
    readonly request: DiceRequest;
    /** How many values it did get. */
    readonly got: number;
}

/** Where one entered value was read: its origin and its index there. */
export interface ValueRead<Origin> {
    readonly origin: Origin;
    readonly index: number;
}

/**
 * What reading entered dice found: the die each value was read as (by origin and index; no entry
 * when no request read it), and every request the values could not fill.
 */
export interface DiceAudit<Origin> {
    readonly reads: Map<Origin, Map<number, Die>>;
    readonly shortages: DiceShortage[];
}

export interface EnteredDiceSource<Origin> extends DiceSource {
    /** For each request answered, in order, where each of its values was read. */
    readonly readFrom: ReadonlyArray<readonly ValueRead<Origin>[]>;
    /** Present when the source was made with `audit: true`. */
    readonly audit?: DiceAudit<Origin>;
}

/**
 * Dice entered at the table. A request reads, in order, the entries of its label that name one of
 * its throwers, each from where the last request left it, until it has its count. The order of the
 * entries is the rule set's to choose (for instance, a later line first when a later line replaces
 * an earlier one).
 *
 * With `audit`, reading does not stop at a problem, so that every problem is found at once: a value
 * the die cannot show is read as the die's lowest face, and a short request is filled with it.
 */
export function enteredDiceSource<Origin>(entries: ReadonlyArray<EnteredValues<Origin>>, options: { audit?: boolean } = {}): EnteredDiceSource<Origin> {
    const cursor = new Map<EnteredValues<Origin>, number>();
    const taken: TakenDice[] = [];
    const readFrom: Array<ValueRead<Origin>[]> = [];
    const audit: DiceAudit<Origin> | undefined = options.audit ? { reads: new Map(), shortages: [] } : undefined;
    return {
        taken, readFrom, audit,
        take(request) {
            const who = new Set(request.who);
            const out: number[] = [];
            const from: Array<ValueRead<Origin>> = [];
            for (const entry of entries) {
                if (out.length >= request.count) break;
                if (entry.label !== request.label || !entry.who.some(id => who.has(id))) continue;
                let at = cursor.get(entry) ?? 0;
                while (out.length < request.count && at < entry.values.length) {
                    const v = entry.values[at];
                    const index = (entry.firstIndex ?? 0) + at;
                    if (audit) {
                        const seen = audit.reads.get(entry.origin) ?? new Map<number, Die>();
                        seen.set(index, request.die);
                        audit.reads.set(entry.origin, seen);
                    }
                    out.push(audit && !request.die.faces.includes(v) ? request.die.faces[0] : v);
                    from.push({ origin: entry.origin, index });
                    at++;
                }
                cursor.set(entry, at);
            }
            if (audit && out.length < request.count) {
                audit.shortages.push({ request, got: out.length });
                while (out.length < request.count) out.push(request.die.faces[0]);
            }
            taken.push({ request, values: out });
            readFrom.push(from);
            return out;
        }
    };
}
