import type { ValidationAcceptor, ValidationChecks } from 'langium';
import type { Action, BattleAstType, Force, Grade, Modifier, Scenario, Seed, Target, Unit } from '../generated/ast.js';
import type { BattleServices } from '../battle-module.js';
import { modelOf } from '../../core/model-cache.js';
import { rulesetPlugin } from '../../core/resolve.js';
import { checkForce, checkGrade, checkModifier, checkOption, checkSeed, checkTarget, checkUniqueNames, checkUnit } from './common.js';
import { checkOutcome } from './outcome.js';
import { checkCampaign } from './campaign.js';
import { checkScrudAction } from '../../rulesets/scrud/scrud-checks.js';
import { checkAncientsAction, checkAncientsScenario } from '../../rulesets/ancients/ancients-checks.js';
import { checkLooseFilesAction, checkLooseFilesScenario } from '../../rulesets/loose-files/loose-files-checks.js';
import { Codes } from './codes.js';
import { checkActionSize, checkDiceLine, checkForceSize, isHalfTyped } from './limits.js';

export function registerValidationChecks(services: BattleServices): void {
    const registry = services.validation.ValidationRegistry;
    const validator = services.validation.BattleValidator;
    const checks: ValidationChecks<BattleAstType> = {
        Scenario: [validator.checkScenario, checkCampaign, checkAncientsScenario, checkLooseFilesScenario],
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

/** Rule-set checks, one file per rule set; each gets the scenario model built once per parse. */
const actionChecks: Record<string, (model: ReturnType<typeof modelOf>, action: Action, accept: ValidationAcceptor) => void> = {
    scrud: checkScrudAction,
    ancients: checkAncientsAction,
    'loose-files': checkLooseFilesAction
};

export class BattleValidator {
    checkScenario(scenario: Scenario, accept: ValidationAcceptor): void {
        checkUniqueNames(scenario, accept);
        if (scenario.rules && !rulesetPlugin(scenario.rules as 'scrud')) {
            accept('error', `The ${scenario.rules} rules are not supported yet: the file is checked, but nothing can be resolved.`, { node: scenario, property: 'rules', code: Codes.rulesNotSupported });
        }
    }

    checkAction(action: Action, accept: ValidationAcceptor): void {
        const model = modelOf(action);
        checkActionSize(action, accept);
        if (isHalfTyped(action)) return;
        actionChecks[model.rules]?.(model, action, accept);
        checkOutcome(model, action, accept);
    }
}

export type { Force, Grade, Modifier, Seed, Target, Unit };
