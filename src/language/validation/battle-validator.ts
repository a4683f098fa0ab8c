import { GrammarUtils, type LangiumSharedCoreServices, type ValidationAcceptor, type ValidationChecks, type ValidationRegistry } from 'langium';
import type { Action, BattleAstType, Scenario } from '../generated/ast.js';
import { contextOf, modelOf } from '../../core/model-cache.js';
import { checkForce, checkFraction, checkGrade, checkModifier, checkOption, checkSeed, checkTarget, checkUniqueNames, checkUnit } from './common.js';
import { checkOutcome } from './outcome.js';
import { checkCampaign } from './campaign.js';
import { checkHouse } from './house-checks.js';
import { Codes } from '../../core/codes.js';
import { checkActionSize, checkDiceLine, checkForceSize, isHalfTyped } from './limit-checks.js';
import { checkImports } from './imports.js';
import { importGraphOf } from '../battle-imports.js';

export function registerValidationChecks(registry: ValidationRegistry, validator: BattleValidator): void {
    const checks: ValidationChecks<BattleAstType> = {
        Scenario: [validator.checkScenario, checkCampaign],
        Force: [checkForce, checkForceSize],
        Dice: checkDiceLine,
        Unit: checkUnit,
        Grade: checkGrade,
        Modifier: checkModifier,
        Target: checkTarget,
        Seed: checkSeed,
        RuleOption: checkOption,
        Action: validator.checkAction,
        House: checkHouse,
        Fact: checkFraction
    };
    registry.register(checks, validator);
}

/**
 * The checks every file gets, and the dispatch to the checks of the file's rule set (its
 * `checkScenario` once per file, its `checkAction` once per action that parsed whole).
 */
export class BattleValidator {
    constructor(private readonly shared?: LangiumSharedCoreServices) {}

    checkScenario(scenario: Scenario, accept: ValidationAcceptor): void {
        checkUniqueNames(scenario, accept);
        if (this.shared) checkImports(scenario, importGraphOf(this.shared), accept);
        const model = modelOf(scenario);
        if (!model.ruleset) {
            const known = contextOf(scenario).rulesets.ids();
            accept('error', `The ${model.rules} rules are not known: the file is checked, but nothing can be resolved. Umpire knows ${known.join(', ')}.`,
                { node: scenario, property: 'rules', code: Codes.rulesNotSupported, data: { replacements: known } });
            return;
        }
        if (scenario.rules === undefined) noteDefaultRules(scenario, model.ruleset.title, accept);
        model.ruleset.checkScenario?.(model, accept);
    }

    checkAction(action: Action, accept: ValidationAcceptor): void {
        const model = modelOf(action);
        checkActionSize(action, accept);
        if (isHalfTyped(action)) return;
        model.ruleset?.checkAction(model, action, accept);
        checkOutcome(model, action, accept);
    }
}

/**
 * A file without a `rules` line is checked as the default rule set: said once, as information (it is
 * not a problem: `umpire check` still exits 0), on the title or the first line, with where the
 * quick fix inserts `rules <id>` (after the title: the grammar wants it there).
 */
function noteDefaultRules(scenario: Scenario, title: string, accept: ValidationAcceptor): void {
    const { rulesets } = contextOf(scenario);
    const ids = rulesets.ids();
    const message = `No 'rules' line: this file is checked as ${title} ('rules ${rulesets.defaultId}'). Add a 'rules' line to say which rules it uses (${ids.join(', ')}).`;
    const code = Codes.rulesDefault;
    const titleNode = scenario.title !== undefined ? GrammarUtils.findNodeForProperty(scenario.$cstNode, 'title') : undefined;
    if (titleNode) {
        accept('info', message, { node: scenario, property: 'title', code, data: { rulesets: ids, insertAt: titleNode.end, after: true } });
        return;
    }
    const first = (scenario.options[0] ?? scenario.elements[0])?.$cstNode;
    if (!first) {
        accept('info', message, { node: scenario, range: { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } }, code, data: { rulesets: ids, insertAt: 0 } });
        return;
    }
    // The first line of the first statement, not the whole of it (a force's block, a turn).
    const lineEnd = first.text.indexOf('\n');
    const end = lineEnd < 0 ? first.range.end : { line: first.range.start.line, character: first.range.start.character + lineEnd };
    accept('info', message, { node: scenario, range: { start: first.range.start, end }, code, data: { rulesets: ids, insertAt: first.offset } });
}
