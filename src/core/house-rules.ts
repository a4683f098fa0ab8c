/**
 * House rules as data (docs/house-rules.md). Each rule set describes its tables (what a table is keyed
 * by, what its values are, and the seed's printed values: `Ruleset.tables`); `house { … }` blocks change
 * them for the whole file or for one turn. This module works out the tables in force for an action,
 * whatever the rule set: the rule set's reader turns them into its engine's typed tables.
 *
 * A banded table (`result 1 recoil, 2 retire, …`) is replaced whole by a house row, since its bands
 * only make sense together; a table keyed by words (`save heavy 3`) is changed key by key.
 */
import { isTurn, type Action, type House, type HouseEntry, type Turn } from '../language/generated/ast.js';
import { bandText, inBand, parseBand, type Band } from './bands.js';
import { dieNamed, MAX_DIE_SIDES } from './dice.js';
import { closeSpellings } from './spelling.js';
import type { ActionModel, ScenarioModel } from './scenario.js';
import { coreKept } from './kept.js';

export type TableValue = number | string;

/** A table's key: a band of numbers, or a word (a size, a weight, a grade's name). */
export type TableKey = { readonly band: Band } | { readonly word: string };

interface TableEntry {
    readonly key: TableKey;
    readonly value: TableValue;
}

/** What a table's keys are. */
type TableKeys =
    /** Bands that must cover `covers` exactly once (no gap, no overlap). */
    | { readonly kind: 'bands', readonly covers: Band, readonly doc: string }
    /** Words: these, or the names of the file's grades. */
    | { readonly kind: 'words', readonly words?: readonly string[], readonly grades?: boolean, readonly doc: string };

/** What a table's values are. */
type TableValues =
    | { readonly kind: 'number', readonly min?: number, readonly max?: number }
    | { readonly kind: 'word', readonly words: readonly string[] }
    /** A die a scenario may name: `d6`, `d4`, `average`. */
    | { readonly kind: 'die' };

/** One of a rule set's tables, with the values its seed prints. */
export interface TableSchema {
    /** What it decides, for hovers and docs/house-rules.md. */
    readonly doc: string;
    /** The anchor of the rule it holds (`docs/rules/scrud.md#s6`). */
    readonly reference: string;
    readonly keys: TableKeys;
    readonly values: TableValues;
    /** The seed's values: the table in force when no house rule changes it. */
    readonly seed: readonly TableEntry[];
}

export type TableSchemas = Readonly<Record<string, TableSchema>>;

/** One entry of a table in force, and where it comes from: the seed, or a house rule of the file. */
export interface EntryInForce extends TableEntry {
    /** The house rule's entry that set it; undefined for the seed's. */
    readonly node?: HouseEntry;
}

/** The key of a written entry, or undefined when it is half typed or a malformed band (`bandProblem` says why). */
export function entryKey(entry: HouseEntry): TableKey | undefined {
    if (entry.key !== undefined) return { word: entry.key };
    const b = entry.band;
    if (!b) return undefined;
    if (b.spaced !== undefined) return undefined;
    if (b.range === undefined) return b.from === undefined ? undefined : { band: { from: b.from, to: b.from } };
    const parsed = parseBand(b.range);
    return 'band' in parsed ? parsed : undefined;
}

/**
 * Why a written band key is malformed (`4...5`, `3 .. 4`) or empty (`5..3`), or undefined when it is
 * fine or not a band; `joined` is the band written without its spaces, when that reads as one.
 */
function bandProblem(entry: HouseEntry): { message: string, joined?: string } | undefined {
    const b = entry.band;
    if (b?.spaced !== undefined) {
        const joined = `${b.from ?? ''}${b.spaced}${b.to ?? ''}`;
        const parsed = parseBand(joined);
        return 'band' in parsed
            ? { message: `A band is one word, written without spaces: ${joined}.`, joined }
            : { message: `A band is one word, written without spaces. ${parsed.problem}` };
    }
    const text = b?.range;
    if (text === undefined) return undefined;
    const parsed = parseBand(text);
    return 'problem' in parsed ? { message: parsed.problem } : undefined;
}

/** The value of a written entry, or undefined when it is half typed. */
function entryValue(entry: HouseEntry): TableValue | undefined {
    return entry.number ?? entry.word;
}

export function keyText(key: TableKey): string {
    return 'band' in key ? bandText(key.band) : key.word;
}

/** A table's seed values as a house row would write them: `0 stand-off, 1 recoil, …`. */
export function seedText(schema: TableSchema): string {
    return schema.seed.length > 0 ? schema.seed.map(e => `${keyText(e.key)} ${e.value}`).join(', ') : 'no entries';
}

/** The house rules in force for an action, one line each as written (for hovers): empty without any. */
export function houseLines(tables: TablesInForce): string[] {
    const changes = tables.changes();
    if (!changes) return [];
    return Object.entries(changes).map(([table, entries]) => `${table} ${entries.map(([k, v]) => `${k} ${v}`).join(', ')}`);
}

/** Why a written entry does not fit its table, or undefined when it fits (the validator reports it). */
export function entryProblem(schema: TableSchema, entry: HouseEntry, grades: ReadonlySet<string>): { on: 'band' | 'key' | 'value', message: string, expected?: readonly string[] } | undefined {
    const malformed = bandProblem(entry);
    if (malformed) return { on: 'band', message: malformed.message, expected: malformed.joined !== undefined ? [malformed.joined] : undefined };
    const key = entryKey(entry);
    if (!key) return { on: 'key', message: 'This entry has no key.' };
    const keys = schema.keys;
    if (keys.kind === 'bands' && !('band' in key)) return { on: 'key', message: `Its keys are ${keys.doc}: write a number or a band such as 3..4, 5.. or ..-2.` };
    if (keys.kind === 'words') {
        if ('band' in key) return { on: 'key', message: `Its keys are ${keys.doc}, not numbers.`, expected: knownWords(keys, grades) };
        const known = knownWords(keys, grades);
        if (!known.includes(key.word)) {
            const close = closeSpellings(key.word, known);
            // Every key is listed already: a guess is worth adding only when one key stands out (`Rwa` → `Raw`, not `class-6` → three classes).
            const hint = close.length === 1 ? ` Did you mean '${close[0]}'?` : '';
            return { on: 'key', message: `'${key.word}' is not one of its keys (${keys.doc}): ${known.join(', ') || 'none in this file'}.${hint}`, expected: known };
        }
    }
    const value = entryValue(entry);
    if (value === undefined) return { on: 'value', message: 'This entry has no value.' };
    return valueProblem(schema.values, value);
}

function knownWords(keys: Extract<TableKeys, { kind: 'words' }>, grades: ReadonlySet<string>): string[] {
    return [...(keys.words ?? []), ...(keys.grades ? grades : [])];
}

function valueProblem(values: TableValues, value: TableValue): { on: 'value', message: string, expected?: readonly string[] } | undefined {
    switch (values.kind) {
        case 'number':
            if (typeof value !== 'number') return { on: 'value', message: `its values are numbers${rangeText(values)}, not '${value}'.` };
            if ((values.min !== undefined && value < values.min) || (values.max !== undefined && value > values.max)) {
                return { on: 'value', message: `${value} is out of range: its values are numbers${rangeText(values)}.` };
            }
            return undefined;
        case 'word':
            return typeof value === 'string' && values.words.includes(value)
                ? undefined
                : { on: 'value', message: `its values are ${values.words.join(', ')}, not '${value}'.`, expected: values.words };
        case 'die':
            return typeof value === 'string' && dieNamed(value)
                ? undefined
                : { on: 'value', message: `its values are dice (d6, or dN for N from 2 to ${MAX_DIE_SIDES}, or average), not '${value}'.` };
    }
}

function rangeText(values: { min?: number, max?: number }): string {
    if (values.min !== undefined && values.max !== undefined) return ` from ${values.min} to ${values.max}`;
    if (values.min !== undefined) return ` of ${values.min} or more`;
    if (values.max !== undefined) return ` of ${values.max} or less`;
    return '';
}

/** The tables in force for one action (or one house block), and the house rules that shaped them. */
export class TablesInForce {
    private readonly tables = new Map<string, EntryInForce[]>();

    constructor(readonly schemas: TableSchemas, houses: readonly House[], grades: ReadonlySet<string>) {
        for (const [name, schema] of Object.entries(schemas)) this.tables.set(name, [...schema.seed]);
        for (const house of houses) this.apply(house, grades);
    }

    private apply(house: House, grades: ReadonlySet<string>): void {
        // A banded table is replaced by all the rows one block writes for it, read together.
        const replaced = new Set<string>();
        for (const row of house.rows) {
            const schema = this.schemas[row.table];
            if (!schema) continue;
            const entries = row.entries.filter(e => !entryProblem(schema, e, grades))
                .map((e): EntryInForce => ({ key: entryKey(e)!, value: entryValue(e)!, node: e }));
            if (schema.keys.kind === 'bands') {
                const kept = replaced.has(row.table) ? this.tables.get(row.table)! : [];
                replaced.add(row.table);
                this.tables.set(row.table, [...kept, ...entries]);
            } else {
                const byWord = new Map(this.tables.get(row.table)!.map(e => [keyText(e.key), e]));
                for (const e of entries) byWord.set(keyText(e.key), e);
                this.tables.set(row.table, [...byWord.values()]);
            }
        }
    }

    /** A table's entries in force (the seed's when no house rule changes it). */
    entries(table: string): readonly EntryInForce[] {
        return this.tables.get(table) ?? [];
    }

    /** A banded table's rows, for an engine. */
    bands<T extends TableValue>(table: string): Array<{ band: Band, value: T }> {
        return this.entries(table).flatMap(e => ('band' in e.key ? [{ band: e.key.band, value: e.value as T }] : []));
    }

    /** A word-keyed table's value for one key, if it has one. */
    word<T extends TableValue>(table: string, key: string): T | undefined {
        return this.entries(table).find(e => 'word' in e.key && e.key.word === key)?.value as T | undefined;
    }

    /** The entry of a banded table whose band holds `n`, and where it comes from (for the breakdown). */
    bandEntry(table: string, n: number): EntryInForce | undefined {
        return this.entries(table).find(e => 'band' in e.key && inBand(e.key.band, n));
    }

    /** The entry in force for a key, and whether it is the seed's or a house rule's (for hovers). */
    entryFor(table: string, key: string): EntryInForce | undefined {
        return this.entries(table).find(e => keyText(e.key) === key);
    }

    /**
     * The tables a house rule changed, as plain data: what written outcomes' fingerprints cover, so
     * that changing a house rule flags them stale. Undefined when every table is the seed's, so that
     * outcomes written before house rules existed keep their fingerprints.
     */
    changes(): Record<string, Array<[string, TableValue]>> | undefined {
        const changed: Record<string, Array<[string, TableValue]>> = {};
        for (const [name, entries] of this.tables) {
            if (entries.every(e => !e.node)) continue;
            changed[name] = entries.map(e => [keyText(e.key), e.value]);
        }
        return Object.keys(changed).length > 0 ? changed : undefined;
    }
}

/** The house blocks in force in a turn (or at the top level when `turn` is undefined): the file's first. */
function housesFor(model: ScenarioModel, turn: Turn | undefined): House[] {
    const file = model.houses.filter(h => h.turn === undefined);
    const own = turn ? model.houses.filter(h => h.turn === turn) : [];
    return [...file, ...own].map(h => h.node);
}

const cache = coreKept.table<ScenarioModel, Map<Turn | undefined, TablesInForce>>({
    name: 'tables in force', keeps: 'the house tables in force in each turn (the whole file outside turns)',
    keyedBy: 'a model',
    againWhen: 'the model is new'
});

/** The rule set's tables in force for an action: the seed's, then the file's house rules, then its turn's. */
export function tablesFor(model: ScenarioModel, action: ActionModel | Action | undefined): TablesInForce {
    if (!action) return tablesInTurn(model, undefined);
    if ('turn' in action) return tablesInTurn(model, action.turn);
    return tablesInTurn(model, isTurn(action.$container) ? action.$container : undefined);
}

export function tablesInTurn(model: ScenarioModel, turn: Turn | undefined): TablesInForce {
    let byTurn = cache.get(model);
    if (!byTurn) cache.set(model, byTurn = new Map());
    let tables = byTurn.get(turn);
    if (!tables) {
        tables = new TablesInForce(model.ruleset?.tables ?? {}, housesFor(model, turn), new Set(model.grades.keys()));
        byTurn.set(turn, tables);
    }
    return tables;
}
