/**
 * Tokens for the lexer, as Langium builds them, with two repairs for the terminals whose regular
 * expressions need the `u` flag (names use Unicode classes such as `\p{L}`). Chevrotain cannot analyse
 * such expressions, so Langium lexes them with a function, which costs twice:
 * - Langium no longer finds that ID can be a longer match than a keyword (langium issues 1732 and 2225),
 *   so a name that starts with a keyword is split in two: `turnip` lexes as `turn` + `ip`. This builder
 *   keeps each terminal's expression and makes it the keyword's longer alternative whenever it matches
 *   the whole keyword.
 * - Chevrotain no longer knows which characters can start the token and tries every pattern at every
 *   character: lexing a 9,000-line file went from 0.15 s to 0.64 s. The characters that can start each
 *   such terminal are given to it (START_CHARS_HINT), and it is told that a name holds no line break.
 */
import { DefaultTokenBuilder, GrammarUtils, type GrammarAST } from 'langium';
import type { TokenType } from 'chevrotain';

/** What can start each terminal lexed by a function, one character (UTF-16 code unit) at a time. */
const STARTS: Record<string, (c: string) => boolean> = {
    // A letter of any script or `_`; a letter outside the Basic Multilingual Plane starts with a high surrogate.
    ID: c => /^[_\p{L}]$/u.test(c) || /^[\uD800-\uDBFF]$/.test(c),
    COUNT: c => c === 'x'
};

/** Terminals that never span a line. */
const ONE_LINE = new Set(['ID', 'COUNT']);

export class BattleTokenBuilder extends DefaultTokenBuilder {
    /** The regular expression behind each terminal token lexed by a function, anchored at both ends. */
    private readonly wholeMatch = new Map<TokenType, RegExp>();

    protected override buildTerminalToken(terminal: GrammarAST.TerminalRule): TokenType {
        const token = super.buildTerminalToken(terminal);
        if (typeof token.PATTERN !== 'function') return token;
        const regex = GrammarUtils.terminalRegex(terminal);
        this.wholeMatch.set(token, new RegExp(`^(?:${regex.source})$`, regex.flags.replace(/[gy]/g, '')));
        const starts = STARTS[terminal.name];
        if (starts) token.START_CHARS_HINT = startCharacters(starts);
        if (ONE_LINE.has(terminal.name)) token.LINE_BREAKS = false;
        return token;
    }

    protected override findLongerAlt(keyword: GrammarAST.Keyword, terminalTokens: TokenType[]): TokenType[] {
        const alternatives = super.findLongerAlt(keyword, terminalTokens);
        for (const token of terminalTokens) {
            const whole = this.wholeMatch.get(token);
            if (whole?.test(keyword.value) && !alternatives.includes(token)) alternatives.push(token);
        }
        return alternatives;
    }
}

/**
 * The UTF-16 code units that pass `starts`. Chevrotain puts the codes above 255 into buckets of 255, so
 * one code per bucket is enough there; below 256 each code is its own entry.
 */
function startCharacters(starts: (c: string) => boolean): number[] {
    const codes: number[] = [];
    let lastBucket = -1;
    for (let code = 0; code < 0x10000; code++) {
        const bucket = code < 256 ? code : 255 + Math.floor(code / 255);
        if (bucket === lastBucket || !starts(String.fromCharCode(code))) continue;
        codes.push(code);
        lastBucket = bucket;
    }
    return codes;
}
