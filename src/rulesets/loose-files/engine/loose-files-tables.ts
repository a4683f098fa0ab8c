/**
 * Loose Files' tables as data, with the sheet's printed values (docs/rules/loose-files.md L2, L3,
 * L4 to L8, L9; docs/house-rules.md#loose-files): the combat engine and the exact odds read these, never a literal
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
/**
 * The steps past `any` whose ratio is a table (`outnumber-ratio`): enemy strength as a percentage of
 * own at which each begins (3:2 is 150). `any` stays "more than own": it is what outnumbered means.
 */
export type OutnumberStep = Exclude<OutnumberKey, 'any'>;
export const OUTNUMBER_STEPS: readonly OutnumberStep[] = ['three-to-two', 'two-to-one', 'three-to-one'];

/** A class's key in the tables keyed by class (`pursue`, `rally-by`): class 1 or better, …, class 5 or worse. */
export type ClassKey = 'class-1' | 'class-2' | 'class-3' | 'class-4' | 'class-5';
export const CLASS_KEYS: readonly ClassKey[] = ['class-1', 'class-2', 'class-3', 'class-4', 'class-5'];
export function classKey(cls: number): ClassKey {
    return `class-${Math.min(5, Math.max(1, cls))}` as ClassKey;
}

/** L8: who may rally a unit (remove its DPs for CP), by its class. */
export type Rallier = 'officer' | 'commander';
export const RALLIERS: readonly Rallier[] = ['officer', 'commander'];

/** L4, L5: the ranges, in inches: where close artillery range ends (under it), and how far each gun and weapon reaches. */
export type RangeKey = 'artillery-close' | 'light' | 'medium' | 'heavy' | 'musket' | 'rifle';
export const RANGE_KEYS: readonly RangeKey[] = ['artillery-close', 'light', 'medium', 'heavy', 'musket', 'rifle'];

/** L1.1: what one present stand of each arm counts for outnumbering (officers add nothing). */
export type StrengthKey = 'infantry' | 'cavalry' | 'artillery';
export const STRENGTH_KEYS: readonly StrengthKey[] = ['infantry', 'cavalry', 'artillery'];

/** L9 flee-losses: who flees at what share of stands lost (percent). */
export type FleeKey = 'militia' | 'other';
export const FLEE_KEYS: readonly FleeKey[] = ['militia', 'other'];

/**
 * L4: the modifiers of each artillery die: a `heavy` or `light` gun, a target in `column`, `limbered`
 * or `unlimbered` artillery, in `skirmish` order or in `works` (a fieldwork, fort or stone building),
 * the `same-target` as last turn or a `new-target`, and `dp` for each DP of the firing guns.
 */
export type ArtilleryModifierKey = 'heavy' | 'column' | 'limbered' | 'same-target' | 'new-target' | 'dp' | 'light' | 'works' | 'skirmish' | 'unlimbered';
export const ARTILLERY_MODIFIER_KEYS: readonly ArtilleryModifierKey[] = ['heavy', 'column', 'limbered', 'same-target', 'new-target', 'dp', 'light',
    'works', 'skirmish', 'unlimbered'];

/** L5: the faces of infantry fire: a DP at `hit` or more, a skirmisher's re-roll on `reroll`, a DP on the re-roll at `reroll-hit` or more. */
export type InfantryKey = 'hit' | 'reroll' | 'reroll-hit';
export const INFANTRY_KEYS: readonly InfantryKey[] = ['hit', 'reroll', 'reroll-hit'];

/**
 * L5: how many dice infantry throws: one per stand less `dp` for each of its DPs, then the share
 * (percent, rounded up) thrown at skirmishers (`skirmish-percent`) or unlimbered artillery
 * (`unlimbered-percent`), and of that at a target in works (`works-percent`).
 */
export type InfantryDiceKey = 'dp' | 'skirmish-percent' | 'unlimbered-percent' | 'works-percent';
export const INFANTRY_DICE_KEYS: readonly InfantryDiceKey[] = ['dp', 'skirmish-percent', 'unlimbered-percent', 'works-percent'];

/**
 * L6: the movement dice. `good-class`: the worst class that throws `good-average` average dice (one up
 * to that many); worse classes throw one up to `other-average` and up to `other-d6` d6; skirmishers
 * add `skirmish-d6` d6, cavalry up to `cavalry-d6`; charging cavalry throw at least `charge-dice`; a
 * Hessian throws `hessian-average` average dice and may add `hessian-inches` instead of a second die; formed troops take a DP for each d6 of
 * `disorder` or less (`woods-disorder` in woods); cavalry change speed by up to `cavalry-speed` dice
 * a turn (L6.8); an officer or commander moves `officer-dice` dice, average or d6 (L6, L8.1); a side
 * that retreats after a second stand-off in a row throws `corlears-dice` average dice (L9 Corlears Hook).
 */
export type MoveKey = 'good-class' | 'good-average' | 'other-average' | 'other-d6' | 'skirmish-d6' | 'cavalry-d6' | 'charge-dice'
    | 'hessian-average' | 'hessian-inches' | 'disorder' | 'woods-disorder' | 'cavalry-speed' | 'officer-dice' | 'corlears-dice';
export const MOVE_KEYS: readonly MoveKey[] = ['good-class', 'good-average', 'other-average', 'other-d6', 'skirmish-d6', 'cavalry-d6',
    'charge-dice', 'hessian-average', 'hessian-inches', 'disorder', 'woods-disorder', 'cavalry-speed', 'officer-dice', 'corlears-dice'];

/**
 * L6: what terrain and manoeuvre cost a move: inches lost on each die in woods (`woods-inches`),
 * uphill (`uphill-inches`) and, with `option wheel-as-uphill`, wheeling (`wheel-inches`); the DPs of a
 * wheel (`wheel-dp`), of a formation change (`formation-dp`, `formation-under-fire-dp`) and of retiring
 * as cavalry or under fire (`retire-dp`); and the share of the move a retiring unit makes (`retire-percent`,
 * rounded down).
 */
export type MoveCostKey = 'woods-inches' | 'uphill-inches' | 'wheel-inches' | 'wheel-dp' | 'formation-dp' | 'formation-under-fire-dp'
    | 'retire-percent' | 'retire-dp';
export const MOVE_COST_KEYS: readonly MoveCostKey[] = ['woods-inches', 'uphill-inches', 'wheel-inches', 'wheel-dp', 'formation-dp',
    'formation-under-fire-dp', 'retire-percent', 'retire-dp'];

/** L7: what a unit suffers on seeing a friend of a lower, equal or higher grade retreat or rout: DPs and deserting stands. */
export type MoraleKey = `${'retreats' | 'routs'}-${'lower' | 'equal' | 'higher'}-${'dp' | 'deserters'}` | 'within';
export const MORALE_KEYS: readonly MoraleKey[] = ['within',
    'retreats-lower-dp', 'retreats-equal-dp', 'retreats-higher-dp', 'routs-lower-dp', 'routs-equal-dp', 'routs-higher-dp',
    'retreats-lower-deserters', 'retreats-equal-deserters', 'retreats-higher-deserters', 'routs-lower-deserters', 'routs-equal-deserters', 'routs-higher-deserters'];

/** L8: the most DPs a stationary unit out of combat sheds in a turn, by class (class 3 also when shot at). */
export type RedressKey = 'class-1' | 'class-2' | 'class-3' | 'class-3-shot-at' | 'class-4' | 'class-5';
export const REDRESS_KEYS: readonly RedressKey[] = ['class-1', 'class-2', 'class-3', 'class-3-shot-at', 'class-4', 'class-5'];

/** L8: what each use of command points costs: an officer's `move`, inspiring (`inspire`), and rallying, per DP (`rally-dp`). */
export type CommandCostKey = 'move' | 'inspire' | 'rally-dp';
export const COMMAND_COST_KEYS: readonly CommandCostKey[] = ['move', 'inspire', 'rally-dp'];

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
    /** L1.1: a present stand's strength, by arm. */
    readonly strength: Readonly<Record<StrengthKey, number>>;
    /** L2: the modifier of each outnumbering step; the largest step that applies counts. */
    readonly outnumbered: Readonly<Record<OutnumberKey, number>>;
    /** L2.12: where each step past `any` begins, as enemy strength in percent of own (3:2 is 150). */
    readonly ratios: Readonly<Record<OutnumberStep, number>>;
    /** L3: whether a class pursues after an easy victory (the others obey orders). */
    readonly pursue: Readonly<Record<ClassKey, boolean>>;
    /** L8: who may rally a unit of each class. */
    readonly rallyBy: Readonly<Record<ClassKey, Rallier>>;
    /** L9 flee-losses: the percentage of its stands lost at which a unit flees the field. */
    readonly flee: Readonly<Record<FleeKey, number>>;
    /** L4, L5: fire ranges in inches. */
    readonly ranges: Readonly<Record<RangeKey, number>>;
    /** L4: what one artillery die does by its modified score: DPs and casualties at close range, DPs at long range. */
    readonly artillery: {
        readonly closeDp: readonly BandRow<number>[];
        readonly closeCasualties: readonly BandRow<number>[];
        readonly longDp: readonly BandRow<number>[];
    };
    /** L4: each artillery modifier's value (`dp` per DP of the firing guns). */
    readonly artilleryModifiers: Readonly<Record<ArtilleryModifierKey, number>>;
    /** L5: infantry fire's faces. */
    readonly infantry: Readonly<Record<InfantryKey, number>>;
    /** L5: the dice infantry throws, by its DPs and the target. */
    readonly infantryDice: Readonly<Record<InfantryDiceKey, number>>;
    /** L6: movement dice and the faces that disorder. */
    readonly move: Readonly<Record<MoveKey, number>>;
    /** L6: the inches and DPs of terrain, wheeling, formation changes and retiring. */
    readonly moveCosts: Readonly<Record<MoveCostKey, number>>;
    /** L7: the morale table, and how near a friend must be (inches). */
    readonly morale: Readonly<Record<MoraleKey, number>>;
    /** L8: re-dress allowances. */
    readonly redress: Readonly<Record<RedressKey, number>>;
    /** L8: command point costs. */
    readonly command: Readonly<Record<CommandCostKey, number>>;
}

const band = (from: number | null, to: number | null) => ({ from, to });
/** L3's difference bands, in the sheet's order. */
const L3_BANDS = [band(4, null), band(2, 3), band(-1, 1), band(-4, -2), band(-8, -5), band(null, -9)];
const byRow = (values: readonly number[]) => Object.fromEntries(COMBAT_RESULTS.map((r, i) => [r, values[i]])) as Record<CombatResult, number>;

/** The sheet's tables (L1 to L9). */
export const LF_SEED_TABLES: LfCombatTables = {
    results: L3_BANDS.map((b, i) => ({ band: b, value: COMBAT_RESULTS[i] })),
    dp: byRow([1, 1, 1, 2, 2, 4]),
    casualties: byRow([0, 1, 1, 1, 2, 2]),
    modifiers: {
        class: 3, fort: 3, 'stone-building': 3, fieldwork: 2, 'wood-building': 2, bayonet: 2, terrain: 1,
        inspire: 1, skirmish: -3, flank: -3, dp: -2, casualty: -2
    },
    strength: { infantry: 1, cavalry: 3, artillery: 6 },
    outnumbered: { any: -1, 'three-to-two': -2, 'two-to-one': -3, 'three-to-one': -5 },
    ratios: { 'three-to-two': 150, 'two-to-one': 200, 'three-to-one': 300 },
    pursue: { 'class-1': false, 'class-2': false, 'class-3': false, 'class-4': true, 'class-5': true },
    rallyBy: { 'class-1': 'officer', 'class-2': 'officer', 'class-3': 'officer', 'class-4': 'officer', 'class-5': 'commander' },
    flee: { militia: 50, other: 75 },
    ranges: { 'artillery-close': 10, light: 30, medium: 36, heavy: 36, musket: 8, rifle: 10 },
    // L4: close 6+ a DP and a casualty, 4–5 two DPs, 2–3 a DP; long 4+ a DP.
    artillery: {
        closeDp: [{ band: band(null, 1), value: 0 }, { band: band(2, 3), value: 1 }, { band: band(4, 5), value: 2 }, { band: band(6, null), value: 1 }],
        closeCasualties: [{ band: band(null, 5), value: 0 }, { band: band(6, null), value: 1 }],
        longDp: [{ band: band(null, 3), value: 0 }, { band: band(4, null), value: 1 }]
    },
    artilleryModifiers: {
        heavy: 1, column: 1, limbered: 1, 'same-target': 1, 'new-target': -1, dp: -1, light: -1, works: -2, skirmish: -2, unlimbered: -2
    },
    infantry: { hit: 6, reroll: 5, 'reroll-hit': 4 },
    infantryDice: { dp: 1, 'skirmish-percent': 50, 'unlimbered-percent': 50, 'works-percent': 50 },
    move: {
        'good-class': 3, 'good-average': 2, 'other-average': 1, 'other-d6': 1, 'skirmish-d6': 1, 'cavalry-d6': 2,
        'charge-dice': 3, 'hessian-average': 1, 'hessian-inches': 2, disorder: 2, 'woods-disorder': 3, 'cavalry-speed': 1, 'officer-dice': 1, 'corlears-dice': 1
    },
    moveCosts: {
        'woods-inches': 1, 'uphill-inches': 1, 'wheel-inches': 1, 'wheel-dp': 1, 'formation-dp': 1, 'formation-under-fire-dp': 2,
        'retire-percent': 50, 'retire-dp': 1
    },
    morale: {
        within: 6,
        'retreats-lower-dp': 0, 'retreats-equal-dp': 2, 'retreats-higher-dp': 2, 'routs-lower-dp': 1, 'routs-equal-dp': 2, 'routs-higher-dp': 3,
        'retreats-lower-deserters': 0, 'retreats-equal-deserters': 0, 'retreats-higher-deserters': 0,
        'routs-lower-deserters': 0, 'routs-equal-deserters': 1, 'routs-higher-deserters': 1
    },
    redress: { 'class-1': 2, 'class-2': 1, 'class-3': 1, 'class-3-shot-at': 0, 'class-4': 0, 'class-5': 0 },
    command: { move: 1, inspire: 3, 'rally-dp': 2 }
};

/** L4 with the tables in force: what one artillery die does at a range band, by its modified score. */
export function artilleryEffect(band: 'close' | 'long', modified: number, tables: LfCombatTables = LF_SEED_TABLES): { dp: number, casualties: number } {
    // The tables are checked to cover every score; a hole reads as the sheet's value.
    const a = tables.artillery, seed = LF_SEED_TABLES.artillery;
    if (band === 'long') return { dp: bandValue(a.longDp, modified) ?? bandValue(seed.longDp, modified)!, casualties: 0 };
    return {
        dp: bandValue(a.closeDp, modified) ?? bandValue(seed.closeDp, modified)!,
        casualties: bandValue(a.closeCasualties, modified) ?? bandValue(seed.closeCasualties, modified)!
    };
}

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
