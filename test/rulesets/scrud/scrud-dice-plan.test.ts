/**
 * The SCRUD dice plan (docs/rules/scrud.md#dice-plan) against resolving: on random small engagements
 * (units, arms, dice, pursuit marks and options) and seeds, the plan's fixed dice are one per unit,
 * and walking it from the seed gives each unit the die resolving gave it and a pursuit throw to exactly
 * the units resolving gave one, with the same value.
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { parse } from '../../support/services.js';
import { modelOf } from '../../../src/core/model-cache.js';
import { isUnresolvable } from '../../../src/core/resolve.js';
import { scrudRuleset } from '../../../src/rulesets/scrud/scrud-ruleset.js';
import { seededDiceSource } from '../../../src/core/dice-source.js';
import { fixedDiceCount, mostDiceCount, walkDicePlan } from '../../../src/core/dice-plan.js';

const unitLine = fc.record({ arm: fc.constantFrom('foot', 'horse'), count: fc.integer({ min: 1, max: 2 }), die: fc.constantFrom('', 'd4', 'd6', 'average'), pursuit: fc.boolean() });
const scenarioArb = fc.record({
    a: fc.array(unitLine, { minLength: 1, maxLength: 2 }), b: fc.array(unitLine, { minLength: 1, maxLength: 2 }),
    runs: fc.boolean(), from: fc.option(fc.integer({ min: 1, max: 6 }), { nil: undefined }), pooled: fc.boolean(), seed: fc.integer({ min: 0, max: 0xffffffff })
});

type Scenario = typeof scenarioArb extends fc.Arbitrary<infer T> ? T : never;

function text(s: Scenario): string {
    const force = (name: string, units: typeof s.a) =>
        `force ${name} {\n${units.map((u, i) => `  unit U${i} ${u.arm}${u.count > 1 ? ` x${u.count}` : ''}${u.die ? ` { die ${u.die} }` : ''}`).join('\n')}\n}`;
    const marks = (name: string, units: typeof s.a) => units.flatMap((u, i) => (u.pursuit ? [`  ${name}.U${i}: pursuit`] : []));
    return [
        'rules scrud', ...(s.runs ? ['option runs-and-pursues'] : []), ...(s.from ? [`option pursuit ${s.from}`] : []), ...(s.pooled ? ['option pooled'] : []),
        force('A', s.a), force('B', s.b),
        'engagement E {', '  A attacks B', ...marks('A', s.a), ...marks('B', s.b), `  seed ${s.seed}`, '}', ''
    ].join('\n');
}

describe('SCRUD dice plan', () => {
    it('takes one die per unit, then a pursuit throw for exactly the winners resolving gives one', async () => {
        await fc.assert(fc.asyncProperty(scenarioArb, async s => {
            const doc = await parse(text(s));
            expect(doc.parseResult.parserErrors).toEqual([]);
            const model = modelOf(doc.parseResult.value);
            const action = model.actions[0];
            const plan = scrudRuleset.dicePlan!(model, action)!;
            const resolved = scrudRuleset.resolve(model, action, { kind: 'seed', seed: s.seed });
            if (isUnresolvable(resolved)) throw new Error(resolved.problem);
            const units = resolved.json.units;
            expect(fixedDiceCount(plan)).toBe(units.length);
            const walked = walkDicePlan(plan, seededDiceSource(s.seed));
            const combat = walked.filter(t => t.request.label !== 'pursuit');
            expect(combat.map(t => [t.request.who[0], t.values[0]])).toEqual(units.map(u => [`${u.force}.${u.unit}`, u.die]));
            const pursuit = walked.filter(t => t.request.label === 'pursuit');
            expect(pursuit.map(t => [t.request.who[0], t.values[0]])).toEqual(
                units.filter(u => typeof u.pursuitThrow === 'number').map(u => [`${u.force}.${u.unit}`, u.pursuitThrow]));
            expect(walked.length).toBeLessThanOrEqual(mostDiceCount(plan));
        }), { numRuns: 60 });
    });
});
