/**
 * SCRUD in a campaign's odds (docs/odds.md#campaign-odds): the exact joint law of an engagement's
 * results (S4–S6), of which a campaign carries only the routs. Listed throw by throw through the
 * engine, each unit's die as it is thrown (S1, S2), while the throws stay within the budget; a pursuit
 * throw (S-ex.6) changes no state, so it is left to the sampled path.
 *
 * Arm fights arm (S3): each arm's units are ranked and paired among themselves, on dice of their own,
 * so the arms' results are independent. Each arm is listed alone and the laws multiplied: a line of
 * four foot and a horse pair is 6⁴ + 6² throws, not 6⁶. With S3's pooling, one arm of all.
 */
import { byInput, everyThrow, inputKey } from '../../core/campaign-throws.js';
import { faceDistribution } from '../../core/dice.js';
import { seededDiceSource, type DiceSource } from '../../core/dice-source.js';
import type { OutcomeLaw } from '../../core/ruleset.js';
import type { OutcomeLineText, Unresolvable } from '../../core/resolution.js';
import type { ActionModel, ScenarioModel } from '../../core/scenario.js';
import { armsOf, resolveScrud, type ScrudInput } from './engine/scrud-engine.js';
import type { ScrudTables } from './engine/scrud-tables.js';
import { buildScrudInput, pursuitRuleOf, scrudCombatDice, scrudTables } from './scrud-reader.js';
import { dieShort, outcomeLine } from './scrud-resolve.js';

/** One arm's law: each way its units' results fall (unit id → result), ways with the same results merged. */
function armLaw(input: ScrudInput, tables: ScrudTables, budget: number): Array<{ p: number, results: Map<string, string> }> | undefined {
    if (throwsOf(input) > budget) return undefined;
    const throws = everyThrow(source => resolveScrud(input, scrudCombatDice(input, source), tables), budget);
    if (!throws) return undefined;
    const byResults = new Map<string, { p: number, results: Map<string, string> }>();
    for (const { p, value } of throws) {
        const key = value.units.map(u => u.result).join(',');
        const seen = byResults.get(key);
        if (seen) seen.p += p; else byResults.set(key, { p, results: new Map(value.units.map(u => [u.id, u.result])) });
    }
    return [...byResults.values()];
}

/** How many ways the arm's dice can fall: every unit throws one die, whatever the others show (S1). */
function throwsOf(input: ScrudInput): number {
    let ways = 1;
    const counting: DiceSource = {
        taken: [],
        take(request) {
            ways *= faceDistribution(request.die).length ** request.count;
            return Array.from({ length: request.count }, () => request.die.faces[0]);
        }
    };
    scrudCombatDice(input, counting);
    return ways;
}

export function scrudOutcomeLaw(model: ScenarioModel, action: ActionModel, budget: number): OutcomeLaw | Unresolvable | undefined {
    const input = buildScrudInput(model, action.node);
    if (!input) return { problem: `Engagement '${action.node.name}' needs two sides: write 'A attacks B'.` };
    if (pursuitRuleOf(model, action.node)) return undefined;
    const tables = scrudTables(model, action.node);
    return byInput(action.node, inputKey('law', input, tables, budget), () => lawOf(input, tables, budget));
}

function lawOf(input: ScrudInput, tables: ScrudTables, budget: number): OutcomeLaw | undefined {
    const arms = armsOf(input).map(arm => {
        const inArm = (units: ScrudInput['attacker']['units']) => units.filter(u => input.pooled || u.arm === arm);
        return { ...input, attacker: { ...input.attacker, units: inArm(input.attacker.units) }, defender: { ...input.defender, units: inArm(input.defender.units) } };
    });
    let joint: Array<{ p: number, results: Map<string, string> }> = [{ p: 1, results: new Map() }];
    for (const arm of arms) {
        const law = armLaw(arm, tables, budget);
        if (!law || joint.length * law.length > budget) return undefined;
        joint = joint.flatMap(j => law.map(w => ({ p: j.p * w.p, results: new Map([...j.results, ...w.results]) })));
    }
    const order = [...input.attacker.units, ...input.defender.units].map(u => u.id);
    return joint.map(({ p, results }) => ({ p, lines: order.map((id): OutcomeLineText => ({ unit: id, result: results.get(id)!, facts: [] })) }));
}

/**
 * The lines resolving writes from each seed (scrud-resolve.ts: the combat's results with each unit's die,
 * modifier and adjusted die), for a sampled campaign: the engagement is read once, and no fingerprint or
 * text is made for a throw. None under a pursuit rule, whose throws and lines `resolve` alone makes.
 */
export function scrudSampler(model: ScenarioModel, action: ActionModel): ((seed: number) => OutcomeLineText[] | Unresolvable) | undefined {
    const input = buildScrudInput(model, action.node);
    if (!input || pursuitRuleOf(model, action.node)) return undefined;
    const tables = scrudTables(model, action.node);
    return seed => {
        const thrown = scrudCombatDice(input, seededDiceSource(seed));
        return dieShort(action, thrown) ?? resolveScrud(input, thrown, tables).units.map(u => outcomeLine(u, undefined));
    };
}
