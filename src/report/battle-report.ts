/**
 * A battle report (docs/reports.md): what the file records, gathered once, whatever the
 * rule set. The forces, each fought action's set-up, dice, pair-by-pair results and summary (replayed
 * from the written outcome through src/core/resolve.ts), the exact odds faced beforehand
 * (src/core/odds.ts) and how lucky the written result was (./luck.ts), the campaign's odds over every
 * way its dice can fall (src/core/campaign-odds.ts) and the campaign state after (src/core/status-table.ts). Rendering is separate (./render.ts): this is plain data.
 */
import type { OddsReport, ResultRank } from '../protocol.js';
import type { Stat } from '../language/generated/ast.js';
import { resultRanks } from '../core/severity.js';
import { oddsForAction } from '../core/odds.js';
import { campaignOdds, type CampaignOddsReport } from '../core/campaign-odds.js';
import { rerolledText } from '../core/outcome-block.js';
import { isUnresolvable, outcomeStatus, replayOutcome, type OutcomeStatus } from '../core/resolve.js';
import type { Unresolvable } from '../core/resolution.js';
import { statusTable, type StatusTable } from '../core/status-table.js';
import { turnLabel, unquote, type ActionModel, type ScenarioModel } from '../core/scenario.js';
import { measuredLuck, sideLuck, type SideLuck, type UnitLuck } from './luck.js';
import { seasonLuck, type SeasonLuck } from './season-luck.js';

interface ForceRow {
    force: string;
    unit: string;
    arm: string;
    /** The grade's name and value as written (`Guard (+2)`, `Thureophoroi`), or "—". */
    grade: string;
    /** The unit's stats as written: its grade's, then its own (which win over the grade's), or "—". */
    stats: string;
}

export interface ActionReport {
    name: string;
    kind: string;
    /** "1 "The ford"", or undefined outside turns. */
    turn: string | undefined;
    /** The action's statements as written (sides, factors, dice, seed), without the outcome. */
    setup: string;
    /** "seed 6", "dice entered at the table", or why there is no written outcome. */
    dice: string;
    /** Whether the written outcome still follows from the file (see `outcomeStatus`). */
    record: OutcomeStatus['kind'];
    /** The resolution step by step: its text when current, else the outcome lines as written. */
    lines: string[];
    summary: string | undefined;
    odds: OddsReport | { problem: string };
    /** The labels of the odds best to worst, with their severities (the charts' colours). */
    results: ResultRank[];
    luck: UnitLuck[];
    sides: SideLuck[];
}

export interface BattleReport {
    title: string;
    rules: string;
    forces: ForceRow[];
    actions: ActionReport[];
    /** Per side over every action reported: the campaign's luck (`umpire report --luck`). */
    luck: SideLuck[];
    /** Per side, the written dice of the actions reported ranked among every way they could have fallen. */
    season: SeasonLuck | Unresolvable;
    /**
     * Where each unit stands at the end of the turn reported (or of the file) over every way the
     * campaign's dice can fall; only for a report of more than one action, where the campaign is the question.
     */
    campaign?: CampaignOddsReport | { problem: string };
    state: StatusTable | { problem: string };
}

export interface ReportOptions {
    /** Only the actions of this turn (its number, name or title), and the state after it. */
    turn?: string;
    /** Only the action with this name. */
    engagement?: string;
}

/** Every unit with its arm, grade and stats, as written. */
function forceRows(model: ScenarioModel): ForceRow[] {
    const rows: ForceRow[] = [];
    for (const force of model.forces.values()) {
        for (const u of force.units) {
            const grade = u.grade;
            const value = grade?.value !== undefined ? grade.$cstNode?.text.match(/^grade\s+\S+\s+([^\s{]+)/)?.[1] : undefined;
            rows.push({
                force: force.name, unit: u.id.slice(force.name.length + 1), arm: u.arm,
                grade: grade ? `${grade.name}${value !== undefined ? ` (${value})` : ''}` : '—',
                stats: statsText([...grade?.stats ?? [], ...u.node.stats]) || '—'
            });
        }
    }
    return rows;
}

/** Stats as written (`die d4`, `size large`), a later one of the same key in the place of the earlier. */
function statsText(stats: readonly Stat[]): string {
    const byKey = new Map<string, string>();
    for (const s of stats) byKey.set(s.key, (s.$cstNode?.text ?? s.key).replace(/\s+/g, ' '));
    return [...byKey.values()].join(', ');
}

function turnText(action: ActionModel): string | undefined {
    const label = turnLabel(action.turn);
    if (label === undefined) return undefined;
    return action.turn?.title ? `${label} "${unquote(action.turn.title)}"` : label;
}

function matchesTurn(action: ActionModel, turn: string): boolean {
    const t = action.turn;
    return t !== undefined && (turnLabel(t) === turn || (t.title !== undefined && unquote(t.title) === turn));
}

/** One action: its set-up, its record, its odds and the luck of what was written. */
export function actionReport(model: ScenarioModel, action: ActionModel): ActionReport {
    const node = action.node;
    const setup = node.statements.map(s => s.$cstNode?.text ?? '').filter(t => t.length > 0).join('\n');
    const outcome = node.outcome;
    const status = outcomeStatus(model, action);
    let lines: string[] = [];
    let dice = 'not yet fought: no written outcome';
    if (outcome) {
        dice = outcome.entered ? 'dice entered at the table' : `seed ${outcome.seed ?? 0}${rerolledText(outcome.reroll)}`;
        const replay = status.kind === 'current' ? replayOutcome(model, action) : undefined;
        lines = replay && !isUnresolvable(replay) ? replay.resolution.text : outcome.lines.map(l => l.$cstNode?.text ?? '');
    }
    const odds = oddsForAction(model, action);
    const results = isUnresolvable(odds) ? [] : resultRanks(model.ruleset, odds.units.flatMap(u => Object.keys(u.probabilities)));
    const luck = measuredLuck(model, action, odds);
    return {
        name: node.name, kind: node.kind, turn: turnText(action), setup, dice,
        record: status.kind, lines, summary: outcome?.summary !== undefined ? unquote(outcome.summary) : undefined,
        odds, results, luck: luck.map(({ probabilities: _p, ...u }) => u), sides: sideLuck(luck)
    };
}

/** The whole report, or a problem (an unknown turn or engagement) in umpire words. */
export function battleReport(model: ScenarioModel, options: ReportOptions = {}): BattleReport | { problem: string } {
    let actions = [...model.actions];
    if (options.turn !== undefined) actions = actions.filter(a => matchesTurn(a, options.turn!));
    if (options.engagement !== undefined) {
        const named = model.actions.filter(a => a.node.name === options.engagement);
        if (named.length === 0) return { problem: `no engagement named '${options.engagement}' (there are: ${model.actions.map(a => a.node.name).join(', ') || 'none'})` };
        actions = actions.filter(a => named.includes(a));
    }
    const state = statusTable(model, options.turn);
    if (options.turn !== undefined && 'problem' in state) return state;
    const reports = actions.map(a => actionReport(model, a));
    // The campaign's luck: every measured unit result of the actions reported, per side.
    const all = reports.flatMap(r => r.sides);
    const luck = new Map<string, SideLuck>();
    for (const s of all) {
        const t = luck.get(s.force);
        if (!t) { luck.set(s.force, { ...s, expected: { ...s.expected }, actual: { ...s.actual } }); continue; }
        t.meanPercentile = (t.meanPercentile * t.units + s.meanPercentile * s.units) / (t.units + s.units);
        t.units += s.units;
        for (const [k, v] of Object.entries(s.expected)) t.expected[k] = (t.expected[k] ?? 0) + v;
        for (const [k, v] of Object.entries(s.actual)) t.actual[k] = (t.actual[k] ?? 0) + v;
    }
    const campaign = options.engagement === undefined && actions.length > 1 ? campaignOdds(model, options.turn === undefined ? {} : { through: options.turn }) : undefined;
    return {
        title: model.title ?? 'Battle report', rules: model.ruleset?.title ?? model.rules,
        forces: forceRows(model), actions: reports, luck: [...luck.values()], season: seasonLuck(model, actions), ...(campaign ? { campaign } : {}), state
    };
}
