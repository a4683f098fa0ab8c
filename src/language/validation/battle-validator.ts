import type { LangiumSharedCoreServices, ValidationAcceptor, ValidationChecks, ValidationRegistry } from 'langium';
import type { Action, BattleAstType, Scenario } from '../generated/ast.js';
import { contextOf, modelOf } from '../../core/model-cache.js';
import { checkForce, checkGrade, checkModifier, checkOption, checkSeed, checkTarget, checkUniqueNames, checkUnit } from './common.js';
import { checkOutcome } from './outcome.js';
import { checkCampaign } from './campaign.js';
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
        Action: validator.checkAction
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
