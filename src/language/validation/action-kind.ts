/**
 * An action's kind against the file's rule set. The grammar reads as a kind only what some known rule set
 * declares (`Ruleset.kinds`; a word none declares is a syntax error whose "did you mean" offers the kinds
 * declared), so a kind here is always some rule set's: when it is not the file's, the action is not in these
 * rules (`action-not-in-rules`), with the rule sets it belongs to named, and the rule set's own checks, written
 * for its own kinds, do not read it.
 */
import type { ValidationAcceptor } from 'langium';
import type { Action } from '../generated/ast.js';
import { Codes } from '../../core/codes.js';
import { contextOf } from '../../core/model-cache.js';
import type { ScenarioModel } from '../../core/scenario.js';

/** The rule set's checks of one action, once its kind is found to be the rule set's. */
export function checkActionInRules(model: ScenarioModel, action: Action, accept: ValidationAcceptor): void {
    const ruleset = model.ruleset;
    if (!ruleset) return;
    if (ruleset.kinds.includes(action.kind)) {
        ruleset.checkAction(model, action, accept);
        return;
    }
    const owners = contextOf(model.root).rulesets.all().filter(r => r.kinds.includes(action.kind)).map(r => r.title);
    const its = ruleset.kinds.length === 1 ? `its only action is '${ruleset.kinds[0]}'` : `its actions are ${ruleset.kinds.map(k => `'${k}'`).join(', ')}`;
    const belongs = owners.length > 0 ? `: '${action.kind}' belongs to ${owners.join(', ')}` : '';
    accept('error', `${ruleset.title} has no '${action.kind}' action (${its})${belongs}.`, { node: action, property: 'kind', code: Codes.actionNotInRules });
}
