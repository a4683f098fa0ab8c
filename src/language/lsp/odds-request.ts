/**
 * The `umpire.odds` command's answer and the odds line of an engagement's hover, both from the exact
 * odds engine (`oddsForAction`, src/core/odds.ts). Where the engine has no odds, they say why:
 * the editor never shows made-up numbers.
 */
import { interruptAndCheck } from 'langium';
import { CancellationToken } from 'vscode-languageserver';
import type { ActionModel, ScenarioModel } from '../../core/scenario.js';
import { oddsForAction } from '../../core/odds.js';
import type { OddsAnswer, OddsReport, OddsUnavailable } from '../../protocol.js';
import { isUnresolvable } from '../../core/resolve.js';

export async function oddsCommand(model: ScenarioModel, action: string | undefined, cancelToken: CancellationToken = CancellationToken.None): Promise<OddsAnswer> {
    if (action === undefined) {
        // A campaign has dozens of actions: between two, a cancelled request stops (and the server
        // reads its messages, among them the cancellation itself).
        const actions: Array<OddsReport | OddsUnavailable> = [];
        for (const a of model.actions) {
            await interruptAndCheck(cancelToken);
            actions.push(oddsOf(model, a));
        }
        return { actions };
    }
    const found = model.actions.find(a => a.node.name === action);
    if (!found) return { available: false, action, reason: `There is no action named '${action}' in this file.` };
    await interruptAndCheck(cancelToken);
    return oddsOf(model, found);
}

function oddsOf(model: ScenarioModel, action: ActionModel): OddsReport | OddsUnavailable {
    const report = oddsForAction(model, action);
    return isUnresolvable(report) ? { available: false, action: action.node.name, reason: report.problem } : report;
}

const percent = (p: number) => `${(100 * p).toFixed(p > 0 && p < 0.001 ? 2 : 1)}%`;

/**
 * Per side, the results it can expect (expected numbers of units) and any joint chance the engine
 * gives (`at least one rout`): a few lines under the engagement's breakdown.
 */
export function oddsSummary(model: ScenarioModel, action: ActionModel): string | undefined {
    const report = oddsForAction(model, action);
    if (isUnresolvable(report)) return undefined;
    const lines = report.sides.map(side => {
        const expected = Object.entries(side.expected)
            .filter(([, n]) => n >= 0.05)
            .map(([label, n]) => `${n.toFixed(1)} ${label}`)
            .join(', ');
        const joint = Object.entries(side.atLeastOne).map(([label, p]) => `at least one ${label}: ${percent(p)}`).join(', ');
        return `- **${side.force}** expects ${expected || 'no result'}${joint ? ` · ${joint}` : ''}`;
    });
    const notes = report.notes.map(n => `- ${n}`);
    return ['**Odds** (exact, before the dice):', ...lines, ...notes].join('\n');
}
