/**
 * `option defensive-countercharge` (docs/rules/ancients.md#defensive-countercharge): the seed's "a Defensive Unit generates
 * extra dice … if it has not Charged" read as written, a counter-charge not being a charge. By default
 * a defensive unit that counter-charged loses its extra dice; with the option it keeps them. The odds
 * under the option equal every sequence of dice through the engine, on small house pools.
 */
import { describe, expect, it } from 'vitest';
import { everyThrow } from '../../support/ancients-every-throw.js';
import { modelOf } from '../../../src/core/model-cache.js';
import { oddsForAction } from '../../../src/core/odds.js';
import { isUnresolvable, resolveAction } from '../../../src/core/resolve.js';
import { tablesFor } from '../../../src/core/house-rules.js';
import { ancientsTables, buildAncientsInput } from '../../../src/rulesets/ancients/ancients-reader.js';
import { diceFor, type AncientsInput } from '../../../src/rulesets/ancients/engine/ancients-engine.js';
import type { AncientsTables } from '../../../src/rulesets/ancients/engine/ancients-tables.js';
import { parse } from '../../support/services.js';

const file = (option: string, facts: string, house = '') => `rules ancients
${option}
${house}
force Greeks { unit Hoplites infantry { size small, weight heavy, formation formed, skill 2, leadership 7, defensive } }
force Persians { unit Immortals infantry { size small, weight medium, formation formed, skill 2, leadership 7, shock } }
engagement Clash {
  Persians attacks Greeks
  first turn
  ${facts}
}
`;

async function reading(text: string) {
    const doc = await parse(text, { validation: true });
    expect((doc.diagnostics ?? []).filter(d => d.severity === 1).map(d => d.message)).toEqual([]);
    const model = modelOf(doc.parseResult.value);
    const action = model.actions[0];
    const read = buildAncientsInput(model, action.node);
    if ('problem' in read) throw new Error(read.problem);
    return { model, action, input: read.input, tables: ancientsTables(tablesFor(model, action.node)) };
}

const poolOf = (input: AncientsInput, id: string, tables: AncientsTables) => diceFor(input.units.find(u => u.id === id)!, input.firstTurn, tables);

/** P(result) of each unit over every complete sequence of dice the engine asks for. */
function enumerate(input: AncientsInput, tables: AncientsTables): Map<string, Record<string, number>> {
    const out = new Map<string, Record<string, number>>(input.units.map(u => [u.id, {}]));
    everyThrow(input, (outcome, p) => {
        for (const u of outcome.units) {
            const r = out.get(u.id)!;
            r[u.result] = (r[u.result] ?? 0) + p;
        }
    }, tables);
    return out;
}

describe('option defensive-countercharge (the letter of A1.6)', () => {
    it('without it a defensive unit that counter-charged throws its pool only; with it, 2 more (the seed\'s 6 + 2 = 8)', async () => {
        const plain = await reading(file('', 'Greeks.Hoplites: countercharged'));
        expect(poolOf(plain.input, 'Greeks.Hoplites', plain.tables)).toBe(6);
        const literal = await reading(file('option defensive-countercharge', 'Greeks.Hoplites: countercharged'));
        expect(poolOf(literal.input, 'Greeks.Hoplites', literal.tables)).toBe(8);
        // A charge is still a charge: the defensive unit that charged loses them either way.
        const charged = await reading(file('option defensive-countercharge', 'Greeks.Hoplites: charged'));
        expect(poolOf(charged.input, 'Greeks.Hoplites', charged.tables)).toBe(6);
        // A shock unit's counter-charge gives its 2 as before.
        const shock = await reading(file('option defensive-countercharge', 'Persians.Immortals: countercharged'));
        expect(poolOf(shock.input, 'Persians.Immortals', shock.tables)).toBe(8);
    });

    it('resolves with the extra dice: the breakdown shows 8 dice thrown at the Immortals', async () => {
        const { model, action } = await reading(file('option defensive-countercharge', 'Greeks.Hoplites: countercharged'));
        const r = resolveAction(model, action, { seed: 5, newSeed: () => 5 });
        if (isUnresolvable(r)) throw new Error(r.problem);
        expect(r.resolution.text.join('\n')).toMatch(/Greeks\.Hoplites.*\n.*→ Persians\.Immortals: 8 at/);
    });

    it('its exact odds equal every throw through the engine (house pools of 1, 1 extra die, 1d6 break tests)', async () => {
        const house = 'house {\n  pool small 1\n  first-turn shock 1, defensive 1\n  threshold small 1\n  break d6 1\n}';
        const { model, action, input, tables } = await reading(file('option defensive-countercharge', 'Greeks.Hoplites: countercharged', house));
        expect(poolOf(input, 'Greeks.Hoplites', tables)).toBe(2);
        const exact = enumerate(input, tables);
        const odds = oddsForAction(model, action);
        if (isUnresolvable(odds)) throw new Error(odds.problem);
        for (const u of odds.units) {
            const e = exact.get(`${u.force}.${u.unit}`)!;
            for (const [label, p] of Object.entries(u.probabilities)) expect(Math.abs(p - (e[label] ?? 0)), `${u.unit} ${label}`).toBeLessThan(1e-9);
        }
    });
});
