/**
 * The Odds panel's Campaign tab: where each unit stands at the end of a turn or of the file over every
 * way the campaign's dice can fall (`umpire.campaignOdds`, docs/odds.md#campaign-odds). Per side, the
 * chance of at least one loss of each kind and the expected losses; per unit, a bar of its end
 * states, in the colours of their severities, and each counter (tokens, DPs, casualties, stands) as a
 * distribution: its mean and spread, and the chance of each count. A sampled campaign gives every
 * figure with its standard error. A "Through" picker asks for the end of another turn.
 */
import stringWidth from 'string-width';
import { RESULT_SEVERITIES, type CampaignCountLaw, type CampaignOddsAnswer, type CampaignOddsView, type CampaignSideChances, type CampaignUnitChances } from '../protocol.js';
import { escapeHtml, oddsPage, percent, StyleSheet, tabBar, type OddsScript } from './odds-html.js';

/** Builds the Campaign tab's page (the same frame, style sheet and script as the actions' page). */
export function renderCampaignHtml(answer: CampaignOddsAnswer | undefined, options: { nonce: string, title: string, script?: OddsScript }): string {
    const shown = answer?.available === true ? answer : undefined;
    const styles = new StyleSheet(shown?.statuses ?? [], shown?.statuses.map(s => s.label) ?? []);
    const body = !answer ? '<p class="why">No campaign odds: the language server did not answer.</p>'
        : !shown ? `<p class="why">No campaign odds: ${escapeHtml(answer.available === false ? answer.reason : '')}</p>`
            : campaignBody(shown, styles);
    const head = [options.script ? tabBar('campaign') : '', shown ? `${throughPicker(shown)}\n${statusLegend(shown, styles)}` : ''].join('\n');
    return oddsPage(options, answer ?? null, styles.text(), `<header class="page-head">\n${head}</header>\n${body}`);
}

/** The statuses some unit can end in (ready always), best to worst. */
function statusesShown(view: CampaignOddsView): string[] {
    return view.statuses.map(s => s.label).filter(l => l === 'ready' || view.units.some(u => (u.status[l] ?? 0) > 0));
}

function throughPicker(view: CampaignOddsView): string {
    const options = [`<option value=""${view.through === null ? ' selected' : ''}>the end of the file</option>`,
        ...view.turns.map(t => `<option value="${escapeHtml(t.label)}"${t.label === view.through ? ' selected' : ''}>turn ${escapeHtml(t.label)}${t.title ? ` ${escapeHtml(t.title)}` : ''}</option>`)];
    return `<div class="toolbar"><label class="toggle">Through <select data-through aria-label="The campaign's odds through the end of">${options.join('')}</select></label></div>`;
}

function statusLegend(view: CampaignOddsView, styles: StyleSheet): string {
    const keys = statusesShown(view).map(l => {
        const severity = styles.severity(l);
        return `<li class="key" title="${escapeHtml(l)}${severity ? `: severity ${RESULT_SEVERITIES.indexOf(severity) + 1} of ${RESULT_SEVERITIES.length}` : ''}"><span class="swatch ${styles.colour(l)}" aria-hidden="true"></span>${escapeHtml(l)}</li>`;
    });
    return `<ul class="legend" aria-label="Colours of the end states, best to worst">${keys.join('')}</ul>\n`;
}

/** "exact, over 192 joint states at most" or "Monte Carlo: 2,000 campaigns, seed 1; ± is the standard error". */
function methodText(view: CampaignOddsView): string {
    return view.method === 'exact' ? `exact, over ${view.states.toLocaleString('en')} joint state${view.states === 1 ? '' : 's'} at most`
        : `Monte Carlo: ${(view.samples ?? 0).toLocaleString('en')} campaigns, seed ${view.seed ?? 1}; ±N is the standard error of a figure`;
}

function campaignBody(view: CampaignOddsView, styles: StyleSheet): string {
    const at = view.through === null ? 'at the end of the file' : `at the end of turn ${escapeHtml(view.through)}`;
    const forces = [...new Set(view.units.map(u => u.force))];
    const notes = view.notes.map(n => `<p class="why">${escapeHtml(n)}</p>`).join('');
    const sides = forces.map(force => sideSection(force, view.sides.find(s => s.force === force), view.units.filter(u => u.force === force), statusesShown(view), styles, view.method)).join('\n');
    return `<section>
<h2>Campaign ${at} <small>${escapeHtml(view.rules)} · every action's dice open · ${escapeHtml(methodText(view))}</small></h2>
${notes}
<div class="campaign-tables">
${sides}
</div>
${actionsFought(view)}
</section>`;
}

/** A chance, with its standard error when the campaign was sampled: `41.7% ±0.8`. */
function chance(p: number, se: number | undefined): string {
    return se === undefined ? percent(p) : `${percent(p)} <span class="se">±${(100 * se).toFixed(1)}</span>`;
}

function sideSection(force: string, side: CampaignSideChances | undefined, units: CampaignUnitChances[], statuses: string[], styles: StyleSheet, method: CampaignOddsView['method']): string {
    const losses = side ? Object.keys(side.atLeastOne).map(status => {
        const n = side.losses[status];
        const se = method === 'monte-carlo' ? side.se : undefined;
        return `at least one ${escapeHtml(status)}: <b>${chance(side.atLeastOne[status], se?.atLeastOne[status])}</b>`
            + (n ? ` · ${escapeHtml(status)}: mean <b>${n.mean.toFixed(2)}</b>${se ? ` <span class="se">±${se.losses[status].toFixed(2)}</span>` : ''}, sd ${n.sd.toFixed(2)} units` : '');
    }).join('<br>') : '';
    const rows = units.map(u => unitRow(u, statuses, styles)).join('\n');
    return `<h3>${escapeHtml(force)}</h3>
${losses ? `<p class="side">${losses}</p>` : ''}
<table class="campaign ${styles.namesTake(Math.max(4, ...units.map(u => stringWidth(u.unit))))}">
<thead><tr><th>Unit</th><th>End state</th><th>Counters</th></tr></thead>
<tbody>
${rows}
</tbody>
</table>`;
}

function unitRow(u: CampaignUnitChances, statuses: string[], styles: StyleSheet): string {
    const held = statuses.filter(l => (u.status[l] ?? 0) > 0);
    const segments = held.map(l => {
        const p = u.status[l];
        return `<span class="seg ${styles.colour(l)} ${styles.width(p)}" title="${escapeHtml(l)} ${percent(p)}" aria-hidden="true"><span class="seg-name ${styles.nameFits(l)}">${escapeHtml(l)} </span><span class="seg-figure">${percent(p)}</span></span>`;
    }).join('');
    const figures = held.map(l => `${escapeHtml(l)} ${chance(u.status[l], u.se?.status[l])}`).join(' · ');
    const counters = Object.entries(u.counters).map(([name, law]) => counterText(name, law));
    if (u.tested !== undefined) counters.push(`<span class="count">tested <b>${chance(u.tested, u.se?.tested)}</b></span>`);
    return `<tr><td class="unit" title="${escapeHtml(u.id)}">${escapeHtml(u.unit)}</td><td class="results"><div class="bar" role="img" aria-label="${escapeHtml(`${u.id}: ${held.map(l => `${l} ${percent(u.status[l])}`).join(', ')}`)}">${segments}</div><div class="figures">${figures}</div></td><td class="counters">${counters.join('') || '—'}</td></tr>`;
}

/**
 * A counter as a distribution: its mean and standard deviation, then the chance of each count (the
 * counts past the fourth added up as `4+`, the mean's standard error when sampled).
 */
function counterText(name: string, law: CampaignCountLaw): string {
    const se = law.se ? ` <span class="se">±${law.se.mean.toFixed(2)}</span>` : '';
    const shownCounts = law.law.slice(0, 4).map((p, k) => `${k}: ${percent(p)}`);
    const rest = law.law.slice(4).reduce((s, p) => s + p, 0);
    if (rest > 0) shownCounts.push(`4+: ${percent(rest)}`);
    return `<span class="count">${escapeHtml(name)} mean <b>${law.mean.toFixed(2)}</b>${se}, sd ${law.sd.toFixed(2)}</span><span class="count-law">${shownCounts.join(' · ')}</span>`;
}

/** The actions that are not always fought as written (a unit of theirs already out), and how often they are. */
function actionsFought(view: CampaignOddsView): string {
    const items = view.actions.filter(a => a.fought < 1 - 1e-12)
        .map(a => `<li>${escapeHtml(a.kind)} ${escapeHtml(a.name)}${a.turn ? ` (turn ${escapeHtml(a.turn)})` : ''} is fought as written <b>${percent(a.fought)}</b> of the time</li>`);
    return items.length === 0 ? '' : `<h3>Actions not always fought</h3>\n<ul class="fought">${items.join('')}</ul>`;
}
