/**
 * SCRUD — Simple Combat Resolution Using Dice (docs/rules/scrud.md): the rule set as the core sees
 * it. Everything the tool knows about SCRUD is reached from here.
 */
import { isDice } from '../../language/generated/ast.js';
import type { DieHint, Ruleset } from '../../core/ruleset.js';
import { unitsOf, type ActionModel, type ScenarioModel } from '../../core/scenario.js';
import type { Resolution } from '../../core/resolution.js';
import { signedTypeset } from '../../core/signed.js';
import { SCRUD_RESULTS } from './engine/scrud-engine.js';
import { checkScrudAction, checkScrudScenario, checkScrudStats, ScrudCodes } from './scrud-checks.js';
import { scrudOddsBody } from './scrud-odds-report.js';
import { scrudOutcomeLaw, scrudSampler } from './scrud-campaign-odds.js';
import { buildScrudInput, CLAMP, diceLinesFor, PURSUIT, RUNS_AND_PURSUES, scrudDicePlan, unitsFedBy } from './scrud-reader.js';
import { resolveScrudAction } from './scrud-resolve.js';
import { checkScrudTables, SCRUD_TABLES, ScrudHouseCodes } from './scrud-house.js';
import { SCRUD_NEW_SCENARIO } from './scrud-new-scenario.js';

export const scrudRuleset: Ruleset = {
    id: 'scrud',
    title: 'SCRUD',
    reference: 'docs/rules/scrud.md',
    newScenario: SCRUD_NEW_SCENARIO,
    kinds: ['engagement'],
    oddsKinds: ['engagement'],
    vocabulary: {
        stats: {
            die: { doc: 'The die this unit throws (S1): d6 unless named.', values: ['d4', 'd6', 'd8', 'average'] }
        },
        // S-ex.6: a winning unit may be given a pursuit throw.
        facts: { engagement: [PURSUIT] },
        // S3 pooled arms, S1 the die of every unit, S-ex.6 the throw that pursues, S1.3 the comment's variant.
        // S2.7 as written: `option clamp-six`.
        options: ['pooled', 'die', PURSUIT, RUNS_AND_PURSUES, CLAMP],
        arms: ['foot', 'horse', 'guns'],
        results: SCRUD_RESULTS,
        // S6 read from the unit's side: a win beats a stand-off (or no opponent), then each loss is worse.
        resultLadder: [['won'], ['stand-off', 'unpaired'], ['recoil'], ['retire'], ['retreat'], ['rout']],
        // An unpaired unit did not fight (nothing happened to it); a stand-off is a fight neither side won.
        resultSeverity: { 'won': 'best', 'unpaired': 'none', 'stand-off': 'even', 'recoil': 'setback', 'retire': 'bad', 'retreat': 'worse', 'rout': 'worst' },
        // S3: a dice line is labelled with the arm it feeds.
        // S-ex.6: or `pursuit`, for the pursuit throws.
        diceLabels: (model, line) => [...new Set(unitsOf(model, line.target).map(u => u.arm)), PURSUIT]
    },
    // S6: a rout takes the unit out of the fight; SCRUD keeps no counters.
    // A unit throws its die in one engagement a turn (docs/rules/scrud.md#one-engagement-a-turn).
    campaign: { counters: [], columns: [], outResults: { rout: 'routed' }, fightsOnceATurn: ['engagement'] },
    codes: { ...ScrudCodes, ...ScrudHouseCodes },
    fixes: { [ScrudCodes.unknownStat]: 'respell-stat', [ScrudCodes.unknownFact]: 'respell-fact' },
    tables: SCRUD_TABLES,
    checkTables: checkScrudTables,
    checkScenario: checkScrudScenario,
    checkStatOwner: checkScrudStats,
    checkAction: checkScrudAction,
    usesEnteredDice: (_model, action) => action.node.statements.some(isDice),
    resolve: resolveScrudAction,
    dicePlan(model, action) {
        const input = buildScrudInput(model, action.node);
        return input && scrudDicePlan(model, action.node, input);
    },
    odds: scrudOddsBody,
    // Its state in the odds of a whole campaign (docs/odds.md#campaign-odds).
    campaignOdds: { outcomeLaw: scrudOutcomeLaw, sampler: scrudSampler },
    // S2: the grade and every factor add up to one modifier, which turns the die.
    modifierHover(actionName, gradeValue, here) {
        if (here.length === 0) return `Modifier in **${actionName}**: ${signedTypeset(gradeValue)} (grade only)`;
        const total = gradeValue + here.reduce((sum, m) => sum + m.value, 0);
        return `Modifiers in **${actionName}**: ${here.map(m => `${m.name} ${signedTypeset(m.value)}`).join(', ')} (total ${signedTypeset(total)})`;
    },
    dieHints: scrudDieHints
};

/** Each entered die's unit, and in its tooltip, with a result, its modifier, adjusted die and result. */
function scrudDieHints(model: ScenarioModel, action: ActionModel, resolution: Resolution | undefined): DieHint[] {
    const input = buildScrudInput(model, action.node);
    if (!input) return [];
    const results = new Map(resolution?.json.units.map(u => [`${u.force}.${u.unit}`, u]) ?? []);
    const hints: DieHint[] = [];
    for (const side of [input.attacker, input.defender]) {
        for (const line of diceLinesFor(model, action.node, side.units)) {
            unitsFedBy(model, line, side.units).forEach((unit, index) => {
                if (index >= line.values.length) return;
                const result = results.get(unit.id);
                const adjusted = typeof result?.adjusted === 'number' ? result.adjusted : undefined;
                const parts = [`${unit.id}: die ${line.values[index]}`];
                if (typeof result?.modifier === 'number') parts.push(`mod ${signedTypeset(result.modifier)}`);
                if (adjusted !== undefined) parts.push(`adjusted ${adjusted}`);
                const tooltip = `${parts.join(', ')}${result ? ` → ${result.result}${typeof result.opponent === 'string' ? ` vs ${result.opponent}` : ''}` : ''}`;
                hints.push({ line, index, label: unit.unit, tooltip });
            });
        }
    }
    return hints;
}
