/**
 * Loose Files' tables as data, with the sheet's printed values (docs/rules/loose-files.md L2, L3,
 * the ranges of L4 and L5, L9; docs/house-rules.md#loose-files): the combat engine and the exact odds read these, never a literal
 * of the sheet, so a house rule that moves a band is resolved and given odds alike.
 */
import { bandValue, type BandRow } from '../../../core/bands.js';

export type CombatResult = 'easy-victory' | 'successful' | 'stand-off' | 'driven-back' | 'defeated' | 'routed';
/** L3's rows, best first. */
export const COMBAT_RESULTS: readonly CombatResult[] = ['easy-victory', 'successful', 'stand-off', 'driven-back', 'defeated', 'routed'];

/** L2's modifiers an umpire may change, by the word a house row keys them with. */
export type CombatModifierKey = 'class' | 'fort' | 'stone-building' | 'fieldwork' | 'wood-building' | 'bayonet' | 'terrain'
    | 'inspire' | 'skirmish' | 'flank' | 'dp' | 'casualty';
export const COMBAT_MODIFIER_KEYS: readonly CombatModifierKey[] = ['class', 'fort', 'stone-building', 'fieldwork', 'wood-building',
    'bayonet', 'terrain', 'inspire', 'skirmish', 'flank', 'dp', 'casualty'];

/**
 * L2's outnumbering steps, by the ratio of enemy to own strength, in words a house row can write (a
 * key is a name, so `3:2` is `three-to-two`): `any` is any outnumbering at all.
 */
export type OutnumberKey = 'any' | 'three-to-two' | 'two-to-one' | 'three-to-one';
export const OUTNUMBER_KEYS: readonly OutnumberKey[] = ['any', 'three-to-two', 'two-to-one', 'three-to-one'];
/** Each step's ratio (enemy ≥ num/den × own), compared in whole numbers; `any` is enemy > own. */
export const OUTNUMBER_RATIOS: Readonly<Record<OutnumberKey, { num: number, den: number }>> = {
    any: { num: 1, den: 1 }, 'three-to-two': { num: 3, den: 2 }, 'two-to-one': { num: 2, den: 1 }, 'three-to-one': { num: 3, den: 1 }
};

/** L4, L5: the ranges, in inches: where close artillery range ends (under it), and how far each gun and weapon reaches. */
export type RangeKey = 'artillery-close' | 'light' | 'medium' | 'heavy' | 'musket' | 'rifle';
export const RANGE_KEYS: readonly RangeKey[] = ['artillery-close', 'light', 'medium', 'heavy', 'musket', 'rifle'];

/** L9 flee-losses: who flees at what share of stands lost (percent). */
export type FleeKey = 'militia' | 'other';
export const FLEE_KEYS: readonly FleeKey[] = ['militia', 'other'];

export interface LfCombatTables {
    /** L3: a side's row by its own difference (own total − enemy total). */
    readonly results: readonly BandRow<CombatResult>[];
    /**
     * L3: the DPs every unit of the side takes, by its row. Keyed by the row, not the difference, so
     * that a house rule that moves a band moves its DPs with it (`4.. 1` could be written now that a
     * band is one token, but a second banded table would have to move in step with `combat-result`).
     */
    readonly dp: Readonly<Record<CombatResult, number>>;
    /**
     * L3: the casualties the leading unit takes, by its row, before the sheet's exceptions (a
     * successful side facing cavalry or works, a stand-off facing cavalry, a bayonet or in works: none).
     */
    readonly casualties: Readonly<Record<CombatResult, number>>;
    /** L2: each modifier's value (per class better, per DP, per casualty for those three). */
    readonly modifiers: Readonly<Record<CombatModifierKey, number>>;
    /** L2: the modifier of each outnumbering step; the largest step that applies counts. */
    readonly outnumbered: Readonly<Record<OutnumberKey, number>>;
    /** L9 flee-losses: the percentage of its stands lost at which a unit flees the field. */
    readonly flee: Readonly<Record<FleeKey, number>>;
    /** L4, L5: fire ranges in inches. */
    readonly ranges: Readonly<Record<RangeKey, number>>;
}

const band = (from: number | null, to: number | null) => ({ from, to });
/** L3's difference bands, in the sheet's order. */
const L3_BANDS = [band(4, null), band(2, 3), band(-1, 1), band(-4, -2), band(-8, -5), band(null, -9)];
const byRow = (values: readonly number[]) => Object.fromEntries(COMBAT_RESULTS.map((r, i) => [r, values[i]])) as Record<CombatResult, number>;

/** The sheet's tables (L2, L3, L9). */
export const LF_SEED_TABLES: LfCombatTables = {
    results: L3_BANDS.map((b, i) => ({ band: b, value: COMBAT_RESULTS[i] })),
    dp: byRow([1, 1, 1, 2, 2, 4]),
    casualties: byRow([0, 1, 1, 1, 2, 2]),
    modifiers: {
        class: 3, fort: 3, 'stone-building': 3, fieldwork: 2, 'wood-building': 2, bayonet: 2, terrain: 1,
        inspire: 1, skirmish: -3, flank: -3, dp: -2, casualty: -2
    },
    outnumbered: { any: -1, 'three-to-two': -2, 'two-to-one': -3, 'three-to-one': -5 },
    flee: { militia: 50, other: 75 },
    ranges: { 'artillery-close': 10, light: 30, medium: 36, heavy: 36, musket: 8, rifle: 10 }
};

/** L3 with the tables in force: a side's row for its difference. */
export function resultFor(tables: LfCombatTables, difference: number): CombatResult {
    // The tables are checked to cover every difference; a hole reads as the sheet's value.
    return bandValue(tables.results, difference) ?? bandValue(LF_SEED_TABLES.results, difference)!;
}

/** L3: the DPs of a difference's row. */
export function dpFor(tables: LfCombatTables, difference: number): number {
    return tables.dp[resultFor(tables, difference)];
}

/** L3: the casualties of a difference's row, before the sheet's exceptions. */
export function casualtiesFor(tables: LfCombatTables, difference: number): number {
    return tables.casualties[resultFor(tables, difference)];
}
