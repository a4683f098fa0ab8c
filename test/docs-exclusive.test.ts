/**
 * Each rule set's reference lists the facts that exclude each other and the ranges of its stats as the
 * rule set declares them (`vocabulary.exclusive`, `vocabulary.ranges`): the rows between
 * `<!-- exclusive-facts: ID -->` (and `<!-- stat-ranges: ID -->`) and their closing comment are
 * compared with the data, so the page, the checks and completion read one list.
 */
import * as fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { builtInRulesets } from '../src/rulesets/registry.js';
import type { ExclusiveFacts, StatRange } from '../src/core/ruleset.js';

const ruleLink = (rule: string) => `[${rule.toUpperCase()}](#${rule})`;

function exclusiveRow(g: ExclusiveFacts): string {
    return `| ${g.facts.map(f => `\`${f}\``).join(', ')} | ${g.kinds.join(', ')} | ${g.severity} | ${g.why} | ${ruleLink(g.rule)} |`;
}

function rangeRow(key: string, r: StatRange): string {
    return `| \`${key}\` | ${r.min} | ${r.max ?? '—'} | ${r.severity} | ${r.why} | ${ruleLink(r.rule)} |`;
}

function documented(page: string, marker: string, id: string): string[] | undefined {
    const m = new RegExp(`<!-- ${marker}: ${id} -->\\n([\\s\\S]*?)<!-- /${marker} -->`).exec(page);
    return m?.[1].trim().split('\n').slice(2);
}

describe('the rules references list what excludes what, and the stats\' ranges', () => {
    for (const ruleset of builtInRulesets().all()) {
        const page = fs.readFileSync(ruleset.reference, 'utf8');
        const { exclusive, ranges } = ruleset.vocabulary;
        if (exclusive && exclusive.length > 0) {
            it(`${ruleset.reference} lists ${ruleset.title}'s exclusive facts as declared`, () => {
                expect(documented(page, 'exclusive-facts', ruleset.id)).toEqual(exclusive.map(exclusiveRow));
                for (const g of exclusive) expect(page).toContain(`<a id="${g.rule}"></a>`);
            });
        }
        if (ranges && Object.keys(ranges).length > 0) {
            it(`${ruleset.reference} lists ${ruleset.title}'s stat ranges as declared`, () => {
                expect(documented(page, 'stat-ranges', ruleset.id)).toEqual(Object.entries(ranges).map(([k, r]) => rangeRow(k, r)));
            });
        }
    }
});
