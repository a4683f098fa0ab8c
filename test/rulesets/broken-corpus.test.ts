/**
 * The corpus of broken files (test/fixtures/broken/<rules>/NAME.battle), one kind of mistake each, and
 * a few with several independent mistakes at once. Each marks what its first check must report with a
 * comment on the line the problem starts on: `//! code` (or `//! code code` for two there).
 *
 * Checked the way `umpire check` checks (src/cli/load.ts, a one-shot load), each file must show:
 * - every mark, and nothing else, in the first check: no problem waits for another to be fixed;
 * - a fixed twin (NAME.fixed.battle) that differs from it only on the lines reported, or by lines
 *   added inside the block whose first line was reported (a missing dice line is reported on its
 *   action's name) or a reported line moved ("Move this line up"), and that checks clean: fixing
 *   exactly what was reported is enough.
 *
 * Where a count cannot be known before another mistake is put right (the saves of the units a wrong
 * Ancients split throws at hang on how the split is put right), the first check still says the line
 * is missing and why its count waits (docs/rules/ancients.md#one-round): ancients/split-and-saves.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadFile } from '../../src/cli/load.js';

const ROOT = path.join(__dirname, '..', 'fixtures', 'broken');
const MARK = /\/\/!\s*(.*)$/;

interface Case { rules: string, name: string, broken: string, fixed: string }

function corpus(): Case[] {
    const out: Case[] = [];
    for (const rules of fs.readdirSync(ROOT).sort()) {
        for (const file of fs.readdirSync(path.join(ROOT, rules)).sort()) {
            if (!file.endsWith('.battle') || file.endsWith('.fixed.battle')) continue;
            const name = file.replace(/\.battle$/, '');
            out.push({ rules, name, broken: path.join(ROOT, rules, file), fixed: path.join(ROOT, rules, `${name}.fixed.battle`) });
        }
    }
    return out;
}

/** "line code" for each mark, one a code. */
function marks(text: string): string[] {
    return text.split('\n').flatMap((line, i) => {
        const m = MARK.exec(line);
        return m ? m[1].trim().split(/\s+/).map(code => `${i + 1} ${code}`) : [];
    });
}

async function reported(file: string): Promise<string[]> {
    const { diagnostics } = await loadFile(file, { once: true });
    return diagnostics.map(d => `${d.range.start.line + 1} ${String(d.code)}`);
}

/** A line as the checker reads it: without its mark and trailing blanks. */
const bare = (line: string) => line.replace(MARK, '').trimEnd();

/**
 * The edits that turn `a` into `b` (a longest common subsequence of lines): the lines of `a`
 * changed or taken out (1-based), and the places in `a` where lines were added (after line n).
 */
function lineEdits(a: string[], b: string[]): { changed: number[], added: Array<{ after: number, text: string }> } {
    const n = a.length, m = b.length;
    const lcs = Array.from({ length: n + 1 }, () => new Array<number>(m + 1).fill(0));
    for (let i = n - 1; i >= 0; i--) for (let j = m - 1; j >= 0; j--) {
        lcs[i][j] = a[i] === b[j] ? lcs[i + 1][j + 1] + 1 : Math.max(lcs[i + 1][j], lcs[i][j + 1]);
    }
    const changed: number[] = [], added: Array<{ after: number, text: string }> = [];
    let i = 0, j = 0;
    while (i < n || j < m) {
        if (i < n && j < m && a[i] === b[j]) { i++; j++; }
        else if (j < m && (i === n || lcs[i][j + 1] >= lcs[i + 1][j])) { added.push({ after: i, text: b[j] }); j++; }
        else { changed.push(i + 1); i++; }
    }
    return { changed, added };
}

/** The lines (1-based) a block opened on line `first` spans: to its closing brace. */
function blockEnd(lines: string[], first: number): number {
    let depth = 0;
    for (let i = first - 1; i < lines.length; i++) {
        for (const ch of lines[i].replace(/\/\/.*$/, '')) {
            if (ch === '{') depth++;
            else if (ch === '}' && --depth === 0) return i + 1;
        }
        if (depth === 0) return first;
    }
    return lines.length;
}

const cases = corpus();

describe('the broken corpus: every problem in the first check', () => {
    it('has files for each rule set, and a twin for each', () => {
        expect([...new Set(cases.map(c => c.rules))]).toEqual(['ancients', 'loose-files', 'scrud']);
        for (const c of cases) expect(fs.existsSync(c.fixed), `${c.rules}/${c.name} has a fixed twin`).toBe(true);
    });

    for (const c of cases) {
        describe(`${c.rules}/${c.name}`, () => {
            const text = fs.readFileSync(c.broken, 'utf8');

            it('reports every mark and nothing else', async () => {
                const expected = marks(text);
                expect(expected.length).toBeGreaterThan(0);
                expect((await reported(c.broken)).sort()).toEqual(expected.sort());
            });

            it('its twin differs only where a problem was reported, and checks clean', async () => {
                const broken = text.split('\n').map(bare), fixed = fs.readFileSync(c.fixed, 'utf8').split('\n').map(bare);
                const at = new Set(marks(text).map(m => Number(m.split(' ')[0])));
                const { changed, added } = lineEdits(broken, fixed);
                expect(changed.length + added.length, 'the twin fixes something').toBeGreaterThan(0);
                expect(changed.filter(line => !at.has(line)), 'lines changed that no problem named').toEqual([]);
                const inReportedBlock = (after: number) => [...at].some(line => line <= after && after < blockEnd(broken, line));
                // A line rewritten is taken out and added in its place; a line moved is added elsewhere.
                const replaces = (after: number) => changed.includes(after) || changed.includes(after + 1);
                const moved = (text: string) => changed.some(line => broken[line - 1] === text);
                const stray = added.filter(a => !replaces(a.after) && !inReportedBlock(a.after) && !moved(a.text));
                expect(stray, 'lines added outside a reported block').toEqual([]);
                expect(await reported(c.fixed)).toEqual([]);
            });
        });
    }
});
