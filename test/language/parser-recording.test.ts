/**
 * The end of the grammar's recording (src/language/parser-recording.ts): once the parser is made, every method the
 * recording set on it is the one its prototype holds, as after Chevrotain's deletes, and it parses as before.
 */
import * as fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { EmptyFileSystem } from 'langium';
import { createBattleServices } from '../../src/language/battle-module.js';

const services = createBattleServices(EmptyFileSystem).Battle;

interface Recorder {
    RECORDING_PHASE: boolean;
    enableRecording(): void;
    disableRecording(): void;
}

/** The names Chevrotain 13.2.0's `enableRecording` sets on the parser (parse/parser/traits/gast_recorder.js). */
const RECORDED = [
    ...Array.from({ length: 10 }, (_, i) => i > 0 ? String(i) : '').flatMap(i =>
        ['CONSUME', 'SUBRULE', 'OPTION', 'OR', 'MANY', 'MANY_SEP', 'AT_LEAST_ONE', 'AT_LEAST_ONE_SEP'].map(name => name + i)),
    'consume', 'subrule', 'option', 'or', 'many', 'atLeastOne', 'ACTION', 'BACKTRACK', 'LA'
];

const example = fs.readFileSync(new URL('../../examples/scrud-seed.battle', import.meta.url), 'utf8');
// The parser analyses its grammar, and so records it, at its first parse.
const parse = (text: string) => services.parser.LangiumParser.parse(text);
const first = parse(example);
const wrapper = (services.parser.LangiumParser as unknown as { wrapper: Recorder & Record<string, unknown> }).wrapper;
const prototype = Object.getPrototypeOf(wrapper) as Record<string, unknown>;
const inView = () => RECORDED.filter(name => wrapper[name] !== prototype[name]);

describe('the end of the recording', () => {
    it('leaves the prototype\'s methods in view on the parser, as Chevrotain\'s deletes do', () => {
        expect(wrapper.RECORDING_PHASE).toBe(false);
        expect(RECORDED.every(name => typeof prototype[name] === 'function')).toBe(true);
        expect(inView()).toEqual([]);
    });

    it('takes back exactly what a recording set', () => {
        wrapper.enableRecording();
        try {
            expect(wrapper.RECORDING_PHASE).toBe(true);
            expect(inView()).toEqual(RECORDED);
        } finally {
            wrapper.disableRecording();
        }
        expect(wrapper.RECORDING_PHASE).toBe(false);
        expect(inView()).toEqual([]);
    });

    it('leaves a parser that reads a scenario and reports what does not read', () => {
        expect(first.parserErrors).toEqual([]);
        expect(first.lexerErrors).toEqual([]);
        expect(parse(example.replace('force', 'forc')).parserErrors.length).toBeGreaterThan(0);
    });
});
