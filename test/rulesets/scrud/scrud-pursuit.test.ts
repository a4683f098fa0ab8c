/**
 * SCRUD pursuit (docs/rules/scrud.md S-ex.6, S1.3): the worked example's "further dice throw" for a
 * winning unit, its rule an option (`option pursuit N`, default 4+ on a d6), thrown from the seed after
 * the combat dice or entered (`dice X pursuit N`); and the comment's variant `option runs-and-pursues`.
 */
import * as fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { loadText } from '../../../src/cli/load.js';
import { modelOf } from '../../../src/core/model-cache.js';
import { resolveAction, isUnresolvable } from '../../../src/core/resolve.js';
import { oddsForAction } from '../../../src/core/odds.js';
import { resolveAll } from '../../../src/core/resolve-all.js';
import { D6, SeededDice } from '../../../src/core/dice.js';
import type { OddsReport } from '../../../src/protocol.js';

const EXAMPLE = fs.readFileSync('examples/scrud-seed.battle', 'utf8');

/** The worked example with the defender's horse given a pursuit throw, and these lines added. */
function example(extra: string, header = ''): string {
    return EXAMPLE.replace('rules scrud', `rules scrud${header}`).replace('  dice Defender horse 3 5', `  dice Defender horse 3 5\n  Defender.Dragoons: pursuit${extra}`);
}

async function load(text: string) {
    const loaded = await loadText('pursuit.battle', text);
    const model = modelOf(loaded.document.parseResult.value);
    return { model, diagnostics: loaded.diagnostics.map(d => `${d.code}: ${d.message}`) };
}

async function resolved(text: string, action = 'Example') {
    const { model, diagnostics } = await load(text);
    const result = resolveAction(model, model.actions.find(a => a.node.name === action)!, { newSeed: () => 1 });
    if (isUnresolvable(result)) throw new Error(result.problem);
    return { ...result.resolution, diagnostics };
}

const line = (lines: ReadonlyArray<{ unit: string, result: string, facts: unknown[] }>, unit: string) => lines.find(l => l.unit === unit)!;

describe('the pursuit throw (S-ex.6)', () => {
    it('the worked example: the defender horse won both pairs; a 2 stays, a 5 pursues (4+ by default)', async () => {
        const r = await resolved(example('\n  dice Defender pursuit 2 5'));
        expect(r.diagnostics).toEqual([]);
        // By hand: Dragoons#1 (3) beat Hussars#1 (1), Dragoons#2 (5) beat Hussars#2 (4): both won and throw, in declaration order.
        expect(line(r.lines, 'Defender.Dragoons#1').facts).toEqual([['die', 3], ['mod', 0], ['adjusted', 3], ['pursuit', 2], ['stays', true]]);
        expect(line(r.lines, 'Defender.Dragoons#2').facts).toEqual([['die', 5], ['mod', 0], ['adjusted', 5], ['pursuit', 5], ['pursues', true]]);
        expect(r.json.summary).toBe('Defender foot: 3 stand-off, 1 recoil, 2 retire · Attacker horse: 1 recoil, 1 retire · pursues: Defender.Dragoons#2 · stays: Defender.Dragoons#1');
        expect(r.json.units.find(u => u.unit === 'Dragoons#1')).toMatchObject({ pursuit: 'stays', pursuitThrow: 2 });
        // The losers and the foot throw nothing and carry no pursuit field.
        expect(line(r.lines, 'Attacker.Hussars#1').facts).toHaveLength(3);
        expect(r.json.units.find(u => u.unit === 'Hussars#1')).not.toHaveProperty('pursuit');
    });

    it('`option pursuit 6` makes a 5 stay', async () => {
        const r = await resolved(example('\n  dice Defender pursuit 2 5', '\noption pursuit 6'));
        expect(r.diagnostics).toEqual([]);
        expect(line(r.lines, 'Defender.Dragoons#2').facts.slice(3)).toEqual([['pursuit', 5], ['stays', true]]);
    });

    it('from a seed, the pursuit throws are the next d6 of the stream after the combat dice', async () => {
        const text = 'rules scrud\nforce A { unit H horse x2 }\nforce B { unit H horse x2 }\nengagement E {\n  A attacks B\n  A.H: pursuit\n  B.H: pursuit\n  seed 7\n}\n';
        const r = await resolved(text, 'E');
        // By hand from the stream: four combat dice (A.H#1, A.H#2, B.H#1, B.H#2), then one d6 per winner given a pursuit throw.
        const stream = new SeededDice(7);
        const combat = [0, 1, 2, 3].map(() => stream.roll(D6));
        const units = r.json.units as Array<{ unit: string, force: string, die: number, result: string, pursuitThrow?: number }>;
        expect(units.map(u => u.die)).toEqual(combat);
        const winners = units.filter(u => u.result === 'won');
        expect(winners.length).toBeGreaterThan(0);
        for (const w of winners) expect(w.pursuitThrow).toBe(stream.roll(D6));
        expect(units.filter(u => u.result !== 'won').every(u => !('pursuitThrow' in u))).toBe(true);
    });

    it('entered throws are checked: one per winner given a throw, each a d6 face; the option is 1 to 6', async () => {
        expect((await load(example('\n  dice Defender pursuit 2'))).diagnostics).toEqual([
            "dice-count: Defender.Dragoons#2 won and throws for pursuit (S-ex.6): add 'dice Defender.Dragoons#2 pursuit N'."
        ]);
        expect((await load(example('\n  dice Defender pursuit 2 5 7'))).diagnostics).toEqual([
            'die-face: A d6 cannot show 7: its faces are 1 to 6 (a pursuit throw is a d6).',
            'dice-count: More pursuit throws than units that won and throw for pursuit (Defender.Dragoons#1, Defender.Dragoons#2).'
        ]);
        expect((await load(example('\n  dice Defender pursuit 2 5', '\noption pursuit 9'))).diagnostics).toEqual([
            "scrud-pursuit-option: 'option pursuit' takes the least d6 throw that pursues, 1 to 6 (S-ex.6): e.g. 'option pursuit 4'."
        ]);
        const unmarked = EXAMPLE.replace('  dice Defender horse 3 5', '  dice Defender horse 3 5\n  dice Defender pursuit 2 5');
        expect((await load(unmarked)).diagnostics).toEqual([
            "dice-count: No unit here is given a pursuit throw: write 'X: pursuit' for the unit, or remove this line."
        ]);
    });

    it('a pursuit throw given after an outcome was written makes it stale; resolve --write records it', async () => {
        const check = async (t: string) => { const l = await loadText('pursuit.battle', t); return { root: l.document.parseResult.value, errors: l.diagnostics.filter(d => d.severity === 1).map(d => d.message as string) }; };
        const written = (await resolveAll(EXAMPLE, check, { newSeed: () => 1 })).text;
        const marked = written.replace('  dice Defender horse 3 5', '  dice Defender horse 3 5\n  Defender.Dragoons: pursuit\n  dice Defender pursuit 2 5');
        expect((await load(marked)).diagnostics.filter(d => d.startsWith('outcome-stale'))).toHaveLength(1);
        const again = (await resolveAll(marked, check, { newSeed: () => 1 })).text;
        expect(again).toContain('Defender.Dragoons#2: won, die 5, mod 0, adjusted 5, pursuit 5, pursues vs Attacker.Hussars#2');
        expect((await load(again)).diagnostics).toEqual([]);
    });

    it('odds: P(pursues) = P(won) × P(d6 ≥ N)', async () => {
        const { model } = await load('rules scrud\noption pursuit 5\nforce A { unit H horse }\nforce B { unit H horse }\nengagement E {\n  A attacks B\n  B.H: pursuit\n}\n');
        const odds = oddsForAction(model, model.actions[0]) as OddsReport;
        const b = odds.units.find(u => u.id === 'B.H')!;
        // By hand: d6 v d6, B wins when its die is higher: 15/36; then a 5 or 6: 2/6.
        expect(b.probabilities.won).toBeCloseTo(15 / 36, 12);
        expect(b.pursues).toBeCloseTo(15 / 36 * 2 / 6, 12);
        expect(odds.units.find(u => u.id === 'A.H')).not.toHaveProperty('pursues');
    });
});

describe("the comment's variant: a 1 runs away, a 6 pursues (S1.3)", () => {
    const duel = (a: number, b: number, extra = '') => `rules scrud\noption runs-and-pursues\nforce A { unit H horse }\nforce B { unit H horse }\nengagement E {\n  A attacks B${extra}\n  dice A ${a}\n  dice B ${b}\n}\n`;

    it('a 1 against a 6: the 1 routs anyway (difference 5) and runs away; the 6 pursues without a throw', async () => {
        const r = await resolved(duel(1, 6), 'E');
        expect(r.diagnostics).toEqual([]);
        expect(line(r.lines, 'A.H')).toMatchObject({ result: 'rout', facts: [['die', 1], ['mod', 0], ['adjusted', 1], ['runs-away', true]] });
        expect(line(r.lines, 'B.H')).toMatchObject({ result: 'won', facts: [['die', 6], ['mod', 0], ['adjusted', 6], ['pursues', true]] });
    });

    it('1 against 1 is a stand-off, but both run away: their result becomes retreat', async () => {
        const r = await resolved(duel(1, 1), 'E');
        expect(r.lines.map(l => [l.unit, l.result])).toEqual([['A.H', 'retreat'], ['B.H', 'retreat']]);
        expect(r.json.summary).toContain('runs away: A.H, B.H');
    });

    it('6 against 6 is a stand-off and both pursue; a winner that threw neither 1 nor 6 keeps its pursuit throw', async () => {
        const both = await resolved(duel(6, 6), 'E');
        expect(both.lines.map(l => [l.result, l.facts[3]])).toEqual([['stand-off', ['pursues', true]], ['stand-off', ['pursues', true]]]);
        const thrown = await resolved(duel(2, 4, '\n  B.H: pursuit\n  dice B pursuit 4'), 'E');
        expect(thrown.diagnostics).toEqual([]);
        expect(line(thrown.lines, 'B.H').facts.slice(3)).toEqual([['pursuit', 4], ['pursues', true]]);
        expect(line(thrown.lines, 'A.H').facts).toHaveLength(3);
    });

    it('a house runs-and-pursues table moves the faces: runs on 2, pursues on 5; a 1 and a 6 are plain dice then', async () => {
        const house = (a: number, b: number) => duel(a, b).replace('option runs-and-pursues\n', 'option runs-and-pursues\nhouse {\n  runs-and-pursues runs 2, pursues 5\n}\n');
        const r = await resolved(house(2, 5), 'E');
        expect(r.diagnostics).toEqual([]);
        // By hand: 2 v 5 differ by 3, a retreat for A; A threw the house's 2 and runs away, B its 5 and pursues.
        expect(line(r.lines, 'A.H')).toMatchObject({ result: 'retreat', facts: [['die', 2], ['mod', 0], ['adjusted', 2], ['runs-away', true]] });
        expect(line(r.lines, 'B.H')).toMatchObject({ result: 'won', facts: [['die', 5], ['mod', 0], ['adjusted', 5], ['pursues', true]] });
        expect(r.text).toContain('A.H threw a 2: runs away (retreats) whatever its pair gave  (house: runs-and-pursues runs 2)');
        expect(r.text).toContain('B.H threw a 5: pursues  (house: runs-and-pursues pursues 5)');
        const plain = await resolved(house(1, 6), 'E');
        expect(plain.lines.map(l => l.facts.length)).toEqual([3, 3]);
        const { model } = await load(house(3, 4));
        expect((oddsForAction(model, model.actions[0]) as OddsReport).notes.join(' ')).toContain('shows a 2 runs away, one whose die shows a 5 pursues');
    });

    it('odds say the variant is not part of them', async () => {
        const { model } = await load(duel(2, 4));
        const odds = oddsForAction(model, model.actions[0]) as OddsReport;
        expect(odds.notes.join(' ')).toMatch(/runs-and-pursues/);
    });
});
