import { Cancellation, DefaultLangiumDocumentFactory, delayNextTick, OperationCancelled, type LangiumSharedCoreServices, type ParseResult, type AstNode, type URI, type LangiumCoreServices, type LangiumDocument, type LangiumParser } from 'langium';
import { createBattleParser } from './battle-parser-builder.js';
import { LIMIT_DEFAULTS, type LimitValues } from '../core/limits.js';
import { contextOf, finishOwedKeys, setModelContext } from '../core/model-cache.js';
import type { RulesetRegistry } from '../core/ruleset.js';
import type { Element, Scenario } from './generated/ast.js';
import { importGraphOf } from './battle-imports.js';
import type { CancellationToken } from 'vscode-languageserver';
import { reparsePiece, splicedElements, type Spliced } from './incremental-parse.js';
import { spanBetween, type EditRecord, type TextSpan } from './text-change.js';

/**
 * Parses documents behind guards (docs/limits.md#parser-guards): files over the size limit or with absurd nesting are
 * not handed to the parser at all, and a parser that throws is replaced, because after a throw its
 * internal state can return the previous document's tree with no errors.
 *
 * Each parse records the context its model is built in (src/core/model-cache.ts): the rule sets a
 * file may name, and the limits in force at that moment (settings change them for later parses).
 */
export class BattleDocumentFactory extends DefaultLangiumDocumentFactory {
    private readonly parsers = new Map<LangiumCoreServices, LangiumParser>();
    /** The services whose own parser threw once (`dropParser`). */
    private readonly threw = new WeakSet<LangiumCoreServices>();
    private limits: LimitValues = LIMIT_DEFAULTS;
    private readonly shared: LangiumSharedCoreServices;
    /** The document being updated, by address: its tree is the previous parse that an edit is spliced into. */
    private readonly updating = new Map<string, LangiumDocument>();
    /** The documents parsed so far, by address: a document's first build owes its action keys (`ModelContext.keysAfter`). */
    private readonly parsedBefore = new Set<string>();
    /** How many parses were made in pieces and how many whole (tests and the benchmark read them). */
    readonly counts = { pieces: 0, whole: 0 };

    /** `oneShot`: each document is parsed once and never edited (createBattleServices' `oneShot`): its models keep nothing for a next build. */
    constructor(services: LangiumSharedCoreServices, readonly rulesets: RulesetRegistry, private readonly oneShot = false) {
        super(services);
        this.shared = services;
    }

    /** The limits for the parses from now on (`umpire.limits.*`, docs/limits.md). */
    setLimits(limits: LimitValues): void {
        this.limits = limits;
    }

    get limitsInForce(): LimitValues {
        return this.limits;
    }

    /**
     * An open document's edit: its previous tree is handed to the parse, which splices the changed
     * elements into it when it can (src/language/incremental-parse.ts).
     */
    override async update<T extends AstNode = AstNode>(document: LangiumDocument<T>, cancellationToken: CancellationToken): Promise<LangiumDocument<T>> {
        const key = document.uri.toString();
        this.updating.set(key, document);
        try {
            return await super.update(document, cancellationToken);
        } finally {
            if (this.updating.get(key) === document) this.updating.delete(key);
        }
    }

    protected override parse<T extends AstNode>(uri: URI, text: string, _options?: unknown, version?: number): ParseResult<T> {
        // The keys a first build owes read its nodes' text, which a parse in pieces may share with the next tree,
        // and its imported files' trees: they are made before any parse.
        finishOwedKeys();
        const address = uri.toString();
        const first = !this.oneShot && !this.parsedBefore.has(address);
        this.parsedBefore.add(address);
        const document = this.updating.get(address);
        this.updating.delete(address);
        const pieces = document ? this.inPieces(document, text, version) : undefined;
        let result = pieces?.result as ParseResult<T> | undefined;
        if (result) this.counts.pieces++;
        else {
            result = this.parseGuarded<T>(uri, text);
            this.counts.whole++;
            // An open document (the server's parse, which has a version) is edited next: the depths its first
            // edit's nesting guard reads are counted now, with the whole parse, not in that edit.
            if (version !== undefined && (result.value as AstNode).$type === 'Scenario') countDepths(result.value as unknown as Scenario);
        }
        const count = (result.value as unknown as Partial<Scenario>).elements?.length ?? 0;
        const elements: ParseElements = pieces ? elementsAfter(pieces.before, count, pieces.spliced) : Object.freeze({ count, tree: Object.freeze({}), edits: Object.freeze([]) });
        setModelContext(result.value as unknown as Scenario, {
            rulesets: this.rulesets, limits: this.limits, once: this.oneShot, keysAfter: first,
            imported: root => importGraphOf(this.shared)?.closure(root).map(d => d.parseResult.value) ?? [],
            // A file built once is never edited: no record to read.
            edits: this.oneShot ? undefined : { tree: elements.tree, changedSince: tree => changeBetween(elements, tree) }
        });
        PARSED_FROM.set(result.value, Object.freeze(pieces
            ? { text, shared: this.shared, version, previous: pieces.previous, change: pieces.change, spliced: pieces.spliced, elements }
            : { text, shared: this.shared, version, elements }));
        return result;
    }

    /**
     * The edit spliced into the document's previous tree, or undefined when the whole file must be
     * parsed: the guards refuse the new text, the limits or rule sets changed since that parse, or the
     * piece cannot be proven to parse as the whole file would (src/language/incremental-parse.ts).
     */
    private inPieces(document: LangiumDocument, text: string, version: number | undefined): { result: ParseResult<Scenario>, previous: string, change: TextSpan, spliced: Spliced, before: ParseElements | undefined } | undefined {
        const previous = document.parseResult as ParseResult<Scenario>;
        if (previous.value.$type !== 'Scenario') return undefined;
        const context = contextOf(previous.value);
        if (context.limits !== this.limits || context.rulesets !== this.rulesets || text.length > this.limits.maxFileChars) return undefined;
        const before = PARSED_FROM.get(previous.value);
        const oldText = before?.text ?? (previous.value.$cstNode as { fullText?: string } | undefined)?.fullText;
        if (oldText === undefined || oldText === text) return undefined;
        const change = this.changeBetween(document, oldText, before?.version, text, version);
        const services = this.serviceRegistry.getServices(document.uri);
        countDepths(previous.value);
        let result: ParseResult<Scenario> | undefined;
        try {
            result = reparsePiece(previous, text, piece => this.parserFor(services).parse<Scenario>(piece), change);
        } catch {
            // A parser that threw is replaced (see parseGuarded); the whole file is parsed by the new one.
            this.dropParser(services);
            return undefined;
        }
        if (!result || !nestingAllowed(previous, result, text, this.limits)) return undefined;
        // The kept elements keep their links; the linker links again what the edit can have changed (BattleLinker).
        return { result: wholeCharacters(result, text), previous: oldText, change, spliced: splicedElements(result)!, before: before?.elements };
    }

    /**
     * The span of the change from the previous parse's text to this one: as the editor's change events
     * name it when it sent them for every version between the two (lsp/text-documents.ts), else by
     * comparing the texts. The events' lengths must match the texts', or the texts are compared.
     */
    private changeBetween(document: LangiumDocument, oldText: string, oldVersion: number | undefined, text: string, version: number | undefined): TextSpan {
        const edits = (this.textDocuments as { edits?: EditRecord } | undefined)?.edits;
        const said = edits && oldVersion !== undefined && version !== undefined ? edits.changeBetween(document.uri.toString(), oldVersion, version) : undefined;
        if (said && said.oldLength === oldText.length && said.newLength === text.length && said.span.prefix + said.span.suffix <= Math.min(oldText.length, text.length)) return said.span;
        return spanBetween(oldText, text);
    }

    private parseGuarded<T extends AstNode>(uri: URI, text: string): ParseResult<T> {
        const services = this.serviceRegistry.getServices(uri);
        const refusal = refuse(text, this.limits);
        if (refusal) return this.emptyWith<T>(services, refusal);
        try {
            return wholeCharacters(this.parserFor(services).parse<T>(text), text);
        } catch (err) {
            this.dropParser(services);
            const message = err instanceof RangeError
                ? 'This file is too deeply nested or too long to read. Split it, or remove the repeated brackets.'
                : `This file could not be read: ${err instanceof Error ? err.message : String(err)}`;
            return this.emptyWith<T>(services, { message, offset: 0, line: 1, column: 1, length: 1 });
        }
    }

    /**
     * The language server parses opened and changed documents through this asynchronous path, not
     * `parse`: without this override the guards above would apply to the CLI only (measured: a file
     * nested 65 deep reached the parser in the server). Langium's default async parser runs the same
     * synchronous parser, so nothing is lost.
     *
     * Before parsing it lets the event loop turn once: edits that arrived while the previous build ran
     * are read first, and the newest cancels this parse (typing into a 10,000-line file queued
     * 21 versions, each parsed in full, because the parse started before the next edit was read).
     */
    protected override async parseAsync<T extends AstNode>(uri: URI, text: string, cancellationToken: CancellationToken): Promise<ParseResult<T>> {
        // The version of the text being parsed, read in the same turn as the text (DefaultLangiumDocumentFactory.update).
        const version = this.textDocuments?.get(uri.toString())?.version;
        if (cancellationToken !== Cancellation.CancellationToken.None) {
            await delayNextTick();
            if (cancellationToken.isCancellationRequested) throw OperationCancelled;
        }
        return this.parse<T>(uri, text, undefined, version);
    }

    /**
     * The parser of the language's services, the one Langium's async parser holds too: making one costs a
     * start-up 50–150 ms (docs/performance.md, "Start-up"), so the first is shared. After a throw, a new one.
     */
    private parserFor(services: LangiumCoreServices): LangiumParser {
        let parser = this.parsers.get(services);
        if (!parser) {
            parser = this.threw.has(services) ? createBattleParser(services) : services.parser.LangiumParser;
            this.parsers.set(services, parser);
        }
        return parser;
    }

    /** A parser that threw may be left mid-rule: it is not used again. */
    private dropParser(services: LangiumCoreServices): void {
        this.parsers.delete(services);
        this.threw.add(services);
    }

    /** A well-formed empty scenario carrying one lexing problem, so every service has a tree to work on. */
    private emptyWith<T extends AstNode>(services: LangiumCoreServices, problem: LimitProblem): ParseResult<T> {
        const empty = this.parserFor(services).parse<T>('');
        return { ...empty, lexerErrors: [problem], parserErrors: [] };
    }
}

/** What a parse was made from: the exact text, and the services that can tell whether it is still current. */
export interface ParsedFrom {
    readonly text: string;
    /** The editor's version of that text, when the parse came from an open document. */
    readonly version?: number;
    readonly shared: LangiumSharedCoreServices;
    /** A parse made in pieces: the text of the parse it was spliced into … */
    readonly previous?: string;
    /** … the span of the change between the two, in the previous text (the one answer to "what changed") … */
    readonly change?: TextSpan;
    /** … and which top-level elements it parsed again (incremental-parse.ts `Spliced`). */
    readonly spliced?: Spliced;
    /** Which top-level elements the edits that led to this tree kept, replaced and added (`elementsChangedSince`). */
    readonly elements: ParseElements;
}

/**
 * The top-level elements of one parse, and the edits spliced into the trees before it that led to it: each
 * edit from the tree before it (named by that tree's token, `tree`, an object that holds nothing), the last
 * EDITS_KEPT of them. A build step that keeps answers for a tree asks, with the record of
 * the tree it last worked on, which elements were kept, replaced and added since (`elementsChangedSince`),
 * rather than matching the two trees' elements again.
 */
export interface ParseElements {
    /** How many top-level elements the tree has. */
    readonly count: number;
    /** Stands for the tree in the records of the edits made after it (`ElementsEdit.from`): it holds nothing. */
    readonly tree: object;
    /** The edits, oldest first; none for a tree parsed whole. */
    readonly edits: readonly ElementsEdit[];
}

/**
 * One parse in pieces: the tree `from` recorded had its top-level elements [first, first + replaced)
 * replaced by the new tree's [first, first + added); every other element is the same object, those after
 * them `added - replaced` places on. An edit inside a turn replaces the turn (a new node, whose kept
 * elements are the old turn's same objects). `header`: the header was parsed again.
 */
interface ElementsEdit {
    /** The `tree` of the record of the tree it was spliced into. */
    readonly from: object;
    readonly first: number;
    readonly replaced: number;
    readonly added: number;
    readonly header: boolean;
}

/** Which top-level elements were kept, replaced and added between two trees (as `ElementsEdit`, without `from`). */
export type ElementsChanged = Omit<ElementsEdit, 'from'>;

/** How many edits a parse's record holds: a build step that missed more trees than that works its answers out again. */
const EDITS_KEPT = 16;

/**
 * The record of a tree made in pieces from the tree `before` recorded: that record's last edits and this
 * one. The edits name the earlier trees by their tokens, so no record keeps an older tree, or an older
 * record, alive.
 */
function elementsAfter(before: ParseElements | undefined, count: number, spliced: Spliced): ParseElements {
    const tree = Object.freeze({});
    if (!before) return Object.freeze({ count, tree, edits: Object.freeze([]) });
    const edit: ElementsEdit = Object.freeze({ from: before.tree, first: spliced.first, replaced: before.count - count + spliced.added, added: spliced.added, header: spliced.header });
    return Object.freeze({ count, tree, edits: Object.freeze([...before.edits.slice(1 - EDITS_KEPT), edit]) });
}

/**
 * Which top-level elements of the document's tree were kept, replaced and added since the tree `since`
 * recorded: the edits between the two composed into one span of elements. Undefined when that tree is not
 * among the ones this tree was spliced from (parsed whole since, or more than EDITS_KEPT edits ago), and
 * then everything is new.
 */
export function elementsChangedSince(document: LangiumDocument, since: ParseElements): ElementsChanged | undefined {
    const now = PARSED_FROM.get(document.parseResult.value)?.elements;
    return now && changeBetween(now, since.tree);
}

/** `elementsChangedSince` between two records: `now`, and the earlier one whose token is `since`. */
function changeBetween(now: ParseElements, since: object): ElementsChanged | undefined {
    if (now.tree === since) return { first: 0, replaced: 0, added: 0, header: false };
    const edits = now.edits;
    let at = edits.length - 1;
    while (at >= 0 && edits[at].from !== since) at--;
    if (at < 0) return undefined;
    let first = edits[at].first, replaced = edits[at].replaced, added = edits[at].added, header = edits[at].header;
    for (let k = at + 1; k < edits.length; k++) {
        // [first, first + added) of the tree between, and the next edit's [f, f + r) of it, as one span.
        const { first: f, replaced: r, added: a } = edits[k];
        const lo = Math.min(first, f);
        const hi = Math.max(first + added, f + r);
        replaced = hi - added + replaced - lo;
        added = hi - r + a - lo;
        first = lo;
        header ||= edits[k].header;
    }
    return { first, replaced, added, header };
}

/**
 * The text each tree was parsed from, keyed by its root. The editor's text moves on with every
 * keystroke while the tree is rebuilt later, so a provider that returns edits or positions compares
 * the two before answering (src/language/lsp/current-version.ts).
 */
const PARSED_FROM = new WeakMap<AstNode, ParsedFrom>();

export function parsedFrom(document: LangiumDocument): ParsedFrom | undefined {
    return PARSED_FROM.get(document.parseResult.value);
}

/**
 * The lexer names a character it cannot read by one UTF-16 unit: an emoji or any character outside the
 * Basic Multilingual Plane came out as half a surrogate pair ('\ud83d'), which the editor shows as a
 * broken glyph. The message gets the whole character back from the text.
 */
function wholeCharacters<T extends AstNode>(result: ParseResult<T>, text: string): ParseResult<T> {
    for (const error of result.lexerErrors) {
        const code = text.codePointAt(error.offset);
        if (code === undefined || code <= 0xffff) continue;
        error.message = error.message.replace(/->[\s\S]*?<-/, `->${String.fromCodePoint(code)}<-`);
    }
    return result;
}

export interface LimitProblem {
    message: string;
    offset: number;
    line: number;
    column: number;
    length: number;
}

/** Marks the messages of refused files so that the document validator gives them the `file-limit` code. */
export const LIMIT_MARK = 'Limit: ';

/**
 * The brace depth (as `refuse` counts it: every '{' and '}', a '}' at depth 0 ignored) at the start of
 * each top-level element, so that an edit parsed in pieces is guarded by a scan of its piece only (a
 * scan of the whole text was 2 % of an edit of 50,000 lines). Kept elements keep theirs: before the
 * piece the text is the same, and after it too, from the same depth when the piece ends at the depth
 * it ended at before.
 */
const DEPTH_AT = new WeakMap<Element, number>();

/**
 * Whether the guards of docs/limits.md let the text of a tree made in pieces be parsed, from a scan
 * of the piece; the whole text when the piece leaves the depth after it changed (an unbalanced brace).
 * False when the whole file must be parsed (and refused) instead.
 */
function nestingAllowed(previous: ParseResult<Scenario>, result: ParseResult<Scenario>, text: string, limits: LimitValues): boolean {
    const spliced = splicedElements(result);
    const elements = result.value.elements;
    // A piece that took in the header began at the file's start, at depth 0.
    const depth = spliced ? (spliced.header ? 0 : DEPTH_AT.get(previous.value.elements[spliced.first])) : undefined;
    const start = spliced?.header ? 0 : elements[spliced?.first ?? -1]?.$cstNode?.offset;
    if (!spliced || depth === undefined || start === undefined) return refuse(text, limits) === undefined && depthsOf(elements, text, 0, text.length, 0, limits) !== undefined;
    const next = elements[spliced.first + spliced.added];
    const after = depthsOf(elements.slice(spliced.first, spliced.first + spliced.added), text, start, next?.$cstNode?.offset ?? text.length, depth, limits);
    if (after === undefined) return false;
    if (!next || DEPTH_AT.get(next) === after) return true;
    // The depth after the piece changed: the rest of the file is counted again.
    return refuse(text, limits) === undefined && depthsOf(elements, text, 0, text.length, 0, limits) !== undefined;
}

/** The depth at each element of a tree parsed whole, counted once, before its first edit is spliced into it (the text still its own). */
function countDepths(root: Scenario): void {
    const elements = root.elements;
    if (elements.length === 0 || DEPTH_AT.has(elements[0])) return;
    depthsOf(elements, (root.$cstNode as { root: { fullText: string } }).root.fullText, 0, Number.POSITIVE_INFINITY, 0, { ...LIMIT_DEFAULTS, maxBraceDepth: Number.POSITIVE_INFINITY });
}

/**
 * Counts braces in text[from, to) from `depth`, and records the depth at the start of each of
 * `elements` (in text order, within the span). The depth at `to`, or undefined past the limit.
 */
function depthsOf(elements: readonly Element[], text: string, from: number, to: number, depth: number, limits: LimitValues): number | undefined {
    const end = Math.min(to, text.length);
    const offsetOf = (k: number) => k < elements.length ? elements[k].$cstNode?.offset ?? end : end;
    let next = 0;
    let stop = offsetOf(0);
    // From brace to brace (`indexOf`, not a look at every character: the first edit after an open counts
    // the whole file, 20 ms of it at 50,000 lines). An element is counted when the scan reaches its start,
    // as a scan of every character would (one that starts before the element counted before it, never).
    let i = from, open = text.indexOf('{', from), close = text.indexOf('}', from);
    for (;;) {
        const brace = Math.min(open < 0 ? end : open, close < 0 ? end : close, end);
        while (stop >= i && stop <= brace && stop < end) {
            DEPTH_AT.set(elements[next], depth);
            i = stop;
            stop = offsetOf(++next);
        }
        if (brace >= end) break;
        if (brace === open) {
            if (++depth > limits.maxBraceDepth) return undefined;
            open = text.indexOf('{', brace + 1);
        } else {
            if (depth > 0) depth--;
            close = text.indexOf('}', brace + 1);
        }
        i = brace + 1;
    }
    for (; next < elements.length; next++) DEPTH_AT.set(elements[next], depth);
    return depth;
}

/** Why a text is not parsed, or undefined when it may be. Linear in the text, no allocation per character. */
function refuse(text: string, limits: LimitValues = LIMIT_DEFAULTS): LimitProblem | undefined {
    if (text.length > limits.maxFileChars) {
        const mb = (text.length / 1_000_000).toFixed(1);
        return { message: `${LIMIT_MARK}This file has ${mb} million characters; Umpire reads files up to ${limits.maxFileChars / 1_000_000} million. Split the campaign into several files.`, offset: 0, line: 1, column: 1, length: 1 };
    }
    let depth = 0, line = 1, column = 1;
    for (let i = 0; i < text.length; i++) {
        const c = text.charCodeAt(i);
        // Line breaks as the editor counts them: \n, \r\n and a lone \r.
        if (c === 10 || (c === 13 && text.charCodeAt(i + 1) !== 10)) { line++; column = 1; continue; }
        column++;
        if (c === 123) {
            if (++depth > limits.maxBraceDepth) {
                return { message: `${LIMIT_MARK}Braces nest more than ${limits.maxBraceDepth} deep here; a scenario never needs more than 4. Close the open blocks.`, offset: i, line, column: column - 1, length: 1 };
            }
        } else if (c === 125 && depth > 0) depth--;
    }
    return undefined;
}
