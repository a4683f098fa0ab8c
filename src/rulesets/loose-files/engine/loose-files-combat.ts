/**
 * Loose Files combat (docs/rules/loose-files.md, L2, L3, and the Corlears Hook house rule of L9).
 *
 * Each side throws one average die and adds its modifiers; each side then reads its own row of the
 * results table from its own difference (own total − enemy total).
 *
 * A side may be several units fighting together. Its *leading* unit (the first named) is the one in
 * contact: its class, formation, DPs and casualties set the modifiers, and it takes the row's
 * casualties. Every unit of the side counts toward strength (outnumbering) and takes the row's DPs.
 */
import { AVERAGE, canShow } from '../../../core/dice.js';
import { signed } from '../../../core/signed.js';
import {
    afterLosses, casualtiesTaken, fleesField, strength, sumModifiers,
    type Cover, type LfModifier, type LfOptions, type LfUnit
} from './loose-files-units.js';
import {
    casualtiesFor, classKey, dpFor, LF_SEED_TABLES, OUTNUMBER_STEPS, resultFor,
    type CombatResult, type LfCombatTables
} from './loose-files-tables.js';

export { COMBAT_RESULTS, type CombatResult } from './loose-files-tables.js';

export interface CombatSide {
    /** Leading unit first. */
    readonly units: readonly LfUnit[];
    /** The cover the side defends (only the defender's counts, L2). */
    readonly cover: Cover | undefined;
    readonly bayonet: boolean;
    readonly terrain: boolean;
    /** Officers spending CP (`command-cost inspire`) to inspire this side (+1 however many, L2). */
    readonly inspiredBy: readonly string[];
    /** Attacked in flank or rear (−3). */
    readonly flankOrRear: boolean;
}

export interface CombatInput {
    readonly attacker: CombatSide;
    readonly defender: CombatSide;
    readonly options: LfOptions;
    /** L9 Corlears Hook: the previous combat between these units was a stand-off too. */
    readonly previousStandOff: boolean;
}

/** A ratio in percent as an umpire writes it: 150 is 3:2, 175 is 7:4; one that reduces to no small ratio reads 1.33:1. */
function ratioText(percent: number): string {
    const gcd = (a: number, b: number): number => (b === 0 ? a : gcd(b, a % b));
    const g = gcd(percent, 100);
    return 100 / g <= 10 ? `${percent / g}:${100 / g}` : `${percent / 100}:1`;
}

/**
 * L2.12: the outnumbering modifier from each side's strength (L1.1), or undefined when the side is
 * not outnumbered. Outnumbered at all is enemy > own; each further step begins at its ratio in the
 * tables (`outnumber-ratio`, enemy as a percentage of own: 3:2 is 150), compared in whole numbers
 * (`100·enemy ≥ 150·own`). Only the largest step that applies counts. Each modifier names the rows it read.
 */
export function outnumberedModifier(own: number, enemy: number, tables: LfCombatTables = LF_SEED_TABLES): LfModifier | undefined {
    if (enemy <= own) return undefined;
    const steps = [...OUTNUMBER_STEPS].reverse();
    for (const step of steps) {
        const ratio = tables.ratios[step];
        if (100 * enemy >= ratio * own) {
            const label = `${ratioText(ratio)}${step === steps[0] ? ' or worse' : ''}`;
            return { reason: `outnumbered ${label} (${enemy} v ${own})`, value: tables.outnumbered[step], reads: [['outnumbered', step], ['outnumber-ratio', step]] };
        }
    }
    return { reason: `outnumbered (${enemy} v ${own})`, value: tables.outnumbered.any, reads: [['outnumbered', 'any']] };
}

function sideStrength(side: CombatSide, tables: LfCombatTables): number {
    return side.units.reduce((s, u) => s + strength(u, tables), 0);
}

/** The cover bonus of L2 when defending: fort or stone building +3, fieldwork or wood building +2 (by the tables). */
function coverBonus(cover: Cover | undefined, tables: LfCombatTables): LfModifier | undefined {
    // An obstacle gives no bonus in combat (L9's Corlears Hook is the only rule that names it).
    if (cover === undefined || cover === 'obstacle') return undefined;
    return { reason: `defending a ${cover.replace('-', ' ')}`, value: tables.modifiers[cover], reads: [['combat-modifier', cover]] };
}

/** Every modifier of one side (L2), itemised in the sheet's order. */
export function combatModifiers(side: CombatSide, enemy: CombatSide, defending: boolean, tables: LfCombatTables = LF_SEED_TABLES): LfModifier[] {
    const lead = side.units[0], foe = enemy.units[0];
    const m = tables.modifiers;
    const mods: LfModifier[] = [];
    const better = foe.class - lead.class;
    const read = (key: keyof typeof m) => [['combat-modifier', key]] as const;
    if (better > 0) mods.push({ reason: `class ${lead.class} v class ${foe.class}: ${better} better`, value: m.class * better, reads: read('class') });
    const cover = defending ? coverBonus(side.cover, tables) : undefined;
    if (cover) mods.push(cover);
    if (side.bayonet) mods.push({ reason: 'bayonet attack', value: m.bayonet, reads: read('bayonet') });
    if (side.terrain) mods.push({ reason: 'terrain advantage', value: m.terrain, reads: read('terrain') });
    if (side.inspiredBy.length > 0) {
        mods.push({ reason: `inspired by ${side.inspiredBy.join(', ')} (${tables.command.inspire} CP)`, value: m.inspire, reads: [...read('inspire'), ['command-cost', 'inspire']] });
    }
    if (lead.formation === 'skirmish') mods.push({ reason: 'in skirmish order', value: m.skirmish, reads: read('skirmish') });
    if (side.flankOrRear) mods.push({ reason: 'attacked in flank or rear', value: m.flank, reads: read('flank') });
    if (lead.dp > 0) mods.push({ reason: `${lead.dp} DP`, value: m.dp * lead.dp, reads: read('dp') });
    if (lead.casualties > 0) mods.push({ reason: `${lead.casualties} ${lead.casualties === 1 ? 'casualty' : 'casualties'}`, value: m.casualty * lead.casualties, reads: read('casualty') });
    const out = outnumberedModifier(sideStrength(side, tables), sideStrength(enemy, tables), tables);
    if (out) mods.push(out);
    return mods;
}

/** L3: a side's row from its own difference, by the tables in force. */
export function combatResultFor(difference: number, tables: LfCombatTables = LF_SEED_TABLES): CombatResult {
    return resultFor(tables, difference);
}

/** Cover that L3 names for casualties: fort, building or fieldwork (not a mere obstacle). */
function inWorks(cover: Cover | undefined): boolean {
    return cover !== undefined && cover !== 'obstacle';
}

/**
 * L3: the casualties of a side's difference (the tables' band), with the reason for each that the
 * situation spares: a successful side whose enemy is not foot or guns, or is in works; a side that
 * stands off as infantry facing cavalry, facing a bayonet attack, or in works. `side` reads the row;
 * `enemy` is whom it fought.
 */
export function rowCasualties(difference: number, side: CombatSide, enemy: CombatSide, sideDefends: boolean, tables: LfCombatTables = LF_SEED_TABLES): { casualties: number, note: string | undefined } {
    const lead = side.units[0], foe = enemy.units[0];
    const ownCover = sideDefends ? side.cover : undefined;
    const foeCover = sideDefends ? undefined : enemy.cover;
    const casualties = casualtiesFor(tables, difference);
    if (casualties === 0) return { casualties, note: undefined };
    const spared = (note: string) => ({ casualties: 0, note });
    switch (resultFor(tables, difference)) {
        case 'successful':
            if (foe.type !== 'infantry' && foe.type !== 'artillery') return spared(`no casualty: the enemy is ${foe.type}`);
            if (inWorks(foeCover)) return spared('no casualty: the enemy is in a fort, building or fieldwork');
            break;
        case 'stand-off':
            if (lead.type === 'infantry' && foe.type === 'cavalry') return spared('no casualty: infantry facing cavalry');
            if (enemy.bayonet) return spared('no casualty: facing a bayonet attack');
            if (inWorks(ownCover)) return spared('no casualty: in a fort, building or fieldwork');
            break;
    }
    return { casualties, note: undefined };
}

/** L3: whether the leading unit's class pursues after an easy victory (the tables' `pursue`; the others obey orders). */
export function pursues(cls: number, tables: LfCombatTables = LF_SEED_TABLES): boolean {
    return tables.pursue[classKey(cls)];
}

/** L3: the movement order of a row (easy victory depends on the class of the leading unit). */
function rowOrder(result: CombatResult, cls: number, tables: LfCombatTables): string {
    switch (result) {
        case 'easy-victory': return pursues(cls, tables) ? 'pursue' : 'obey orders';
        case 'successful': return 'halt one turn';
        case 'stand-off': return 'halt; the fight continues next turn';
        case 'driven-back': return 'retreat one move at full speed';
        case 'defeated': return 'retreat at full speed behind the next friendly line, or the next terrain obstacle if no support';
        case 'routed': return 'run at full speed beyond enemy artillery range or the next terrain obstacle, whichever is further';
    }
}

export interface CombatSideOutcome {
    readonly role: 'attacker' | 'defender';
    readonly die: number;
    readonly modifiers: readonly LfModifier[];
    readonly total: number;
    /** Own total − enemy total. */
    readonly difference: number;
    readonly result: CombatResult;
    readonly dp: number;
    /** Casualties, all on the leading unit: the sheet's, up to the stands it has left (L1.3). */
    readonly casualties: number;
    /** The sheet's casualties beyond the leading unit's stands left: not taken (L1.3). */
    readonly casualtiesOver: number;
    readonly casualtyNote: string | undefined;
    readonly order: string;
    /** L9 Corlears Hook: inches the side retreats (null when it must retreat but no die is known). */
    readonly corlearsRetreat: { inches: number | null } | undefined;
    /** Units of the side that flee the field (L9 flee-losses). */
    readonly fled: readonly string[];
    readonly strength: number;
}

export interface CombatOutcome {
    readonly attacker: CombatSideOutcome;
    readonly defender: CombatSideOutcome;
    readonly summary: string;
}

export interface CombatDice {
    readonly attacker: number;
    readonly defender: number;
    /** L9 Corlears Hook retreat dice (average, summed: `move-dice corlears-dice` of them), when that rule makes a side retreat. */
    readonly attackerRetreat?: number;
    readonly defenderRetreat?: number;
}

/** L9 Corlears Hook: the retreat's dice in words (the sheet's "1 average die"; `move-dice corlears-dice`). */
function corlearsDiceText(tables: LfCombatTables): string {
    const n = tables.move['corlears-dice'];
    return n === 1 ? 'one average die' : `${n} average dice`;
}

/** L9 Corlears Hook: does this side retreat after this combat? */
function corlearsRetreats(input: CombatInput, result: CombatResult, side: CombatSide, defends: boolean): boolean {
    if (!input.options.corlearsHook || !input.previousStandOff || result !== 'stand-off') return false;
    return !(defends && side.cover !== undefined);
}

/** Which sides throw a Corlears Hook retreat die: known only once both combat dice are thrown. */
export function corlearsSides(input: CombatInput, attackerDie: number, defenderDie: number, tables: LfCombatTables = LF_SEED_TABLES): { attacker: boolean, defender: boolean } {
    const a = attackerDie + sumModifiers(combatModifiers(input.attacker, input.defender, false, tables));
    const d = defenderDie + sumModifiers(combatModifiers(input.defender, input.attacker, true, tables));
    const result = combatResultFor(a - d, tables);
    return { attacker: corlearsRetreats(input, result, input.attacker, false), defender: corlearsRetreats(input, result, input.defender, true) };
}

/** L2 + L3: both sides' totals, rows, DPs, casualties and movement orders from the two average dice. */
export function resolveCombat(input: CombatInput, dice: CombatDice, tables: LfCombatTables = LF_SEED_TABLES): CombatOutcome {
    for (const v of [dice.attacker, dice.defender]) {
        if (!canShow(AVERAGE, v)) throw new Error(`an average die cannot show ${v}`);
    }
    const aMods = combatModifiers(input.attacker, input.defender, false, tables);
    const dMods = combatModifiers(input.defender, input.attacker, true, tables);
    const aTotal = dice.attacker + sumModifiers(aMods);
    const dTotal = dice.defender + sumModifiers(dMods);
    const side = (role: 'attacker' | 'defender'): CombatSideOutcome => {
        const own = role === 'attacker' ? input.attacker : input.defender;
        const foe = role === 'attacker' ? input.defender : input.attacker;
        const total = role === 'attacker' ? aTotal : dTotal;
        const difference = total - (role === 'attacker' ? dTotal : aTotal);
        const result = combatResultFor(difference, tables);
        const defends = role === 'defender';
        const row = rowCasualties(difference, own, foe, defends, tables);
        const capped = casualtiesTaken(own.units[0], row.casualties);
        const cas = capped.over === 0 ? row
            : { casualties: capped.taken, note: `${row.casualties} by the sheet; only ${capped.taken} stand${capped.taken === 1 ? '' : 's'} left` };
        const retreats = corlearsRetreats(input, result, own, defends);
        const retreatDie = role === 'attacker' ? dice.attackerRetreat : dice.defenderRetreat;
        const fled = input.options.fleeLosses
            ? own.units.filter((u, i) => fleesField(afterLosses(u, i === 0 ? cas.casualties : 0, 0), tables.flee)).map(u => u.id)
            : [];
        return {
            role, die: role === 'attacker' ? dice.attacker : dice.defender, modifiers: role === 'attacker' ? aMods : dMods,
            total, difference, result, dp: dpFor(tables, difference), casualties: cas.casualties, casualtiesOver: capped.over, casualtyNote: cas.note,
            order: retreats ? `retreat ${corlearsDiceText(tables)} (Corlears Hook: second stand-off in a row)` : rowOrder(result, own.units[0].class, tables),
            corlearsRetreat: retreats ? { inches: retreatDie ?? null } : undefined,
            fled, strength: sideStrength(own, tables)
        };
    };
    const attacker = side('attacker'), defender = side('defender');
    const lead = (s: CombatSide) => s.units[0].id;
    const summary = `${lead(input.attacker)} ${attacker.total} v ${lead(input.defender)} ${defender.total}: `
        + `attacker ${attacker.result} (${signed(attacker.difference)}), defender ${defender.result}`;
    return { attacker, defender, summary };
}
