/**
 * What Resolve all (src/core/resolve-all.ts) needs from the language to verify its outcomes in
 * memory instead of checking the whole written file again (issue 19: that check, of four times the
 * text, was most of the cost): the parser's reading of one outcome block, and the checks that read
 * the campaign state, which are the only ones a new outcome can make fail elsewhere in the file.
 */
import type { LangiumCoreServices, ValidationAcceptor } from 'langium';
import type { Outcome } from './generated/ast.js';
import type { InMemoryChecks } from '../core/resolve-all.js';
import { checkCampaignOf } from './validation/campaign.js';

export function inMemoryChecks(services: LangiumCoreServices): InMemoryChecks {
    return {
        parseOutcome(text) {
            const result = services.parser.LangiumParser.parse<Outcome>(text, { rule: 'Outcome' });
            return result.lexerErrors.length === 0 && result.parserErrors.length === 0 ? result.value : undefined;
        },
        errorsWith(model) {
            const errors: string[] = [];
            const accept: ValidationAcceptor = (severity, message) => { if (severity === 'error') errors.push(message); };
            checkCampaignOf(model, accept);
            model.ruleset?.checkScenario?.(model, accept);
            for (const action of model.actions) model.ruleset?.checkAction(model, action.node, accept);
            return errors;
        }
    };
}
