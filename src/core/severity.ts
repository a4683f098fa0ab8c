/**
 * Where each result of a rule set sits on the one scale of severities (`RESULT_SEVERITIES` in
 * src/protocol.ts), so that the Odds view and the report's charts colour "routed", "rout" and
 * "destroyed" alike, and never green. A rule set maps its results (`vocabulary.resultSeverity`);
 * one that maps none has its ladder spread over the scale from best to worst.
 */
import { RESULT_SEVERITIES, type ResultRank, type ResultSeverity } from '../protocol.js';
import type { Ruleset } from './ruleset.js';

/** The scale without `none`: what a ladder with no map of its own is spread over. */
const LADDER_SCALE = RESULT_SEVERITIES.filter(s => s !== 'none');

/** The severity of `label` under `ruleset`, or undefined when the rule set does not rank it. */
function severityOf(ruleset: Ruleset | undefined, label: string): ResultSeverity | undefined {
    const vocabulary = ruleset?.vocabulary;
    const mapped = vocabulary?.resultSeverity?.[label];
    if (mapped) return mapped;
    const ladder = vocabulary?.resultLadder ?? [];
    if (vocabulary?.resultSeverity || ladder.length === 0) return undefined;
    const step = ladder.findIndex(group => group.includes(label));
    if (step < 0) return undefined;
    const at = ladder.length === 1 ? 0 : Math.round(step * (LADDER_SCALE.length - 1) / (ladder.length - 1));
    return LADDER_SCALE[at];
}

/**
 * The labels of some figures, best to worst, each with its severity: those on the rule set's ladder
 * in its order, then those it maps but does not ladder, from the mildest severity; labels it does not
 * rank are left out.
 */
export function resultRanks(ruleset: Ruleset | undefined, labels: Iterable<string>): ResultRank[] {
    const order = (ruleset?.vocabulary.resultLadder ?? []).flat();
    const ranked: Array<ResultRank & { at: number }> = [];
    for (const label of new Set(labels)) {
        const severity = severityOf(ruleset, label);
        if (!severity) continue;
        const step = order.indexOf(label);
        ranked.push({ label, severity, at: step >= 0 ? step : order.length + RESULT_SEVERITIES.indexOf(severity) });
    }
    return ranked.sort((a, b) => a.at - b.at).map(({ label, severity }) => ({ label, severity }));
}
