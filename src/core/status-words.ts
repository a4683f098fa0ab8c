/**
 * The words a unit's campaign state is said in (the status table, hovers and checks): its status, what
 * set it, its last result. Apart from the table so that the checks that quote them load no table code
 * (string-width makes an `Intl.Segmenter` when it loads, about 20 ms of a small check).
 */
import type { StatusCause, UnitCampaignState } from './unit-campaign-state.js';

export function statusText(state: UnitCampaignState): string {
    return state.status === 'ready' ? (state.statusCause?.what === 'rallied' ? 'rallied' : 'ready') : state.status;
}

/** What set a status, as the table, hovers and checks say it: "routed in engagement Ridge (turn 1)", "rallied by ruling". */
export function causeText(cause: StatusCause): string {
    if (cause.action) return `${cause.what} in ${cause.action.kind} ${cause.action.name}${cause.action.turn !== undefined ? ` (turn ${cause.action.turn})` : ''}`;
    return `${cause.what} ${cause.line === 'ruling' ? 'by ruling' : 'by hand'}`;
}

export function lastResultText(state: UnitCampaignState): string {
    const r = state.lastResult;
    if (!r) return '—';
    return `${r.result} (${r.action}${r.turn ? `, turn ${r.turn}` : ''}${r.settled ? ', not written yet' : ''})`;
}
