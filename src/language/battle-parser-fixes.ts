/**
 * Repairs of Langium 4.2.1's parser and CST builder, which every parser of the process uses (the
 * document factory creates its parsers with `createLangiumParser`, so neither can be injected).
 *
 * 1. Quadratic placement of comments.
 * Before every token it consumes, Langium's parser hands the hidden tokens (comments) before it to
 * `CstNodeBuilder.addHiddenNodes`, even when there are none. When the node being built has no child
 * yet (an element's first keyword), that method walks up the tree and looks each node up in its
 * parent's children with `indexOf`, from the first child: at the top of the file, among all the
 * elements before it. So a parse was quadratic in the number of top-level elements: at 50,000 lines
 * 0.6 s of a 2.2 s parse (docs/performance.md, "Cold check and memory").
 *
 * The node looked up is always the last child of its parent while it is being built (children are
 * only ever appended), so `lastIndexOf` finds the same index at once; and no hidden token means
 * nothing to add. The hidden nodes go exactly where Langium puts them.
 *
 * 2. The tokens of the last parse kept. Chevrotain keeps the token vector it was given until the
 * next parse, with everything the parse left on its stacks: at 50,000 lines 64 MB of a 168 MB heap,
 * which every garbage collection of the check then marks again, and which the language server
 * kept for as long as the file stayed unedited. The parse gives the parser empty input once done;
 * its result (tree, errors) does not point into the parser. The completion parser (which reads the
 * text up to the cursor: half the file for a completion in its middle) keeps its tokens twice, in
 * the wrapper and in a field, both released the same way; its result has its own list.
 *
 * 3. Costs per node of the parse (docs/performance.md, "Cold check: the parse's cost per node").
 * A node's children are a `CstNodeContainer`, an Array subclass whose `push(...items)` takes a rest
 * array, sets each item's `container` and spreads into `super.push`: the largest single item of a
 * cold parse (0.4 s of 2.2 s at 50,000 lines). The builder here sets the one node's container and
 * appends it with the plain array push. And after the parse Langium links every AST node to its
 * container with `Object.entries` and a closure per array (0.3 s): the walk here reads the same
 * properties in the same order with `for…in` and sets the same `$container`, `$containerProperty`
 * and `$containerIndex`. Both give the very tree Langium's own methods give
 * (test/language/parser-fixes.test.ts compares them on every example).
 *
 * 4. Three objects per token for its range. A leaf keeps its token's lines and columns as four
 * numbers and makes the range Langium's `tokenToRange` gives when it is first read (`_range` is an
 * accessor on Langium's leaf class): most ranges are never read in a check. Once made, the same
 * objects are returned.
 *
 * 5. Positions moved per element, not per leaf (issue 14, docs/performance.md, "Positions moved per
 * element"). The parse in pieces moves everything after an edit by the change's length and lines: at
 * 50,000 lines that was every later leaf (150,000 of them) at every edit, and the first edits after an
 * open made each of their ranges. So a leaf keeps its offset and lines relative to a *base* shared by
 * the leaves of its unit, a top-level element (or a turn's own element, whose base is relative to its
 * turn's): `offset`, `end`, `_offset`, `range` and `_range` add the bases when read. Moving a later
 * element changes its base alone (`shiftBase`). Characters are kept as they are: the few leaves on the
 * line where an edit ends are moved one by one (`shiftLeaf`, `moveCharacters`). A leaf's range object
 * is made once and brought up to date in place when read after its base moved; a composite node's
 * range (Langium's shares its first and last leaves' position objects) reads its leaves first, so
 * it is brought up to date the same way. Leaves at the top level between elements (comments) have no
 * base and are moved one by one.
 *
 * 6. An empty array per token. Before each token, Langium's parser takes the comments before it out of
 * the lexer's list of hidden tokens with `splice`, which makes a new (empty) array for each of the
 * 150,000 tokens of a 50,000-line file that has no comment before it. Here the list is read first and
 * one shared empty array returned when no comment comes before the token (docs/performance.md, "The cold
 * check, second pass"); `addHiddenNodes` returns at once for it, as for any empty list.
 *
 * 7. Six boxed numbers per token. Chevrotain's lexer makes each token an object literal of the same
 * shape as its end-of-file token, which it makes at load time with `NaN` positions: V8 then keeps the
 * six positions of every token of that shape as separate heap numbers (16 bytes each, 900,000 of them
 * at 50,000 lines), all alive until the parse ends (docs/performance.md, "The cold check under 2 s").
 * The lexer's tokens are made here by a class of their own, with the same fields in the same order and
 * the same values (then a leaf's fields: repair 10), whose whole-number positions V8 keeps in the object.
 *
 * 8. A node per wrapper call. A call of a rule that only calls one of other rules (`Element`,
 * `TurnElement`, `Statement`) or of a data-type rule (`Word`, `ActionKind`, `Signed`, …) gets a node
 * of its own, whose one child is the called rule's node, or the token: 45,000 of the 100,000 composite
 * nodes of a 50,000-line file, kept as long as the tree (docs/performance.md, "The CST wrappers"). Once
 * such a node is built with one child (`construct`), the child takes its place in its parent and its
 * grammar element (the call, inside the assignment that names the property), and becomes the AST node's
 * `$cstNode` (for `Element` and the like, whose AST node is the called rule's): so `findAssignment`,
 * `findNodeForProperty` and the parent's view of its children find what they found before. What is lost
 * is the called rule's own call (`Grade` inside `Element`, the keyword `front` inside `Word`), which no
 * reader here asks for. A node with more children (a data-type rule of two tokens, `-1`) is kept.
 *
 * 9. The children of a node, an Array subclass. Each composite node's children were a `CstNodeContainer` (made
 * with `Object.setPrototypeOf`, 100,000 of them at 50,000 lines, wrappers included), to which repair 3 appended
 * with `Array.prototype.push.call`, the generic path for an array that is not a plain one; and the node's own
 * fields were added one by one after Langium's constructor. Here a node other than the root is made by
 * `BattleComposite` on Langium's prototype (so `instanceof` and every getter are Langium's) with its fields set
 * at once and a plain array of children, appended by index; the builder sets each child's container itself, as
 * it already did, and `addHiddenNodes` sets the comments' (docs/performance.md, "Counted in instructions").
 * A 50,000-line check: 7.8 G instructions before, 7.3 G after (`node --single-threaded` under valgrind).
 *
 * 10. A token and its leaf, two objects. The lexer makes every token before the parse starts and all live until
 * it ends, so each young-generation collection during the parse copied them (twice, before they were promoted),
 * beside the leaf the parse made of each. Here the lexer's token (repair 7's class) is its leaf: its prototype is
 * Langium's leaf prototype (with a writable `tokenType`, the token's field, where Langium's leaf has a getter), and
 * it has the leaf's fields, all set when it is made (one shape); `leafOf` sets its place and returns it. A token
 * made otherwise (by Chevrotain: end of file, inserted in a recovery), or one made a leaf already, gets a leaf of
 * its own. The token's own positions are never moved (`shiftLeaf` and `rebase` move the leaf's `_o`, `_sl`…,
 * the parse in pieces moves the positions of the tokens its errors name, as before). The cost: a leaf keeps its
 * token's fields and text for as long as the tree, 55 → 67 MB for the tree of a 50,000-line file; a cold check's
 * peak is lower (189 → 183 MB) and it makes ~2.5 % fewer instructions (docs/performance.md, "Session 10: the parse").
 *
 * 11. The children of a node, 17 places for a few. V8 gives an empty array 17 places at its first append, so each
 * composite node's children (55,000 nodes at 50,000 lines, most with 1 to 7 children) kept room for 17 for as long as
 * the tree, and every young-generation collection during the parse copied it. Once a node is built (`construct`), and
 * not replaced by its one child (repair 8), its children are copied into an array of their number; the array they
 * were appended to is garbage while still young. The root's children (Langium's `CstNodeContainer`) are left as
 * they are.
 *
 * 12. The lists of an AST node, the same. Langium's parser appends a `+=` property's items to an empty array (30,000
 * lists at 50,000 lines: a force's units, a side's targets, …), and then `assignMandatoryProperties` gives each new
 * AST node its missing lists and flags by reading the type's properties with `Object.values`, an array per node.
 * Here `construct` does what Langium's does, with the type's mandatory properties listed once, and each list the parse
 * filled copied into an array of its length. A 50,000-line check: 5.58 → 5.44 G instructions with repair 11, the
 * tree 10 % smaller (test/language/parser-fixes.test.ts: the heap a parsed tree keeps, and the very tree Langium's
 * methods give).
 */
import { CompositeCstNodeImpl, CstNodeBuilder, DatatypeSymbol, GrammarAST, GrammarUtils, LangiumCompletionParser, LangiumParser, LeafCstNodeImpl, type AstNode, type AstReflection, type CompositeCstNode, type CstNode, type LeafCstNode, type ParseResult, type RootCstNode } from 'langium';
import { Lexer, type IToken, type TokenType } from 'chevrotain';
import type { Range } from 'vscode-languageserver';

/** The builder's own fields that the methods read (private in Langium's typings). */
interface BuilderFields {
    readonly rootNode: RootCstNode;
    readonly current: CompositeCstNode;
    readonly nodeStack: CompositeCstNode[];
}

/** Writable fields of a CST node (readonly in Langium's typings). */
interface NodeFields {
    container?: CompositeCstNode;
    root: RootCstNode;
    grammarSource?: GrammarAST.AbstractElement;
}


/**
 * The shift shared by the leaves of one unit (a top-level element, or a turn's own element, whose `p`
 * is its turn's base): a leaf's offset is its `_o` plus `o` of every base up the chain, its lines
 * `_sl` and `_el` plus `l`. Made at zero when the unit is parsed.
 */
export interface PositionBase {
    o: number;
    l: number;
    p: PositionBase | undefined;
}

/** A leaf's place: relative to its base (offset, lines), characters as they are; the range made when first read. */
interface LeafPlace {
    _o: number;
    _b: PositionBase | undefined;
    _sl: number;
    _sc: number;
    _el: number;
    _ec: number;
    /** The range object once made, and the lines of the bases (`linesOf`) it was made or last brought up to date with. */
    _r?: Range;
    _rl: number;
}

/** What the composite range reads (Langium's fields and getters). */
interface CompositePlace {
    _rangeCache?: Range;
    readonly firstNonHiddenNode?: CstNode;
    readonly lastNonHiddenNode?: CstNode;
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

/**
 * A leaf for a token, its range the one `CstUtils.tokenToRange` gives, made when first read: most
 * leaves' ranges are never read in a check, and three objects per leaf were most of what a parse
 * allocates besides the nodes. Anything that reads `range` or `_range` gets the same objects every
 * time once made. `base` is its unit's, at zero while the parse runs, so positions are the token's.
 */
function leafOf(token: IToken, hidden: boolean, base: PositionBase | undefined): LeafCstNodeImpl {
    const own = token as unknown as TokenLeafFields;
    // The lexer's token is its leaf (repair 10), once: a token made otherwise (by Chevrotain, in a recovery) gets a leaf of its own.
    const leaf = own._rl !== undefined && own.root === undefined ? own : new LeafCstNodeImpl(token.startOffset, token.image.length, undefined as unknown as Range, token.tokenType as TokenType, hidden) as unknown as TokenLeafFields;
    leaf._hidden = hidden;
    // `| 0`: Chevrotain's token positions were doubles (boxed numbers, even when whole; repair 7 below); stored as they
    // are, every leaf kept four boxes and every number computed from them (a line moved, a base shifted)
    // was one, so the first edits after an open turned the bases' and leaves' small-integer fields into
    // double fields, object by object (V8 migrates each when next touched: 7,000 bases at 50,000 lines).
    // Read here, not when the token is made: the lexer moves the end of a token that spans lines after.
    leaf._sl = (token.startLine! - 1) | 0;
    leaf._sc = (token.startColumn! - 1) | 0;
    leaf._el = (token.endLine! - 1) | 0;
    leaf._ec = token.endColumn! | 0;
    leaf._b = base;
    return leaf as unknown as LeafCstNodeImpl;
}

function leafRange(leaf: LeafPlace): Range {
    const lines = linesOf(leaf._b);
    const range = leaf._r;
    if (range === undefined) {
        leaf._rl = lines;
        return leaf._r = { start: { character: leaf._sc, line: leaf._sl + lines }, end: { character: leaf._ec, line: leaf._el + lines } };
    }
    if (leaf._rl !== lines) {
        // Its base moved since: the same objects, brought up to date (a composite's range shares them).
        const by = lines - leaf._rl;
        range.start.line += by;
        range.end.line += by;
        leaf._rl = lines;
    }
    return range;
}

function installPlaces(): void {
    const accessor = (name: string, get: (this: LeafPlace & { _length: number }) => unknown, set?: (this: LeafPlace, value: never) => void) =>
        Object.defineProperty(LeafCstNodeImpl.prototype, name, { configurable: true, get, set });
    accessor('_offset', function () { return this._o + offsetsOf(this._b); }, function (this: LeafPlace, offset: number) { this._o = offset - offsetsOf(this._b); });
    accessor('offset', function () { return this._o + offsetsOf(this._b); });
    accessor('end', function () { return this._o + offsetsOf(this._b) + this._length; });
    accessor('_range', function () { return leafRange(this); }, function (this: LeafPlace, range: Range | undefined) {
        // Langium's constructor sets it (undefined from `leafOf`); a leaf made with a range keeps it as its place.
        this._r = range;
        this._rl = linesOf(this._b);
        if (range === undefined) return;
        // Small integers, as `leafOf`'s (a range made from tokens holds doubles).
        this._sl = (range.start.line - this._rl) | 0;
        this._sc = range.start.character | 0;
        this._el = (range.end.line - this._rl) | 0;
        this._ec = range.end.character | 0;
    });
    accessor('range', function () { return leafRange(this); });

    // Langium's composite range (parser/cst-node-builder.js), made once as before, but its first and last
    // leaves read at every call: their position objects, which the cached range shares, are brought up to date.
    Object.defineProperty(CompositeCstNodeImpl.prototype, 'range', {
        configurable: true,
        get(this: CompositePlace): Range {
            const firstNode = this.firstNonHiddenNode;
            const lastNode = this.lastNonHiddenNode;
            if (firstNode && lastNode) {
                const firstRange = firstNode.range;
                const lastRange = lastNode.range;
                return this._rangeCache ??= { start: firstRange.start, end: lastRange.end.line < firstRange.start.line ? firstRange.start : lastRange.end };
            }
            return { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } };
        }
    });
}

/**
 * A composite node as Langium's `CompositeCstNodeImpl` makes it (its prototype, so `instanceof` and every
 * getter are Langium's), with every field it gets set at once, and its children a plain array (repair 9).
 * Langium's children are a `CstNodeContainer`, an Array subclass made with `Object.setPrototypeOf`, whose
 * `push` sets each child's container; the builder here sets it itself. 100,000 nodes at 50,000 lines.
 */
interface BattleCompositeFields {
    content: CstNode[];
    _b: PositionBase | undefined;
    grammarSource: GrammarAST.AbstractElement | undefined;
    root: RootCstNode | undefined;
    container: CompositeCstNode | undefined;
    _astNode: AstNode | undefined;
    _rangeCache: Range | undefined;
}
const BattleComposite = function BattleComposite(this: BattleCompositeFields, base: PositionBase | undefined) {
    this.content = [];
    this._b = base;
    this.grammarSource = undefined;
    this.root = undefined;
    this.container = undefined;
    this._astNode = undefined;
    this._rangeCache = undefined;
} as unknown as new (base: PositionBase | undefined) => BattleCompositeFields;
BattleComposite.prototype = CompositeCstNodeImpl.prototype;

/** Moves a leaf (whatever its base) by `offset` characters and `lines` lines; its characters stay. */
export function shiftLeaf(leaf: CstNode, offset: number, lines: number): void {
    const place = leaf as unknown as LeafPlace;
    place._o += offset;
    if (lines === 0) return;
    place._sl += lines;
    place._el += lines;
    // A range made already keeps `_r.line === _sl + _rl`.
    if (place._r !== undefined) {
        place._r.start.line += lines;
        place._r.end.line += lines;
    }
}

/** Moves the characters of a leaf's start and end that lie on `line` (where the leaf is now) by `by`. */
export function moveCharacters(leaf: CstNode, line: number, by: number): void {
    const place = leaf as unknown as LeafPlace;
    const lines = linesOf(place._b);
    if (place._sl + lines === line) {
        place._sc += by;
        if (place._r !== undefined) place._r.start.character += by;
    }
    if (place._el + lines === line) {
        place._ec += by;
        if (place._r !== undefined) place._r.end.character += by;
    }
}

/** The line a leaf starts on (without making its range). */
export function startLineOf(leaf: CstNode): number {
    const place = leaf as unknown as LeafPlace;
    return place._sl + linesOf(place._b);
}

/** A node's base: a leaf's, or the one a composite node's own leaves (outside its nested units) are based on. */
export function baseOf(node: CstNode): PositionBase | undefined {
    return (node as unknown as { _b?: PositionBase })._b;
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
    // Kept small integers whatever the caller computed them from (see `leafOf`).
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
            // Not made by this builder: its leaves one by one.
            for (const child of (node as CompositeCstNode).content) rebase(child, container);
            return;
        }
        from.o = (from.o + offsetsOf(from.p) - offsetsOf(to)) | 0;
        from.l = (from.l + linesOf(from.p) - linesOf(to)) | 0;
        from.p = to;
        return;
    }
    const place = node as unknown as LeafPlace;
    if (from === to) return;
    const offset = offsetsOf(from) - offsetsOf(to), lines = linesOf(from) - linesOf(to);
    place._o += offset;
    place._sl += lines;
    place._el += lines;
    place._rl -= lines;
    place._b = to;
}

/** Langium's `linkContentToContainer(node, { deep: true })` (utils/ast-utils), without an entry array per property. */
function linkToContainers(node: AstNode): void {
    const record = node as unknown as Record<string, unknown>;
    for (const name in record) {
        if (name.charCodeAt(0) === 36 /* $ */ || !Object.prototype.hasOwnProperty.call(record, name)) continue;
        const value = record[name];
        if (Array.isArray(value)) {
            for (let index = 0; index < value.length; index++) {
                const item = value[index] as unknown;
                if (isAstNode(item)) {
                    const child = item as { $container: AstNode, $containerProperty: string, $containerIndex: number };
                    child.$container = node;
                    child.$containerProperty = name;
                    child.$containerIndex = index;
                    linkToContainers(item);
                }
            }
        } else if (isAstNode(value)) {
            const child = value as { $container: AstNode, $containerProperty: string };
            child.$container = node;
            child.$containerProperty = name;
            linkToContainers(value);
        }
    }
}

function isAstNode(value: unknown): value is AstNode {
    return typeof value === 'object' && value !== null && typeof (value as { $type?: unknown }).$type === 'string';
}

/** The parser's own fields that `parse` reads (private in Langium's typings). */
interface ParserFields {
    nodeBuilder: CstNodeBuilder;
    lexer: { tokenize(text: string): { tokens: IToken[], hidden: IToken[], errors: ParseResult['lexerErrors'], report?: ParseResult['lexerReport'] } };
    lexerResult: unknown;
    wrapper: { input: IToken[], errors: ParseResult['parserErrors'], rule(rule: unknown): unknown };
    allRules: Map<string, unknown>;
    mainRule: unknown;
    unorderedGroups: Map<string, boolean[]>;
    doParse(rule: unknown): AstNode;
}

/** The parser's own fields that `construct` reads (private in Langium's typings). */
interface ConstructFields {
    stack: Array<{ $type: string | symbol, $infixName?: string, value?: unknown, $cstNode?: CstNode }>;
    nodeBuilder: CstNodeBuilder;
    converter: { convert(value: unknown, node: CstNode | undefined): unknown };
    astReflection: AstReflection;
    operatorPrecedence: Map<string, unknown>;
    isRecording(): boolean;
    constructInfix(obj: object, precedence: unknown): unknown;
}

/** A type's properties that every node of it has (`defaultValue`: an empty list, `false`), in Langium's order. */
const mandatoryOf = new WeakMap<object, ReadonlyArray<{ name: string, defaultValue: unknown }>>();

function mandatoryProperties(reflection: AstReflection, type: string): ReadonlyArray<{ name: string, defaultValue: unknown }> {
    const meta = reflection.getTypeMetaData(type);
    let found = mandatoryOf.get(meta);
    if (found === undefined) {
        found = Object.values(meta.properties).filter(p => p.defaultValue !== undefined).map(p => ({ name: p.name, defaultValue: p.defaultValue }));
        mandatoryOf.set(meta, found);
    }
    return found;
}

/** Langium's `copyDefaultValue` (utils/ast-utils): a list is a new list of copies. */
function copyDefault(value: unknown): unknown {
    return Array.isArray(value) ? value.map(copyDefault) : value;
}

/**
 * Repair 12: Langium's `assignMandatoryProperties` (utils/ast-utils), with the type's mandatory properties
 * listed once, and each list the parse filled (`+=`) copied to one of its length.
 */
function completeNode(reflection: AstReflection, node: { $type: string }): void {
    const fields = node as unknown as Record<string, unknown>;
    for (const { name, defaultValue } of mandatoryProperties(reflection, node.$type)) {
        const value = fields[name];
        if (value === undefined) fields[name] = copyDefault(defaultValue);
        else if (Array.isArray(value) && value.length > 0 && value.constructor === Array) fields[name] = value.slice();
    }
}

/** What Langium's parser reads to take the comments before a token (repair 6). */
interface HiddenTokens {
    lexerResult: { hidden: IToken[] } | undefined;
    extractHiddenTokens(token: IToken): IToken[];
}

/** Returned for every token with no comment before it: never written to (`addHiddenNodes` returns at once for an empty list). */
const NO_TOKENS: IToken[] = Object.freeze([]) as unknown as IToken[];

/** Rule calls whose node holds units of their own: a turn's elements (its `Turn` rule's node). */
const unitHolders = new WeakMap<object, boolean>();

function holdsUnits(node: CompositeCstNode): boolean {
    const feature = node.grammarSource;
    if (feature === undefined) return false;
    let holds = unitHolders.get(feature);
    if (holds === undefined) {
        holds = feature.$type === 'RuleCall' && (feature as GrammarAST.RuleCall).rule.ref?.name === 'Turn';
        unitHolders.set(feature, holds);
    }
    return holds;
}

/** What a rule call's node is: 0 kept; 1 a call of a rule that only calls one of others (`Element`); 2 of a data-type rule (`Word`). */
const wrapperKinds = new WeakMap<object, number>();

function wrapperKind(feature: GrammarAST.AbstractElement | undefined): number {
    if (feature === undefined) return 0;
    let kind = wrapperKinds.get(feature);
    if (kind === undefined) {
        kind = 0;
        if (GrammarAST.isRuleCall(feature) && GrammarAST.isParserRule(feature.rule.ref) && !feature.rule.ref.fragment) {
            const rule = feature.rule.ref;
            if (GrammarUtils.isDataTypeRule(rule)) kind = 2;
            else if (callsOneRule(rule.definition)) kind = 1;
        }
        wrapperKinds.set(feature, kind);
    }
    return kind;
}

/** `A | B | C`: alternatives (or one) of unassigned calls of parser rules, which make the node themselves. */
function callsOneRule(definition: GrammarAST.AbstractElement): boolean {
    if (definition.cardinality) return false;
    const calls = GrammarAST.isAlternatives(definition) ? definition.elements : [definition];
    return calls.every(call => GrammarAST.isRuleCall(call) && !call.cardinality && GrammarAST.isParserRule(call.rule.ref)
        && !call.rule.ref.fragment && !GrammarUtils.isDataTypeRule(call.rule.ref));
}

/**
 * Repair 8 (docs/performance.md, "The CST wrappers"): the node of a wrapper rule's call, once built,
 * replaced in its parent by its one child, which takes the wrapper's grammar element (and, for an
 * AST node's wrapper, becomes the AST node's `$cstNode`). The wrapper object keeps its content: Langium
 * reads its length and grammar element right after (`subrule`, the value converter); nothing keeps it.
 */
function collapseWrapper(node: CompositeCstNode, item: AstNode | undefined): boolean {
    const kind = wrapperKind(node.grammarSource);
    if (kind === 0) return false;
    const child = node.content[0];
    const isLeaf = !('content' in child);
    if (kind === 1 ? isLeaf || item === undefined : !isLeaf || child.hidden) return false;
    const parent = node.container!;
    const siblings = parent.content;
    const at = siblings.lastIndexOf(node);
    if (at < 0) return false;
    siblings[at] = child;
    const fields = child as unknown as NodeFields;
    fields.container = parent;
    fields.grammarSource = node.grammarSource;
    if (item !== undefined) {
        (child as { astNode: AstNode }).astNode = item;
        (item as { $cstNode?: CstNode }).$cstNode = child;
    }
    return true;
}

/** A lexer's token that is its own leaf (repairs 7 and 10): the token's fields, then the leaf's. */
interface TokenLeafFields extends LeafPlace {
    image: string;
    startOffset: number;
    endOffset: number;
    startLine: number;
    endLine: number;
    startColumn: number;
    endColumn: number;
    tokenTypeIdx: number;
    tokenType: TokenType;
    _hidden: boolean;
    _length: number;
    grammarSource: GrammarAST.AbstractElement | undefined;
    root: RootCstNode | undefined;
    container: CompositeCstNode | undefined;
    _astNode: AstNode | undefined;
}

/**
 * From this length on V8 makes a substring a slice that keeps the string it was cut from alive whole.
 * A token's text is cut from the text it was lexed from, and a leaf (repair 10) keeps it as long as the
 * tree does: a piece parsed after an edit is itself cut from that edit's whole text, so one long comment,
 * name or string in it kept the file's whole text of that edit alive, a file's text per edit.
 */
const SLICED = 13;

/** A copy of `text` that keeps nothing else alive: the concatenation is flattened into a string of its own before it is cut. */
function ownCopy(text: string): string {
    return (' ' + text).slice(1);
}

/**
 * A token as Chevrotain's `createFullToken` makes it (repair 7): the same fields, in the same order, with the
 * same values; then a leaf's (repair 10), on Langium's leaf prototype, every field set here so that all have
 * one shape. Positions are the leaf's once `leafOf` makes it a leaf.
 */
const TokenLeaf = function TokenLeaf(this: TokenLeafFields, image: string, startOffset: number, endOffset: number, startLine: number, endLine: number,
    startColumn: number, endColumn: number, tokenTypeIdx: number, tokenType: TokenType) {
    this.image = image.length < SLICED ? image : ownCopy(image);
    this.startOffset = startOffset;
    this.endOffset = endOffset;
    this.startLine = startLine;
    this.endLine = endLine;
    this.startColumn = startColumn;
    this.endColumn = endColumn;
    this.tokenTypeIdx = tokenTypeIdx;
    this.tokenType = tokenType;
    // Langium's leaf constructor's fields (`_offset` and `_range` are accessors here: repairs 4 and 5; the token's
    // `tokenType` is the leaf's), then the builder's.
    this._hidden = false;
    this._o = startOffset;
    this._length = image.length;
    this._r = undefined;
    this._rl = 0;
    this._sl = 0;
    this._sc = 0;
    this._el = 0;
    this._ec = 0;
    this._b = undefined;
    this.grammarSource = undefined;
    this.root = undefined;
    this.container = undefined;
    this._astNode = undefined;
} as unknown as new (image: string, startOffset: number, endOffset: number, startLine: number, endLine: number,
    startColumn: number, endColumn: number, tokenTypeIdx: number, tokenType: TokenType) => TokenLeafFields & IToken;
// Langium's leaf prototype, under a writable `tokenType` that the token's own field hides (Langium's is a getter).
TokenLeaf.prototype = Object.create(LeafCstNodeImpl.prototype, { tokenType: { value: undefined, writable: true } }) as object;

/** Chevrotain's `createFullToken` (scan/lexer_public.js), making a `TokenLeaf`. */
function createFullToken(image: string, startOffset: number, tokenTypeIdx: number, tokenType: TokenType, startLine: number, startColumn: number, imageLength: number): IToken {
    return new TokenLeaf(image, startOffset, startOffset + imageLength - 1, startLine, startLine, startColumn, startColumn + imageLength - 1, tokenTypeIdx, tokenType);
}

let installed = false;

export function installParserFixes(): void {
    if (installed) return;
    installed = true;
    installPlaces();
    // Read by each lexer when it is made (`createTokenInstance`), so set before any is.
    (Lexer.prototype as unknown as { createFullToken: typeof createFullToken }).createFullToken = createFullToken;
    CstNodeBuilder.prototype.addHiddenNodes = function addHiddenNodes(this: CstNodeBuilder, tokens: IToken[]): void {
        if (tokens.length === 0) return;
        const self = this as unknown as BuilderFields;
        // Where they go: after the children of the node being built, or before the first ancestor that is not a first child.
        let into: CompositeCstNode = self.rootNode, at = -1;
        let current: CompositeCstNode = self.current;
        if (current.content.length > 0) into = current;
        else {
            at = 0;
            while (current.container) {
                const index = current.container.content.lastIndexOf(current);
                if (index > 0) {
                    into = current.container;
                    at = index;
                    break;
                }
                current = current.container;
            }
        }
        const base = baseOf(into);
        const nodes: CstNode[] = [];
        for (const token of tokens) {
            const leaf = leafOf(token, true, base);
            leaf.root = self.rootNode;
            // Set here: the children of a node other than the root are a plain array (`BattleComposite`).
            (leaf as unknown as NodeFields).container = into;
            nodes.push(leaf);
        }
        if (at < 0) into.content.push(...nodes);
        else if (into === self.rootNode && at === 0) into.content.unshift(...nodes);
        else into.content.splice(at, 0, ...nodes);
    };

    /** A new node made the last child of the node being built (or of the root), as Langium's builder does. */
    const attach = (self: BuilderFields, node: LeafCstNode | CompositeCstNode, feature: GrammarAST.AbstractElement | undefined, current: CompositeCstNode): void => {
        const fields = node as unknown as NodeFields;
        fields.grammarSource = feature;
        fields.root = self.rootNode;
        fields.container = current;
        const content = current.content as CstNode[];
        content[content.length] = node;
    };

    CstNodeBuilder.prototype.buildLeafNode = function buildLeafNode(this: CstNodeBuilder, token: IToken, feature?: GrammarAST.AbstractElement): LeafCstNode {
        const self = this as unknown as BuilderFields;
        const current = self.nodeStack[self.nodeStack.length - 1] ?? self.rootNode;
        const leaf = leafOf(token, !feature, baseOf(current));
        attach(self, leaf, feature, current);
        return leaf;
    };

    CstNodeBuilder.prototype.buildCompositeNode = function buildCompositeNode(this: CstNodeBuilder, feature: GrammarAST.AbstractElement): CompositeCstNode {
        const self = this as unknown as BuilderFields;
        const current = self.nodeStack[self.nodeStack.length - 1] ?? self.rootNode;
        // A unit (a top-level element, a turn's own element) gets its own base, chained to the turn's; other nodes share their parent's.
        const base = baseOf(current);
        const node = new BattleComposite(current === self.rootNode || holdsUnits(current) ? { o: 0, l: 0, p: base } : base) as unknown as CompositeCstNode;
        attach(self, node, feature, current);
        self.nodeStack.push(node);
        return node;
    };

    CstNodeBuilder.prototype.construct = function construct(this: CstNodeBuilder, item: { $type: string | symbol | undefined, $cstNode?: CstNode, $infixName?: string }): void {
        const self = this as unknown as BuilderFields;
        const node = self.nodeStack.pop() ?? self.rootNode;
        // Langium's `construct` (parser/cst-node-builder.js): the node being built belongs to the item, an empty one is dropped.
        const ownsItem = typeof item.$type === 'string' && !item.$infixName;
        if (ownsItem) (node as { astNode: AstNode }).astNode = item as AstNode;
        item.$cstNode = node;
        const content = node.content;
        if (content.length === 0) {
            this.removeNode(node);
            return;
        }
        if (node === self.rootNode || (content.length === 1 && collapseWrapper(node, ownsItem ? item as AstNode : undefined))) return;
        // Repair 11: the node's children in an array of their number (only `BattleComposite`'s plain arrays: the root's is Langium's).
        if (content.constructor === Array) (node as { content: CstNode[] }).content = content.slice();
    };

    // Langium's `construct` (parser/langium-parser.js), its last step `completeNode` (repair 12).
    (LangiumParser.prototype as unknown as { construct(): unknown }).construct = function construct(this: ConstructFields): unknown {
        if (this.isRecording()) return undefined;
        const obj = this.stack.pop()!;
        this.nodeBuilder.construct(obj as Parameters<CstNodeBuilder['construct']>[0]);
        if ('$infixName' in obj) return this.constructInfix(obj, this.operatorPrecedence.get(obj.$infixName!));
        if (obj.$type === DatatypeSymbol) return this.converter.convert(obj.value, obj.$cstNode);
        completeNode(this.astReflection, obj as { $type: string });
        return obj;
    };

    const takeHidden = (LangiumParser.prototype as unknown as HiddenTokens).extractHiddenTokens;
    (LangiumParser.prototype as unknown as HiddenTokens).extractHiddenTokens = function extractHiddenTokens(this: HiddenTokens, token: IToken): IToken[] {
        const hidden = this.lexerResult?.hidden;
        if (!hidden || hidden.length === 0 || hidden[0].startOffset > token.startOffset) return NO_TOKENS;
        return takeHidden.call(this, token);
    };

    // Langium's `parse` (parser/langium-parser.js), with the walk to containers above; then the tokens are released.
    LangiumParser.prototype.parse = function parseAndRelease<T extends AstNode = AstNode>(this: LangiumParser, input: string, options: { rule?: string } = {}): ParseResult<T> {
        const self = this as unknown as ParserFields;
        try {
            self.nodeBuilder.buildRootNode(input);
            const lexerResult = self.lexerResult = self.lexer.tokenize(input);
            self.wrapper.input = lexerResult.tokens;
            const ruleMethod = options.rule ? self.allRules.get(options.rule) : self.mainRule;
            if (!ruleMethod) {
                throw new Error(options.rule ? `No rule found with name '${options.rule}'` : 'No main rule available.');
            }
            const result = self.doParse(ruleMethod);
            self.nodeBuilder.addHiddenNodes(lexerResult.hidden);
            self.unorderedGroups.clear();
            self.lexerResult = undefined;
            linkToContainers(result);
            return {
                value: result as T,
                lexerErrors: lexerResult.errors,
                lexerReport: lexerResult.report,
                parserErrors: self.wrapper.errors
            };
        } finally {
            // Setting the input resets the parser (new error list, empty stacks): the result keeps its own.
            self.wrapper.input = [];
        }
    };

    const complete = LangiumCompletionParser.prototype.parse;
    LangiumCompletionParser.prototype.parse = function parseAndRelease(this: LangiumCompletionParser, input: string) {
        try {
            return complete.call(this, input);
        } finally {
            const parser = this as unknown as { wrapper: { input: unknown[] }, tokens: unknown[] };
            parser.wrapper.input = [];
            parser.tokens = [];
        }
    };
}
