/**
 * The forces' state as a table: for `umpire status`, the editor's "Show campaign state"
 * command, and a campaign blog (the markdown pastes as is). Columns follow the rule set: SCRUD has
 * the results only; Ancients adds damage tokens and break tests; Loose Files DPs, casualties, stands, CP.
 */
import stringWidth from 'string-width';
import { turnLabel, unquote, type ScenarioModel, type UnitModel } from './scenario.js';
import { rerolledText } from './outcome-block.js';
import { stateAfterTurn, stateAtEnd, turnsOf, type UnitCampaignState } from './campaign-state.js';
import type { StateColumn } from './ruleset.js';

export interface StatusTable {
    /** "after turn 1 "Dawn"" or "at the end of the file". */
    when: string;
    header: string[];
    rows: string[][];
}

const HEADERS = { dp: 'DP', casualties: 'Casualties', stands: 'Stands', tokens: 'Tokens', tested: 'Break test', cp: 'CP spent' } as const;

/** The table at the end of a turn (`at`: its number, name or title), or at the end of the file. */
export function statusTable(model: ScenarioModel, at?: string): StatusTable | { problem: string } {
    let states: ReadonlyMap<string, UnitCampaignState>;
    let when = 'at the end of the file';
    if (at !== undefined) {
        const found = stateAfterTurn(model, at);
        if (!found) return { problem: `there is no turn '${at}' (turns: ${turnNames(model) || 'none'})` };
        states = found.states;
        when = `after turn ${turnLabel(found.turn)}${found.turn.title ? ` "${unquote(found.turn.title)}"` : ''}`;
    } else states = stateAtEnd(model);
    const columns = stateColumns(model);
    const header = ['Force', 'Unit', 'Status', 'Last result', ...columns.map(c => HEADERS[c]), 'Notes'];
    const rows: string[][] = [];
    for (const force of model.forces.values()) {
        for (const unit of force.units) {
            const s = states.get(unit.id);
            if (!s) continue;
            const cells = columns.map(c => c === 'stands' ? standsText(model, unit, s)
                : c === 'tested' ? (s.tested ? 'taken' : '—')
                : c === 'cp' ? String(s.cpSpent) : String(s[c]));
            const source = s.status !== 'ready' && s.statusSource ? [s.statusSource] : [];
            rows.push([force.name, unit.id.slice(force.name.length + 1), statusText(s), lastResultText(s) + rerolls(model, s), ...cells, [...source, ...s.notes].join('; ')]);
        }
    }
    return { when, header, rows };
}

/** The last result's action re-rolled: ", re-rolled twice" after its result, so that every re-roll shows. */
function rerolls(model: ScenarioModel, state: UnitCampaignState): string {
    const name = state.lastResult?.action;
    const action = name === undefined ? undefined : model.actions.find(a => a.node.name === name);
    return rerolledText(action?.node.outcome?.reroll);
}

function turnNames(model: ScenarioModel): string {
    return turnsOf(model).map(t => turnLabel(t)).join(', ');
}

function escapeCell(text: string): string {
    return text.replace(/\\/g, '\\\\').replace(/\|/g, '\\|').replace(/\r?\n/g, ' ');
}

/** A markdown table under a heading, ready to paste into a campaign blog. */
export function statusMarkdown(model: ScenarioModel, table: StatusTable): string {
    const title = model.title !== undefined ? `${model.title} — ` : '';
    const lines = [`### ${escapeCell(title)}state ${table.when}`, ''];
    lines.push(`| ${table.header.join(' | ')} |`);
    lines.push(`| ${table.header.map(() => '---').join(' | ')} |`);
    for (const row of table.rows) {
        lines.push(`| ${row.map((cell, i) => i === 2 && cell !== 'ready' && cell !== 'rallied' ? `**${escapeCell(cell)}**` : escapeCell(cell)).join(' | ')} |`);
    }
    return lines.join('\n');
}

/**
 * Columns padded to line up in a terminal, by the columns each cell takes there (string-width: a
 * name in CJK letters, `騎兵隊`, takes two a letter; an accent none), not by its length in code units.
 */
export function statusPlainLines(table: StatusTable): string[] {
    const all = [table.header, ...table.rows];
    const widths = table.header.map((_, i) => Math.max(...all.map(r => stringWidth(r[i]))));
    const pad = (row: string[]) => row.map((c, i) => c + ' '.repeat(widths[i] - stringWidth(c))).join('  ').trimEnd();
    return [pad(table.header), widths.map(w => '─'.repeat(w)).join('  '), ...table.rows.map(pad)];
}

// ─── The words the status table and hovers show ─────────────────────────────────────────────────

/** The columns worth showing: the ones the file's rule set keeps (`Ruleset.campaign.columns`). */
export function stateColumns(model: ScenarioModel): readonly StateColumn[] {
    return model.ruleset?.campaign.columns ?? [];
}

export function statusText(state: UnitCampaignState): string {
    return state.status === 'ready' ? (state.statusSource?.startsWith('rallied') ? 'rallied' : 'ready') : state.status;
}

export function lastResultText(state: UnitCampaignState): string {
    const r = state.lastResult;
    if (!r) return '—';
    return `${r.result} (${r.action}${r.turn ? `, turn ${r.turn}` : ''}${r.settled ? ', not written yet' : ''})`;
}

/**
 * The stands a unit has left, as text: "3 of 4", or "—" when it has no `stands` stat. Net of
 * casualties too when the rule set counts a casualty as a stand (`casualtiesAreStands`).
 */
export function standsText(model: ScenarioModel, unit: UnitModel, state: UnitCampaignState): string {
    const stands = unit.stats.get('stands');
    const lost = state.standsLost + (model.ruleset?.campaign.casualtiesAreStands ? state.casualties : 0);
    return typeof stands === 'number' ? `${Math.max(0, stands - lost)} of ${stands}` : (lost > 0 ? `−${lost}` : '—');
}
