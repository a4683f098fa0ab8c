/**
 * The forces' state as a table: for `umpire status`, the editor's "Show campaign state"
 * command, and a campaign blog (the markdown pastes as is). Columns follow the rule set: its
 * counters as it declares them (`Ruleset.campaign.columns`, src/core/campaign-counters.ts).
 */
import stringWidth from 'string-width';
import { turnLabel, unquote, type ScenarioModel } from './scenario.js';
import { rerolledText } from './outcome-block.js';
import { stateAfterTurn, stateAtEnd, turnsOf } from './campaign-state.js';
import { causeText, lastResultText, statusText } from './status-words.js';
import type { UnitCampaignState } from './unit-campaign-state.js';
import type { StateColumn } from './campaign-counters.js';

export interface StatusTable {
    /** "after turn 1 "Dawn"" or "at the end of the file". */
    when: string;
    header: string[];
    rows: string[][];
}

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
    const header = ['Force', 'Unit', 'Status', 'Last result', ...columns.map(c => c.header), 'Notes'];
    const rows: string[][] = [];
    for (const force of model.forces.values()) {
        for (const unit of force.units) {
            const s = states.get(unit.id);
            if (!s) continue;
            const cells = columns.map(c => c.cell(s.counters, unit));
            const source = s.status !== 'ready' && s.statusCause ? [causeText(s.statusCause)] : [];
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

/** A table cell's text in Markdown: a bar or a line break would end the cell. */
function markdownCell(text: string): string {
    return text.replace(/\\/g, '\\\\').replace(/\|/g, '\\|').replace(/\r?\n/g, ' ');
}

/** A markdown table under a heading, ready to paste into a campaign blog. */
export function statusMarkdown(model: ScenarioModel, table: StatusTable): string {
    const title = model.title !== undefined ? `${model.title} — ` : '';
    const lines = [`### ${markdownCell(title)}state ${table.when}`, ''];
    lines.push(`| ${table.header.join(' | ')} |`);
    lines.push(`| ${table.header.map(() => '---').join(' | ')} |`);
    for (const row of table.rows) {
        lines.push(`| ${row.map((cell, i) => i === 2 && cell !== 'ready' && cell !== 'rallied' ? `**${markdownCell(cell)}**` : markdownCell(cell)).join(' | ')} |`);
    }
    return lines.join('\n');
}

/**
 * Columns padded to line up in a terminal, by the columns each cell takes there (string-width: a
 * name in CJK letters, `騎兵隊`, takes two a letter; an accent none), not by its length in code units.
 */
export function statusPlainLines(table: StatusTable): string[] {
    return plainTableLines(table.header, table.rows);
}

/** Any table as `statusPlainLines` lays out the state: a header, a rule under it, columns two spaces apart. */
export function plainTableLines(header: readonly string[], rows: readonly string[][]): string[] {
    const all = [header, ...rows];
    const widths = header.map((_, i) => Math.max(...all.map(r => stringWidth(r[i]))));
    const pad = (row: readonly string[]) => row.map((c, i) => c + ' '.repeat(widths[i] - stringWidth(c))).join('  ').trimEnd();
    return [pad(header), widths.map(w => '─'.repeat(w)).join('  '), ...rows.map(pad)];
}

/** Any table in Markdown, its cells escaped as the state table's are. */
export function markdownTableLines(header: readonly string[], rows: readonly string[][]): string[] {
    return [`| ${header.map(markdownCell).join(' | ')} |`, `| ${header.map(() => '---').join(' | ')} |`, ...rows.map(row => `| ${row.map(markdownCell).join(' | ')} |`)];
}

/** A sentence as Markdown text: what would read as markup is escaped. */
export function markdownText(text: string): string {
    return text.replace(/([\\`*_[\]<>#])/g, '\\$1');
}

// ─── The words the status table and hovers show ─────────────────────────────────────────────────

/** The columns worth showing: the ones the file's rule set keeps (`Ruleset.campaign.columns`). */
export function stateColumns(model: ScenarioModel): readonly StateColumn[] {
    return model.ruleset?.campaign.columns ?? [];
}

