/**
 * `umpire odds FILE --campaign`: the odds of a whole campaign (docs/odds.md#campaign-odds) as a text
 * table or JSON (docs/json.md#campaign-odds). The figures come from src/core/campaign-odds.ts.
 */
import { campaignOdds, type CampaignOddsOptions, type CampaignOddsReport, type CountLaw } from '../core/campaign-odds.js';
import type { ScenarioModel } from '../core/scenario.js';
import { isUnresolvable } from '../core/resolve.js';
import type { OddsReport } from '../protocol.js';
import { CliError } from './load.js';
import { percent, printOdds, table } from './odds-command.js';

/** The version of the campaign odds' JSON shape (docs/json.md#campaign-odds). */
export const CAMPAIGN_ODDS_SCHEMA = 1;

export function campaignOddsCommand(file: string, model: ScenarioModel, options: CampaignOddsOptions & { json?: boolean }, out: (line: string) => void): number {
    const report = campaignOdds(model, options);
    if (isUnresolvable(report)) throw new CliError(`${file}: ${report.problem}`, 1);
    if (options.json) out(JSON.stringify({ schema: CAMPAIGN_ODDS_SCHEMA, file, ...report }, null, 2));
    else printCampaign(report, out);
    return 0;
}

/** A chance, with its standard error beside it when the campaign was sampled. */
function chance(p: number, se: number | undefined): string {
    return se === undefined ? percent(p) : `${percent(p)} ±${(100 * se).toFixed(1)}`;
}

function meanSd(law: CountLaw): string {
    const se = law.se ? ` (±${law.se.mean.toFixed(2)})` : '';
    return `${law.mean.toFixed(2)} ± ${law.sd.toFixed(2)}${se}`;
}

export function printCampaign(report: CampaignOddsReport, out: (line: string) => void): void {
    const when = report.through === null ? 'at the end of the file' : `after turn ${report.through}`;
    const how = report.method === 'exact'
        ? `exact, over ${report.states} joint state${report.states === 1 ? '' : 's'} at most`
        : `Monte Carlo, ${report.samples} campaigns from seed ${report.seed}; ± one standard error`;
    out(`Campaign odds ${when} (${report.fromRecord ? 'the record kept: only actions not decided yet are open' : 'every action\'s dice open'}; ${how})`);
    out('');
    table([['action', 'turn', 'dice', 'fought', 'starts'], ...report.actions.map(a => [
        `${a.kind} ${a.name}`, a.turn ?? '—', a.open ? 'open' : 'record', percent(a.fought), String(a.starts)
    ])], out);
    for (const a of report.actions) {
        const absent = Object.entries(a.outOfTheFight);
        if (absent.length > 0) out(`  ${a.name} cannot be fought as written when ${absent.map(([id, p]) => `${id} is out of the fight (${percent(p)})`).join(', ')}`);
    }
    out('');
    for (const a of report.actions) {
        if (!a.odds) continue;
        const title = `${a.kind} ${a.name}${a.turn ? ` (turn ${a.turn})` : ''}: campaign odds${a.fought < 1 ? `, when it is fought (${percent(a.fought)})` : ''}`;
        printOdds(a.odds, out, { title, se: a.oddsSe as OddsReport | undefined });
    }
    printUnits(report, out);
    printSides(report, out);
    for (const n of report.notes) out(`  note: ${n}`);
}

function printUnits(report: CampaignOddsReport, out: (line: string) => void): void {
    out(`Units ${report.through === null ? 'at the end of the file' : `after turn ${report.through}`}:`);
    const statuses = ['ready', 'routed', 'destroyed', 'fled'].filter(s => s === 'ready' || report.units.some(u => (u.status[s] ?? 0) > 1e-12));
    const counters = Object.keys(report.units[0]?.counters ?? {});
    const tested = report.units.some(u => u.tested !== undefined);
    const head = ['unit', ...statuses, ...counters.map(c => `${c} (mean ± sd)`), ...(tested ? ['tested'] : [])];
    table([head, ...report.units.map(u => [
        u.id, ...statuses.map(s => chance(u.status[s] ?? 0, u.se?.status[s])),
        ...counters.map(c => meanSd(u.counters[c])),
        ...(tested ? [chance(u.tested ?? 0, u.se?.tested)] : [])
    ])], out);
    for (const u of report.units) {
        for (const c of counters) {
            const law = u.counters[c];
            if (law.law.length <= 1) continue;
            const cells = law.law.map((p, k) => (p > 1e-12 ? `${k} ${chance(p, law.se?.law[k])}` : '')).filter(Boolean);
            out(`  ${u.id} ${c}: ${cells.join(', ')}`);
        }
    }
    out('');
}

function printSides(report: CampaignOddsReport, out: (line: string) => void): void {
    const kinds = Object.keys(report.sides[0]?.atLeastOne ?? {});
    if (kinds.length === 0) return;
    out('  per side (chance of at least one unit out of the fight; units out: mean ± sd):');
    table([['side', ...kinds.map(k => `P(≥1 ${k})`), ...kinds.map(k => `${k} (mean ± sd)`)], ...report.sides.map(s => [
        s.force, ...kinds.map(k => chance(s.atLeastOne[k], s.se?.atLeastOne[k])),
        ...kinds.map(k => `${s.losses[k].mean.toFixed(2)} ± ${s.losses[k].sd.toFixed(2)}${s.se ? ` (±${s.se.losses[k].toFixed(2)})` : ''}`)
    ])], out);
    out('');
}
