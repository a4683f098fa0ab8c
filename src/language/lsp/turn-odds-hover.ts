/**
 * The hover on a `turn`: the campaign's odds at the end of that turn, every action's dice open
 * (docs/odds.md#campaign-odds), per side its chance of at least one loss of each kind and the losses
 * it can expect; where the editor runs the Odds view, a link to its Campaign tab through that turn.
 */
import type { Turn } from '../generated/ast.js';
import { turnLabel, type ScenarioModel } from '../../core/scenario.js';
import { UmpireCommands, type CampaignOddsView } from '../../protocol.js';
import { campaignOddsView } from './campaign-odds-request.js';

const percent = (p: number) => `${(100 * p).toFixed(p > 0 && p < 0.001 ? 2 : 1)}%`;

/** Markdown for a hover on `turn`; `uri` and `showOdds` give the link to the Odds view, where the client has it. */
export function turnOddsHover(model: ScenarioModel, turn: Turn, link?: { uri: string }): string {
    const label = turnLabel(turn)!;
    const view = campaignOddsView(model, label);
    const head = `**turn ${label}**${turn.title ? ` ${turn.title}` : ''}`;
    if (!view.available) return `${head}\n\nNo campaign odds: ${view.reason}`;
    const lines = view.sides.map(side => `- **${side.force}**: ${sideText(view, side)}`);
    const how = view.method === 'exact' ? 'exact' : `Monte Carlo, ${view.samples} campaigns, ± the standard error`;
    const out = [head, '', `**Campaign odds at the end of this turn** (every action's dice open; ${how}):`, ...lines];
    if (link) {
        const args = encodeURIComponent(JSON.stringify([{ uri: link.uri, campaign: { through: label } }]));
        out.push('', `[Show the campaign's odds through turn ${label}](command:${UmpireCommands.showOdds}?${args})`);
    }
    return out.join('\n');
}

/** "at least one destroyed 36.5% · 0.37 destroyed expected", or that nothing is lost. */
function sideText(view: CampaignOddsView, side: CampaignOddsView['sides'][number]): string {
    const se = view.method === 'monte-carlo' ? side.se : undefined;
    const parts = Object.entries(side.atLeastOne).filter(([, p]) => p > 0).map(([status, p]) => {
        const error = se ? ` ±${(100 * (se.atLeastOne[status] ?? 0)).toFixed(1)}` : '';
        return `at least one ${status} ${percent(p)}${error} · ${(side.losses[status]?.mean ?? 0).toFixed(2)} ${status} expected`;
    });
    return parts.length > 0 ? parts.join('; ') : 'no unit out of the fight';
}
