/**
 * Loose Files movement (docs/rules/loose-files.md, L6, and the full-move and brigade-move house rules of L9).
 *
 * A unit moves the sum of the dice it chose to throw, in inches: average dice by class, a d6 more for
 * skirmishers, one or two more for cavalry. Formed troops are disordered by low d6 (1–2, or 1–3 in
 * woods); wheeling, changing formation and retiring add DPs of their own (the tables' `moveCosts`).
 */
import { AVERAGE, D6, canShow } from '../../../core/dice.js';
import { LF_SEED_TABLES, type LfCombatTables } from './loose-files-tables.js';
import { isFormed, type Formation, type LfModifier, type LfOptions, type LfUnit } from './loose-files-units.js';

export interface MoveInput {
    readonly unit: LfUnit;
    /** Average dice thrown. */
    readonly average: number;
    /** d6 thrown. */
    readonly d6: number;
    /** Inches added without a die: a Hessian's +2" (L6). */
    readonly plus: number;
    readonly woods: boolean;
    readonly uphill: boolean;
    readonly charging: boolean;
    readonly wheel: boolean;
    readonly formationChange: boolean;
    /** L6.11: the formation the change ends in (`formation-change, column`); none for a change of facing. */
    readonly newFormation?: Formation;
    readonly retire: boolean;
    readonly underFire: boolean;
    /** L6: "cross fence/wall; stop at obstacle, continue next turn": the move ends at the obstacle. */
    readonly obstacle?: boolean;
    /** L9 full-move: the stopping point the umpire named (a fence line, a hill top). */
    readonly stop: string | undefined;
    readonly options: LfOptions;
}

/** The average dice from one up to `most`. */
const oneTo = (most: number) => Array.from({ length: Math.max(0, most) }, (_, i) => i + 1);
const dice = (n: number, what: string) => (n === 1 ? `one ${what}` : n === 2 ? `one or two ${what}s` : `one to ${n} ${what}s`);

/** An officer's dice, in words (L6, L8.1: the sheet's "one die"; the `move-dice officer-dice` row). */
function officerDiceText(n: number): string {
    return n === 1 ? 'one die' : `${n} dice`;
}

/** The dice a unit may throw (L6, the `move-dice` table): average dice allowed, and the most d6. */
export function allowedMoveDice(u: LfUnit, tables: LfCombatTables = LF_SEED_TABLES): { average: readonly number[], maxD6: number, explain: string } {
    const t = tables.move;
    if (u.type === 'officer' || u.type === 'commander') {
        const n = t['officer-dice'];
        return { average: [0, ...oneTo(n)], maxD6: n, explain: `an officer moves ${officerDiceText(n)}, average or d6` };
    }
    const hessian = u.hessian && !u.jaeger && u.type === 'infantry';
    const extraSkirmish = u.formation === 'skirmish' ? t['skirmish-d6'] : 0;
    const extraCavalry = u.type === 'cavalry' ? t['cavalry-d6'] : 0;
    const parts: string[] = [];
    let average: number[], base: number;
    if (hessian) {
        average = [t['hessian-average']]; base = 0;
        parts.push(`Hessian infantry: ${t['hessian-average'] === 1 ? 'one average die' : `${t['hessian-average']} average dice`} (+${t['hessian-inches']}")`);
    }
    else if (u.class <= t['good-class']) { average = oneTo(t['good-average']); base = 0; parts.push(`class ${u.class}: ${dice(t['good-average'], 'average die').replace(/dies$/, 'dice')}`); }
    else {
        average = oneTo(t['other-average']); base = t['other-d6'];
        const avg = dice(t['other-average'], 'average die').replace(/dies$/, 'dice');
        parts.push(`class ${u.class}: ${avg}${base > 0 ? `, or ${avg.replace(/^one or two|^one to \d+/, 'those')} and ${base === 1 ? 'one d6' : `up to ${base} d6`}` : ''}`);
    }
    if (extraSkirmish) parts.push(`skirmishers: ${extraSkirmish === 1 ? 'a d6' : `${extraSkirmish} d6`} more`);
    if (extraCavalry) parts.push(`cavalry: ${extraCavalry === 2 ? 'one or two' : extraCavalry === 1 ? 'one' : `up to ${extraCavalry}`} d6 more`);
    return { average, maxD6: base + extraSkirmish + extraCavalry, explain: parts.join('; ') };
}

/** Why a dice choice breaks L6 (other than the charge minimum), or undefined when it is allowed. */
export function moveDiceProblem(input: Pick<MoveInput, 'unit' | 'average' | 'd6' | 'plus' | 'formationChange'>, tables: LfCombatTables = LF_SEED_TABLES): string | undefined {
    const { unit: u } = input;
    if (input.formationChange) return undefined;
    const allowed = allowedMoveDice(u, tables);
    const bonus = tables.move['hessian-inches'];
    if (u.type === 'officer' || u.type === 'commander') {
        return input.average + input.d6 === tables.move['officer-dice'] ? undefined : `${allowed.explain}, not ${input.average} average and ${input.d6} d6`;
    }
    if (!allowed.average.includes(input.average) || input.d6 < 0 || input.d6 > allowed.maxD6) {
        return `${allowed.explain} — not ${input.average} average and ${input.d6} d6`;
    }
    const hessian = u.hessian && !u.jaeger && u.type === 'infantry';
    if (input.plus !== 0 && !(hessian && input.plus === bonus)) {
        return hessian ? `a Hessian adds ${bonus}", not ${input.plus}"` : `only Hessian infantry add inches without a die`;
    }
    return undefined;
}

/** L6: charging cavalry throw at least 3 dice (`move-dice charge-dice`). */
export function chargeTooFewDice(input: Pick<MoveInput, 'unit' | 'average' | 'd6' | 'charging'>, tables: LfCombatTables = LF_SEED_TABLES): boolean {
    return input.charging && input.unit.type === 'cavalry' && input.average + input.d6 < tables.move['charge-dice'];
}

/** The dice thrown for a move: none when the unit spends the turn changing formation. */
export function moveDiceCounts(input: Pick<MoveInput, 'average' | 'd6' | 'formationChange'>): { average: number, d6: number } {
    return input.formationChange ? { average: 0, d6: 0 } : { average: input.average, d6: input.d6 };
}

export type MoveResult = 'moved' | 'charged' | 'retired' | 'changed-formation';

export interface MoveOutcome {
    readonly result: MoveResult;
    readonly average: readonly number[];
    readonly d6: readonly number[];
    /** Inches lost or gained, itemised (woods, uphill, Hessian, retiring). */
    readonly inchModifiers: readonly LfModifier[];
    readonly inches: number;
    /** DPs gained, each with its reason. */
    readonly dpReasons: readonly LfModifier[];
    readonly dp: number;
    /** What the unit must do with the distance (full-move house rule). */
    readonly order: string;
    /** The formation the unit is in from now on, when the move changed it (L6.11). */
    readonly formation?: Formation;
}

/** L6: the highest d6 face that disorders formed troops: 2, or 3 in woods (`move-dice disorder`, `woods-disorder`). */
export function disorderingFace(woods: boolean, tables: LfCombatTables = LF_SEED_TABLES): number {
    return woods ? tables.move['woods-disorder'] : tables.move.disorder;
}

/**
 * L6: the inches each die loses: woods and uphill, and a wheel read as uphill (L6.10 with `option
 * wheel-as-uphill`), each the `move-cost` table's inches; itemised for the breakdown.
 */
export function inchesLostPerDie(input: Pick<MoveInput, 'woods' | 'uphill' | 'wheel' | 'options'>, tables: LfCombatTables = LF_SEED_TABLES): { perDie: number, reasons: { reason: string, inches: number }[] } {
    const c = tables.moveCosts;
    const reasons: { reason: string, inches: number }[] = [];
    if (input.woods && c['woods-inches'] > 0) reasons.push({ reason: 'woods', inches: c['woods-inches'] });
    if (input.uphill && c['uphill-inches'] > 0) reasons.push({ reason: 'uphill', inches: c['uphill-inches'] });
    if (input.wheel && input.options.wheelAsUphill === true && c['wheel-inches'] > 0) reasons.push({ reason: 'wheeling, as uphill', inches: c['wheel-inches'] });
    return { perDie: reasons.reduce((s, r) => s + r.inches, 0), reasons };
}

/** L6.13: a retiring unit's share of its move, rounded down (`move-cost retire-percent`). */
export function retiringInches(inches: number, tables: LfCombatTables = LF_SEED_TABLES): number {
    return Math.floor((inches * tables.moveCosts['retire-percent']) / 100);
}

/**
 * L6: the DPs a move takes whatever its dice show: a wheel, and retiring as cavalry or under fire
 * (a formation change, which throws nothing, is `formationChangeDp`).
 */
export function fixedMoveDp(input: Pick<MoveInput, 'unit' | 'wheel' | 'retire' | 'underFire'>, tables: LfCombatTables = LF_SEED_TABLES): LfModifier[] {
    const c = tables.moveCosts;
    const out: LfModifier[] = [];
    if (input.wheel && c['wheel-dp'] > 0) out.push({ reason: 'wheeling', value: c['wheel-dp'] });
    if (input.retire && (input.unit.type === 'cavalry' || input.underFire) && c['retire-dp'] > 0) {
        out.push({ reason: input.unit.type === 'cavalry' ? 'cavalry retiring' : 'retiring under fire', value: c['retire-dp'] });
    }
    return out;
}

/** L6.11: the DPs of changing formation or facing, under fire or not. */
export function formationChangeDp(underFire: boolean, tables: LfCombatTables = LF_SEED_TABLES): LfModifier[] {
    const value = tables.moveCosts[underFire ? 'formation-under-fire-dp' : 'formation-dp'];
    return value > 0 ? [{ reason: underFire ? 'formation change under fire' : 'formation change', value }] : [];
}

/** How a disordering face reads: the sheet's 1 or 2 and 1–3 as printed, any other as a range. */
function facesText(face: number, woods: boolean): string {
    const faces = face <= 1 ? '1' : face === 2 ? '1 or 2' : `1–${face}`;
    return woods ? `${faces} in woods` : faces;
}

export function resolveMove(input: MoveInput, dice: { average: readonly number[], d6: readonly number[] }, tables: LfCombatTables = LF_SEED_TABLES): MoveOutcome {
    const counts = moveDiceCounts(input);
    if (dice.average.length !== counts.average || dice.d6.length !== counts.d6) {
        throw new Error(`the move needs ${counts.average} average and ${counts.d6} d6`);
    }
    for (const v of dice.average) if (!canShow(AVERAGE, v)) throw new Error(`an average die cannot show ${v}`);
    for (const v of dice.d6) if (!canShow(D6, v)) throw new Error(`a d6 cannot show ${v}`);
    const u = input.unit;
    const dpReasons: LfModifier[] = [];
    if (input.formationChange) {
        dpReasons.push(...formationChangeDp(input.underFire, tables));
        const formation = input.newFormation && input.newFormation !== u.formation ? { formation: input.newFormation } : {};
        return { result: 'changed-formation', average: [], d6: [], inchModifiers: [], inches: 0, dpReasons, dp: sumDp(dpReasons), order: 'stays in place this turn', ...formation };
    }
    const all = [...dice.average, ...dice.d6];
    const rolled = all.reduce((s, v) => s + v, 0);
    const inchModifiers: LfModifier[] = [];
    // Each die loses inches, but a die never moves a unit backwards.
    // L6.10 read as `option wheel-as-uphill`: a wheel loses inches a die as uphill does (and its DP below).
    const { perDie, reasons } = inchesLostPerDie(input, tables);
    for (const r of reasons) inchModifiers.push({ reason: `${r.reason}: −${r.inches}" on each of ${all.length} dice`, value: -r.inches * all.length });
    let inches = all.reduce((s, v) => s + Math.max(0, v - perDie), 0);
    const floorLoss = rolled - perDie * all.length - inches;
    if (floorLoss < 0) inchModifiers.push({ reason: 'no die moves less than 0"', value: -floorLoss });
    if (input.plus) { inches += input.plus; inchModifiers.push({ reason: `Hessian: +${input.plus}"`, value: input.plus }); }
    if (input.retire) {
        const share = tables.moveCosts['retire-percent'];
        const kept = retiringInches(inches, tables);
        inchModifiers.push({ reason: `retiring facing the enemy: ${share === 50 ? 'half move' : `${share}% of the move`}, rounded down`, value: kept - inches });
        inches = kept;
    }
    if (isFormed(u) && u.type !== 'officer' && u.type !== 'commander') {
        const face = disorderingFace(input.woods, tables);
        // L6.7: the d6 only, or with `option average-disorder` every die, the average die's 2 (and 3) too.
        const counted = input.options.averageDisorder ? all : dice.d6;
        const low = counted.filter(v => v <= face).length;
        if (low > 0) dpReasons.push({ reason: `formed troops: ${low} ${input.options.averageDisorder ? (low === 1 ? 'die' : 'dice') : 'd6'} showing ${facesText(face, input.woods)}`, value: low });
    }
    dpReasons.push(...fixedMoveDp(input, tables));
    const result: MoveResult = input.retire ? 'retired' : input.charging ? 'charged' : 'moved';
    return { result, average: dice.average, d6: dice.d6, inchModifiers, inches, dpReasons, dp: sumDp(dpReasons), order: moveOrder(input, inches) };
}

/** L9 full-move: the distance is a duty, unless the umpire named where the unit stops. */
function moveOrder(input: Pick<MoveInput, 'options' | 'stop' | 'obstacle'>, inches: number): string {
    if (input.obstacle) return `stops at the fence or wall within ${inches} inches; crosses it next turn`;
    if (!input.options.fullMove) return `may move up to ${inches} inches`;
    return input.stop !== undefined ? `moves up to ${inches} inches, stopping at ${input.stop}` : `must move the full ${inches} inches`;
}

function sumDp(reasons: readonly LfModifier[]): number {
    return reasons.reduce((s, r) => s + r.value, 0);
}
