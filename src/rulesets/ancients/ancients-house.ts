/**
 * Ancients' tables as house rules may change them (docs/house-rules.md#ancients): their keys, values and
 * the seed's printed values, and the checks that a changed table still lets its rule happen.
 */
import type { ValidationAcceptor } from 'langium';
import type { House, HouseEntry } from '../../language/generated/ast.js';
import { entryKey, keyText, type TableSchemas, type TablesInForce } from '../../core/house-rules.js';
import type { ScenarioModel } from '../../core/scenario.js';
import { ANCIENTS_SIZES, ANCIENTS_WEIGHTS, type AncientsInput, type AncientsUnit } from './engine/ancients-engine.js';
import { ANCIENTS_SEED_TABLES, TO_HIT_REACH, toHitKey } from './engine/ancients-tables.js';
import { STEP_KEYS } from './ancients-reader.js';

export const AncientsHouseCodes = {
    impossible: 'ancients-house-impossible'
} as const;

const S = ANCIENTS_SEED_TABLES;
const words = (record: Readonly<Record<string, number>>) => Object.entries(record).map(([word, value]) => ({ key: { word }, value }));
const BREAK_KEYS = ['d6', 'first-test', 'winning-side', 'extra-multiples', 'damage-tokens'];
const ADVANTAGE_KEYS = [...STEP_KEYS.weight, ...STEP_KEYS.type, ...STEP_KEYS.formation, ...STEP_KEYS.position];

export const ANCIENTS_TABLES: TableSchemas = {
    pool: {
        doc: 'The dice a unit throws in combat, by its size',
        reference: 'docs/rules/ancients.md#a1',
        keys: { kind: 'words', words: ANCIENTS_SIZES, doc: 'sizes' },
        values: { kind: 'number', min: 1, max: 100 },
        seed: words(S.dice)
    },
    'first-turn': {
        doc: 'The extra dice, on the first turn of a new combat, of a `shock` unit that charged and of a `defensive` unit that did not',
        reference: 'docs/rules/ancients.md#a1',
        keys: { kind: 'words', words: ['shock', 'defensive'], doc: '`shock`, `defensive`' },
        values: { kind: 'number', min: 0, max: 100 },
        seed: words(S.firstTurn)
    },
    'to-hit': {
        doc: 'The score a unit needs on each die to hit, by its net Advantage over the unit it throws at',
        reference: 'docs/rules/ancients.md#a4',
        keys: { kind: 'bands', covers: { from: -TO_HIT_REACH, to: TO_HIT_REACH }, doc: `net Advantage from -${TO_HIT_REACH} to ${TO_HIT_REACH} (beyond counts as its end)` },
        values: { kind: 'number', min: 1 },
        seed: S.toHit.map(r => ({ key: { band: r.band }, value: r.value }))
    },
    save: {
        doc: 'The score a unit needs on each die to save a hit, by its weight',
        reference: 'docs/rules/ancients.md#a5',
        keys: { kind: 'words', words: ANCIENTS_WEIGHTS, doc: 'weights' },
        values: { kind: 'number', min: 1 },
        seed: words(S.save)
    },
    threshold: {
        doc: 'The unsaved hits that make a unit take a break test, by its size',
        reference: 'docs/rules/ancients.md#a6',
        keys: { kind: 'words', words: ANCIENTS_SIZES, doc: 'sizes' },
        values: { kind: 'number', min: 1 },
        seed: words(S.threshold)
    },
    advantage: {
        doc: 'The Advantage steps of a weight, a type, a formation, and a position against the enemy (skill counts its own number)',
        reference: 'docs/rules/ancients.md#a3',
        keys: { kind: 'words', words: ADVANTAGE_KEYS, doc: 'weights, types, formations, positions' },
        values: { kind: 'number' },
        seed: [...words(S.steps.weight), ...words(S.steps.type), ...words(S.steps.formation), ...words(S.steps.position)]
    },
    break: {
        doc: 'The break test: how many d6 it throws (`d6`, 1 or 2), and its modifiers: once for a first test and for the winning side, per extra multiple of the threshold, per damage token',
        reference: 'docs/rules/ancients.md#a7',
        keys: { kind: 'words', words: BREAK_KEYS, doc: '`d6`, `first-test`, `winning-side`, `extra-multiples`, `damage-tokens`' },
        values: { kind: 'number' },
        seed: [{ key: { word: 'd6' }, value: 2 }, ...words(S.breakTest)]
    },
    movement: {
        doc: 'How far a unit that gives ground moves back, and an opponent that follows up moves forward, in percent of its Movement Rate (`move`)',
        reference: 'docs/rules/ancients.md#a9',
        keys: { kind: 'words', words: ['give-ground', 'follow-up'], doc: '`give-ground`, `follow-up`' },
        values: { kind: 'number', min: 0, max: 200 },
        seed: words(S.movement)
    }
};

/**
 * What a house block makes impossible: a to-hit or a save no d6 can score (7 or more: that band never
 * hits, that weight never saves), or a break test on other than 1 or 2 dice (the engine throws 2d6 or
 * 1d6, A7.1). Each is reported on the entry that sets it.
 */
export function checkAncientsTables(_model: ScenarioModel, _tables: TablesInForce, house: House, accept: ValidationAcceptor): void {
    for (const row of house.rows) {
        for (const entry of row.entries) {
            const value = entry.number;
            if (value === undefined) continue;
            if ((row.table === 'to-hit' || row.table === 'save') && value >= 7) {
                const who = row.table === 'to-hit'
                    ? `a unit at net Advantage ${keyOf(entry)} never hits. Write 6 or less`
                    : `a ${keyOf(entry)} unit never saves a hit. Write 6 or less, or keep it if the club means no save at all`;
                accept('warning', `No d6 scores ${value}+: ${who}.`,
                    { node: entry, property: 'number', code: AncientsHouseCodes.impossible });
            }
            if (row.table === 'break' && entry.key === 'd6' && value !== 1 && value !== 2) {
                accept('error', `A break test throws 2d6 or 1d6 (A7): write 'd6 2' or 'd6 1', not ${value}.`,
                    { node: entry, property: 'number', code: AncientsHouseCodes.impossible, data: { replacements: ['2', '1'] } });
            }
        }
    }
}

function keyOf(entry: HouseEntry): string {
    const key = entryKey(entry);
    return key ? keyText(key) : '?';
}

/** A row of a table a rule read: its key (a word, or the number a band holds). */
export type TableUse = readonly [table: string, key: string | number];

/**
 * For the breakdown: the house entries among the rows a line of it read (`  (house: save heavy 3)`),
 * or '' when every one is the seed's, so that files without house rules print as before.
 */
export function houseNote(tables: TablesInForce, uses: readonly TableUse[]): string {
    const written = new Set<string>();
    for (const [table, key] of uses) {
        const entry = typeof key === 'number' ? tables.bandEntry(table, table === 'to-hit' ? toHitKey(key) : key) : tables.entryFor(table, key);
        if (entry?.node) written.add(`${table} ${keyText(entry.key)} ${entry.value}`);
    }
    return written.size > 0 ? `  (house: ${[...written].join(', ')})` : '';
}

/**
 * The `advantage` rows an attack read (A3.3–A3.6): both units' weight, type, formation and position,
 * in the categories where they differ (an even category decided nothing).
 */
export function advantageUses(input: AncientsInput, unit: AncientsUnit, target: AncientsUnit): TableUse[] {
    const pairing = input.pairings.find(p => (p.a === unit.id && p.b === target.id) || (p.b === unit.id && p.a === target.id));
    const position = (id: string) => (pairing ? (pairing.a === id ? pairing.aPosition : pairing.bPosition) : 'front');
    const pairs: Array<[string, string]> = [
        [unit.weight, target.weight], [unit.type, target.type], [unit.formation, target.formation], [position(unit.id), position(target.id)]
    ];
    return pairs.filter(([a, b]) => a !== b).flatMap(([a, b]) => [['advantage', a] as const, ['advantage', b] as const]);
}

/** The house entries in force, by table as an umpire writes them (`save heavy 3; break d6 1`): empty without any. */
export function houseRows(tables: TablesInForce): string[] {
    return Object.keys(tables.schemas).flatMap(table => {
        const written = tables.entries(table).filter(e => e.node);
        return written.length > 0 ? [`${table} ${written.map(e => `${keyText(e.key)} ${e.value}`).join(', ')}`] : [];
    });
}
