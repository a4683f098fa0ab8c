/**
 * A split that does not add up to the unit's pool is one mistake: the hit dice entered are counted
 * against the pool (A1), so "this split gives 9" never stands beside "throws 9 hit dice, but 10 are
 * entered" — the two messages an umpire could not both obey. The saves missing beside a wrong split are
 * asked for in the same check: counted where the split does not decide them, else without a count.
 */
import { describe, expect, it } from 'vitest';
import type { Diagnostic } from 'vscode-languageserver';
import { Codes } from '../../../src/core/codes.js';
import { AncientsCodes } from '../../../src/rulesets/ancients/ancients-codes.js';
import { parse } from '../../support/services.js';

const FILE = `rules ancients
force Greeks {
  unit Hoplites infantry { size large, weight heavy, formation formed, skill 2, leadership 7 }
}
force Persians {
  unit Immortals infantry { size large, weight medium, formation formed, skill 2, leadership 7 }
  unit Cavalry cavalry { size medium, weight medium, formation formed, skill 1, leadership 7 }
}
engagement Ford {
  Greeks.Hoplites attacks Persians.Immortals, Persians.Cavalry
  Greeks.Hoplites vs Persians.Immortals
  Greeks.Hoplites vs Persians.Cavalry
  split Greeks.Hoplites 6 on Persians.Immortals, 3 on Persians.Cavalry
  dice Greeks.Hoplites hit 6 6 5 5 4 4 3 3 2 1
  dice Persians.Immortals hit 6 5 4 3 2 1 1 1 1 1
  dice Persians.Cavalry hit 6 5 4 3 2 1 1 1
}
`;

async function problems(text: string): Promise<Diagnostic[]> {
    const doc = await parse(text, { validation: true });
    expect(doc.parseResult.parserErrors.map(e => e.message)).toEqual([]);
    return (doc.diagnostics ?? []).filter(d => (d.severity ?? 1) === 1);
}

const SAVES_IN_DOUBT = [
    "No save dice entered for Greeks.Hoplites: add 'dice Greeks.Hoplites save' with 6 dice.",
    "No save dice entered for Persians.Immortals: add 'dice Persians.Immortals save' with one die for each hit it received (A5), counted once the dice of Greeks.Hoplites are right.",
    "No save dice entered for Persians.Cavalry: add 'dice Persians.Cavalry save' with one die for each hit it received (A5), counted once the dice of Greeks.Hoplites are right."
];

describe('a split that does not add up (A1, A2)', () => {
    it('is reported on the split, and the saves missing beside it in the same check', async () => {
        const ds = await problems(FILE);
        expect(ds.map(d => [d.code, d.range.start.line + 1, d.message])).toEqual([
            [AncientsCodes.splitTotal, 13, 'Greeks.Hoplites throws 10 dice (A1), but this split gives 9: make the parts add up to 10.'],
            ...SAVES_IN_DOUBT.map(m => [Codes.diceCount, 9, m])
        ]);
    });

    it('a hit line that is short of the pool is still counted against it', async () => {
        const ds = await problems(FILE.replace('hit 6 6 5 5 4 4 3 3 2 1', 'hit 6 6 5 5 4 4 3 3 2'));
        expect(ds.map(d => d.code)).toEqual([AncientsCodes.splitTotal, Codes.diceCount, Codes.diceCount, Codes.diceCount, Codes.diceCount]);
        expect(ds[1].message).toBe('Greeks.Hoplites throws 10 hit dice (its pool), but 9 are entered.');
    });

    it('the saves of the units the wrong split throws at are not counted: the split decides them', async () => {
        const saves = '  dice Greeks.Hoplites save 6 6 6 6 6 6\n  dice Persians.Immortals save 1\n  dice Persians.Cavalry save 1 1 1 1 1 1 1 1\n}\n';
        const ds = await problems(FILE.replace(/\}\n$/, saves));
        expect(ds.map(d => d.code)).toEqual([AncientsCodes.splitTotal]);
    });

    it('a unit no die of the wrong split can hit is asked for no saves', async () => {
        const ds = await problems(FILE.replace('hit 6 6 5 5 4 4 3 3 2 1', 'hit 1 1 1 1 1 1 1 1 1 1'));
        expect(ds.map(d => d.message)).toEqual([
            'Greeks.Hoplites throws 10 dice (A1), but this split gives 9: make the parts add up to 10.',
            SAVES_IN_DOUBT[0]
        ]);
    });

    it('with the split made to add up, the saves it leads to are counted', async () => {
        const ds = await problems(FILE.replace('3 on Persians.Cavalry', '4 on Persians.Cavalry'));
        expect(ds.map(d => d.message)).toEqual([
            "No save dice entered for Greeks.Hoplites: add 'dice Greeks.Hoplites save' with 6 dice.",
            "No save dice entered for Persians.Immortals: add 'dice Persians.Immortals save' with 6 dice.",
            "No save dice entered for Persians.Cavalry: add 'dice Persians.Cavalry save' with 2 dice."
        ]);
    });
});
