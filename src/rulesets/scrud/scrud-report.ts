/**
 * Resolving a SCRUD engagement: reads it, throws or takes the dice, and reports the outcome in the
 * JSON of docs/json.md, the outcome block's lines and the pair-by-pair text.
 */
import { buildScrudInput, enteredScrudDice } from './scrud-reader.js';
import { turnLabel, type ActionModel, type ScenarioModel } from '../../core/scenario.js';
import { SeededDice } from '../../core/dice.js';
import { resolveScrud, type ScrudInput, type ScrudOutcome, type ScrudUnitResult } from './engine/scrud-engine.js';
import { signed } from '../../core/signed.js';
import { fingerprint, nameAliases } from '../../core/fingerprint.js';
import type { DiceChoice, OutcomeLineText, Resolution, Unresolvable } from '../../core/resolution.js';

/** Seeded dice are thrown attacker first, then defender, each in declaration order. */
export function throwScrudDice(input: ScrudInput, seed: number): { attacker: number[], defender: number[] } {
    const dice = new SeededDice(seed);
    return {
        attacker: input.attacker.units.map(u => dice.roll(u.die)),
        defender: input.defender.units.map(u => dice.roll(u.die))
    };
}

export function resolveScrudAction(model: ScenarioModel, action: ActionModel, dice: DiceChoice): Resolution | Unresolvable {
    const input = buildScrudInput(model, action.node);
    if (!input) return { problem: `Engagement '${action.node.name}' needs two sides: write 'A attacks B'.` };
    const thrown = dice.kind === 'seed' ? throwScrudDice(input, dice.seed) : enteredScrudDice(model, action.node, input)!;
    if ([...thrown.attacker, ...thrown.defender].some(v => !Number.isInteger(v))) {
        return { problem: `Engagement '${action.node.name}' does not have a die for every unit.` };
    }
    const outcome = resolveScrud(input, thrown);
    const check = fingerprint({ rules: 'scrud', input: stripDice(input), dice: dice.kind === 'seed' ? dice.seed : thrown }, nameAliases(model));
    return {
        json: {
            name: action.node.name, kind: action.node.kind, rules: 'scrud', turn: turnLabel(action.turn) ?? null,
            seed: dice.kind === 'seed' ? dice.seed : null, summary: outcome.summary, check,
            pooled: input.pooled,
            units: outcome.units.map(unitJson)
        },
        lines: outcome.units.map(outcomeLine),
        text: scrudText(outcome)
    };
}

function stripDice(input: ScrudInput) {
    const side = (s: ScrudInput['attacker']) => ({ force: s.force, units: s.units.map(u => ({ id: u.id, arm: u.arm, die: u.die.name, modifier: u.modifier })) });
    return { attacker: side(input.attacker), defender: side(input.defender), pooled: input.pooled };
}

/**
 * One unit as docs/json.md describes it. `die` is the number thrown, as in the outcome line
 * (`die 4, mod +2, adjusted 6`), so that die + modifier = adjusted before clamping (S2); `dieType` names the die (S1).
 */
function unitJson(r: ScrudUnitResult) {
    return {
        force: r.force, unit: r.unit, side: r.side, arm: r.arm, dieType: r.die, die: r.thrown,
        modifier: r.modifier, adjusted: r.adjusted, rank: r.rank, result: r.result, opponent: r.opponent
    };
}

function outcomeLine(r: ScrudUnitResult): OutcomeLineText {
    return {
        unit: r.id, result: r.result,
        facts: [['die', r.thrown], ['mod', r.modifier], ['adjusted', r.adjusted]],
        opponent: r.opponent ?? undefined
    };
}


/** Pair by pair, as the seed lays it out: each arm's sorted lines side by side. */
function scrudText(outcome: ScrudOutcome): string[] {
    const out: string[] = [];
    for (const g of outcome.groups) {
        out.push(g.arm === 'all' ? 'All arms:' : `${g.arm[0].toUpperCase()}${g.arm.slice(1)}:`);
        for (const p of g.pairs) {
            const side = (r: ScrudUnitResult | null) => (r ? `${r.id} ${r.thrown}${signed(r.modifier)}=${r.adjusted}` : '—');
            const res = p.attacker && p.defender
                ? (p.difference === 0 ? 'stand-off' : p.difference! > 0 ? `${p.defender.id} ${p.defender.result}` : `${p.attacker.id} ${p.attacker.result}`)
                : `${(p.attacker ?? p.defender)!.id} unpaired`;
            out.push(`  ${side(p.attacker)}  v  ${side(p.defender)}  →  ${res}`);
        }
    }
    return out;
}
