/**
 * What resolving one action produces, whatever the rule set: the stable JSON shape (docs/json.md),
 * the lines of the outcome block written into the file, and the lines the CLI prints.
 */

/** One unit's part in the outcome. Rule sets add their own fields beside these. */
export interface UnitOutcomeJson {
    force: string;
    /** The unit's name, with `#k` for one of several. */
    unit: string;
    /** A result label of the rule set (docs/rules/*.md#labels). */
    result: string;
    [extra: string]: unknown;
}

export interface ResolutionJson {
    name: string;
    kind: string;
    rules: string;
    turn: string | null;
    /** The seed that threw the dice, or null when the dice were entered from the table. */
    seed: number | null;
    summary: string;
    units: UnitOutcomeJson[];
    /** Fingerprint of everything the outcome depends on; a written outcome with another is stale. */
    check: string;
    [extra: string]: unknown;
}

/** One line of the outcome block: `Force.Unit#k: result, key value, … vs Force.Other`. */
export interface OutcomeLineText {
    unit: string;
    result: string;
    facts: Array<[string, number | string | true]>;
    opponent?: string;
}

export interface Resolution {
    json: ResolutionJson;
    /** The outcome block's unit lines. */
    lines: OutcomeLineText[];
    /** Human-readable lines for the terminal and hovers, after the summary. */
    text: string[];
}

/** A reason an action cannot be resolved (the validator has reported it too). */
export interface Unresolvable {
    problem: string;
}

/**
 * The dice an action is resolved with. A seed's `reroll` counts the times the action was re-rolled
 * (written `outcome seed N reroll 2`; absent or 0 when it never was).
 */
export type DiceChoice = { kind: 'seed', seed: number, reroll?: number } | { kind: 'entered' };

/**
 * A resolution whose JSON is made when first read, then kept: a campaign's check settles every engagement a
 * later one reads (docs/campaigns.md#settled) for its outcome lines alone, and the JSON (the summary, each
 * unit's entry, what the fingerprint covers) is read only when the outcome is written, shown or compared.
 * `json` must hold plain data only, never a parse node or a model: a settled result is kept across builds.
 */
export function withJsonWhenRead(parts: Omit<Resolution, 'json'>, json: () => ResolutionJson): Resolution {
    let made: ResolutionJson | undefined;
    return Object.defineProperty(parts, 'json', {
        get: () => (made ??= json()),
        enumerable: true,
        configurable: true
    }) as Resolution;
}
