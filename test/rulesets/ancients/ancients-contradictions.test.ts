/**
 * What an Ancients unit cannot be at once (`charged, countercharged`), `first turn` twice, and a skill
 * outside what the rules read: each a diagnostic at its place, in the seed's words
 * (docs/rules/ancients.md#exclusive).
 */
import { describe, expect, it } from 'vitest';
import type { Diagnostic } from 'vscode-languageserver';
import { Codes } from '../../../src/core/codes.js';
import { AncientsCodes } from '../../../src/rulesets/ancients/ancients-codes.js';
import { parse } from '../../support/services.js';

const HEAD = `rules ancients
grade Hoplite { size large, weight heavy, formation formed, skill 2, leadership 7, shock, move 4 }
force Greeks { unit Hoplites infantry Hoplite }
force Persians { unit Immortals infantry { size large, weight medium, formation formed, skill 2, leadership 7 } }
`;

async function diagnostics(text: string): Promise<Diagnostic[]> {
    const doc = await parse(text, { validation: true });
    expect(doc.parseResult.parserErrors.map(e => e.message)).toEqual([]);
    return doc.diagnostics ?? [];
}
const lineOf = (text: string, needle: string) => text.split('\n').findIndex(l => l.includes(needle)) + 1;
const at = (ds: Diagnostic[], code: string) => ds.filter(d => d.code === code).map(d => `${d.range.start.line + 1}: ${d.severity === 1 ? 'error' : 'warning'} ${d.message}`);

describe('Ancients contradictions', () => {
    it('charged and countercharged: an error on the second, in the seed\'s words (A1)', async () => {
        const text = `${HEAD}engagement E {\n  Greeks attacks Persians\n  first turn\n  Greeks.Hoplites: charged, countercharged\n}\n`;
        expect(at(await diagnostics(text), Codes.factsExclusive)).toEqual([
            `${lineOf(text, 'countercharged')}: error 'charged' and 'countercharged' cannot both be true of Greeks.Hoplites: the seed tells "if it Charged or Counter-Charged" apart: a unit charged, or it met the charge with one of its own (A1). Keep one.`
        ]);
    });

    it('first turn twice: a warning on the second', async () => {
        const text = `${HEAD}engagement E {\n  Greeks attacks Persians\n  first turn\n  first turn\n}\n`;
        const ds = (await diagnostics(text)).filter(d => (d.message as string).includes('written twice'));
        expect(ds.map(d => [d.range.start.line + 1, d.code, d.severity])).toEqual([[lineOf(text, 'first turn') + 1, Codes.statementNotUsed, 2]]);
    });

    it('skill -5 and skill 100: warnings with the nearest end as the fix', async () => {
        const text = HEAD.replace('skill 2, leadership 7, shock', 'skill -5, leadership 7, shock').replace('formed, skill 2, leadership 7 }', 'formed, skill 100, leadership 7 }');
        const ds = await diagnostics(text);
        expect(at(ds, AncientsCodes.statRange)).toEqual([
            `${lineOf(text, 'skill -5')}: warning skill -5 is outside 0 to 5: "the difference in skill levels is the total Advantage", and a net Advantage beyond 5 counts as 5 (A4). It is read as written.`,
            `${lineOf(text, 'skill 100')}: warning skill 100 is outside 0 to 5: "the difference in skill levels is the total Advantage", and a net Advantage beyond 5 counts as 5 (A4). It is read as written.`
        ]);
        expect(ds.filter(d => d.code === AncientsCodes.statRange).map(d => (d.data as { replacements: string[] }).replacements)).toEqual([['0'], ['5']]);
    });
});
