/**
 * The token builder's repairs (src/language/battle-token-builder.ts): the characters that can start a
 * name cover every code unit a test of each finds, in Chevrotain's buckets; the function a name is lexed with
 * matches what the terminal's expression matches at every place of every example; and the lexer reads
 * what the expressions read, a name starting with any letter and a character that starts none; and the
 * vocabulary made from the outline the build writes into the bundles is the one the grammar's walk makes.
 */
import * as fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { EmptyFileSystem, GrammarUtils, GrammarAST } from 'langium';
import type { CustomPatternMatcherFunc, TokenType } from 'chevrotain';
import { createBattleServices } from '../../src/language/battle-module.js';
import { BattleTokenBuilder } from '../../src/language/battle-token-builder.js';
import { outlineOf, reachableParserRules, type GrammarOutline } from '../../src/language/grammar-outline.js';
import { builtInRulesets } from '../../src/rulesets/registry.js';
import { outline as builtOutline } from '../../scripts/grammar-outline.js';

const services = createBattleServices(EmptyFileSystem).Battle;
const tokens = services.parser.TokenBuilder.buildTokens(services.Grammar) as TokenType[];
const token = (name: string) => tokens.find(t => t.name === name)!;
/** The code units the token's hint names (the builder gives codes, never characters). */
const hint = (name: string) => token(name).START_CHARS_HINT as number[];

const examples = fs.readdirSync(new URL('../../examples/', import.meta.url)).filter(f => f.endsWith('.battle'))
    .map(f => fs.readFileSync(new URL(`../../examples/${f}`, import.meta.url), 'utf8'));

/** One code unit per bucket of Chevrotain's (each below 256, one per 255 above) among those `starts` accepts. */
function oneByOne(starts: (c: string) => boolean): number[] {
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

/** Chevrotain's bucket of a code unit: its own below 256, one per 255 above. */
const bucketOf = (code: number) => code < 256 ? code : 255 + Math.floor(code / 255);

describe('the characters that can start a name or a count', () => {
    it('below 256 are those a test of each code finds: a letter or `_`; `x`', () => {
        const below256 = (name: string) => hint(name).filter(c => c < 256);
        expect(below256('ID')).toEqual(oneByOne(c => /^[_\p{L}]$/u.test(c)).filter(c => c < 256));
        expect(below256('COUNT')).toEqual(oneByOne(c => c === 'x'));
        // `é` can start a name, `×` cannot.
        expect(below256('ID')).toContain(0xE9);
        expect(below256('ID')).not.toContain(0xD7);
    });

    it('above 255 name every bucket that holds a letter of any script or a high surrogate (for names), none for counts', () => {
        const buckets = new Set(hint('ID').filter(c => c >= 256).map(bucketOf));
        for (const code of oneByOne(c => /^[\p{L}]$/u.test(c) || /^[\uD800-\uDBFF]$/.test(c)).filter(c => c >= 256)) expect(buckets.has(bucketOf(code))).toBe(true);
        // One code per bucket, each bucket once.
        expect(buckets.size).toBe(hint('ID').filter(c => c >= 256).length);
        expect(hint('COUNT').every(c => c < 256)).toBe(true);
    });
});

describe('the lexer', () => {
    const lexer = services.parser.Lexer;
    it('reads a name that starts with a letter of any script, and no name where a character starts none', () => {
        const names = (text: string) => lexer.tokenize(text).tokens.filter(t => t.tokenType.name === 'ID').map(t => t.image);
        expect(names('Ælfric Ωmega 𝒜lpha ジョン')).toEqual(['Ælfric', 'Ωmega', '𝒜lpha', 'ジョン']);
        // An arrow, a box-drawing line, a private-use character: buckets with no letter; each is an error, not a name.
        for (const text of ['→', '─', '\uE000']) {
            const lexed = lexer.tokenize(`${text}Foot`);
            expect(lexed.errors.length).toBeGreaterThan(0);
            expect(names(`${text}Foot`)).toEqual(['Foot']);
        }
    });
});

describe('the function names and counts are lexed with', () => {
    it('matches what the terminal\'s expression matches, at every place of every example', () => {
        for (const name of ['ID', 'COUNT']) {
            const pattern = token(name).PATTERN as CustomPatternMatcherFunc;
            const rule = services.Grammar.rules.find(r => r.name === name) as GrammarAST.TerminalRule;
            const regex = GrammarUtils.terminalRegex(rule);
            const sticky = new RegExp(regex, regex.flags + 'y');
            let matched = 0;
            for (const text of [...examples, 'Ælfric x12 Ωmega-2 𝒜lpha']) {
                for (let offset = 0; offset < text.length; offset++) {
                    sticky.lastIndex = offset;
                    const expected = sticky.exec(text)?.[0] ?? null;
                    const got = pattern(text, offset, [], {});
                    expect(got === null ? null : got[0]).toBe(expected);
                    if (expected !== null) matched++;
                }
            }
            expect(matched).toBeGreaterThan(10);
        }
    });
});

describe('the vocabulary and the parser rules, from the grammar\'s outline', () => {
    // The services made from the sources have no outline from a build: their tokens are made as Langium makes them.
    const walked = outlineOf(services.Grammar, tokens);
    const fromOutline = (outline: GrammarOutline) => new BattleTokenBuilder(builtInRulesets(), outline).buildTokens(services.Grammar) as TokenType[];
    /** A token as Chevrotain reads it, functions by kind. */
    const shape = (t: TokenType) => ({
        ...t,
        PATTERN: typeof t.PATTERN === 'function' ? 'function' : t.PATTERN instanceof RegExp ? `/${t.PATTERN.source}/${t.PATTERN.flags}` : t.PATTERN,
        LONGER_ALT: [t.LONGER_ALT ?? []].flat().map(alt => alt.name)
    });

    it('has each keyword\'s longer alternatives: the terminals that can match a text starting with it', () => {
        const alternatives = new Map(walked.keywords);
        // `turnip` is a name, not `turn` + `ip`; `+2` and `..` start a band; a brace starts nothing longer.
        expect(alternatives.get('turn')).toEqual(['KIND', 'VERB', 'ID']);
        expect(alternatives.get('+')).toEqual(['BAND']);
        expect(alternatives.get('.')).toEqual(['BAND']);
        expect(alternatives.get('{')).toEqual([]);
        expect(walked.terminals).toEqual(['WS', 'ML_COMMENT', 'SL_COMMENT', 'COUNT', 'KIND', 'VERB', 'ID', 'BAND', 'DECIMAL', 'INT', 'STRING']);
    });

    it('made from the outline is the one the grammar\'s walk makes, each alternative one of its own terminals', () => {
        const made = fromOutline(walked);
        expect(made.map(shape)).toEqual(tokens.map(shape));
        for (const t of made) for (const alt of [t.LONGER_ALT ?? []].flat()) expect(made).toContain(alt);
    });

    it('takes the alternatives the outline gives, and works out those that name a terminal the grammar lacks', () => {
        const keywords = walked.keywords.map(([keyword, alts]) => [keyword, keyword === 'turn' ? ['INT'] : keyword === 'force' ? ['NAME'] : alts] as const);
        const made = fromOutline({ ...walked, keywords });
        expect(outlineOf(services.Grammar, made).keywords).toEqual(walked.keywords.map(([keyword, alts]) => [keyword, keyword === 'turn' ? ['INT'] : alts]));
    });

    it('is made by walking the grammar when the outline names a terminal the grammar lacks', () => {
        const made = fromOutline({ ...walked, terminals: [...walked.terminals, 'NAME'], keywords: [] });
        expect(made.map(shape)).toEqual(tokens.map(shape));
    });

    it('gives the parser rules reachable from the entry rule, as Langium\'s walk finds them', () => {
        const names = (rules: GrammarAST.ParserRule[]) => rules.map(rule => rule.name);
        const reachable = GrammarUtils.getAllReachableRules(services.Grammar, false);
        const walkedRules = services.Grammar.rules.filter(rule => GrammarAST.isParserRule(rule) && reachable.has(rule));
        expect(names(reachableParserRules(services.Grammar, undefined))).toEqual(walkedRules.map(rule => rule.name));
        expect(walked.parserRules).toEqual(walkedRules.map(rule => rule.name));
        expect(walked.parserRules[0]).toBe('Scenario');
        // Taken by name from an outline; one that names a rule the grammar lacks is not used.
        expect(reachableParserRules(services.Grammar, { ...walked, parserRules: ['Force', 'Unit'] })).toEqual(['Force', 'Unit'].map(n => services.Grammar.rules.find(r => r.name === n)));
        expect(names(reachableParserRules(services.Grammar, { ...walked, parserRules: ['Force', 'Regiment'] }))).toEqual(walked.parserRules);
    });

    it('is written into every bundle as the grammar gives it now', () => {
        // scripts/grammar-outline.ts is what esbuild.mjs runs to make the outline; it walks the grammar of the sources.
        expect(builtOutline).toEqual(walked);
        for (const bundle of ['out/cli/main.cjs', 'out/language/main.cjs', 'out/language/main-browser.js']) {
            expect(fs.readFileSync(new URL(`../../${bundle}`, import.meta.url), 'utf8')).toContain(JSON.stringify(walked));
        }
    });
});
