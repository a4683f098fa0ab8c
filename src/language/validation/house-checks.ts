/**
 * Checks of `house { … }` blocks, whatever the rule set (docs/house-rules.md): each row names one of
 * the rule set's tables, each entry fits the table's keys and values, a key is written once, and the
 * bands of a banded table cover its numbers with no gap and no overlap. The rule set then checks the
 * tables in force for what its own rules need (`Ruleset.checkTables`).
 */
import type { ValidationAcceptor } from 'langium';
import type { House, HouseRow } from '../generated/ast.js';
import { modelOf } from '../../core/model-cache.js';
import { bandProblems, bandText, type Band } from '../../core/bands.js';
import { entryKey, entryProblem, keyText, tablesInTurn } from '../../core/house-rules.js';
import { closeSpellings } from '../../core/spelling.js';
import { Codes } from '../../core/codes.js';

export function checkHouse(house: House, accept: ValidationAcceptor): void {
    const model = modelOf(house);
    const ruleset = model.ruleset;
    if (!ruleset) return;
    const schemas = ruleset.tables ?? {};
    const grades = new Set(model.grades.keys());
    for (const row of house.rows) {
        const schema = schemas[row.table];
        if (!schema) {
            const known = Object.keys(schemas);
            const close = closeSpellings(row.table, known);
            accept('error', `${ruleset.title} has no table '${row.table}'${close.length ? `: did you mean '${close[0]}'?` : '.'} Its tables: ${known.join(', ') || 'none'}.`,
                { node: row, property: 'table', code: Codes.houseUnknownTable, data: { replacements: close.length ? close : known } });
            continue;
        }
        for (const entry of row.entries) {
            const problem = entryProblem(schema, entry, grades);
            if (!problem) continue;
            // A band written with spaces has one repair, the band joined (`3 .. 4` → `3..4`), for the whole band.
            const replacements = problem.on === 'band' ? problem.expected
                : problem.expected ? closeOrAll(problem.on === 'key' ? entry.key : entry.word, problem.expected) : undefined;
            const property = problem.on === 'value' ? (entry.word !== undefined ? 'word' : 'number') : (entry.key !== undefined ? 'key' : 'band');
            const code = problem.on === 'band' ? Codes.houseBand : problem.on === 'key' ? Codes.houseKey : Codes.houseValue;
            accept('error', `'${row.table}': ${problem.message}`, { node: entry, property, code, data: replacements ? { replacements } : undefined });
        }
    }
    checkRepeats(house, accept);
    checkCoverage(house, accept);
    const turn = house.$container.$type === 'Turn' ? house.$container : undefined;
    ruleset.checkTables?.(model, tablesInTurn(model, turn), house, accept);
}

function closeOrAll(written: string | undefined, expected: readonly string[]): string[] {
    const close = closeSpellings(written, expected);
    return close.length > 0 ? close : [...expected];
}

/** A key written twice for one table in one block: only the last counts, which is rarely what was meant. */
function checkRepeats(house: House, accept: ValidationAcceptor): void {
    const seen = new Map<string, Set<string>>();
    for (const row of house.rows) {
        const keys = seen.get(row.table) ?? new Set<string>();
        seen.set(row.table, keys);
        for (const entry of row.entries) {
            const key = entryKey(entry);
            if (!key || 'band' in key) continue;
            if (keys.has(key.word)) {
                accept('warning', `'${row.table}' already sets '${key.word}' in this block: the last one counts.`, { node: entry, property: 'key', code: Codes.houseRepeatedKey });
            }
            keys.add(key.word);
        }
    }
}

/** The bands one block writes for a banded table replace the seed's, so together they must cover its numbers. */
function checkCoverage(house: House, accept: ValidationAcceptor): void {
    const model = modelOf(house);
    const schemas = model.ruleset?.tables ?? {};
    const rowsByTable = new Map<string, HouseRow[]>();
    for (const row of house.rows) {
        const schema = schemas[row.table];
        if (schema?.keys.kind !== 'bands') continue;
        rowsByTable.set(row.table, [...(rowsByTable.get(row.table) ?? []), row]);
    }
    for (const [table, rows] of rowsByTable) {
        const keys = schemas[table].keys as { covers: Band };
        const entries = rows.flatMap(r => r.entries).flatMap(e => {
            const key = entryKey(e);
            return key && 'band' in key ? [{ node: e, band: key.band }] : [];
        });
        const { overlaps, gaps } = bandProblems(entries.map(e => e.band), keys.covers);
        for (const [, j] of overlaps) {
            const later = entries[j];
            const earlier = entries[overlaps.find(([, jj]) => jj === j)![0]];
            accept('error', `'${table}': the band ${bandText(later.band)} overlaps ${bandText(earlier.band)}: each number may fall in one band only.`,
                { node: later.node, property: 'band', code: Codes.houseBandOverlap });
        }
        for (const gap of gaps) {
            accept('error', `'${table}': no band covers ${gapText(gap)}: a house table replaces the seed's whole, so its bands must cover ${gapText(keys.covers)}.`,
                { node: rows[0], property: 'table', code: Codes.houseBandGap, data: { gap: keyText({ band: gap }) } });
        }
    }
}

function gapText(gap: Band): string {
    if (gap.from === null && gap.to === null) return 'every number';
    if (gap.from === gap.to) return String(gap.from);
    if (gap.to === null) return `${gap.from} or more`;
    if (gap.from === null) return `${gap.to} or less`;
    return `${gap.from} to ${gap.to}`;
}
