/**
 * A written outcome checked line by line against its replay (docs/campaigns.md#altered): the block's
 * summary and each unit line, read as the parser reads them, compared with what the outcome's own
 * dice give from the action as it stands. Only an outcome whose fingerprint still matches is compared:
 * then the inputs are those it was written from, so any difference is an edit of the record itself,
 * not a change of the fight (that is `outcome-stale`). Pure over the parse tree and the resolution.
 */
import type { AstNode } from 'langium';
import type { Outcome, OutcomeLine } from '../language/generated/ast.js';
import { formatOutcomeLine } from './outcome-block.js';
import type { OutcomeLineText, Resolution } from './resolution.js';
import { factValue, targetText, unquote } from './scenario.js';

/** The first place where a written block differs from its replay. */
export interface Alteration {
    /** The node to report at: the outcome line, or the outcome itself (its summary, or a line missing). */
    readonly node: AstNode;
    readonly property?: 'summary';
    /** What the file says there, and what the replay gives ('' for a line that should not be there). */
    readonly written: string;
    readonly replay: string;
}

/** A written line as text, in the form the writer gives it (`mod +1` and `mod 1` read the same). */
function writtenLine(line: OutcomeLine): string {
    const text: OutcomeLineText = {
        unit: targetText(line.unit), result: line.result ?? '',
        facts: line.facts.map(f => [f.key ?? '', factValue(f)] as [string, number | string | true]),
        opponent: line.opponent ? targetText(line.opponent) : undefined
    };
    return formatOutcomeLine(text);
}

/** The first difference between a written outcome and its replay, or undefined when they agree. */
export function firstAlteration(outcome: Outcome, replay: Resolution): Alteration | undefined {
    const summary = outcome.summary === undefined ? undefined : unquote(outcome.summary);
    if (summary !== replay.json.summary) {
        return { node: outcome, property: summary === undefined ? undefined : 'summary', written: summary === undefined ? '' : `summary ${JSON.stringify(summary)}`, replay: `summary ${JSON.stringify(replay.json.summary)}` };
    }
    const count = Math.max(outcome.lines.length, replay.lines.length);
    for (let i = 0; i < count; i++) {
        const line = outcome.lines[i];
        const expected = replay.lines[i] ? formatOutcomeLine(replay.lines[i]) : '';
        const written = line ? writtenLine(line) : '';
        if (written !== expected) return { node: line ?? outcome, written, replay: expected };
    }
    return undefined;
}
