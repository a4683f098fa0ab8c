/**
 * `option clamp-six` (docs/rules/scrud.md#s2.2): "6 is the MAX score and 1 the lowest" for every die,
 * so an average die's 2 −1 scores 1 and a d4's 4 +1 scores 5; by default each die's own faces bound it.
 * Its exact odds equal every throw through the resolver.
 */
import { describe, expect, it } from 'vitest';
import { D6, dieNamed, faceDistribution } from '../../../src/core/dice.js';
import { adjust, resolveScrud, SCRUD_RESULTS, type ScrudInput } from '../../../src/rulesets/scrud/engine/scrud-engine.js';
import { scrudOdds } from '../../../src/rulesets/scrud/engine/scrud-odds.js';
import { SCRUD_SEED_TABLES, type ScrudTables } from '../../../src/rulesets/scrud/engine/scrud-tables.js';
import { loadText } from '../../../src/cli/load.js';
import { modelOf } from '../../../src/core/model-cache.js';
import { isUnresolvable, resolveAction } from '../../../src/core/resolve.js';
import { scrudUnit } from '../../support/scrud-input.js';

const AVERAGE = dieNamed('average')!, D4 = dieNamed('d4')!;
const SIX: ScrudTables = { ...SCRUD_SEED_TABLES, clampSix: true };

describe('option clamp-six (S2.7)', () => {
    it('clamps to 1–6 whatever the die; by default to the die\'s own faces', () => {
        expect([adjust(2, -1, AVERAGE), adjust(2, -1, AVERAGE, SIX)]).toEqual([2, 1]);
        expect([adjust(4, 1, D4), adjust(4, 1, D4, SIX)]).toEqual([4, 5]);
        expect([adjust(6, 2, D6), adjust(6, 2, D6, SIX)]).toEqual([6, 6]);
    });

    it('exact odds equal every throw through the resolver', () => {
        const input: ScrudInput = {
            attacker: { force: 'A', units: [scrudUnit('A', 'a0', 'foot', -1, AVERAGE), scrudUnit('A', 'a1', 'foot', 2, D4)] },
            defender: { force: 'D', units: [scrudUnit('D', 'd0', 'foot', 1, D4), scrudUnit('D', 'd1', 'foot', -2, AVERAGE)] },
            pooled: false
        };
        const all = [...input.attacker.units, ...input.defender.units];
        const exact = new Map(all.map(u => [u.id, Object.fromEntries(SCRUD_RESULTS.map(r => [r, 0])) as Record<string, number>]));
        const walk = (i: number, thrown: number[], p: number) => {
            if (i === all.length) {
                for (const u of resolveScrud(input, { attacker: thrown.slice(0, 2), defender: thrown.slice(2) }, SIX).units) exact.get(u.id)![u.result] += p;
                return;
            }
            for (const { face, p: q } of faceDistribution(all[i].die)) walk(i + 1, [...thrown, face], p * q);
        };
        walk(0, [], 1);
        for (const u of scrudOdds(input, SIX).units) {
            for (const r of SCRUD_RESULTS) expect(Math.abs(u.probabilities[r] - exact.get(u.id)![r]), `${u.id} ${r}`).toBeLessThanOrEqual(1e-12);
        }
        // And the option changes them: with the dice's own faces the d4's +2 never beats a 4.
        expect(scrudOdds(input, SIX).units[1].probabilities.won).not.toBeCloseTo(scrudOdds(input, SCRUD_SEED_TABLES).units[1].probabilities.won, 6);
    });

    it('resolves from a file with the option', async () => {
        const text = `rules scrud\noption clamp-six\nforce A { unit Line foot { die average } }\nforce B { unit Line foot }\nmodifier Tired -1\nengagement E {\n  A attacks B\n  factor Tired on A\n  dice A foot 2\n  dice B foot 1\n}\n`;
        const loaded = await loadText('clamp.battle', text);
        expect(loaded.diagnostics.filter(d => d.severity === 1)).toEqual([]);
        const model = modelOf(loaded.document.parseResult.value);
        const r = resolveAction(model, model.actions[0], { newSeed: () => 1 });
        if (isUnresolvable(r)) throw new Error(r.problem);
        expect(r.resolution.json.units.map(u => [u.unit, u.adjusted, u.result])).toEqual([['Line', 1, 'stand-off'], ['Line', 1, 'stand-off']]);
    });
});
