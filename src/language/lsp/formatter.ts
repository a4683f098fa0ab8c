/**
 * The canonical layout of a .battle file:
 * - top-level declarations at column 0, one blank line around every block (force, engagement or
 *   action, turn); between one-line declarations (grades, modifiers, states) at most one blank line;
 * - the contents of `{ … }` blocks indented two spaces, one statement per line;
 * - single spaces between tokens, none before `,` `:` or around `.` `#`, signs joined to their
 *   number (`+2`), braced stats on one line: `{ size large, weight heavy }`;
 * - comments kept: a trailing comment stays on its line with the spacing before it (so aligned
 *   comments stay aligned), a comment on its own line is indented like the statement after it and
 *   carries that statement's blank line;
 * - an empty block stays on one line: `force Reserve { }`.
 *
 * Only the whitespace between tokens is ever changed, so formatting cannot change what the file means,
 * and the layout depends only on the tokens and the AST, so formatting twice changes nothing.
 *
 * Langium's AbstractFormatter decides spacing per AST node and leaves hidden nodes (comments) to
 * heuristics that move a block's blank line between its comment and the block; this formatter keeps
 * AbstractFormatter's entry points (whole file, range, error checks) and computes every gap itself.
 */
import { DocumentState, GrammarAST, isCompositeCstNode, isLeafCstNode, type AstNode, type CstNode, type LangiumDocument, type LeafCstNode } from 'langium';
import { AbstractFormatter } from 'langium/lsp';
import type {
    CancellationToken, DocumentFormattingParams, DocumentOnTypeFormattingParams, DocumentRangeFormattingParams, FormattingOptions, Range, TextEdit
} from 'vscode-languageserver';
import {
    Action, Dice, Factor, Facts, Flag, Force, Grade, House, HouseRow, Import, Modifier, Outcome, OutcomeLine, Relation, RuleOption, Seed, Sides, Split, Turn, Unit, UnitState,
    isOutcome, isRuleOption, isScenario
} from '../generated/ast.js';
import { whenCurrent } from './current-version.js';

/** One token of the file: a CST leaf, or a comment (comments are hidden tokens). */
interface Token {
    readonly offset: number;
    readonly end: number;
    readonly text: string;
    readonly comment: boolean;
    readonly leaf?: LeafCstNode;
}

/** What the formatter knows about a token: where it sits in the layout. */
interface Role {
    /** The token starts a statement or declaration, so it starts a line. */
    readonly startsLine: boolean;
    /** The statement it starts is a block (force, action, turn), which gets blank lines around it. */
    readonly block: boolean;
    /** The statement it starts is a top-level declaration. */
    readonly topLevel: boolean;
    /** `{` opening or `}` closing a block whose contents go on their own lines. */
    readonly opens: boolean;
    readonly closes: boolean;
    /** `scenario`, `rules` and options: the header, followed by a blank line. */
    readonly header?: boolean;
}

const INDENT = '  ';
const NO_SPACE_BEFORE = new Set([',', ':', '.', '#']);
const NO_SPACE_AFTER = new Set(['.', '#', '+', '-']);

export class BattleFormatter extends AbstractFormatter {
    // Edits are offsets into one text: computed on an older tree and applied to newer text they corrupt
    // the file, so each entry point first waits for the tree of the editor's current text.
    override async formatDocument(document: LangiumDocument, params: DocumentFormattingParams, cancelToken?: CancellationToken): Promise<TextEdit[]> {
        await whenCurrent(document, DocumentState.Parsed, cancelToken);
        return super.formatDocument(document, params);
    }

    override async formatDocumentRange(document: LangiumDocument, params: DocumentRangeFormattingParams, cancelToken?: CancellationToken): Promise<TextEdit[]> {
        await whenCurrent(document, DocumentState.Parsed, cancelToken);
        return super.formatDocumentRange(document, params);
    }

    override async formatDocumentOnType(document: LangiumDocument, params: DocumentOnTypeFormattingParams, cancelToken?: CancellationToken): Promise<TextEdit[]> {
        await whenCurrent(document, DocumentState.Parsed, cancelToken);
        return super.formatDocumentOnType(document, params);
    }

    protected format(_node: AstNode): void {
        // Every gap is computed in doDocumentFormat from the tokens; nothing is collected per node.
    }

    protected override doDocumentFormat(document: LangiumDocument, _options: FormattingOptions, range?: Range): TextEdit[] {
        const text = document.textDocument.getText();
        const eol = text.includes('\r\n') ? '\r\n' : '\n';
        const edits: TextEdit[] = [];
        for (const gap of formatGaps(document, eol)) {
            if (text.slice(gap.start, gap.end) === gap.text) continue;
            const editRange = { start: document.textDocument.positionAt(gap.start), end: document.textDocument.positionAt(gap.end) };
            if (range && (editRange.end.line < range.start.line || editRange.start.line > range.end.line)) continue;
            edits.push({ range: editRange, newText: gap.text });
        }
        return edits;
    }
}

/** The whitespace every gap between tokens should hold (and the file's start and end). */
function formatGaps(document: LangiumDocument, eol = '\n'): Array<{ start: number, end: number, text: string }> {
    const text = document.textDocument.getText();
    const tokens = tokensOf(document);
    const roles = tokens.map(t => t.comment ? undefined : roleOf(t));
    // For each token, the role of the first non-comment token from it on: what a comment run belongs to.
    const anchors: Array<Role | undefined> = new Array(tokens.length);
    for (let j = tokens.length - 1, next: Role | undefined; j >= 0; j--) anchors[j] = next = tokens[j].comment ? next : roles[j];
    const gaps: Array<{ start: number, end: number, text: string }> = [];
    if (tokens.length === 0) return gaps;
    gaps.push({ start: 0, end: tokens[0].offset, text: '' });
    let depth = roles[0]?.opens ? 1 : 0;
    // The last top-level statement, to put blank lines around blocks and after the header.
    let lastTopLevel: Role | undefined = roles[0]?.topLevel ? roles[0] : undefined;
    for (let i = 1; i < tokens.length; i++) {
        const prev = tokens[i - 1], cur = tokens[i], role = roles[i];
        if (role?.closes) depth = Math.max(0, depth - 1);
        const existing = text.slice(prev.end, cur.offset);
        const existingLines = (existing.match(/\n/g) ?? []).length;
        const afterOpen = roles[i - 1]?.opens === true;
        let gap: string;
        if (cur.comment && existingLines === 0) {
            // A trailing comment stays on its line, where the author put it (comments are often aligned).
            gap = /^[ \t]+$/.test(existing) ? existing : ' ';
        } else if (afterOpen && role?.closes) {
            gap = ' ';                                              // an empty block: `force Reserve { }`
        } else if (cur.comment || role?.startsLine || role?.closes || afterOpen || isLineComment(prev)) {
            const lines = lineBreaks(anchors[i], {
                afterOpen, afterComment: prev.comment, closing: role?.closes === true, existingLines, lastTopLevel
            });
            const statementLevel = cur.comment ? isStatementLevel(anchors[i]) : role?.startsLine || role?.closes;
            gap = eol.repeat(lines) + INDENT.repeat(depth + (statementLevel ? 0 : 1));
        } else {
            gap = spaceBetween(prev, cur);
        }
        if (role?.opens) depth++;
        if (role?.startsLine && role.topLevel) lastTopLevel = role;
        gaps.push({ start: prev.end, end: cur.offset, text: gap });
    }
    gaps.push({ start: tokens[tokens.length - 1].end, end: text.length, text: eol });
    return gaps;
}

interface LineContext {
    afterOpen: boolean;
    afterComment: boolean;
    closing: boolean;
    existingLines: number;
    lastTopLevel: Role | undefined;
}

/** How many line breaks go before a token that starts a line: 2 leaves one blank line. */
function lineBreaks(anchor: Role | undefined, c: LineContext): number {
    let lines: number;
    if (c.afterOpen || c.closing) lines = 1;                          // no blank line just inside braces
    else if (c.afterComment || !anchor || !(anchor.startsLine || anchor.closes)) lines = c.existingLines > 1 ? 2 : 1;
    else if (anchor.topLevel && anchor.header && c.lastTopLevel?.header) lines = 1;
    else if (anchor.topLevel && (anchor.block || c.lastTopLevel?.block || c.lastTopLevel?.header)) lines = 2;
    else lines = clamp(c.existingLines);
    return lines;
}

/** A comment on its own line is indented like the statement it precedes, or as a continuation inside one. */
function isStatementLevel(anchor: Role | undefined): boolean {
    return !anchor || anchor.startsLine || anchor.closes;
}

function clamp(existingLines: number): number {
    return Math.min(Math.max(existingLines, 1), 2);
}

function isLineComment(token: Token): boolean {
    return token.comment && token.text.startsWith('//');
}

function spaceBetween(prev: Token, cur: Token): string {
    if (prev.comment) return ' ';                                  // `/* note */ word`
    if (NO_SPACE_BEFORE.has(cur.text) && !cur.comment) return '';
    if (NO_SPACE_AFTER.has(prev.text) && isPunctuation(prev)) return '';
    // A band (`3..4`, `5..`, `..-9`) is one token, so it needs no rule: `5.. rout` and `5.. 3` keep their space.
    // Braced stats: `{ a, b }`, and `{ }` when empty, like an empty block.
    return ' ';
}

function isPunctuation(token: Token): boolean {
    return token.leaf !== undefined && GrammarAST.isKeyword(token.leaf.grammarSource);
}

/** Every token in file order, comments included (the lexer sees comments the CST may leave out). */
function tokensOf(document: LangiumDocument): Token[] {
    const root = document.parseResult.value.$cstNode;
    const leaves: LeafCstNode[] = [];
    // A plain walk: the CST of a large file has hundreds of thousands of nodes, and stream iterators cost.
    const walk = (node: CstNode) => {
        if (isCompositeCstNode(node)) for (const child of node.content) walk(child);
        else if (isLeafCstNode(node) && !node.hidden) leaves.push(node);
    };
    if (root) walk(root);
    const text = document.textDocument.getText();
    const tokens: Token[] = [];
    for (const leaf of leaves) tokens.push({ offset: leaf.offset, end: leaf.end, text: leaf.text, comment: false, leaf });
    for (const match of text.matchAll(/\/\*[\s\S]*?\*\/|\/\/[^\n\r]*|"(?:\\.|[^"\\\r\n])*"/g)) {
        // Strings are matched too so that `//` inside a string is not taken for a comment.
        if (match[0].startsWith('"')) continue;
        tokens.push({ offset: match.index, end: match.index + match[0].length, text: match[0].replace(/[ \t]+$/, ''), comment: true });
    }
    tokens.sort((a, b) => a.offset - b.offset);
    return tokens.map(t => t.comment ? { ...t, end: t.offset + t.text.length } : t);
}

// Sets of AST type names: checked for every token of the file, so a lookup rather than type guards.
const BLOCKS = new Set<string>([Force.$type, Action.$type, Turn.$type, House.$type]);
const STATEMENTS = new Set<string>([
    RuleOption.$type, Import.$type, Grade.$type, Modifier.$type, Force.$type, Unit.$type, Turn.$type, UnitState.$type, Action.$type,
    Sides.$type, Factor.$type, Dice.$type, Seed.$type, Flag.$type, Relation.$type, Split.$type, Facts.$type, Outcome.$type, OutcomeLine.$type,
    House.$type, HouseRow.$type
]);

function roleOf(token: Token): Role {
    const leaf = token.leaf;
    const none: Role = { startsLine: false, block: false, topLevel: false, opens: false, closes: false };
    if (!leaf) return none;
    const owner = leaf.astNode;
    const blockBrace = (token.text === '{' || token.text === '}') && (BLOCKS.has(owner.$type) || isOutcome(owner));
    if (blockBrace) return { ...none, opens: token.text === '{', closes: token.text === '}' };
    if (isScenario(owner)) {
        // `scenario "T"`, `rules x` and a sealed campaign's `seal "…"` and `reveal "…"` are the header, a line each.
        const header = token.text === 'scenario' || token.text === 'rules' || token.text === 'seal' || token.text === 'reveal';
        return { ...none, startsLine: header, topLevel: header, header };
    }
    if (isOutcome(owner) && token.text === 'summary') return { ...none, startsLine: true };
    // The statement this token starts, if it is the first token of one.
    let node: AstNode | undefined = owner;
    while (node && node.$cstNode && node.$cstNode.offset === leaf.offset) {
        if (STATEMENTS.has(node.$type)) {
            const topLevel = isScenario(node.$container);
            // Imports belong to the header, beside `rules` and the options (docs/campaigns.md#campaigns-across-files).
            return { ...none, startsLine: true, block: BLOCKS.has(node.$type), topLevel, header: isRuleOption(node) || node.$type === Import.$type };
        }
        node = node.$container;
    }
    return none;
}
