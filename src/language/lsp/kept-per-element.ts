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
import { elementsChangedSince, parsedFrom, type ParseElements } from '../battle-document-factory.js';
import { keptUnits } from '../battle-tree-walks.js';
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

/**
 * The units of a tree in the order of the text (a turn is followed by its own elements), the nodes of the
 * elements among them that `keep` takes (those whose answers are kept), and `tops`: for each top-level
 * element, how many of those nodes come before it, then their count (what `KeptPerElement` reads the
 * parse's record with).
 */
export function unitsOf(root: Scenario, keep: (node: AstNode) => boolean = () => true): { units: Unit[], nodes: AstNode[], tops: Int32Array } {
    const elements = root.elements;
    const units: Unit[] = [];
    const nodes: AstNode[] = [];
    const tops = new Int32Array(elements.length + 1);
    for (let i = 0; i < elements.length; i++) {
        tops[i] = nodes.length;
        const element = elements[i];
        if (isTurn(element)) {
            units.push({ kind: 'turn', node: element });
            for (const inner of element.elements) {
                units.push({ kind: 'element', node: inner });
                if (keep(inner)) nodes.push(inner);
            }
        } else {
            units.push({ kind: 'element', node: element });
            if (keep(element)) nodes.push(element);
        }
    }
    tops[elements.length] = nodes.length;
    return { units, nodes, tops };
}

/**
 * `unitsOf`'s `tops` for nodes picked otherwise (a top-level element, or an element of a turn, each once,
 * in the order of the text): undefined when one is not an element of the tree, in that order (then no
 * answer is kept).
 */
export function topsOf(root: Scenario, nodes: readonly AstNode[]): Int32Array | undefined {
    const elements = root.elements;
    const tops = new Int32Array(elements.length + 1);
    let i = 0;
    for (let k = 0; k < nodes.length; k++) {
        const container = nodes[k].$container;
        const top = container === root ? nodes[k] : container?.$container === root && isTurn(container) ? container : undefined;
        if (!top) return undefined;
        while (i < elements.length && elements[i] !== top) tops[++i] = k;
        if (i >= elements.length) return undefined;
    }
    while (i < elements.length) tops[++i] = nodes.length;
    return tops;
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
    /** The parse's record of the tree answered (`ParsedFrom.elements`): which elements were kept since is read from the record of the next. */
    readonly parse: ParseElements | undefined;
    readonly units: readonly AstNode[];
    /** `unitsOf`'s `tops` of the units. */
    readonly tops: Int32Array | undefined;
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
 * One kind of answer (tokens, outline entries, folding ranges, lens places) kept per element and per
 * document. Which units of the last answer each answer keeps is read from the parse's record of the
 * edits since the tree of the last answer (battle-document-factory.ts `elementsChangedSince`), as the
 * linker reads it: the units outside the span of elements the edits replaced are the last answer's, in
 * place, and only the span's are looked up (where a turn's kept elements sit). When the record does not
 * reach back that far, every unit's answer is made again.
 */
export class KeptPerElement<E> {
    private readonly last: LastBuild<LangiumDocument, LastAnswer<E>>;

    /** `name` and `keeps`: the table's in the language's caches (battle-caches.ts). */
    constructor(caches: BattleCaches, name: string, keeps: string, private readonly answers: ElementAnswers<E>) {
        this.last = caches.lastBuild({
            name, keeps: `${keeps}, with the elements, their places and the text of the last answer`,
            keyedBy: 'the document', againWhen: 'the element was made anew by the parse, or the parse\'s record does not reach back to the tree of the last answer; moved by the change the parse recorded'
        });
    }

    /**
     * Each unit's answer, in the order given, and where it starts now; `units` are elements of the document's
     * current tree, and `tops` says where each top-level element's come among them (`unitsOf`, `topsOf`;
     * undefined: none is kept).
     */
    entries(document: LangiumDocument, units: readonly AstNode[], tops: Int32Array | undefined): { entries: E[], starts: Position[] } {
        const run = this.run(document, units, tops);
        for (let step = run.next(); ; step = run.next()) if (step.done) return step.value;
    }

    /**
     * As `entries`, letting other work in (an edit's build) every few hundred elements made: a cold
     * answer of a big file (after the open, or a parse of the whole file) walks every node, 0.3–0.6 s at
     * 50,000 lines. Refused (ContentModified) when the tree changed meanwhile; OperationCancelled when
     * the request was cancelled.
     */
    async entriesYielding(document: LangiumDocument, units: readonly AstNode[], tops: Int32Array | undefined, cancelToken: CancellationToken): Promise<{ entries: E[], starts: Position[] }> {
        const tree = document.parseResult;
        const run = this.run(document, units, tops);
        for (let step = run.next(); ; step = run.next()) {
            if (step.done) return step.value;
            await interruptAndCheck(cancelToken);
            if (document.parseResult !== tree) throw new ResponseError(LSPErrorCodes.ContentModified, 'The document changed while this answer was made; ask again.');
        }
    }

    /** The work of `entries`, pausing (yield) after every few hundred elements made. */
    private *run(document: LangiumDocument, units: readonly AstNode[], tops: Int32Array | undefined): Generator<void, { entries: E[], starts: Position[] }> {
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
        // Which units were kept since the last answer, as the parse recorded it (`elementsChangedSince`, as the linker
        // reads it); when the record does not reach back to the tree of the last answer, every unit's answer is made again.
        const edit = last?.parse && last.tops && tops && parse ? elementsChangedSince(document, last.parse) : undefined;
        const kept = edit && keptUnits(last!.units, last!.tops!, units, tops!, edit)?.oldIndex;
        const n = units.length;
        let made = 0;
        for (let i = 0; i < n; i++) {
            const node = units[i];
            const k = kept ? kept[i] : -1;
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
        this.last.set(document, { text, parse: parse?.elements, units, tops, offsets, starts, entries });
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
