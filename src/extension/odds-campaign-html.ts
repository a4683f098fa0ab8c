/**
 * The Odds panel's Campaign tab: where each unit stands at the end of a turn or of the file over every
 * way the campaign's dice can fall (`umpire.campaignOdds`, docs/odds.md#campaign-odds). Per side, the
 * chance of at least one loss of each kind and the expected losses; per unit, a bar of its end
 * states, in the colours of their severities, and each counter (tokens, DPs, casualties, stands) as a
 * distribution: its mean and spread, and the chance of each count. A sampled campaign gives every
 * figure with its standard error. A "Through" picker asks for the end of another turn. Its "What if…"
 * box asks for the campaign under a changed set-up (docs/odds.md#campaign-what-if): what-ifs of the
 * engagement picked, each unit's grade, the options, any other change, and the house rules of another
 * file; the page then shows each unit's and side's figures as written and changed, and the difference.
 */
import stringWidth from 'string-width';
import { RESULT_SEVERITIES, type CampaignCountLaw, type CampaignDifferenceView, type CampaignOddsAnswer, type CampaignOddsView, type CampaignSideChances, type CampaignUnitChances, type CampaignWhatIf } from '../protocol.js';
import { escapeHtml, oddsPage, percent, StyleSheet, tabBar, whatIfGroups, type OddsScript } from './odds-html.js';
import { signedPoints } from './odds-table.js';

/** A file whose house rules the Campaign tab can put in place of this file's own. */
export interface HouseFileChoice {
    uri: string;
    /** As the umpire knows it: its path in the workspace. */
    name: string;
}

export interface CampaignPageOptions {
    nonce: string;
    title: string;
    script?: OddsScript;
    /** The other .battle files of the workspace, for the house rules picker. */
    houseFiles?: readonly HouseFileChoice[];
    /** The one picked, when one is. */
    house?: string;
}

/** Builds the Campaign tab's page (the same frame, style sheet and script as the actions' page). */
export function renderCampaignHtml(answer: CampaignOddsAnswer | undefined, options: CampaignPageOptions): string {
    const shown = answer?.available === true ? answer : undefined;
    const after = shown?.whatIf?.after;
    const statuses = [...shown?.statuses ?? [], ...(after?.statuses ?? []).filter(s => !shown?.statuses.some(t => t.label === s.label))];
    const styles = new StyleSheet(statuses, statuses.map(s => s.label));
    const body = !answer ? '<p class="why">No campaign odds: the language server did not answer.</p>'
        : !shown ? `<p class="why">No campaign odds: ${escapeHtml(answer.available === false ? answer.reason : '')}</p>`
            : campaignBody(shown, styles, options);
    const head = [options.script ? tabBar('campaign') : '', shown ? `${throughPicker(shown)}\n${statusLegend(shown, styles)}` : ''].join('\n');
    return oddsPage(options, answer ?? null, styles.text(), `<header class="page-head">\n${head}</header>\n${body}`);
}

/** The statuses some unit can end in (ready always), best to worst. */
function statusesShown(view: CampaignOddsView): string[] {
    const units = view.units.concat(view.whatIf?.after?.units ?? []);
    const labels = [...new Set([...view.statuses, ...view.whatIf?.after?.statuses ?? []].map(s => s.label))];
    return labels.filter(l => l === 'ready' || units.some(u => (u.status[l] ?? 0) > 0));
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

function campaignBody(view: CampaignOddsView, styles: StyleSheet, options: CampaignPageOptions): string {
    const at = view.through === null ? 'at the end of the file' : `at the end of turn ${escapeHtml(view.through)}`;
    const forces = [...new Set(view.units.map(u => u.force))];
    const notes = view.notes.map(n => `<p class="why">${escapeHtml(n)}</p>`).join('');
    const whatIf = view.whatIf;
    const after = whatIf?.after;
    const statuses = statusesShown(view);
    const sides = forces.map(force => sideSection(force, view.sides.find(s => s.force === force), view.units.filter(u => u.force === force), statuses, styles, view.method,
        after ? { side: after.sides.find(s => s.force === force), units: new Map(after.units.map(u => [u.id, u])), method: after.method } : undefined)).join('\n');
    // The what-if box needs the page's script, as the actions' toggles do.
    const box = options.script && view.whatIfChoices ? campaignWhatIfBox(view, options) : '';
    const problem = whatIf?.problem ? `<p class="whatif-problem" role="alert">No what-if campaign: ${escapeHtml(whatIf.problem)}</p>` : '';
    const changeNotes = (whatIf?.notes ?? []).map(n => `<p class="why">${escapeHtml(n)}</p>`).join('');
    const compared = after && whatIf?.difference ? `${campaignChange(view, whatIf, whatIf.difference, statuses, styles)}
<p class="compare-key"><span class="bar-name">as written</span> the campaign as the file has it · <span class="bar-name what-if">what if</span> ${escapeHtml(whatIf.label)}${after.method !== view.method || after.states !== view.states ? ` (${escapeHtml(methodText(after))})` : ''}</p>\n` : '';
    return `<section>
<h2>Campaign ${at} <small>${escapeHtml(view.rules)} · every action's dice open · ${escapeHtml(methodText(view))}</small></h2>
${notes}${box}${problem}${changeNotes}
<div class="campaign-tables">
${compared}${sides}
</div>
${actionsFought(view)}
</section>`;
}

/**
 * The Campaign tab's "What if…" box: the engagement a change of one action's lines is made to (its
 * factors, modifiers and facts offered once it is picked), each unit's grade and the options (the
 * actions' page's toggles), any other change, and the house rules of another file of the workspace.
 */
function campaignWhatIfBox(view: CampaignOddsView, options: CampaignPageOptions): string {
    const choices = view.whatIfChoices!;
    const on = view.whatIf?.changes ?? [];
    const engagement = choices.engagement ?? '';
    const engagements = [`<option value=""${engagement === '' ? ' selected' : ''}>none (changes of the whole file)</option>`,
        ...choices.engagements.map(e => `<option value="${escapeHtml(e)}"${e === engagement ? ' selected' : ''}>${escapeHtml(e)}</option>`)];
    const house = options.house ?? '';
    const files = options.houseFiles ?? [];
    const houses = [`<option value=""${house === '' ? ' selected' : ''}>this file's own</option>`,
        ...files.map(f => `<option value="${escapeHtml(f.uri)}"${f.uri === house ? ' selected' : ''}>${escapeHtml(f.name)}</option>`)];
    const isOn = on.length > 0 || house !== '';
    const picking = `<div class="whatif-group"><span class="group-name">Engagement</span><span class="items"><label class="toggle"><select data-campaign-engagement aria-label="The engagement a change of one action's lines is made to">${engagements.join('')}</select></label></span></div>
`;
    const houseRules = `<div class="whatif-group"><span class="group-name">House rules</span><span class="items"><label class="toggle"><select data-campaign-house aria-label="House rules: this file's own, or those of another file">${houses.join('')}</select></label></span></div>
`;
    return `<details class="whatif campaign-whatif" open${isOn ? ' data-whatif-on' : ''}>
<summary>What if…</summary>
${picking}${houseRules}${whatIfGroups(choices.choices, on, isOn)}</details>
`;
}

/** A difference: chances in signed percentage points, counters and losses in signed units, with the standard error when sampled. */
function pointsText(d: number | undefined, se: number | undefined): string {
    return `${signedPoints(d ?? 0)}${se !== undefined && se > 0 ? ` ±${(100 * se).toFixed(1)}` : ''}`;
}

function unitsText(d: number | undefined, se: number | undefined): string {
    const x = d ?? 0;
    const shown = Math.abs(x).toFixed(2);
    const signed = Math.abs(x) < 5e-11 ? '0' : `${x > 0 ? '+' : '−'}${Number(shown) === 0 ? '<0.01' : shown}`;
    return `${signed}${se !== undefined && se > 0 ? ` ±${se.toFixed(2)}` : ''}`;
}

/**
 * The change the what-if makes, as `umpire odds --campaign --what-if` prints it: per side the chance
 * of at least one loss of each kind and the losses; per unit each end state, each counter's mean and
 * each flag (a break test taken); how often each action is fought, where that changes.
 */
function campaignChange(view: CampaignOddsView, whatIf: CampaignWhatIf, diff: CampaignDifferenceView, statuses: readonly string[], styles: StyleSheet): string {
    const cell = (text: string, named: string) => `<td class="delta" data-label="${escapeHtml(named)}">${escapeHtml(text)}</td>`;
    const shownStatuses = statuses.filter(s => s === 'ready' || diff.units.some(u => Math.abs(u.status[s] ?? 0) > 5e-11));
    const counters = [...new Set(diff.units.flatMap(u => Object.keys(u.counters)))];
    const flags = [...new Set(diff.units.flatMap(u => Object.keys(u.flags)))];
    const unitHeads = [...shownStatuses, ...counters.map(c => `${c} (mean)`), ...flags];
    const width = (names: readonly string[], heads: readonly string[]) => Math.ceil(1.2 * Math.max(4, ...names.map(n => n.length))) + 2 + heads.reduce((sum, h) => sum + Math.max(h.length, 8) + 2, 0);
    const unitRows = diff.units.map(u => `<tr><td class="unit" title="${escapeHtml(u.id)}">${escapeHtml(u.id)}</td>${[
        ...shownStatuses.map(s => pointsText(u.status[s], u.se?.status[s])),
        ...counters.map(c => unitsText(u.counters[c], u.se?.counters[c])),
        ...flags.map(f => pointsText(u.flags[f], u.se?.flags[f]))
    ].map((t, i) => cell(t, unitHeads[i])).join('')}</tr>`);
    const kinds = [...new Set(diff.sides.flatMap(s => Object.keys(s.atLeastOne)))];
    const sideHeads = [...kinds.map(k => `P(≥1 ${k})`), ...kinds.map(k => `${k} (mean)`)];
    const sideRows = diff.sides.map(s => `<tr><td class="unit">${escapeHtml(s.force)}</td>${[
        ...kinds.map(k => pointsText(s.atLeastOne[k], s.se?.atLeastOne[k])),
        ...kinds.map(k => unitsText(s.losses[k], s.se?.losses[k]))
    ].map((t, i) => cell(t, sideHeads[i])).join('')}</tr>`);
    const table = (first: string, names: readonly string[], heads: readonly string[], rows: readonly string[]) => rows.length === 0 ? '' : `<div class="change-place ${styles.stacksBelow(width(names, heads))}">
<table class="change">
<thead><tr><th>${first}</th>${heads.map(h => `<th class="delta">${escapeHtml(h)}</th>`).join('')}</tr></thead>
<tbody>
${rows.join('\n')}
</tbody>
</table>
</div>`;
    const fought = diff.actions.filter(a => Math.abs(a.fought) > 5e-11)
        .map(a => `<li>${escapeHtml(a.kind)} ${escapeHtml(a.name)} is fought as written <b>${escapeHtml(signedPoints(a.fought))}</b> ${a.fought > 0 ? 'more' : 'less'} often</li>`);
    const when = view.through === null ? 'at the end of the file' : `at the end of turn ${escapeHtml(view.through)}`;
    return `<div class="whatif-change">
<h3>Change: ${escapeHtml(whatIf.label)}, minus as written, ${when}</h3>
${table('Side', diff.sides.map(s => s.force), sideHeads, sideRows)}
${table('Unit', diff.units.map(u => u.id), unitHeads, unitRows)}
${fought.length > 0 ? `<ul class="fought">${fought.join('')}</ul>` : ''}
</div>
`;
}

/** A chance, with its standard error when the campaign was sampled: `41.7% ±0.8`. */
function chance(p: number, se: number | undefined): string {
    return se === undefined ? percent(p) : `${percent(p)} <span class="se">±${(100 * se).toFixed(1)}</span>`;
}

/** The changed campaign's figures of one side, beside those as written. */
interface SideAfter {
    side: CampaignSideChances | undefined;
    units: ReadonlyMap<string, CampaignUnitChances>;
    method: CampaignOddsView['method'];
}

/** `36.5% → 32.1% (−4.4 pp)`: a chance as written, changed, and the change. */
function moved(was: number, now: number | undefined): string {
    return now === undefined ? `<b>${percent(was)}</b> → —`
        : `<b>${percent(was)}</b> → <b>${percent(now)}</b> <span class="change-figure">(${escapeHtml(signedPoints(now - was))})</span>`;
}

function sideSection(force: string, side: CampaignSideChances | undefined, units: CampaignUnitChances[], statuses: string[], styles: StyleSheet, method: CampaignOddsView['method'], after?: SideAfter): string {
    const lossesOf = (s: CampaignSideChances | undefined, how: CampaignOddsView['method']) => s ? Object.keys(s.atLeastOne).map(status => {
        const n = s.losses[status];
        const se = how === 'monte-carlo' ? s.se : undefined;
        return `at least one ${escapeHtml(status)}: <b>${chance(s.atLeastOne[status], se?.atLeastOne[status])}</b>`
            + (n ? ` · ${escapeHtml(status)}: mean <b>${n.mean.toFixed(2)}</b>${se ? ` <span class="se">±${se.losses[status].toFixed(2)}</span>` : ''}, sd ${n.sd.toFixed(2)} units` : '');
    }).join('<br>') : '';
    let losses = lossesOf(side, method);
    if (after && side) {
        // Both set-ups, each chance as written → changed (the change): the difference table has them signed.
        const then = after.side;
        losses = Object.keys(side.atLeastOne).map(status => `at least one ${escapeHtml(status)}: ${moved(side.atLeastOne[status], then?.atLeastOne[status])}`
            + (side.losses[status] ? ` · ${escapeHtml(status)}: mean <b>${side.losses[status].mean.toFixed(2)}</b> → <b>${then?.losses[status]?.mean.toFixed(2) ?? '—'}</b>` : '')).join('<br>');
    }
    const rows = units.map(u => unitRow(u, statuses, styles, after ? after.units.get(u.id) ?? null : undefined)).join('\n');
    return `<h3>${escapeHtml(force)}</h3>
${losses ? `<p class="side">${losses}</p>` : ''}
<table class="campaign ${styles.namesTake(Math.max(4, ...units.map(u => stringWidth(u.unit))))}">
<thead><tr><th>Unit</th><th>End state</th><th>Counters</th></tr></thead>
<tbody>
${rows}
</tbody>
</table>`;
}

function statusBar(u: CampaignUnitChances, statuses: readonly string[], styles: StyleSheet, extra = ''): string {
    const held = statuses.filter(l => (u.status[l] ?? 0) > 0);
    const segments = held.map(l => {
        const p = u.status[l];
        return `<span class="seg ${styles.colour(l)} ${styles.width(p)}" title="${escapeHtml(l)} ${percent(p)}" aria-hidden="true"><span class="seg-name ${styles.nameFits(l)}">${escapeHtml(l)} </span><span class="seg-figure">${percent(p)}</span></span>`;
    }).join('');
    return `<div class="bar${extra}" role="img" aria-label="${escapeHtml(`${u.id}${extra ? ', what if' : ''}: ${held.map(l => `${l} ${percent(u.status[l])}`).join(', ')}`)}">${segments}</div>`;
}

/**
 * One unit's row. With a what-if (`after`: the unit's chances then, null when the changed set-up has
 * no such unit), its two bars one above the other and each figure as `as written → what if (change)`.
 */
function unitRow(u: CampaignUnitChances, statuses: string[], styles: StyleSheet, after?: CampaignUnitChances | null): string {
    const name = `<td class="unit" title="${escapeHtml(u.id)}">${escapeHtml(u.unit)}</td>`;
    if (after === undefined) {
        const held = statuses.filter(l => (u.status[l] ?? 0) > 0);
        const figures = held.map(l => `${escapeHtml(l)} ${chance(u.status[l], u.se?.status[l])}`).join(' · ');
        const counters = Object.entries(u.counters).map(([n, law]) => counterText(n, law));
        if (u.tested !== undefined) counters.push(`<span class="count">tested <b>${chance(u.tested, u.se?.tested)}</b></span>`);
        return `<tr>${name}<td class="results">${statusBar(u, statuses, styles)}<div class="figures">${figures}</div></td><td class="counters">${counters.join('') || '—'}</td></tr>`;
    }
    const held = statuses.filter(l => (u.status[l] ?? 0) > 0 || (after?.status[l] ?? 0) > 0);
    const figures = held.map(l => `${escapeHtml(l)} ${moved(u.status[l] ?? 0, after ? after.status[l] ?? 0 : undefined)}`).join(' · ');
    const counters = Object.entries(u.counters).map(([n, law]) => {
        const then = after?.counters[n];
        return `<span class="count">${escapeHtml(n)} mean <b>${law.mean.toFixed(2)}</b> → <b>${then ? then.mean.toFixed(2) : '—'}</b>, sd ${law.sd.toFixed(2)} → ${then ? then.sd.toFixed(2) : '—'}</span>`;
    });
    if (u.tested !== undefined) counters.push(`<span class="count">tested ${moved(u.tested, after ? after.tested ?? 0 : undefined)}</span>`);
    const second = after ? statusBar(after, statuses, styles, ' what-if-bar') : '<div class="why">not in the changed set-up</div>';
    return `<tr>${name}<td class="results"><div class="pair"><span class="bar-name">as written</span>${statusBar(u, statuses, styles)}</div><div class="pair"><span class="bar-name what-if">what if</span>${second}</div><div class="figures">${figures}</div></td><td class="counters">${counters.join('') || '—'}</td></tr>`;
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
