/**
 * Ancients' tables as data, with the seed's printed values (docs/rules/ancients.md, docs/house-rules.md#ancients):
 * the engine and the exact odds engine read these, never a literal of the seed, so that a house rule
 * (heavy foot saving on 3+, a break test on one die) is resolved and given odds alike.
 */
import { bandValue, type BandRow } from '../../../core/bands.js';
import type { AncientsFormation, AncientsPosition, AncientsSize, AncientsType, AncientsWeight, TestModifier } from './ancients-engine.js';

/** A7's modifiers, by the reason the breakdown names. */
type BreakModifiers = Readonly<Record<TestModifier['reason'], number>>;

export interface AncientsTables {
    /** A1.3: the dice a unit throws, by size. */
    readonly dice: Readonly<Record<AncientsSize, number>>;
    /** A1.5–A1.7: the extra dice of a shock unit that charged, or a defensive one that did not, on the first turn. */
    readonly firstTurn: Readonly<Record<'shock' | 'defensive', number>>;
    /** A4: the score needed to hit, by the thrower's net Advantage over its target (held to ±`TO_HIT_REACH`). */
    readonly toHit: readonly BandRow<number>[];
    /** A5: the save needed, by the target's weight. */
    readonly save: Readonly<Record<AncientsWeight, number>>;
    /** A6: the unsaved hits that make a unit test, by size. */
    readonly threshold: Readonly<Record<AncientsSize, number>>;
    /** A3.3–A3.6: the Advantage steps of each category (skill counts its own number, A3.2). */
    readonly steps: {
        readonly weight: Readonly<Record<AncientsWeight, number>>;
        readonly type: Readonly<Record<AncientsType, number>>;
        readonly formation: Readonly<Record<AncientsFormation, number>>;
        readonly position: Readonly<Record<AncientsPosition, number>>;
    };
    /**
     * A7.2–A7.5: the break test's modifiers: `first-test` and `winning-side` once each, `extra-multiples`
     * per full multiple of the threshold beyond the first, `damage-tokens` per token carried.
     */
    readonly breakTest: BreakModifiers;
    /** A9: how far a unit gives ground and an opponent follows up, in percent of its Movement Rate (the seed's "half"). */
    readonly movement: Readonly<Record<'give-ground' | 'follow-up', number>>;
}

/**
 * A net Advantage beyond ±5 reads the `to-hit` row at ±5. The seed's own bands stop changing at ±2 and
 * are open at both ends (`..-2 5`, `1.. 3`), so the hold changes nothing for them; it keeps house
 * tables written over −5..5 (before a band was one token, `1.. 3` read as the band 1..3) meaning what they did.
 */
export const TO_HIT_REACH = 5;

/** The seed's tables, as printed. */
export const ANCIENTS_SEED_TABLES: AncientsTables = {
    dice: { huge: 12, large: 10, medium: 8, small: 6 },
    firstTurn: { shock: 2, defensive: 2 },
    // A4.4–A4.6: even or one point either way 4+, except that one point up is 3+; two or more up 3+, down 5+.
    toHit: [
        { band: { from: null, to: -2 }, value: 5 },
        { band: { from: -1, to: 0 }, value: 4 },
        { band: { from: 1, to: null }, value: 3 }
    ],
    save: { heavy: 4, medium: 5, light: 6 },
    threshold: { huge: 5, large: 4, medium: 3, small: 2 },
    steps: {
        weight: { heavy: 2, medium: 1, light: 0 },
        type: { cavalry: 1, infantry: 0 },
        formation: { formed: 2, warband: 1, skirmish: 0 },
        position: { rear: 2, flank: 1, front: 0 }
    },
    breakTest: { 'first-test': 1, 'winning-side': 1, 'extra-multiples': -1, 'damage-tokens': -1 },
    movement: { 'give-ground': 50, 'follow-up': 50 }
};

/** A9 with the tables in force: the inches of a move of `percent` of a Movement Rate of `rate`. */
export function movementShare(rate: number, percent: number): number {
    return (rate * percent) / 100;
}

/** The `to-hit` key a net Advantage reads: itself, held to ±`TO_HIT_REACH`. */
export function toHitKey(net: number): number {
    return Math.max(-TO_HIT_REACH, Math.min(TO_HIT_REACH, net));
}

/** A4 with the tables in force: the score needed at a net Advantage of `net`. */
export function toHitAt(tables: AncientsTables, net: number): number {
    // The tables are checked to cover every key; a hole reads as the seed's value.
    const key = toHitKey(net);
    return bandValue(tables.toHit, key) ?? bandValue(ANCIENTS_SEED_TABLES.toHit, key)!;
}

/** A1: every pool a unit can throw under these tables (each size, with and without a first-turn bonus), largest first. */
export function poolSizes(tables: AncientsTables): number[] {
    const bonuses = [0, ...Object.values(tables.firstTurn)];
    const pools = Object.values(tables.dice).flatMap(d => bonuses.map(b => d + b));
    return [...new Set(pools)].sort((a, b) => b - a);
}
