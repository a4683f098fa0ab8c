/**
 * What the server's commands do (the thin handler in commands.ts delegates here): Resolve, Re-roll
 * and Resolve all write outcome blocks into the umpire's file; Odds and Status answer the exact
 * odds and the campaign state.
 *
 * An edit is computed under the workspace read lock, from a document that has been validated, for
 * the version of the document the lens was shown on; it is sent as a versioned `documentChanges`
 * edit, so that the client refuses it if the umpire typed in between (plain `changes` to a client
 * that takes no `documentChanges`: the version was checked just before).
 */
import { DocumentState, interruptAndCheck, isOperationCancelled, OperationCancelled, URI, type LangiumDocument } from 'langium';
import type { LangiumSharedServices } from 'langium/lsp';
import type { ApplyWorkspaceEditParams } from 'vscode-languageserver';
import { errorsBlocking } from './action-errors.js';
import { CancellationToken, MessageType, ShowMessageNotification } from 'vscode-languageserver';
import type { Action, Scenario } from '../generated/ast.js';
import type { TextChecker } from '../text-checker.js';
import { importGraphOf } from '../battle-imports.js';
import { modelOf } from '../../core/model-cache.js';
import type { ActionModel, ScenarioModel } from '../../core/scenario.js';
import { newSeed } from '../../core/dice.js';
import { actionOffsets, applyEdits, isNoOp, rerollEdit, resolutionEdit, toRangeEdit, type OffsetEdit } from '../../core/outcome-edit.js';
import { needsOutcome, resolveAllQuick, resolveAllSlow, ResolveAllCancelled, ResolveAllError, type WrittenOutcome } from '../../core/resolve-all.js';
import { inMemoryChecks } from '../resolve-all-checks.js';
import { isResolvable, isUnresolvable, needsNewSeed, resolveAction } from '../../core/resolve.js';
import { waitsOn } from '../../core/campaign-state.js';
import type { OddsAnswer, ResolveAllResult, ResolveArgs, ResolveResult, VerifyAnswer } from '../../protocol.js';
import { umpireSetting } from './settings.js';
import { oddsCommand, whatIfOddsCommand } from './odds-request.js';
import { sealedDraw, verifyVerdicts } from './seal-secret.js';
import { clientSupport, documentEdit } from './client-support.js';

/** What the commands need from the editor: the LSP connection in the server, a fake in tests. */
export interface EditorSide {
    applyEdit(params: ApplyWorkspaceEditParams): Promise<{ applied: boolean, failureReason?: string }>;
    tell(kind: 'info' | 'warning' | 'error', message: string): void;
    /** Asks a question with buttons; the chosen button's title, or undefined when dismissed. */
    ask(message: string, choices: readonly string[]): Promise<string | undefined>;
}

/** The editor behind the server's connection (nothing is shown without one, e.g. in the CLI). */
export function connectionEditor(shared: LangiumSharedServices): EditorSide {
    return {
        async applyEdit(params) {
            const connection = shared.lsp.Connection;
            if (!connection) return { applied: false, failureReason: 'no editor is connected' };
            return connection.workspace.applyEdit(params);
        },
        tell(kind, message) {
            // A notification, not a request: a client that answers a request with an error must not
            // leave a rejected promise behind, which would end the server.
            const connection = shared.lsp.Connection;
            if (!connection) return;
            const type = kind === 'error' ? MessageType.Error : kind === 'warning' ? MessageType.Warning : MessageType.Info;
            void connection.sendNotification(ShowMessageNotification.type, { type, message }).catch(() => undefined);
        },
        async ask(message, choices) {
            const window = shared.lsp.Connection?.window;
            if (!window) return undefined;
            try {
                const picked = await window.showInformationMessage(message, ...choices.map(title => ({ title })));
                return picked?.title;
            } catch {
                return undefined;
            }
        }
    };
}

type Plan =
    | { kind: 'edit', edit: OffsetEdit, text: string, summary: string, seed: number | null }
    | { kind: 'refused', reason: string }
    | { kind: 'needs-seed' };

interface Snapshot {
    document: LangiumDocument<Scenario>;
    text: string;
    model: ScenarioModel;
}

export class OutcomeCommands {
    constructor(
        private readonly shared: LangiumSharedServices,
        private readonly editor: EditorSide,
        private readonly checker: TextChecker,
        private readonly drawSeed: (action: ActionModel, reroll: number) => number = newSeed
    ) {}

    /** Resolve (`reroll` false) or Re-roll one action, and write its outcome. */
    async resolve(arg: unknown, reroll: boolean, token?: CancellationToken): Promise<ResolveResult> {
        const args = readResolveArgs(arg);
        if (typeof args === 'string') return this.refuse(args);
        const waited = await this.waitValidated(args.uri, token);
        if (waited) return this.refuse(waited);
        const sealed = await this.sealedDraw(args);
        if (sealed && 'problem' in sealed) return this.refuse(sealed.problem);
        const drawSeed = sealed?.draw ?? this.drawSeed;
        // Re-roll always draws; Resolve draws only when the umpire lets it (umpire.outcomes.recordNewSeeds);
        // a sealed seed is the seal's, not a new throw, and is drawn without asking.
        const mayDraw = reroll || sealed !== undefined || await umpireSetting(this.shared, 'outcomes.recordNewSeeds', true);
        let plan = await this.read(args, snap => this.planOne(snap, args, reroll, mayDraw ? drawSeed : undefined));
        if (plan.kind === 'needs-seed') {
            const draw = await this.editor.ask(
                `'${args.action}' has neither dice entered nor a seed. Draw a new seed and record it in the outcome?`,
                [DRAW, CANCEL]);
            if (draw !== DRAW) return { applied: false, reason: `'${args.action}' was not resolved: no dice and no seed.` };
            // The question took time: plan again, on the file as it is now.
            plan = await this.read(args, snap => this.planOne(snap, args, reroll, drawSeed));
        }
        if (plan.kind === 'needs-seed') return this.refuse(`'${args.action}' could not be resolved.`);
        if (plan.kind === 'refused') return this.refuse(plan.reason);
        const applied = await this.write(args.uri, args.version, [plan], `${reroll ? 'Re-roll' : 'Resolve'} ${args.action}`);
        return { ...applied, summary: plan.summary, seed: plan.seed };
    }

    /**
     * Every action without a current outcome, in file order, in one edit (one undo step). Campaign
     * state flows from earlier outcomes to later actions, so the actions are resolved as the CLI's
     * `--write` does (src/core/resolve-all.ts): on the validated document, each new outcome held in
     * memory only while its engagement is worked out, and a cancelled request stops between two
     * engagements and writes nothing. The edit writes only their blocks.
     */
    async resolveAll(arg: unknown, token?: CancellationToken): Promise<ResolveAllResult> {
        const args = readDocumentArgs(arg);
        const none = { resolved: [], skipped: [] };
        if (typeof args === 'string') return { ...none, ...this.refuse(args) };
        const waited = await this.waitValidated(args.uri, token);
        if (waited) return { ...none, ...this.refuse(waited) };
        const snap = await this.read(args, s => ({ kind: 'snapshot' as const, text: s.text, model: s.model }));
        if (snap.kind === 'refused') return { ...none, ...this.refuse(snap.reason) };
        const sealed = await sealedDraw(this.shared, args.uri, snap.model);
        if (sealed && 'problem' in sealed) return { ...none, ...this.refuse(sealed.problem) };
        if (!sealed && !await umpireSetting(this.shared, 'outcomes.recordNewSeeds', true)) {
            // The actions that will be written and have neither dice nor a seed: asked once for all of them.
            const needing = snap.model.actions.filter(a => needsOutcome(snap.model, a) && needsNewSeed(snap.model, a)).length;
            if (needing > 0) {
                const answer = await this.editor.ask(
                    `${needing} action${needing > 1 ? 's have' : ' has'} neither dice entered nor a seed. Draw new seeds and record them?`,
                    [DRAW, CANCEL]);
                if (answer !== DRAW) return { ...none, applied: false, reason: 'Nothing was written: some actions have no dice and no seed.' };
            }
        }
        let result: Awaited<ReturnType<typeof resolveAllSlow>>;
        try {
            // The document as validated is the first check, and the outcomes are verified in memory:
            // about the cost of the engagements, not of checking the written file again.
            // Under the read lock, so that no build replaces the tree while the run reads it; the
            // event loop turns between engagements, so that a cancellation is read at once.
            const options = { newSeed: sealed?.draw ?? this.drawSeed, token, pause: () => interruptAndCheck(token ?? CancellationToken.None) };
            // The slow path checks copies: a file that imports its forces beside the files it imports.
            const original = { uri: URI.parse(args.uri), imported: importGraphOf(this.shared)?.closure(snap.model.root) ?? [] };
            const check = (text: string) => this.checker.check(text, original);
            const quick = await this.read(args, s => resolveAllQuick(s.text, check, {
                ...options, checked: { root: s.model.root, errors: errorsOf(s.document) },
                inMemory: inMemoryChecks()
            }));
            if (quick === undefined) throw OperationCancelled;
            if ('kind' in quick) return { ...none, ...this.refuse(quick.reason) };
            // Outside the lock: the edits the umpire types meanwhile are built, and refuse the result.
            result = 'drawn' in quick ? await resolveAllSlow(snap.text, check, options, quick.drawn) : quick;
        } catch (err) {
            if (isOperationCancelled(err) || err instanceof ResolveAllCancelled) throw OperationCancelled;
            const errors = err instanceof ResolveAllError ? err.errors : [];
            return { ...none, ...this.refuse(`Nothing was written: ${err instanceof Error ? err.message : String(err)}${errors.length > 0 ? ` (${errors[0]})` : ''}`) };
        }
        // A cancellation read after the last engagement still writes nothing: the edit is not sent yet.
        if (token?.isCancellationRequested) throw OperationCancelled;
        const plans = blockEdits(snap.text, snap.model, result);
        if (plans.length === 0) {
            this.editor.tell('info', 'Every action already has its outcome written.');
            return { applied: true, changed: false, resolved: [], skipped: [] };
        }
        const applied = await this.write(args.uri, args.version, plans, 'Resolve all');
        return { ...applied, resolved: applied.applied ? plans.map(p => ({ action: p.action, summary: p.summary, seed: p.seed })) : [], skipped: [] };
    }

    /** The odds of one action (or of every resolvable action), as the odds engine computes them. */
    async odds(arg: unknown, token?: CancellationToken): Promise<OddsAnswer> {
        const a = (arg ?? {}) as { uri?: unknown, action?: unknown, whatIf?: unknown };
        if (typeof a.uri !== 'string') return { available: false, reason: 'umpire.odds needs [{ uri, action? }]' };
        const waited = await this.waitValidated(a.uri, token);
        if (waited) return { available: false, reason: waited };
        const document = this.document(a.uri);
        if (!document) return { available: false, reason: `No open document ${a.uri}` };
        const whatIf = Array.isArray(a.whatIf) ? a.whatIf.map(String) : undefined;
        if (whatIf && typeof a.action !== 'string') return { available: false, reason: 'umpire.odds: a what-if needs the action whose set-up changes' };
        const action = typeof a.action === 'string' ? a.action : undefined;
        if (whatIf && action !== undefined) {
            // A what-if checks a changed copy in a private workspace: only the snapshot is taken under the lock.
            const snapshot = await this.shared.workspace.WorkspaceLock.read(() => {
                const root = document.parseResult.value;
                return { text: root.$cstNode?.root.fullText ?? document.textDocument.getText(), model: modelOf(root) };
            });
            if (snapshot === undefined) throw OperationCancelled;
            return whatIfOddsCommand(snapshot.text, snapshot.model, action, whatIf, text => this.checker.check(text), token);
        }
        const answer = await this.shared.workspace.WorkspaceLock.read(() => oddsCommand(modelOf(document.parseResult.value), action, token));
        // The lock answers a cancelled action with undefined; the client is owed RequestCancelled, not null.
        if (answer === undefined && token?.isCancellationRequested) throw OperationCancelled;
        return answer;
    }

    /** The sealed seeds of a sealed file (or why there are none); undefined for a file that is not sealed. */
    private async sealedDraw(args: { uri: string }): Promise<Awaited<ReturnType<typeof sealedDraw>>> {
        const document = this.document(args.uri);
        if (!document) return undefined;
        const model = await this.shared.workspace.WorkspaceLock.read(() => modelOf(document.parseResult.value));
        return model ? sealedDraw(this.shared, args.uri, model) : undefined;
    }

    /** `umpire.verify`: each action verified, altered or not sealed (docs/campaigns.md#sealed-dice). */
    async verify(arg: unknown, token?: CancellationToken): Promise<VerifyAnswer> {
        const a = (arg ?? {}) as { uri?: unknown, secret?: unknown };
        if (typeof a.uri !== 'string') return { problem: 'umpire.verify needs [{ uri, secret? }]' };
        const waited = await this.waitValidated(a.uri, token);
        if (waited) return { problem: waited };
        const document = this.document(a.uri)!;
        const model = await this.shared.workspace.WorkspaceLock.read(() => modelOf(document.parseResult.value));
        if (!model) throw OperationCancelled;
        return verifyVerdicts(this.shared, a.uri, model, typeof a.secret === 'string' ? a.secret : undefined);
    }

    private document(uri: string): LangiumDocument<Scenario> | undefined {
        return this.shared.workspace.LangiumDocuments.getDocument(URI.parse(uri)) as LangiumDocument<Scenario> | undefined;
    }

    /** Waits until the document is validated (executeCommand does not wait for builds); a reason when it cannot. */
    private async waitValidated(uri: string, token?: CancellationToken): Promise<string | undefined> {
        if (!this.document(uri)) return `The file ${uri} is not open in the language server.`;
        try {
            await this.shared.workspace.DocumentBuilder.waitUntil(DocumentState.Validated, URI.parse(uri), token);
            return undefined;
        } catch (err) {
            // A request cancelled while it waited is owed RequestCancelled, not a message.
            if (isOperationCancelled(err)) throw err;
            return `The file could not be checked: ${err instanceof Error ? err.message : String(err)}`;
        }
    }

    /** Runs `plan` under the read lock, on the document as validated, if it is still the version asked for. */
    private read<T>(args: { uri: string, version: number }, plan: (snap: Snapshot) => T): Promise<T | { kind: 'refused', reason: string }> {
        return this.shared.workspace.WorkspaceLock.read(() => {
            const document = this.document(args.uri);
            if (!document || document.state < DocumentState.Validated) {
                return { kind: 'refused' as const, reason: 'The file is still being checked: try again.' };
            }
            const latest = this.shared.workspace.TextDocuments?.get(args.uri)?.version ?? document.textDocument.version;
            if (latest !== args.version || document.textDocument.version !== args.version) {
                return { kind: 'refused' as const, reason: `The file changed (version ${args.version}, now ${latest}) since this was asked: nothing was written. Try again.` };
            }
            const root = document.parseResult.value;
            return plan({ document, text: root.$cstNode?.root.fullText ?? document.textDocument.getText(), model: modelOf(root) });
        });
    }

    private planOne(snap: Snapshot, args: ResolveArgs, reroll: boolean, draw: ((action: ActionModel, reroll: number) => number) | undefined): Plan {
        const action = snap.model.actions.find(a => a.node.name === args.action);
        if (!action) return { kind: 'refused', reason: `There is no action named '${args.action}' in this file.` };
        if (!isResolvable(snap.model, action)) {
            return { kind: 'refused', reason: `The ${snap.model.rules} rules cannot resolve '${args.action}' (a ${action.node.kind}).` };
        }
        return this.plan(snap, action, reroll, draw);
    }

    /** The edit that writes one action's outcome; `draw` undefined means "ask before drawing a seed". */
    private plan(snap: Snapshot, action: ActionModel, reroll: boolean, draw: ((action: ActionModel, reroll: number) => number) | undefined): Plan {
        const name = action.node.name;
        const blocked = blockingError(snap.document, snap.model, action.node);
        if (blocked) return { kind: 'refused', reason: `'${name}' was not resolved: ${blocked}` };
        const first = waitsOn(snap.model, action);
        if (first) {
            return { kind: 'refused', reason: `'${name}' was not resolved: it starts from the outcome of ${first.kind} '${first.name}', which has no dice or seed yet. Resolve '${first.name}' first, or Resolve all.` };
        }
        if (!draw && needsNewSeed(snap.model, action, { reroll })) return { kind: 'needs-seed' };
        const result = resolveAction(snap.model, action, { reroll, newSeed: draw ?? (() => 0) });
        if (isUnresolvable(result)) return { kind: 'refused', reason: result.problem };
        const offsets = actionOffsets(action.node, snap.text);
        if (!offsets) return { kind: 'refused', reason: `'${name}' has no closing '}'.` };
        const edit = reroll
            ? rerollEdit(snap.text, action.node, offsets, result.resolution, result.dice)
            : resolutionEdit(snap.text, offsets, result.resolution, result.dice);
        return { kind: 'edit', edit, text: snap.text, summary: result.resolution.json.summary, seed: result.resolution.json.seed };
    }

    /** Sends the edits as one versioned change (one undo step), unless they change nothing. */
    private async write(uri: string, version: number, plans: ReadonlyArray<Plan & { kind: 'edit' }>, label: string): Promise<{ applied: boolean, changed?: boolean, reason?: string }> {
        const text = plans[0].text;
        const edits = plans.map(p => p.edit).filter(e => !isNoOp(text, e)).map(e => toRangeEdit(text, e));
        if (edits.length === 0) return { applied: true, changed: false };
        let result: { applied: boolean, failureReason?: string };
        try {
            result = await this.editor.applyEdit({ label, edit: documentEdit(clientSupport(this.shared), uri, version, edits) });
        } catch (err) {
            result = { applied: false, failureReason: err instanceof Error ? err.message : String(err) };
        }
        if (!result.applied) {
            const reason = `The outcome was not written${result.failureReason ? ` (${result.failureReason})` : ''}: the file probably changed meanwhile. Try again.`;
            this.editor.tell('warning', reason);
            return { applied: false, reason };
        }
        return { applied: true, changed: true };
    }

    private refuse(reason: string): { applied: false, reason: string } {
        this.editor.tell('warning', reason);
        return { applied: false, reason };
    }
}

const DRAW = 'Draw a new seed';
const CANCEL = 'Cancel';

function readResolveArgs(arg: unknown): ResolveArgs | string {
    const a = (arg ?? {}) as Partial<ResolveArgs>;
    if (typeof a.uri !== 'string' || typeof a.version !== 'number' || typeof a.action !== 'string') {
        return 'Resolve needs [{ uri, version, action }]: use the lens above the action.';
    }
    return { uri: a.uri, version: a.version, action: a.action };
}

function readDocumentArgs(arg: unknown): { uri: string, version: number } | string {
    const a = (arg ?? {}) as { uri?: unknown, version?: unknown };
    if (typeof a.uri !== 'string' || typeof a.version !== 'number') return 'Resolve all needs [{ uri, version }]: run it from an open .battle file.';
    return { uri: a.uri, version: a.version };
}

/** The document's errors as the first check of Resolve all gives them: `line N: message`. */
function errorsOf(document: LangiumDocument): string[] {
    return (document.diagnostics ?? []).filter(d => d.severity === 1).map(d => `line ${d.range.start.line + 1}: ${d.message}`);
}

/**
 * An error that forbids writing this action's outcome: any syntax error (the parse tree may be
 * wrong), or an error in the action itself or in the declarations it uses (action-errors.ts).
 */
function blockingError(document: LangiumDocument, model: ScenarioModel, action: Action): string | undefined {
    const errors = errorsBlocking(document, model, action);
    if (errors.length === 0) return undefined;
    if (document.parseResult.lexerErrors.length > 0 || document.parseResult.parserErrors.length > 0) {
        return `the file has syntax errors (line ${errors[0].range.start.line + 1}: ${errors[0].message}); fix them first.`;
    }
    return `line ${errors[0].range.start.line + 1}: ${errors[0].message}`;
}

/**
 * The edits that turn `text` into resolve-all's result, one per outcome block, each computed against
 * the original text; if they do not reproduce the result exactly, one edit spanning the changes.
 */
function blockEdits(text: string, model: ScenarioModel, result: { text: string, written: WrittenOutcome[] }): Array<Plan & { kind: 'edit', action: string }> {
    const plans: Array<Plan & { kind: 'edit', action: string }> = [];
    for (const w of result.written) {
        const action = model.actions.find(a => a.node.name === w.action);
        const offsets = action && actionOffsets(action.node, text);
        if (!offsets) continue;
        const edit = resolutionEdit(text, offsets, w.resolution, w.dice);
        if (!isNoOp(text, edit)) plans.push({ kind: 'edit', action: w.action, edit, text, summary: w.resolution.json.summary, seed: w.resolution.json.seed });
    }
    if (applyEdits(text, plans.map(p => p.edit)) === result.text) return plans;
    let start = 0;
    while (start < text.length && text[start] === result.text[start]) start++;
    let end = 0;
    while (end < text.length - start && text[text.length - 1 - end] === result.text[result.text.length - 1 - end]) end++;
    const edit = { start, end: text.length - end, newText: result.text.slice(start, result.text.length - end) };
    return plans.length === 0 ? [] : [{ ...plans[0], action: plans.map(p => p.action).join(', '), edit }];
}

