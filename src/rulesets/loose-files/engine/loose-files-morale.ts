/**
 * Loose Files morale (docs/rules/loose-files.md, L7): what a unit suffers on seeing a friend within 6" retreat or rout.
 * Grade is class: a lower class number is a higher grade.
 */
import { LF_SEED_TABLES, type LfCombatTables, type MoraleKey } from './loose-files-tables.js';
import { afterLosses, fleesField, presentStands, takesNoLosses, type LfOptions, type LfUnit } from './loose-files-units.js';

export type MoraleEvent = 'retreats' | 'routs';
type MoraleResult = 'unmoved' | 'disordered' | 'stand-deserts';

export interface MoraleInput {
    readonly observer: LfUnit;
    readonly friend: LfUnit;
    readonly event: MoraleEvent;
    /** Inches to the friend, when the umpire wrote it. */
    readonly distance: number | undefined;
    /** The friend fled the field (L9 flee-losses: friends who see it lose nothing). */
    readonly friendFled: boolean;
    readonly options: LfOptions;
}

export interface MoraleOutcome {
    readonly result: MoraleResult;
    readonly dp: number;
    readonly deserted: number;
    readonly reason: string;
    /** The observer flees the field after its deserter (L9 flee-losses). */
    readonly fled: boolean;
}

/** How the friend's grade compares with the observer's. */
function gradeOfFriend(observer: LfUnit, friend: LfUnit): 'lower' | 'equal' | 'higher' {
    if (friend.class > observer.class) return 'lower';
    return friend.class === observer.class ? 'equal' : 'higher';
}

/** The `morale` keys of a row of L7's table: `routs-equal-dp`, `routs-equal-deserters`. */
export function moraleKeys(grade: 'lower' | 'equal' | 'higher', event: MoraleEvent): { dp: MoraleKey, deserted: MoraleKey } {
    return { dp: `${event}-${grade}-dp`, deserted: `${event}-${grade}-deserters` };
}

/** L7's table (the tables' `morale`): DPs and deserting stands by the friend's grade and what it did. */
function moraleTable(grade: 'lower' | 'equal' | 'higher', event: MoraleEvent, tables: LfCombatTables): { dp: number, deserted: number } {
    const keys = moraleKeys(grade, event);
    return { dp: tables.morale[keys.dp], deserted: tables.morale[keys.deserted] };
}

/** How the friend's grade compares with the observer's, for the `morale` row it reads. */
export function moraleGrade(input: Pick<MoraleInput, 'observer' | 'friend'>): 'lower' | 'equal' | 'higher' {
    return gradeOfFriend(input.observer, input.friend);
}

export function resolveMorale(input: MoraleInput, tables: LfCombatTables = LF_SEED_TABLES): MoraleOutcome {
    const none = (reason: string): MoraleOutcome => ({ result: 'unmoved', dp: 0, deserted: 0, reason, fled: false });
    const within = tables.morale.within;
    if (input.distance !== undefined && input.distance > within) return none(`the friend is ${input.distance}" away, beyond ${within}"`);
    if (takesNoLosses(input.observer)) return none(`${input.observer.type}s take no DPs or desertions from morale`);
    if (input.options.fleeLosses && input.friendFled) return none('the friend fled the field (flee-losses: no DPs to those who see it)');
    const grade = gradeOfFriend(input.observer, input.friend);
    const row = moraleTable(grade, input.event, tables);
    // A unit cannot lose a stand it no longer has.
    const deserted = Math.min(row.deserted, presentStands(input.observer));
    const reason = `${grade} grade friend (class ${input.friend.class} seen by class ${input.observer.class}) ${input.event}`;
    if (row.dp === 0) return none(reason);
    const fled = input.options.fleeLosses && deserted > 0 && fleesField(afterLosses(input.observer, 0, deserted), tables.flee);
    return { result: deserted > 0 ? 'stand-deserts' : 'disordered', dp: row.dp, deserted, reason, fled };
}
