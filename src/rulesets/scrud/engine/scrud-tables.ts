/**
 * SCRUD's tables as data, with the seed's printed values (docs/rules/scrud.md, docs/house-rules.md): the
 * engine and the odds engine read these, never a literal of the seed, so a house rule that moves a
 * band is resolved and given odds alike.
 */
import { bandValue, type BandRow } from '../../../core/bands.js';

/** What a pair's difference can cost the lower die's unit (S6), or `stand-off` for both. */
export type ScrudPairResult = 'stand-off' | 'recoil' | 'retire' | 'retreat' | 'rout';
export const PAIR_RESULTS: readonly ScrudPairResult[] = ['stand-off', 'recoil', 'retire', 'retreat', 'rout'];

export interface ScrudTables {
    /**
     * S6: by the difference of a pair's adjusted dice (0 or more), what the lower die's unit suffers;
     * the higher one has won. `stand-off` leaves both units standing off; at 0 (equal dice) the result
     * is both units'.
     */
    readonly results: readonly BandRow<ScrudPairResult>[];
    /** S2: a turned die stops at the die's lowest face (a −1 on a 1 stays 1). */
    readonly clampLow: boolean;
    /** S2: a turned die stops at the die's highest face (a +2 on a 6 stays 6). */
    readonly clampHigh: boolean;
    /**
     * S2.7 as written, `option clamp-six`: "6 is the MAX score and 1 the lowest" whatever the die, so an
     * average die's 2 −1 scores 1 and a d4's 4 +1 scores 5. Off: each die's own faces bound it.
     */
    readonly clampSix?: boolean;
}

/** The seed's tables: S6's differences and S2's clamping. */
export const SCRUD_SEED_TABLES: ScrudTables = {
    results: [
        { band: { from: 0, to: 0 }, value: 'stand-off' },
        { band: { from: 1, to: 1 }, value: 'recoil' },
        { band: { from: 2, to: 2 }, value: 'retire' },
        { band: { from: 3, to: 3 }, value: 'retreat' },
        { band: { from: 4, to: null }, value: 'rout' }
    ],
    clampLow: true,
    clampHigh: true
};

/** S6 with the tables in force: the pair result for a difference of `difference` (0 or more). */
export function pairResult(tables: ScrudTables, difference: number): ScrudPairResult {
    // The tables are checked to cover every difference; a hole reads as the seed's value.
    return bandValue(tables.results, difference) ?? bandValue(SCRUD_SEED_TABLES.results, difference)!;
}

/**
 * The smallest difference that routs, when every larger one routs too (the shape the exact chance of
 * "at least one rout" needs); `none` when no difference routs, undefined for any other shape.
 */
export function routsFrom(tables: ScrudTables): number | 'none' | undefined {
    const routs = tables.results.filter(r => r.value === 'rout');
    if (routs.length === 0) return 'none';
    if (routs.length !== 1 || routs[0].band.to !== null || routs[0].band.from === null) return undefined;
    return routs[0].band.from;
}
