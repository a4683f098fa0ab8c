/**
 * Loose Files' tables as house rules may change them (docs/house-rules.md#loose-files): their keys,
 * values and the sheet's printed values, the engine tables in force for an action, and the checks
 * that a changed results table still lets both sides read one fight the same way.
 */
import type { ValidationAcceptor } from 'langium';
import type { Action, House } from '../../language/generated/ast.js';
import type { Band, BandRow } from '../../core/bands.js';
import { tablesFor, type TableSchemas, type TablesInForce } from '../../core/house-rules.js';
import type { ScenarioModel } from '../../core/scenario.js';
import {
    CLASS_KEYS, OUTNUMBER_STEPS, RALLIERS, type ClassKey, type OutnumberStep, type Rallier,
    ARTILLERY_MODIFIER_KEYS, COMBAT_MODIFIER_KEYS, COMMAND_COST_KEYS, INFANTRY_DICE_KEYS, MOVE_COST_KEYS, STRENGTH_KEYS, COMBAT_RESULTS, FLEE_KEYS, INFANTRY_KEYS, LF_SEED_TABLES, MORALE_KEYS, MOVE_KEYS, OUTNUMBER_KEYS, RANGE_KEYS, REDRESS_KEYS, resultFor,
    type ArtilleryModifierKey, type CombatModifierKey, type CommandCostKey, type InfantryDiceKey, type MoveCostKey, type StrengthKey, type CombatResult, type FleeKey, type InfantryKey, type LfCombatTables, type MoraleKey, type MoveKey, type OutnumberKey,
    type RangeKey, type RedressKey
} from './engine/loose-files-tables.js';

export const LooseFilesHouseCodes = {
    resultMirror: 'lf-house-result-mirror',
    noStandOff: 'lf-house-no-stand-off',
    impossible: 'lf-house-impossible'
} as const;

const EVERY_DIFFERENCE: Band = { from: null, to: null };
const EVERY_SCORE: Band = { from: null, to: null };
const YES_NO: readonly string[] = ['yes', 'no'];
const keysDoc = (keys: readonly string[]) => keys.map(k => `\`${k}\``).join(', ');
const seedBands = <T extends string | number>(rows: readonly BandRow<T>[]) => rows.map(r => ({ key: { band: r.band }, value: r.value }));
const seedWords = <K extends string>(values: Readonly<Record<K, number>>, keys: readonly K[]) => keys.map(k => ({ key: { word: k }, value: values[k] }));

export const LOOSE_FILES_TABLES: TableSchemas = {
    'combat-result': {
        doc: 'A side\'s row of the results table by its own difference (own total − enemy total): what orders it follows',
        reference: 'docs/rules/loose-files.md#l3',
        keys: { kind: 'bands', covers: EVERY_DIFFERENCE, doc: 'differences (every whole number, negative too)' },
        values: { kind: 'word', words: COMBAT_RESULTS },
        seed: seedBands(LF_SEED_TABLES.results)
    },
    'combat-dp': {
        doc: 'The DPs every unit of a side takes, by the row it reads',
        reference: 'docs/rules/loose-files.md#l3',
        keys: { kind: 'words', words: COMBAT_RESULTS, doc: 'the rows of `combat-result`' },
        values: { kind: 'number', min: 0, max: 20 },
        seed: seedWords(LF_SEED_TABLES.dp, COMBAT_RESULTS)
    },
    'combat-casualties': {
        doc: 'The casualties (stands) the leading unit of a side takes, by the row it reads; the sheet\'s exceptions still spare a successful side facing horse or works, and a stand-off facing cavalry, a bayonet attack or in works',
        reference: 'docs/rules/loose-files.md#l3',
        keys: { kind: 'words', words: COMBAT_RESULTS, doc: 'the rows of `combat-result`' },
        values: { kind: 'number', min: 0, max: 20 },
        seed: seedWords(LF_SEED_TABLES.casualties, COMBAT_RESULTS)
    },
    'combat-modifier': {
        doc: 'Each combat modifier: `class` per class better, `dp` per DP and `casualty` per casualty of the leading unit; the cover ones only when defending',
        reference: 'docs/rules/loose-files.md#l2',
        keys: { kind: 'words', words: COMBAT_MODIFIER_KEYS, doc: COMBAT_MODIFIER_KEYS.map(k => `\`${k}\``).join(', ') },
        values: { kind: 'number', min: -20, max: 20 },
        seed: seedWords(LF_SEED_TABLES.modifiers, COMBAT_MODIFIER_KEYS)
    },
    strength: {
        doc: 'What one present stand counts for outnumbering, by arm: `infantry`, `cavalry`, `artillery` (a gun); officers add nothing',
        reference: 'docs/rules/loose-files.md#l1.1',
        keys: { kind: 'words', words: STRENGTH_KEYS, doc: keysDoc(STRENGTH_KEYS) },
        values: { kind: 'number', min: 0, max: 20 },
        seed: seedWords(LF_SEED_TABLES.strength, STRENGTH_KEYS)
    },
    outnumbered: {
        doc: 'The modifier of a side outnumbered by enemy strength ÷ own: more than 1 (`any`), at least 3:2 (`three-to-two`), 2:1, 3:1; only the largest that applies counts',
        reference: 'docs/rules/loose-files.md#l2.12',
        keys: { kind: 'words', words: OUTNUMBER_KEYS, doc: OUTNUMBER_KEYS.map(k => `\`${k}\``).join(', ') },
        values: { kind: 'number', min: -20, max: 20 },
        seed: seedWords(LF_SEED_TABLES.outnumbered, OUTNUMBER_KEYS)
    },
    'outnumber-ratio': {
        doc: 'Where each outnumbering step begins: enemy strength as a percentage of own (`three-to-two 150` is 3:2, `two-to-one 200`, `three-to-one 300`); outnumbered at all (`any`) is always more than own',
        reference: 'docs/rules/loose-files.md#l2.12',
        keys: { kind: 'words', words: OUTNUMBER_STEPS, doc: keysDoc(OUTNUMBER_STEPS) },
        values: { kind: 'number', min: 101, max: 1000 },
        seed: seedWords(LF_SEED_TABLES.ratios, OUTNUMBER_STEPS)
    },
    pursue: {
        doc: 'Whether a side whose leading unit is of this class pursues after an easy victory (`yes`) or obeys orders (`no`); `class-1` is class 1 or better, `class-5` class 5 or worse',
        reference: 'docs/rules/loose-files.md#l3.2',
        keys: { kind: 'words', words: CLASS_KEYS, doc: keysDoc(CLASS_KEYS) },
        values: { kind: 'word', words: YES_NO },
        seed: CLASS_KEYS.map(k => ({ key: { word: k }, value: LF_SEED_TABLES.pursue[k] ? 'yes' : 'no' }))
    },
    'rally-by': {
        doc: 'Who may rally a unit of this class (remove its DPs for command points): any `officer`, or only the army `commander`; `class-1` is class 1 or better, `class-5` class 5 or worse',
        reference: 'docs/rules/loose-files.md#l8',
        keys: { kind: 'words', words: CLASS_KEYS, doc: keysDoc(CLASS_KEYS) },
        values: { kind: 'word', words: RALLIERS },
        seed: CLASS_KEYS.map(k => ({ key: { word: k }, value: LF_SEED_TABLES.rallyBy[k] }))
    },
    'fire-range': {
        doc: 'Fire ranges in inches: close artillery range is under `artillery-close`; `light`, `medium`, `heavy` guns reach so far at long range; a `musket` or `rifle` so far',
        reference: 'docs/rules/loose-files.md#l4',
        keys: { kind: 'words', words: RANGE_KEYS, doc: RANGE_KEYS.map(k => `\`${k}\``).join(', ') },
        values: { kind: 'number', min: 1, max: 1200 },
        seed: seedWords(LF_SEED_TABLES.ranges, RANGE_KEYS)
    },
    'flee-losses': {
        doc: 'With `option flee-losses` (L9): the share of its stands (percent) a unit has lost when it flees the field, for `militia` and every `other` unit',
        reference: 'docs/rules/loose-files.md#l9',
        keys: { kind: 'words', words: FLEE_KEYS, doc: '`militia`, `other`' },
        values: { kind: 'number', min: 1, max: 100 },
        seed: seedWords(LF_SEED_TABLES.flee, FLEE_KEYS)
    },
    'artillery-close-dp': {
        doc: 'The DPs one artillery die does at close range, by its modified score (the die with every L4 modifier)',
        reference: 'docs/rules/loose-files.md#l4',
        keys: { kind: 'bands', covers: EVERY_SCORE, doc: 'modified scores (every whole number)' },
        values: { kind: 'number', min: 0, max: 20 },
        seed: seedBands(LF_SEED_TABLES.artillery.closeDp)
    },
    'artillery-close-casualties': {
        doc: 'The casualties (stands) one artillery die does at close range, by its modified score',
        reference: 'docs/rules/loose-files.md#l4',
        keys: { kind: 'bands', covers: EVERY_SCORE, doc: 'modified scores (every whole number)' },
        values: { kind: 'number', min: 0, max: 20 },
        seed: seedBands(LF_SEED_TABLES.artillery.closeCasualties)
    },
    'artillery-long-dp': {
        doc: 'The DPs one artillery die does at long range, by its modified score (no casualties at long range)',
        reference: 'docs/rules/loose-files.md#l4',
        keys: { kind: 'bands', covers: EVERY_SCORE, doc: 'modified scores (every whole number)' },
        values: { kind: 'number', min: 0, max: 20 },
        seed: seedBands(LF_SEED_TABLES.artillery.longDp)
    },
    'artillery-modifier': {
        doc: 'What each artillery die adds or loses: a `heavy` or `light` gun; a target in `column`, `limbered` or `unlimbered` artillery, in `skirmish` order or in `works` (a fieldwork, fort or stone building); the `same-target` and range as last turn, a `new-target`; `dp` for each DP of the firing guns',
        reference: 'docs/rules/loose-files.md#l4',
        keys: { kind: 'words', words: ARTILLERY_MODIFIER_KEYS, doc: keysDoc(ARTILLERY_MODIFIER_KEYS) },
        values: { kind: 'number', min: -20, max: 20 },
        seed: seedWords(LF_SEED_TABLES.artilleryModifiers, ARTILLERY_MODIFIER_KEYS)
    },
    'infantry-fire': {
        doc: 'Infantry fire\'s faces: a d6 of `hit` or more is a DP; a skirmisher throws again for each `reroll`, and the new die is a DP at `reroll-hit` or more',
        reference: 'docs/rules/loose-files.md#l5',
        keys: { kind: 'words', words: INFANTRY_KEYS, doc: keysDoc(INFANTRY_KEYS) },
        values: { kind: 'number', min: 1, max: 7 },
        seed: seedWords(LF_SEED_TABLES.infantry, INFANTRY_KEYS)
    },
    'infantry-dice': {
        doc: 'The dice infantry throws: one per stand less `dp` for each of its DPs; then the share (percent, rounded up) it throws at skirmishers (`skirmish-percent`) or unlimbered artillery (`unlimbered-percent`), and of that at a target in a fieldwork, fort or building (`works-percent`)',
        reference: 'docs/rules/loose-files.md#l5',
        keys: { kind: 'words', words: INFANTRY_DICE_KEYS, doc: keysDoc(INFANTRY_DICE_KEYS) },
        values: { kind: 'number', min: 0, max: 100 },
        seed: seedWords(LF_SEED_TABLES.infantryDice, INFANTRY_DICE_KEYS)
    },
    'move-dice': {
        doc: 'Movement dice: classes up to `good-class` throw one to `good-average` average dice; worse classes one to `other-average`, and up to `other-d6` d6; skirmishers `skirmish-d6` more, cavalry up to `cavalry-d6` more; charging cavalry at least `charge-dice`; a Hessian throws `hessian-average` average dice and may add `hessian-inches`; formed troops take a DP for each d6 of `disorder` or less (`woods-disorder` in woods); cavalry change speed by up to `cavalry-speed` dice a turn; an officer or commander moves `officer-dice` dice, average or d6 (a move, or a command move for CP); a side retreating under Corlears Hook throws `corlears-dice` average dice',
        reference: 'docs/rules/loose-files.md#l6',
        keys: { kind: 'words', words: MOVE_KEYS, doc: keysDoc(MOVE_KEYS) },
        values: { kind: 'number', min: 0, max: 10 },
        seed: seedWords(LF_SEED_TABLES.move, MOVE_KEYS)
    },
    'move-cost': {
        doc: 'What terrain and manoeuvre cost a move: inches lost on each die in woods, uphill and (with `option wheel-as-uphill`) wheeling; the DPs of a wheel, of a formation change (under fire or not) and of retiring as cavalry or under fire; the share of its move (percent, rounded down) a retiring unit makes',
        reference: 'docs/rules/loose-files.md#l6',
        keys: { kind: 'words', words: MOVE_COST_KEYS, doc: keysDoc(MOVE_COST_KEYS) },
        values: { kind: 'number', min: 0, max: 100 },
        seed: seedWords(LF_SEED_TABLES.moveCosts, MOVE_COST_KEYS)
    },
    morale: {
        doc: 'The morale table: the DPs (`…-dp`) and deserting stands (`…-deserters`) of a unit that sees a friend of a lower, equal or higher grade retreat or rout, within `within` inches',
        reference: 'docs/rules/loose-files.md#l7',
        keys: { kind: 'words', words: MORALE_KEYS, doc: '`within`, and `retreats` or `routs`, `lower`, `equal` or `higher`, `dp` or `deserters` (`routs-equal-dp`)' },
        values: { kind: 'number', min: 0, max: 20 },
        seed: seedWords(LF_SEED_TABLES.morale, MORALE_KEYS)
    },
    redress: {
        doc: 'The most DPs a stationary unit out of combat sheds in a turn, by class (class 3 also when shot at); classes 4 and 5 at 0 shed DPs only through a rally',
        reference: 'docs/rules/loose-files.md#l8',
        keys: { kind: 'words', words: REDRESS_KEYS, doc: keysDoc(REDRESS_KEYS) },
        values: { kind: 'number', min: 0, max: 20 },
        seed: seedWords(LF_SEED_TABLES.redress, REDRESS_KEYS)
    },
    'command-cost': {
        doc: 'What each use of command points costs: an officer\'s or commander\'s `move` (one die of inches), inspiring a unit in combat (`inspire`), and rallying, for each DP removed (`rally-dp`)',
        reference: 'docs/rules/loose-files.md#l8',
        keys: { kind: 'words', words: COMMAND_COST_KEYS, doc: keysDoc(COMMAND_COST_KEYS) },
        values: { kind: 'number', min: 0, max: 20 },
        seed: seedWords(LF_SEED_TABLES.command, COMMAND_COST_KEYS)
    }
};

function wordsOf<K extends string>(tables: TablesInForce, table: string, keys: readonly K[], seed: Readonly<Record<K, number>>): Record<K, number> {
    return Object.fromEntries(keys.map(k => [k, tables.word<number>(table, k) ?? seed[k]])) as Record<K, number>;
}

/** The engine's tables from the tables in force (the seed's, as house rules change them). */
function lfTablesOf(tables: TablesInForce): LfCombatTables {
    return {
        results: tables.bands<CombatResult>('combat-result'),
        dp: wordsOf<CombatResult>(tables, 'combat-dp', COMBAT_RESULTS, LF_SEED_TABLES.dp),
        casualties: wordsOf<CombatResult>(tables, 'combat-casualties', COMBAT_RESULTS, LF_SEED_TABLES.casualties),
        modifiers: wordsOf<CombatModifierKey>(tables, 'combat-modifier', COMBAT_MODIFIER_KEYS, LF_SEED_TABLES.modifiers),
        strength: wordsOf<StrengthKey>(tables, 'strength', STRENGTH_KEYS, LF_SEED_TABLES.strength),
        outnumbered: wordsOf<OutnumberKey>(tables, 'outnumbered', OUTNUMBER_KEYS, LF_SEED_TABLES.outnumbered),
        ratios: wordsOf<OutnumberStep>(tables, 'outnumber-ratio', OUTNUMBER_STEPS, LF_SEED_TABLES.ratios),
        pursue: Object.fromEntries(CLASS_KEYS.map(k => {
            const v = tables.word<string>('pursue', k);
            return [k, v === undefined ? LF_SEED_TABLES.pursue[k] : v === 'yes'];
        })) as Record<ClassKey, boolean>,
        rallyBy: Object.fromEntries(CLASS_KEYS.map(k => [k, tables.word<Rallier>('rally-by', k) ?? LF_SEED_TABLES.rallyBy[k]])) as Record<ClassKey, Rallier>,
        flee: wordsOf<FleeKey>(tables, 'flee-losses', FLEE_KEYS, LF_SEED_TABLES.flee),
        ranges: wordsOf<RangeKey>(tables, 'fire-range', RANGE_KEYS, LF_SEED_TABLES.ranges),
        artillery: {
            closeDp: tables.bands<number>('artillery-close-dp'),
            closeCasualties: tables.bands<number>('artillery-close-casualties'),
            longDp: tables.bands<number>('artillery-long-dp')
        },
        artilleryModifiers: wordsOf<ArtilleryModifierKey>(tables, 'artillery-modifier', ARTILLERY_MODIFIER_KEYS, LF_SEED_TABLES.artilleryModifiers),
        infantry: wordsOf<InfantryKey>(tables, 'infantry-fire', INFANTRY_KEYS, LF_SEED_TABLES.infantry),
        infantryDice: wordsOf<InfantryDiceKey>(tables, 'infantry-dice', INFANTRY_DICE_KEYS, LF_SEED_TABLES.infantryDice),
        move: wordsOf<MoveKey>(tables, 'move-dice', MOVE_KEYS, LF_SEED_TABLES.move),
        moveCosts: wordsOf<MoveCostKey>(tables, 'move-cost', MOVE_COST_KEYS, LF_SEED_TABLES.moveCosts),
        morale: wordsOf<MoraleKey>(tables, 'morale', MORALE_KEYS, LF_SEED_TABLES.morale),
        redress: wordsOf<RedressKey>(tables, 'redress', REDRESS_KEYS, LF_SEED_TABLES.redress),
        command: wordsOf<CommandCostKey>(tables, 'command-cost', COMMAND_COST_KEYS, LF_SEED_TABLES.command)
    };
}

/** Loose Files' engine tables in force for an action: the seed's, as the file's house rules change them. */
export function lfTables(model: ScenarioModel, action: Action): LfCombatTables {
    return lfTablesOf(tablesFor(model, action));
}

/** Winning rows, losing rows: one side's difference is the other's, negated, so they must mirror. */
const WINS: ReadonlySet<CombatResult> = new Set(['easy-victory', 'successful']);
const LOSSES: ReadonlySet<CombatResult> = new Set(['driven-back', 'defeated', 'routed']);
function standing(result: CombatResult): 'won' | 'lost' | 'even' {
    return WINS.has(result) ? 'won' : LOSSES.has(result) ? 'lost' : 'even';
}

/**
 * The differences where a house results table makes one fight read two ways: both sides win, both
 * lose, or one stands off while the other wins or loses. Each side reads its own difference and the
 * other's is the same negated (L3), so the rows at d and −d must mirror. Every band's ends are tried,
 * and one past each, which is where a table changes.
 */
function mirrorProblems(tables: LfCombatTables): number[] {
    const probes = new Set<number>([0]);
    for (const r of tables.results) {
        for (const end of [r.band.from, r.band.to]) if (end !== null) for (const n of [end - 1, end, end + 1]) probes.add(Math.abs(n));
    }
    const bad: number[] = [];
    for (const d of [...probes].sort((a, b) => a - b)) {
        const own = standing(resultFor(tables, d)), other = standing(resultFor(tables, -d));
        const mirrored = own === 'even' ? other === 'even' : own === 'won' ? other === 'lost' : other === 'won';
        if (!mirrored) bad.push(d);
    }
    return bad;
}

/**
 * Checks of a house block's results table: it must read one fight the same way from both sides, and
 * with Corlears Hook (L9), which turns on a second stand-off, it must still have a stand-off row.
 */
export function checkLooseFilesTables(model: ScenarioModel, tables: TablesInForce, house: House, accept: ValidationAcceptor): void {
    const engine = lfTablesOf(tables);
    checkResults(model, engine, house, accept);
    checkImpossible(engine, house, accept);
}

/**
 * What a house block makes impossible in L4 to L7 (`lf-house-impossible`), reported on the entry (or
 * the row) that did it: a face no d6 shows, a class that can throw no movement die, a charge no
 * cavalry can throw enough dice for, a morale row whose deserters never desert, artillery that never hits.
 */
function checkImpossible(engine: LfCombatTables, house: House, accept: ValidationAcceptor): void {
    const entryOf = (table: string, key: string) => house.rows.filter(r => r.table === table).flatMap(r => r.entries).filter(e => e.key === key).pop();
    const warn = (severity: 'error' | 'warning', table: string, key: string, message: string) => {
        const entry = entryOf(table, key);
        if (entry) accept(severity, message, { node: entry, property: 'number', code: LooseFilesHouseCodes.impossible });
    };
    const inf = engine.infantry;
    if (inf.hit > 6) warn('warning', 'infantry-fire', 'hit', `No d6 shows ${inf.hit}: infantry fire never disorders (L5). Write 6 or less.`);
    if (inf.reroll > 6) warn('warning', 'infantry-fire', 'reroll', `No d6 shows ${inf.reroll}: skirmishers never throw again (L5). Write 6 or less.`);
    if (inf['reroll-hit'] > 6) warn('warning', 'infantry-fire', 'reroll-hit', `No d6 shows ${inf['reroll-hit']}: a skirmisher's second die never disorders (L5). Write 6 or less.`);
    for (const key of ['skirmish-percent', 'unlimbered-percent', 'works-percent'] as const) {
        if (engine.infantryDice[key] === 0) {
            const at = key === 'skirmish-percent' ? 'skirmishers' : key === 'unlimbered-percent' ? 'unlimbered artillery' : 'a target in works';
            warn('warning', 'infantry-dice', key, `With '${key} 0' infantry throws no dice at ${at}, so it can never hit them (L5). Write 1 or more.`);
        }
    }
    const m = engine.move;
    for (const key of ['good-average', 'other-average'] as const) {
        if (m[key] < 1) warn('error', 'move-dice', key, `A unit moves with one average die at least (L6): with '${key} 0' ${key === 'good-average' ? `classes up to ${m['good-class']}` : `classes worse than ${m['good-class']}`} could not move at all. Write 1 or more.`);
    }
    if (m['hessian-average'] < 1) {
        warn('error', 'move-dice', 'hessian-average', 'With \'hessian-average 0\' Hessian infantry could not move at all (L6.6). Write 1 or more.');
    }
    if (m['officer-dice'] < 1) {
        warn('error', 'move-dice', 'officer-dice', 'With \'officer-dice 0\' officers and commanders could never move, nor move for command points (L6, L8.1). Write 1 or more.');
    }
    if (m['corlears-dice'] < 1) {
        warn('warning', 'move-dice', 'corlears-dice', 'With \'corlears-dice 0\' a side that must retreat after a second stand-off in a row (Corlears Hook, L9) throws no die and never moves. Write 1 or more.');
    }
    const most = Math.max(m['good-average'], m['other-average'] + m['other-d6']) + m['cavalry-d6'] + m['skirmish-d6'];
    if (m['charge-dice'] > most) {
        warn('error', 'move-dice', 'charge-dice', `No cavalry may throw ${m['charge-dice']} movement dice (at most ${most} by this table), so none could ever charge (L6). Write ${most} or less.`);
    }
    if (engine.moveCosts['retire-percent'] === 0) {
        warn('warning', 'move-cost', 'retire-percent', 'With \'retire-percent 0\' a unit retiring facing the enemy never moves at all (L6.13). Write 1 or more.');
    }
    for (const event of ['retreats', 'routs'] as const) for (const grade of ['lower', 'equal', 'higher'] as const) {
        const dp = `${event}-${grade}-dp` as const, deserters = `${event}-${grade}-deserters` as const;
        if (engine.morale[deserters] > 0 && engine.morale[dp] === 0) {
            warn('warning', 'morale', entryOf('morale', deserters) ? deserters : dp,
                `A unit that sees a ${grade} grade friend ${event} takes no DP by this table, so it is unmoved and its ${engine.morale[deserters]} deserter${engine.morale[deserters] === 1 ? '' : 's'} never desert (L7). Give the row a DP, or 0 deserters.`);
        }
    }
    // L2.12: a step that begins no later than a step above it never applies (only the largest counts).
    for (let i = 0; i + 1 < OUTNUMBER_STEPS.length; i++) {
        const step = OUTNUMBER_STEPS[i];
        const above = OUTNUMBER_STEPS.slice(i + 1).reduce((low, k) => (engine.ratios[k] < engine.ratios[low] ? k : low));
        if (engine.ratios[step] >= engine.ratios[above]) {
            // Reported on a ratio this block wrote and that counts (one out of range is house-value's).
            const written = [above, step].find(k => entryOf('outnumber-ratio', k)?.number === engine.ratios[k]);
            if (written) warn('warning', 'outnumber-ratio', written, `The ratios must rise with the steps: '${above} ${engine.ratios[above]}' begins no later than '${step} ${engine.ratios[step]}', so ${step} never applies (L2.12: only the largest step counts). Write ${step} below ${above}.`);
        }
    }
    const never = (rows: readonly BandRow<number>[]) => rows.every(r => r.value === 0);
    const a = engine.artillery;
    for (const [table, rows, also] of [['artillery-close-dp', a.closeDp, a.closeCasualties], ['artillery-close-casualties', a.closeCasualties, a.closeDp], ['artillery-long-dp', a.longDp, [] as BandRow<number>[]]] as const) {
        const row = house.rows.find(r => r.table === table);
        if (row && never(rows) && never(also)) {
            accept('warning', `By this table artillery ${table.includes('close') ? 'at close range' : 'at long range'} never does anything: every score gives 0 (L4).`,
                { node: row, property: 'table', code: LooseFilesHouseCodes.impossible });
        }
    }
}

/** The results table in this block (if it writes one) must read one fight the same way from both sides. */
function checkResults(model: ScenarioModel, engine: LfCombatTables, house: House, accept: ValidationAcceptor): void {
    const row = house.rows.find(r => r.table === 'combat-result');
    if (!row) return;
    const bad = mirrorProblems(engine);
    if (bad.length > 0) {
        const d = bad[0];
        const message = d === 0
            ? `Equal totals read '${resultFor(engine, 0)}' for both sides: each side reads its own difference, so the row at 0 must be a stand-off (or another row that is neither a win nor a loss).`
            : `A side ${d} ahead reads '${resultFor(engine, d)}' while its enemy (${-d}) reads '${resultFor(engine, -d)}': each side reads its own difference, so the rows at ${d} and ${-d} must be a win and a loss, or both a stand-off.`;
        accept('error', message,
            { node: row, property: 'table', code: LooseFilesHouseCodes.resultMirror });
    }
    if (model.options.has('corlears-hook') && !engine.results.some(r => r.value === 'stand-off')) {
        accept('warning', 'Corlears Hook (`option corlears-hook`, L9) turns on a second stand-off in a row, and this results table has no `stand-off` row: it can never apply.',
            { node: row, property: 'table', code: LooseFilesHouseCodes.noStandOff });
    }
}
