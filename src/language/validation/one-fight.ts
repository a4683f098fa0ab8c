/**
 * Each unit in one place (docs/campaigns.md#one-fight-a-turn): a unit is named once in an
 * engagement's sides, and fights in one action a turn of the kinds its rule set says a unit fights
 * in once a turn (`Ruleset.campaign.fightsOnceATurn`: a SCRUD engagement, an Ancients melee, a Loose
 * Files combat). A unit on both sides is each rule set's own check (`unit-on-both-sides`,
 * `same-force-both-sides`).
 */
import type { ValidationAcceptor } from 'langium';
import type { Action, Sides, Target, Turn } from '../generated/ast.js';
import { targetText, turnLabel, unitsOf, type ScenarioModel } from '../../core/scenario.js';
import { Codes } from '../../core/codes.js';
import { referencesApart, sidesApart } from '../../core/sides-apart.js';

/** The first `Sides` of an action, without making a list (asked of every action on every build). */
function sidesOf(action: Action): Sides | undefined {
    for (const st of action.statements) if (st.$type === 'Sides') return st as Sides;
    return undefined;
}

/** Every reference on the two sides, with its side. */
function sideTargets(sides: Sides): Array<{ target: Target, property: 'attackers' | 'defenders', index: number }> {
    return [
        ...sides.attackers.map((target, index) => ({ target, property: 'attackers' as const, index })),
        ...sides.defenders.map((target, index) => ({ target, property: 'defenders' as const, index }))
    ];
}

/** A unit named twice on one side (`A, A.Foot attacks B`) is one unit, not two: an error at the second. */
function checkNamedOnce(model: ScenarioModel, sides: Sides, accept: ValidationAcceptor): void {
    // Asked of every action at every build: sides whose references are apart (most) are known so by their node.
    if (sidesApart(sides)) return;
    for (const property of ['attackers', 'defenders'] as const) {
        if (referencesApart(sides[property])) continue;
        const seen = new Map<string, Target>();
        sides[property].forEach((target, index) => {
            const again = unitsOf(model, target).find(u => seen.has(u.id));
            if (again) {
                const first = seen.get(again.id)!;
                accept('error', `${again.id} is already on this side (as '${targetText(first)}'): name each unit once.`,
                    { node: sides, property, index, code: Codes.unitNamedTwice, data: { unit: again.id } });
            }
            for (const u of unitsOf(model, target)) if (!seen.has(u.id)) seen.set(u.id, target);
        });
    }
}

/** An action's sides' problems of a unit named twice on one side, as `accept` would be given them (none for an action without sides). */
export function namedTwiceIn(model: ScenarioModel, action: Action): Array<Parameters<ValidationAcceptor>> {
    const problems: Array<Parameters<ValidationAcceptor>> = [];
    const sides = sidesOf(action);
    if (sides) checkNamedOnce(model, sides, (...problem) => problems.push(problem));
    return problems;
}

/**
 * Within each turn, each unit in one action of the kinds it fights in once a turn: a second one is an
 * error at its reference, naming the first. Given the actions of the file's turns in file order, one at a
 * time, with their turn (an action outside any turn is not counted: a file without turns is one fight after another).
 */
export function fightsOnceATurn(model: ScenarioModel, accept: ValidationAcceptor): (action: Action, turn: Turn) => void {
    const once = model.ruleset?.campaign.fightsOnceATurn ?? [];
    let current: Turn | undefined;
    let first = new Map<string, Action>();
    return (action, turn) => {
        if (!once.includes(action.kind)) return;
        const sides = sidesOf(action);
        if (!sides) return;
        if (turn !== current) { current = turn; first = new Map(); }
        for (const { target, property, index } of sideTargets(sides)) {
            const units = unitsOf(model, target);
            const earlier = units.find(u => first.has(u.id) && first.get(u.id) !== action);
            if (earlier) {
                const where = first.get(earlier.id)!;
                accept('error', `${earlier.id} already fights in ${where.kind} '${where.name}' this turn (turn ${turnLabel(turn)}): in ${model.ruleset!.title} a unit fights in one ${action.kind} a turn. Take it out of one of them, or move one to another turn.`,
                    { node: sides, property, index, code: Codes.unitFightsTwice, data: { unit: earlier.id, first: where.name } });
            }
            for (const u of units) if (!first.has(u.id)) first.set(u.id, action);
        }
    };
}
