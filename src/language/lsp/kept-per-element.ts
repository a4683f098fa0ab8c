/**
 * What the editor's whole-file requests (semantic tokens, outline, folding) keep per element between
 * edits (docs/performance.md "The editor's whole-file requests"). The parse in pieces keeps
 * every top-level element outside an edit, and every element of a turn outside an edit inside the
 * turn, as the same AST node with its text unchanged; only its place in the file moves. So an answer
 * computed for such an element holds after any later edit once its positions are moved: by the lines
 * its start moved, and on its first line also by the columns its start moved (later lines of the
 * element begin inside it, so their columns cannot change).
 *
 * Answers are kept beside the units of the last answer (KeptPerElement), never on the nodes, so that
 * a closed document's nodes and answers go together, and nothing here is seen by the build's own kept
 * state. Where a kept element starts now is worked out from where it started in the text of the last
 * answer and the change the parse recorded between the two texts (battle-document-factory.ts
 * `ParsedFrom.change`), not read from its node: reading the place of 10,000 nodes scattered over the heap cost ~18 ms an answer at 50,000 lines.
 */
import { interruptAndCheck, type AstNode, type LangiumDocument } from 'langium';
import { LSPErrorCodes, ResponseError, type CancellationToken, type Position } from 'vscode-languageserver';
import { parsedFrom } from '../battle-document-factory.js';
import type { TextSpan } from '../text-change.js';
import { isTurn, type Scenario, type Turn } from '../generated/ast.js';
import type { BattleCaches, LastBuild } from '../battle-caches.js';

/**
 * Where an element starts now (its first token), as a position of its own: the nodes' position objects
 * are brought up to date in place when the file moves, and a kept place must not move with them.
 */
export function startOf(node: AstNode): Position | undefined {
    const start = node.$cstNode?.range.start;
    return start && { line: start.line, character: start.character };
}

/** An element whose answer is kept: a top-level element, or an element of a turn (the turn itself is worked each time, without its elements). */
export type Unit = { readonly kind: 'element', readonly node: AstNode } | { readonly kind: 'turn', readonly node: Turn };

/** The units of a tree in the order of the text: a turn is followed by its own elements. */
export function* unitsOf(root: Scenario): Generator<Unit> {
    for (const element of root.elements) {
        if (isTurn(element)) {
            yield { kind: 'turn', node: element };
            for (const inner of element.elements) yield { kind: 'element', node: inner };
        } else {
            yield { kind: 'element', node: element };
        }
    }
}

/**
 * A position computed when an element started at `from`, moved to where the element starts now (`to`).
 * Returns the same object when the element did not move, so kept answers are shared, never copied.
 */
export function movePosition(position: Position, from: Position, to: Position): Position {
    if (from.line === to.line && from.character === to.character) return position;
    const character = position.line === from.line ? position.character + to.character - from.character : position.character;
    return { line: position.line + to.line - from.line, character };
}

/** What a kept element's answer is made from, and how it is moved. */
export interface ElementAnswers<E> {
    /** The answer of an element (new, or not kept) of `document`, which starts at `at`. */
    make(node: AstNode, at: Position, document: LangiumDocument): E;
    /** A kept answer of an element that started at `from` and now starts at `to`. */
    move(entry: E, from: Position, to: Position): E;
}

/** Elements made between two pauses of a yielding answer (a few ms of work). */
const MADE_BETWEEN_PAUSES = 200;

interface LastAnswer<E> {
    readonly text: string;
    readonly units: readonly AstNode[];
    readonly offsets: readonly number[];
    readonly starts: readonly Position[];
    readonly entries: readonly E[];
}

/** The one change between two texts: the common start's length, the common end's, and where that end starts in each (line, column). */
interface Change {
    readonly prefix: number;
    readonly oldEnd: number;
    readonly delta: number;
    readonly oldEndLine: number;
    readonly lines: number;
    readonly columns: number;
}

/**
 * One kind of answer (tokens, outline entries, folding ranges) kept per element and per document. The
 * units of each answer are matched with those of the last by identity (the kept ones at the start and
 * the end, and the middle, where a turn's kept elements sit, by a map), as the linker matches them.
 */
export class KeptPerElement<E> {
    private readonly last: LastBuild<LangiumDocument, LastAnswer<E>>;

    /** `name` and `keeps`: the table's in the language's caches (battle-caches.ts). */
    constructor(caches: BattleCaches, name: string, keeps: string, private readonly answers: ElementAnswers<E>) {
        this.last = caches.lastBuild({
            name, keeps: `${keeps}, with the elements, their places and the text of the last answer`,
            keyedBy: 'the document', againWhen: 'the element was made anew by the parse; moved by the change the parse recorded'
        });
    }

    /** Each unit's answer, in the order given, and where it starts now; `units` are the elements of the document's current tree. */
    entries(document: LangiumDocument, units: readonly AstNode[]): { entries: E[], starts: Position[] } {
        const run = this.run(document, units);
        for (let step = run.next(); ; step = run.next()) if (step.done) return step.value;
    }

    /**
     * As `entries`, letting other work in (an edit's build) every few hundred elements made: a cold
     * answer of a big file (after the open, or a parse of the whole file) walks every node, 0.3–0.6 s at
     * 50,000 lines. Refused (ContentModified) when the tree changed meanwhile; OperationCancelled when
     * the request was cancelled.
     */
    async entriesYielding(document: LangiumDocument, units: readonly AstNode[], cancelToken: CancellationToken): Promise<{ entries: E[], starts: Position[] }> {
        const tree = document.parseResult;
        const run = this.run(document, units);
        for (let step = run.next(); ; step = run.next()) {
            if (step.done) return step.value;
            await interruptAndCheck(cancelToken);
            if (document.parseResult !== tree) throw new ResponseError(LSPErrorCodes.ContentModified, 'The document changed while this answer was made; ask again.');
        }
    }

    /** The work of `entries`, pausing (yield) after every few hundred elements made. */
    private *run(document: LangiumDocument, units: readonly AstNode[]): Generator<void, { entries: E[], starts: Position[] }> {
        const parse = parsedFrom(document);
        const text = parse?.text ?? document.textDocument.getText();
        const last = this.last.get(document);
        // The parse in pieces moved the kept elements by the change it recorded between the text it was
        // spliced into and this one; the same change moves the kept answers. When the last answer was made
        // for an older text (parses in between), every kept element's place is read from its node.
        const change = last && parse?.change && parse.previous === last.text ? placesMoved(last.text, text, parse.change) : undefined;
        const entries: E[] = new Array(units.length);
        const starts: Position[] = new Array(units.length);
        const offsets: number[] = new Array(units.length);
        const n = units.length, m = last?.units.length ?? 0;
        let head = 0;
        if (last) while (head < n && head < m && units[head] === last.units[head]) head++;
        let tail = 0;
        if (last) while (tail < n - head && tail < m - head && units[n - 1 - tail] === last.units[m - 1 - tail]) tail++;
        let middle: Map<AstNode, number> | undefined;
        let made = 0;
        for (let i = 0; i < n; i++) {
            const node = units[i];
            let k = -1;
            if (last) {
                if (i < head) k = i;
                else if (i >= n - tail) k = i - n + m;
                else {
                    middle ??= new Map(last.units.slice(head, m - tail).map((u, j) => [u, head + j]));
                    k = middle.get(node) ?? -1;
                }
            }
            const moved = k >= 0 && change ? movedTo(last!.offsets[k], last!.starts[k], change) : undefined;
            const offset = moved ? moved.offset : node.$cstNode?.offset ?? 0;
            const at = moved ? moved.at : startOf(node) ?? { line: 0, character: 0 };
            offsets[i] = offset;
            starts[i] = at;
            if (k < 0) {
                entries[i] = this.answers.make(node, at, document);
                if (++made % MADE_BETWEEN_PAUSES === 0) yield;
            } else {
                const from = last!.starts[k];
                entries[i] = from.line === at.line && from.character === at.character ? last!.entries[k] : this.answers.move(last!.entries[k], from, at);
            }
        }
        this.last.set(document, { text, units, offsets, starts, entries });
        return { entries, starts };
    }
}

/**
 * Where a kept element that started at `offset` / `at` in the old text starts in the new: unchanged
 * before the change, moved by it after; undefined when it started inside the changed text (then its
 * node is read).
 */
function movedTo(offset: number, at: Position, change: Change): { offset: number, at: Position } | undefined {
    if (offset < change.prefix) return { offset, at };
    if (offset < change.oldEnd) return undefined;
    const line = at.line + change.lines;
    const character = at.line === change.oldEndLine ? at.character + change.columns : at.character;
    return { offset: offset + change.delta, at: { line, character } };
}

/** How a change of the span `span` moves places, or undefined when it cuts a CR LF pair (then every place is read from the nodes). */
function placesMoved(old: string, text: string, { prefix, suffix }: TextSpan): Change | undefined {
    const oldEnd = old.length - suffix, newEnd = text.length - suffix;
    for (const [t, at] of [[old, prefix], [text, prefix], [old, oldEnd], [text, newEnd]] as const) {
        if (at > 0 && at < t.length && t.charCodeAt(at - 1) === 13 && t.charCodeAt(at) === 10) return undefined;
    }
    const oldEndLine = linesBefore(old, 0, oldEnd);
    const lines = linesBefore(text, prefix, newEnd) - linesBefore(old, prefix, oldEnd);
    const columns = columnOf(text, newEnd) - columnOf(old, oldEnd);
    return { prefix, oldEnd, delta: text.length - old.length, oldEndLine, lines, columns };
}

/** Line breaks (LF, CR LF, or a lone CR, as the editor counts them) in text[from, to). */
function linesBefore(text: string, from: number, to: number): number {
    let n = 0;
    if (text.indexOf('\r') < 0) {
        for (let i = text.indexOf('\n', from); i >= 0 && i < to; i = text.indexOf('\n', i + 1)) n++;
        return n;
    }
    for (let i = from; i < to; i++) {
        const c = text.charCodeAt(i);
        if (c === 10 || (c === 13 && text.charCodeAt(i + 1) !== 10)) n++;
    }
    return n;
}

/** The column of `offset`: characters since the last line break before it. */
function columnOf(text: string, offset: number): number {
    let i = offset;
    while (i > 0) {
        const c = text.charCodeAt(i - 1);
        if (c === 10 || c === 13) break;
        i--;
    }
    return offset - i;
}
