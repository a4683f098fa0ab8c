/**
 * Loose Files fire: artillery (docs/rules/loose-files.md, L4) and infantry (L5).
 *
 * Artillery throws one d6 per stand (gun), each turned by every modifier and read on the close or
 * long table (the tables' `artillery`). Infantry throws one d6 per stand less its DPs, halved (rounded
 * up) against skirmishers or unlimbered guns and again against troops in works; each 6 is a DP, and
 * skirmishers throw again for each 5 (4, 5 or 6 on the new die is a DP): the tables' `infantry` faces.
 */
import { D6, canShow } from '../../../core/dice.js';
import { artilleryEffect, LF_SEED_TABLES, type ArtilleryModifierKey, type InfantryDiceKey, type LfCombatTables } from './loose-files-tables.js';
import { afterLosses, casualtiesTaken, fleesField, takesNoLosses, presentStands, sumModifiers, type Cover, type LfModifier, type LfOptions, type LfUnit } from './loose-files-units.js';

export interface FireInput {
    readonly firer: LfUnit;
    readonly target: LfUnit;
    /** Inches from firer to target. */
    readonly range: number;
    /** Same target and range as last turn (L4 +1). */
    readonly sameTarget: boolean;
    /** A new target (L4 −1). */
    readonly newTarget: boolean;
    /**
     * Where `sameTarget`/`newTarget` came from when the umpire did not write them: the firer's fire of
     * the turn before (docs/rules/loose-files.md#l4.3), named in the modifier's reason.
     */
    readonly targetFrom?: string;
    /** The firer moved this turn (L5: only skirmishers may move and fire). */
    readonly moved: boolean;
    readonly targetCover: Cover | undefined;
    readonly options: LfOptions;
}

export type FireKind = 'artillery' | 'infantry';
/** L4 close / long, or the infantry weapon's single band (L5). */
export type FireBand = 'close' | 'long' | 'musket' | 'rifle' | 'out-of-range';

/** Only artillery (L4) and infantry (L5) fire; cavalry and officers do not. */
export function fireKind(firer: LfUnit): FireKind | undefined {
    if (firer.type === 'artillery') return 'artillery';
    if (firer.type === 'infantry') return 'infantry';
    return undefined;
}

/** L4: long range ends at 30" for light guns, 36" for medium and heavy. L5: musket 8", rifle 10" (by the tables' `ranges`). */
export function reachOf(firer: LfUnit, tables: LfCombatTables = LF_SEED_TABLES): number {
    if (firer.type === 'artillery') return tables.ranges[firer.guns ?? 'medium'];
    return tables.ranges[firer.weapon];
}

/** L4: close range is under 10" (`artillery-close`), long range beyond it up to the gun's reach. */
export function fireBand(firer: LfUnit, range: number, tables: LfCombatTables = LF_SEED_TABLES): FireBand {
    if (range > reachOf(firer, tables)) return 'out-of-range';
    if (firer.type === 'artillery') return range < tables.ranges['artillery-close'] ? 'close' : 'long';
    return firer.weapon;
}

/** L4: the modifiers that apply to each die of this artillery fire, in the sheet's order (the `artillery-modifier` table's keys). */
export function artilleryModifierKeys(input: FireInput): ArtilleryModifierKey[] {
    const { firer, target } = input;
    const keys: ArtilleryModifierKey[] = [];
    if (firer.guns === 'heavy') keys.push('heavy');
    if (target.formation === 'column') keys.push('column');
    if (target.formation === 'limbered') keys.push('limbered');
    if (input.sameTarget) keys.push('same-target');
    if (input.newTarget) keys.push('new-target');
    if (firer.dp > 0) keys.push('dp');
    if (firer.guns === 'light') keys.push('light');
    const cover = input.targetCover;
    if (cover === 'fieldwork' || cover === 'fort' || cover === 'stone-building') keys.push('works');
    if (target.formation === 'skirmish') keys.push('skirmish');
    if (target.type === 'artillery' && target.formation === 'unlimbered') keys.push('unlimbered');
    return keys;
}

/** L4: every modifier of each artillery die, itemised, valued by the tables' `artilleryModifiers`. */
export function artilleryModifiers(input: FireInput, tables: LfCombatTables = LF_SEED_TABLES): LfModifier[] {
    const { firer } = input;
    const m = tables.artilleryModifiers;
    const from = input.targetFrom ? ` (${input.targetFrom})` : '';
    const cover = input.targetCover;
    const reasons: Record<ArtilleryModifierKey, () => string> = {
        heavy: () => 'heavy gun',
        column: () => 'target in column',
        limbered: () => 'target is limbered artillery',
        'same-target': () => `same target and range as last turn${from}`,
        'new-target': () => `new target${from}`,
        dp: () => `${firer.dp} DP on the firing guns`,
        light: () => 'light gun',
        works: () => `target in a ${cover === 'stone-building' ? 'stone building' : cover}`,
        skirmish: () => 'target in skirmish order',
        unlimbered: () => 'target is unlimbered artillery'
    };
    return artilleryModifierKeys(input).map(key => ({ reason: reasons[key](), value: key === 'dp' ? m.dp * firer.dp : m[key] }));
}

/** A share of the dice, in percent, rounded up (L5's "halve … round up" at 50). */
const shareUp = (n: number, percent: number) => Math.ceil((n * percent) / 100);

/** The `infantry-dice` rows infantry fire at this target reads (L5): its DPs, the target's order or guns, its works. */
export function infantryDiceKeys(input: Pick<FireInput, 'firer' | 'target' | 'targetCover'>): InfantryDiceKey[] {
    const { firer, target } = input;
    const keys: InfantryDiceKey[] = [];
    if (firer.dp > 0) keys.push('dp');
    if (target.formation === 'skirmish') keys.push('skirmish-percent');
    else if (target.type === 'artillery' && target.formation === 'unlimbered') keys.push('unlimbered-percent');
    if (input.targetCover !== undefined && input.targetCover !== 'obstacle') keys.push('works-percent');
    return keys;
}

/**
 * How many d6 the firer throws, with each step explained: L4 one per gun; L5 one per stand less
 * the unit's DPs, halved (up) against skirmishers or unlimbered guns, halved again against works
 * (the tables' `infantryDice`). Nothing is thrown out of range or by a unit that cannot fire.
 */
export function fireDice(input: FireInput, tables: LfCombatTables = LF_SEED_TABLES): { count: number, steps: string[] } {
    const { firer } = input;
    const kind = fireKind(firer);
    if (!kind) return { count: 0, steps: [`${firer.type} does not fire`] };
    if (fireBand(firer, input.range, tables) === 'out-of-range') return { count: 0, steps: [`${input.range}" is beyond ${reachOf(firer, tables)}"`] };
    const stands = presentStands(firer);
    if (kind === 'artillery') return { count: stands, steps: [`${stands} gun${stands === 1 ? '' : 's'}`] };
    const t = tables.infantryDice;
    const keys = infantryDiceKeys(input);
    let count = Math.max(0, stands - firer.dp * t.dp);
    const stand = `${stands} stand${stands === 1 ? '' : 's'}`;
    const steps = [firer.dp > 0 ? `${stand} − ${firer.dp} DP${t.dp === 1 ? '' : ` × ${t.dp}`} = ${count}` : stand];
    // The sheet halves; a house share other than half says its percent.
    const share = (percent: number, again: boolean) => (percent === 50 ? `halved${again ? ' again' : ''}` : `${percent}% (rounded up)`);
    for (const key of keys) {
        if (key === 'dp') continue;
        count = shareUp(count, t[key]);
        if (key === 'works-percent') steps.push(`${share(t[key], true)}, target in a ${input.targetCover!.replace('-', ' ')}: ${count}`);
        else steps.push(`${share(t[key], false)} against ${key === 'skirmish-percent' ? 'skirmishers' : 'unlimbered artillery'}: ${count}`);
    }
    return { count, steps };
}

/** L5: skirmishers throw again for each 5 (the `infantry-fire` table's `reroll` face). */
export function rerollsFor(input: FireInput, d6: readonly number[], tables: LfCombatTables = LF_SEED_TABLES): number {
    return fireKind(input.firer) === 'infantry' && input.firer.formation === 'skirmish' ? d6.filter(v => v === tables.infantry.reroll).length : 0;
}

export type FireResult = 'no-effect' | 'disordered' | 'casualty';

interface FireDieOutcome {
    readonly die: number;
    /** The die with every modifier (artillery); the die itself for infantry. */
    readonly modified: number;
    readonly dp: number;
    readonly casualties: number;
}

export interface FireOutcome {
    readonly kind: FireKind | undefined;
    readonly band: FireBand;
    readonly range: number;
    readonly reach: number;
    readonly diceCount: number;
    readonly diceSteps: readonly string[];
    readonly modifiers: readonly LfModifier[];
    readonly dice: readonly FireDieOutcome[];
    readonly rerolls: readonly FireDieOutcome[];
    readonly dp: number;
    readonly casualties: number;
    /** The table's casualties beyond the target's stands left: not taken (L1.3). */
    readonly casualtiesOver: number;
    readonly result: FireResult;
    /** The target flees the field (L9 flee-losses). */
    readonly fled: boolean;
}

/**
 * Resolves one unit's fire from its d6 (as many as `fireDice` says) and, for skirmishers, one
 * re-roll per 5 thrown, in the order of the fives.
 */
export function resolveFire(input: FireInput, dice: { d6: readonly number[], reroll: readonly number[] }, tables: LfCombatTables = LF_SEED_TABLES): FireOutcome {
    const { count, steps } = fireDice(input, tables);
    const expectedRerolls = rerollsFor(input, dice.d6, tables);
    if (dice.d6.length !== count) throw new Error(`fire needs ${count} d6, got ${dice.d6.length}`);
    if (dice.reroll.length !== expectedRerolls) throw new Error(`fire needs ${expectedRerolls} re-rolls, got ${dice.reroll.length}`);
    for (const v of [...dice.d6, ...dice.reroll]) if (!canShow(D6, v)) throw new Error(`a d6 cannot show ${v}`);
    const kind = fireKind(input.firer);
    const band = fireBand(input.firer, input.range, tables);
    const modifiers = kind === 'artillery' ? artilleryModifiers(input, tables) : [];
    const mod = sumModifiers(modifiers);
    // An officer takes nothing from fire (L1.4); the check refuses it as a target, the engine agrees.
    const spared = takesNoLosses(input.target);
    const thrown: FireDieOutcome[] = dice.d6.map(die => {
        if (spared) return { die, modified: kind === 'artillery' ? die + mod : die, dp: 0, casualties: 0 };
        if (kind === 'artillery') return { die, modified: die + mod, ...artilleryEffect(band as 'close' | 'long', die + mod, tables) };
        return { die, modified: die, dp: die >= tables.infantry.hit ? 1 : 0, casualties: 0 };
    });
    const rerolls: FireDieOutcome[] = dice.reroll.map(die => ({ die, modified: die, dp: die >= tables.infantry['reroll-hit'] && !spared ? 1 : 0, casualties: 0 }));
    const dp = [...thrown, ...rerolls].reduce((s, d) => s + d.dp, 0);
    // A casualty is a stand: no more than the target has left (L1.3).
    const { taken: casualties, over: casualtiesOver } = casualtiesTaken(input.target, thrown.reduce((s, d) => s + d.casualties, 0));
    const result: FireResult = casualties > 0 ? 'casualty' : dp > 0 ? 'disordered' : 'no-effect';
    const fled = input.options.fleeLosses && casualties > 0 && fleesField(afterLosses(input.target, casualties, 0), tables.flee);
    return {
        kind, band, range: input.range, reach: reachOf(input.firer, tables), diceCount: count, diceSteps: steps,
        modifiers, dice: thrown, rerolls, dp, casualties, casualtiesOver, result, fled
    };
}
