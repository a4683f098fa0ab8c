/**
 * Whether a side of an action can name one unit twice, read from its references alone: the one-fight check
 * (src/language/validation/one-fight.ts) asks it of every action at every build, and checks unit by unit only
 * the sides it cannot clear.
 */
import type { Sides, Target } from '../language/generated/ast.js';
import { coreKept } from './kept.js';

/**
 * Whether no two references of a side can name one unit, from the references alone: each names
 * another force, or another unit of the force (or another instance of it). Asked of every side on
 * every build, so it makes no list of units; a side it cannot clear is checked unit by unit.
 */
export function referencesApart(targets: readonly Target[]): boolean {
    for (let i = 1; i < targets.length; i++) {
        const a = targets[i];
        for (let j = 0; j < i; j++) {
            const b = targets[j];
            if (a.force?.$refText !== b.force?.$refText) continue;
            if (!a.unit || !b.unit) return false;
            if (a.unit.$refText !== b.unit.$refText) continue;
            if (a.index === undefined || b.index === undefined || a.index === b.index) return false;
        }
    }
    return true;
}

const apartSides = coreKept.table<Sides, { readonly apart: boolean }>({
    name: 'sides apart', keeps: 'whether no two references of either side of an action can name one unit, read from the references alone (`referencesApart`)',
    keyedBy: 'a `Sides` node (the parse in pieces keeps an unchanged element, its sides included, as the same nodes)',
    againWhen: 'the node is new'
});

/** Whether each of the two sides has its references apart (`referencesApart`), kept by the node: asked of every action at every build. */
export function sidesApart(sides: Sides): boolean {
    let kept = apartSides.get(sides);
    if (!kept) apartSides.set(sides, kept = { apart: referencesApart(sides.attackers) && referencesApart(sides.defenders) });
    return kept.apart;
}
