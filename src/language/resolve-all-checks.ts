/**
 * What Resolve all (src/core/resolve-all.ts) needs from the language to verify its outcomes in
 * memory instead of checking the whole written file again (that check, of four times the
 * text, was most of the cost): the checks that read the campaign state, which are the only ones a
 * new outcome can make fail elsewhere in the file (its own lines are the tool's, read back exactly).
 */
import type { ValidationAcceptor } from 'langium';
import type { InMemoryChecks } from '../core/resolve-all.js';
import { checkCampaignOf } from './validation/campaign.js';
import { checkActionInRules } from './validation/action-kind.js';

export function inMemoryChecks(): InMemoryChecks {
    return {
        errorsWith(model) {
            const errors: string[] = [];
            const accept: ValidationAcceptor = (severity, message) => { if (severity === 'error') errors.push(message); };
            checkCampaignOf(model, accept);
            model.ruleset?.checkScenario?.(model, accept);
            for (const action of model.actions) checkActionInRules(model, action.node, accept);
            return errors;
        }
    };
}
