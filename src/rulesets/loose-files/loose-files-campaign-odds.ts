/**
 * Loose Files in a campaign's odds (docs/odds.md#campaign-odds): the exact joint law of what a combat
 * (L2, L3), a fire (L4, L5) or a move (L6) leaves behind — results, disorder points, casualties,
 * units that flee, a new formation — as it starts from the state earlier actions left (read through
 * `effectiveStats`, as resolving reads it). Listed throw by throw through the engine, each die as the
 * resolver asks for it (a skirmisher's re-rolls of fives only when a five is thrown), while the throws
 * stay within the budget. Morale and re-dressing throw no dice: the core resolves them as they are.
 * A commander's movement die (L8) decides only how far it goes, which the campaign does not carry:
 * a command leaves one state whatever it throws. Left to the sampled path: Corlears Hook's retreat
 * dice (L9), which read the combat before, and a brigade's shared roll (L9).
 */
import { byInput, everyThrow, inputKey } from '../../core/campaign-throws.js';
import { AVERAGE, D6, type Die } from '../../core/dice.js';
import type { DiceSource } from '../../core/dice-source.js';
import type { OutcomeLineText, Unresolvable } from '../../core/resolution.js';
import type { OutcomeLaw } from '../../core/ruleset.js';
import type { ActionModel, ScenarioModel, UnitModel } from '../../core/scenario.js';
import { fireDice, moveDiceCounts, rerollsFor, resolveCombat, resolveFire, resolveMove } from './engine/loose-files-engine.js';
import { lfTables } from './loose-files-house.js';
import { lfOptions, readCombat, readFire, readMoves } from './loose-files-reader.js';
import { resolveLooseFilesAction } from './loose-files-resolve.js';

type Facts = OutcomeLineText['facts'];

const take = (source: DiceSource, unit: UnitModel, label: string, die: Die, count: number) => source.take({ who: [unit.id], label, die, count });

/** The facts the campaign reads back from a line, as the resolver writes them (loose-files-resolve.ts). */
function stateFacts(o: { dp?: number, casualties?: number, fled?: boolean }): Facts {
    const f: Facts = [];
    if (o.dp !== undefined) f.push(['dp', o.dp]);
    if (o.casualties) f.push(['casualties', o.casualties]);
    if (o.fled) f.push(['fled', true]);
    return f;
}

function combatLaw(model: ScenarioModel, action: ActionModel, budget: number): OutcomeLaw | Unresolvable | undefined {
    if (lfOptions(model).corlearsHook) return undefined;
    const read = readCombat(model, action, false);
    if (!read) return { problem: `Engagement '${action.node.name}' needs two sides of fighting units: write 'A attacks B'.` };
    const key = inputKey('combat', read.input, read.tables, read.attackers.map(u => u.id), read.defenders.map(u => u.id), read.inspirations.map(i => i.officer.id), budget);
    return byInput(action.node, key, () => everyThrow(source => {
        const [a] = take(source, read.attackers[0], 'average', AVERAGE, 1);
        const [d] = take(source, read.defenders[0], 'average', AVERAGE, 1);
        const o = resolveCombat(read.input, { attacker: a, defender: d }, read.tables);
        const lines: OutcomeLineText[] = [];
        for (const [members, side] of [[read.attackers, o.attacker], [read.defenders, o.defender]] as const) {
            members.forEach((u, i) => lines.push({ unit: u.id, result: side.result, facts: stateFacts({ dp: side.dp, casualties: i === 0 ? side.casualties : 0, fled: side.fled.includes(u.id) }) }));
        }
        for (const insp of read.inspirations) lines.push({ unit: insp.officer.id, result: 'inspired', facts: [['cp', read.tables.command.inspire]] });
        return lines;
    }, budget)?.map(({ p, value }) => ({ p, lines: value })));
}

function fireLaw(model: ScenarioModel, action: ActionModel, budget: number): OutcomeLaw | Unresolvable | undefined {
    const reads = readFire(model, action);
    if (reads.length === 0) return { problem: `Fire '${action.node.name}' needs a line 'A fires at B: range N'.` };
    const tables = lfTables(model, action.node);
    const key = inputKey('fire', reads.map(r => [r.firer.id, r.target.id, r.input]), tables, budget);
    return byInput(action.node, key, () => everyThrow(source => reads.flatMap((r): OutcomeLineText[] => {
        const d6 = take(source, r.firer, 'd6', D6, fireDice(r.input, tables).count);
        const reroll = take(source, r.firer, 'reroll', D6, rerollsFor(r.input, d6, tables));
        const o = resolveFire(r.input, { d6, reroll }, tables);
        return [{ unit: r.firer.id, result: 'fired', facts: [] }, { unit: r.target.id, result: o.result, facts: stateFacts(o) }];
    }), budget)?.map(({ p, value }) => ({ p, lines: value })));
}

function moveLaw(model: ScenarioModel, action: ActionModel, budget: number): OutcomeLaw | Unresolvable | undefined {
    if (lfOptions(model).brigadeMove) return undefined;
    const reads = readMoves(model, action);
    if (reads.length === 0) return { problem: `Move '${action.node.name}' needs a line 'Unit: average N, d6 N'.` };
    const tables = lfTables(model, action.node);
    const key = inputKey('move', reads.map(r => [r.unit.id, r.input]), tables, budget);
    return byInput(action.node, key, () => everyThrow(source => reads.map((r): OutcomeLineText => {
        const counts = moveDiceCounts(r.input);
        const thrown = { average: take(source, r.unit, 'average', AVERAGE, counts.average), d6: take(source, r.unit, 'd6', D6, counts.d6) };
        const o = resolveMove(r.input, thrown, tables);
        return { unit: r.unit.id, result: o.result, facts: [...stateFacts({ dp: o.dp }), ...(o.formation ? [['formation', o.formation] as [string, string]] : [])] };
    }), budget)?.map(({ p, value }) => ({ p, lines: value })));
}

export function looseFilesOutcomeLaw(model: ScenarioModel, action: ActionModel, budget: number): OutcomeLaw | Unresolvable | undefined {
    switch (action.node.kind) {
        case 'engagement': return combatLaw(model, action, budget);
        case 'fire': return fireLaw(model, action, budget);
        case 'move': return moveLaw(model, action, budget);
        case 'command': {
            // L8: the officers' rallies and the command points are the same whatever the movement die shows.
            const r = resolveLooseFilesAction(model, action, { kind: 'seed', seed: 0 });
            return 'problem' in r ? r : [{ p: 1, lines: r.lines }];
        }
        default: return undefined;
    }
}
