/**
 * The product speaks of the product: its sources, tests, scripts, docs and CHANGELOG say what Umpire
 * does and why, never how its work was organised — no internal issue numbers, work sessions, helpers,
 * branches or machine paths. A link to an upstream project's issue (a full URL) is a fact about that
 * project and stays. Generated code and frozen outputs are left out. Pure file reads over `git ls-files`.
 */
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import { describe, expect, it } from 'vitest';

/** What the check looks for, each with what it is called in a failure. */
export const PROCESS_WORDS: ReadonlyArray<readonly [string, RegExp]> = [
    ['an internal issue number', /\bissues? #?\d+/i],
    ['an issue number', /(?:[([]|\b(?:see|in|of|from|and|fixes|closes|PR) )#\d+\b/i],
    ['a work session', /\bsessions? \d+|\b(?:this|that|last|next|earlier|previous|other|each) sessions?\b|\bsession's\b/i],
    ['a helper of the work', /\bhelpers? [a-z]+\d+\b|\(helper\b|\bthe (?:two )?helpers'? (?:work|change|branch)/i],
    ['the lead engineer', /\(lead\)|\bthe lead(?: engineer)?\b(?! (?:to|back|one|into)\b)/i],
    ['a branch of the work', /\b(?:this|that|my|our|a helper's|the helper's) branch\b|\bmain branch\b/i],
    ['a machine path', /\/work\/|\/tmp\/bash_jobs|\/home\/[a-z]|\/Users\/[A-Za-z]/]
];

/** Where a line names the work instead of the product, with a full URL (an upstream issue) left out. */
export function processWordsIn(text: string): Array<{ line: number, what: string, text: string }> {
    const found: Array<{ line: number, what: string, text: string }> = [];
    text.split('\n').forEach((raw, i) => {
        const line = raw.replace(/https?:\/\/\S+/g, '');
        for (const [what, pattern] of PROCESS_WORDS) {
            if (pattern.test(line)) found.push({ line: i + 1, what, text: raw.trim().slice(0, 160) });
        }
    });
    return found;
}

/** The files checked: every text file in git but generated code, frozen outputs and this check's own patterns. */
function checkedFiles(): string[] {
    return execFileSync('git', ['ls-files'], { encoding: 'utf8' }).split('\n')
        .filter(f => f !== '' && fs.existsSync(f))
        .filter(f => !/^(src\/language\/generated\/|test\/goldens\/)|package-lock\.json$|\.(png|jpg|ico|vsix|woff2?)$/.test(f))
        .filter(f => f !== 'test/process-words.test.ts');
}

describe('no word of the development process in the product', () => {
    it('finds none in any file in git', () => {
        const files = checkedFiles();
        const found = files.flatMap(f => processWordsIn(fs.readFileSync(f, 'utf8')).map(p => `${f}:${p.line} ${p.what}: ${p.text}`));
        expect(found).toEqual([]);
        expect(files.length).toBeGreaterThan(200);
    });

    it('would find each kind, and leaves an upstream issue link and the product\'s own words alone', () => {
        // Built from parts, so that the words are not written here as prose.
        const flagged = [
            `(${'issue'} 14)`, `see ${'#'}14.`, `${'Session'} 10: the parse`, `this ${'session'}'s run`,
            `by ${'helper'} alloc11`, `(${'lead'})`, `on this ${'branch'}`, `${'/wo'}rk/wt/docs/x.ts`
        ];
        expect(flagged.map(t => processWordsIn(t).map(p => p.what))).toEqual(PROCESS_WORDS.map(([what]) => [what]).slice(0, 2)
            .concat([[PROCESS_WORDS[2][0]], [PROCESS_WORDS[2][0]], [PROCESS_WORDS[3][0]], [PROCESS_WORDS[4][0]], [PROCESS_WORDS[5][0]], [PROCESS_WORDS[6][0]]]));
        const product = [
            'Langium reports it (https://github.com/eclipse-langium/langium/issues/2051).',
            'Line#1: 4 #2: 2', '`#1` to `#N`', 'color: #555;', 'an LSP session to the server', 'test helpers bound to it',
            'imports lead back to the file', 'the reporting branches of a check'
        ];
        expect(product.flatMap(processWordsIn)).toEqual([]);
    });
});
