/**
 * How the command line reads in a terminal and in a pipe: tables lined up by the columns a name takes
 * on screen (a name in CJK letters takes two a letter), no difference printed as "−0.0", problems of a
 * what-if's changed set-up told at the lines of the file on disk, and results alone on stdout, in
 * order, with what stopped a command on stderr.
 */
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import stringWidth from 'string-width';
import { afterAll, describe, expect, it } from 'vitest';
import { signed } from '../../src/cli/odds-command.js';
import { statusCommand } from '../../src/cli/status-command.js';
import { placeBefore } from '../../src/report/what-if.js';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'umpire-output-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

const WIDE = `scenario "長篠"
rules scrud
grade Veteran +1
force 織田 {
  unit 鉄砲隊 foot Veteran x2
  unit Ashigaru foot
}
force 武田 {
  unit 騎兵隊 foot
  unit Samurai foot Veteran
}
engagement 長篠 {
  武田.騎兵隊, 武田.Samurai attacks 織田.鉄砲隊, 織田.Ashigaru
  seed 1575
}
`;

/** Dice of a d8 entered on the table: without the option, they are faces a d6 does not have. */
const EIGHTS = `scenario "Eights"
rules scrud
option die d8

grade Line 0

force French {
  unit Ligne foot Line
}

force Prussian {
  unit Fusiliers foot Line
}

engagement Guns {
  French.Ligne attacks Prussian.Fusiliers
  dice French.Ligne 8
  dice Prussian.Fusiliers 7
}
`;

function umpire(...args: string[]) {
    const r = spawnSync(process.execPath, ['bin/umpire.cjs', ...args], { encoding: 'utf8' });
    return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

/** The screen column at which each cell of a table's line starts (cells are 2 spaces or more apart). */
function columnsOf(line: string): number[] {
    const starts: number[] = [];
    for (const m of line.matchAll(/(?:^|(?<= {2}))(?! )\S/g)) starts.push(stringWidth(line.slice(0, m.index)));
    return starts;
}

describe('tables with names of wide characters', () => {
    it('umpire status lines every column up on screen', async () => {
        const file = path.join(dir, 'nagashino.battle');
        fs.writeFileSync(file, WIDE);
        const lines: string[] = [];
        await statusCommand(file, {}, l => lines.push(l));
        // The state table, down to the blank line above the season's luck.
        const table = lines.slice(2, lines.indexOf('', 2));
        // 織田 takes four columns on screen, one less than "Force": one space to pad, two between columns.
        expect(table[2]).toMatch(/^織田 {3}鉄砲隊#1 /);
        const columns = table.filter(l => !l.startsWith('─')).map(columnsOf);
        // Every row's cells start where the header's do: the wide names take their two columns each.
        expect(columns).toHaveLength(6);
        for (const c of columns) expect(c.slice(0, 4)).toEqual(columns[0].slice(0, 4));
        // The rule under the header is as wide on screen as the widest unit name, 鉄砲隊#1.
        expect(table[1].split('  ')[1]).toBe('─'.repeat(stringWidth('鉄砲隊#1')));
    });

    it('umpire odds lines its figures up under their headings', () => {
        const file = path.join(dir, 'nagashino.battle');
        fs.writeFileSync(file, WIDE);
        const r = umpire('odds', file);
        expect(r.code).toBe(0);
        const all = r.stdout.split('\n');
        const rows = all.slice(all.findIndex(l => l.endsWith('exact odds')) + 1, all.findIndex(l => l.includes('per side')));
        expect(rows.map(row => row.trim().split(/ +/)[0])).toEqual(['unit', '武田.騎兵隊', '武田.Samurai', '織田.鉄砲隊#1', '織田.鉄砲隊#2', '織田.Ashigaru']);
        // Figures are right-aligned: each row's cells end at the same screen columns as the header's.
        const ends = (line: string) => [...line.matchAll(/\S+(?= {2}|$)/g)].map(m => stringWidth(line.slice(0, m.index! + m[0].length)));
        for (const row of rows) expect(ends(row).slice(1)).toEqual(ends(rows[0]).slice(1));
    });
});

describe('what-if differences', () => {
    it('say 0 for none, and +<0.1 or −<0.1 for one too small to show: never −0.0', () => {
        expect(signed(0, 1)).toBe('0');
        expect(signed(-1e-14, 1)).toBe('0');
        expect(signed(-0.04, 1)).toBe('−<0.1');
        expect(signed(0.004, 2)).toBe('+<0.01');
        expect(signed(-3.25, 1)).toBe('−3.3');
        expect(signed(12.34, 1)).toBe('+12.3');
    });

    it('print no −0.0 or +0.0 in the ridge\'s differences', () => {
        const r = umpire('odds', 'examples/scrud-ridge.battle', '-e', 'Ridge', '--what-if', 'option die d7');
        expect(r.code).toBe(0);
        const difference = r.stdout.slice(r.stdout.indexOf('Difference'));
        expect(difference).toMatch(/[+−]<0\.1\b/);
        expect(difference).not.toMatch(/[+−]0\.0+(?!\d)/);
    });
});

describe('problems of a what-if\'s changed set-up', () => {
    it('are told at the line of the file on disk, naming the what-if that put the text there', () => {
        const r = umpire('odds', 'examples/scrud-ridge.battle', '-e', 'Ridge', '--what-if', 'without Uphill', '--what-if', 'with Woods on Nowhere');
        expect(r.code).toBe(1);
        expect(r.stdout).toBe('');
        const [problem, stop] = r.stderr.trimEnd().split('\n');
        // The added factor goes after `seed 1806`, line 47 of the file (line 46 of the copy without Uphill).
        expect(problem).toBe("examples/scrud-ridge.battle:47:12 error unknown-reference There is no force named 'Nowhere'. (what if without Uphill; with Woods on Nowhere: in what 'with Woods on Nowhere' puts here)");
        expect(stop).toMatch(/the set-up what if without Uphill; with Woods on Nowhere has the errors above$/);
    });

    it('are told at the line of the file on disk when the change makes an error of a line it left alone (the removed line above moves it up in the copy)', () => {
        const file = path.join(dir, 'eights.battle');
        fs.writeFileSync(file, EIGHTS);
        expect(umpire('check', file).code).toBe(0);
        const r = umpire('odds', file, '-e', 'Guns', '--what-if', 'without option die');
        expect(r.code).toBe(1);
        // The dice lines are 17 and 18 of the file (16 and 17 of the copy without `option die d8`).
        expect(r.stderr.trimEnd().split('\n').slice(0, 2)).toEqual([
            `${file}:17:21 error die-face A d6 cannot show 8: its faces are 1, 2, 3, 4, 5, 6. (what if without option die)`,
            `${file}:18:27 error die-face A d6 cannot show 7: its faces are 1, 2, 3, 4, 5, 6. (what if without option die)`
        ]);
    });

    it('are read back through each edit: a place after a removed line moves up, one in added text is the place it went in', () => {
        const edits = [{ offset: 10, end: 20, text: '' }, { offset: 30, end: 30, text: 'added' }];
        expect(placeBefore(edits, 5)).toEqual({ offset: 5, added: false });
        expect(placeBefore(edits, 10)).toEqual({ offset: 20, added: false });
        expect(placeBefore(edits, 19)).toEqual({ offset: 29, added: false });
        expect(placeBefore(edits, 22)).toEqual({ offset: 30, added: true });
        expect(placeBefore(edits, 25)).toEqual({ offset: 30, added: false });
        expect(placeBefore(edits, 26)).toEqual({ offset: 31, added: false });
    });
});

describe('stdout and stderr', () => {
    it('umpire check: the problems and then how it went, all on stdout, in order', () => {
        const r = umpire('check', 'examples/broken-scrud.battle', 'examples/scrud-seed.battle');
        expect(r.stderr).toBe('');
        const lines = r.stdout.trimEnd().split('\n');
        expect(lines.at(-1)).toMatch(/^12 problems \(12 errors\) in 2 files$/);
        expect(lines.slice(0, -1).every(l => l.startsWith('examples/broken-scrud.battle:'))).toBe(true);
    });

    it('a command a file\'s errors stop prints nothing on stdout, and says why on stderr, with the exit code kept', () => {
        for (const command of [['resolve'], ['odds'], ['report'], ['status']]) {
            const r = umpire(...command, 'examples/broken-scrud.battle');
            // status reads a file with errors (it says so); the others stop.
            if (command[0] === 'status') {
                expect(r.code).toBe(0);
                expect(r.stderr).toMatch(/^umpire: examples\/broken-scrud\.battle has 12 errors \('umpire check examples\/broken-scrud\.battle' lists them\); the state reads the file as it is\.\n$/);
                continue;
            }
            expect([command[0], r.code, r.stdout]).toEqual([command[0], 1, '']);
            expect(r.stderr.trimEnd().split('\n')).toHaveLength(13);
        }
    });

    it('umpire resolve --seed says under each action whose dice were entered that the seed is not used for it, in order', () => {
        const r = umpire('resolve', 'examples/scrud-ridge.battle', '--seed', '7');
        expect([r.code, r.stderr]).toEqual([0, '']);
        const lines = r.stdout.split('\n');
        const guns = lines.findIndex(l => l.startsWith('engagement Guns'));
        expect(lines[guns + 1]).toBe('  (its dice were entered from the table; --seed 7 is not used for it.)');
        expect(lines.filter(l => l.includes('--seed 7 is not used'))).toHaveLength(1);
        const json = umpire('resolve', 'examples/scrud-ridge.battle', '--seed', '7', '--json');
        expect(() => JSON.parse(json.stdout)).not.toThrow();
        expect(json.stderr).toBe('umpire: Guns: its dice were entered from the table; --seed 7 is not used for it.\n');
    });
});
