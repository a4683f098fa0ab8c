/**
 * The repairs of Langium's parser (src/language/battle-parser-fixes.ts): comments land in the CST
 * exactly where Langium's own method puts them, and a parse keeps no tokens once it is done, without
 * losing anything its result carries.
 */
import * as fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { CstNodeBuilder, CstUtils, EmptyFileSystem, type CstNode, type LangiumParser } from 'langium';
import { createBattleServices } from '../../src/language/battle-module.js';

// Langium's own method, taken before the services below install the repair.
const langiumAddHiddenNodes = CstNodeBuilder.prototype.addHiddenNodes;
const services = createBattleServices(EmptyFileSystem).Battle;
const parser = services.parser.LangiumParser;

const examples = fs.readdirSync(new URL('../../examples/', import.meta.url)).filter(f => f.endsWith('.battle'))
    .map(f => fs.readFileSync(new URL(`../../examples/${f}`, import.meta.url), 'utf8'));

/** Comments everywhere: before and after each line, and between the words of every other line. */
function commented(text: string): string {
    return text.split('\n').map((line, i) => {
        const inner = i % 2 ? line.replace(/ (?=\S)/g, ' /* c */ ') : line;
        return `// before ${i}\n${inner} // after ${i}`;
    }).join('\n') + '\n/* at the end */\n';
}

/** Every CST node in document order: its depth, place, kind and whether it is hidden. */
function shape(p: LangiumParser, text: string): string[] {
    const root = p.parse(text).value.$cstNode!;
    const depth = (node: CstNode) => { let d = 0; for (let n = node.container; n; n = n.container) d++; return d; };
    return CstUtils.streamCst(root).map(n => `${depth(n)} ${n.offset}+${n.length} ${n.hidden ? 'hidden' : 'content' in n ? 'composite' : 'leaf'}`).toArray();
}

function withLangiumMethod<T>(run: () => T): T {
    const repaired = CstNodeBuilder.prototype.addHiddenNodes;
    CstNodeBuilder.prototype.addHiddenNodes = langiumAddHiddenNodes;
    try {
        return run();
    } finally {
        CstNodeBuilder.prototype.addHiddenNodes = repaired;
    }
}

describe('comments in the parse tree', () => {
    it('are placed as by Langium\'s own method, in every example with and without comments added', () => {
        expect(CstNodeBuilder.prototype.addHiddenNodes).not.toBe(langiumAddHiddenNodes);
        for (const text of [...examples, ...examples.map(commented)]) {
            const repaired = shape(parser, text);
            expect(repaired.some(line => line.endsWith('hidden'))).toBe(true);
            expect(repaired).toEqual(withLangiumMethod(() => shape(parser, text)));
        }
    });
});

describe('a parse keeps no tokens once done', () => {
    it('gives the parser empty input, and the result keeps its syntax errors after the next parse', () => {
        const broken = parser.parse('scenario "x"\nrules scrud\nforce A {\n  unit U foot\n');
        const errors = broken.parserErrors.map(e => e.message);
        expect(errors.length).toBeGreaterThan(0);
        expect((parser as unknown as { wrapper: { input: unknown[] } }).wrapper.input).toEqual([]);
        parser.parse(examples[0]);
        expect(broken.parserErrors.map(e => e.message)).toEqual(errors);
    });

    it('the completion parser too, while its result keeps every token', () => {
        const completion = services.parser.CompletionParser;
        const text = examples[0];
        const result = completion.parse(text);
        expect(result.tokens.length).toBe(services.parser.Lexer.tokenize(text).tokens.length);
        const fields = completion as unknown as { wrapper: { input: unknown[] }, tokens: unknown[] };
        expect(fields.wrapper.input).toEqual([]);
        expect(fields.tokens).toEqual([]);
    });
});
