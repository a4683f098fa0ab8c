/**
 * Loose Files command and re-dressing (docs/rules/loose-files.md, L8), and the order of play of a turn.
 *
 * Re-dressing is training: a stationary unit out of combat sheds DPs by its class. Classes 4 and 5
 * shed none on their own: an officer (class 4) or the army commander (class 5) must rally them,
 * at 2 CP a DP. Officers also spend CP to move (1) and to inspire a unit in combat (3): the
 * tables' `command` costs.
 */
import { classKey, LF_SEED_TABLES, type LfCombatTables, type RedressKey } from './loose-files-tables.js';
import type { LfUnit } from './loose-files-units.js';

export interface RedressInput {
    readonly unit: LfUnit;
    /** The unit moved this turn. */
    readonly moved: boolean;
    readonly inCombat: boolean;
    /** The unit was shot at this turn (stops class 3). */
    readonly shotAt: boolean;
}

type RedressResult = 'redressed' | 'no-redress';

export interface RedressOutcome {
    readonly result: RedressResult;
    /** DPs removed (0 or more). */
    readonly removed: number;
    readonly reason: string;
}

/** The `redress` key a unit's class reads (class 1 or better, class 5 or worse). */
export function redressKey(cls: number, shotAt: boolean): RedressKey {
    if (cls <= 1) return 'class-1';
    if (cls === 2) return 'class-2';
    if (cls === 3) return shotAt ? 'class-3-shot-at' : 'class-3';
    return cls === 4 ? 'class-4' : 'class-5';
}

/** L8: the most DPs a stationary unit out of combat sheds in a turn, by class, on its own (the tables' `redress`). */
export function redressAllowance(cls: number, shotAt: boolean, tables: LfCombatTables = LF_SEED_TABLES): { most: number, reason: string } {
    const key = redressKey(cls, shotAt);
    const most = tables.redress[key];
    const removes = most === 0 ? 'removes none' : most === 1 ? 'removes 1 DP' : `removes up to ${most} DPs`;
    const when = key === 'class-3-shot-at' ? ' when shot at' : key === 'class-3' ? ' when not shot at' : '';
    // Classes 4 and 5 shed DPs only through a rally (L8), which the sheet says in their row.
    if (most === 0 && (key === 'class-4' || key === 'class-5')) {
        const by = tables.rallyBy[key] === 'commander' ? 'the army commander' : 'an officer';
        return { most, reason: `class ${key.split('-')[1]} removes DPs only with ${by} (a rally)` };
    }
    return { most, reason: `class ${key.split('-')[1]} ${removes}${when}` };
}

export function resolveRedress(input: RedressInput, tables: LfCombatTables = LF_SEED_TABLES): RedressOutcome {
    const { unit } = input;
    const none = (reason: string): RedressOutcome => ({ result: 'no-redress', removed: 0, reason });
    if (unit.type === 'officer' || unit.type === 'commander') return none('officers carry no DPs');
    if (input.moved) return none('it moved this turn');
    if (input.inCombat) return none('it is in combat');
    const allowance = redressAllowance(unit.class, input.shotAt, tables);
    const removed = Math.min(allowance.most, unit.dp);
    if (removed === 0) return none(unit.dp === 0 && allowance.most > 0 ? 'it has no DPs' : allowance.reason);
    return { result: 'redressed', removed, reason: allowance.reason };
}

export interface RallyInput {
    readonly officer: LfUnit;
    readonly unit: LfUnit;
    /** DPs the officer tries to remove. */
    readonly dp: number;
}

export interface RallyOutcome {
    readonly removed: number;
    readonly cp: number;
    /** Why nothing was removed, when nothing was. */
    readonly problem: string | undefined;
}

/** L8: a class 5 unit answers only to the army commander (the tables' `rally-by`). */
export function rallyNeedsCommander(officer: LfUnit, unit: LfUnit, tables: LfCombatTables = LF_SEED_TABLES): boolean {
    return tables.rallyBy[classKey(unit.class)] === 'commander' && officer.type !== 'commander';
}

/** L8: rally removes one DP per 2 CP (`command-cost rally-dp`), up to the DPs the unit carries; CP are spent only on DPs removed. */
export function resolveRally(input: RallyInput, tables: LfCombatTables = LF_SEED_TABLES): RallyOutcome {
    if (rallyNeedsCommander(input.officer, input.unit, tables)) {
        return { removed: 0, cp: 0, problem: `a class ${input.unit.class} unit is rallied only by the army commander` };
    }
    const removed = Math.max(0, Math.min(input.dp, input.unit.dp));
    return { removed, cp: removed * tables.command['rally-dp'], problem: removed === 0 ? 'the unit has no DPs' : undefined };
}

/**
 * The first spend (by index) that takes an officer past its command points for the turn, or −1.
 * `spends` are the CP of each use in the order the file makes them.
 */
export function firstOverspend(budget: number, spends: readonly number[]): number {
    let total = 0;
    for (let i = 0; i < spends.length; i++) {
        total += spends[i];
        if (total > budget) return i;
    }
    return -1;
}

/** The order of play of a turn (the seed's list; docs/rules/loose-files.md#l0). */
export const ORDER_OF_PLAY: ReadonlyArray<{ phase: number, name: string, kind: string | undefined }> = [
    // Not an action kind of its own: a `move` whose every line is a `retreat` or `rout` (stepKind).
    { phase: 1, name: 'compulsory retreats and routs from earlier combats', kind: 'retreat' },
    { phase: 2, name: 'morale', kind: 'morale' },
    { phase: 3, name: 'firing', kind: 'fire' },
    { phase: 4, name: 'command points; commanders and couriers move', kind: 'command' },
    { phase: 5, name: 'movement', kind: 'move' },
    { phase: 6, name: 'combat', kind: 'engagement' },
    { phase: 7, name: 're-dress ranks', kind: 'redress' }
];

/** The phase an action kind belongs to, or undefined for a kind outside the order of play. */
export function phaseOf(kind: string): number | undefined {
    return ORDER_OF_PLAY.find(p => p.kind === kind)?.phase;
}

/** Indices of actions that come after an action of a later phase within the same turn. */
export function outOfOrder(kinds: readonly string[]): number[] {
    const out: number[] = [];
    let latest = 0;
    kinds.forEach((kind, i) => {
        const phase = phaseOf(kind) ?? 0;
        if (phase < latest) out.push(i);
        latest = Math.max(latest, phase);
    });
    return out;
}

/** Sorts a turn's actions into the order of play, keeping file order within a phase. */
export function inOrderOfPlay<T>(actions: readonly T[], kindOf: (a: T) => string): T[] {
    return actions.map((a, i) => ({ a, i, p: phaseOf(kindOf(a)) ?? 0 }))
        .sort((x, y) => x.p - y.p || x.i - y.i)
        .map(x => x.a);
}
