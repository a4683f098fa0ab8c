/**
 * The one edit that writes an outcome into a .battle file: it replaces the action's written
 * `outcome … { … }` block, or inserts one just before the action's closing `}`. Nothing outside that
 * block changes, and writing the same outcome again gives the same bytes (org-babel's `#+RESULTS:`
 * block is the model). Pure over the file's text and the action's offsets, so that the language
 * server's Resolve lens and the CLI's `--write` make exactly the same edit.
 */
import { isSeed, type Action } from '../language/generated/ast.js';
import { outcomeBlock } from './outcome-block.js';
import type { DiceChoice, Resolution } from './resolution.js';

/** Where an action sits in the text (offsets in UTF-16 code units, like the editor's). */
export interface ActionOffsets {
    /** The action's first character (its kind keyword). */
    start: number;
    /** Just after the action's closing `}`. */
    end: number;
    /** The written outcome block (`outcome` … `}`), when there is one. */
    outcome?: { start: number, end: number };
}

/** Replace `text.slice(start, end)` with `newText`. */
export interface OffsetEdit {
    start: number;
    end: number;
    newText: string;
}

export interface Position {
    line: number;
    character: number;
}

/** The same edit in editor coordinates (an LSP `TextEdit`). */
export interface RangeEdit {
    range: { start: Position, end: Position };
    newText: string;
}

/** The action's offsets from its parse tree; undefined when the parser did not find its closing `}`. */
export function actionOffsets(action: Action, text: string): ActionOffsets | undefined {
    const cst = action.$cstNode;
    if (!cst || text[cst.end - 1] !== '}') return undefined;
    const out = action.outcome?.$cstNode;
    return { start: cst.offset, end: cst.end, outcome: out ? { start: out.offset, end: out.end } : undefined };
}

/**
 * The line ending the outcome block is written with: the first line break at or after `offset` (the
 * action's first line), else the last one before it, else `\n`. CRLF, LF and lone-CR files keep their
 * own; a file that mixes them gets the one its action's line uses.
 */
export function detectEol(text: string, offset = 0): '\r\n' | '\n' | '\r' {
    const breakAt = (i: number) => (text[i] === '\r' ? (text[i + 1] === '\n' ? '\r\n' : '\r') : '\n');
    for (let i = offset; i < text.length; i++) if (text[i] === '\n' || text[i] === '\r') return breakAt(i);
    for (let i = Math.min(offset, text.length) - 1; i >= 0; i--) {
        if (text[i] === '\n') return i > 0 && text[i - 1] === '\r' ? '\r\n' : '\n';
        if (text[i] === '\r') return '\r';
    }
    return '\n';
}

function lineStart(text: string, offset: number): number {
    let i = offset;
    while (i > 0 && text[i - 1] !== '\n' && text[i - 1] !== '\r') i--;
    return i;
}

/** The spaces and tabs that start the line holding `offset`. */
function lineIndent(text: string, offset: number): string {
    const start = lineStart(text, offset);
    return /^[ \t]*/.exec(text.slice(start, offset))![0];
}

const blank = (s: string) => /^[ \t]*$/.test(s);

/**
 * The edit that puts `block(indent, eol)` in place, where `indent` is the action's own indentation
 * and the block indents itself one level deeper (as `outcomeBlock` does).
 */
function outcomeEdit(text: string, action: ActionOffsets, block: (indent: string, eol: string) => string): OffsetEdit {
    const eol = detectEol(text, action.start);
    const indent = lineIndent(text, action.start);
    const body = block(indent, eol);
    if (action.outcome) {
        const { start, end } = action.outcome;
        const from = lineStart(text, start);
        // The usual layout: the old block starts its own line, so the whole line is the tool's.
        if (blank(text.slice(from, start))) return { start: from, end, newText: body };
        // Something precedes it on its line: move the new block onto a line of its own.
        return { start, end, newText: eol + body };
    }
    const close = action.end - 1;
    const from = lineStart(text, close);
    // The closing `}` starts its own line: the block goes on the lines just above it.
    if (blank(text.slice(from, close))) return { start: from, end: from, newText: body + eol };
    // `engagement E { … }` on one line: the block is inserted just before the `}`, which gets a line of
    // its own; every character of the line, the spaces before the `}` too, stays where it was.
    return { start: close, end: close, newText: eol + body + eol + indent };
}

/** The outcome edit for a resolution: the block is `outcomeBlock`, in the file's own line endings. */
export function resolutionEdit(text: string, action: ActionOffsets, resolution: Resolution, dice: DiceChoice): OffsetEdit {
    return outcomeEdit(text, action, (indent, eol) => outcomeBlock(resolution, dice, indent, eol));
}

/**
 * The one edit a Re-roll makes: the new outcome block and, when the action has its own `seed` line,
 * that line rewritten to the new seed, so that the new outcome is current (an outcome thrown from
 * another seed than the action's own is stale) and Resolve all keeps it. One edit spanning both, so
 * that the editor applies them as one change and one undo step.
 */
export function rerollEdit(text: string, action: Action, offsets: ActionOffsets, resolution: Resolution, dice: DiceChoice): OffsetEdit {
    const block = resolutionEdit(text, offsets, resolution, dice);
    const own = action.statements.find(isSeed)?.$cstNode;
    if (!own || dice.kind !== 'seed') return block;
    const line = { start: own.offset, end: own.end, newText: `seed ${dice.seed}` };
    const start = Math.min(line.start, block.start);
    const end = Math.max(line.end, block.end);
    const moved = [line, block].map(e => ({ ...e, start: e.start - start, end: e.end - start }));
    return { start, end, newText: applyEdits(text.slice(start, end), moved) };
}

/** Whether applying the edit would leave the text as it is (resolving again with the same dice). */
export function isNoOp(text: string, edit: OffsetEdit): boolean {
    return text.slice(edit.start, edit.end) === edit.newText;
}

/** Applies edits made against the same text (non-overlapping, any order). */
export function applyEdits(text: string, edits: readonly OffsetEdit[]): string {
    const sorted = [...edits].sort((a, b) => b.start - a.start);
    let out = text;
    for (const e of sorted) out = out.slice(0, e.start) + e.newText + out.slice(e.end);
    return out;
}

/** Line and character of an offset, counting `\r\n`, `\n` and `\r` as line breaks (as LSP does). */
export function positionAt(text: string, offset: number): Position {
    let line = 0;
    let start = 0;
    for (let i = 0; i < offset && i < text.length; i++) {
        const c = text[i];
        if (c === '\r' && text[i + 1] === '\n') continue;
        if (c === '\n' || c === '\r') {
            line++;
            start = i + 1;
        }
    }
    return { line, character: Math.min(offset, text.length) - start };
}

export function toRangeEdit(text: string, edit: OffsetEdit): RangeEdit {
    return { range: { start: positionAt(text, edit.start), end: positionAt(text, edit.end) }, newText: edit.newText };
}
