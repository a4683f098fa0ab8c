/**
 * `umpire odds FILE --campaign`: the odds of the whole campaign (docs/odds.md#campaign-odds), and with
 * `--what-if` or `--house` the campaign under a changed set-up beside it as written, and the difference
 * (docs/odds.md#campaign-what-if).
 */
import { modelOf } from '../core/model-cache.js';
import { campaignOdds, type CampaignOddsReport, type CountLaw } from '../core/campaign-odds.js';
import { isUnresolvable } from '../core/resolve.js';
import type { OddsReport } from '../protocol.js';
import { campaignDifference, swapHouseRules, type CampaignDifference } from '../report/campaign-compare.js';
import { madeStep, parseWhatIf, type WhatIfStep } from '../report/what-if.js';
import { CliError, formatDiagnostic, hasErrors, inFileOrder, loadFile, loadText, toStderr } from './load.js';
import { loadChecked, onDisk, percent, printOdds, signed, table, type OddsCliOptions } from './odds-command.js';
import { selectActions } from './resolve-command.js';

/** The version of the campaign odds' JSON shape (docs/json.md#campaign-odds). */
const CAMPAIGN_ODDS_SCHEMA = 1;

export async function campaignOddsCommand(file: string, options: OddsCliOptions, out: (line: string) => void, err: (line: string) => void = toStderr): Promise<number> {
    const loaded = await loadChecked(file, err);
    if ((options.whatIf?.length ?? 0) > 0 || options.house !== undefined) return compareCommand(file, loaded.text, options, out, err);
    if (options.engagement !== undefined) throw new CliError('--campaign asks about the whole file: --engagement goes with --what-if, the action the change is made to');
    const report = campaignOdds(modelOf(loaded.document.parseResult.value), options);
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

function printCampaign(report: CampaignOddsReport, out: (line: string) => void): void {
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
    // A rule set's flags (a break test taken) are the unit's own chances, beside its status and counters.
    const flags = Object.keys(report.units[0] ?? {}).filter(k => typeof report.units[0][k] === 'number');
    const head = ['unit', ...statuses, ...counters.map(c => `${c} (mean ± sd)`), ...flags];
    table([head, ...report.units.map(u => [
        u.id, ...statuses.map(s => chance(u.status[s] ?? 0, u.se?.status[s])),
        ...counters.map(c => meanSd(u.counters[c])),
        ...flags.map(f => chance(Number(u[f] ?? 0), u.se?.[f] as number | undefined))
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

/** The version of the campaign comparison's JSON shape (docs/json.md#campaign-what-if). */
const CAMPAIGN_COMPARE_SCHEMA = 1;

/**
 * The campaign as written and changed: the other file's house rules put in first, then each what-if
 * made on the text the previous change left (a change of one action's lines made to `--engagement`).
 */
async function compareCommand(file: string, text: string, options: OddsCliOptions, out: (line: string) => void, err: (line: string) => void): Promise<number> {
    let edited = text;
    const steps: WhatIfStep[] = [];
    const notes: string[] = [];
    const changes: string[] = [];
    if (options.house !== undefined) {
        const other = await loadFile(options.house);
        if (hasErrors(other.diagnostics)) {
            for (const d of inFileOrder(other.diagnostics).filter(x => (x.severity ?? 1) === 1)) err(formatDiagnostic(options.house, d));
            throw new CliError(`${options.house}: fix the errors above before comparing its house rules`, 1);
        }
        const swap = swapHouseRules(modelOf((await loadText(file, text)).document.parseResult.value), text, modelOf(other.document.parseResult.value), options.house);
        if ('problem' in swap) throw new CliError(`--house ${options.house}: ${swap.problem}`);
        for (const from of swap.imported) notes.push(`The house rules imported from ${from} still apply, before those of ${options.house}.`);
        steps.push(swap.step);
        edited = swap.text;
        changes.push(`with ${swap.step.change}`);
    }
    for (const change of options.whatIf ?? []) {
        const parsed = parseWhatIf(change);
        if ('problem' in parsed) throw new CliError(parsed.problem);
        const model = modelOf((await loadText(file, edited)).document.parseResult.value);
        const action = options.engagement === undefined ? undefined : selectActions(model, options.engagement, file)[0];
        const made = madeStep(model, action, parsed, change, edited);
        if ('problem' in made) throw new CliError(`${file}: what if ${change}: ${made.problem}`, 1);
        steps.push(made.step);
        edited = made.text;
        changes.push(`what if ${change}`);
    }
    const label = changes.join('; ');
    const odds = async (source: string, shown: string): Promise<CampaignOddsReport> => {
        const loaded = await loadText(file, source);
        if (hasErrors(loaded.diagnostics)) {
            for (const d of inFileOrder(loaded.diagnostics).filter(x => (x.severity ?? 1) === 1)) err(onDisk(d, source, source === text ? [] : steps, file, shown));
            throw new CliError(`${file}: the set-up ${shown} has the errors above`, 1);
        }
        const report = campaignOdds(modelOf(loaded.document.parseResult.value), options);
        if (isUnresolvable(report)) throw new CliError(`${file} (${shown}): ${report.problem}`, 1);
        return report;
    };
    const before = await odds(text, 'as written');
    const after = await odds(edited, label);
    const difference = campaignDifference(before, after);
    if (options.json) {
        out(JSON.stringify({
            schema: CAMPAIGN_COMPARE_SCHEMA, file, rules: before.rules, through: before.through,
            whatIf: options.whatIf ?? [], house: options.house ?? null, engagement: options.engagement ?? null,
            before, after, difference, notes
        }, null, 2));
        return 0;
    }
    out('As written:');
    printCampaign(before, out);
    out(`${label[0].toUpperCase()}${label.slice(1)}:`);
    printCampaign(after, out);
    printDifference(before, difference, label, out);
    for (const n of notes) out(`  note: ${n}`);
    return 0;
}

/** A difference in percentage points (or, with `scale` 1, in units), with its standard error when sampled. */
function delta(d: number, se: number | undefined, scale: number, digits: number): string {
    return signed(scale * d, digits) + (se === undefined ? '' : ` ±${(scale * se).toFixed(digits)}`);
}

function printDifference(before: CampaignOddsReport, diff: CampaignDifference, label: string, out: (line: string) => void): void {
    const when = before.through === null ? 'at the end of the file' : `after turn ${before.through}`;
    out(`Difference (${label} minus as written), ${when}; chances in percentage points:`);
    const changed = diff.actions.filter(a => Math.abs(a.fought) > 5e-11);
    if (changed.length > 0) table([['action', 'fought'], ...changed.map(a => [`${a.kind} ${a.name}`, delta(a.fought, undefined, 100, 1)])], out);
    const statuses = ['ready', 'routed', 'destroyed', 'fled'].filter(s => s === 'ready' || diff.units.some(u => Math.abs(u.status[s] ?? 0) > 5e-11));
    const counters = [...new Set(diff.units.flatMap(u => Object.keys(u.counters)))];
    const flags = [...new Set(diff.units.flatMap(u => Object.keys(u.flags)))];
    table([['unit', ...statuses, ...counters.map(c => `${c} (mean)`), ...flags], ...diff.units.map(u => [
        u.id, ...statuses.map(s => delta(u.status[s] ?? 0, u.se?.status[s], 100, 1)),
        ...counters.map(c => delta(u.counters[c] ?? 0, u.se?.counters[c], 1, 2)),
        ...flags.map(f => delta(u.flags[f] ?? 0, u.se?.flags[f], 100, 1))
    ])], out);
    const kinds = [...new Set(diff.sides.flatMap(s => Object.keys(s.atLeastOne)))];
    if (kinds.length > 0) {
        out('  per side:');
        table([['side', ...kinds.map(k => `P(≥1 ${k})`), ...kinds.map(k => `${k} (mean)`)], ...diff.sides.map(s => [
            s.force, ...kinds.map(k => delta(s.atLeastOne[k] ?? 0, s.se?.atLeastOne[k], 100, 1)),
            ...kinds.map(k => delta(s.losses[k] ?? 0, s.se?.losses[k], 1, 2))
        ])], out);
    }
    out('');
}
