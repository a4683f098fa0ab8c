import {
    AstUtils, Cancellation, DefaultDocumentValidator, DocumentValidator, interruptAndCheck, isOperationCancelled, type AstNode, type LangiumCoreServices,
    type LangiumDocument, type RootCstNode, type Scope, type ScopeProvider, type ValidationAcceptor, type ValidationOptions
} from 'langium';
// Types only: the command line's bundle leaves out vscode-languageserver (battle-core-module.ts).
import type { CancellationToken, Diagnostic } from 'vscode-languageserver';
import type { TextDocument } from 'vscode-languageserver-textdocument';
import { Codes } from '../core/codes.js';
import { contextOf } from '../core/model-cache.js';
import type { Scenario } from './generated/ast.js';
import { LIMIT_MARK } from './battle-document-factory.js';
import { closeSpellings } from '../core/spelling.js';
import { describeSyntaxError, lexingMessage, syntaxErrorStart, type OpenedBlock, type ParserErrorLike } from './syntax-messages.js';

/**
 * Where each code is explained: the editor links a problem's code to its row of docs/diagnostics.md
 * (`codeDescription`). The repository is package.json's; a test keeps the two in step.
 */
export const DIAGNOSTICS_DOC = 'https://github.com/umpire-dev/umpire/blob/HEAD/docs/diagnostics.md';

/** The most problems published for one file; garbage would otherwise flood the editor. */
export const MAX_DIAGNOSTICS = 200;

/**
 * The problems of one check of a file, in the order found (lexing, parsing, linking, then the
 * checks): the first MAX_DIAGNOSTICS are made in full, the rest only counted, so that a file with
 * twenty thousand mistakes costs little more than one with two hundred (docs/limits.md). One
 * mistake gives one syntax error: the parser's recovery reports it again at the same or a later
 * token of the same line, so only the first syntax error of a line counts (lexing errors too, so a
 * stray character is not reported again as a parse error).
 */
class Problems {
    readonly listed: Diagnostic[] = [];
    more = 0;
    private readonly syntaxLines = new Set<number>();

    get full(): boolean {
        return this.listed.length >= MAX_DIAGNOSTICS;
    }

    /** A problem, made by `make` only if it is listed. */
    add(make: () => Diagnostic): void {
        if (this.full) this.more++;
        else this.listed.push(make());
    }

    /** A syntax error on `line` (0-based): only the first of a line counts. */
    addSyntax(line: number, make: () => Diagnostic): void {
        if (this.syntaxLines.has(line)) return;
        this.syntaxLines.add(line);
        this.add(make);
    }

    /** A syntax error on `line` past the cap: counted, once a line. */
    countSyntax(line: number): void {
        if (this.syntaxLines.has(line)) return;
        this.syntaxLines.add(line);
        this.more++;
    }

    /** What is published: the problems listed, and a last one saying how many more there are. */
    published(): Diagnostic[] {
        if (this.more === 0) return this.listed;
        const last = this.listed[this.listed.length - 1];
        return [...this.listed, {
            severity: 1, range: last.range, code: Codes.tooManyProblems, source: 'umpire', codeDescription: { href: `${DIAGNOSTICS_DOC}#${Codes.tooManyProblems}` },
            message: `…and ${this.more} more problems in this file. Fix the ones above first.`
        }];
    }
}

/**
 * Langium's built-in problems (lexing, parsing, linking) get the tool's codes and words an umpire
 * understands, and the list is capped with a final "and N more". Langium's order is kept (lexing,
 * parsing, linking, then the checks); only the words, quick-fix data and ranges of the problems
 * past the cap are not made.
 */
export class BattleDocumentValidator extends DefaultDocumentValidator {
    private readonly scopes: ScopeProvider;

    constructor(services: LangiumCoreServices) {
        super(services);
        this.scopes = services.references.ScopeProvider;
    }

    override async validateDocument(document: LangiumDocument, options: ValidationOptions = {}, cancelToken = Cancellation.CancellationToken.None): Promise<Diagnostic[]> {
        const parseResult = document.parseResult;
        const problems = new Problems();
        await interruptAndCheck(cancelToken);
        if (!options.categories || options.categories.includes('built-in')) {
            const lexing: Diagnostic[] = [];
            this.processLexingErrors(parseResult, lexing, options);
            for (const d of lexing) {
                const problem = withLink(this.translate(d));
                if (problem.code === Codes.syntaxError) problems.addSyntax(problem.range.start.line, () => problem);
                else problems.add(() => problem);
            }
            if (options.stopAfterLexingErrors && lexing.some(d => (d.data as { code?: string } | undefined)?.code === DocumentValidator.LexingError)) return problems.published();
            this.parsingProblems(document, problems);
            if (options.stopAfterParsingErrors && parseResult.parserErrors.length > 0) return problems.published();
            const unresolved = this.linkingProblems(document, problems);
            if (options.stopAfterLinkingErrors && unresolved > 0) return problems.published();
        }
        try {
            await this.checkProblems(parseResult.value, options, problems, cancelToken);
        } catch (err) {
            if (isOperationCancelled(err)) throw err;
            console.error('An error occurred during validation:', err);
        }
        await interruptAndCheck(cancelToken);
        return problems.published();
    }

    /** The checks of the language and the rule set, as Langium runs them; a problem past the cap is counted, not placed. */
    private async checkProblems(root: AstNode, options: ValidationOptions, problems: Problems, cancelToken: CancellationToken): Promise<void> {
        const acceptor: ValidationAcceptor = (severity, message, info) => problems.add(() => withLink(this.translate(this.toDiagnostic(severity, message, info))));
        await this.validateAstBefore(root, options, acceptor, cancelToken);
        await this.validateAstNodes(root, options, acceptor, cancelToken);
        await this.validateAstAfter(root, options, acceptor, cancelToken);
    }

    /** Parse errors in an umpire's words, with the repair when one is obvious (src/language/syntax-messages.ts). */
    private parsingProblems(document: LangiumDocument, problems: Problems): void {
        const parseResult = document.parseResult;
        if (parseResult.parserErrors.length === 0) return;
        const root = parseResult.value.$cstNode?.root as RootCstNode | undefined;
        const text = root?.fullText ?? '';
        const lines = linesOf(document.textDocument, text);
        let blocks: OpenedBlock[] | undefined;
        const opened = () => blocks ??= openedBlocks(parseResult.value, lines);
        const words = contextOf(parseResult.value as Scenario).rulesets;
        for (const error of parseResult.parserErrors as ParserErrorLike[]) {
            if (problems.full) {
                // Past the cap only the line is needed, to count one error a line.
                problems.countSyntax(lines.lineAt(syntaxErrorStart(error, text, words)));
                continue;
            }
            const problem = describeSyntaxError(error, text, opened, words);
            const start = lines.positionAt(problem.start);
            problems.addSyntax(start.line, () => withLink({
                severity: 1, range: { start, end: lines.positionAt(problem.end) },
                code: Codes.syntaxError, source: 'umpire', message: problem.message,
                data: { code: Codes.syntaxError, replacements: problem.replacements, insert: problem.insert, remove: problem.remove }
            }));
        }
    }

    /**
     * An unknown name, with the names in scope one or two letters off it ("did you mean"), which the
     * quick fix offers too: the file's own declarations and those of the files it imports. The close
     * spellings are looked for only for the problems listed. Returns how many names are unknown.
     */
    private linkingProblems(document: LangiumDocument, problems: Problems): number {
        let unresolved = 0;
        const namesIn = new Map<Scope, string[]>();
        const references = this.referencesToReport(document);
        // Indexed (the references are an array): `for…of` made an iterator result for each of 35,000 references, the loop run once unoptimized.
        const listed: ReadonlyArray<LangiumDocument['references'][number]> = Array.isArray(references) ? references : [...references];
        for (let i = 0; i < listed.length; i++) {
            const reference = listed[i];
            const linkingError = reference.error;
            if (!linkingError) continue;
            unresolved++;
            problems.add(() => {
                const info = linkingError.info;
                const scope = this.scopes.getScope(info);
                let names = namesIn.get(scope);
                if (!names) namesIn.set(scope, names = scope.getAllElements().map(e => e.name).toArray());
                const meant = closeSpellings(reference.$refText, names).filter(n => n !== reference.$refText);
                return withLink(this.translate(this.toDiagnostic('error', linkingError.message, {
                    node: info.container, range: reference.$refNode?.range, property: info.property, index: info.index,
                    data: {
                        code: DocumentValidator.LinkingError, containerType: info.container.$type, property: info.property, refText: info.reference.$refText,
                        ...(meant.length > 0 ? { replacements: meant } : {})
                    }
                })));
            });
        }
        return unresolved;
    }

    /** The references whose linking errors are reported: every reference of the document, unless a subclass knows the unresolved ones. */
    protected referencesToReport(document: LangiumDocument): Iterable<LangiumDocument['references'][number]> {
        return document.references;
    }

    private translate(d: Diagnostic): Diagnostic {
        const code = (d.data as { code?: string } | undefined)?.code;
        const message = messageText(d);
        if (code === DocumentValidator.LexingError && message.startsWith(LIMIT_MARK)) {
            return { ...d, code: Codes.fileLimit, source: 'umpire', message: message.slice(LIMIT_MARK.length) };
        }
        if (code === DocumentValidator.LexingError) {
            return { ...d, code: Codes.syntaxError, source: 'umpire', message: lexingMessage(message) };
        }
        if (code === DocumentValidator.LinkingError) {
            return { ...d, code: Codes.unknownReference, source: 'umpire', message: linkingMessage(d) };
        }
        return { ...d, source: 'umpire' };
    }
}

/** The link from a problem's code to its explanation. */
function withLink(d: Diagnostic): Diagnostic {
    return typeof d.code === 'string' ? { ...d, codeDescription: { href: `${DIAGNOSTICS_DOC}#${d.code}` } } : d;
}

function linkingMessage(d: Diagnostic): string {
    const data = d.data as { containerType?: string, property?: string, refText?: string, replacements?: string[] } | undefined;
    const name = data?.refText ?? '?';
    const meant = data?.replacements?.length ? `did you mean ${data.replacements.map(r => `'${r}'`).join(' or ')}?` : undefined;
    switch (data?.property) {
        case 'force': return `There is no force named '${name}'${meant ? `: ${meant}` : '.'}`;
        case 'unit': return `This force has no unit named '${name}'${meant ? `: ${meant}` : '.'}`;
        case 'grade': return `There is no grade named '${name}': ${meant ? `${meant} Or declare it` : 'declare it'} with 'grade ${name} +1'.`;
        case 'modifiers': return `There is no modifier named '${name}': ${meant ? `${meant} Or declare it` : 'declare it'} with 'modifier ${name} -1'.`;
        default: return messageText(d);
    }
}

/** A problem's text: Langium's are plain text (the protocol allows Markdown since 3.18). */
function messageText(d: Diagnostic): string {
    return typeof d.message === 'string' ? d.message : d.message.value;
}

/** The blocks a '}' closes, in file order, for "the force 'Blue' (line 3) is not closed". */
function openedBlocks(root: AstNode, lines: Lines): OpenedBlock[] {
    const blocks: OpenedBlock[] = [];
    for (const node of AstUtils.streamAst(root)) {
        if (!BLOCK_RULES.has(node.$type) || !node.$cstNode) continue;
        const offset = node.$cstNode.offset;
        const named = node as { name?: unknown, kind?: unknown, number?: unknown };
        blocks.push({
            rule: node.$type, offset, line: lines.lineAt(offset) + 1,
            kind: typeof named.kind === 'string' ? named.kind : node.$type.toLowerCase(),
            name: String(named.name ?? named.number ?? '')
        });
    }
    return blocks.sort((a, b) => a.offset - b.offset);
}

const BLOCK_RULES = new Set(['Force', 'Action', 'Turn', 'House', 'Outcome', 'Grade', 'Unit']);

/** The lines of the text parsed: where an offset is, as line and character (0-based). */
interface Lines {
    lineAt(offset: number): number;
    positionAt(offset: number): { line: number, character: number };
}

/**
 * The lines of `text`, from the editor's document when it holds that text: it keeps where its lines
 * start from one change to the next, where finding them again reads the whole file.
 */
function linesOf(textDocument: TextDocument, text: string): Lines {
    if (textDocument.getText() !== text) {
        const starts = lineStartsOf(text);
        return { lineAt: offset => positionAt(starts, offset).line, positionAt: offset => positionAt(starts, offset) };
    }
    const lineAt = (offset: number) => textDocument.positionAt(offset).line;
    return {
        lineAt,
        // Its own character is not taken: it moves an offset inside a \r\n before the \r.
        positionAt: offset => {
            const line = lineAt(offset);
            return { line, character: offset - textDocument.offsetAt({ line, character: 0 }) };
        }
    };
}

/** Where each line starts, counting \n, \r\n and a lone \r as line breaks, as the editor does. */
function lineStartsOf(text: string): number[] {
    const starts = [0];
    for (let i = 0; i < text.length; i++) {
        const c = text.charCodeAt(i);
        if (c === 10 || (c === 13 && text.charCodeAt(i + 1) !== 10)) starts.push(i + 1);
    }
    return starts;
}

function positionAt(lines: readonly number[], offset: number): { line: number, character: number } {
    let lo = 0, hi = lines.length - 1;
    while (lo < hi) {
        const mid = (lo + hi + 1) >> 1;
        if (lines[mid] <= offset) lo = mid; else hi = mid - 1;
    }
    return { line: lo, character: offset - lines[lo] };
}
