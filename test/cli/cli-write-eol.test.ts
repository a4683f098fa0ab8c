/**
 * Line endings and spacing under `umpire resolve --write`: files with LF, CRLF and lone-CR
 * lines keep every byte outside the written block, the block uses the file's own line ending, and an
 * action written on one line keeps its characters (the space before its `}` too).
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runWrite, scratchDir, SMALL } from './cli-write-support.js';

let dir: string;
beforeEach(() => { dir = scratchDir(); });
afterEach(() => { fs.rmSync(dir, { recursive: true, force: true }); });

const EOLS = { LF: '\n', CRLF: '\r\n', CR: '\r' } as const;

function withEol(text: string, eol: string): string {
    return text.replace(/\n/g, eol);
}

/** The part of `after` that is not `before`, when `after` is `before` with one run of text inserted. */
function insertion(before: Buffer, after: Buffer): { at: number, inserted: string } {
    let p = 0;
    while (p < before.length && before[p] === after[p]) p++;
    let s = 0;
    while (s < before.length - p && before[before.length - 1 - s] === after[after.length - 1 - s]) s++;
    // Everything of `before` is kept, in order, around one inserted run.
    expect(p + s).toBe(before.length);
    return { at: p, inserted: after.subarray(p, after.length - s).toString('utf8') };
}

/** The line breaks of a text, by kind. */
function breaks(text: string): Set<string> {
    return new Set(text.match(/\r\n|\r|\n/g) ?? []);
}

describe('resolve --write and line endings', () => {
    for (const [name, eol] of Object.entries(EOLS)) {
        it(`keeps a ${name} file byte for byte outside each block it inserts, in ${name}`, async () => {
            const file = path.join(dir, 'small.battle');
            const original = withEol(SMALL, eol);
            fs.writeFileSync(file, original);
            // One engagement at a time: each write is exactly one inserted run.
            let before = fs.readFileSync(file);
            for (const engagement of ['First', 'Second']) {
                expect((await runWrite(file, undefined, { engagement })).code).toBe(0);
                const after = fs.readFileSync(file);
                const { inserted } = insertion(before, after);
                expect(inserted.match(/\boutcome seed/g)).toHaveLength(1);
                expect(breaks(inserted)).toEqual(new Set([eol]));
                before = after;
            }
            // The one-line action keeps its characters: the space before its `}` included.
            expect(before.toString('utf8')).toContain(`engagement Second { A.Foot#2 attacks B.Foot#2 seed 5 ${eol}  outcome seed 5 check`);
            // Both at once give the same bytes, and writing again changes nothing.
            const whole = path.join(dir, 'whole.battle');
            fs.writeFileSync(whole, original);
            expect((await runWrite(whole)).code).toBe(0);
            expect(fs.readFileSync(whole).equals(before)).toBe(true);
            const again = await runWrite(whole);
            expect(again.lines[again.lines.length - 1]).toMatch(/nothing changed\.$/);
            expect(fs.readFileSync(whole).equals(before)).toBe(true);
            expect(breaks(before.toString('utf8'))).toEqual(new Set([eol]));
        });

        it(`replaces a written block in a ${name} file and nothing around it`, async () => {
            const file = path.join(dir, 'small.battle');
            fs.writeFileSync(file, withEol(SMALL, eol));
            expect((await runWrite(file)).code).toBe(0);
            const good = fs.readFileSync(file, 'utf8');
            // A block whose check no longer matches is stale, and is written again.
            const written = good.replace(/check "[0-9a-f]{8}"/, 'check "00000000"');
            fs.writeFileSync(file, written);
            // The old block, from the start of its line to its closing brace.
            const from = written.lastIndexOf(eol, written.indexOf('outcome seed 3')) + eol.length;
            const to = written.indexOf(`${eol}  }`, from) + eol.length + 3;
            expect((await runWrite(file)).code).toBe(0);
            const rewritten = fs.readFileSync(file, 'utf8');
            expect(rewritten).toBe(good);
            expect(rewritten.startsWith(written.slice(0, from))).toBe(true);
            expect(rewritten.endsWith(written.slice(to))).toBe(true);
            expect(breaks(rewritten)).toEqual(new Set([eol]));
        });
    }

    it('follows the line ending of the action\'s own line in a file that mixes them', async () => {
        const file = path.join(dir, 'mixed.battle');
        const [head, ...rest] = SMALL.split('engagement First');
        const mixed = withEol(head, '\r\n') + 'engagement First' + rest.join('engagement First');
        fs.writeFileSync(file, mixed);
        expect((await runWrite(file, undefined, { engagement: 'First' })).code).toBe(0);
        const { inserted } = insertion(Buffer.from(mixed), fs.readFileSync(file));
        expect(breaks(inserted)).toEqual(new Set(['\n']));
    });
});
