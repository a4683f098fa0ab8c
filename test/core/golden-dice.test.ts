/**
 * Golden dice: the exact faces SeededDice gives for a few seeds, and the full JSON of a seeded
 * engagement. Replays must never change (docs/rules/scrud.md#dice: same seed, same file → same dice, on every
 * OS and Node version), so a library upgrade that alters the sequence fails here first.
 */
import * as fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { modelOf } from '../../src/core/model-cache.js';
import { isUnresolvable, resolveAction } from '../../src/core/resolve.js';
import { AVERAGE, D6, dieNamed, MAX_SEED, SeededDice } from '../../src/core/dice.js';
import { parse as supportParse } from '../support/services.js';

const GOLDEN: Record<number, { d6: number[], average: number[], d4: number[] }> = {
    0: {
        d6: [2, 4, 5, 3, 6, 5, 1, 3, 3, 4, 3, 2, 6, 4, 6, 3, 2, 3, 5, 5],
        average: [3, 4, 4, 3, 5, 4, 2, 3, 3, 4, 3, 3, 5, 4, 5, 3, 3, 3, 4, 4],
        d4: [4, 4, 1, 3, 4, 1, 3, 1, 1, 2, 1, 2, 2, 2, 2, 3, 4, 3, 1, 1]
    },
    1: {
        d6: [1, 1, 4, 4, 1, 6, 5, 6, 5, 5, 1, 6, 4, 6, 2, 1, 5, 4, 6, 5],
        average: [2, 2, 4, 4, 2, 5, 4, 5, 4, 4, 2, 5, 4, 5, 3, 2, 4, 4, 5, 4],
        d4: [3, 1, 2, 2, 3, 2, 3, 4, 3, 1, 1, 2, 4, 2, 4, 3, 1, 2, 2, 3]
    },
    42: {
        d6: [2, 4, 6, 5, 3, 1, 5, 4, 4, 6, 6, 4, 6, 2, 5, 5, 1, 3, 3, 5],
        average: [3, 4, 5, 4, 3, 2, 4, 4, 4, 5, 5, 4, 5, 3, 4, 4, 2, 3, 3, 4],
        d4: [2, 2, 4, 1, 3, 1, 1, 4, 4, 2, 4, 2, 2, 2, 3, 1, 3, 1, 1, 1]
    },
    [MAX_SEED]: {
        d6: [3, 6, 4, 5, 5, 5, 6, 4, 1, 4, 1, 1, 5, 3, 2, 5, 2, 1, 6, 4],
        average: [3, 5, 4, 4, 4, 4, 5, 4, 2, 4, 2, 2, 4, 3, 3, 4, 3, 2, 5, 4],
        d4: [1, 4, 4, 1, 3, 1, 4, 4, 3, 4, 1, 1, 1, 3, 4, 1, 4, 3, 4, 2]
    }
};

describe('SeededDice gives the same faces forever', () => {
    for (const [seed, golden] of Object.entries(GOLDEN)) {
        it(`seed ${seed}: d6, average die and d4`, () => {
            expect(new SeededDice(Number(seed)).rollMany(D6, 20)).toEqual(golden.d6);
            expect(new SeededDice(Number(seed)).rollMany(AVERAGE, 20)).toEqual(golden.average);
            expect(new SeededDice(Number(seed)).rollMany(dieNamed('d4')!, 20)).toEqual(golden.d4);
        });
    }

    it('one die at a time or many at once is the same stream', () => {
        const one = new SeededDice(42);
        expect(Array.from({ length: 20 }, () => one.roll(D6))).toEqual(GOLDEN[42].d6);
    });
});

describe('a seeded engagement resolves to the same JSON forever', () => {
    it('examples/scrud-ridge.battle, engagement Ridge (seed 1806)', async () => {
        const parse = supportParse;
        const doc = await parse(fs.readFileSync('examples/scrud-ridge.battle', 'utf8'));
        const model = modelOf(doc.parseResult.value);
        const ridge = model.actions.find(a => a.node.name === 'Ridge')!;
        const r = resolveAction(model, ridge, { newSeed: () => { throw new Error('the engagement has its own seed'); } });
        if (isUnresolvable(r)) throw new Error(r.problem);
        // Attacker's units then the defender's, each in declaration order, take the stream in turn.
        expect(r.resolution.json.units.map(u => u.die)).toEqual(new SeededDice(1806).rollMany(D6, 11));
        const unit = (force: string, name: string, side: string, arm: string, die: number, modifier: number, adjusted: number, rank: number, result: string, opponent: string | null) =>
            ({ force, unit: name, side, arm, dieType: 'd6', die, modifier, adjusted, rank, result, opponent });
        expect(r.resolution.json).toEqual({
            name: 'Ridge', kind: 'engagement', rules: 'scrud', turn: null, seed: 1806,
            summary: 'French foot: 2 recoil, 2 retreat · Prussian horse: 1 rout',
            check: '9fc9e4c4', pooled: false,
            units: [
                unit('French', 'Grenadiers', 'attacker', 'foot', 2, 1, 3, 1, 'retreat', 'Prussian.Fusiliers#1'),
                unit('French', 'Ligne#1', 'attacker', 'foot', 2, 0, 2, 3, 'recoil', 'Prussian.Musketeers#1'),
                unit('French', 'Ligne#2', 'attacker', 'foot', 3, 0, 3, 2, 'retreat', 'Prussian.Fusiliers#2'),
                unit('French', 'Conscripts#1', 'attacker', 'foot', 4, -3, 1, 4, 'recoil', 'Prussian.Musketeers#2'),
                unit('French', 'Conscripts#2', 'attacker', 'foot', 1, -3, 1, 5, 'unpaired', null),
                unit('French', 'Chasseurs', 'attacker', 'horse', 6, 0, 6, 1, 'won', 'Prussian.Hussars'),
                unit('Prussian', 'Fusiliers#1', 'defender', 'foot', 5, 2, 6, 1, 'won', 'French.Grenadiers'),
                unit('Prussian', 'Fusiliers#2', 'defender', 'foot', 4, 2, 6, 2, 'won', 'French.Ligne#2'),
                unit('Prussian', 'Musketeers#1', 'defender', 'foot', 2, 1, 3, 3, 'won', 'French.Ligne#1'),
                unit('Prussian', 'Musketeers#2', 'defender', 'foot', 2, 0, 2, 4, 'won', 'French.Conscripts#1'),
                unit('Prussian', 'Hussars', 'defender', 'horse', 2, 0, 2, 1, 'rout', 'French.Chasseurs')
            ]
        });
    });
});
