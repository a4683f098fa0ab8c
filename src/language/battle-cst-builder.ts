/**
 * The parse tree's builder, Umpire's subclass of Langium 4.4.0's `CstNodeBuilder` (parser/cst-node-builder.ts),
 * given to each parser by BattleParser (battle-parser.ts). Its nodes are battle-cst.ts's.
 *
 * 1. Comments placed in linear time. Before every token it consumes, Langium's parser hands the hidden tokens
 * (comments) before it to `addHiddenNodes`. When the node being built has no child yet (an element's first
 * keyword), Langium's method walks up the tree and looks each node up in its parent's children with `indexOf`,
 * from the first child: at the top of the file, among all the elements before it, so a parse was quadratic in the
 * number of top-level elements (at 50,000 lines 0.6 s of a 2.2 s parse; docs/performance.md, "The parser's
 * costs per node"). The node looked up is always the last child of its parent while it is being built (children are only
 * appended), so `lastIndexOf` finds the same index at once. The comments go exactly where Langium puts them.
 * (docs/upstream-reports.md, "Comments placed in quadratic time".)
 *
 * 2. Each leaf and composite node gets its unit's base (battle-cst.ts): a top-level element, or a turn's own
 * element, gets a base of its own, chained to its turn's; other nodes share their parent's.
 *
 * 3. The lexer's token is its leaf (battle-lexer.ts's `LexedLeaf`): placed here, once. A token made otherwise
 * (by Chevrotain: end of file, inserted in a recovery) gets a leaf of its own.
 *
 * 4. A node per wrapper call. A call of a rule that only calls one of other rules (`Element`, `TurnElement`,
 * `Statement`) or of a data-type rule (`Word`, `ActionKind`, `Signed`, …) gets a node of its own, whose one child is
 * the called rule's node, or the token: 45,000 of the 100,000 composite nodes of a 50,000-line file, kept as long as
 * the tree (docs/performance.md, "The CST wrappers"). Once such a node is built with one child (`construct`), the
 * child takes its place in its parent and its grammar element (the call, inside the assignment that names the
 * property), and becomes the AST node's `$cstNode` (the parser then links it to its AST node): so `findAssignment`,
 * `findNodeForProperty` and the parent's view of its children find what they found before. What is lost is the
 * called rule's own call (`Grade` inside `Element`, the keyword `front` inside `Word`), which no reader here asks
 * for. A node with more children (a data-type rule of two tokens, `-1`) is kept.
 *
 * What this relies on of Langium 4.4.0 (checked at start-up, langium-version.ts): the builder's fields `rootNode`
 * and `nodeStack` (the root at its bottom), and that `construct` is called once per node built, after its rule.
 */
import { CstNodeBuilder, GrammarAST, GrammarUtils, type CompositeCstNode, type CstNode, type LeafCstNode, type RootCstNode } from 'langium';
import type { IToken } from 'chevrotain';
import { BattleComposite, BattleLeaf, BattleRoot, baseOf, type PositionBase } from './battle-cst.js';
import { LexedLeaf } from './battle-lexer.js';

/** The builder's own fields (private in Langium's typings). */
interface BuilderFields {
    rootNode: BattleRoot;
    nodeStack: CompositeCstNode[];
}

/** A node's fields that the builder sets (readonly in Langium's typings). */
interface NodeFields {
    container: CompositeCstNode | undefined;
    grammarSource: GrammarAST.AbstractElement | undefined;
    content: CstNode[];
}

/** The leaf's own fields that placing a lexer's token sets (private in Langium's typings). */
interface PlacedFields {
    _hidden: boolean;
    _offset: number;
    _startLine: number;
    _startColumn: number;
    _endLine: number;
    _endColumn: number;
}

export class BattleCstNodeBuilder extends CstNodeBuilder {
    override buildRootNode(input: string): RootCstNode {
        const fields = this as unknown as BuilderFields;
        fields.rootNode = new BattleRoot(input);
        fields.nodeStack = [fields.rootNode];
        return fields.rootNode;
    }

    override buildCompositeNode(feature: GrammarAST.AbstractElement): CompositeCstNode {
        const fields = this as unknown as BuilderFields;
        const current = this.current;
        // A unit (a top-level element, a turn's own element) gets its own base, chained to the turn's; other nodes share their parent's.
        const base = baseOf(current);
        const node = new BattleComposite(current === fields.rootNode || holdsUnits(current) ? { o: 0, l: 0, p: base } : base);
        node.grammarSource = feature;
        this.appendChild(current, node);
        fields.nodeStack.push(node);
        return node;
    }

    override buildLeafNode(token: IToken, feature?: GrammarAST.AbstractElement): LeafCstNode {
        const current = this.current;
        const leaf = leafOf(token, !feature, baseOf(current));
        if (feature) leaf.grammarSource = feature;
        this.appendChild(current, leaf);
        return leaf;
    }

    override addHiddenNodes(tokens: IToken[]): void {
        if (tokens.length === 0) return;
        const fields = this as unknown as BuilderFields;
        // Where they go: after the children of the node being built, or before the first ancestor that is not a first child.
        let into: CompositeCstNode = fields.rootNode, at = 0;
        let current: CompositeCstNode = this.current;
        if (current.content.length > 0) {
            into = current;
            at = -1;
        } else {
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
        for (const token of tokens) nodes.push(leafOf(token, true, base));
        if (at < 0) this.appendChildren(into, nodes);
        else this.insertChildren(into, at, nodes);
    }

    override construct(item: { $type: string | symbol | undefined, $cstNode: CstNode, $infixName?: string }): void {
        const fields = this as unknown as BuilderFields;
        const node = fields.nodeStack.pop()!;
        // Langium's `construct`: the node belongs to the item; an empty one is dropped, another's children copied into an array of their number.
        item.$cstNode = node;
        const content = node.content;
        if (content.length === 0) {
            this.removeNode(node);
            return;
        }
        if (node !== fields.rootNode && content.length === 1 && collapseWrapper(node, item)) return;
        (node as unknown as NodeFields).content = content.slice();
    }
}

/**
 * The leaf of a token, based on `base`: the lexer's token itself, placed once; a leaf of its own for a token made
 * otherwise, or one placed already. Positions are read here, not when the token is made: the lexer moves the end
 * of a token that spans lines after.
 */
function leafOf(token: IToken, hidden: boolean, base: PositionBase | undefined): BattleLeaf {
    // Not placed yet: a leaf gets its container as soon as it is made (a parse may meet a token again in its error recovery).
    if (token instanceof LexedLeaf && token.container === undefined) {
        const fields = token as unknown as PlacedFields;
        fields._hidden = hidden;
        fields._offset = token.startOffset;
        fields._startLine = (token.startLine - 1) | 0;
        fields._startColumn = (token.startColumn - 1) | 0;
        fields._endLine = (token.endLine - 1) | 0;
        fields._endColumn = token.endColumn | 0;
        token._b = base;
        return token;
    }
    return new BattleLeaf(token.startOffset, token.image.length, token.startLine! - 1, token.startColumn! - 1, token.endLine! - 1, token.endColumn!, token.tokenType, hidden, base);
}

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
 * The node of a wrapper rule's call, once built, replaced in its parent by its one child, which takes the
 * wrapper's grammar element and, for an AST node's wrapper, becomes the AST node's `$cstNode`. The wrapper
 * object keeps its content: Langium reads its length and grammar element right after (`subrule`, the value
 * converter); nothing keeps it.
 */
function collapseWrapper(node: CompositeCstNode, item: { $type: string | symbol | undefined, $cstNode: CstNode, $infixName?: string }): boolean {
    const kind = wrapperKind(node.grammarSource);
    if (kind === 0) return false;
    const child = node.content[0];
    const isLeaf = !('content' in child);
    const ownsItem = typeof item.$type === 'string' && !item.$infixName;
    if (kind === 1 ? isLeaf || !ownsItem : !isLeaf || child.hidden) return false;
    const parent = node.container!;
    const siblings = parent.content as CstNode[];
    const at = siblings.lastIndexOf(node);
    if (at < 0) return false;
    siblings[at] = child;
    const fields = child as unknown as NodeFields;
    fields.container = parent;
    fields.grammarSource = node.grammarSource;
    if (ownsItem) item.$cstNode = child;
    return true;
}
