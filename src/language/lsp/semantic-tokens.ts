/**
 * Semantic highlighting: what a name is, not just that it is a name. Forces, units, grades and
 * modifiers are coloured the same where they are declared and wherever they are used (with the
 * `declaration` modifier at the declaration), result labels in written outcomes stand out, and every
 * number (dice, seeds, grade values, counts, `#k`) is a number. An action's kind and a relation's verb are
 * the rule sets' words, not the grammar's (`Ruleset.kinds`, `Ruleset.verbs`): they are coloured here, as a
 * keyword and an operator, for a rule set of any name.
 *
 * Each request gets its own token list. Langium's base class keeps the document, range and token
 * builder of "the current request" in fields and yields between nodes, so requests that interleave
 * (two documents, the same one twice, one cancelled half-way) wrote into each other's lists: measured
 * 10 of 10 wrong. Only highlightElement, which holds no state, is shared.
 */
import { AstUtils, CstUtils, GrammarUtils, type AstNode, type CstNode, type LangiumDocument } from 'langium';
import { AbstractSemanticTokenProvider, type LangiumServices, type SemanticTokenAcceptor, type SemanticTokenAcceptorOptions } from 'langium/lsp';
import type { BattleCaches, LastBuild } from '../battle-caches.js';
import {
    CancellationToken, SemanticTokenModifiers, SemanticTokenTypes,
    type Position, type Range, type SemanticTokens, type SemanticTokensDelta, type SemanticTokensDeltaParams, type SemanticTokensOptions,
    type SemanticTokensParams, type SemanticTokensRangeParams
} from 'vscode-languageserver';
import {
    isAction, isDice, isFact, isFactor, isForce, isGrade, isModifier, isOutcome, isOutcomeLine, isRelation, isSeed, isSplitPart, isStat, isStatValue, isTarget, isTurn, isUnit,
    type Scenario, type Target
} from '../generated/ast.js';
import { KeptPerElement, startOf, unitsOf } from './kept-per-element.js';
import { whenValidated } from './current-version.js';

/** The token type of each kind of name, shared with the tests. */
export const TOKEN_TYPES = {
    force: SemanticTokenTypes.namespace,
    unit: SemanticTokenTypes.variable,
    grade: SemanticTokenTypes.type,
    modifier: SemanticTokenTypes.decorator,
    action: SemanticTokenTypes.function,
    actionKind: SemanticTokenTypes.keyword,
    verb: SemanticTokenTypes.operator,
    result: SemanticTokenTypes.enumMember,
    stat: SemanticTokenTypes.property,
    number: SemanticTokenTypes.number
} as const;

const DECLARATION = SemanticTokenModifiers.declaration;

/**
 * One element's tokens as the protocol encodes them (each token's line and character counted from the
 * token before), the first counted from where the element starts (its line, and on that line its
 * character); and where its last token is, counted the same way. The numbers hold wherever the element
 * moves, so a kept element's tokens are copied into an answer as they are, but for the first.
 */
interface ElementTokens {
    readonly data: readonly number[];
    readonly lastLine: number;
    readonly lastChar: number;
}

/** Tokens counted from the element's start (five numbers each) as ElementTokens. */
function encode(relative: readonly number[]): ElementTokens {
    const data: number[] = [];
    let line = 0, char = 0;
    for (let i = 0; i < relative.length; i += 5) {
        const l = relative[i], c = relative[i + 1];
        if (i === 0) data.push(l, c, relative[i + 2], relative[i + 3], relative[i + 4]);
        else data.push(l - line, l === line ? c - char : c, relative[i + 2], relative[i + 3], relative[i + 4]);
        line = l;
        char = c;
    }
    return { data, lastLine: line, lastChar: char };
}

/** ElementTokens back to tokens counted from the element's start. */
function decode(tokens: ElementTokens): number[] {
    const d = tokens.data;
    const out: number[] = [];
    let line = 0, char = 0;
    for (let i = 0; i < d.length; i += 5) {
        if (i === 0) { line = d[0]; char = d[1]; } else { line += d[i]; char = d[i] === 0 ? char + d[i + 1] : d[i + 1]; }
        out.push(line, char, d[i + 2], d[i + 3], d[i + 4]);
    }
    return out;
}

/** The answers of one document a client may ask a delta against (its last few full answers). */
interface Answer {
    readonly id: string;
    readonly data: number[];
}

/** How many earlier answers per document a delta may start from (a client's last answer may not be the server's last). */
const KEPT_ANSWERS = 2;

/**
 * Semantic tokens kept per element: after an edit only the elements the parse in pieces made
 * anew are walked; the others' tokens are moved to where the element now starts. A request waits for
 * the document to be validated at the editor's version, so it never delays the edit's diagnostics
 * (current-version.ts). Deltas (`semanticTokens/full/delta`) send only what changed since an answer the
 * client holds: after a one-character edit a few tokens, not the whole file's.
 */
export class BattleSemanticTokenProvider extends AbstractSemanticTokenProvider {
    /** Each element's tokens, the same numbers wherever the element moves (ElementTokens). */
    private readonly kept: KeptPerElement<ElementTokens>;
    /** The last few answers sent, which a delta is worked out from. */
    private readonly answers: LastBuild<LangiumDocument, Answer[]>;
    private nextAnswer = 1;

    constructor(services: LangiumServices, caches: BattleCaches) {
        super(services);
        this.kept = new KeptPerElement<ElementTokens>(caches, 'semantic tokens', "each element's semantic tokens", {
            make: (node, at, document) => encode(this.tokensOfNodes(document, AstUtils.streamAst(node), at)),
            move: tokens => tokens
        });
        this.answers = caches.lastBuild({
            name: 'semantic tokens sent', keeps: `the last ${KEPT_ANSWERS} semantic-token answers sent, by result id, for deltas`,
            keyedBy: 'the document', againWhen: 'a newer answer is sent (the oldest goes)'
        });
    }

    override get semanticTokensOptions(): SemanticTokensOptions {
        return { ...super.semanticTokensOptions, full: { delta: true } };
    }

    override async semanticHighlight(document: LangiumDocument, _params: SemanticTokensParams, cancelToken?: CancellationToken): Promise<SemanticTokens> {
        const data = await this.tokensOf(document, undefined, cancelToken);
        return { resultId: this.remember(document, data), data };
    }

    override async semanticHighlightRange(document: LangiumDocument, params: SemanticTokensRangeParams, cancelToken?: CancellationToken): Promise<SemanticTokens> {
        return { data: await this.tokensOf(document, params.range, cancelToken) };
    }

    /** The change from the client's answer `previousResultId` as one edit, or the whole answer when that one is not kept. */
    override async semanticHighlightDelta(document: LangiumDocument, params: SemanticTokensDeltaParams, cancelToken?: CancellationToken): Promise<SemanticTokens | SemanticTokensDelta> {
        const data = await this.tokensOf(document, undefined, cancelToken);
        const previous = this.answers.get(document)?.find(a => a.id === params.previousResultId);
        const resultId = this.remember(document, data);
        if (!previous) return { resultId, data };
        const old = previous.data;
        let start = 0;
        while (start < old.length && start < data.length && old[start] === data[start]) start++;
        let end = 0;
        while (end < old.length - start && end < data.length - start && old[old.length - 1 - end] === data[data.length - 1 - end]) end++;
        if (start === old.length && start === data.length) return { resultId, edits: [] };
        return { resultId, edits: [{ start, deleteCount: old.length - start - end, data: data.slice(start, data.length - end) }] };
    }

    private remember(document: LangiumDocument, data: number[]): string {
        const id = String(this.nextAnswer++);
        const answers = this.answers.get(document) ?? [];
        answers.unshift({ id, data });
        answers.length = Math.min(answers.length, KEPT_ANSWERS);
        this.answers.set(document, answers);
        return id;
    }

    /**
     * The whole file's tokens (or those inside `range`), encoded as the protocol wants them (each
     * token's line and character from the one before). The elements' kept tokens are placed where the
     * elements start now; the answer is refused (ContentModified) when the tree changed while it was made.
     */
    private async tokensOf(document: LangiumDocument, range: Range | undefined, cancelToken = CancellationToken.None): Promise<number[]> {
        await whenValidated(document, cancelToken);
        const root = document.parseResult.value as Scenario;
        const out: number[] = [];
        let prevLine = 0, prevChar = 0;
        /** An element's kept tokens: the first placed, the others copied as they are (each is counted from the one before). */
        const placeKept = (tokens: ElementTokens, at: Position) => {
            const d = tokens.data;
            if (d.length === 0) return;
            if (range) {
                place(decode(tokens), at);
                return;
            }
            const line = at.line + d[0];
            const char = d[0] === 0 ? at.character + d[1] : d[1];
            out.push(line - prevLine, line === prevLine ? char - prevChar : char, d[2], d[3], d[4]);
            for (let i = 5; i < d.length; i++) out.push(d[i]);
            prevLine = at.line + tokens.lastLine;
            prevChar = tokens.lastLine === 0 ? at.character + tokens.lastChar : tokens.lastChar;
        };
        const place = (tokens: readonly number[], at: Position) => {
            for (let i = 0; i < tokens.length; i += 5) {
                const line = at.line + tokens[i];
                const char = tokens[i] === 0 ? at.character + tokens[i + 1] : tokens[i + 1];
                if (range && !inRange(line, char, tokens[i + 2], range)) continue;
                out.push(line - prevLine, line === prevLine ? char - prevChar : char, tokens[i + 2], tokens[i + 3], tokens[i + 4]);
                prevLine = line;
                prevChar = char;
            }
        };
        // The header (title, rules, options): a few nodes, walked each time, before the elements as in the text.
        for (const node of [root, ...root.options]) {
            const at = startOf(node) ?? { line: 0, character: 0 };
            place(this.tokensOfNodes(document, node === root ? [root] : AstUtils.streamAst(node), at), at);
        }
        const { units, nodes, tops } = unitsOf(root);
        const { entries, starts } = await this.kept.entriesYielding(document, nodes, tops, cancelToken);
        let next = 0;
        for (const unit of units) {
            if (unit.kind === 'turn') {
                // A turn's own tokens (its number), made each time; its elements are units of their own.
                const at = startOf(unit.node);
                if (at) place(this.tokensOfNodes(document, [unit.node], at), at);
            } else {
                placeKept(entries[next], starts[next]);
                next++;
            }
        }
        return out;
    }

    /** The tokens of `nodes` (one element's), relative to `at`, where the element starts. */
    private tokensOfNodes(document: LangiumDocument, nodes: Iterable<AstNode>, at: Position): number[] {
        const data: number[] = [];
        const acceptor: SemanticTokenAcceptor = options => this.accept(document, data, at, options);
        for (const node of nodes) this.highlightElement(node, acceptor);
        return inTextOrder(data);
    }

    /** The acceptor's four ways of naming a token, as Langium's base class reads them. */
    private accept(document: LangiumDocument, data: number[], at: Position, options: SemanticTokenAcceptorOptions): void {
        const { type, modifier } = options;
        const push = (r: Range) => this.push(document, data, at, r, type, modifier);
        if ('line' in options) {
            push({ start: { line: options.line, character: options.char }, end: { line: options.line, character: options.char + options.length } });
        } else if ('range' in options) {
            push(options.range);
        } else if ('keyword' in options) {
            const nodes: CstNode[] = typeof options.index === 'number'
                ? [GrammarUtils.findNodeForKeyword(options.node.$cstNode, options.keyword, options.index)].filter(n => n !== undefined)
                : GrammarUtils.findNodesForKeyword(options.node.$cstNode, options.keyword);
            for (const node of nodes) push(node.range);
        } else if ('property' in options) {
            const nodes: CstNode[] = typeof options.index === 'number'
                ? [GrammarUtils.findNodeForProperty(options.node.$cstNode, options.property, options.index)].filter(n => n !== undefined)
                : GrammarUtils.findNodesForProperty(options.node.$cstNode, options.property);
            for (const node of nodes) push(node.range);
        } else {
            push(options.cst.range);
        }
    }

    /** One token (or one per line, for a client that cannot take a token over several lines), relative to `at`. */
    private push(document: LangiumDocument, data: number[], at: Position, range: Range, type: string, modifier: string | string[] | undefined): void {
        const intType = this.tokenTypes[type];
        let modifiers = 0;
        for (const m of typeof modifier === 'string' ? [modifier] : modifier ?? []) modifiers |= this.tokenModifiers[m];
        const text = document.textDocument;
        const add = (line: number, char: number, length: number) => {
            data.push(line - at.line, line === at.line ? char - at.character : char, length, intType, modifiers);
        };
        if (range.start.line === range.end.line) {
            add(range.start.line, range.start.character, range.end.character - range.start.character);
        } else if (this.clientCapabilities?.multilineTokenSupport) {
            add(range.start.line, range.start.character, text.offsetAt(range.end) - text.offsetAt(range.start));
        } else {
            for (let line = range.start.line; line <= range.end.line; line++) {
                const from = line === range.start.line ? range.start.character : 0;
                const to = line === range.end.line ? range.end.character
                    : text.offsetAt({ line: line + 1, character: 0 }) - text.offsetAt({ line, character: 0 }) - 1;
                add(line, from, to - from);
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
        } else if (isAction(node)) {
            acceptor({ node, property: 'kind', type: TOKEN_TYPES.actionKind });
            acceptor({ node, property: 'name', type: TOKEN_TYPES.action, modifier: DECLARATION });
        } else if (isRelation(node)) acceptor({ node, property: 'verb', type: TOKEN_TYPES.verb });
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

/** Whether a token lies wholly inside `range` (what Langium's range request answers). */
function inRange(line: number, char: number, length: number, range: Range): boolean {
    return CstUtils.inRange({ start: { line, character: char }, end: { line, character: char + length } }, range);
}

/**
 * Tokens (five numbers each, positions relative to the element's start) in the order of the text. The AST
 * is walked in its own order, which error recovery can make differ from the text's (a half-typed line read
 * into the node before it); the protocol's encoding counts each token from the one before.
 */
function inTextOrder(data: number[]): number[] {
    let ordered = true;
    for (let i = 5; i < data.length && ordered; i += 5) ordered = data[i] > data[i - 5] || (data[i] === data[i - 5] && data[i + 1] >= data[i - 4]);
    if (ordered) return data;
    const tokens: number[][] = [];
    for (let i = 0; i < data.length; i += 5) tokens.push(data.slice(i, i + 5));
    tokens.sort((a, b) => a[0] - b[0] || a[1] - b[1]);
    return tokens.flat();
}
