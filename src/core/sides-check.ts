/**
 * The check every rule set makes of an engagement's sides, written once.
 */
import type { ValidationAcceptor } from 'langium';
import { isSides, type Action, type Sides } from '../language/generated/ast.js';
import { Codes } from './codes.js';

/** An engagement's one pair of sides: missing or repeated sides are reported, whatever the rule set. */
export function onePairOfSides(action: Action, accept: ValidationAcceptor): Sides | undefined {
    const sides = action.statements.filter(isSides);
    if (sides.length === 0) {
        accept('error', `Engagement '${action.name}' needs its sides: write 'Attacker attacks Defender'.`, { node: action, property: 'name', code: Codes.missingSides });
        return undefined;
    }
    for (const extra of sides.slice(1)) {
        accept('error', 'An engagement has one pair of sides; this is a second one.', { node: extra, code: Codes.missingSides });
    }
    return sides[0];
}
