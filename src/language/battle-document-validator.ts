import { DefaultDocumentValidator, DocumentValidator, type LangiumDocument, type ValidationOptions } from 'langium';
import type { CancellationToken, Diagnostic } from 'vscode-languageserver';
import { Codes } from '../core/codes.js';
import { LIMIT_MARK } from './battle-document-factory.js';

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
    override async validateDocument(document: LangiumDocument, options?: ValidationOptions, cancelToken?: CancellationToken): Promise<Diagnostic[]> {
        const diagnostics = (await super.validateDocument(document, options, cancelToken)).map(d => withLink(this.translate(d)));
        if (diagnostics.length <= MAX_DIAGNOSTICS) return diagnostics;
        const kept = diagnostics.slice(0, MAX_DIAGNOSTICS);
        const last = kept[kept.length - 1];
        kept.push({
            severity: 1, range: last.range, code: Codes.tooManyProblems, source: 'umpire', codeDescription: { href: `${DIAGNOSTICS_DOC}#${Codes.tooManyProblems}` },
            message: `…and ${diagnostics.length - MAX_DIAGNOSTICS} more problems in this file. Fix the ones above first.`
        });
        return kept;
    }

    private translate(d: Diagnostic): Diagnostic {
        const code = (d.data as { code?: string } | undefined)?.code;
        if (code === DocumentValidator.LexingError && d.message.startsWith(LIMIT_MARK)) {
            return { ...d, code: Codes.fileLimit, source: 'umpire', message: d.message.slice(LIMIT_MARK.length) };
        }
        if (code === DocumentValidator.LexingError || code === DocumentValidator.ParsingError) {
            return { ...d, code: Codes.syntaxError, source: 'umpire', message: syntaxMessage(d.message) };
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

/** Token names as an umpire would say them. */
const TOKEN_WORDS: Record<string, string> = {
    ID: 'a name', INT: 'a number', DECIMAL: 'a number', STRING: 'a quoted text', COUNT: 'a count such as x2', EOF: 'the end of the file'
};

function tokenWords(token: string): string {
    return TOKEN_WORDS[token] ?? `'${token}'`;
}

function foundWords(found: string): string {
    return found === '' ? 'the end of the file' : `'${found}'`;
}

function syntaxMessage(message: string): string {
    const said = tokenMessage(message);
    // A fraction where the grammar wants a whole number (a die face, a count, a seed, a stat).
    return /(found `|found: ')[0-9]+\.[0-9]+[`']/.test(message) ? `${said} Only a distance fact (such as \`range 9.5\`) takes a fraction; dice, counts and stats are whole numbers.` : said;
}

function tokenMessage(message: string): string {
    const m = /Expecting (?:token of type '(.+?)'|.*?) but found `(.*)`/s.exec(message);
    if (m) {
        if (m[1] === 'EOF') return `${foundWords(m[2])} cannot start a line here: a line starts with grade, modifier, force, engagement (or another action), turn, state or ruling.`;
        return m[1] ? `Expected ${tokenWords(m[1])} here, not ${foundWords(m[2])}.` : `This does not read as .battle: unexpected ${foundWords(m[2])}.`;
    }
    // Chevrotain's "one of these possible Token sequences" lists grammar tokens; name the first few.
    const alternatives = /possible Token sequences:?:?\s*([\s\S]*?)but found: '(.*)'/.exec(message);
    if (alternatives) {
        const options = [...alternatives[1].matchAll(/\[([^\]\s]+)/g)].map(x => tokenWords(x[1].replace(/^'|'$/g, '')));
        const unique = [...new Set(options)].slice(0, 4);
        const expected = unique.length > 0 ? `: expected ${unique.join(' or ')}` : '';
        return `Unexpected ${foundWords(alternatives[2])} here${expected}.`;
    }
    const stray = /^unexpected character: ->(.*)<- at offset/s.exec(message);
    if (stray) return `The character '${stray[1]}' is not part of the .battle language.`;
    return message;
}

function linkingMessage(d: Diagnostic): string {
    const data = d.data as { containerType?: string, property?: string, refText?: string } | undefined;
    const name = data?.refText ?? '?';
    switch (data?.property) {
        case 'force': return `There is no force named '${name}'.`;
        case 'unit': return `This force has no unit named '${name}'.`;
        case 'grade': return `There is no grade named '${name}': declare it with 'grade ${name} +1'.`;
        case 'modifiers': return `There is no modifier named '${name}': declare it with 'modifier ${name} -1'.`;
        default: return d.message;
    }
}
