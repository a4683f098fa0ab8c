/**
 * "Skirmish": a tiny rule set, written in this folder alone, whose only action is a kind no built-in rule set
 * has (`skirmish`) with a verb of its own (`harries`), to show that a rule set declares its words and the
 * language takes them: they lex, parse, complete and are coloured from `kinds` and `verbs` below, with no
 * grammar or TextMate edit (ARCHITECTURE.md, "How to add a rule set").
 *
 * The rule: in a skirmish one unit harries another (`Red.Slingers harries Blue.Spears`). The harrier throws
 * one d6, one more when it is `bold`; on 4 or more the harried unit is shaken (out of the fight), otherwise it
 * stands. Every harrying leaves the harried unit one `harried` more, a campaign counter of this rule set
 * alone, carried from fight to fight and shown in the campaign's status.
 */
import type { ValidationAcceptor } from 'langium';
import { isDice, isRelation, type Action, type Relation } from '../../../src/language/generated/ast.js';
import type { OddsBody, Ruleset } from '../../../src/core/ruleset.js';
import { countColumn, type CampaignCounter } from '../../../src/core/campaign-counters.js';
import { D6, SeededDice } from '../../../src/core/dice.js';
import { fingerprint, nameAliases } from '../../../src/core/fingerprint.js';
import type { DiceChoice, Resolution, Unresolvable } from '../../../src/core/resolution.js';
import { turnLabel, unitsOf, type ActionModel, type ScenarioModel, type UnitModel } from '../../../src/core/scenario.js';

/** How often a unit has been harried: each written or settled skirmish adds one; a `ruling` may set it. */
const HARRIED: CampaignCounter = { name: 'harried', kind: 'count', facts: ['harried'], keys: ['harried'] };

export const SkirmishCodes = { oneHarrying: 'skirmish-one-harrying' } as const;

/** The score a harried unit is shaken at. */
export const SHAKEN_AT = 4;

const harryings = (action: Action): Relation[] => action.statements.filter(isRelation).filter(r => r.verb === 'harries');

function checkAction(_model: ScenarioModel, action: Action, accept: ValidationAcceptor): void {
    const count = harryings(action).length;
    if (count !== 1) {
        accept('error', `A skirmish is one unit harrying another ('Red.Slingers harries Blue.Spears'); '${action.name}' has ${count}.`,
            { node: action, property: 'name', code: SkirmishCodes.oneHarrying });
    }
}

/** The harrier and the harried unit, with the harrier's bonus, or what is missing. */
function reading(model: ScenarioModel, action: ActionModel): { harrier: UnitModel, harried: UnitModel, bonus: number } | Unresolvable {
    const [line] = harryings(action.node);
    const harrier = line && unitsOf(model, line.subject)[0];
    const harried = line && unitsOf(model, line.object)[0];
    if (!harrier || !harried) return { problem: `'${action.node.name}' needs one unit harrying another.` };
    return { harrier, harried, bonus: line.facts.some(f => f.key === 'bold') ? 1 : 0 };
}

/** The harrier's die: thrown from the seed, or the first value of a dice line that names it. */
function dieOf(model: ScenarioModel, action: ActionModel, harrier: UnitModel, dice: DiceChoice): number {
    if (dice.kind === 'seed') return new SeededDice(dice.seed).roll(D6);
    const line = action.node.statements.filter(isDice).find(d => unitsOf(model, d.target).some(u => u.id === harrier.id));
    return line?.values[0] ?? 0;
}

function resolve(model: ScenarioModel, action: ActionModel, dice: DiceChoice): Resolution | Unresolvable {
    const read = reading(model, action);
    if ('problem' in read) return read;
    const die = dieOf(model, action, read.harrier, dice);
    const score = die + read.bonus;
    const result = score >= SHAKEN_AT ? 'shaken' : 'stands';
    return {
        json: {
            name: action.node.name, kind: action.node.kind, rules: model.rules, turn: turnLabel(action.turn) ?? null,
            seed: dice.kind === 'seed' ? dice.seed : null, summary: `${read.harried.id} ${result} (${score})`,
            check: fingerprint({ rules: 'skirmish', units: [read.harrier.id, read.harried.id], bonus: read.bonus, dice: dice.kind === 'seed' ? dice.seed : [die] }, nameAliases(model)),
            units: [{ force: read.harried.force, unit: read.harried.id.slice(read.harried.force.length + 1), result, score }]
        },
        lines: [{ unit: read.harried.id, result, facts: [['score', score], ['harried', 1]] }],
        text: [`${read.harrier.id} throws ${die}${read.bonus ? ' +1 bold' : ''}: ${read.harried.id} ${result}`]
    };
}

/** Exactly: the faces of one d6 that reach SHAKEN_AT with the bonus, out of six. */
function odds(model: ScenarioModel, action: ActionModel): OddsBody | Unresolvable {
    const read = reading(model, action);
    if ('problem' in read) return read;
    const shaken = [1, 2, 3, 4, 5, 6].filter(face => face + read.bonus >= SHAKEN_AT).length / 6;
    const { harried } = read;
    return {
        units: [{ force: harried.force, unit: harried.id.slice(harried.force.length + 1), id: harried.id, probabilities: { shaken, stands: 1 - shaken } }],
        sides: [{ force: harried.force, expected: { shaken }, atLeastOne: {} }],
        notes: []
    };
}

export const skirmishRuleset: Ruleset = {
    id: 'skirmish',
    title: 'Skirmish',
    reference: 'test/rulesets/skirmish/skirmish-ruleset.ts',
    kinds: ['skirmish'],
    verbs: ['harries'],
    oddsKinds: ['skirmish'],
    vocabulary: {
        stats: {},
        facts: { skirmish: ['bold'] },
        options: [],
        arms: ['slingers', 'spears'],
        results: ['shaken', 'stands'],
        diceLabels: () => []
    },
    campaign: { counters: [HARRIED], columns: [countColumn('harried', 'Harried', 'harried')], outResults: { shaken: 'routed' } },
    codes: SkirmishCodes,
    checkAction,
    usesEnteredDice: (_model, action) => action.node.statements.some(isDice),
    resolve,
    odds
};
