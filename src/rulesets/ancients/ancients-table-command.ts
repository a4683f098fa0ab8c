/**
 * `umpire table [--dice LIST] [--json]`: the Ancients expected-hits table ("For the Math Geeks",
 * docs/rules/ancients.md#a-table), computed exactly for any pool of dice (engine/ancients-table.ts).
 * A command the Ancients rule set adds to the CLI (src/rulesets/ruleset-commands.ts); it loads no Langium.
 */
import { expectedHitsTable, MAX_TABLE_DICE, SEED_DICE, tableLines } from './engine/ancients-table.js';
import { CommandError } from '../../core/command-error.js';
import type { RulesetCommand } from '../../core/ruleset.js';

/**
 * The pools asked for: `14,12,10`, `6..14` (every count from 6 to 14), or a mix (`6..8,12`).
 * Without `--dice`, the seed's own: 14, 12, 10, 8, 6.
 */
export function parseDiceList(text: string | undefined): number[] {
    if (text === undefined) return [...SEED_DICE];
    const out: number[] = [];
    for (const part of text.split(',').map(p => p.trim()).filter(p => p !== '')) {
        const m = /^([0-9]+)(?:\.\.([0-9]+))?$/.exec(part);
        if (!m) throw new CommandError(`--dice: '${part}' is not a count or a range: write e.g. 10, 6..14 or 6,8,10`);
        const from = Number(m[1]), to = m[2] === undefined ? from : Number(m[2]);
        if (from < 1 || to < from || to > MAX_TABLE_DICE) {
            throw new CommandError(`--dice: '${part}' must be counts from 1 to ${MAX_TABLE_DICE}, the smaller first`);
        }
        for (let n = from; n <= to; n++) out.push(n);
    }
    if (out.length === 0) throw new CommandError('--dice: give at least one count');
    return out;
}

export function tableCommand(options: { dice?: string, json?: boolean }, out: (line: string) => void): number {
    const tables = parseDiceList(options.dice).map(expectedHitsTable);
    if (options.json) {
        out(JSON.stringify({
            tables: tables.map(t => ({
                dice: t.dice,
                rows: t.rows.map(r => ({
                    toHit: r.toHit,
                    cells: r.cells.map(c => ({ save: c.save, exact: `${c.value.num}/${c.value.den}`, expected: Number(c.value.num) / Number(c.value.den), text: c.text }))
                }))
            }))
        }, null, 2));
        return 0;
    }
    out('Expected unsaved hits by dice thrown, to-hit score (rows) and save (columns; - = none), as in the Ancients rules (docs/rules/ancients.md).');
    for (const line of alignedBlocks(tables.map(tableLines))) out(line);
    return 0;
}

/**
 * The seed's lines (`14 - 6+ 5+ …`, `6+ 2.333333 1.944444 …`) in columns: the row labels to the
 * left, the figures lined up on their decimal point (`7` over `5.833333` puts the 7 over the 5), the
 * save headings over them, one set of widths for all the blocks so they read as one table, and a blank
 * line between blocks. No cell holds a space, so splitting the seed's single spaces is safe.
 */
function alignedBlocks(blocks: string[][]): string[] {
    const rows = blocks.map(lines => lines.map(line => line.split(' ')));
    const body = rows.flatMap(block => block.slice(1));
    const columns = Math.max(...rows.flat().map(row => row.length));
    // Per column: the widest whole part, the widest fraction (with its point), the widest cell.
    const whole: number[] = [], fraction: number[] = [], width: number[] = [];
    for (let c = 0; c < columns; c++) {
        const figures = body.map(row => row[c]).filter((cell): cell is string => cell !== undefined && c > 0);
        whole[c] = Math.max(0, ...figures.map(cell => cell.split('.')[0].length));
        fraction[c] = Math.max(0, ...figures.map(cell => cell.length - cell.split('.')[0].length));
        width[c] = Math.max(whole[c] + fraction[c], ...rows.flat().map(row => row[c]?.length ?? 0));
    }
    const figure = (cell: string, c: number) => {
        const [int, dec] = cell.split('.');
        return (int.padStart(whole[c]) + (dec === undefined ? '' : `.${dec}`).padEnd(fraction[c])).padStart(width[c]);
    };
    return rows.flatMap((block, b) => [
        ...(b > 0 ? [''] : []),
        ...block.map((row, r) => row.map((cell, c) => c === 0 ? cell.padEnd(width[c]) : r === 0 ? cell.padStart(width[c]) : figure(cell, c))
            .join('  ').trimEnd())
    ]);
}

export const ancientsTableCommand: RulesetCommand = {
    name: 'table',
    description: 'the Ancients expected unsaved hits by dice, to-hit and save, exactly, for any pools of dice (docs/rules/ancients.md)',
    options: [
        { flags: '-d, --dice <list>', description: 'pools to print: 10, 6..14 or 6,8,10 (default: 14,12,10,8,6, as in the rules)' },
        { flags: '--json', description: 'print the table as JSON, with each value as an exact fraction (docs/json.md, "Ancients")' }
    ],
    examples: [
        ['umpire table', 'the rules\' own blocks: 14, 12, 10, 8 and 6 dice'],
        ['umpire table --dice 6..9', 'every pool from 6 to 9 dice'],
        ['umpire table --dice 7 --json', 'exact fractions for 7 dice']
    ],
    run: (options, out) => tableCommand({ dice: typeof options.dice === 'string' ? options.dice : undefined, json: options.json === true }, out)
};
