/**
 * An outline of the grammar by name, worked out when the bundles are built (esbuild.mjs runs
 * scripts/grammar-outline.ts) and written into each: what the token builder and the parser builder otherwise find
 * by walking the grammar at every start, answers that depend on the grammar alone. Walking it (its reachable
 * rules, its keywords) and working out each keyword's longer alternatives (about 500 regular expressions made
 * and tried) cost a small check about 5 ms of its start (docs/performance.md, "Start-up"). Run from the sources,
 * as the tests run, there is none, and both builders walk the grammar as Langium does.
 */
import { GrammarUtils, type GrammarAST } from 'langium';
import type { TokenType, TokenVocabulary } from 'chevrotain';

export interface GrammarOutline {
    /** The terminals that are tokens (Langium's reachable, non-fragment terminal rules), in the grammar's order. */
    readonly terminals: readonly string[];
    /** The keywords in the order of their tokens (longest first), each with its longer alternatives in the order Chevrotain tries them. */
    readonly keywords: ReadonlyArray<readonly [string, readonly string[]]>;
    /** The parser rules reachable from the entry rule, in the grammar's order. */
    readonly parserRules: readonly string[];
}

/** The outline the bundle's build wrote, as JSON (esbuild.mjs); none when run from the sources. */
declare const __GRAMMAR_OUTLINE__: string | undefined;
export const BUILT_OUTLINE: GrammarOutline | undefined = typeof __GRAMMAR_OUTLINE__ === 'string' ? JSON.parse(__GRAMMAR_OUTLINE__) as GrammarOutline : undefined;

/** The outline of `grammar` and of `vocabulary`, the tokens `BattleTokenBuilder.buildTokens` made of it: what the build writes into the bundles. */
export function outlineOf(grammar: GrammarAST.Grammar, vocabulary: TokenVocabulary): GrammarOutline {
    const terminals: string[] = [];
    const keywords: Array<[string, string[]]> = [];
    for (const token of vocabulary as TokenType[]) {
        // A keyword's token is matched by its text (Langium's `buildKeywordPattern`; the grammar is case-sensitive).
        if (typeof token.PATTERN !== 'string') {
            terminals.push(token.name);
            continue;
        }
        const alternatives = token.LONGER_ALT === undefined ? [] : Array.isArray(token.LONGER_ALT) ? token.LONGER_ALT : [token.LONGER_ALT];
        keywords.push([token.name, alternatives.map(alt => alt.name)]);
    }
    return { terminals, keywords, parserRules: reachableParserRules(grammar, undefined).map(rule => rule.name) };
}

/**
 * The parser rules reachable from the entry rule, in the grammar's order: by name from the outline, or, with none
 * (or one that names a rule the grammar lacks), as Langium's walk finds them.
 */
export function reachableParserRules(grammar: GrammarAST.Grammar, outline: GrammarOutline | undefined = BUILT_OUTLINE): GrammarAST.ParserRule[] {
    if (outline) {
        const byName = new Map(grammar.rules.map(rule => [rule.name, rule]));
        const rules = outline.parserRules.map(name => byName.get(name));
        if (rules.every(rule => rule?.$type === 'ParserRule')) return rules as GrammarAST.ParserRule[];
    }
    const reachable = GrammarUtils.getAllReachableRules(grammar, false);
    return grammar.rules.filter((rule): rule is GrammarAST.ParserRule => rule.$type === 'ParserRule' && reachable.has(rule));
}
