/**
 * The parser's error recovery with its grammar-only answers kept and no stack traces
 * (src/language/parse-recovery-costs.ts, on Umpire's parser) must report exactly what Langium's parser reports: every
 * error, not only the 200 listed (a kept error moves up the list when the ones before it are fixed).
 */
import { describe, expect, it } from 'vitest';
import * as fs from 'node:fs';
import fc from 'fast-check';
import { createCompletionParser, createLangiumParser, type ParseResult } from 'langium';
import { createBattleParser } from '../../src/language/battle-parser-builder.js';
import type { Scenario } from '../../src/language/generated/ast.js';
import { battle } from '../support/services.js';
// @ts-expect-error: a plain ES module of the benchmarks, without types
import { errorFile } from '../../scripts/bench-files.mjs';

const examples = fs.readdirSync(new URL('../../examples/', import.meta.url)).filter(f => f.endsWith('.battle'))
    .map(f => fs.readFileSync(new URL(`../../examples/${f}`, import.meta.url), 'utf8'));

const langium = createLangiumParser(battle);
// Umpire's parser, its recogniser the one with the recovery's answers kept (battle-parser.ts).
const cut = createBattleParser(battle);

/** Every error as plain data: kind, words, the tokens it names, where in the rules it was found. */
function errorsOf(result: ParseResult): unknown {
    const token = (t: { image: string, startOffset: number, endOffset?: number, startLine?: number, startColumn?: number, tokenType?: { name: string } } | undefined) =>
        t && [t.image, t.startOffset, t.endOffset, t.startLine, t.startColumn, t.tokenType?.name];
    return result.parserErrors.map(e => {
        const error = e as typeof e & { previousToken?: Parameters<typeof token>[0], context?: { ruleStack?: string[], ruleOccurrenceStack?: number[] } };
        return {
            name: error.name, message: error.message, token: token(error.token), previous: token(error.previousToken),
            rules: error.context?.ruleStack, occurrences: error.context?.ruleOccurrenceStack, resynced: error.resyncedTokens?.map(token)
        };
    });
}

function same(text: string): void {
    const a = langium.parse<Scenario>(text), b = cut.parse<Scenario>(text);
    expect(errorsOf(b)).toEqual(errorsOf(a));
    expect(b.value.$cstNode?.text).toBe(a.value.$cstNode?.text);
    expect(b.value.elements.length).toBe(a.value.elements.length);
}

describe('the parser with its recovery costs cut', () => {
    it('reports every error of a file with thousands of them as Langium does, message for message', () => {
        const text: string = errorFile(3000, 6000);
        const errors = langium.parse(text).parserErrors;
        expect(errors.length).toBeGreaterThan(300);
        expect(new Set(errors.map(e => e.name))).toEqual(new Set(['MismatchedTokenException', 'NoViableAltException']));
        same(text);
        // Parsed again with the answers kept from the first parse.
        same(text);
    });

    it('reports what Langium reports on the examples broken at random', () => {
        const mutation = fc.record({
            which: fc.integer({ min: 0, max: examples.length - 1 }),
            cuts: fc.array(fc.record({ at: fc.double({ min: 0, max: 1, noNaN: true }), size: fc.integer({ min: 0, max: 12 }),
                insert: fc.constantFrom('', '}', '{', ',', 'x', '1', 'attack', 'force', ':', '.', '"', '..', 'engagement E {', '\n') }), { minLength: 1, maxLength: 6 })
        });
        fc.assert(fc.property(mutation, ({ which, cuts }) => {
            let text = examples[which];
            for (const c of cuts) {
                const at = Math.floor(c.at * text.length);
                text = text.slice(0, at) + c.insert + text.slice(at + c.size);
            }
            same(text);
        }), { numRuns: 300, seed: 20261201 });
    });

    it('gives the completion parser the same reading of broken text up to the cursor', () => {
        // The services' completion parser is the one with its costs cut (battle-module.ts).
        const own = createCompletionParser(battle);
        const text: string = errorFile(600, 1200);
        fc.assert(fc.property(fc.double({ min: 0, max: 1, noNaN: true }), at => {
            const upTo = text.slice(0, Math.floor(at * text.length));
            const reading = (r: ReturnType<typeof own.parse>) => ({ tokens: r.tokens.map(t => [t.image, t.startOffset]), stack: r.elementStack.map(e => e.$type), index: r.tokenIndex });
            expect(reading(battle.parser.CompletionParser.parse(upTo))).toEqual(reading(own.parse(upTo)));
        }), { numRuns: 30, seed: 20261201 });
    });

    it('captures no stack trace while parsing, and leaves the limit as it was', () => {
        const limit = Error.stackTraceLimit;
        const result = cut.parse('force F {\n  unit Foot foot Line x\n}\n');
        expect(result.parserErrors.length).toBeGreaterThan(0);
        expect(result.parserErrors[0].stack ?? '').not.toMatch(/\n\s+at /);
        expect(Error.stackTraceLimit).toBe(limit);
    });
});
