/**
 * The server's answers behind the client's editor conventions: the action at the cursor
 * (for "Resolve engagement at cursor" and "Show odds at cursor", which then run the same Resolve and
 * Odds as the lenses), the file at a glance (the language status item), and the starting text of a
 * new scenario for each rule set ("Umpire: New scenario").
 */
import type { LangiumSharedServices } from 'langium/lsp';
import type { CancellationToken } from 'vscode-languageserver';
import { validatedDocument } from './validated-document.js';
import type { Action, Scenario } from '../generated/ast.js';
import type { BattleDocumentFactory } from '../battle-document-factory.js';
import { modelOf } from '../../core/model-cache.js';
import { isResolvable, isUnresolvable, outcomeStatus } from '../../core/resolve.js';
import { hasOdds } from '../../core/odds.js';
import type { Ruleset } from '../../core/ruleset.js';
import type { ScenarioModel } from '../../core/scenario.js';
import { quickSeasonLuck } from '../../report/season-luck.js';
import type { ActionAtResult, FileSummary, FileSummaryLuck, ScenarioTemplates } from '../../protocol.js';

/** `umpire.actionAt`: [{ uri, version, position }] → the action whose text holds the position. */
export async function actionAtPosition(shared: LangiumSharedServices, arg: unknown, token?: CancellationToken): Promise<ActionAtResult> {
    const a = (arg ?? {}) as { uri?: unknown, version?: unknown, position?: { line?: unknown, character?: unknown } };
    const line = a.position?.line, character = a.position?.character;
    if (typeof a.uri !== 'string' || typeof a.version !== 'number' || typeof line !== 'number' || typeof character !== 'number') {
        return { found: false, reason: 'umpire.actionAt needs [{ uri, version, position: { line, character } }]: run it from an open .battle file.' };
    }
    const document = await validatedDocument(shared, a.uri, token);
    if (typeof document === 'string') return { found: false, reason: document };
    return shared.workspace.WorkspaceLock.read(() => {
        // A cursor in a text the server has not seen yet could point into another action.
        if (document.textDocument.version !== a.version) {
            return { found: false as const, reason: `The file changed (version ${String(a.version)}, now ${document.textDocument.version}): try again.` };
        }
        const root = document.parseResult.value;
        const node = actionAt(root, document.textDocument.offsetAt({ line, character }));
        const model = modelOf(root);
        const action = node && model.actions.find(m => m.node === node);
        if (!action || !action.node.name) {
            return { found: false as const, reason: 'The cursor is not inside an engagement or other action: put it on the action\'s name or in its braces.' };
        }
        return { found: true as const, action: action.node.name, kind: action.node.kind, resolvable: isResolvable(model, action), hasOdds: hasOdds(model, action) };
    }) as Promise<ActionAtResult>;
}

/**
 * `umpire.fileSummary`: [{ uri }] → the file's rule set and how many of its actions have a current
 * outcome, none yet, or one that no longer matches (stale, or one that can no longer be replayed:
 * both ask for Resolve again, as their warnings say), and each side's luck over the season.
 */
export async function fileSummary(shared: LangiumSharedServices, arg: unknown, token?: CancellationToken): Promise<FileSummary> {
    const a = (arg ?? {}) as { uri?: unknown };
    if (typeof a.uri !== 'string') return { available: false, reason: 'umpire.fileSummary needs [{ uri }].' };
    const document = await validatedDocument(shared, a.uri, token);
    if (typeof document === 'string') return { available: false, reason: document };
    return shared.workspace.WorkspaceLock.read(() => {
        const root = document.parseResult.value;
        const model = modelOf(root);
        const summary: FileSummary = {
            available: true, rules: model.rules, rulesTitle: model.ruleset?.title ?? model.rules,
            rulesWritten: root.rules !== undefined, actions: 0, resolved: 0, unresolved: 0, stale: 0
        };
        if (!model.ruleset) return { ...summary, available: false, reason: `The ${model.rules} rules are not known.` };
        // The record the season's luck reads: each current outcome as written (its check stands for every input it was fought from).
        const record: string[] = [];
        for (const action of model.actions) {
            if (!isResolvable(model, action)) continue;
            summary.actions!++;
            const status = outcomeStatus(model, action).kind;
            if (status === 'none') summary.unresolved!++;
            else if (status === 'current' || status === 'hand-written') summary.resolved!++;
            else summary.stale!++;
            if (status === 'current') record.push(action.node.outcome?.$cstNode?.text ?? '');
            // An outcome without a check vouches for nothing it was fought from: only the whole text keys its figure.
            else if (status === 'hand-written') record.push(root.$cstNode?.text ?? '');
        }
        // A stale outcome's luck would be measured against a set-up it was not fought in: no figure until it is resolved again.
        const luck = summary.stale! > 0 ? undefined : summaryLuck(model, `${model.rules}\n${record.join('\n')}`);
        return luck ? { ...summary, luck } : summary;
    }) as Promise<FileSummary>;
}

/**
 * Each file's season figures, with the record they were found from: worked out again only when a written
 * outcome changes, not at every keystroke (on a sampled season they take a second or more).
 */
const lucks = new Map<string, { record: string, luck: FileSummaryLuck | undefined }>();

/** The season's luck per side, cheap on a long season (`quickSeasonLuck`); none without a written result. */
function summaryLuck(model: ScenarioModel, record: string): FileSummaryLuck | undefined {
    const uri = model.root.$document?.uri.toString() ?? '';
    const kept = lucks.get(uri);
    if (kept?.record === record) return kept.luck;
    const season = quickSeasonLuck(model, model.actions);
    const luck = isUnresolvable(season) || season.method === 'none' ? undefined : {
        method: season.method, ...(season.samples !== undefined ? { samples: season.samples } : {}),
        sides: season.sides.flatMap(s => s.percentile === null ? [] : [{ force: s.force, percentile: s.percentile, ...(s.se ? { se: s.se.percentile } : {}) }])
    };
    lucks.set(uri, { record, luck });
    return luck;
}

/** `umpire.scenarioTemplates`: every registered rule set, the default (a file without `rules`) first. */
export function scenarioTemplates(shared: LangiumSharedServices): ScenarioTemplates {
    const registry = (shared.workspace.LangiumDocumentFactory as BattleDocumentFactory).rulesets;
    return { templates: registry.all().map(r => ({ id: r.id, title: r.title, text: templateOf(r) })) };
}

/** The rule set's own starting text, or a skeleton (`rules` and the shape of a scenario) for one that has none. */
function templateOf(ruleset: Ruleset): string {
    if (ruleset.newScenario) return ruleset.newScenario;
    return [
        `scenario "New ${ruleset.title} scenario"`,
        `rules ${ruleset.id}`,
        '',
        `// Grades, forces and their units, then the ${ruleset.kinds.join(' / ')} actions: see ${ruleset.reference}.`,
        ''
    ].join('\n');
}

/** The action a position sits in, if any. */
export function actionAt(root: Scenario, offset: number): Action | undefined {
    const model = modelOf(root);
    return model.actions.find(a => a.node.$cstNode && a.node.$cstNode.offset <= offset && offset <= a.node.$cstNode.end)?.node;
}
