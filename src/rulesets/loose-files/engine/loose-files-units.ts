/**
 * Loose Files & American Scramble: what the engine knows about a unit (docs/rules/loose-files.md, L1), and the
 * house-rule options (L9). Plain data only; src/model/loose-files.ts reads it from a scenario.
 */
import { LF_SEED_TABLES, type FleeKey, type LfCombatTables, type StrengthKey } from './loose-files-tables.js';

/** L1: the unit's type. Officers and commanders carry command points and do not fight. */
export type LfType = 'infantry' | 'cavalry' | 'artillery' | 'officer' | 'commander';

export type Formation = 'line' | 'column' | 'skirmish' | 'limbered' | 'unlimbered';
export const FORMATIONS: readonly Formation[] = ['line', 'column', 'skirmish', 'limbered', 'unlimbered'];

export type Guns = 'light' | 'medium' | 'heavy';
export const GUNS: readonly Guns[] = ['light', 'medium', 'heavy'];

export type Weapon = 'musket' | 'rifle';
export const WEAPONS: readonly Weapon[] = ['musket', 'rifle'];

/**
 * Where a unit stands: L2 and L3 name forts and stone buildings (+3), fieldworks and wood buildings
 * (+2); L9 (Corlears Hook) also spares units defending an obstacle.
 */
export type Cover = 'fort' | 'stone-building' | 'fieldwork' | 'wood-building' | 'obstacle';
export const COVERS: readonly Cover[] = ['fort', 'stone-building', 'fieldwork', 'wood-building', 'obstacle'];

export interface LfUnit {
    /** `Force.Unit` or `Force.Unit#k`. */
    readonly id: string;
    readonly force: string;
    /** The unit's name within its force, with `#k` for one of several. */
    readonly unit: string;
    readonly type: LfType;
    /** L1: 1 (elite, veteran) … 5 (unmotivated). A lower number is a higher grade. */
    readonly class: number;
    readonly formation: Formation;
    /** Stands (figures, guns) the unit started with. */
    readonly stands: number;
    /** Disorder points it carries now. */
    readonly dp: number;
    /** Stands lost to combat and fire (a casualty is one stand). */
    readonly casualties: number;
    /** Stands lost to desertion (L7). */
    readonly deserted: number;
    readonly guns: Guns | undefined;
    readonly weapon: Weapon;
    /** Hessian infantry other than Jaegers (L6). */
    readonly hessian: boolean;
    readonly jaeger: boolean;
    readonly militia: boolean;
    /** Command points an officer or commander has each turn (L8). */
    readonly cp: number;
    /** The officer this unit is attached to, by unit name (the `attached` stat), if any. */
    readonly attached: string | undefined;
}

/** L9: the seed's house rules, each off unless the scenario writes `option NAME`. */
export interface LfOptions {
    /** `option full-move`: units must move the full distance rolled unless a stopping point is named. */
    readonly fullMove: boolean;
    /** `option brigade-move`: units moving together throw one movement roll. */
    readonly brigadeMove: boolean;
    /** `option corlears-hook`: after the second stand-off in a row both sides retreat one average die. */
    readonly corlearsHook: boolean;
    /** `option flee-losses`: militia at 50% losses, others at 75%, flee the field. */
    readonly fleeLosses: boolean;
    /**
     * `option wheel-as-uphill`: the other reading of "Wheeling, as uphill get 1 DP" (L6.10): wheeling
     * costs 1" a die as uphill does, and 1 DP. Absent (not false) when off, so that files without it
     * keep their outcomes' fingerprints.
     */
    readonly wheelAsUphill?: boolean;
    /**
     * `option average-disorder`: "Formed troops get 1 DP for each 1 or 2 rolled" read as written, for
     * every movement die: an average die's 2 (and 3 in woods) disorders as a d6's does (L6.7). Absent
     * when off, as `wheelAsUphill`.
     */
    readonly averageDisorder?: boolean;
}

/** The most stands a unit may have: a unit is a battalion or battery, and dice per stand stay few. */
export const MAX_STANDS = 100;
/** The most movement dice of one kind a line may ask for (the sheet never needs more than 3). */
export const MAX_MOVE_DICE = 6;

/**
 * Distances the umpire measures (`range 9.5`, `distance 4.5`) may be fractions (docs/rules/loose-files.md#l-dist); none is
 * below 0, and none is longer than any table (100 feet): such a number is a slip of the pen.
 */
const MAX_TABLE_INCHES = 1200;
export function distanceProblem(inches: number): string | undefined {
    if (inches < 0) return `a distance is in inches, 0 or more (not ${inches})`;
    if (inches > MAX_TABLE_INCHES) return `${inches}" is longer than any table (${MAX_TABLE_INCHES}", 100 feet)`;
    return undefined;
}

export const NO_HOUSE_RULES: LfOptions = { fullMove: false, brigadeMove: false, corlearsHook: false, fleeLosses: false };

/** The scenario option names of the house rules (L9). */
export const HOUSE_RULE_OPTIONS: Readonly<Record<keyof LfOptions, string>> = {
    fullMove: 'full-move', brigadeMove: 'brigade-move', corlearsHook: 'corlears-hook', fleeLosses: 'flee-losses',
    wheelAsUphill: 'wheel-as-uphill', averageDisorder: 'average-disorder'
};

/** A modifier with the reason an umpire reads it by (every modifier is itemised). */
export interface LfModifier {
    readonly reason: string;
    readonly value: number;
    /** The table rows it read (`['combat-modifier', 'bayonet']`), so a breakdown can name the house's. */
    readonly reads?: ReadonlyArray<readonly [table: string, key: string]>;
}

export function sumModifiers(mods: readonly LfModifier[]): number {
    return mods.reduce((s, m) => s + m.value, 0);
}

/** Stands still on the table: those it started with, less casualties and deserters. */
export function presentStands(u: LfUnit): number {
    return Math.max(0, u.stands - u.casualties - u.deserted);
}

/**
 * A casualty is one stand (L1.2): a unit cannot lose more stands than it has on the table. The
 * sheet's casualties beyond that are `over` (docs/rules/loose-files.md#l1.3): not taken, and flagged.
 */
export function casualtiesTaken(u: LfUnit, sheet: number): { taken: number, over: number } {
    const taken = Math.min(sheet, presentStands(u));
    return { taken, over: sheet - taken };
}

/**
 * Officers and commanders take no DPs, casualties or desertions from fire and morale
 * (docs/rules/loose-files.md#l1.4): they carry none (re-dressing says so too, L8).
 */
export function takesNoLosses(u: LfUnit): boolean {
    return u.type === 'officer' || u.type === 'commander';
}

/** L1: one stand of infantry counts 1, of cavalry 3, a gun 6 (the tables' `strength`); officers add nothing. */
export function strength(u: LfUnit, tables: LfCombatTables = LF_SEED_TABLES): number {
    return u.type === 'officer' || u.type === 'commander' ? 0 : presentStands(u) * tables.strength[u.type];
}

/** The `strength` rows a side's strength read: the arm of each unit with stands present, each once, in order. */
export function strengthKeys(units: readonly LfUnit[]): StrengthKey[] {
    const keys: StrengthKey[] = [];
    for (const u of units) if (u.type !== 'officer' && u.type !== 'commander' && presentStands(u) > 0 && !keys.includes(u.type)) keys.push(u.type);
    return keys;
}

/** Formed troops are all but skirmishers (L6: only they gain DPs from low movement dice). */
export function isFormed(u: LfUnit): boolean {
    return u.formation !== 'skirmish';
}

/**
 * L9 (flee-losses): militia with half their stands lost, other units with three quarters lost,
 * flee the field (the house `flee-losses` table may move both shares). Losses are casualties and deserters against the stands the unit started with.
 */
export function fleesField(u: Pick<LfUnit, 'stands' | 'casualties' | 'deserted' | 'militia'>, thresholds: Readonly<Record<FleeKey, number>> = LF_SEED_TABLES.flee): boolean {
    if (u.stands <= 0) return false;
    const losses = u.casualties + u.deserted;
    // In whole numbers: losses ≥ percent% of the stands.
    return 100 * losses >= (u.militia ? thresholds.militia : thresholds.other) * u.stands;
}

/** A unit after an action's losses: what flee-losses is tested on. */
export function afterLosses(u: LfUnit, casualties: number, deserted: number): LfUnit {
    return { ...u, casualties: u.casualties + casualties, deserted: u.deserted + deserted };
}

