/**
 * The one builder of SCRUD engine inputs for the tests: a unit by force, name, arm, modifier and
 * die (d6 unless named), and an engagement of two sides.
 */
import { D6, type Die } from '../../src/core/dice.js';
import type { ScrudInput, ScrudUnit } from '../../src/rulesets/scrud/engine/scrud-engine.js';

export function scrudUnit(force: string, name: string, arm: string, modifier = 0, die: Die = D6): ScrudUnit {
    return { id: `${force}.${name}`, force, unit: name, arm, die, modifier };
}

export function scrudEngagement(attacker: ScrudUnit[], defender: ScrudUnit[], pooled = false): ScrudInput {
    return {
        attacker: { force: attacker[0].force, units: attacker },
        defender: { force: defender[0].force, units: defender },
        pooled
    };
}
