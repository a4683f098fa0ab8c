/**
 * Ancients odds for the report layer: the melee read as the resolver reads it (with the tokens and
 * tested flags earlier fights left), handed to the exact engine in engine/ancients-odds.ts.
 */
import { buildAncientsInput, splitProblem } from './ancients-reader.js';
import { effectiveStats } from '../../core/campaign-state.js';
import { byInput, inputKey } from '../../core/campaign-throws.js';
import { ancientsOdds, type AncientsOdds } from './engine/ancients-odds.js';
import type { AncientsInput } from './engine/ancients-engine.js';
import type { AncientsTables } from './engine/ancients-tables.js';
import type { Action } from '../../language/generated/ast.js';
import { houseRows } from './ancients-house.js';
import type { SideOdds, UnitOdds } from '../../protocol.js';
import type { OddsBody } from '../../core/ruleset.js';
import type { ActionModel, ScenarioModel } from '../../core/scenario.js';
import type { Unresolvable } from '../../core/resolution.js';

/**
 * The engine's odds of the melee, worked out once for each input it is given: an action's odds and its
 * campaign law (ancients-campaign-odds.ts) read the same engine result, and a campaign reaches one
 * melee from many starts that give the same input. Shared: the report copies what it hands on.
 */
export function ancientsOddsOf(action: Action, input: AncientsInput, tables: AncientsTables): AncientsOdds {
    return byInput(action, inputKey('odds', input, tables), () => ancientsOdds(input, tables));
}

/** The exact odds of an Ancients melee, per unit and per side (docs/odds.md). */
export function ancientsOddsBody(model: ScenarioModel, action: ActionModel): OddsBody | Unresolvable {
    const reading = buildAncientsInput(model, action.node, u => effectiveStats(model, action.node, u));
    if ('problem' in reading) return reading;
    // A split that does not add up (say 2147483648 dice on one opponent) would size the hit laws
    // by the file's number: refuse it here as the resolver does.
    const badSplit = splitProblem(reading.input, reading.tables);
    if (badSplit) return { problem: badSplit };
    const odds = ancientsOddsOf(action.node, reading.input, reading.tables);
    const units = odds.units.map((u): UnitOdds => ({
        force: u.force, unit: u.unit, id: u.id, side: u.side,
        probabilities: { ...u.probabilities },
        // A7: destroyed is worse than giving ground, which is worse than holding.
        atLeast: { tested: u.tested, 'gives-ground': u.probabilities['gives-ground'] + u.probabilities.destroyed, destroyed: u.probabilities.destroyed },
        hits: [...u.hits], expectedHits: u.expectedHits, expectedTokens: u.expectedTokens, sdHits: u.sdHits, sdTokens: u.sdTokens
    }));
    const sides = odds.sides.map((s): SideOdds => ({
        force: s.forces.join('+'), side: s.side, expected: { ...s.expected }, sd: { ...s.sd }, atLeastOne: { ...s.atLeastOne },
        expectedHits: s.expectedHits, sdHits: s.sdHits, wins: s.wins
    }));
    const notes = reading.idle.length > 0 ? [`Not in contact, so not fighting: ${reading.idle.map(u => u.id).join(', ')}.`] : [];
    // The odds are the house's, not the seed's: say which rows (docs/house-rules.md#ancients).
    const house = houseRows(reading.inForce);
    if (house.length > 0) notes.push(`Under the house rules: ${house.join('; ')}.`);
    return { firstTurn: reading.input.firstTurn, breakDice: reading.input.breakDice, tie: odds.tie, units, sides, notes };
}
