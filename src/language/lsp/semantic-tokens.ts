/**
 * Semantic highlighting: what a name is, not just that it is a name. Forces, units, grades and
 * modifiers are coloured the same where they are declared and wherever they are used (with the
 * `declaration` modifier at the declaration), result labels in written outcomes stand out, and every
 * number (dice, seeds, grade values, counts, `#k`) is a number.
 *
 * Each request gets its own token list. Langium's base class keeps the document, range and token
 * builder of "the current request" in fields and yields between nodes, so requests that interleave
 * (two documents, the same one twice, one cancelled half-way) wrote into each other's lists: measured
 * 10 of 10 wrong (issue 19). Only highlightElement, which holds no state, is shared.
 */
import { AstUtils, CstUtils, GrammarUtils, interruptAndCheck, type AstNode, type CstNode, type LangiumDocument } from 'langium';
import { AbstractSemanticTokenProvider, type SemanticTokenAcceptor, type SemanticTokenAcceptorOptions } from 'langium/lsp';
import {
    CancellationToken, SemanticTokenModifiers, SemanticTokensBuilder, SemanticTokenTypes,
    type Range, type SemanticTokens, type SemanticTokensDeltaParams, type SemanticTokensParams, type SemanticTokensRangeParams
} from 'vscode-languageserver';
import {
    isAction, isDice, isFact, isFactor, isForce, isGrade, isModifier, isOutcome, isOutcomeLine, isSeed, isSplitPart, isStat, isStatValue, isTarget, isTurn, isUnit, type Target
} from '../generated/ast.js';

/** The token type of each kind of name, shared with tests and the README. */
export const TOKEN_TYPES = {
    force: SemanticTokenTypes.namespace,
    unit: SemanticTokenTypes.variable,
    grade: SemanticTokenTypes.type,
    modifier: SemanticTokenTypes.decorator,
    action: SemanticTokenTypes.function,
    result: SemanticTokenTypes.enumMember,
    stat: SemanticTokenTypes.property,
    number: SemanticTokenTypes.number
} as const;

const DECLARATION = SemanticTokenModifiers.declaration;

/** One request: what it highlights and where the tokens go. Never shared between requests. */
interface Request {
    readonly document: LangiumDocument;
    readonly range: Range | undefined;
    readonly builder: SemanticTokensBuilder;
}

export class BattleSemanticTokenProvider extends AbstractSemanticTokenProvider {
    override semanticHighlight(document: LangiumDocument, _params: SemanticTokensParams, cancelToken?: CancellationToken): Promise<SemanticTokens> {
        return this.highlightRequest({ document, range: undefined, builder: new SemanticTokensBuilder() }, cancelToken);
    }

    override semanticHighlightRange(document: LangiumDocument, params: SemanticTokensRangeParams, cancelToken?: CancellationToken): Promise<SemanticTokens> {
        return this.highlightRequest({ document, range: params.range, builder: new SemanticTokensBuilder() }, cancelToken);
    }

    /** Deltas are off (semanticTokensOptions); a full answer is a valid reply to a delta request. */
    override semanticHighlightDelta(document: LangiumDocument, _params: SemanticTokensDeltaParams, cancelToken?: CancellationToken): Promise<SemanticTokens> {
        return this.highlightRequest({ document, range: undefined, builder: new SemanticTokensBuilder() }, cancelToken);
    }

    private async highlightRequest(request: Request, cancelToken = CancellationToken.None): Promise<SemanticTokens> {
        const acceptor: SemanticTokenAcceptor = options => this.accept(request, options);
        const nodes = AstUtils.streamAst(request.document.parseResult.value, { range: request.range }).iterator();
        for (let next = nodes.next(); !next.done; next = nodes.next()) {
            await interruptAndCheck(cancelToken);
            // This provider never prunes: names sit at every depth (outcome lines inside actions inside turns).
            this.highlightElement(next.value, acceptor);
        }
        return request.builder.build();
    }

    /** The acceptor's four ways of naming a token, as Langium's base class reads them. */
    private accept(request: Request, options: SemanticTokenAcceptorOptions): void {
        const { type, modifier } = options;
        if ('line' in options) {
            const start = { line: options.line, character: options.char };
            this.push(request, { start, end: { line: options.line, character: options.char + options.length } }, type, modifier);
        } else if ('range' in options) {
            this.push(request, options.range, type, modifier);
        } else if ('keyword' in options) {
            const nodes: CstNode[] = typeof options.index === 'number'
                ? [GrammarUtils.findNodeForKeyword(options.node.$cstNode, options.keyword, options.index)].filter(n => n !== undefined)
                : GrammarUtils.findNodesForKeyword(options.node.$cstNode, options.keyword);
            for (const node of nodes) this.push(request, node.range, type, modifier);
        } else if ('property' in options) {
            const nodes: CstNode[] = typeof options.index === 'number'
                ? [GrammarUtils.findNodeForProperty(options.node.$cstNode, options.property, options.index)].filter(n => n !== undefined)
                : GrammarUtils.findNodesForProperty(options.node.$cstNode, options.property);
            for (const node of nodes) this.push(request, node.range, type, modifier);
        } else {
            this.push(request, options.cst.range, type, modifier);
        }
    }

    private push(request: Request, range: Range, type: string, modifier: string | string[] | undefined): void {
        if (request.range && !CstUtils.inRange(range, request.range)) return;
        const intType = this.tokenTypes[type];
        let modifiers = 0;
        for (const m of typeof modifier === 'string' ? [modifier] : modifier ?? []) modifiers |= this.tokenModifiers[m];
        const text = request.document.textDocument;
        if (range.start.line === range.end.line) {
            request.builder.push(range.start.line, range.start.character, range.end.character - range.start.character, intType, modifiers);
        } else if (this.clientCapabilities?.multilineTokenSupport) {
            request.builder.push(range.start.line, range.start.character, text.offsetAt(range.end) - text.offsetAt(range.start), intType, modifiers);
        } else {
            // One token per line for clients that cannot take a token over several lines.
            for (let line = range.start.line; line <= range.end.line; line++) {
                const from = line === range.start.line ? range.start.character : 0;
                const to = line === range.end.line ? range.end.character
                    : text.offsetAt({ line: line + 1, character: 0 }) - text.offsetAt({ line, character: 0 }) - 1;
                request.builder.push(line, from, to - from, intType, modifiers);
            }
        }
    }

    protected highlightElement(node: AstNode, acceptor: SemanticTokenAcceptor): void {
        if (isForce(node)) acceptor({ node, property: 'name', type: TOKEN_TYPES.force, modifier: DECLARATION });
        else if (isUnit(node)) {
            acceptor({ node, property: 'name', type: TOKEN_TYPES.unit, modifier: DECLARATION });
            if (node.grade) acceptor({ node, property: 'grade', type: TOKEN_TYPES.grade });
            if (node.count) acceptor({ node, property: 'count', type: TOKEN_TYPES.number });
        } else if (isGrade(node)) {
            acceptor({ node, property: 'name', type: TOKEN_TYPES.grade, modifier: DECLARATION });
            if (node.value !== undefined) acceptor({ node, property: 'value', type: TOKEN_TYPES.number });
        } else if (isModifier(node)) {
            acceptor({ node, property: 'name', type: TOKEN_TYPES.modifier, modifier: DECLARATION });
            acceptor({ node, property: 'value', type: TOKEN_TYPES.number });
        } else if (isAction(node)) acceptor({ node, property: 'name', type: TOKEN_TYPES.action, modifier: DECLARATION });
        else if (isTurn(node) && node.number !== undefined) acceptor({ node, property: 'number', type: TOKEN_TYPES.number });
        else if (isTarget(node)) this.highlightTarget(node, acceptor);
        else if (isFactor(node)) node.modifiers.forEach((_, index) => acceptor({ node, property: 'modifiers', index, type: TOKEN_TYPES.modifier }));
        else if (isDice(node)) node.values.forEach((_, index) => acceptor({ node, property: 'values', index, type: TOKEN_TYPES.number }));
        else if (isSeed(node)) acceptor({ node, property: 'value', type: TOKEN_TYPES.number });
        else if (isSplitPart(node)) acceptor({ node, property: 'dice', type: TOKEN_TYPES.number });
        else if (isOutcome(node) && node.seed !== undefined) acceptor({ node, property: 'seed', type: TOKEN_TYPES.number });
        else if (isOutcomeLine(node)) acceptor({ node, property: 'result', type: TOKEN_TYPES.result });
        else if (isStat(node)) acceptor({ node, property: 'key', type: TOKEN_TYPES.stat });
        else if (isStatValue(node) && node.number !== undefined) acceptor({ node, property: 'number', type: TOKEN_TYPES.number });
        else if (isFact(node)) {
            acceptor({ node, property: 'key', type: TOKEN_TYPES.stat });
            if (node.number !== undefined) acceptor({ node, property: 'number', type: TOKEN_TYPES.number });
        }
    }

    private highlightTarget(node: Target, acceptor: SemanticTokenAcceptor): void {
        acceptor({ node, property: 'force', type: TOKEN_TYPES.force });
        if (node.unit) acceptor({ node, property: 'unit', type: TOKEN_TYPES.unit });
        if (node.index !== undefined) acceptor({ node, property: 'index', type: TOKEN_TYPES.number });
    }
}
