/**
 * A written outcome must still match its engagement: the fingerprint it recorded is compared with
 * one computed from the engagement as it stands, with the dice the outcome says it used (else it is
 * stale); and while it matches, every line of the block must be what those dice give (else it was
 * altered by hand: docs/campaigns.md#altered).
 */
import type { ValidationAcceptor } from 'langium';
import { isOutcomeLine, type Action, type Target } from '../generated/ast.js';
import type { ScenarioModel } from '../../core/scenario.js';
import { outcomeStatus } from '../../core/resolve.js';
import { actionModelOf } from '../../core/model-cache.js';
import { Codes } from '../../core/codes.js';
import type { Alteration } from '../../core/outcome-verify.js';

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
        case 'altered':
            reportAltered(action, status.alteration, accept);
            return;
        case 'stale':
            accept('warning', `This outcome no longer matches engagement '${action.name}': its units, factors, dice or house rules, or the state carried from earlier outcomes, changed after it was written. Resolve it again.`,
                { ...where, code: Codes.outcomeStale });
            return;
    }
}

/** An error at the first line that differs, saying what the replay gives; the quick fix restores the block. */
function reportAltered(action: Action, alteration: Alteration, accept: ValidationAcceptor): void {
    // A line naming a unit the file does not have already has its error (unknown-reference): one mistake, one message.
    if (isOutcomeLine(alteration.node) && [alteration.node.unit, alteration.node.opponent].some(unlinked)) return;
    const what = alteration.written === ''
        ? `The outcome of '${action.name}' lacks a line its dice give: '${alteration.replay}'.`
        : alteration.replay === ''
            ? `This line is not in what the dice of '${action.name}' give: '${alteration.written}'.`
            : `This line says '${alteration.written}', but the dice of '${action.name}' give '${alteration.replay}'.`;
    accept('error', `${what} A written outcome is the record: restore it as it was written (quick fix), or overrule the dice with a 'ruling' line after the ${action.kind}.`, {
        node: alteration.node, ...(alteration.property ? { property: alteration.property } : alteration.node === action.outcome ? { keyword: 'outcome' as const } : {}),
        code: Codes.outcomeAltered
    });
}

function unlinked(target: Target | undefined): boolean {
    return target !== undefined && (target.force?.ref === undefined || (target.unit !== undefined && target.unit.ref === undefined));
}
