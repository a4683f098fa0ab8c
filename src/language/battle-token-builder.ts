/**
 * Tokens for the lexer, as Langium builds them, with two repairs for the terminals whose regular
 * expressions need the `u` flag (names use Unicode classes such as `\p{L}`). Chevrotain cannot analyse
 * such expressions, so Langium lexes them with a function, which costs twice:
 * - Langium no longer finds that ID can be a longer match than a keyword (https://github.com/eclipse-langium/langium/issues/1732 and
 *   https://github.com/eclipse-langium/langium/issues/2225),
 *   so a name that starts with a keyword is split in two: `turnip` lexes as `turn` + `ip`. This builder
 *   keeps each terminal's expression and makes it the keyword's longer alternative whenever it matches
 *   the whole keyword.
 * - Chevrotain no longer knows which characters can start the token and tries every pattern at every
 *   character: lexing a 9,000-line file went from 0.15 s to 0.64 s. The characters that can start each
 *   such terminal are given to it (START_CHARS_HINT), and it is told that a name holds no line break.
 * And the function Langium lexes them with makes a match array (with its index, input and groups) at each
 * attempt, a name's or a keyword's (whose longer alternative a name is), 150,000 of them at 50,000 lines.
 * Chevrotain reads only the matched text (`[0]`) and `payload`: the function here tests the expression and
 * returns the text in one array kept for the purpose (docs/performance.md, "The parser's costs per node").
 *
 * The action kinds and relation verbs are the rule sets' own words (`Ruleset.kinds`, `Ruleset.verbs`): the
 * terminals KIND and VERB are names, as ID is, that this builder lexes as such only when a rule set of the
 * registry declares them (read at each match, so a rule set registered later counts too). So the grammar
 * lists none of them, and a rule set's new kind of action is lexed, parsed, completed and highlighted from its
 * declaration alone; the parser still sees a token of its own at the start of every action, as it saw a keyword.
 * The three terminals share one match of the name at each place (the lexer tries KIND, then VERB, then ID).
 */
import { DefaultTokenBuilder, GrammarUtils, RegExpUtils, type GrammarAST, type TokenBuilderOptions } from 'langium';
import type { CustomPatternMatcherFunc, CustomPatternMatcherReturn, TokenType, TokenVocabulary } from 'chevrotain';
import type { RulesetRegistry } from '../core/ruleset.js';
import { BUILT_OUTLINE, type GrammarOutline } from './grammar-outline.js';

/**
 * What can start each terminal lexed by a function, as Chevrotain's hint takes it: UTF-16 code units, each
 * below 256 on its own, above in buckets of 255 (one code stands for its bucket). Below 256, the codes
 * `latin1` accepts; with `beyondLatin1`, one code of every bucket above: a name starts with a letter of any
 * script or `_`, and a letter outside the Basic Multilingual Plane with a high surrogate. Every bucket, not
 * only those with a letter: the hint may name more than can start the token (Chevrotain then tries its
 * expression, which decides), and which code units are letters is the Unicode of the Node that runs. Testing
 * each of the 65,536 code units at every start cost a small check about 4 ms (docs/performance.md, "Start-up").
 */
interface Starts {
    readonly latin1: RegExp;
    readonly beyondLatin1: boolean;
}
const NAME_START: Starts = { latin1: /[_\p{L}]/u, beyondLatin1: true };
const STARTS: Record<string, Starts> = { ID: NAME_START, KIND: NAME_START, VERB: NAME_START, COUNT: { latin1: /x/u, beyondLatin1: false } };

/** Terminals that never span a line. */
const ONE_LINE = new Set(['ID', 'KIND', 'VERB', 'COUNT']);

/** The terminals that are names: ID any, KIND and VERB only the words the rule sets declare. */
const NAMES = new Set(['ID', 'KIND', 'VERB']);

export class BattleTokenBuilder extends DefaultTokenBuilder {
    /** The regular expression behind each terminal token lexed by a function, as Langium made it. */
    private readonly functionRegex = new Map<TokenType, RegExp>();
    /** The expression of the terminal being built, as Langium made it (`regexPatternFunction`). */
    private builtRegex: RegExp | undefined;
    /** Each terminal token's partial expression and whole-match expression (`findLongerAlt`), made once for all keywords. */
    private readonly partial = new Map<TokenType, RegExp | undefined>();
    private readonly whole = new Map<TokenType, RegExp | undefined>();
    /** Each keyword's longer alternatives by terminal name, while tokens are made from the outline. */
    private alternatives: Map<string, readonly string[]> | undefined;
    /** The name at a place, shared by the name terminals (made with the first of them). */
    private nameAt: ((text: string, offset: number) => string | undefined) | undefined;

    /**
     * `rulesets`: whose kinds and verbs are lexed as KIND and VERB. `outline`: the grammar's terminals and keywords as
     * the bundle's build found them (grammar-outline.ts), from which the tokens are made without walking the grammar;
     * none, or one that names a terminal the grammar lacks, and they are made as Langium makes them.
     */
    constructor(private readonly rulesets: RulesetRegistry, private readonly outline: GrammarOutline | undefined = BUILT_OUTLINE) {
        super();
    }

    override buildTokens(grammar: GrammarAST.Grammar, options?: TokenBuilderOptions): TokenVocabulary {
        try {
            return this.tokensFromOutline(grammar, options) ?? super.buildTokens(grammar, options);
        } finally {
            this.partial.clear();
            this.whole.clear();
            this.alternatives = undefined;
        }
    }

    /**
     * Langium's tokens (its `buildTokens`: the keywords' tokens, longest first, then the terminals'), made from the
     * outline: the terminals by name, the keywords with their longer alternatives as the build found them.
     * Walking the grammar for its reachable rules and keywords, and working the alternatives out, was most of
     * what the outline saves (grammar-outline.ts).
     */
    private tokensFromOutline(grammar: GrammarAST.Grammar, options?: TokenBuilderOptions): TokenType[] | undefined {
        const outline = this.outline;
        if (!outline || options?.caseInsensitive) return undefined;
        const terminals: GrammarAST.TerminalRule[] = [];
        for (const name of outline.terminals) {
            const rule = grammar.rules.find(r => r.name === name);
            if (rule?.$type !== 'TerminalRule' || (rule as GrammarAST.TerminalRule).fragment) return undefined;
            terminals.push(rule as GrammarAST.TerminalRule);
        }
        const terminalTokens = terminals.map(rule => this.buildTerminalToken(rule));
        this.alternatives = new Map(outline.keywords);
        const tokens = outline.keywords.map(([value]) => this.buildKeywordToken({ value } as GrammarAST.Keyword, terminalTokens, false));
        tokens.push(...terminalTokens);
        return tokens;
    }

    protected override buildTerminalToken(terminal: GrammarAST.TerminalRule): TokenType {
        this.builtRegex = undefined;
        const token = super.buildTerminalToken(terminal);
        if (typeof token.PATTERN !== 'function') return token;
        // The expression Langium lexes it by (the one `regexPatternFunction` was given), not made again.
        this.functionRegex.set(token, this.builtRegex ?? GrammarUtils.terminalRegex(terminal));
        const starts = STARTS[terminal.name];
        if (starts) token.START_CHARS_HINT = startCharactersOf(starts);
        if (ONE_LINE.has(terminal.name)) token.LINE_BREAKS = false;
        if (NAMES.has(terminal.name)) token.PATTERN = this.namePattern(terminal.name, token.PATTERN);
        return token;
    }

    /** `token`'s partial expression (Langium's `RegExpUtils.partialRegExp` of it, whole), or none for a terminal lexed by a function. */
    private partialOf(token: TokenType): RegExp | undefined {
        if (this.partial.has(token)) return this.partial.get(token);
        const source = (token.PATTERN as RegExp | undefined)?.source;
        const partial = source ? RegExpUtils.partialRegExp('^' + source + '$') : undefined;
        this.partial.set(token, partial);
        return partial;
    }

    /** `token`'s expression anchored at both ends, for a terminal lexed by a function, or none. */
    private wholeOf(token: TokenType): RegExp | undefined {
        if (this.whole.has(token)) return this.whole.get(token);
        const regex = this.functionRegex.get(token);
        const whole = regex && new RegExp(`^(?:${regex.source})$`, regex.flags.replace(/[gy]/g, ''));
        this.whole.set(token, whole);
        return whole;
    }

    /**
     * A name terminal's matcher: the name at the place, found once for the three (the last place asked is
     * kept), and for KIND and VERB only when a rule set declares it.
     */
    private namePattern(terminal: string, find: CustomPatternMatcherFunc): CustomPatternMatcherFunc {
        const nameAt = this.nameAt ??= lastNameKept(find);
        const rulesets = this.rulesets;
        const match: CustomPatternMatcherReturn = [''];
        const declared = terminal === 'KIND' ? () => rulesets.kinds : terminal === 'VERB' ? () => rulesets.verbs : undefined;
        return (text: string, offset: number): CustomPatternMatcherReturn | null => {
            const name = nameAt(text, offset);
            if (name === undefined || (declared && !declared().has(name))) return null;
            match[0] = name;
            return match;
        };
    }

    /**
     * Langium's matcher (a sticky copy of the expression, from `offset`), without a match array per attempt:
     * the same array each time, its text the match's. Chevrotain reads the text before it lexes on.
     */
    protected override regexPatternFunction(regex: RegExp): CustomPatternMatcherFunc {
        this.builtRegex = regex;
        const sticky = new RegExp(regex, regex.flags + 'y');
        const match: CustomPatternMatcherReturn = [''];
        return (text: string, offset: number): CustomPatternMatcherReturn | null => {
            sticky.lastIndex = offset;
            const code = text.charCodeAt(offset);
            if (code >= 0xDC00 && code <= 0xDFFF) {
                // In the middle of a pair of surrogates, the `u` flag matches from the pair's start: its text, as Langium's.
                const found = sticky.exec(text);
                if (found === null) return null;
                match[0] = found[0];
            } else {
                if (!sticky.test(text)) return null;
                match[0] = text.substring(offset, sticky.lastIndex);
            }
            return match;
        };
    }

    /**
     * Langium's longer alternatives of a keyword (each regular-expression terminal that can match a text
     * starting with the whole keyword, by `RegExpUtils.partialMatches`), with each terminal's partial
     * expression made once rather than once per keyword, and the terminals lexed by a function whose
     * expression matches the whole keyword. Taken from the outline, by name, when the tokens are made from it.
     */
    protected override findLongerAlt(keyword: GrammarAST.Keyword, terminalTokens: TokenType[]): TokenType[] {
        const names = this.alternatives?.get(keyword.value);
        if (names) {
            const tokens = names.map(name => terminalTokens.find(token => token.name === name));
            if (tokens.every(token => token !== undefined)) return tokens;
        }
        return this.workOutLongerAlt(keyword, terminalTokens);
    }

    private workOutLongerAlt(keyword: GrammarAST.Keyword, terminalTokens: TokenType[]): TokenType[] {
        const alternatives: TokenType[] = [];
        for (const token of terminalTokens) {
            const partial = this.partialOf(token);
            const match = partial && keyword.value.match(partial);
            if (match && match[0].length > 0) alternatives.push(token);
        }
        for (const token of terminalTokens) {
            if (this.wholeOf(token)?.test(keyword.value) && !alternatives.includes(token)) alternatives.push(token);
        }
        return alternatives;
    }
}

/** The codes of each class in STARTS, found once in a process: every parser made (the services', the completion parser's) has the same tokens. */
const startsFound = new Map<Starts, readonly number[]>();

function startCharactersOf(starts: Starts): number[] {
    let codes = startsFound.get(starts);
    if (!codes) startsFound.set(starts, codes = startCharacters(starts));
    // Each token its own array: Chevrotain owns what it is given.
    return [...codes];
}

/** `find`'s text at a place, the last place's kept: the lexer asks up to three name terminals at each. */
function lastNameKept(find: CustomPatternMatcherFunc): (text: string, offset: number) => string | undefined {
    let lastText: string | undefined, lastOffset = -1, lastName: string | undefined;
    return (text, offset) => {
        if (offset !== lastOffset || text !== lastText) {
            lastText = text;
            lastOffset = offset;
            lastName = (find(text, offset, [], {}) as CustomPatternMatcherReturn | null)?.[0];
        }
        return lastName;
    };
}

/** Below 256 each code `latin1` accepts; above, with `beyondLatin1`, the first code of each bucket of Chevrotain's (255 + code / 255). */
function startCharacters(starts: Starts): number[] {
    const codes: number[] = [];
    for (let code = 0; code < 256; code++) if (starts.latin1.test(String.fromCharCode(code))) codes.push(code);
    if (starts.beyondLatin1) {
        // Bucket 256 holds the codes 255 to 509; from there each bucket starts at a multiple of 255.
        codes.push(256);
        for (let code = 510; code < 0x10000; code += 255) codes.push(code);
    }
    return codes;
}
