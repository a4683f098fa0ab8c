/**
 * The Loose Files dice plan (docs/rules/loose-files.md#dice-plan) against resolving: on random small turns
 * (fire at random ranges by line infantry and skirmishers, moves with their dice, a commander's move,
 * and two engagements in a row under Corlears Hook or not) and seeds, walking the plan takes exactly the
 * dice resolving takes: who, throw, die, count and values, in order. Its fixed dice are all but the
 * skirmishers' re-rolls (L5) and the Corlears Hook retreat dice (L9).
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { parse } from '../../support/services.js';
import { modelOf } from '../../../src/core/model-cache.js';
import { isUnresolvable } from '../../../src/core/resolve.js';
import { looseFilesRuleset } from '../../../src/rulesets/loose-files/loose-files-ruleset.js';
import { resolveLooseFilesWith } from '../../../src/rulesets/loose-files/loose-files-resolve.js';
import { seededDiceSource, type DiceSource } from '../../../src/core/dice-source.js';
import { fixedDiceCount, mostDiceCount, walkDicePlan } from '../../../src/core/dice-plan.js';

const scenarioArb = fc.record({
    corlears: fc.boolean(), brigade: fc.boolean(), skirmishA: fc.boolean(), skirmishB: fc.boolean(),
    standsA: fc.integer({ min: 1, max: 12 }), standsB: fc.integer({ min: 1, max: 12 }),
    range1: fc.integer({ min: 1, max: 30 }), range2: fc.integer({ min: 1, max: 30 }),
    move: fc.array(fc.integer({ min: 0, max: 3 }), { minLength: 4, maxLength: 4 }), officerDie: fc.constantFrom('', 'd6'),
    // House rows that change how many dice are asked for: an officer's move (L8.1), a Corlears Hook retreat (L9).
    officerDice: fc.integer({ min: 1, max: 3 }), corlearsDice: fc.integer({ min: 1, max: 3 }),
    firstSeed: fc.integer({ min: 0, max: 0xffffffff }), seed: fc.integer({ min: 0, max: 0xffffffff })
});
type Scenario = typeof scenarioArb extends fc.Arbitrary<infer T> ? T : never;

function text(s: Scenario): string {
    const form = (on: boolean) => (on ? ', formation skirmish' : '');
    return [
        'rules loose-files', ...(s.corlears ? ['option corlears-hook'] : []), ...(s.brigade ? ['option brigade-move'] : []),
        ...(s.officerDice !== 1 || s.corlearsDice !== 1 ? [`house {\n  move-dice officer-dice ${s.officerDice}, corlears-dice ${s.corlearsDice}\n}`] : []),
        'force British {', '  unit Tarleton commander { cp 6 }', `  unit Guards infantry { class 2, stands ${s.standsA}${form(s.skirmishA)} }`,
        '  unit Guns artillery { class 2, stands 2, guns medium }', '}',
        'force American {', `  unit Line infantry { class 3, stands ${s.standsB}${form(s.skirmishB)} }`, '  unit Battery artillery { class 3, stands 2, guns light }', '}',
        'turn 1 {',
        `  engagement First {\n    American.Line attacks British.Guards\n    seed ${s.firstSeed}\n  }`,
        '  engagement Second {\n    American.Line attacks British.Guards\n  }',
        `  fire Volley {\n    American.Line fires at British.Guards: range ${s.range1}\n    British.Guards fires at American.Line: range ${s.range2}\n    American.Battery fires at British.Guns: range ${s.range1 + s.range2}\n  }`,
        `  move Advance {\n    British.Guards: average ${s.move[0]}, d6 ${s.move[1]}\n    British.Guns: average ${s.move[2]}, d6 ${s.move[3]}\n    American.Line: average ${s.move[0]}, d6 ${s.move[1]}\n  }`,
        `  command Orders {\n    British.Tarleton: move${s.officerDie ? `, ${s.officerDie}` : ''}\n  }`,
        '}', ''
    ].join('\n');
}

const requests = (source: DiceSource | ReturnType<typeof walkDicePlan>) =>
    ('taken' in source ? source.taken : source).map(t => [t.request.who.join(','), t.request.label, t.request.die.name, t.request.count, [...t.values]]);

describe('Loose Files dice plan', () => {
    it('takes exactly the dice resolving takes, in order, for every kind of action that throws, under house dice counts too', async () => {
        const seen = new Set<string>();
        await fc.assert(fc.asyncProperty(scenarioArb, async s => {
            const doc = await parse(text(s));
            expect(doc.parseResult.parserErrors).toEqual([]);
            const model = modelOf(doc.parseResult.value);
            expect(model.actions.map(a => a.node.name)).toEqual(['First', 'Second', 'Volley', 'Advance', 'Orders']);
            for (const action of model.actions) {
                const plan = looseFilesRuleset.dicePlan!(model, action)!;
                expect(plan).toBeDefined();
                const resolving = seededDiceSource(s.seed);
                const resolved = resolveLooseFilesWith(model, action, { kind: 'seed', seed: s.seed }, resolving);
                if (isUnresolvable(resolved)) throw new Error(`${action.node.name}: ${resolved.problem}`);
                const walked = walkDicePlan(plan, seededDiceSource(s.seed));
                expect(requests(walked)).toEqual(requests(resolving));
                const taken = resolving.taken.reduce((n, t) => n + t.values.length, 0);
                const conditional = resolving.taken.filter(t => t.request.label === 'reroll' || t.request.label === 'retreat').reduce((n, t) => n + t.values.length, 0);
                expect(fixedDiceCount(plan)).toBe(taken - conditional);
                expect(taken).toBeLessThanOrEqual(mostDiceCount(plan));
                for (const t of resolving.taken) if (t.values.length > 0) seen.add(t.request.label);
            }
        }), { numRuns: 40 });
        // The random turns reach the conditional dice as well as the fixed ones.
        expect([...seen].sort()).toEqual(expect.arrayContaining(['average', 'd6', 'reroll']));
    });
});
