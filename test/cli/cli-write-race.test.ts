/**
 * Another program saves the file while `umpire resolve --write` runs (issue 19): before each of the
 * write's file operations in turn, an editor's save lands, written in place (as VS Code and
 * fs.writeFile do) or by renaming a new file over the old (as Emacs and vim do). In every case the
 * editor's text must survive, and what the CLI says must be what is on disk.
 * scripts/write-race.mjs runs the real CLI against a real second process, 100 times.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { actBefore, runWrite, scratchDir, SMALL } from './cli-write-support.js';

const MARK = '// saved by the editor meanwhile\n';
const EDITED = SMALL + MARK;

let dir: string;
let file: string;
beforeEach(() => {
    dir = scratchDir();
    file = path.join(dir, 'small.battle');
    fs.writeFileSync(file, SMALL);
});
afterEach(() => { fs.rmSync(dir, { recursive: true, force: true }); });

const saves = {
    'in place': () => fs.writeFileSync(file, EDITED),
    'by rename': () => {
        fs.writeFileSync(path.join(dir, 'small.battle.new'), EDITED);
        fs.renameSync(path.join(dir, 'small.battle.new'), file);
    }
};

describe('a save by another program during resolve --write', () => {
    for (const [style, save] of Object.entries(saves)) {
        it(`survives whichever file operation it comes before, but for the one window left (saved ${style})`, async () => {
            // How many operations a run makes with nobody interfering.
            const quiet = actBefore(-1, () => undefined);
            expect((await runWrite(file, quiet.io)).code).toBe(0);
            const resolved = fs.readFileSync(file, 'utf8');
            const codes = new Map<number, number>();
            const lost: string[] = [];
            for (let at = 0; at <= quiet.calls.length; at++) {
                fs.writeFileSync(file, SMALL);
                const { io, calls } = actBefore(at, save);
                const run = await runWrite(file, io);
                if (at === quiet.calls.length) save(); // after the run: an ordinary later save
                codes.set(run.code, (codes.get(run.code) ?? 0) + 1);
                const disk = fs.readFileSync(file, 'utf8');
                const where = `before operation ${at} (${calls[at] ?? 'after the run'})`;
                if (!disk.includes(MARK)) { lost.push(where); continue; }
                const others = fs.readdirSync(dir).filter(n => n !== 'small.battle');
                if (run.code === 0) {
                    // Saved before the file was read: its text was resolved; or after the write was checked.
                    expect(disk === EDITED || disk === resolved + MARK || /outcome seed 3[\s\S]*\/\/ saved by the editor/.test(disk), where).toBe(true);
                    expect(run.lines[run.lines.length - 1], where).toMatch(/wrote 2 outcomes\.$/);
                    expect(others, where).toEqual([]);
                } else if (run.code === 3) {
                    expect(disk, where).toBe(EDITED);
                    expect(run.message, where).toMatch(/nothing was written|were not kept/);
                    expect(others, where).toEqual([]);
                } else {
                    // The save came between the write and its check: the old text is kept and named.
                    expect(run.code, where).toBe(5);
                    expect(disk, where).toBe(EDITED);
                    expect(others, where).toHaveLength(1);
                    expect(run.message, where).toContain(path.join(dir, others[0]));
                    expect(fs.readFileSync(path.join(dir, others[0]), 'utf8'), where).toBe(SMALL);
                    fs.rmSync(path.join(dir, others[0]));
                }
            }
            // Both sides of the write were reached: saves it saw in time, and saves after it.
            expect(codes.get(0)).toBeGreaterThan(0);
            expect(codes.get(3)).toBeGreaterThan(0);
            // The one window left (ARCHITECTURE.md, "Writing the file"): a save written in place between
            // the last read and the write itself is overwritten unseen; a rename is always seen.
            expect(lost).toEqual(style === 'in place' ? [expect.stringMatching(/\(writeSync\)$/)] : []);
        }, 120_000);
    }
});
