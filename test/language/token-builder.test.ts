/**
 * The token builder's repairs (src/language/battle-token-builder.ts): the characters that can start a
 * name, found in runs, are those a test of each code unit finds; the function a name is lexed with
 * matches what the terminal's expression matches at every place of every example.
 */
import * as fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { EmptyFileSystem, GrammarUtils, GrammarAST } from 'langium';
import type { CustomPatternMatcherFunc, TokenType } from 'chevrotain';
import { createBattleServices } from '../../src/language/battle-module.js';

const services = createBattleServices(EmptyFileSystem).Battle;
const tokens = services.parser.TokenBuilder.buildTokens(services.Grammar) as TokenType[];
const token = (name: string) => tokens.find(t => t.name === name)!;

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

describe('the characters that can start a name or a count', () => {
    it('are those a test of every code unit finds: a letter of any script, `_`, a high surrogate; `x`', () => {
        expect(token('ID').START_CHARS_HINT).toEqual(oneByOne(c => /^[_\p{L}]$/u.test(c) || /^[\uD800-\uDBFF]$/.test(c)));
        expect(token('COUNT').START_CHARS_HINT).toEqual(oneByOne(c => c === 'x'));
        // Below 256 each code on its own: `é` can start a name, `×` cannot.
        expect(token('ID').START_CHARS_HINT).toContain(0xE9);
        expect(token('ID').START_CHARS_HINT).not.toContain(0xD7);
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
