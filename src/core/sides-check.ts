/**
 * The check every rule set makes of an engagement's sides, written once.
 */
import type { ValidationAcceptor } from 'langium';
import type { Action, Sides } from '../language/generated/ast.js';
import { Codes } from './codes.js';

/** An engagement's one pair of sides: missing or repeated sides are reported, whatever the rule set. */
export function onePairOfSides(action: Action, accept: ValidationAcceptor): Sides | undefined {
    // By `$type` (Sides has no subtypes), no array made: asked of every engagement on every build.
    let first: Sides | undefined;
    for (const st of action.statements) {
        if (st.$type !== 'Sides') continue;
        if (!first) first = st as Sides;
        else accept('error', 'An engagement has one pair of sides; this is a second one.', { node: st, code: Codes.missingSides });
    }
    if (!first) {
        accept('error', `Engagement '${action.name}' needs its sides: write 'Attacker attacks Defender'.`, { node: action, property: 'name', code: Codes.missingSides });
    }
    return first;
}
