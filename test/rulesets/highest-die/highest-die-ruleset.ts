/**
 * "Highest die wins": a tiny rule set written in the test folder alone, to prove that a rule set is
 * one folder behind the `Ruleset` interface (ARCHITECTURE.md, "How to add a rule set"). Each unit
 * throws one d6; the side whose best die is higher wins, and every unit of the other side is
 * routed; equal best dice are a tie. Nothing outside this folder was changed for it.
 */
import type { ValidationAcceptor } from 'langium';
import { isDice, isSides, type Action } from '../../../src/language/generated/ast.js';
import type { OddsBody, Ruleset } from '../../../src/core/ruleset.js';
import { D6, SeededDice } from '../../../src/core/dice.js';
import { fingerprint, nameAliases } from '../../../src/core/fingerprint.js';
import type { DiceChoice, Resolution, Unresolvable } from '../../../src/core/resolution.js';
import { effectiveStats } from '../../../src/core/campaign-state.js';
import { HIGHEST_DIE_COLUMNS, HIGHEST_DIE_COUNTERS } from './highest-die-counters.js';
import { sideUnits, turnLabel, unitsOf, type ActionModel, type ScenarioModel, type UnitModel } from '../../../src/core/scenario.js';

export const HighestDieCodes = { noSides: 'highest-die-no-sides' } as const;

type Outcome = 'won' | 'tie' | 'lost';

function checkAction(_model: ScenarioModel, action: Action, accept: ValidationAcceptor): void {
    if (!action.statements.some(isSides)) {
        accept('error', `'${action.name}' needs its sides: write 'A attacks B'.`, { node: action, property: 'name', code: HighestDieCodes.noSides });
    }
}

/** The dice of each side: thrown from the seed (attackers first), or as entered, one per unit. */
function diceOf(model: ScenarioModel, action: ActionModel, sides: { attackers: UnitModel[], defenders: UnitModel[] }, dice: DiceChoice): [number[], number[]] {
    if (dice.kind === 'seed') {
        const thrown = new SeededDice(dice.seed);
        return [sides.attackers.map(() => thrown.roll(D6)), sides.defenders.map(() => thrown.roll(D6))];
    }
    const entered = new Map<string, number>();
    for (const line of action.node.statements.filter(isDice)) {
        unitsOf(model, line.target).forEach((u, i) => { if (i < line.values.length) entered.set(u.id, line.values[i]); });
    }
    return [sides.attackers.map(u => entered.get(u.id) ?? 0), sides.defenders.map(u => entered.get(u.id) ?? 0)];
}

function resolve(model: ScenarioModel, action: ActionModel, dice: DiceChoice): Resolution | Unresolvable {
    const sides = sideUnits(model, action.node);
    if (!sides || sides.attackers.length === 0 || sides.defenders.length === 0) return { problem: `'${action.node.name}' needs two sides.` };
    const [a, d] = diceOf(model, action, sides, dice);
    const best = [Math.max(...a), Math.max(...d)];
    const outcome = (side: 0 | 1): Outcome => (best[0] === best[1] ? 'tie' : (best[side] > best[1 - side] ? 'won' : 'lost'));
    const units = [...sides.attackers.map((u, i) => ({ u, die: a[i], result: outcome(0) })), ...sides.defenders.map((u, i) => ({ u, die: d[i], result: outcome(1) }))];
    const summary = best[0] === best[1] ? `Tie at ${best[0]}` : `${best[0] > best[1] ? sides.attackers[0].force : sides.defenders[0].force} wins, ${Math.max(...best)} to ${Math.min(...best)}`;
    return {
        json: {
            name: action.node.name, kind: action.node.kind, rules: model.rules, turn: turnLabel(action.turn) ?? null,
            seed: dice.kind === 'seed' ? dice.seed : null, summary,
            check: fingerprint({ rules: 'highest-die', units: units.map(x => x.u.id), dice: dice.kind === 'seed' ? dice.seed : [a, d] }, nameAliases(model)),
            units: units.map(x => ({ force: x.u.force, unit: x.u.id.slice(x.u.force.length + 1), result: x.result, die: x.die, scars: effectiveStats(model, action, x.u).get('scars') ?? 0 }))
        },
        // A loser takes a scar, which its campaign state keeps (highest-die-counters.ts).
        lines: units.map(x => ({ unit: x.u.id, result: x.result, facts: x.result === 'lost' ? [['die', x.die], ['scars', 1]] : [['die', x.die]] })),
        text: units.map(x => `${x.u.id} ${x.die}: ${x.result}`)
    };
}

/** P(best of n d6 ≤ k) = (k/6)^n: the chances of each side's best die, exactly. */
function odds(model: ScenarioModel, action: ActionModel): OddsBody | Unresolvable {
    const sides = sideUnits(model, action.node);
    if (!sides || sides.attackers.length === 0 || sides.defenders.length === 0) return { problem: `'${action.node.name}' needs two sides.` };
    const bestLaw = (n: number) => [1, 2, 3, 4, 5, 6].map(k => (k / 6) ** n - ((k - 1) / 6) ** n);
    const la = bestLaw(sides.attackers.length), ld = bestLaw(sides.defenders.length);
    let attackerWins = 0, tie = 0;
    la.forEach((pa, i) => ld.forEach((pd, j) => { if (i > j) attackerWins += pa * pd; else if (i === j) tie += pa * pd; }));
    const defenderWins = 1 - attackerWins - tie;
    const unit = (u: UnitModel, win: number, lose: number) => ({ force: u.force, unit: u.id.slice(u.force.length + 1), id: u.id, probabilities: { won: win, tie, lost: lose } });
    return {
        units: [...sides.attackers.map(u => unit(u, attackerWins, defenderWins)), ...sides.defenders.map(u => unit(u, defenderWins, attackerWins))],
        sides: [
            { force: sides.attackers[0].force, expected: { won: attackerWins * sides.attackers.length }, atLeastOne: {} },
            { force: sides.defenders[0].force, expected: { won: defenderWins * sides.defenders.length }, atLeastOne: {} }
        ],
        notes: []
    };
}

export const highestDieRuleset: Ruleset = {
    id: 'highest-die',
    title: 'Highest die wins',
    reference: 'test/rulesets/highest-die/highest-die-ruleset.ts',
    kinds: ['engagement'],
    oddsKinds: ['engagement'],
    vocabulary: {
        stats: {
            veteran: { doc: 'Nothing in this rule set reads it; completion offers it.' },
            scars: { doc: 'The fights the unit has lost before the file begins; each lost fight adds one.' }
        },
        facts: { engagement: ['brave'] },
        options: ['loud'],
        arms: ['spearmen'],
        results: ['won', 'tie', 'lost'],
        diceLabels: () => []
    },
    campaign: { counters: HIGHEST_DIE_COUNTERS, columns: HIGHEST_DIE_COLUMNS, outResults: { lost: 'routed' } },
    codes: HighestDieCodes,
    checkAction,
    usesEnteredDice: (_model, action) => action.node.statements.some(isDice),
    resolve,
    odds
};
