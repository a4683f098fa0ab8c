/**
 * The parse tree's nodes, Umpire's subclasses of Langium 4.4.0's (parser/cst-node-builder.ts), made by
 * BattleCstNodeBuilder (battle-cst-builder.ts).
 *
 * Positions moved per element, not per leaf (docs/performance.md, "Positions moved per element"). The parse
 * in pieces (incremental-parse.ts) moves everything after an edit by the change's length and lines: at 50,000
 * lines that was every later leaf (150,000 of them) at every edit. So a leaf keeps its offset and lines relative
 * to a *base* shared by the leaves of its unit, a top-level element (or a turn's own element, whose base is
 * relative to its turn's): `offset`, `end` and `range` add the bases when read. Moving a later element changes
 * its base alone (`shiftBase`). Characters are kept as they are: the few leaves on the line where an edit ends
 * are moved one by one (`shiftLeaf`, `moveCharacters`). Leaves at the top level between elements (comments) have
 * no base and are moved one by one.
 *
 * A leaf's range is made when first read and then kept, brought up to date in place when read after its base
 * moved: Langium 4.4's leaf makes three new objects at every read, and a composite node's cached range shares its
 * first and last leaves' position objects, so a composite's range here reads those leaves first.
 *
 * What this relies on of Langium 4.4.0 (checked at start-up, langium-version.ts): the leaf's fields `_offset`,
 * `_length`, `_startLine`, `_startColumn`, `_endLine`, `_endColumn` (its constructor sets them; its getters read
 * them), and the composite's `_rangeCache` and its getters `firstNonHiddenNode` and `lastNonHiddenNode`.
 */
import { CompositeCstNodeImpl, LeafCstNodeImpl, RootCstNodeImpl, type CstNode } from 'langium';
import type { TokenType } from 'chevrotain';
import type { Range } from 'vscode-languageserver';

/**
 * The shift shared by the leaves of one unit (a top-level element, or a turn's own element, whose `p`
 * is its turn's base): a leaf's offset is its `_offset` plus `o` of every base up the chain, its lines
 * `_startLine` and `_endLine` plus `l`. Made at zero when the unit is parsed.
 */
export interface PositionBase {
    o: number;
    l: number;
    p: PositionBase | undefined;
}

/** Langium's leaf fields (private in its typings), here relative to the leaf's base; characters as they are. */
interface LeafFields {
    _offset: number;
    _length: number;
    _startLine: number;
    _startColumn: number;
    _endLine: number;
    _endColumn: number;
}

/** What a composite node's range reads (Langium's field and getters, private in its typings). */
interface CompositeFields {
    _rangeCache: Range | undefined;
    readonly firstNonHiddenNode: CstNode | undefined;
    readonly lastNonHiddenNode: CstNode | undefined;
}

function offsetsOf(base: PositionBase | undefined): number {
    let o = 0;
    for (let b = base; b !== undefined; b = b.p) o += b.o;
    return o;
}

function linesOf(base: PositionBase | undefined): number {
    let l = 0;
    for (let b = base; b !== undefined; b = b.p) l += b.l;
    return l;
}

/** A leaf whose offset and lines are relative to its unit's base, its range made once. */
export class BattleLeaf extends LeafCstNodeImpl {
    /** The unit's base (undefined: the leaf's positions are the file's). */
    _b: PositionBase | undefined;
    /** The range once made, and the lines of the bases it was made or last brought up to date with. */
    _r: Range | undefined;
    _rl: number;

    constructor(offset: number, length: number, startLine: number, startColumn: number, endLine: number, endColumn: number,
        tokenType: TokenType, hidden: boolean, base: PositionBase | undefined) {
        super(offset, length, startLine, startColumn, endLine, endColumn, tokenType, hidden);
        this._b = base;
        this._r = undefined;
        this._rl = 0;
    }

    override get offset(): number {
        return fieldsOf(this)._offset + offsetsOf(this._b);
    }

    override get end(): number {
        const fields = fieldsOf(this);
        return fields._offset + offsetsOf(this._b) + fields._length;
    }

    override get range(): Range {
        const lines = linesOf(this._b);
        const range = this._r;
        if (range === undefined) {
            const fields = fieldsOf(this);
            this._rl = lines;
            return this._r = {
                start: { line: fields._startLine + lines, character: fields._startColumn },
                end: { line: fields._endLine + lines, character: fields._endColumn }
            };
        }
        if (this._rl !== lines) {
            // Its base moved since: the same objects, brought up to date (a composite's range shares them).
            const by = lines - this._rl;
            range.start.line += by;
            range.end.line += by;
            this._rl = lines;
        }
        return range;
    }
}

function fieldsOf(leaf: LeafCstNodeImpl): LeafFields {
    return leaf as unknown as LeafFields;
}

/**
 * Langium's composite range (made once, sharing its first and last leaves' positions), with those leaves read
 * at every call: their position objects, which the cached range shares, are brought up to date.
 */
function compositeRange(node: CompositeFields): Range {
    const firstNode = node.firstNonHiddenNode;
    const lastNode = node.lastNonHiddenNode;
    if (firstNode && lastNode) {
        const firstRange = firstNode.range;
        const lastRange = lastNode.range;
        return node._rangeCache ??= { start: firstRange.start, end: lastRange.end.line < firstRange.start.line ? firstRange.start : lastRange.end };
    }
    return { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } };
}

/** A composite node with the base of its leaves (its own if it is a unit, else its parent's). */
export class BattleComposite extends CompositeCstNodeImpl {
    _b: PositionBase | undefined;

    constructor(base: PositionBase | undefined) {
        super();
        this._b = base;
    }

    override get range(): Range {
        return compositeRange(this as unknown as CompositeFields);
    }
}

/** The root: no base (the top level's leaves are the file's), its range read as a composite's. */
export class BattleRoot extends RootCstNodeImpl {
    override get range(): Range {
        return compositeRange(this as unknown as CompositeFields);
    }
}

/** Moves a leaf (whatever its base) by `offset` characters and `lines` lines; its characters stay. */
export function shiftLeaf(leaf: CstNode, offset: number, lines: number): void {
    const place = leaf as BattleLeaf;
    const fields = fieldsOf(place);
    fields._offset = (fields._offset + offset) | 0;
    if (lines === 0) return;
    fields._startLine = (fields._startLine + lines) | 0;
    fields._endLine = (fields._endLine + lines) | 0;
    // A range made already keeps `_r.line === _startLine + _rl`.
    if (place._r !== undefined) {
        place._r.start.line += lines;
        place._r.end.line += lines;
    }
}

/** Moves the characters of a leaf's start and end that lie on `line` (where the leaf is now) by `by`. */
export function moveCharacters(leaf: CstNode, line: number, by: number): void {
    const place = leaf as BattleLeaf;
    const fields = fieldsOf(place);
    const lines = linesOf(place._b);
    if (fields._startLine + lines === line) {
        fields._startColumn = (fields._startColumn + by) | 0;
        if (place._r !== undefined) place._r.start.character += by;
    }
    if (fields._endLine + lines === line) {
        fields._endColumn = (fields._endColumn + by) | 0;
        if (place._r !== undefined) place._r.end.character += by;
    }
}

/** The line a leaf starts on (without making its range). */
export function startLineOf(leaf: CstNode): number {
    const place = leaf as BattleLeaf;
    return fieldsOf(place)._startLine + linesOf(place._b);
}

/** A node's base: a leaf's, or the one a composite node's own leaves (outside its nested units) are based on. */
export function baseOf(node: CstNode): PositionBase | undefined {
    return (node as Partial<BattleComposite>)._b;
}

/**
 * Whether a composite node is a unit, its own base moving every leaf under it: a top-level element,
 * or a turn's own element. Otherwise its leaves must be moved one by one.
 */
export function isUnit(node: CstNode): boolean {
    const base = baseOf(node);
    return base !== undefined && node.container !== undefined && baseOf(node.container) !== base;
}

/** Moves every leaf based on `base` (or on a base chained to it) by `offset` characters and `lines` lines. */
export function shiftBase(base: PositionBase, offset: number, lines: number): void {
    // Kept small integers whatever the caller computed them from: V8 keeps a field that once held a double as one.
    base.o = (base.o + offset) | 0;
    base.l = (base.l + lines) | 0;
}

/**
 * A node of another parse (the parse in pieces) about to be put under `container`: a leaf is based on
 * the container's base, a unit's base chained to it, with positions unchanged (the caller moves them).
 */
export function rebase(node: CstNode, container: CstNode): void {
    const to = baseOf(container);
    const from = baseOf(node);
    if (from === undefined && to === undefined) return;
    if ('content' in node) {
        if (from === undefined) {
            // A node with no base of its own (a wrapper's): its children one by one.
            for (const child of (node as BattleComposite).content) rebase(child, container);
            return;
        }
        from.o = (from.o + offsetsOf(from.p) - offsetsOf(to)) | 0;
        from.l = (from.l + linesOf(from.p) - linesOf(to)) | 0;
        from.p = to;
        return;
    }
    const place = node as BattleLeaf;
    if (from === to) return;
    const fields = fieldsOf(place);
    const offset = offsetsOf(from) - offsetsOf(to), lines = linesOf(from) - linesOf(to);
    fields._offset = (fields._offset + offset) | 0;
    fields._startLine = (fields._startLine + lines) | 0;
    fields._endLine = (fields._endLine + lines) | 0;
    place._rl -= lines;
    place._b = to;
}
