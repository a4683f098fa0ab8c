/**
 * `umpire.campaignOdds`: the odds of the whole campaign through a turn, for the Odds view's Campaign
 * tab and the hover on a turn. The figures are those of `umpire odds --campaign` (campaignOdds,
 * src/core/campaign-odds.ts), every action's dice open; each action's own odds are left out, the tab
 * showing where the units stand at the end, not how each fight goes. With what-ifs or another file's
 * house rules (docs/odds.md#campaign-what-if), the campaign under the changed set-up too, and the
 * difference: the figures of `umpire odds --campaign --what-if … --house …`, made the same way (the
 * other file's house rules first, then each what-if on the text the previous change left, the changed
 * text checked in a private workspace), a problem of the changed set-up told at the file's own lines.
 */
import { OperationCancelled, URI } from 'langium';
import type { LangiumSharedServices } from 'langium/lsp';
import type { CancellationToken } from 'vscode-languageserver';
import { campaignOdds, type CampaignOddsReport } from '../../core/campaign-odds.js';
import { turnsOf } from '../../core/campaign-state.js';
import { modelOf } from '../../core/model-cache.js';
import { oddsForAction } from '../../core/odds.js';
import { isUnresolvable } from '../../core/resolve.js';
import type { CheckedText } from '../../core/resolve-all.js';
import { turnLabel, unquote, type ScenarioModel } from '../../core/scenario.js';
import { resultRanks } from '../../core/severity.js';
import { RESULT_SEVERITIES, type CampaignOddsAnswer, type CampaignOddsView, type CampaignWhatIf, type CampaignWhatIfChoices, type ResultRank, type ResultSeverity, type WhatIfError } from '../../protocol.js';
import { campaignDifference, swapHouseRules } from '../../report/campaign-compare.js';
import { madeStep, parseWhatIf, placeOnDisk, type WhatIfStep } from '../../report/what-if.js';
import { importGraphOf } from '../battle-imports.js';
import type { TextChecker } from '../text-checker.js';
import { actionChoices, fileChoices, whereOnDisk } from './odds-request.js';
import { validatedDocument } from './validated-document.js';

/**
 * Where a unit's end status sits on the scale of severities, where its rule set does not rank it as
 * a result: ready is good, a rout (which a unit may rally from) bad, fled worse, destroyed the worst.
 */
const STATUS_SEVERITIES: Readonly<Record<string, ResultSeverity>> = { ready: 'good', routed: 'bad', fled: 'worse', destroyed: 'worst' };

/** The campaign's odds of one file, computed once per model and turn: a hover asks again as the pointer moves. */
const computed = new WeakMap<ScenarioModel, Map<string, Computed>>();

interface Computed {
    answer: CampaignOddsAnswer;
    report?: CampaignOddsReport;
}

export async function campaignOddsCommand(shared: LangiumSharedServices, arg: unknown, token?: CancellationToken, checker?: TextChecker): Promise<CampaignOddsAnswer> {
    const a = (arg ?? {}) as { uri?: unknown, through?: unknown, whatIf?: unknown, engagement?: unknown, house?: unknown, houseText?: unknown };
    if (typeof a.uri !== 'string') return { available: false, reason: 'umpire.campaignOdds needs [{ uri, through? }]: run it from an open .battle file.' };
    if (a.through !== undefined && typeof a.through !== 'string' && typeof a.through !== 'number') return { available: false, reason: "'through' is a turn's number, name or title." };
    const document = await validatedDocument(shared, a.uri, token);
    if (typeof document === 'string') return { available: false, reason: document };
    const through = a.through === undefined ? undefined : String(a.through);
    const asked = Array.isArray(a.whatIf) || typeof a.house === 'string';
    if (!asked || !checker) return shared.workspace.WorkspaceLock.read(() => campaignOddsView(modelOf(document.parseResult.value), through));
    const changes = Array.isArray(a.whatIf) ? a.whatIf.map(String).map(c => c.trim()).filter(c => c.length > 0) : [];
    const engagement = typeof a.engagement === 'string' && a.engagement !== '' ? a.engagement : undefined;
    // The set-up as written and its figures under the lock; the changed copies are checked outside it.
    const snapshot = await shared.workspace.WorkspaceLock.read(() => {
        const root = document.parseResult.value;
        const model = modelOf(root);
        return { text: root.$cstNode?.root.fullText ?? document.textDocument.getText(), model, imported: importGraphOf(shared)?.closure(root) ?? [], before: computedOf(model, through) };
    });
    if (snapshot === undefined) throw OperationCancelled;
    const { answer, report } = snapshot.before;
    if (!answer.available || !report) return answer;
    const whatIfChoices = campaignChoices(snapshot.model, engagement);
    if (changes.length === 0 && typeof a.house !== 'string') return { ...answer, whatIfChoices };
    const original = { uri: URI.parse(a.uri), imported: snapshot.imported };
    const house = typeof a.house === 'string' ? await houseOf(shared, a.house, typeof a.houseText === 'string' ? a.houseText : undefined, checker, token) : undefined;
    const whatIf = await campaignWhatIf({ text: snapshot.text, model: snapshot.model, report }, { through, changes, engagement, house }, text => checker.check(text, original));
    return { ...answer, whatIfChoices, whatIf };
}

/** The Campaign tab's figures of `model` through the turn `through` (the end of the file without it). */
export function campaignOddsView(model: ScenarioModel, through?: string): CampaignOddsAnswer {
    return computedOf(model, through).answer;
}

function computedOf(model: ScenarioModel, through: string | undefined): Computed {
    let byTurn = computed.get(model);
    if (!byTurn) computed.set(model, byTurn = new Map());
    const key = through ?? '';
    let done = byTurn.get(key);
    if (!done) byTurn.set(key, done = viewOf(model, through));
    return done;
}

/** The other file whose house rules are put in: its name, and its model once checked clean; or why there is none. */
type HouseFile = { name: string, model: ScenarioModel } | { name: string, problem: string };

/**
 * The other file, as the language server holds it (a file of the workspace, its imports resolved), or
 * else its text as the editor read it, checked in the private workspace.
 */
async function houseOf(shared: LangiumSharedServices, uri: string, text: string | undefined, checker: TextChecker, token?: CancellationToken): Promise<HouseFile> {
    const name = decodeURIComponent(URI.parse(uri).path.split('/').pop() ?? uri);
    if (shared.workspace.LangiumDocuments.hasDocument(URI.parse(uri))) {
        const document = await validatedDocument(shared, uri, token);
        if (typeof document === 'string') return { name, problem: document };
        const errors = (document.diagnostics ?? []).filter(d => d.severity === 1);
        if (errors.length > 0) return { name, problem: `${name} has ${errors.length === 1 ? 'an error' : `${errors.length} errors`} (line ${errors[0].range.start.line + 1}: ${errors[0].message}): fix ${errors.length === 1 ? 'it' : 'them'} before comparing its house rules` };
        return { name, model: modelOf(document.parseResult.value) };
    }
    if (text === undefined) return { name, problem: `the language server has not read ${name}` };
    const checked = await checker.check(text);
    if (checked.errors.length > 0) return { name, problem: `${name} has ${checked.errors.length === 1 ? 'an error' : `${checked.errors.length} errors`} (${checked.errors[0]}): fix ${checked.errors.length === 1 ? 'it' : 'them'} before comparing its house rules` };
    return { name, model: modelOf(checked.root) };
}

/**
 * The what-ifs the Campaign tab offers: the factors, modifiers and facts of the engagement picked
 * (a change of one action's lines needs one), each unit's grade and each option of the file.
 */
function campaignChoices(model: ScenarioModel, engagement: string | undefined): CampaignWhatIfChoices {
    const engagements = model.actions.map(a => a.node.name);
    const units = [...model.forces].flatMap(([force, f]) => [...f.byName.keys()].map(unit => `${force}.${unit}`));
    const action = engagement === undefined ? undefined : model.actions.find(a => a.node.name === engagement);
    let own: CampaignWhatIfChoices['choices'] = [];
    if (action) {
        const odds = oddsForAction(model, action);
        const sides = isUnresolvable(odds) ? [...model.forces.keys()] : [...new Set(odds.units.map(u => u.force))];
        own = actionChoices(model, action, sides);
    }
    return { engagements, ...(action ? { engagement: action.node.name } : {}), choices: [...own, ...fileChoices(model, units)] };
}

interface CampaignChange {
    through: string | undefined;
    changes: readonly string[];
    engagement: string | undefined;
    house: HouseFile | undefined;
}

/**
 * The campaign as written (`written`) and changed: the other file's house rules put in first, then
 * each what-if made on the text the previous change left (a change of one action's lines made to
 * `engagement`), the changed text checked by `check`; its odds walked with the same options.
 */
async function campaignWhatIf(written: { text: string, model: ScenarioModel, report: CampaignOddsReport }, asked: CampaignChange,
    check: (text: string) => Promise<CheckedText>): Promise<CampaignWhatIf> {
    const { changes, engagement, house, through } = asked;
    const labels: string[] = [];
    const notes: string[] = [];
    const steps: WhatIfStep[] = [];
    let edited = written.text;
    let model = written.model;
    const base = { changes: [...changes], ...(engagement !== undefined ? { engagement } : {}), ...(house ? { house: house.name } : {}) };
    const refuse = (problem: string, errors?: WhatIfError[]): CampaignWhatIf => ({ ...base, label: labels.join('; '), notes, problem, ...(errors ? { errors } : {}) });
    if (house) {
        if ('problem' in house) return refuse(`the house rules of ${house.name}: ${house.problem}`);
        const swap = swapHouseRules(model, edited, house.model, house.name);
        if ('problem' in swap) return refuse(`the house rules of ${house.name}: ${swap.problem}`);
        for (const from of swap.imported) notes.push(`The house rules imported from ${from} still apply, before those of ${house.name}.`);
        steps.push(swap.step);
        edited = swap.text;
        labels.push(`with ${swap.step.change}`);
    }
    for (const change of changes) {
        const parsed = parseWhatIf(change);
        if ('problem' in parsed) return refuse(parsed.problem);
        if (steps.length > 0) {
            const next = await reread(edited, steps, check);
            if ('problem' in next) return refuse(`${labels.join('; ')}: ${next.problem}`, next.errors);
            model = next.model;
        }
        const action = engagement === undefined ? undefined : model.actions.find(a => a.node.name === engagement);
        if (engagement !== undefined && !action) return refuse(`there is no action named '${engagement}' in this file`);
        const ofOneAction = parsed.kind !== 'grade' && parsed.kind !== 'option' && parsed.kind !== 'without-option';
        if (ofOneAction && !action) return refuse(`what if ${change}: it changes the lines of one action: pick the engagement it is made to`);
        const made = madeStep(model, action, parsed, change, edited);
        if ('problem' in made) return refuse(`what if ${change}: ${made.problem}`);
        steps.push(made.step);
        edited = made.text;
        labels.push(`what if ${change}`);
    }
    const label = labels.join('; ');
    const changed = await reread(edited, steps, check);
    if ('problem' in changed) return refuse(`${label}: ${changed.problem}`, changed.errors);
    const after = viewOf(changed.model, through);
    if (!after.answer.available || !after.report) return refuse(`${label}: ${after.answer.available ? 'no figures' : after.answer.reason}`);
    return { ...base, label, after: after.answer, difference: campaignDifference(written.report, after.report), notes };
}

/** The changed text checked: its model, or its errors at their places in the file on disk. */
async function reread(text: string, steps: readonly WhatIfStep[], check: (text: string) => Promise<CheckedText>): Promise<{ model: ScenarioModel } | { problem: string, errors?: WhatIfError[] }> {
    const checked = await check(text);
    if (checked.errors.length === 0) return { model: modelOf(checked.root) };
    const errors = checked.placed?.map(e => ({ ...placeOnDisk(steps, text, e), message: e.message }));
    const told = errors?.map(whereOnDisk) ?? checked.errors;
    return { problem: `the changed set-up has ${told.length === 1 ? 'an error' : `${told.length} errors`}: ${told.slice(0, 3).join('; ')}${told.length > 3 ? '; …' : ''}`, errors };
}

function viewOf(model: ScenarioModel, through: string | undefined): Computed {
    const report = campaignOdds(model, through === undefined ? {} : { through });
    if (isUnresolvable(report)) return { answer: { available: false, reason: report.problem } };
    const turns = turnsOf(model).map(t => ({ label: turnLabel(t)!, ...(t.title ? { title: unquote(t.title) } : {}) }));
    const answer: CampaignOddsView = {
        available: true, rules: report.rules, through: report.through, method: report.method,
        ...(report.samples !== undefined ? { samples: report.samples, seed: report.seed } : {}),
        states: report.states, turns,
        actions: report.actions.map(x => ({ name: x.name, kind: x.kind, turn: x.turn, open: x.open, fought: x.fought })),
        units: report.units, sides: report.sides, statuses: statusRanks(model, report), notes: report.notes
    };
    return { answer, report };
}

/** Each status the figures name, best to worst: the rule set's own severity of it where it has one. */
function statusRanks(model: ScenarioModel, report: CampaignOddsReport): ResultRank[] {
    const labels = [...new Set(report.units.flatMap(u => Object.keys(u.status)))];
    const ruled = new Map(resultRanks(model.ruleset, labels).map(r => [r.label, r.severity]));
    return labels
        .map(label => ({ label, severity: ruled.get(label) ?? STATUS_SEVERITIES[label] ?? 'none' }))
        .sort((x, y) => RESULT_SEVERITIES.indexOf(x.severity) - RESULT_SEVERITIES.indexOf(y.severity));
}
