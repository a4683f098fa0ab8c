/**
 * Syntax errors in an umpire's words. The parser (Chevrotain, through Langium) reports what token it
 * expected; an umpire needs to know which line does not read, what it should look like, and, when a
 * word is one letter off a keyword, which keyword was meant (with a quick fix). Each error is read with
 * the rule it happened in (the parser's rule stack) and the tokens around it.
 *
 * One mistake gives one error: the parser's recovery reports the same mistake again at the same
 * token, or at the next tokens of the same line, so only the first error of a line is kept
 * (`BattleDocumentValidator`, which counts the errors past those it lists with `syntaxErrorStart`).
 */
import { closeSpellings } from '../core/spelling.js';

/** What the parser says about one error (a Chevrotain recognition exception), as far as it is read here. */
export interface ParserErrorLike {
    readonly name: string;
    readonly message: string;
    readonly token: TokenLike;
    readonly previousToken?: TokenLike;
    readonly context?: { readonly ruleStack?: readonly string[] };
}

interface TokenLike {
    readonly image: string;
    readonly startOffset: number;
    readonly endOffset?: number;
    readonly tokenType?: { readonly name: string };
}

/**
 * Whether a token the parser names has a place in the text. The end-of-file token, and a token the recovery
 * invented, has none: Chevrotain 11 gave it `NaN` offsets, Chevrotain 13 (Langium 4.4's) gives its one
 * end-of-file token offsets of -1.
 */
export function inText(token: { readonly startOffset: number }): boolean {
    return token.startOffset >= 0;
}

/** A syntax error as the tool says it: the words, where, and the text that would repair it, if one is obvious. */
export interface SyntaxProblem {
    readonly message: string;
    /** Offsets of the flagged text in the file (an empty span at the end of the file). */
    readonly start: number;
    readonly end: number;
    /** Replacements of the flagged text offered as quick fixes (a misspelt keyword). */
    readonly replacements?: readonly string[];
    /** Text a quick fix inserts before the flagged text (a missing '}'). */
    readonly insert?: string;
    /** The flagged text is superfluous: a quick fix removes it (a '}' that closes nothing). */
    readonly remove?: boolean;
}

/**
 * The words the known rule sets declare (a `RulesetRegistry`): the action kinds, which start a line as
 * keywords do, and the verbs of relations.
 */
export interface DeclaredWords {
    readonly kinds: ReadonlySet<string>;
    readonly verbs: ReadonlySet<string>;
}

/** The keywords that start a line outside braces, before and after the actions' kinds. */
const LINE_STARTS_BEFORE_ACTIONS = ['scenario', 'rules', 'option', 'import', 'grade', 'modifier', 'force'];
const LINE_STARTS_AFTER_ACTIONS = ['turn', 'state', 'ruling', 'house'];

/** The words that start a line outside braces. */
function lineStarts(words: DeclaredWords): string[] {
    return [...LINE_STARTS_BEFORE_ACTIONS, ...words.kinds, ...LINE_STARTS_AFTER_ACTIONS];
}

/** The words that relate two sides or units in an action line: the grammar's `attacks`, then the rule sets' verbs. */
function verbsOf(words: DeclaredWords): string[] {
    return ['attacks', ...words.verbs];
}

/** Token names as an umpire would say them. */
const TOKEN_WORDS: Record<string, string> = {
    ID: 'a name', KIND: 'the kind of an action', VERB: 'a verb', INT: 'a number', DECIMAL: 'a number', STRING: 'a quoted text', COUNT: 'a count such as x2', EOF: 'the end of the file',
    BAND: 'a band such as 3..4'
};

/** The blocks that a '}' closes, as an umpire calls them (with their article). */
const BLOCKS: Record<string, string> = {
    Force: 'a force', Action: 'an action', Turn: 'a turn', House: 'a house block', Outcome: 'an outcome block', Grade: 'a grade', Unit: 'a unit'
};

/** What a block holds, said when something else stands in it. */
const BLOCK_CONTENTS: Record<string, string> = {
    Force: "a force holds unit lines only, as in 'unit Foot foot Line'",
    Turn: 'a turn holds actions, state and ruling lines, and house blocks',
    House: "a house block holds rows such as 'result 1 recoil, 2 retire'",
    Grade: "a grade's braces hold stats such as 'size large, weight heavy'",
    Unit: "a unit's braces hold stats such as 'size large, weight heavy'"
};

/** What each line looks like, for the rule the parser was in. */
const LINE_SHAPES: Record<string, string> = {
    Grade: "a grade is 'grade Veteran +1' or 'grade Hoplite { size large }'",
    Modifier: "a modifier is 'modifier Uphill -1'",
    Force: "a force is 'force Blue { unit Foot foot Line }'",
    Unit: "a unit line is 'unit Foot foot Line x2': its name, its arm, then its grade and count if any",
    Turn: "a turn is 'turn 1 { … }' or 'turn Dawn { … }'",
    Sides: "the sides are 'Blue attacks Red' (forces or units, several separated by commas)",
    Factor: "a factor line is 'factor Uphill on Blue.Foot'",
    Dice: "a dice line names who threw, then the dice: 'dice Blue foot 4 2 6'",
    Seed: "a seed is a whole number: 'seed 4'",
    Split: "a split is 'split Blue.Foot 6 on Red.Foot, 4 on Red.Horse'",
    Facts: "a unit's facts are 'Blue.Foot: charged, range 9'",
    Relation: 'a relation of two units',
    Outcome: 'the outcome block is written by the tool: resolve again to rewrite it',
    OutcomeLine: 'the outcome block is written by the tool: resolve again to rewrite it',
    UnitState: "a state line is 'state Blue.Foot: dp 2'",
    House: "a house row is 'result 1 recoil, 2 retire' (a table, then key and value pairs)",
    HouseRow: "a house row is 'result 1 recoil, 2 retire' (a table, then key and value pairs)",
    HouseEntry: "a house row is 'result 1 recoil, 2 retire' (a table, then key and value pairs)",
    Import: "an import is 'import \"armies.battle\"'",
    RuleOption: "an option is 'option pooled'",
    RulesetName: "the rules line names a rule set: 'rules' then its name",
    Target: "a force or unit is 'Blue', 'Blue.Foot' or 'Blue.Foot#2'"
};

/** What the tool reads of a parser error before wording it: where, in which rules, what was found and expected. */
interface ReadError {
    readonly span: { start: number, end: number };
    readonly rules: readonly string[];
    readonly expected: string | undefined;
    readonly kind: 'lineStart' | 'unclosed' | 'actionLine' | 'expected' | 'noViable' | 'other';
}

function read(error: ParserErrorLike, text: string): ReadError {
    const span = spanOf(error, text);
    const rules = (error.context?.ruleStack ?? []).map(ruleName);
    const expected = expectedOf(error.message);
    const rule = rules[rules.length - 1];
    const kind = error.name === 'NotAllInputParsedException' || (expected === 'EOF' && rules.length <= 1) ? 'lineStart'
        : expected === '}' && rule && BLOCKS[rule] ? 'unclosed'
            : error.name === 'NoViableAltException' && rule === 'Statement' ? 'actionLine'
                : expected && expected !== '}' ? 'expected'
                    : error.name === 'NoViableAltException' ? 'noViable' : 'other';
    return { span, rules, expected, kind };
}

/**
 * Where the error of `describeSyntaxError` starts (its `start`), without its words: for counting,
 * one a line, the errors past those listed (docs/limits.md).
 */
export function syntaxErrorStart(error: ParserErrorLike, text: string, words: DeclaredWords): number {
    const span = spanOf(error, text);
    return isActionLine(error) ? (misspeltVerb(error.token, text, span.end, words)?.start ?? span.start) : span.start;
}

/** The flagged text of an error: its token, or an empty span where the token would have been. */
function spanOf(error: ParserErrorLike, text: string): { start: number, end: number } {
    const found = error.token;
    const at = inText(found) ? found.startOffset : endOfPrevious(error, text);
    const atEnd = !inText(found) || found.tokenType?.name === 'EOF';
    return { start: at, end: atEnd ? at : at + found.image.length };
}

/**
 * Whether `read` takes the error for a line of an action that does not read (kind 'actionLine'), reading
 * only what that needs: the errors past those listed are thousands, and most are not in an action.
 */
function isActionLine(error: ParserErrorLike): boolean {
    if (error.name !== 'NoViableAltException') return false;
    const stack = error.context?.ruleStack ?? [];
    if (stack.length === 0 || ruleName(stack[stack.length - 1]) !== 'Statement') return false;
    return !(stack.length === 1 && expectedOf(error.message) === 'EOF');
}

/** A rule's name in the parser's rule stack, without the marks Langium may add. */
function ruleName(rule: string): string {
    return rule.replace(/\u200B/g, '');
}

/** The token a mismatch error expected, if it names one. */
function expectedOf(message: string): string | undefined {
    return /Expecting token of type '(.+?)'/.exec(message)?.[1];
}

/** The umpire's words for one parser error of the text `text`, with the known rule sets' kinds and verbs. */
export function describeSyntaxError(error: ParserErrorLike, text: string, blocks: () => readonly OpenedBlock[], words: DeclaredWords): SyntaxProblem {
    const found = error.token;
    const { span, rules, expected, kind } = read(error, text);
    const atEnd = span.start === span.end;
    const foundWords = atEnd ? 'the end of the file' : `'${found.image}'`;
    const problem = describe({ error, text, blocks, words }, span, rules, foundWords, expected, kind);
    // A fraction where the grammar wants a whole number (a die face, a count, a seed, a stat).
    return found.tokenType?.name === 'DECIMAL'
        ? { ...problem, message: `${problem.message} Only a distance fact (such as \`range 9.5\`) takes a fraction; dice, counts and stats are whole numbers.` }
        : problem;
}

/** An error and what it is read with: the text, the blocks opened in it, the rule sets' words. */
interface ErrorInText {
    readonly error: ParserErrorLike;
    readonly text: string;
    readonly blocks: () => readonly OpenedBlock[];
    readonly words: DeclaredWords;
}

function describe({ error, text, blocks, words }: ErrorInText, span: { start: number, end: number },
    rules: readonly string[], foundWords: string, expected: string | undefined, kind: ReadError['kind']): SyntaxProblem {
    const found = error.token;
    const rule = rules[rules.length - 1];
    if (kind === 'lineStart') return lineStart(found.image, span, foundWords, words);
    if (kind === 'unclosed') return unclosed(rule, error, blocks, span, foundWords, words);
    if (kind === 'actionLine') return actionLine(found, text, span, words);
    if (kind === 'expected') {
        const shape = shapeOf(contextRule(rules), words);
        const previous = error.previousToken;
        if (previous?.image === ',' && /[\r\n]/.test(text.slice(previous.startOffset, span.start))) {
            return { ...span, message: `Expected ${tokenWords(expected!)} after the ',' that ends the line above, not ${foundWords}: a ',' continues a list; remove it if the list has ended.` };
        }
        const after = previous && [',', 'attacks', 'on', '.', '#', ':'].includes(previous.image) ? ` after '${previous.image}'` : '';
        return { ...span, message: `Expected ${tokenWords(expected!)}${after} here, not ${foundWords}${shape ? `: ${shape}` : ''}.` };
    }
    if (kind === 'noViable') {
        const shape = shapeOf(contextRule(rules), words);
        const options = alternatives(error.message);
        const wanted = rule === 'Word' ? 'a word' : options.length > 0 ? options.join(' or ') : '';
        return { ...span, message: `Unexpected ${foundWords} here${wanted ? `: expected ${wanted}` : ''}${shape ? ` (${shape})` : ''}.` };
    }
    return { ...span, message: `This does not read as .battle: unexpected ${foundWords}.` };
}

/** A word where a line must start, outside any braces. */
function lineStart(image: string, span: { start: number, end: number }, foundWords: string, words: DeclaredWords): SyntaxProblem {
    if (image === '}') {
        return { ...span, remove: true, message: "This '}' closes nothing: remove it, or look above for a block whose '{' is missing." };
    }
    if (image === 'rules' || image === 'scenario') {
        // The file is still read under a misplaced `rules` line (misplacedRules): this is its one error.
        return { ...span, message: `'${image}' goes at the top of the file: the 'scenario' title first, then 'rules', then options, above every grade, force, action and turn. Move this line up.` };
    }
    const meant = closeSpellings(image, lineStarts(words)).filter(w => w !== image);
    if (meant.length > 0) {
        return { ...span, replacements: meant, message: `'${image}' cannot start a line here: did you mean ${meant.map(m => `'${m}'`).join(' or ')}?` };
    }
    return { ...span, message: `${capitalised(foundWords)} cannot start a line here: a line starts with grade, modifier, force, engagement (or another action), turn, state, ruling or house.` };
}

/**
 * A block's '}' expected where something else stands: when a new block starts (or the file ends), the
 * open block was never closed; otherwise the line does not belong in this block.
 */
function unclosed(rule: string, error: ParserErrorLike, blocks: () => readonly OpenedBlock[], span: { start: number, end: number }, foundWords: string,
    words: DeclaredWords): SyntaxProblem {
    const atEnd = span.start === span.end;
    if (atEnd || lineStarts(words).includes(error.token.image)) {
        const opener = openerOf(rule, blocks(), span.start);
        const where = opener ? `The ${opener.kind}${opener.name ? ` '${opener.name}'` : ''} (line ${opener.line})` : `This ${BLOCKS[rule].replace(/^an? /, '')}`;
        const before = atEnd ? 'at the end of the file' : 'before this line';
        return { ...span, insert: '}\n', message: `${where} is not closed: add '}' ${before}.` };
    }
    const contents = BLOCK_CONTENTS[rule];
    return { ...span, message: `${capitalised(foundWords)} does not belong in ${BLOCKS[rule]}${contents ? `: ${contents}` : ''}; or is a '}' missing before it?` };
}

/** A line of an action that starts with no statement the language knows: often a misspelt verb (`Blue attack Red`). */
function actionLine(found: TokenLike, text: string, span: { start: number, end: number }, words: DeclaredWords): SyntaxProblem {
    const verb = misspeltVerb(found, text, span.end, words);
    if (verb) {
        return { start: verb.start, end: verb.start + verb.word.length, replacements: verb.meant,
            message: `'${verb.word}' is not a word of .battle: did you mean ${verb.meant.map(m => `'${m}'`).join(' or ')}?` };
    }
    return { ...span, message: "This line of the action does not read: an action's lines are its sides ('Blue attacks Red'), "
        + "a unit's facts ('Blue.Foot: charged'), a pairing ('Blue.Foot vs Red.Foot'), or start with factor, dice, seed or split." };
}

/** The word after a name that is one or two letters off a verb (`Blue attack Red`), and the verbs it may be. */
function misspeltVerb(found: TokenLike, text: string, end: number, words: DeclaredWords): { word: string, start: number, meant: readonly string[] } | undefined {
    const next = found.tokenType?.name === 'ID' ? wordAfter(text, end) : undefined;
    if (!next) return undefined;
    const meant = verbsCloseTo(next.word, words);
    return meant.length > 0 ? { ...next, meant } : undefined;
}

/**
 * The verbs one or two letters off a word, kept per set of verbs: a file of thousands of errors misspells
 * the same few words again and again. A registry that gains a rule set makes a new set, and so a new cache.
 */
const closeVerbs = new WeakMap<ReadonlySet<string>, Map<string, readonly string[]>>();
const MAX_CLOSE_VERBS = 1000;

function verbsCloseTo(word: string, words: DeclaredWords): readonly string[] {
    let known = closeVerbs.get(words.verbs);
    if (!known) closeVerbs.set(words.verbs, known = new Map());
    let meant = known.get(word);
    if (!meant) {
        if (known.size >= MAX_CLOSE_VERBS) known.clear();
        known.set(word, meant = closeSpellings(word, verbsOf(words)).filter(w => w !== word));
    }
    return meant;
}

/** What a line of the rule looks like; a relation's with the rule sets' verbs, the first as the example. */
function shapeOf(rule: string, words: DeclaredWords): string | undefined {
    if (rule !== 'Relation') return LINE_SHAPES[rule];
    const [first = 'vs', ...others] = words.verbs;
    return `a relation is 'Blue.Foot ${first} Red.Foot'${others.length > 0 ? ` (or ${others.join(', ')}; 'at' may follow the verb)` : ''}`;
}

/** The rule whose shape explains the error: the innermost one that is a whole line, not a piece of one. */
function contextRule(rules: readonly string[]): string {
    for (let i = rules.length - 1; i >= 0; i--) {
        if (LINE_SHAPES[rules[i]] && !(rules[i] === 'Target' && i > 0 && LINE_SHAPES[rules[i - 1]])) return rules[i];
    }
    return '';
}

/** The first tokens of the sequences the parser would have accepted, in words, at most four. */
function alternatives(message: string): string[] {
    const firsts = [...message.matchAll(/\d+\.\s*\[([^\]]*)\]/g)].map(m => m[1].split(', ')[0].trim());
    return [...new Set(firsts.filter(Boolean).map(tokenWords))].slice(0, 4);
}

function tokenWords(token: string): string {
    return TOKEN_WORDS[token] ?? `'${token}'`;
}

function capitalised(s: string): string {
    return s.charAt(0).toUpperCase() + s.slice(1);
}

/** Where the previous token ends, for an error at a token the parser invented while recovering. */
function endOfPrevious(error: ParserErrorLike, text: string): number {
    const previous = error.previousToken;
    if (previous && inText(previous)) return previous.startOffset + previous.image.length;
    return text.length;
}

/** The next word after an offset, past spaces and comments. */
function wordAfter(text: string, offset: number): { word: string, start: number } | undefined {
    const rest = /^(?:\s|\/\/[^\n\r]*|\/\*[\s\S]*?\*\/)*([\p{L}_][\p{L}\p{N}\p{M}_-]*)/u.exec(text.slice(offset, offset + 400));
    return rest ? { word: rest[1], start: offset + rest[0].length - rest[1].length } : undefined;
}

/** A block opened in the file: its kind as written (`force`, `engagement`…), name, grammar rule, and where. */
export interface OpenedBlock {
    readonly rule: string;
    readonly kind: string;
    readonly name: string;
    readonly offset: number;
    readonly line: number;
}

/** The last block of this rule opened before `offset` (the blocks in file order). */
function openerOf(rule: string, blocks: readonly OpenedBlock[], offset: number): OpenedBlock | undefined {
    let last: OpenedBlock | undefined;
    for (const block of blocks) {
        if (block.offset >= offset) break;
        if (block.rule === rule) last = block;
    }
    return last;
}

/** A lexing error in words: a character outside the language, or a quote never closed. */
export function lexingMessage(message: string): string {
    const stray = /^unexpected character: ->(.*)<- at offset/s.exec(message);
    if (stray?.[1] === '"') return 'This quoted text is not closed: add \'"\' where it ends, on the same line.';
    if (stray) return `The character '${stray[1]}' is not part of the .battle language.`;
    return message;
}
