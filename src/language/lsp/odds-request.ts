/**
 * The `umpire.odds` command's answer and the odds line of an engagement's hover, both from the exact
 * odds engine (`oddsForAction`, src/core/odds.ts). Where the engine has no odds, they say why:
 * the editor never shows made-up numbers.
 */
import { interruptAndCheck } from 'langium';
import { CancellationToken } from 'vscode-languageserver';
import type { ActionModel, ScenarioModel } from '../../core/scenario.js';
import { oddsForAction } from '../../core/odds.js';
import { meanSdText, type OddsAnswer, type OddsReport, type OddsUnavailable, type WhatIfChoice, type WhatIfError, type WhatIfOdds } from '../../protocol.js';
import { isUnresolvable } from '../../core/resolve.js';
import { modelOf } from '../../core/model-cache.js';
import { resultRanks } from '../../core/severity.js';
import type { CheckedText } from '../../core/resolve-all.js';
import { madeStep, oddsDifference, parseWhatIf, placeOnDisk, type WhatIfStep } from '../../report/what-if.js';
import { isFactor, isFacts } from '../generated/ast.js';

export async function oddsCommand(model: ScenarioModel, action: string | undefined, cancelToken: CancellationToken = CancellationToken.None): Promise<OddsAnswer> {
    if (action === undefined) {
        // A campaign has dozens of actions: between two, a cancelled request stops (and the server
        // reads its messages, among them the cancellation itself).
        const actions: Array<OddsReport | OddsUnavailable> = [];
        for (const a of model.actions) {
            await interruptAndCheck(cancelToken);
            actions.push(oddsOf(model, a));
        }
        return { actions };
    }
    const found = model.actions.find(a => a.node.name === action);
    if (!found) return { available: false, action, reason: `There is no action named '${action}' in this file.` };
    await interruptAndCheck(cancelToken);
    return oddsOf(model, found);
}

/**
 * One action's odds as written and, when `changes` are given, with them (docs/reports.md#what-if):
 * each change is made on the text the previous one left (src/report/what-if.ts), the changed text is
 * checked by `check` in a private workspace, and its odds come from the same engine, so that the
 * difference is exactly that of two separate odds runs on the two texts. An unknown change, or a
 * changed set-up with errors, leaves the odds as written with `whatIf.problem` saying why; its errors
 * are told at their places in the file on disk (`whatIf.errors`), the changed copy being nowhere to open.
 */
export async function whatIfOddsCommand(text: string, model: ScenarioModel, action: string, changes: readonly string[],
    check: (text: string) => Promise<CheckedText>, cancelToken: CancellationToken = CancellationToken.None): Promise<OddsAnswer> {
    const found = model.actions.find(a => a.node.name === action);
    if (!found) return { available: false, action, reason: `There is no action named '${action}' in this file.` };
    const before = oddsOf(model, found);
    if ('available' in before) return before;
    const report: OddsReport = { ...before, whatIfChoices: whatIfChoices(model, found, before) };
    if (changes.length === 0) return report;
    const said = changes.join('; ');
    const refuse = (problem: string, errors?: WhatIfError[]): OddsReport => ({ ...report, whatIf: { changes: [...changes], problem, ...(errors ? { errors } : {}) } });
    let edited = text;
    const steps: WhatIfStep[] = [];
    let current: { model: ScenarioModel, action: ActionModel } = { model, action: found };
    for (const [i, change] of changes.entries()) {
        const parsed = parseWhatIf(change);
        if ('problem' in parsed) return refuse(parsed.problem);
        if (i > 0) {
            // Each change after the first is made on the text the previous one left, read afresh.
            await interruptAndCheck(cancelToken);
            const next = await reread(edited, steps, action, check);
            if ('problem' in next) return refuse(`what if ${changes.slice(0, i).join('; ')}: ${next.problem}`, next.errors);
            current = next;
        }
        const made = madeStep(current.model, current.action, parsed, change, edited);
        if ('problem' in made) return refuse(`what if ${change}: ${made.problem}`);
        steps.push(made.step);
        edited = made.text;
    }
    await interruptAndCheck(cancelToken);
    const changed = await reread(edited, steps, action, check);
    if ('problem' in changed) return refuse(`what if ${said}: ${changed.problem}`, changed.errors);
    const after = oddsOf(changed.model, changed.action);
    if ('available' in after) return refuse(`what if ${said}: ${after.reason}`);
    const whatIf: WhatIfOdds = { changes: [...changes], after, difference: oddsDifference(before, after) };
    return { ...report, whatIf };
}

async function reread(text: string, steps: readonly WhatIfStep[], action: string, check: (text: string) => Promise<CheckedText>):
    Promise<{ model: ScenarioModel, action: ActionModel } | { problem: string, errors?: WhatIfError[] }> {
    const checked = await check(text);
    if (checked.errors.length > 0) {
        const errors = checked.placed?.map(e => ({ ...placeOnDisk(steps, text, e), message: e.message }));
        const told = errors?.map(whereOnDisk) ?? checked.errors;
        return { problem: `the changed set-up has ${told.length === 1 ? 'an error' : `${told.length} errors`}: ${told.slice(0, 3).join('; ')}${told.length > 3 ? '; …' : ''}`, errors };
    }
    const model = modelOf(checked.root);
    const found = model.actions.find(a => a.node.name === action);
    return found ? { model, action: found } : { problem: `the changed file has no action ${action}` };
}

/** "line 47, column 12 (in what 'with Woods on Nowhere' puts there): There is no force named 'Nowhere'." */
export function whereOnDisk(e: WhatIfError): string {
    const at = `line ${e.line + 1}, column ${e.character + 1}`;
    return `${e.addedBy ? `${at} (in what '${e.addedBy}' puts there)` : `${at} of the file`}: ${e.message}`;
}

/**
 * The what-ifs an action's set-up offers, from what it has: each factor applied (`without X`),
 * each modifier of the file not applied here on each side (`with X on Side`), each fact written on
 * a unit (`without fact charged on Greeks.Companions`), each unit's grade
 * (`grade Force.Unit G`, one unit declaration for all its instances), and each option the rule set
 * reads (`option X`, or `without option X` when the file sets it).
 */
function whatIfChoices(model: ScenarioModel, action: ActionModel, odds: OddsReport): WhatIfChoice[] {
    const units = [...new Set(odds.units.map(u => u.id.replace(/#\d+$/, '')))];
    return [...actionChoices(model, action, [...new Set(odds.units.map(u => u.force))]), ...fileChoices(model, units)];
}

/** The what-ifs of `action`'s own lines: each factor applied, each modifier not applied on each of `sides`, each fact written. */
export function actionChoices(model: ScenarioModel, action: ActionModel, sides: readonly string[]): WhatIfChoice[] {
    const choices: WhatIfChoice[] = [];
    const applied = new Set<string>();
    for (const s of action.node.statements) {
        if (isFactor(s)) for (const m of s.modifiers) applied.add(m.$refText);
    }
    for (const m of applied) choices.push({ kind: 'factor', change: `without ${m}` });
    for (const m of model.modifiers.keys()) {
        if (applied.has(m)) continue;
        for (const side of sides) choices.push({ kind: 'modifier', change: `with ${m} on ${side}` });
    }
    // Facts written on units (a charge, a formation, cover): each can be taken away.
    for (const s of action.node.statements) {
        if (!isFacts(s) || !s.target.$cstNode) continue;
        for (const f of s.facts) choices.push({ kind: 'fact', change: `without fact ${f.key} on ${s.target.$cstNode.text.replace(/\s+/g, '')}` });
    }
    return choices;
}

/** The what-ifs of the whole file: the grade of each of `units` (`Force.Unit`), and each option the rule set reads. */
export function fileChoices(model: ScenarioModel, units: readonly string[]): WhatIfChoice[] {
    const choices: WhatIfChoice[] = [];
    const grades = [...model.grades.keys()];
    if (grades.length > 0) {
        for (const unit of units) {
            const [force, name] = unit.split('.');
            const declared = model.forces.get(force)?.byName.get(name)?.[0];
            if (!declared) continue;
            choices.push({ kind: 'grade', change: `grade ${unit}`, unit, grade: declared.grade?.name ?? '', grades });
        }
    }
    for (const option of model.ruleset?.vocabulary.options ?? []) {
        const set = model.root.options.some(o => o.name === option);
        choices.push({ kind: 'option', change: set ? `without option ${option}` : `option ${option}` });
    }
    return choices;
}

/** One action's odds, with each label's place on the one scale of severities for the client's colours. */
function oddsOf(model: ScenarioModel, action: ActionModel): OddsReport | OddsUnavailable {
    const report = oddsForAction(model, action);
    if (isUnresolvable(report)) return { available: false, action: action.node.name, reason: report.problem };
    const labels = report.units.flatMap(u => [...Object.keys(u.probabilities), ...Object.keys(u.atLeast ?? {})]);
    return { ...report, results: resultRanks(model.ruleset, labels) };
}

const percent = (p: number) => `${(100 * p).toFixed(p > 0 && p < 0.001 ? 2 : 1)}%`;

/**
 * Per side, the results it can expect (numbers of units, mean ± sd where the spread is known) and any joint chance the engine
 * gives (`at least one rout`): a few lines under the engagement's breakdown.
 */
export function oddsSummary(model: ScenarioModel, action: ActionModel): string | undefined {
    const report = oddsForAction(model, action);
    if (isUnresolvable(report)) return undefined;
    const lines = report.sides.map(side => {
        const expected = Object.entries(side.expected)
            .filter(([, n]) => n >= 0.05)
            .map(([label, n]) => `${meanSdText(n, side.sd?.[label], 1)} ${label}`)
            .join(', ');
        const joint = Object.entries(side.atLeastOne).map(([label, p]) => `at least one ${label}: ${percent(p)}`).join(', ');
        return `- **${side.force}** expects ${expected || 'no result'}${joint ? ` · ${joint}` : ''}`;
    });
    const notes = report.notes.map(n => `- ${n}`);
    return ['**Odds** (exact, before the dice):', ...lines, ...notes].join('\n');
}
