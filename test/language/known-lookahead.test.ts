/**
 * The parsers' lookahead decisions worked out when Umpire is built (src/language/known-lookahead.ts): the record
 * the build writes is what Chevrotain's strategy decides, a parser made with it decides every one-token decision
 * from it and parses as a parser that analyses the grammar itself, and a record made for other tokens is not read.
 */
import * as fs from 'node:fs';
import { AstUtils, type CstNode, type LangiumCompletionParser, type LangiumParser } from 'langium';
import type { TokenType } from 'chevrotain';
import { describe, expect, it } from 'vitest';
import { lookaheadOf } from '../../src/language/battle-parser.js';
import { recordLookahead, servicesWithLookahead } from '../../src/language/lookahead-record.js';
import type { BuiltLookahead } from '../../src/language/known-lookahead.js';

const record = recordLookahead();
const analysing = servicesWithLookahead(undefined);
const reading = servicesWithLookahead(record);

/** The parser's lookahead functions as Chevrotain keeps them, per rule and decision (the recogniser's own cache). */
function lookaheadFunctions(parser: LangiumParser | LangiumCompletionParser): Array<Array<((this: unknown, alts?: unknown) => unknown) | undefined>> {
    return (parser as unknown as { wrapper: { lookAheadFuncsCache: Array<Array<(this: unknown) => unknown>> } }).wrapper.lookAheadFuncsCache;
}

/** A parse as text: every leaf with its place and token, every node's type, and the syntax errors. */
function parsed(parser: LangiumParser, text: string): string {
    const result = parser.parse(text);
    const leaves: string[] = [];
    const walk = (node: CstNode) => {
        const content = (node as CstNode & { content?: CstNode[] }).content;
        if (content) content.forEach(walk);
        else leaves.push(`${node.offset}:${node.text}`);
    };
    walk(result.value.$cstNode!);
    const types = AstUtils.streamAst(result.value).map(node => `${node.$type}@${node.$cstNode?.offset}`).toArray();
    return [leaves.join(' '), types.join(' '), ...result.parserErrors.map(e => `${e.token.startOffset} ${e.message}`)].join('\n');
}

const examples = fs.readdirSync(new URL('../../examples/', import.meta.url)).filter(f => f.endsWith('.battle'))
    .map(f => fs.readFileSync(new URL(`../../examples/${f}`, import.meta.url), 'utf8'));

describe('the lookahead decisions recorded at build time', () => {
    it('are one-token decisions but for the few that need the adaptive prediction, in the tokens\' names', () => {
        const decisions = Object.entries(record.decisions);
        const adaptive = decisions.filter(([, alts]) => alts === null).map(([key]) => key);
        expect(decisions.length).toBeGreaterThan(50);
        expect(adaptive.length).toBeGreaterThan(0);
        expect(adaptive.length).toBeLessThan(decisions.length / 10);
        const names = new Set(record.tokens);
        for (const [, alts] of decisions) for (const alt of alts ?? []) for (const name of alt) if (name !== null) expect(names).toContain(name);
        expect(record.tokens).toEqual(Object.keys(analysing.parser.Lexer.definition));
    });

    it('are read by both parsers for every one-token decision; the others are the strategy\'s own', () => {
        const oneToken = Object.values(record.decisions).filter(alts => alts !== null).length;
        const main = lookaheadOf(reading.parser.LangiumParser).counts;
        expect(main.known).toBeGreaterThan(0);
        reading.parser.CompletionParser.parse('');
        const completion = lookaheadOf(reading.parser.CompletionParser).counts;
        // Each parser decides its own decisions (the completion parser's are Langium's builder's: the same or fewer).
        expect(main.known + main.analysed).toBe(Object.keys(record.decisions).length);
        expect(main.known).toBe(oneToken);
        expect(completion.known).toBeGreaterThan(0);
        expect(completion.known + completion.analysed).toBeLessThanOrEqual(Object.keys(record.decisions).length);
        expect(lookaheadOf(analysing.parser.LangiumParser).counts.known).toBe(0);
    });

    it('give, for every token that can come next, the alternative the strategy\'s own functions give', () => {
        // Each set of services has its own token types, numbered apart: a token is the same by name.
        const ownTokens = analysing.parser.Lexer.definition as Record<string, TokenType>;
        const readTokens = reading.parser.Lexer.definition as Record<string, TokenType>;
        const ownFunctions = lookaheadFunctions(analysing.parser.LangiumParser);
        const readFunctions = lookaheadFunctions(reading.parser.LangiumParser);
        let compared = 0, adaptive = 0;
        ownFunctions.forEach((rule, r) => (rule ?? []).forEach((own, k) => {
            const read = readFunctions[r]?.[k];
            expect(read).toBeTypeOf('function');
            // The adaptive prediction reads the whole parser's state: its functions are the same strategy's, not compared here.
            if (String(own).includes('adaptivePredict')) { adaptive++; return; }
            for (const name of Object.keys(ownTokens)) {
                const next = (token: TokenType) => ({ LA_FAST: () => ({ tokenTypeIdx: token.tokenTypeIdx }) });
                expect(read!.call(next(readTokens[name])), `decision ${k} of rule ${r}, ${name} next`).toBe(own!.call(next(ownTokens[name])));
            }
            compared++;
        }));
        expect(compared).toBe(Object.values(record.decisions).filter(alts => alts !== null).length);
        expect(adaptive).toBe(Object.values(record.decisions).filter(alts => alts === null).length);
    });

    it('parse every example, and broken texts, as a parser that analyses the grammar itself', () => {
        const broken = [
            'scenario "X"\nrules scrud\nforce A {\n  unit Line foot Veteran x2\n',
            'scenario "X"\nrules scrud\nforce A { unit }\nengagement E {\n  A attacks\n  seed\n}\n',
            'rules ancients\nforce A {\n  unit B foot size 4 skill\n}\nmelee M { A attacks A position front }\n'
        ];
        for (const text of [...examples, ...broken, ...examples.map(t => t.slice(0, Math.floor(t.length / 2)))]) {
            expect(parsed(reading.parser.LangiumParser, text)).toBe(parsed(analysing.parser.LangiumParser, text));
        }
        // The completion parser: the rules open at the cursor, at a cut in every example.
        const stack = (parser: LangiumCompletionParser, text: string) => parser.parse(text).elementStack.map(e => e.$type).join(' ');
        for (const text of examples) {
            for (const cut of [0.25, 0.5, 0.75]) {
                const prefix = text.slice(0, Math.floor(text.length * cut));
                expect(stack(reading.parser.CompletionParser, prefix)).toBe(stack(analysing.parser.CompletionParser, prefix));
            }
        }
    });

    it('are written into every bundle as the grammar gives them now', () => {
        // scripts/lookahead-record.ts is what esbuild.mjs runs to make the record; it analyses the grammar of the sources.
        // (Langium names Chevrotain's rules with a zero-width space, which the bundles write escaped.)
        const written = JSON.stringify(record).replace(/\u200b/g, '\\u200B');
        for (const bundle of ['out/cli/main.cjs', 'out/language/main.cjs', 'out/language/main-browser.js']) {
            expect(fs.readFileSync(new URL(`../../${bundle}`, import.meta.url), 'utf8')).toContain(written);
        }
    });

    it('are not read when made for other tokens, and a decision naming a token the lexer lacks is analysed', () => {
        const otherTokens: BuiltLookahead = { tokens: [...record.tokens, 'ANOTHER_TOKEN'], decisions: record.decisions };
        expect(lookaheadOf(servicesWithLookahead(otherTokens).parser.LangiumParser).counts.known).toBe(0);
        const [key, alts] = Object.entries(record.decisions).find(([, a]) => a !== null)!;
        const unknown: BuiltLookahead = { tokens: record.tokens, decisions: { ...record.decisions, [key]: alts!.map(alt => alt.map(() => 'NO_SUCH_TOKEN')) } };
        const counts = lookaheadOf(servicesWithLookahead(unknown).parser.LangiumParser).counts;
        expect(counts.known).toBe(lookaheadOf(reading.parser.LangiumParser).counts.known - 1);
    });
});
