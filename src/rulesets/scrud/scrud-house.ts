/**
 * SCRUD's tables as house rules may change them (docs/house-rules.md#scrud): their keys, values and
 * the seed's printed values, and the check that a changed table still lets every result happen.
 */
import type { ValidationAcceptor } from 'langium';
import type { House } from '../../language/generated/ast.js';
import { bandText } from '../../core/bands.js';
import { entryKey, type TableSchemas, type TablesInForce } from '../../core/house-rules.js';
import { D6, dieNamed } from '../../core/dice.js';
import type { ScenarioModel } from '../../core/scenario.js';
import { PAIR_RESULTS, SCRUD_SEED_TABLES } from './engine/scrud-tables.js';
import { ALL_GRADES } from './scrud-reader.js';

export const ScrudHouseCodes = {
    unreachable: 'scrud-house-unreachable'
} as const;

export const SCRUD_TABLES: TableSchemas = {
    result: {
        doc: 'What the lower die\'s unit suffers, by the difference of a pair\'s adjusted dice (the higher one has won); `stand-off`, and any result at 0, is both units\'',
        reference: 'docs/rules/scrud.md#s6',
        keys: { kind: 'bands', covers: { from: 0, to: null }, doc: 'differences of 0 or more' },
        values: { kind: 'word', words: PAIR_RESULTS },
        seed: SCRUD_SEED_TABLES.results.map(r => ({ key: { band: r.band }, value: r.value }))
    },
    die: {
        doc: 'The die a grade\'s units throw, or every unit\'s (`all`); a `die` stat on the grade or unit still wins',
        reference: 'docs/rules/scrud.md#s1',
        keys: { kind: 'words', words: [ALL_GRADES], grades: true, doc: 'grade names, or `all`' },
        values: { kind: 'die' },
        // The seed throws d6 (or `option die`): no entry, so that the option keeps working.
        seed: []
    },
    clamp: {
        doc: 'Whether a turned die stops at its lowest face (`low`) and its highest (`high`): `no` lets a +2 on a 6 count 8',
        reference: 'docs/rules/scrud.md#s2',
        keys: { kind: 'words', words: ['low', 'high'], doc: '`low`, `high`' },
        values: { kind: 'word', words: ['yes', 'no'] },
        seed: [{ key: { word: 'low' }, value: 'yes' }, { key: { word: 'high' }, value: 'yes' }]
    },
    'runs-and-pursues': {
        doc: 'Under `option runs-and-pursues`: the face of its own die on which a unit runs away (`runs`), and the one on which it pursues (`pursues`)',
        reference: 'docs/rules/scrud.md#s1.3',
        keys: { kind: 'words', words: ['runs', 'pursues'], doc: '`runs`, `pursues`' },
        values: { kind: 'number', min: 1, max: 100 },
        seed: [{ key: { word: 'runs' }, value: 1 }, { key: { word: 'pursues' }, value: 6 }]
    }
};

/**
 * A result band that no pair can reach with the file's dice (with both ends clamped, the largest
 * difference is the highest face any unit can show less the lowest): the result it names can never happen.
 */
export function checkScrudTables(model: ScenarioModel, tables: TablesInForce, house: House, accept: ValidationAcceptor): void {
    if (tables.word('clamp', 'low') === 'no' || tables.word('clamp', 'high') === 'no') return;
    const dice = [...model.forces.values()].flatMap(f => f.units).map(u => dieNamed(String(u.stats.get('die') ?? '')) ?? houseDie(tables, u.grade?.name) ?? dieNamed(String(model.options.get('die') ?? '')) ?? D6);
    if (dice.length === 0) return;
    const widest = Math.max(...dice.map(d => d.max)) - Math.min(...dice.map(d => d.min));
    for (const row of house.rows.filter(r => r.table === 'result')) {
        for (const entry of row.entries) {
            const key = entryKey(entry);
            if (!key || !('band' in key) || key.band.from === null || key.band.from <= widest) continue;
            accept('warning', `No pair can differ by ${bandText(key.band)} with this file's dice (at most ${widest}): '${entry.word ?? entry.number}' can never happen.`,
                { node: entry, property: 'band', code: ScrudHouseCodes.unreachable });
        }
    }
}

function houseDie(tables: TablesInForce, grade: string | undefined) {
    const name = (grade ? tables.word<string>('die', grade) : undefined) ?? tables.word<string>('die', ALL_GRADES);
    return name ? dieNamed(name) : undefined;
}
