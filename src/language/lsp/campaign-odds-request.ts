/**
 * `umpire.campaignOdds`: the odds of the whole campaign through a turn, for the Odds view's Campaign
 * tab and the hover on a turn. The figures are those of `umpire odds --campaign` (campaignOdds,
 * src/core/campaign-odds.ts), every action's dice open; each action's own odds are left out, the tab
 * showing where the units stand at the end, not how each fight goes.
 */
import type { LangiumSharedServices } from 'langium/lsp';
import type { CancellationToken } from 'vscode-languageserver';
import { campaignOdds, type CampaignOddsReport } from '../../core/campaign-odds.js';
import { turnsOf } from '../../core/campaign-state.js';
import { modelOf } from '../../core/model-cache.js';
import { isUnresolvable } from '../../core/resolve.js';
import { turnLabel, unquote, type ScenarioModel } from '../../core/scenario.js';
import { resultRanks } from '../../core/severity.js';
import { RESULT_SEVERITIES, type CampaignOddsAnswer, type ResultRank, type ResultSeverity } from '../../protocol.js';
import { validatedDocument } from './validated-document.js';

/**
 * Where a unit's end status sits on the scale of severities, where its rule set does not rank it as
 * a result: ready is good, a rout (which a unit may rally from) bad, fled worse, destroyed the worst.
 */
const STATUS_SEVERITIES: Readonly<Record<string, ResultSeverity>> = { ready: 'good', routed: 'bad', fled: 'worse', destroyed: 'worst' };

/** The campaign's odds of one file, computed once per model and turn: a hover asks again as the pointer moves. */
const computed = new WeakMap<ScenarioModel, Map<string, CampaignOddsAnswer>>();

export async function campaignOddsCommand(shared: LangiumSharedServices, arg: unknown, token?: CancellationToken): Promise<CampaignOddsAnswer> {
    const a = (arg ?? {}) as { uri?: unknown, through?: unknown };
    if (typeof a.uri !== 'string') return { available: false, reason: 'umpire.campaignOdds needs [{ uri, through? }]: run it from an open .battle file.' };
    if (a.through !== undefined && typeof a.through !== 'string' && typeof a.through !== 'number') return { available: false, reason: "'through' is a turn's number, name or title." };
    const document = await validatedDocument(shared, a.uri, token);
    if (typeof document === 'string') return { available: false, reason: document };
    const through = a.through === undefined ? undefined : String(a.through);
    return shared.workspace.WorkspaceLock.read(() => campaignOddsView(modelOf(document.parseResult.value), through));
}

/** The Campaign tab's figures of `model` through the turn `through` (the end of the file without it). */
export function campaignOddsView(model: ScenarioModel, through?: string): CampaignOddsAnswer {
    let byTurn = computed.get(model);
    if (!byTurn) computed.set(model, byTurn = new Map());
    const key = through ?? '';
    let answer = byTurn.get(key);
    if (!answer) byTurn.set(key, answer = viewOf(model, through));
    return answer;
}

function viewOf(model: ScenarioModel, through: string | undefined): CampaignOddsAnswer {
    const report = campaignOdds(model, through === undefined ? {} : { through });
    if (isUnresolvable(report)) return { available: false, reason: report.problem };
    const turns = turnsOf(model).map(t => ({ label: turnLabel(t)!, ...(t.title ? { title: unquote(t.title) } : {}) }));
    return {
        available: true, rules: report.rules, through: report.through, method: report.method,
        ...(report.samples !== undefined ? { samples: report.samples, seed: report.seed } : {}),
        states: report.states, turns,
        actions: report.actions.map(x => ({ name: x.name, kind: x.kind, turn: x.turn, open: x.open, fought: x.fought })),
        units: report.units, sides: report.sides, statuses: statusRanks(model, report), notes: report.notes
    };
}

/** Each status the figures name, best to worst: the rule set's own severity of it where it has one. */
function statusRanks(model: ScenarioModel, report: CampaignOddsReport): ResultRank[] {
    const labels = [...new Set(report.units.flatMap(u => Object.keys(u.status)))];
    const ruled = new Map(resultRanks(model.ruleset, labels).map(r => [r.label, r.severity]));
    return labels
        .map(label => ({ label, severity: ruled.get(label) ?? STATUS_SEVERITIES[label] ?? 'none' }))
        .sort((x, y) => RESULT_SEVERITIES.indexOf(x.severity) - RESULT_SEVERITIES.indexOf(y.severity));
}
