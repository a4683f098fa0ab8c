/**
 * Loose Files & American Scramble (docs/rules/loose-files.md, L1–L9): the rule set as the core
 * sees it. Everything the tool knows about Loose Files is reached from here.
 */
import { isDice } from '../../language/generated/ast.js';
import type { Ruleset } from '../../core/ruleset.js';
import { COMBAT_RESULTS } from './engine/loose-files-combat.js';
import { inOrderOfPlay } from './engine/loose-files-command.js';
import { checkLooseFilesAction, checkLooseFilesScenario } from './loose-files-checks.js';
import { LooseFilesCodes } from './loose-files-codes.js';
import { checkLooseFilesTables, LOOSE_FILES_TABLES, LooseFilesHouseCodes } from './loose-files-house.js';
import { looseFilesOddsBody } from './loose-files-odds-report.js';
import { looseFilesOutcomeLaw } from './loose-files-campaign-odds.js';
import { looseFilesDicePlan, resolveLooseFilesAction, throwsNoDice } from './loose-files-resolve.js';
import { stepKind } from './loose-files-reader.js';
import { DICE_LABELS, factsOf, RELATION_VERBS, LF_EXCLUSIVE, LF_RANGES, LF_STAT_DOCS, LF_TYPE_WORDS, UNIT_FACTS } from './loose-files-vocabulary.js';
import { LOOSE_FILES_NEW_SCENARIO } from './loose-files-new-scenario.js';
import { LOOSE_FILES_COLUMNS, LOOSE_FILES_COUNTERS } from './loose-files-counters.js';

const KINDS = ['engagement', 'fire', 'move', 'morale', 'redress', 'command'];

export const looseFilesRuleset: Ruleset = {
    id: 'loose-files',
    title: 'Loose Files',
    reference: 'docs/rules/loose-files.md',
    newScenario: LOOSE_FILES_NEW_SCENARIO,
    kinds: KINDS,
    // Fire, morale and the officers' lines, each in its own kind of action (RELATION, loose-files-vocabulary.ts).
    verbs: RELATION_VERBS,
    // Morale, re-dressing and command points throw no dice worth odds (docs/odds.md).
    oddsKinds: ['engagement', 'fire', 'move'],
    vocabulary: {
        stats: LF_STAT_DOCS,
        facts: Object.fromEntries(Object.keys(UNIT_FACTS).map(kind => [kind, factsOf(kind)])),
        // L9: the sheet's house rules, off unless a file turns them on.
        // Distances the umpire measures may be fractions (docs/rules/loose-files.md#l-dist); counts are whole.
        fractionalFacts: ['range', 'distance'],
        options: ['full-move', 'brigade-move', 'corlears-hook', 'flee-losses', 'wheel-as-uphill', 'average-disorder'],
        arms: [...LF_TYPE_WORDS.filter(t => t !== 'commander')],
        results: [...COMBAT_RESULTS, 'no-effect', 'disordered', 'casualty', 'moved', 'charged', 'retired', 'changed-formation',
            'unmoved', 'stand-deserts', 'redressed', 'no-redress', 'inspired', 'rally', 'rallied', 'not-rallied', 'fired'],
        // L3's rows from the unit's side, and fire's effect on its target (L4); a move has no ladder.
        resultLadder: [...COMBAT_RESULTS.map(r => [r]), ['no-effect'], ['disordered'], ['casualty']],
        // Fire that has no effect, a move and an officer's order leave the unit as it was; losing a stand is worse than disorder.
        resultSeverity: {
            'easy-victory': 'best', 'successful': 'good', 'stand-off': 'even', 'driven-back': 'setback', 'defeated': 'bad', 'routed': 'worst',
            'no-effect': 'none', 'disordered': 'setback', 'casualty': 'worse', 'stand-deserts': 'worse',
            'moved': 'none', 'charged': 'none', 'retired': 'none', 'changed-formation': 'none', 'unmoved': 'none', 'fired': 'none',
            'redressed': 'good', 'no-redress': 'setback', 'rallied': 'good', 'not-rallied': 'setback', 'inspired': 'none', 'rally': 'none'
        },
        diceLabels: (_model, line) => DICE_LABELS[line.$container.kind] ?? [],
        exclusive: LF_EXCLUSIVE,
        ranges: LF_RANGES
    },
    // L2–L9: disorder points, casualties, stands and command points carry on; routed and fled units are out.
    // Its counters (DPs, casualties, stands lost, CP spent) and their columns: loose-files-counters.ts.
    // A unit that flees the field (L9) is gone, whatever its result.
    // A unit fights one combat a turn (docs/rules/loose-files.md#one-combat-a-turn); it may still fire in the fire phase.
    campaign: {
        counters: LOOSE_FILES_COUNTERS, columns: LOOSE_FILES_COLUMNS,
        outResults: { routed: 'routed', fled: 'fled' }, outFacts: { fled: 'fled' }, fightsOnceATurn: ['engagement']
    },
    codes: { ...LooseFilesCodes, ...LooseFilesHouseCodes },
    // L2, L3, L9: the combat tables and flee thresholds as data (docs/house-rules.md#loose-files).
    tables: LOOSE_FILES_TABLES,
    checkTables: checkLooseFilesTables,
    fixes: {
        [LooseFilesCodes.statValue]: 'stat-value',
        [LooseFilesCodes.classRange]: 'stat-value',
        [LooseFilesCodes.unknownStat]: 'respell-stat',
        [LooseFilesCodes.unknownFact]: 'respell-fact',
        [LooseFilesCodes.unitType]: 'replacements'
    },
    // L0: a turn resolves in the sheet's order of play (fire before command, movement and combat),
    // whatever order its actions are written in; within one step, file order stands.
    orderWithinTurn: (_model, actions) => inOrderOfPlay(actions, a => stepKind(a.node)),
    checkScenario: checkLooseFilesScenario,
    checkAction: checkLooseFilesAction,
    // An action that throws no dice (morale, re-dressing, a command without a move) needs no seed:
    // it is resolved like entered dice, so its outcome never changes with a seed.
    usesEnteredDice: (model, action) => action.node.statements.some(isDice) || throwsNoDice(model, action),
    resolve: resolveLooseFilesAction,
    dicePlan: looseFilesDicePlan,
    odds: looseFilesOddsBody,
    // Its state in the odds of a whole campaign (docs/odds.md#campaign-odds).
    campaignOdds: { outcomeLaw: looseFilesOutcomeLaw }
};
