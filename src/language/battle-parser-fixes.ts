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
 * objects are returned, so the parse in pieces can move them in place as before.
 */
import { CompositeCstNodeImpl, CstNodeBuilder, LangiumCompletionParser, LangiumParser, LeafCstNodeImpl, type GrammarAST, type AstNode, type CompositeCstNode, type CstNode, type LeafCstNode, type ParseResult, type RootCstNode } from 'langium';
import type { IToken, TokenType } from 'chevrotain';
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

const arrayPush = Array.prototype.push;

/** A leaf's range kept as four numbers until read (Langium's `_range` field, here an accessor). */
interface LazyRange {
    _r?: Range;
    _sl: number;
    _sc: number;
    _el: number;
    _ec: number;
}

/**
 * A leaf for a token, its range the one `CstUtils.tokenToRange` gives, made when first read: most
 * leaves' ranges are never read in a check, and three objects per leaf were most of what a parse
 * allocates besides the nodes. Anything that reads or moves `range` or `_range` (the parse in
 * pieces shifts them in place) gets the same objects every time once made.
 */
function leafOf(token: IToken, hidden: boolean): LeafCstNodeImpl {
    const leaf = new LeafCstNodeImpl(token.startOffset, token.image.length, undefined as unknown as Range, token.tokenType as TokenType, hidden);
    const lazy = leaf as unknown as LazyRange;
    lazy._sl = token.startLine! - 1;
    lazy._sc = token.startColumn! - 1;
    lazy._el = token.endLine! - 1;
    lazy._ec = token.endColumn!;
    return leaf;
}

function installLazyRanges(): void {
    Object.defineProperty(LeafCstNodeImpl.prototype, '_range', {
        configurable: true,
        get(this: LazyRange): Range {
            return this._r ??= { start: { character: this._sc, line: this._sl }, end: { character: this._ec, line: this._el } };
        },
        set(this: LazyRange, range: Range) {
            this._r = range;
        }
    });
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

let installed = false;

export function installParserFixes(): void {
    if (installed) return;
    installed = true;
    installLazyRanges();
    CstNodeBuilder.prototype.addHiddenNodes = function addHiddenNodes(this: CstNodeBuilder, tokens: IToken[]): void {
        if (tokens.length === 0) return;
        const self = this as unknown as BuilderFields;
        const nodes: CstNode[] = [];
        for (const token of tokens) {
            const leaf = leafOf(token, true);
            leaf.root = self.rootNode;
            nodes.push(leaf);
        }
        let current: CompositeCstNode = self.current;
        if (current.content.length > 0) {
            current.content.push(...nodes);
            return;
        }
        while (current.container) {
            const index = current.container.content.lastIndexOf(current);
            if (index > 0) {
                current.container.content.splice(index, 0, ...nodes);
                return;
            }
            current = current.container;
        }
        self.rootNode.content.unshift(...nodes);
    };

    /** A new node made the last child of the node being built (or of the root), as Langium's builder does. */
    const attach = (self: BuilderFields, node: LeafCstNode | CompositeCstNode, feature: GrammarAST.AbstractElement | undefined): void => {
        const fields = node as unknown as NodeFields;
        fields.grammarSource = feature;
        fields.root = self.rootNode;
        const current = self.nodeStack[self.nodeStack.length - 1] ?? self.rootNode;
        fields.container = current;
        arrayPush.call(current.content, node);
    };

    CstNodeBuilder.prototype.buildLeafNode = function buildLeafNode(this: CstNodeBuilder, token: IToken, feature?: GrammarAST.AbstractElement): LeafCstNode {
        const self = this as unknown as BuilderFields;
        const leaf = leafOf(token, !feature);
        attach(self, leaf, feature);
        return leaf;
    };

    CstNodeBuilder.prototype.buildCompositeNode = function buildCompositeNode(this: CstNodeBuilder, feature: GrammarAST.AbstractElement): CompositeCstNode {
        const self = this as unknown as BuilderFields;
        const node = new CompositeCstNodeImpl();
        attach(self, node, feature);
        self.nodeStack.push(node);
        return node;
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
