/**
 * What Chevrotain's error recovery costs at each syntax error, cut (issue 14, docs/performance.md,
 * "Error files edited in pieces"). A file with 3,500 lines that do not read spent two thirds of its
 * parse in the recovery, 1–1.5 ms an error, on work whose answer depends on the grammar only:
 *
 * - In-rule recovery (a token inserted or skipped) asks which tokens may follow the one expected, by
 *   walking the grammar from the entry rule down the current rule stack, at every mismatched token
 *   and at the end of every repetition that the next token does not close. The answer is a function
 *   of the rule stack, the rules' occurrences, the token expected and its place in the rule: kept.
 * - "No viable alternative" and "early exit" errors compute the lookahead paths of the alternation or
 *   repetition for their message ("one of these possible Token sequences: …"), for every error, past
 *   the 200 that are listed too. The paths depend on the rule and the occurrence only: kept. The
 *   message is built from them exactly as before, so every message is byte-identical.
 * - Every error (and every failed in-rule recovery attempt) is an `Error`, which captures a stack
 *   trace of the parser's deep recursion. Nothing reads those stacks: none is captured while parsing.
 *
 * Installed on each parser the document factory creates (not on Chevrotain's prototypes, which
 * other parsers of the process share); src/language/battle-parser-fixes.ts repairs other parts.
 */
import { EarlyExitException, getLookaheadPaths, NoViableAltException, type IToken, type TokenType } from 'chevrotain';
import type { LangiumCompletionParser, LangiumParser } from 'langium';

/** The parts of Chevrotain's recognizer these methods read (internal in its typings). */
interface Recognizer {
    RULE_STACK: number[];
    RULE_OCCURRENCE_STACK: number[];
    maxLookahead: number;
    errorMessageProvider: {
        buildNoViableAltMessage(options: unknown): string;
        buildEarlyExitMessage(options: unknown): string;
    };
    getFollowsForInRuleRecovery(tokType: TokenType, tokIdxInRule: number): TokenType[];
    raiseNoAltException(occurrence: number, errMsgTypes: unknown): never;
    raiseEarlyExitException(occurrence: number, prodType: number, userDefinedErrMsg: unknown): never;
    getCurrRuleFullName(): string;
    getGAstProductions(): Record<string, unknown>;
    LA(howMuch: number): IToken;
    SAVE_ERROR(error: Error): Error;
}

/** Chevrotain's PROD_TYPE numbers (lookahead.js) as the names `getLookaheadPaths` takes. */
const PROD_TYPE_NAMES = ['Option', 'Repetition', 'RepetitionMandatory', 'RepetitionMandatoryWithSeparator', 'RepetitionWithSeparator', 'Alternation'] as const;

const installedOn = new WeakSet<object>();

/** On a parser of documents, or on the completion parser (which parses the text up to the cursor with the same recovery). */
export function cutRecoveryCosts<P extends LangiumParser | LangiumCompletionParser>(parser: P): P {
    const recognizer = (parser as unknown as { wrapper: Recognizer }).wrapper;
    if (installedOn.has(recognizer)) return parser;
    installedOn.add(recognizer);

    const follows = new Map<string, TokenType[]>();
    const getFollows = recognizer.getFollowsForInRuleRecovery;
    recognizer.getFollowsForInRuleRecovery = function (this: Recognizer, tokType: TokenType, tokIdxInRule: number): TokenType[] {
        const key = `${this.RULE_STACK.join(',')}|${this.RULE_OCCURRENCE_STACK.join(',')}|${tokType.tokenTypeIdx}|${tokIdxInRule}`;
        let found = follows.get(key);
        if (!found) {
            found = getFollows.call(this, tokType, tokIdxInRule);
            follows.set(key, found);
        }
        return found;
    };

    // The paths of each alternation and repetition, by rule, kind and occurrence.
    const paths = new Map<string, unknown>();
    const pathsFor = (self: Recognizer, ruleName: string, prodType: typeof PROD_TYPE_NAMES[number], occurrence: number) => {
        const key = `${ruleName}|${prodType}|${occurrence}`;
        let found = paths.get(key);
        if (!found) {
            found = getLookaheadPaths({ occurrence, rule: self.getGAstProductions()[ruleName] as never, prodType, maxLookahead: self.maxLookahead });
            paths.set(key, found);
        }
        return found;
    };
    const lookahead = (self: Recognizer) => Array.from({ length: self.maxLookahead }, (_, i) => self.LA(i + 1));

    // As Chevrotain's ErrorHandler.raiseNoAltException (error_handler.js), with the paths kept.
    recognizer.raiseNoAltException = function (this: Recognizer, occurrence: number, errMsgTypes: unknown): never {
        const ruleName = this.getCurrRuleFullName();
        const previousToken = this.LA(0);
        const errMsg = this.errorMessageProvider.buildNoViableAltMessage({
            expectedPathsPerAlt: pathsFor(this, ruleName, 'Alternation', occurrence),
            actual: lookahead(this),
            previous: previousToken,
            customUserDescription: errMsgTypes,
            ruleName
        });
        throw this.SAVE_ERROR(new NoViableAltException(errMsg, this.LA(1), previousToken));
    };

    // As Chevrotain's ErrorHandler.raiseEarlyExitException, with the paths kept.
    recognizer.raiseEarlyExitException = function (this: Recognizer, occurrence: number, prodType: number, userDefinedErrMsg: unknown): never {
        const ruleName = this.getCurrRuleFullName();
        const perAlternative = pathsFor(this, ruleName, PROD_TYPE_NAMES[prodType], occurrence) as unknown[];
        const msg = this.errorMessageProvider.buildEarlyExitMessage({
            expectedIterationPaths: perAlternative[0],
            actual: lookahead(this),
            previous: this.LA(0),
            customUserDescription: userDefinedErrMsg,
            ruleName
        });
        throw this.SAVE_ERROR(new EarlyExitException(msg, this.LA(1), this.LA(0)));
    };

    // No stack traces while parsing: the recovery throws and catches an Error at every mismatched token.
    const withParse = parser as unknown as { parse: (...args: unknown[]) => unknown };
    const parse = withParse.parse;
    withParse.parse = function parseWithoutStacks(this: unknown, ...args: unknown[]) {
        const limit = Error.stackTraceLimit;
        Error.stackTraceLimit = 0;
        try {
            return parse.apply(this, args);
        } finally {
            Error.stackTraceLimit = limit;
        }
    };
    return parser;
}
