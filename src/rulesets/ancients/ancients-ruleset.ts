/**
 * Ancients — a dice-pool melee (docs/rules/ancients.md, A1–A9): the rule set as the core sees it.
 * Everything the tool knows about Ancients is reached from here.
 */
import { effectiveStats } from '../../core/campaign-state.js';
import type { Ruleset } from '../../core/ruleset.js';
import { ANCIENTS_RESULTS } from './engine/ancients-engine.js';
import { checkAncientsAction, checkAncientsScenario } from './ancients-checks.js';
import { AncientsCodes } from './ancients-codes.js';
import { ancientsOddsBody } from './ancients-odds-report.js';
import { ancientsOutcomeLaw } from './ancients-campaign-odds.js';
import { ancientsActionDicePlan, DEFENSIVE_COUNTERCHARGE, ANCIENTS_EXCLUSIVE, ANCIENTS_FACTS, ANCIENTS_RANGES, DICE_LABELS, hasEnteredAncientsDice } from './ancients-reader.js';
import { resolveAncientsAction } from './ancients-resolve.js';
import { ANCIENTS_NEW_SCENARIO } from './ancients-new-scenario.js';
import { ANCIENTS_TABLES, AncientsHouseCodes, checkAncientsTables } from './ancients-house.js';
import { ANCIENTS_COLUMNS, ANCIENTS_COUNTERS } from './ancients-counters.js';

export const ancientsRuleset: Ruleset = {
    id: 'ancients',
    title: 'Ancients',
    reference: 'docs/rules/ancients.md',
    newScenario: ANCIENTS_NEW_SCENARIO,
    kinds: ['engagement'],
    // A pairing of two units in a melee, each with its position: `Greeks.Hoplites flank vs Persians.Immortals` (A4).
    verbs: ['vs'],
    oddsKinds: ['engagement'],
    vocabulary: {
        stats: {
            size: { doc: 'Dice and hit threshold (A1, A6).', values: ['huge', 'large', 'medium', 'small'] },
            weight: { doc: 'Advantage steps and saves (A3, A5).', values: ['heavy', 'medium', 'light'] },
            formation: { doc: 'Advantage steps (A3).', values: ['formed', 'warband', 'skirmish'] },
            type: { doc: 'Cavalry has one advantage step over infantry (A3).', values: ['cavalry', 'infantry'] },
            skill: { doc: 'Advantage steps: the number itself (A3).' },
            leadership: { doc: 'The break-test score needed (A7).' },
            shock: { doc: 'Rolls 2 more dice on the first turn of a combat when it charged (A1).' },
            defensive: { doc: 'Rolls 2 more dice on the first turn when it did not charge (A1).' },
            tokens: { doc: 'Damage tokens carried: -1 each on break tests (A7, A8).' },
            tested: { doc: 'Has already made a break test this game (A7).' },
            move: { doc: 'Movement in inches; giving ground moves half (A9).' },
            enters: { doc: 'The turn the unit arrives (docs/campaigns.md).' }
        },
        facts: { engagement: ANCIENTS_FACTS },
        // A7: the break test may be thrown on one die; A1.6 as written: a defensive unit's counter-charge keeps its dice.
        options: ['break-die', DEFENSIVE_COUNTERCHARGE],
        arms: ['infantry', 'cavalry'],
        results: ANCIENTS_RESULTS,
        // A7: no test is better than a test held, which is better than giving ground, then destruction.
        resultLadder: [['untested'], ['holds'], ['gives-ground'], ['destroyed']],
        resultSeverity: { 'untested': 'best', 'holds': 'good', 'gives-ground': 'bad', 'destroyed': 'worst' },
        // A1, A5, A7: a dice line names the throw it records.
        diceLabels: () => DICE_LABELS,
        exclusive: ANCIENTS_EXCLUSIVE,
        ranges: ANCIENTS_RANGES
    },
    // A7, A8: damage tokens and the first break test carry on (ancients-counters.ts); a destroyed unit is gone.
    // A unit fights in one melee a turn, its dice split within it (docs/rules/ancients.md#one-melee-a-turn).
    campaign: { counters: ANCIENTS_COUNTERS, columns: ANCIENTS_COLUMNS, outResults: { destroyed: 'destroyed' }, fightsOnceATurn: ['engagement'] },
    codes: { ...AncientsCodes, ...AncientsHouseCodes },
    tables: ANCIENTS_TABLES,
    checkTables: checkAncientsTables,
    fixes: {
        [AncientsCodes.statValue]: 'stat-value',
        [AncientsCodes.statUnknown]: 'respell-stat',
        [AncientsCodes.tokensRange]: 'stat-replacements',
        [AncientsCodes.leadershipRange]: 'stat-replacements',
        [AncientsCodes.statRange]: 'stat-replacements'
    },
    checkScenario: checkAncientsScenario,
    checkAction: checkAncientsAction,
    usesEnteredDice: (_model, action) => hasEnteredAncientsDice(action.node),
    // Each unit fights with the tokens and break test that earlier outcomes left it.
    resolve: (model, action, dice) => resolveAncientsAction(model, action, dice, u => effectiveStats(model, action.node, u)),
    dicePlan: (model, action) => ancientsActionDicePlan(model, action.node, u => effectiveStats(model, action.node, u)),
    odds: ancientsOddsBody,
    // Its state in the odds of a whole campaign (docs/odds.md#campaign-odds).
    campaignOdds: { outcomeLaw: ancientsOutcomeLaw }
};
