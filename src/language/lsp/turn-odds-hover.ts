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
    const head = `**turn ${label}**${turn.title ? ` ${turn.title}` : ''}`;
    // A hover is asked for as the pointer passes: it never works out a big campaign on the server's
    // thread (seconds of CPU, every other answer waiting). The Odds view's tab, asked for on purpose, does.
    const actions = model.actions.length;
    if (actions > HOVER_ACTIONS) {
        const open = link ? `[Show the campaign's odds through turn ${label}](${showOddsLink(link.uri, label)})` : `\`umpire odds FILE --campaign --through ${label}\``;
        return `${head}\n\nThis campaign has ${actions} actions: its odds are worked out on request. ${open}`;
    }
    const view = campaignOddsView(model, label);
    if (!view.available) return `${head}\n\nNo campaign odds: ${view.reason}`;
    const lines = view.sides.map(side => `- **${side.force}**: ${sideText(view, side)}`);
    const how = view.method === 'exact' ? 'exact' : `Monte Carlo, ${view.samples} campaigns, ± the standard error`;
    const out = [head, '', `**Campaign odds at the end of this turn** (every action's dice open; ${how}):`, ...lines];
    if (link) out.push('', `[Show the campaign's odds through turn ${label}](${showOddsLink(link.uri, label)})`);
    return out.join('\n');
}

/** The most actions a file may have for a turn's hover to give its campaign odds (a few hundred milliseconds at most). */
export const HOVER_ACTIONS = 60;

function showOddsLink(uri: string, label: string): string {
    return `command:${UmpireCommands.showOdds}?${encodeURIComponent(JSON.stringify([{ uri, campaign: { through: label } }]))}`;
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
