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
 */
import { CstNodeBuilder, CstUtils, LangiumCompletionParser, LangiumParser, LeafCstNodeImpl, type AstNode, type CompositeCstNode, type CstNode, type ParseResult, type RootCstNode } from 'langium';
import type { IToken } from 'chevrotain';

/** The builder's own fields that the method reads (private in Langium's typings). */
interface BuilderFields {
    readonly rootNode: RootCstNode;
    readonly current: CompositeCstNode;
}

let installed = false;

export function installParserFixes(): void {
    if (installed) return;
    installed = true;
    CstNodeBuilder.prototype.addHiddenNodes = function addHiddenNodes(this: CstNodeBuilder, tokens: IToken[]): void {
        if (tokens.length === 0) return;
        const self = this as unknown as BuilderFields;
        const nodes: CstNode[] = [];
        for (const token of tokens) {
            const leaf = new LeafCstNodeImpl(token.startOffset, token.image.length, CstUtils.tokenToRange(token), token.tokenType, true);
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

    const parse = LangiumParser.prototype.parse;
    LangiumParser.prototype.parse = function parseAndRelease<T extends AstNode = AstNode>(this: LangiumParser, input: string, options?: Parameters<typeof parse>[1]): ParseResult<T> {
        try {
            return parse.call(this, input, options) as ParseResult<T>;
        } finally {
            // Setting the input resets the parser (new error list, empty stacks): the result keeps its own.
            (this as unknown as { wrapper: { input: unknown[] } }).wrapper.input = [];
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
