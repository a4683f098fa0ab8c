/**
 * One mistake, one message, with the true counts: dice that are not used, a fire out of range whose
 * dice are not counted as well, a misspelt fact with its "did you mean", a seed a move without dice
 * does not use, and a die or option not known, with what is accepted.
 */
import { describe, expect, it } from 'vitest';
import type { Diagnostic } from 'vscode-languageserver';
import { Codes } from '../../../src/core/codes.js';
import { LooseFilesCodes } from '../../../src/rulesets/loose-files/loose-files-codes.js';
import { parse } from '../../support/services.js';

const FORCES = `rules loose-files
force A {
  unit Line infantry { class 2, stands 1 }
  unit Guns artillery { class 2, stands 2, guns medium }
}
force B {
  unit Foot infantry { class 3, stands 4 }
}
`;

async function diagnostics(text: string): Promise<Diagnostic[]> {
    const doc = await parse(text, { validation: true });
    expect(doc.parseResult.parserErrors.map(e => e.message)).toEqual([]);
    return doc.diagnostics ?? [];
}
const lineOf = (text: string, needle: string) => text.split('\n').findIndex(l => l.includes(needle)) + 1;
const shown = (ds: Diagnostic[], code: string) => ds.filter(d => d.code === code).map(d => `${d.range.start.line + 1}:${d.range.start.character + 1} ${d.message}`);

describe('Loose Files messages that tell the truth once', () => {
    it('one die due and three entered: one message, with the dice thrown and the dice entered', async () => {
        const text = `${FORCES}fire F {\n  A.Line fires at B.Foot: range 5\n  dice A.Line d6 4 4 5\n}\n`;
        const ds = await diagnostics(text);
        expect(shown(ds, Codes.diceCount)).toEqual([`${lineOf(text, 'dice A.Line')}:20 These 2 dice are not used: A.Line throws 1 d6 here, and 3 are entered.`]);
        // The quick fix knows how many to keep.
        expect(ds.find(d => d.code === Codes.diceCount)?.data).toEqual({ expected: 1 });
    });

    it('one die too many keeps the short message', async () => {
        const text = `${FORCES}engagement E {\n  A.Line attacks B.Foot\n  dice A 3 4\n  dice B 3\n}\n`;
        expect(shown(await diagnostics(text), Codes.diceCount)).toEqual([`${lineOf(text, 'dice A')}:12 This die is not used: A throws 1 average die here.`]);
    });

    it('a fire out of range is one error: its dice are not counted as well', async () => {
        const text = `${FORCES}fire G {\n  A.Guns fires at B.Foot: range 40\n  dice A.Guns d6 4 4\n}\n`;
        const ds = await diagnostics(text);
        expect(shown(ds, LooseFilesCodes.range)).toEqual([`${lineOf(text, 'range 40')}:33 40" is out of range: medium guns reach 36" (L4).`]);
        expect(shown(ds, Codes.diceCount)).toEqual([]);
    });

    it('a dice line with a label the action does not read is one error: its throw is not also short of dice', async () => {
        const text = `${FORCES}move M {\n  B.Foot: average 1\n  dice B.Foot d40 3\n}\n`;
        const ds = await diagnostics(text);
        expect(shown(ds, Codes.diceLabel)).toEqual([`${lineOf(text, 'd40')}:15 A move reads dice labelled average or d6, not 'd40'.`]);
        expect(shown(ds, Codes.diceCount)).toEqual([]);
        // With the label right and no die entered, the shortage is the one error.
        const short = `${FORCES}move M {\n  B.Foot: average 1\n  dice B.Foot d6 3\n}\n`;
        expect(shown(await diagnostics(short), Codes.diceCount)).toHaveLength(2);
    });

    it('a misspelt fact gets its did-you-mean, not the list of every fact', async () => {
        const text = `${FORCES}move M {\n  A.Line: average 1, uphil\n}\n`;
        expect(shown(await diagnostics(text), LooseFilesCodes.unknownFact)).toEqual([`${lineOf(text, 'uphil')}:22 'uphil' means nothing here: did you mean 'uphill'?`]);
    });

    it('a move that throws no dice says its seed is not used, and the seed-not-used fix removes it', async () => {
        const text = `${FORCES}move N {\n  A.Guns: formation-change, limbered\n  seed 5\n}\n`;
        expect(shown(await diagnostics(text), Codes.seedNotUsed)).toEqual([`${lineOf(text, 'seed 5')}:3 This move throws no dice: seed 5 is not used, and its outcome is the same with any seed.`]);
    });

    it('a die not known lists what is accepted; an option one letter off is named, a swap included', async () => {
        const text = `rules scrud\noption pooeld\nforce A { unit Line foot { die d101 } }\nforce B { unit Line foot }\n`;
        const ds = await diagnostics(text);
        expect(shown(ds, Codes.unknownDie)).toEqual([`3:28 'd101' is not a die: write d6, or dN for N from 2 to 100 (d4, d8, d10, d12, d20 …), or average.`]);
        expect(shown(ds, Codes.unknownOption)).toEqual([`2:8 The scrud rules have no option 'pooeld': did you mean 'pooled'?`]);
    });
});
