/**
 * docs/house-rules.md lists every table of every rule set with its keys, values and the seed's values:
 * the rows between `<!-- house-tables: ID -->` and `<!-- /house-tables -->` are compared with what the
 * rule set itself declares (`Ruleset.tables`), so the page cannot drift from the code.
 */
import * as fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { builtInRulesets } from '../src/rulesets/registry.js';
import { seedText, type TableSchema } from '../src/core/house-rules.js';

const PAGE = fs.readFileSync('docs/house-rules.md', 'utf8');

function valuesText(schema: TableSchema): string {
    const v = schema.values;
    if (v.kind === 'word') return v.words.join(', ');
    if (v.kind === 'die') return 'a die';
    if (v.min !== undefined && v.max !== undefined) return `numbers from ${v.min} to ${v.max}`;
    if (v.min !== undefined) return `numbers of ${v.min} or more`;
    return 'numbers';
}

/** The row the page must have for a table. */
function row(name: string, schema: TableSchema): string {
    const anchor = schema.reference.split('#')[1] ?? '';
    const seed = schema.seed.length > 0 ? `\`${seedText(schema)}\`` : 'no entries';
    return `| \`${name}\` | ${schema.keys.doc} | ${valuesText(schema)} | ${seed} | [${anchor.toUpperCase()}](${schema.reference.replace(/^docs\//, '')}) |`;
}

function documented(id: string): string[] | undefined {
    const m = new RegExp(`<!-- house-tables: ${id} -->\\n([\\s\\S]*?)<!-- /house-tables -->`).exec(PAGE);
    return m?.[1].trim().split('\n').slice(2);
}

describe('docs/house-rules.md', () => {
    for (const ruleset of builtInRulesets().all().filter(r => r.tables && Object.keys(r.tables).length > 0)) {
        it(`lists every table of ${ruleset.title} as the rule set declares it`, () => {
            expect(documented(ruleset.id)).toEqual(Object.entries(ruleset.tables!).map(([name, schema]) => row(name, schema)));
        });
    }
});
