/**
 * Resolve all (issue 8): every action without a current outcome, in file order, each one seeing the
 * campaign state that the outcomes written before it produce.
 *
 * State comes from written outcomes (src/model/state.ts), so an outcome must be in the text before a
 * later action can see it: the text is re-read after each batch of edits. A batch holds consecutive
 * actions that share no unit with an outcome written earlier in the same batch (their state cannot
 * have changed), so a file of independent engagements is written in one pass.
 *
 * Pure over the text: the caller supplies how text becomes a checked model (the CLI's loader, or the
 * language server's), and writes the result. Nothing is returned half-done: an error anywhere throws.
 */
import type { Scenario } from '../language/generated/ast.js';
import { modelOf } from './model-cache.js';
import type { ActionModel, ScenarioModel } from './scenario.js';
import { participants } from './campaign-state.js';
import { actionOffsets, applyEdits, isNoOp, resolutionEdit, type OffsetEdit } from './outcome-edit.js';
import type { DiceChoice, Resolution } from './resolution.js';
import { isResolvable, isUnresolvable, outcomeStatus, resolveAction, type ResolveOptions } from './resolve.js';

export interface CheckedText {
    root: Scenario;
    /** The file's errors, formatted for the umpire; any error stops the run. */
    errors: string[];
}

export interface ResolveAllOptions extends ResolveOptions {
    /** Only this action (the CLI's `--engagement`). */
    only?: string;
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

/** The outcome as written is current: same dice kind, and the fingerprint of its inputs still matches. */
function hasCurrentOutcome(model: ScenarioModel, action: ActionModel): boolean {
    const status = outcomeStatus(model, action).kind;
    return status === 'current' || status === 'hand-written' || status === 'unresolvable';
}

function needsOutcome(model: ScenarioModel, action: ActionModel): boolean {
    return isResolvable(model, action) && !hasCurrentOutcome(model, action);
}

export async function resolveAll(text: string, check: (text: string) => Promise<CheckedText>, options: ResolveAllOptions): Promise<{ text: string, written: WrittenOutcome[] }> {
    const done = new Set<string>();
    const written: WrittenOutcome[] = [];
    let current = text;
    // Each pass writes at least one outcome, and no action twice: at most one pass per action, plus the last.
    for (;;) {
        const checked = await check(current);
        if (checked.errors.length > 0) {
            const last = written[written.length - 1];
            throw new ResolveAllError(last
                ? `after writing the outcome of '${last.action}', the file has errors (nothing was written)`
                : 'the file has errors: fix them before resolving', checked.errors);
        }
        const model = modelOf(checked.root);
        if (options.only !== undefined && !model.actions.some(a => a.node.name === options.only)) {
            throw new ResolveAllError(`no engagement named '${options.only}' (there are: ${model.actions.map(a => a.node.name).join(', ') || 'none'})`);
        }
        const edits = batch(model, current, options, done, written);
        if (edits.length === 0) return { text: current, written };
        current = applyEdits(current, edits);
    }
}

/** Resolves the next run of actions whose state no edit of this batch can change. */
function batch(model: ScenarioModel, text: string, options: ResolveAllOptions, done: Set<string>, written: WrittenOutcome[]): OffsetEdit[] {
    const edits: OffsetEdit[] = [];
    const touched = new Set<string>();
    for (const action of model.actions) {
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
