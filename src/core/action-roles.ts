/**
 * Who takes part in an action, read from its references (`Force`, `Force.Unit`, `Force.Unit#2`): each
 * with the role it gives its units. The campaign timeline, its checks and an action's keys
 * (model-cache.ts) read an action's units from here, kept once per action node.
 */
import type { Action, Dice, Factor, Facts, Relation, Sides, Split, Target } from '../language/generated/ast.js';
import { coreKept } from './kept.js';

/**
 * How a unit takes part in an action: `fights` (a side, a melee pairing, a unit firing or an officer
 * acting), `target` (shot at), or `present` (named by facts, dice, factors, seen or rallied).
 * A routed unit may be shot at, seen and rallied, but not fight; a destroyed or fled one is gone.
 */
export type Role = 'fights' | 'target' | 'present';

const rolesOfAction = coreKept.table<Action, ReadonlyArray<{ target: Target, role: Role }>>({
    name: 'action roles', keeps: 'the units an action names, each with its role',
    keyedBy: 'an action node',
    againWhen: 'the node is new'
});

/**
 * The references of an action with the role each gives its units, without expanding whole forces.
 * Kept by the action's node: its statements never change (the parse in pieces makes a new node).
 */
export function roles(action: Action): ReadonlyArray<{ target: Target, role: Role }> {
    let found = rolesOfAction.get(action);
    if (!found) rolesOfAction.set(action, found = rolesOf(action));
    return found;
}

function rolesOf(action: Action): Array<{ target: Target, role: Role }> {
    const out: Array<{ target: Target, role: Role }> = [];
    eachRole(action, (target, role) => out.push({ target, role }));
    return out;
}

/**
 * Each reference of an action with its role, in `roles`' order, without making the list: the campaign
 * checks of a file where no unit is ever out of the fight read only the references (a list and a
 * WeakMap entry for each of 5,000 actions of a cold check, read once).
 */
export function eachRole(action: Action, each: (target: Target, role: Role) => void): void {
    for (const st of action.statements) eachRoleOf(st, each);
}

/**
 * Whether a reference is a `factor` or `dice` line's: it adds to a unit's numbers, and no outcome line of the
 * action is written for a unit named only there (a factor on a whole force names every unit of it, most of
 * which fight elsewhere).
 */
export function countsOnly(target: Target): boolean {
    const line = target.$container.$type;
    return line === 'Factor' || line === 'Dice';
}

/** The references of one statement of an action, with their roles. */
function eachRoleOf(st: Action['statements'][number], each: (target: Target, role: Role) => void): void {
    // By `$type` (none of these has subtypes): the reflection's `isX` was most of a cold check's campaign pass.
    // Plain loops: made for every action of a cold check.
    switch (st.$type) {
        case 'Sides': {
            const s = st as Sides;
            for (const t of s.attackers) each(t, 'fights');
            for (const t of s.defenders) each(t, 'fights');
            break;
        }
        case 'Relation': {
            const r = st as Relation;
            if (r.subject) each(r.subject, r.verb === 'sees' ? 'present' : 'fights');
            if (r.object) each(r.object, r.verb === 'vs' ? 'fights' : r.verb === 'fires' ? 'target' : 'present');
            break;
        }
        case 'Split': {
            const s = st as Split;
            if (s.unit) each(s.unit, 'fights');
            for (const p of s.parts) if (p.target) each(p.target, 'fights');
            break;
        }
        case 'Facts': if ((st as Facts).target) each((st as Facts).target, 'present'); break;
        case 'Dice': if ((st as Dice).target) each((st as Dice).target, 'present'); break;
        case 'Factor': for (const t of (st as Factor).targets) each(t, 'present'); break;
    }
}
