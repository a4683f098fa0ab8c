/**
 * What Chevrotain's error recovery costs at each syntax error, cut (docs/performance.md, "Error files edited in
 * pieces"). A file with 3,500 lines that do not read spent two thirds of its parse in the recovery, 1–1.5 ms an
 * error, on work whose answer depends on the grammar only:
 *
 * - In-rule recovery (a token inserted or skipped) asks which tokens may follow the one expected, by walking the
 *   grammar from the entry rule down the current rule stack, at every mismatched token and at the end of every
 *   repetition that the next token does not close. The answer is a function of the rule stack, the rules'
 *   occurrences, the token expected and its place in the rule: kept.
 * - "No viable alternative" and "early exit" errors compute the lookahead paths of the alternation or repetition
 *   for their message ("one of these possible Token sequences: …"), for every error, past the 200 that are listed
 *   too. The paths depend on the rule and the occurrence only: kept. The message is built from them exactly as
 *   before, so every message is byte-identical.
 *
 * A subclass of the recogniser Langium 4.4.0 wraps Chevrotain 13.2.0's parser in (`ChevrotainWrapper`, not exported:
 * its class is read from the parser's own), overriding Chevrotain's `getFollowsForInRuleRecovery`
 * (parse/parser/traits/recoverable.js), `raiseNoAltException` and `raiseEarlyExitException`
 * (parse/parser/traits/error_handler.js), which it copies but for the kept paths. BattleParser and
 * BattleCompletionParser (battle-parser.ts) make theirs with it.
 */
import { EarlyExitException, getLookaheadPaths, NoViableAltException, type IToken, type TokenType, type TokenVocabulary } from 'chevrotain';

/** The parts of Chevrotain's recogniser these methods read (internal in its typings). */
export interface Recognizer {
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

/** Langium's `ChevrotainWrapper` constructor: the tokens, the parser's configuration, and whether it reads text cut short (the completion parser's). */
export type RecognizerClass = new (tokens: TokenVocabulary, config: object, incomplete: boolean) => Recognizer;

/** Chevrotain's PROD_TYPE numbers (lookahead.js) as the names `getLookaheadPaths` takes. */
const PROD_TYPE_NAMES = ['Option', 'Repetition', 'RepetitionMandatory', 'RepetitionMandatoryWithSeparator', 'RepetitionWithSeparator', 'Alternation'] as const;

const made = new WeakMap<RecognizerClass, RecognizerClass>();

/** `Base` with the recovery's answers kept (one class per base). */
export function withKeptRecovery(Base: RecognizerClass): RecognizerClass {
    let Kept = made.get(Base);
    if (Kept === undefined) {
        Kept = keptRecovery(Base);
        made.set(Base, Kept);
    }
    return Kept;
}

function keptRecovery(Base: RecognizerClass): RecognizerClass {
    return class KeptRecovery extends Base {
        private readonly follows = new Map<string, TokenType[]>();
        /** The paths of each alternation and repetition, by rule, kind and occurrence. */
        private readonly paths = new Map<string, unknown>();

        override getFollowsForInRuleRecovery(tokType: TokenType, tokIdxInRule: number): TokenType[] {
            const key = `${this.RULE_STACK.join(',')}|${this.RULE_OCCURRENCE_STACK.join(',')}|${tokType.tokenTypeIdx}|${tokIdxInRule}`;
            let found = this.follows.get(key);
            if (!found) {
                found = super.getFollowsForInRuleRecovery(tokType, tokIdxInRule);
                this.follows.set(key, found);
            }
            return found;
        }

        // As Chevrotain's ErrorHandler.raiseNoAltException, with the paths kept.
        override raiseNoAltException(occurrence: number, errMsgTypes: unknown): never {
            const ruleName = this.getCurrRuleFullName();
            const previousToken = this.LA(0);
            const errMsg = this.errorMessageProvider.buildNoViableAltMessage({
                expectedPathsPerAlt: this.pathsFor(ruleName, 'Alternation', occurrence),
                actual: this.lookahead(),
                previous: previousToken,
                customUserDescription: errMsgTypes,
                ruleName
            });
            throw this.SAVE_ERROR(new NoViableAltException(errMsg, this.LA(1), previousToken));
        }

        // As Chevrotain's ErrorHandler.raiseEarlyExitException, with the paths kept.
        override raiseEarlyExitException(occurrence: number, prodType: number, userDefinedErrMsg: unknown): never {
            const ruleName = this.getCurrRuleFullName();
            const perAlternative = this.pathsFor(ruleName, PROD_TYPE_NAMES[prodType], occurrence) as unknown[];
            const msg = this.errorMessageProvider.buildEarlyExitMessage({
                expectedIterationPaths: perAlternative[0],
                actual: this.lookahead(),
                previous: this.LA(0),
                customUserDescription: userDefinedErrMsg,
                ruleName
            });
            throw this.SAVE_ERROR(new EarlyExitException(msg, this.LA(1), this.LA(0)));
        }

        private pathsFor(ruleName: string, prodType: typeof PROD_TYPE_NAMES[number], occurrence: number): unknown {
            const key = `${ruleName}|${prodType}|${occurrence}`;
            let found = this.paths.get(key);
            if (!found) {
                found = getLookaheadPaths({ occurrence, rule: this.getGAstProductions()[ruleName] as never, prodType, maxLookahead: this.maxLookahead });
                this.paths.set(key, found);
            }
            return found;
        }

        private lookahead(): IToken[] {
            return Array.from({ length: this.maxLookahead }, (_, i) => this.LA(i + 1));
        }
    };
}
