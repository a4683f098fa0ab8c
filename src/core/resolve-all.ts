/**
 * Resolve all: every action without a current outcome, in the order it is resolved (file
 * order, or within a turn the rule set's order of play: `resolutionOrder`), each one seeing the
 * campaign state that the outcomes carried before it produce.
 *
 * State comes from written outcomes (src/core/campaign-state.ts). Re-reading the whole file after
 * each outcome made the cost grow with the square of the campaign (40 chained engagements
 * took 14 s), so the file is checked once (or its check is handed in: the editor's document is
 * already validated), the actions are resolved in order, each new outcome (exactly what the parser
 * makes of the written block, for the fields the model reads) laid over the parse tree on a model of
 * its own (`withOutcomes`), and the result is verified. The tree itself is never changed: it may be
 * the editor's document, whose nodes the caches of every later build are kept by, and a run that
 * throws halfway leaves nothing of itself in it. With `inMemory` (the CLI and the server) the
 * verification is in memory too: every written outcome replayed against the final state, and the
 * checks that read the campaign state run on the final model; so the cost is about the sum of the
 * engagements (a check of the written file, four times the text of a large campaign, was most of it).
 * Without `inMemory`, the written text is checked as a whole. If the verification finds an error, or
 * an outcome that is not current, the in-memory state and the file disagree; then the file is
 * resolved again the slow way, re-read after each batch of outcomes, which names the outcome that
 * made a later action wrong. Either way the text is the same: the one the file gives when re-read
 * after every outcome.
 *
 * Cancellation (`token`) is looked at between engagements and between the slow path's checks: a
 * cancelled run throws `ResolveAllCancelled` and returns nothing, so nothing is written.
 *
 * Pure over the text: the caller supplies how text becomes a checked model (the CLI's loader, or the
 * language server's), and writes the result. Nothing is returned half-done: an error anywhere throws.
 */
import type { Action, Fact, Outcome, OutcomeLine, Scenario, Target } from '../language/generated/ast.js';
import { modelOf } from './model-cache.js';
import { withOutcomes, type ActionModel, type ScenarioModel } from './scenario.js';
import { participants, resolutionOrder } from './campaign-state.js';
import { actionOffsets, applyEdits, isNoOp, resolutionEdit, type OffsetEdit } from './outcome-edit.js';
import type { DiceChoice, Resolution } from './resolution.js';
import { isResolvable, isUnresolvable, outcomeStatus, resolveAction, type ResolveOptions } from './resolve.js';

export interface CheckedText {
    root: Scenario;
    /** The file's errors, formatted for the umpire; any error stops the run. */
    errors: string[];
    /** The same errors with their places (0-based), for a caller that reads them back to another text. */
    placed?: ReadonlyArray<{ line: number, character: number, message: string }>;
}

/** How the quick path verifies its outcomes without checking the written text as a whole. */
export interface InMemoryChecks {
    /**
     * The errors of the checks that read the campaign state (units out of the fight, the rule set's
     * checks of each action), run on `model`: the parse tree with every new outcome laid over it.
     */
    errorsWith(model: ScenarioModel): string[];
}

export interface ResolveAllOptions extends ResolveOptions {
    /** Only this action (the CLI's `--engagement`). */
    only?: string;
    /** The check of `text` already made (the editor's validated document, the CLI's loaded file). */
    checked?: CheckedText;
    /** Verify in memory instead of checking the written text again. */
    inMemory?: InMemoryChecks;
    /** Looked at between engagements; a cancelled run throws `ResolveAllCancelled`. */
    token?: { readonly isCancellationRequested: boolean };
    /** Lets the event loop turn between engagements (the server reads its messages, a cancellation among them). */
    pause?: () => Promise<void>;
}

export interface WrittenOutcome {
    action: string;
    resolution: Resolution;
    dice: DiceChoice;
}

export class ResolveAllError extends Error {
    constructor(message: string, readonly errors: readonly string[] = []) {
        super(message);
    }
}

/** The run was cancelled: nothing is returned, so nothing is written. */
export class ResolveAllCancelled extends Error {
    constructor() {
        super('Resolve all was cancelled: nothing was written.');
    }
}

function stopIfCancelled(options: ResolveAllOptions): void {
    if (options.token?.isCancellationRequested) throw new ResolveAllCancelled();
}

/** The outcome as written is current: same dice kind, and the fingerprint of its inputs still matches. */
function hasCurrentOutcome(model: ScenarioModel, action: ActionModel): boolean {
    const status = outcomeStatus(model, action).kind;
    return status === 'current' || status === 'hand-written' || status === 'unresolvable';
}

export function needsOutcome(model: ScenarioModel, action: ActionModel): boolean {
    return isResolvable(model, action) && !hasCurrentOutcome(model, action);
}

export async function resolveAll(text: string, check: (text: string) => Promise<CheckedText>, options: ResolveAllOptions): Promise<{ text: string, written: WrittenOutcome[] }> {
    const quick = await resolveAllQuick(text, check, options);
    return 'drawn' in quick ? resolveAllSlow(text, check, options, quick.drawn) : quick;
}

/**
 * The quick path alone (the server runs it under the workspace's read lock, and the slow path
 * outside it): the result, or the seeds it drew, which the slow path must hand out again.
 */
export async function resolveAllQuick(text: string, check: (text: string) => Promise<CheckedText>, options: ResolveAllOptions): Promise<{ text: string, written: WrittenOutcome[] } | { drawn: readonly number[] }> {
    const checked = options.checked ?? await check(text);
    stopIfCancelled(options);
    if (checked.errors.length > 0) throw new ResolveAllError('the file has errors: fix them before resolving', checked.errors);
    const model = modelOf(checked.root);
    if (options.only !== undefined && !model.actions.some(a => a.node.name === options.only)) {
        throw new ResolveAllError(`no engagement named '${options.only}' (there are: ${model.actions.map(a => a.node.name).join(', ') || 'none'})`);
    }
    const drawn: number[] = [];
    let planned: Awaited<ReturnType<typeof inOrder>> | undefined;
    try {
        planned = await inOrder(model, text, { ...options, newSeed: (a, r) => { const s = options.newSeed(a, r); drawn.push(s); return s; } });
    } catch (err) {
        if (!(err instanceof ResolveAllError)) throw err;
    }
    if (planned) {
        if (planned.edits.length === 0) return { text, written: planned.written };
        const result = applyEdits(text, planned.edits);
        if (planned.verified) return { text: result, written: planned.written };
        if (!options.inMemory) {
            const final = await check(result);
            if (final.errors.length === 0 && !modelOf(final.root).actions.some(a => selected(a, options) && needsOutcome(modelOf(final.root), a))) {
                return { text: result, written: planned.written };
            }
        }
    }
    return { drawn };
}

/** The slow path (below), handing out first the seeds the quick path drew, in the same order. */
export function resolveAllSlow(text: string, check: (text: string) => Promise<CheckedText>, options: ResolveAllOptions, drawn: readonly number[]): Promise<{ text: string, written: WrittenOutcome[] }> {
    stopIfCancelled(options);
    let replay = 0;
    return stepByStep(text, check, { ...options, newSeed: (a, r) => (replay < drawn.length ? drawn[replay++] : options.newSeed(a, r)) });
}

function selected(action: ActionModel, options: ResolveAllOptions): boolean {
    return options.only === undefined || action.node.name === options.only;
}

/**
 * The quick path: one pass in resolution order over one parse. Each outcome written is laid over the
 * parse tree on a new model (`withOutcomes`), so that the campaign state of every later action
 * includes it, as it would after re-reading the file. With `inMemory`, the result is verified on the
 * last model (`verified`). The tree, often the editor's own document, is only read: another request
 * served while the event loop turns between steps (`step`) sees it as the file says, and so do the
 * caches kept by its nodes, however the run ends.
 */
async function inOrder(first: ScenarioModel, text: string, options: ResolveAllOptions): Promise<{ edits: OffsetEdit[], written: WrittenOutcome[], verified: boolean }> {
    const edits: OffsetEdit[] = [];
    const written: WrittenOutcome[] = [];
    // One map for the run, grown as outcomes are written: each model reads it only until the next is made.
    const outcomes = new Map<Action, Outcome>();
    const run = {};
    const step = async <T>(work: () => T): Promise<T> => {
        await options.pause?.();
        stopIfCancelled(options);
        return work();
    };
    let model = first;
    for (const action of resolutionOrder(first)) {
        await step(() => {
            const name = action.node.name;
            if (!selected(action, options) || !needsOutcome(model, action)) return;
            const result = resolveAction(model, action, options);
            if (isUnresolvable(result)) throw new ResolveAllError(`'${name}' cannot be resolved: ${result.problem}`);
            // Offsets come from the parse of `text`, and each block is its action's own: every edit is against `text`.
            const offsets = actionOffsets(action.node, text);
            if (!offsets) throw new ResolveAllError(`'${name}' has no closing '}'`);
            const edit = resolutionEdit(text, offsets, result.resolution, result.dice);
            written.push({ action: name, resolution: result.resolution, dice: result.dice });
            if (isNoOp(text, edit)) return;
            edits.push(edit);
            outcomes.set(action.node, outcomeNode(action.node, result.resolution, result.dice));
            // A new model object: the campaign timeline (cached per model) is continued from this outcome.
            model = withOutcomes(first, outcomes, run);
        });
    }
    const checks = options.inMemory;
    if (!checks || edits.length === 0) return { edits, written, verified: false };
    // What checking the written text would find, on the last model: every selected action's
    // outcome current against the state the last model gives (each replayed, as the stale check
    // does), and no error from the checks that read that state. The rest is as the file was checked.
    for (const action of model.actions) {
        if (await step(() => selected(action, options) && needsOutcome(model, action))) return { edits, written, verified: false };
    }
    const errors = await step(() => checks.errorsWith(model));
    return { edits, written, verified: errors.length === 0 };
}

/** `Force`, `Force.Unit` or `Force.Unit#2` as the parser reads it (the model reads names as written). */
function targetNode(text: string, container: OutcomeLine): Target {
    const m = /^([^.#]+)(?:\.([^#]+)(?:#([0-9]+))?)?$/.exec(text);
    const ref = (refText: string) => ({ $refText: refText, ref: undefined });
    return {
        $type: 'Target', $container: container, force: ref(m?.[1] ?? text),
        unit: m?.[2] !== undefined ? ref(m[2]) : undefined, index: m?.[3] !== undefined ? Number(m[3]) : undefined
    } as unknown as Target;
}

/**
 * The outcome block `outcomeBlock` writes, as the parse tree the parser makes of it, for the fields
 * the model reads (test/core/resolve-all-in-memory.test.ts compares it with the parser's reading of
 * every block the examples and a long campaign write). Parsing the blocks instead cost as much as
 * checking the written file: they are most of its text.
 */
export function outcomeNode(action: Action, resolution: Resolution, dice: DiceChoice): Outcome {
    const outcome = {
        $type: 'Outcome', $container: action, entered: dice.kind === 'entered', seed: dice.kind === 'seed' ? dice.seed : undefined,
        reroll: dice.kind === 'seed' && dice.reroll ? dice.reroll : undefined,
        check: resolution.json.check, summary: resolution.json.summary, lines: [] as OutcomeLine[]
    } as unknown as Outcome;
    for (const line of resolution.lines) {
        const node = { $type: 'OutcomeLine', $container: outcome, result: line.result, facts: [] as Fact[] } as unknown as OutcomeLine;
        node.unit = targetNode(line.unit, node);
        if (line.opponent !== undefined) node.opponent = targetNode(line.opponent, node);
        for (const [key, value] of line.facts) {
            node.facts.push({
                $type: 'Fact', $container: node, key,
                number: typeof value === 'number' ? value : undefined, text: typeof value === 'string' ? value : undefined
            } as unknown as Fact);
        }
        outcome.lines.push(node);
    }
    return outcome;
}

/**
 * The slow path: re-read the text after each batch of edits. A batch holds consecutive actions that
 * share no unit with an outcome written earlier in the same batch (their state cannot have changed).
 */
async function stepByStep(text: string, check: (text: string) => Promise<CheckedText>, options: ResolveAllOptions): Promise<{ text: string, written: WrittenOutcome[] }> {
    const done = new Set<string>();
    const written: WrittenOutcome[] = [];
    let current = text;
    // Each pass writes at least one outcome, and no action twice: at most one pass per action, plus the last.
    for (;;) {
        stopIfCancelled(options);
        const checked = await check(current);
        if (checked.errors.length > 0) {
            const last = written[written.length - 1];
            throw new ResolveAllError(last
                ? `after writing the outcome of '${last.action}', the file has errors (nothing was written)`
                : 'the file has errors: fix them before resolving', checked.errors);
        }
        const model = modelOf(checked.root);
        const edits = batch(model, current, options, done, written);
        if (edits.length === 0) return { text: current, written };
        current = applyEdits(current, edits);
    }
}
/** Resolves the next run of actions whose state no edit of this batch can change. */
function batch(model: ScenarioModel, text: string, options: ResolveAllOptions, done: Set<string>, written: WrittenOutcome[]): OffsetEdit[] {
    const edits: OffsetEdit[] = [];
    const touched = new Set<string>();
    for (const action of resolutionOrder(model)) {
        stopIfCancelled(options);
        const name = action.node.name;
        if ((options.only !== undefined && name !== options.only) || done.has(name) || !needsOutcome(model, action)) continue;
        if (touched.size > 0 && participants(model, action.node).some(p => touched.has(p.unit.id))) break;
        const result = resolveAction(model, action, options);
        if (isUnresolvable(result)) throw new ResolveAllError(`'${name}' cannot be resolved: ${result.problem}`);
        const offsets = actionOffsets(action.node, text);
        if (!offsets) throw new ResolveAllError(`'${name}' has no closing '}'`);
        const edit = resolutionEdit(text, offsets, result.resolution, result.dice);
        done.add(name);
        written.push({ action: name, resolution: result.resolution, dice: result.dice });
        if (isNoOp(text, edit)) continue;
        edits.push(edit);
        for (const line of result.resolution.lines) touched.add(line.unit);
    }
    return edits;
}
