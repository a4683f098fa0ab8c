import {
    AstUtils, DefaultDocumentValidator, DocumentValidator, type AstNode, type LangiumCoreServices, type LangiumDocument, type ParseResult,
    type RootCstNode, type ScopeProvider, type ValidationOptions
} from 'langium';
import type { CancellationToken, Diagnostic } from 'vscode-languageserver';
import { Codes } from '../core/codes.js';
import { LIMIT_MARK } from './battle-document-factory.js';
import { closeSpellings } from '../core/spelling.js';
import { describeSyntaxError, lexingMessage, oneErrorPerLine, type OpenedBlock, type ParserErrorLike } from './syntax-messages.js';

/**
 * Where each code is explained: the editor links a problem's code to its row of docs/diagnostics.md
 * (`codeDescription`). The repository is package.json's; a test keeps the two in step.
 */
export const DIAGNOSTICS_DOC = 'https://github.com/umpire-dev/umpire/blob/HEAD/docs/diagnostics.md';

/** The most problems published for one file; garbage would otherwise flood the editor. */
export const MAX_DIAGNOSTICS = 200;

/**
 * Langium's built-in problems (lexing, parsing, linking) get the tool's codes and words an umpire
 * understands, and the list is capped with a final "and N more".
 */
export class BattleDocumentValidator extends DefaultDocumentValidator {
    private readonly scopes: ScopeProvider;

    constructor(services: LangiumCoreServices) {
        super(services);
        this.scopes = services.references.ScopeProvider;
    }

    override async validateDocument(document: LangiumDocument, options?: ValidationOptions, cancelToken?: CancellationToken): Promise<Diagnostic[]> {
        const all = (await super.validateDocument(document, options, cancelToken)).map(d => withLink(this.translate(d)));
        const diagnostics = oneErrorPerLine(all, d => d.code === Codes.syntaxError);
        if (diagnostics.length <= MAX_DIAGNOSTICS) return diagnostics;
        const kept = diagnostics.slice(0, MAX_DIAGNOSTICS);
        const last = kept[kept.length - 1];
        kept.push({
            severity: 1, range: last.range, code: Codes.tooManyProblems, source: 'umpire', codeDescription: { href: `${DIAGNOSTICS_DOC}#${Codes.tooManyProblems}` },
            message: `…and ${diagnostics.length - MAX_DIAGNOSTICS} more problems in this file. Fix the ones above first.`
        });
        return kept;
    }

    /** Parse errors in an umpire's words, with the repair when one is obvious (src/language/syntax-messages.ts). */
    protected override processParsingErrors(parseResult: ParseResult, diagnostics: Diagnostic[]): void {
        const root = parseResult.value.$cstNode?.root as RootCstNode | undefined;
        const text = root?.fullText ?? '';
        if (parseResult.parserErrors.length === 0) return;
        const lines = lineStartsOf(text);
        let blocks: OpenedBlock[] | undefined;
        const opened = () => blocks ??= openedBlocks(parseResult.value, lines);
        for (const error of parseResult.parserErrors.slice(0, MAX_DIAGNOSTICS + 1)) {
            const problem = describeSyntaxError(error as ParserErrorLike, text, opened);
            diagnostics.push({
                severity: 1, range: { start: positionAt(lines, problem.start), end: positionAt(lines, problem.end) },
                code: Codes.syntaxError, source: 'umpire', message: problem.message,
                data: { code: Codes.syntaxError, replacements: problem.replacements, insert: problem.insert, remove: problem.remove }
            });
        }
    }

    /**
     * An unknown name, with the names in scope one or two letters off it ("did you mean"), which the
     * quick fix offers too: the file's own declarations and those of the files it imports.
     */
    protected override processLinkingErrors(document: LangiumDocument, diagnostics: Diagnostic[], options: ValidationOptions): void {
        const start = diagnostics.length;
        super.processLinkingErrors(document, diagnostics, options);
        const unresolved = document.references.filter(r => r.error);
        for (let i = start, k = 0; i < diagnostics.length && k < unresolved.length; i++, k++) {
            const reference = unresolved[k];
            const info = reference.error!.info;
            if (i - start >= MAX_DIAGNOSTICS) break;
            const names = this.scopes.getScope(info).getAllElements().map(e => e.name).toArray();
            const meant = closeSpellings(reference.$refText, names).filter(n => n !== reference.$refText);
            if (meant.length > 0) diagnostics[i] = { ...diagnostics[i], data: { ...diagnostics[i].data as object, replacements: meant } };
        }
    }

    private translate(d: Diagnostic): Diagnostic {
        const code = (d.data as { code?: string } | undefined)?.code;
        if (code === DocumentValidator.LexingError && d.message.startsWith(LIMIT_MARK)) {
            return { ...d, code: Codes.fileLimit, source: 'umpire', message: d.message.slice(LIMIT_MARK.length) };
        }
        if (code === DocumentValidator.LexingError) {
            return { ...d, code: Codes.syntaxError, source: 'umpire', message: lexingMessage(d.message) };
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
        default: return d.message;
    }
}

/** The blocks a '}' closes, in file order, for "the force 'Blue' (line 3) is not closed". */
function openedBlocks(root: AstNode, lines: readonly number[]): OpenedBlock[] {
    const blocks: OpenedBlock[] = [];
    for (const node of AstUtils.streamAst(root)) {
        if (!BLOCK_RULES.has(node.$type) || !node.$cstNode) continue;
        const offset = node.$cstNode.offset;
        const named = node as { name?: unknown, kind?: unknown, number?: unknown };
        blocks.push({
            rule: node.$type, offset, line: positionAt(lines, offset).line + 1,
            kind: typeof named.kind === 'string' ? named.kind : node.$type.toLowerCase(),
            name: String(named.name ?? named.number ?? '')
        });
    }
    return blocks.sort((a, b) => a.offset - b.offset);
}

const BLOCK_RULES = new Set(['Force', 'Action', 'Turn', 'House', 'Outcome', 'Grade', 'Unit']);

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
