/**
 * A written outcome must still match its engagement: the fingerprint it recorded is compared with
 * one computed from the engagement as it stands, with the dice the outcome says it used.
 */
import type { ValidationAcceptor } from 'langium';
import type { Action } from '../generated/ast.js';
import type { ScenarioModel } from '../../core/scenario.js';
import { outcomeStatus } from '../../core/resolve.js';
import { actionModelOf } from '../../core/model-cache.js';
import { Codes } from '../../core/codes.js';

export function checkOutcome(model: ScenarioModel, action: Action, accept: ValidationAcceptor): void {
    const outcome = action.outcome;
    // Most actions have no outcome yet: no index of the actions is made for them.
    if (!outcome) return;
    const actionModel = actionModelOf(model, action);
    if (!actionModel) return;
    const status = outcomeStatus(model, actionModel);
    const where = { node: outcome, keyword: 'outcome' as const };
    switch (status.kind) {
        case 'dice-changed':
            accept('warning', status.enteredNow
                ? 'This outcome was thrown from a seed, but the engagement now has dice entered from the table: resolve it again.'
                : 'This outcome used dice entered from the table, which are no longer there: resolve it again.',
            { ...where, code: Codes.outcomeStale });
            return;
        case 'seed-changed':
            accept('warning', `This outcome was thrown from seed ${status.recorded}, but engagement '${action.name}' now says 'seed ${status.own}': resolve it again.`,
                { ...where, code: Codes.outcomeStale });
            return;
        case 'unresolvable':
            accept('warning', `This outcome can no longer be worked out: ${status.problem} Fix the engagement, then resolve it again.`,
                { ...where, code: Codes.outcomeUnresolvable });
            return;
        case 'stale':
            accept('warning', `This outcome no longer matches engagement '${action.name}': its units, factors, dice or house rules, or the state carried from earlier outcomes, changed after it was written. Resolve it again.`,
                { ...where, code: Codes.outcomeStale });
            return;
    }
}
