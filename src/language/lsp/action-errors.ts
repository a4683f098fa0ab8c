/**
 * The errors that stop an action from being resolved: any syntax error (the tree may be wrong), an
 * error inside the action (not in its old outcome block, which Resolve replaces), or an error outside
 * every action (a declaration it may use). Errors inside other actions do not count. Resolve refuses
 * on them, the Resolve lens is not offered and the header hint says "cannot resolve: N errors" — one
 * reading for the three (docs/diagnostics.md).
 */
import type { LangiumDocument } from 'langium';
import type { Diagnostic, Position, Range } from 'vscode-languageserver';
import type { Action } from '../generated/ast.js';
import type { ScenarioModel } from '../../core/scenario.js';

interface FileErrors {
    readonly syntax: boolean;
    /** Errors outside every action. */
    readonly outside: readonly Diagnostic[];
    /** Errors inside each action, its old outcome block left out. */
    readonly inside: ReadonlyMap<Action, readonly Diagnostic[]>;
}

const NONE: readonly Diagnostic[] = [];
/** Worked out once per set of diagnostics (a build publishes a new array). */
const kept = new WeakMap<readonly Diagnostic[], FileErrors>();

const before = (a: Position, b: Position) => a.line < b.line || (a.line === b.line && a.character <= b.character);
const inside = (inner: Range, outer: Range | undefined) => !!outer && before(outer.start, inner.start) && before(inner.end, outer.end);

function fileErrors(document: LangiumDocument, model: ScenarioModel): FileErrors {
    const diagnostics: readonly Diagnostic[] = document.diagnostics ?? NONE;
    const known = kept.get(diagnostics);
    if (known) return known;
    const errors = diagnostics.filter(d => d.severity === 1);
    const syntax = document.parseResult.lexerErrors.length > 0 || document.parseResult.parserErrors.length > 0;
    const outside: Diagnostic[] = [];
    const byAction = new Map<Action, Diagnostic[]>();
    if (errors.length > 0) {
        // Actions in file order, found by a binary search on their ranges.
        const actions = model.actions.map(a => a.node).filter(a => a.$cstNode)
            .sort((a, b) => a.$cstNode!.offset - b.$cstNode!.offset);
        for (const d of errors) {
            let lo = 0, hi = actions.length - 1, found: Action | undefined;
            while (lo <= hi) {
                const mid = (lo + hi) >> 1, range = actions[mid].$cstNode!.range;
                if (inside(d.range, range)) { found = actions[mid]; break; }
                if (before(d.range.start, range.start)) hi = mid - 1; else lo = mid + 1;
            }
            if (!found) outside.push(d);
            else if (!inside(d.range, found.outcome?.$cstNode?.range)) byAction.set(found, [...(byAction.get(found) ?? []), d]);
        }
    }
    const result = { syntax, outside, inside: byAction };
    kept.set(diagnostics, result);
    return result;
}

/** The errors that stop this action from being resolved, in file order (none: it may be resolved). */
export function errorsBlocking(document: LangiumDocument, model: ScenarioModel, action: Action): readonly Diagnostic[] {
    const f = fileErrors(document, model);
    if (f.syntax) return (document.diagnostics ?? NONE).filter(d => d.severity === 1);
    const own = f.inside.get(action) ?? NONE;
    if (f.outside.length === 0) return own;
    if (own.length === 0) return f.outside;
    return [...own, ...f.outside].sort((a, b) => (before(a.range.start, b.range.start) ? -1 : 1));
}

/** The header's word for a blocked action: "cannot resolve: 2 errors". */
export function cannotResolveLabel(count: number): string {
    return `cannot resolve: ${count} error${count === 1 ? '' : 's'}`;
}
