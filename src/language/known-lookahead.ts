/**
 * The parser's lookahead decisions worked out when Umpire is built, not at each start (docs/performance.md,
 * "Start-up"). Chevrotain asks its lookahead strategy for a function per decision of the grammar (each
 * alternation, option and repetition) when a parser is made; chevrotain-allstar 0.5.0's `LLStarLookaheadStrategy`
 * (Langium 4.4.0's) first tries whether one token decides it, from the grammar's first sets and, for an option,
 * the follow sets across rules, and only then falls back to its adaptive prediction. That analysis took about
 * 4 ms of a small `umpire check` (of 74 decisions, two need the adaptive prediction). Its answer depends only on the grammar and the tokens, so the build records it
 * (esbuild.mjs runs scripts/lookahead-record.ts and writes the record into each bundle) and the parsers made at
 * run time read it:
 *
 * - a decision one token decides gets the very function the strategy would build, from the tokens by name;
 * - any other decision, and any the record does not know or whose tokens the lexer does not have (a grammar
 *   changed since the build), is the strategy's own.
 *
 * test/language/known-lookahead.test.ts holds a parser with the record to one that analyses the grammar itself.
 */
import { getLookaheadPaths, type BaseParser, type IOrAlt, type OptionalProductionType, type Rule, type TokenType, type TokenTypeDictionary } from 'chevrotain';
import { LLStarLookaheadStrategy, type LLStarLookaheadOptions } from 'chevrotain-allstar';

/**
 * Per decision (`Rule:ProductionType:occurrence`), the first tokens of each alternative by name when one token
 * decides it (an option: of the one alternative; `null` for an empty path, as the analysis gives it), or
 * `null` when it needs the adaptive prediction.
 */
export type LookaheadRecord = Record<string, ReadonlyArray<ReadonlyArray<string | null>> | null>;

/**
 * The record the build made (`BUILT_LOOKAHEAD`), as a service of the parser's: the token names it was made
 * with, and its decisions. Undefined: every decision analysed at run time (the build's analysis itself).
 */
export interface BuiltLookahead {
    readonly tokens: readonly string[];
    readonly decisions: LookaheadRecord;
}

export type BuiltLookaheadServices = { parser: { BuiltLookahead: BuiltLookahead | undefined } };

/** The record esbuild.mjs wrote into the bundle, as JSON (scripts/lookahead-record.ts); none when run from the sources. */
declare const __BUILT_LOOKAHEAD__: string | undefined;
export const BUILT_LOOKAHEAD: BuiltLookahead | undefined = typeof __BUILT_LOOKAHEAD__ === 'string' ? JSON.parse(__BUILT_LOOKAHEAD__) as BuiltLookahead : undefined;

type AlternationOptions = Parameters<LLStarLookaheadStrategy['buildLookaheadForAlternation']>[0];
type OptionalOptions = Parameters<LLStarLookaheadStrategy['buildLookaheadForOptional']>[0];
type Decide = (this: BaseParser, orAlts?: IOrAlt<unknown>[]) => number | undefined;
type Take = (this: BaseParser) => boolean;
/** Chevrotain's lookahead without the bounds check, which the strategy's own functions call. */
type Reading = BaseParser & { LA_FAST(i: number): { tokenTypeIdx: number } };

function decisionKey(rule: Rule, prodType: string, occurrence: number): string {
    return `${rule.name}:${prodType}:${occurrence}`;
}

/** The strategy of Langium's parsers, the decisions the build recorded taken from that record. */
export class KnownLookahead extends LLStarLookaheadStrategy {
    /** The decisions this strategy built, each as the record would write it (made when read: the build's analysis reads them). */
    private readonly decided = new Map<string, () => ReadonlyArray<ReadonlyArray<string | null>> | null>();
    /** How many decisions came from the record, and how many from the strategy's own analysis (tests read them). */
    readonly counts = { known: 0, analysed: 0 };

    /** The build's decisions, when it was made with the very tokens the lexer has (a rule set of its own may add some). */
    private readonly fromBuild: LookaheadRecord | undefined;

    constructor(options: LLStarLookaheadOptions, built: BuiltLookahead | undefined, private readonly tokens: TokenTypeDictionary) {
        super(options);
        this.fromBuild = built && sameNames(built.tokens, tokens) ? built.decisions : undefined;
    }

    override buildLookaheadForAlternation(options: AlternationOptions): Decide {
        const key = decisionKey(options.rule, 'Alternation', options.prodOccurrence);
        const alts = options.dynamicTokensEnabled ? undefined : this.recorded(key);
        if (!alts) return this.analysed(key, super.buildLookaheadForAlternation(options), () => firstTokens(options.rule, 'Alternation', options.prodOccurrence)) as Decide;
        // The strategy's one-token function (all-star-lookahead.js): the alternative of each token, a category's
        // extending tokens with it; a gate, when the alternatives have one, may still refuse the alternative.
        const choiceToAlt: Record<number, number> = {};
        alts.forEach((alt, idx) => {
            for (const tokenType of alt) {
                if (!tokenType) continue;
                choiceToAlt[tokenType.tokenTypeIdx!] = idx;
                for (const extending of tokenType.categoryMatches ?? []) choiceToAlt[extending] = idx;
            }
        });
        if (options.hasPredicates) {
            return function (this: BaseParser, orAlts?: IOrAlt<unknown>[]): number | undefined {
                const prediction = choiceToAlt[(this as Reading).LA_FAST(1).tokenTypeIdx];
                if (orAlts !== undefined && prediction !== undefined) {
                    const gate = orAlts[prediction]?.GATE;
                    if (gate !== undefined && gate.call(this) === false) return undefined;
                }
                return prediction;
            };
        }
        return function (this: BaseParser): number | undefined {
            return choiceToAlt[(this as Reading).LA_FAST(1).tokenTypeIdx];
        };
    }

    override buildLookaheadForOptional(options: OptionalOptions): Take {
        const key = decisionKey(options.rule, options.prodType, options.prodOccurrence);
        const alts = options.dynamicTokensEnabled ? undefined : this.recorded(key);
        // (Of an option's two paths, in and past it, the one-token function reads the first only.)
        if (!alts) return this.analysed(key, super.buildLookaheadForOptional(options), () => firstTokens(options.rule, options.prodType, options.prodOccurrence).slice(0, 1)) as Take;
        // The strategy's one-token function: one token with no category compared by its index, else a set.
        const tokenTypes = alts[0];
        if (tokenTypes.length === 1 && tokenTypes[0] && (tokenTypes[0].categoryMatches ?? []).length === 0) {
            const expected = tokenTypes[0].tokenTypeIdx;
            return function (this: BaseParser): boolean {
                return (this as Reading).LA_FAST(1).tokenTypeIdx === expected;
            };
        }
        const taken: Record<number, boolean> = {};
        for (const tokenType of tokenTypes) {
            if (!tokenType) continue;
            taken[tokenType.tokenTypeIdx!] = true;
            for (const extending of tokenType.categoryMatches ?? []) taken[extending] = true;
        }
        return function (this: BaseParser): boolean {
            return taken[(this as Reading).LA_FAST(1).tokenTypeIdx] === true;
        };
    }

    /** A recorded one-token decision with every token the lexer has; undefined for any other. */
    private recorded(key: string): Array<Array<TokenType | undefined>> | undefined {
        const alts = this.fromBuild?.[key];
        if (!alts) return undefined;
        const out: Array<Array<TokenType | undefined>> = [];
        for (const alt of alts) {
            const tokenTypes: Array<TokenType | undefined> = [];
            for (const name of alt) {
                if (name === null) { tokenTypes.push(undefined); continue; }
                const tokenType = this.tokens[name];
                if (!tokenType || tokenType.tokenTypeIdx === undefined) return undefined;
                tokenTypes.push(tokenType);
            }
            out.push(tokenTypes);
        }
        this.decided.set(key, () => alts);
        this.counts.known++;
        return out;
    }

    /** The strategy's own function, and what the record would say of it. */
    private analysed<F extends Decide | Take>(key: string, made: F, first: () => ReadonlyArray<ReadonlyArray<string | null>>): F {
        this.counts.analysed++;
        // The strategy's adaptive prediction is the one function that calls `adaptivePredict` (read in the
        // package's unminified source: the build's analysis runs unminified); its one-token functions do not.
        this.decided.set(key, () => String(made).includes('adaptivePredict') ? null : first());
        return made;
    }

    /** Every decision built so far, as the record writes it, in the order built. */
    record(): LookaheadRecord {
        return Object.fromEntries([...this.decided].map(([key, read]) => [key, read()]));
    }
}

/** The first tokens of each alternative of a decision by name, as the strategy reads them (one token of lookahead). */
function firstTokens(rule: Rule, prodType: string, occurrence: number): Array<Array<string | null>> {
    return getLookaheadPaths({ maxLookahead: 1, occurrence, prodType: prodType as OptionalProductionType | 'Alternation', rule })
        .map(alt => alt.map(path => path[0]?.name ?? null));
}

function sameNames(names: readonly string[], tokens: TokenTypeDictionary): boolean {
    let count = 0;
    for (const name in tokens) if (names[count++] !== name) return false;
    return count === names.length;
}
