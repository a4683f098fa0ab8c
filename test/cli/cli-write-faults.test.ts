/**
 * What the file system does to `umpire resolve --write`: a file deleted, moved, made
 * read-only or unreadable at any moment of the write; symbolic and hard links, mode and owner; a run
 * killed while writing; text that is not UTF-8. Each gets a one-line message and its exit code
 * (docs/campaigns.md), the file is what the message says, and no file is left behind but a named backup.
 */
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ensureServerBundle } from '../protocol/lsp-harness.js';
import { actBefore, runWrite, scratchDir, SMALL } from './cli-write-support.js';

let dir: string;
let file: string;
let resolved: string;
const isRoot = process.getuid?.() === 0;

beforeAll(async () => {
    const d = scratchDir();
    fs.writeFileSync(path.join(d, 'small.battle'), SMALL);
    expect((await runWrite(path.join(d, 'small.battle'))).code).toBe(0);
    resolved = fs.readFileSync(path.join(d, 'small.battle'), 'utf8');
    fs.rmSync(d, { recursive: true, force: true });
});
beforeEach(() => {
    dir = scratchDir();
    file = path.join(dir, 'small.battle');
    fs.writeFileSync(file, SMALL);
});
afterEach(() => { fs.rmSync(dir, { recursive: true, force: true }); });

const listing = () => fs.readdirSync(dir).sort();

/** How many file operations a quiet run makes. */
async function operations(): Promise<number> {
    const quiet = actBefore(-1, () => undefined);
    await runWrite(file, quiet.io);
    fs.writeFileSync(file, SMALL);
    return quiet.calls.length;
}

describe('the file taken away during the write', () => {
    it('deleted before any file operation: exit 3 (2 before it was read) or written, one line, nothing left behind', async () => {
        const n = await operations();
        const seen = new Set<number>();
        for (let at = 0; at < n; at++) {
            fs.writeFileSync(file, SMALL);
            // While the file is being swapped its path names nothing for a moment: there is nothing to delete then.
            let deleted = false;
            const run = await runWrite(file, actBefore(at, () => { deleted = fs.existsSync(file); fs.rmSync(file, { force: true }); }).io);
            seen.add(run.code);
            if (!deleted) {
                expect(run.code, `at ${at}`).toBe(0);
                expect(listing()).toEqual(['small.battle']);
                continue;
            }
            expect([0, 2, 3], `at ${at}: ${run.message}`).toContain(run.code);
            if (run.code === 2) expect(run.message).toBe(`${file}: no such file`);
            if (run.code === 3) {
                expect(run.message).toMatch(/was deleted(,| or) moved(| or replaced) while it was being resolved: nothing was written|was deleted or replaced by another program while the outcomes were being written: they were not kept|was moved or deleted just after the outcomes were written/);
                expect(run.message).not.toContain('\n');
            }
            expect(listing(), `at ${at}`).toEqual([]);
        }
        expect(seen).toEqual(new Set([0, 2, 3]));
    });

    it('moved before any file operation: the message says where the outcomes are', async () => {
        const n = await operations();
        const moved = path.join(dir, 'moved.battle');
        for (let at = 0; at < n; at++) {
            fs.rmSync(moved, { force: true });
            fs.writeFileSync(file, SMALL);
            let didMove = false;
            const run = await runWrite(file, actBefore(at, () => { if (fs.existsSync(file)) { fs.renameSync(file, moved); didMove = true; } }).io);
            if (!didMove) {
                // The moment the path named nothing (the swap): the run went on and wrote.
                expect(run.code, `at ${at}`).toBe(0);
                expect(listing()).toEqual(['small.battle']);
                continue;
            }
            expect(listing(), `at ${at}`).toEqual(['moved.battle']);
            const there = fs.readFileSync(moved, 'utf8');
            if (run.code === 0) expect(there).toBe(resolved);
            else if (run.code === 2) expect(run.message).toBe(`${file}: no such file`);
            else {
                expect(run.code).toBe(3);
                if (/they are in the moved file/.test(run.message!)) expect(there).toBe(resolved);
                else {
                    expect(run.message).toMatch(/nothing was written/);
                    expect(there).toBe(SMALL);
                }
            }
        }
    });

    it('made read-only or unreadable before any file operation: exit 4 and unchanged, or written before', async () => {
        const n = await operations();
        for (const mode of [0o444, 0o000]) {
            for (let at = 0; at < n; at++) {
                fs.chmodSync(file, 0o644);
                fs.writeFileSync(file, SMALL);
                const run = await runWrite(file, actBefore(at, () => { if (fs.existsSync(file)) fs.chmodSync(file, mode); }).io);
                const text = fs.readFileSync(file, 'utf8');
                if (run.code === 0) expect(text).toBe(resolved);
                else {
                    expect(run.code, `mode ${mode.toString(8)} at ${at}: ${run.message}`).toBe(4);
                    expect(run.message).toMatch(mode === 0o444 ? /is read-only \(mode 0444\)|cannot be opened for writing \(EACCES\)/ : /can no longer be read \(mode 0000\)|cannot be opened for writing \(EACCES\)/);
                    expect(text).toBe(SMALL);
                }
                expect(listing()).toEqual(['small.battle']);
            }
        }
    });
});

describe('what the file is', () => {
    it('refuses a read-only file, also as root (the mode bits are checked, not only the open)', async () => {
        fs.chmodSync(file, 0o444);
        const run = await runWrite(file);
        expect(run.code).toBe(4);
        expect(run.message).toBe(`${file} is read-only (mode 0444): nothing was written. Make it writable (chmod u+w) to write the outcomes.`);
        expect(fs.readFileSync(file, 'utf8')).toBe(SMALL);
        expect(listing()).toEqual(['small.battle']);
    });

    it('keeps the mode and the owner of a file with one link, which gets the new text by a swap', async () => {
        fs.chmodSync(file, 0o640);
        // As root, give the file to another user: the new file is given to that user too.
        if (isRoot) fs.chownSync(file, 4321, 4321);
        const before = fs.statSync(file);
        expect((await runWrite(file)).code).toBe(0);
        const after = fs.statSync(file);
        expect(after.mode & 0o7777).toBe(0o640);
        expect([after.uid, after.gid]).toEqual([before.uid, before.gid]);
        expect(after.nlink).toBe(1);
        expect(fs.readFileSync(file, 'utf8')).toBe(resolved);
        expect(listing()).toEqual(['small.battle']);
    });

    it('keeps the mode, the owner and every hard link (the same file is written, not a new one)', async () => {
        const other = path.join(dir, 'other-name.battle');
        fs.linkSync(file, other);
        fs.chmodSync(file, 0o640);
        // As root, give the file to another user: a rename would have made it root's.
        if (isRoot) fs.chownSync(file, 4321, 4321);
        const before = fs.statSync(file);
        expect((await runWrite(file)).code).toBe(0);
        const after = fs.statSync(file);
        expect(after.ino).toBe(before.ino);
        expect(after.mode & 0o7777).toBe(0o640);
        expect([after.uid, after.gid]).toEqual([before.uid, before.gid]);
        expect(after.nlink).toBe(2);
        expect(fs.readFileSync(other, 'utf8')).toBe(resolved);
        expect(listing()).toEqual(['other-name.battle', 'small.battle']);
    });

    it('writes the real file through a symbolic link, which stays a link', async () => {
        fs.mkdirSync(path.join(dir, 'real'));
        const real = path.join(dir, 'real', 'campaign.battle');
        fs.renameSync(file, real);
        fs.symlinkSync(real, file);
        expect((await runWrite(file)).code).toBe(0);
        expect(fs.lstatSync(file).isSymbolicLink()).toBe(true);
        expect(fs.readFileSync(real, 'utf8')).toBe(resolved);
        expect(fs.readdirSync(path.join(dir, 'real'))).toEqual(['campaign.battle']);
    });

    it('refuses text that is not UTF-8: writing it back would change bytes outside the outcomes', async () => {
        const latin1 = Buffer.concat([Buffer.from(SMALL), Buffer.from('// Fran\xe7ais\n', 'latin1')]);
        fs.writeFileSync(file, latin1);
        const run = await runWrite(file);
        expect(run.code).toBe(4);
        expect(run.message).toMatch(/is not valid UTF-8 text/);
        expect(fs.readFileSync(file).equals(latin1)).toBe(true);
    });

    it('puts the old text back when the disk fails halfway through the write, and says so', async () => {
        let mainWrites = 0;
        const { io } = actBefore(-1, () => undefined, {
            ...(await import('../../src/cli/atomic-write.js')).nodeIo,
            writeSync: (fd, data, offset, position) => {
                // The backup is written first; the second write is the file's own: half of it, then a full disk.
                if (data.length === Buffer.byteLength(resolved) && mainWrites++ === 0) {
                    fs.writeSync(fd, data, offset, 40, position);
                    return 40;
                }
                if (data.length === Buffer.byteLength(resolved)) throw Object.assign(new Error('ENOSPC: no space left on device'), { code: 'ENOSPC' });
                return fs.writeSync(fd, data, offset, data.length - offset, position);
            }
        });
        const run = await runWrite(file, io);
        expect(run.code).toBe(4);
        expect(run.message).toBe(`${file} could not be written (ENOSPC: no space left on device): it is unchanged.`);
        expect(fs.readFileSync(file, 'utf8')).toBe(SMALL);
        expect(listing()).toEqual(['small.battle']);
    });
});

describe('a run killed while writing (SIGKILL in the real CLI)', () => {
    beforeAll(() => ensureServerBundle());

    /**
     * Runs bin/umpire.cjs with fs patched to kill the process at one moment of the write: while it
     * writes the new text beside the file (`new-file`; with another hard link, the backup), between
     * moving the file aside and linking the new one (`swap`), half-way through writing the file itself
     * in place (`mid-write`, with another hard link), or before removing the backup (`before-cleanup`).
     */
    function killedRun(when: 'new-file' | 'swap' | 'mid-write' | 'before-cleanup'): number | null {
        const preload = path.join(dir, '..', `${path.basename(dir)}-kill.cjs`);
        fs.writeFileSync(preload, `
const fs = require('node:fs');
const when = ${JSON.stringify(when)};
const target = ${JSON.stringify(file)};
const named = fd => { try { return fs.readlinkSync('/proc/self/fd/' + fd); } catch { return ''; } };
const write = fs.writeSync, unlink = fs.unlinkSync, link = fs.linkSync;
const half = (fd, data, offset, length, position) => { write.call(fs, fd, data, offset, Math.floor(length * 0.8), position); process.kill(process.pid, 'SIGKILL'); };
fs.writeSync = function (fd, data, offset, length, position) {
    if (when === 'new-file' && named(fd).includes('.umpire-new-')) half(fd, data, offset, length, position);
    if (when === 'mid-write' && named(fd) === target) half(fd, data, offset, length, position);
    return write.apply(fs, arguments);
};
fs.linkSync = function (from, to) {
    if (when === 'swap' && to === target) process.kill(process.pid, 'SIGKILL');
    return link.apply(fs, arguments);
};
fs.unlinkSync = function (p) {
    if (when === 'before-cleanup' && p.includes('.umpire-backup-')) process.kill(process.pid, 'SIGKILL');
    return unlink.apply(fs, arguments);
};`);
        try {
            const r = spawnSync(process.execPath, ['--require', preload, path.resolve('bin/umpire.cjs'), 'resolve', file, '--write'], { encoding: 'utf8' });
            return r.status;
        } finally {
            fs.rmSync(preload);
        }
    }

    const backupIn = () => listing().filter(n => n.startsWith('.small.battle.umpire-backup-'));
    const newIn = () => listing().filter(n => n.startsWith('.small.battle.umpire-new-'));
    const hardLink = () => fs.linkSync(file, path.join(dir, 'other-name.battle'));

    for (const linked of [false, true]) {
        it(`while writing the new text${linked ? ' (the backup, for a file with another hard link)' : ''}: the file is untouched, and the next run removes the half file and writes`, async () => {
            if (linked) hardLink();
            expect(killedRun('new-file')).toBeNull();
            expect(fs.readFileSync(file, 'utf8')).toBe(SMALL);
            expect(newIn()).toHaveLength(1);
            expect(backupIn()).toEqual([]);
            const next = await runWrite(file);
            expect(next.code).toBe(0);
            expect(fs.readFileSync(file, 'utf8')).toBe(resolved);
            expect(listing()).toEqual(linked ? ['other-name.battle', 'small.battle'] : ['small.battle']);
        });
    }

    it('between moving the file aside and putting the new one in its place: the next run says which backup to rename back', async () => {
        expect(killedRun('swap')).toBeNull();
        expect(fs.existsSync(file)).toBe(false);
        const [backup] = backupIn();
        expect(fs.readFileSync(path.join(dir, backup), 'utf8')).toBe(SMALL);
        const next = await runWrite(file);
        expect(next.code).toBe(5);
        expect(next.message).toBe(`${file} is missing: an earlier 'umpire resolve --write' was stopped while writing it; its text from before is kept in ${path.join(dir, backup)}. Rename it back to ${file}.`);
        fs.renameSync(path.join(dir, backup), file);
        expect((await runWrite(file)).code).toBe(0);
        expect(fs.readFileSync(file, 'utf8')).toBe(resolved);
        expect(listing()).toEqual(['small.battle']);
    });

    it('halfway through a file written in place (another hard link): the next run writes nothing and names the backup, which holds the text from before', async () => {
        hardLink();
        expect(killedRun('mid-write')).toBeNull();
        const half = fs.readFileSync(file, 'utf8');
        expect(half).not.toBe(SMALL);
        const [backup] = backupIn();
        expect(fs.readFileSync(path.join(dir, backup), 'utf8')).toBe(SMALL);
        const next = await runWrite(file);
        expect(next.code).toBe(5);
        expect(next.message).toBe(`${file}: an earlier 'umpire resolve --write' was stopped while writing it; its text from before is kept in ${path.join(dir, backup)}. Compare the two, keep the right text, then delete ${path.join(dir, backup)}.`);
        expect(fs.readFileSync(file, 'utf8')).toBe(half);
        // Once the umpire has put the text back and deleted the backup, the write goes through.
        fs.writeFileSync(file, fs.readFileSync(path.join(dir, backup)));
        fs.rmSync(path.join(dir, backup));
        expect((await runWrite(file)).code).toBe(0);
        expect(fs.readFileSync(file, 'utf8')).toBe(resolved);
    });

    it('after the write, before the backup was removed: the next run sees the file whole and removes it', async () => {
        expect(killedRun('before-cleanup')).toBeNull();
        expect(fs.readFileSync(file, 'utf8')).toBe(resolved);
        expect(backupIn()).toHaveLength(1);
        const next = await runWrite(file);
        expect(next.code).toBe(0);
        expect(next.lines[next.lines.length - 1]).toBe(`${file}: every outcome is written and current; nothing changed.`);
        expect(listing()).toEqual(['small.battle']);
    });
});
