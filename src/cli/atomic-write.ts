/**
 * Writing the umpire's file without losing anyone's text, whenever another program saves it.
 *
 * No in-place write can be made conditional on what the file holds at that instant: whatever is
 * checked last, a save that lands between that check and the write is overwritten unseen (a run
 * paused there by a loaded machine lost most such saves). So a file with one link is not overwritten
 * at all: the new text goes into a new file beside it, with the file's mode and owner, and the two
 * trade places by a rename and a link, neither of which can destroy a save:
 *
 * 1. Open the real file (through symbolic links); refuse one whose mode bits forbid reading or
 *    writing, even to root. Read it: it must be byte for byte the text the outcomes were computed from.
 * 2. Write the new text to `.NAME.umpire-new-<digest>`, flushed, with the file's mode and owner.
 * 3. Rename the file to `.NAME.umpire-backup-<digest>`: whatever the path names at that instant is
 *    kept whole (the file, or a file another program renamed over it, which is put back).
 * 4. Link the new file at the path: this fails if another program made a file there in the meantime,
 *    and then that save is the file and nothing is written.
 * 5. Read the old file again through the descriptor: a save written into it, in place or appended,
 *    before the swap is there; it is kept as `.NAME.umpire-kept-<digest>` and the message names it.
 *    Otherwise it is removed.
 * 6. Read the path back: only what is on disk is reported.
 *
 * A file with other hard links, or an owner a new file cannot be given (not root, another user's
 * file), is written in place through the descriptor after a backup, as every link must see the new
 * text (`writeInPlace`): there a save in place between the last read and the write is the one case
 * not seen. A killed run leaves the new file (removed by the next run: it is never anyone's only
 * copy), or the backup, which the next run removes when the file is whole and otherwise names,
 * writing nothing; a run killed between steps 3 and 4 leaves the path empty, and the next says
 * which backup to rename back.
 *
 * No lock is taken: editors take none, and a lock only they would honour guards nothing here.
 */
import * as crypto from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';

/** The file operations used, so that a test can make one of them fail. */
export interface WriteIo {
    realpathSync(file: string): string;
    /** Follows symbolic links. */
    statSync(file: string): fs.Stats;
    openSync(file: string, flags: string, mode?: number): number;
    fstatSync(fd: number): fs.Stats;
    /** Reads up to `length` bytes at `position`; 0 at the end of the file. */
    readSync(fd: number, buffer: Uint8Array, offset: number, length: number, position: number): number;
    /** Writes `data` from `offset` on at file position `position`; returns how many bytes were written. */
    writeSync(fd: number, data: Uint8Array, offset: number, position: number): number;
    ftruncateSync(fd: number, length: number): void;
    fsyncSync(fd: number): void;
    fchownSync(fd: number, uid: number, gid: number): void;
    closeSync(fd: number): void;
    unlinkSync(file: string): void;
    readdirSync(dir: string): string[];
    readFileSync(file: string): Buffer;
    renameSync(from: string, to: string): void;
    /** Fails with EEXIST when `to` exists. */
    linkSync(existing: string, to: string): void;
    fchmodSync(fd: number, mode: number): void;
    /** The test-only pause at a stage of the write (`pauseFromEnvironment`); called before the operation that follows. */
    pause?(stage: WriteStage): void;
}

export const nodeIo: WriteIo = {
    realpathSync: file => fs.realpathSync(file),
    statSync: file => fs.statSync(file),
    openSync: (file, flags, mode) => fs.openSync(file, flags, mode),
    fstatSync: fd => fs.fstatSync(fd),
    readSync: (fd, buffer, offset, length, position) => fs.readSync(fd, buffer, offset, length, position),
    writeSync: (fd, data, offset, position) => fs.writeSync(fd, data, offset, data.length - offset, position),
    ftruncateSync: (fd, length) => fs.ftruncateSync(fd, length),
    fsyncSync: fd => fs.fsyncSync(fd),
    fchownSync: (fd, uid, gid) => fs.fchownSync(fd, uid, gid),
    closeSync: fd => fs.closeSync(fd),
    unlinkSync: file => fs.unlinkSync(file),
    readdirSync: dir => fs.readdirSync(dir),
    readFileSync: file => fs.readFileSync(file),
    renameSync: (from, to) => fs.renameSync(from, to),
    linkSync: (existing, to) => fs.linkSync(existing, to),
    fchmodSync: (fd, mode) => fs.fchmodSync(fd, mode),
    pause: stage => pauseFromEnvironment(stage)
};

/**
 * Why nothing, or not what was meant, was written; each kind has its exit code (docs/campaigns.md):
 * - `changed` (3): the file changed, moved or vanished while it was being resolved or written;
 * - `refused` (4): it cannot be written (read-only, no permission, no room for the backup, a disk
 *   error); it is unchanged;
 * - `backup` (5): what is on disk is not certainly what the umpire had or what was meant: the text from
 *   before is kept in the backup the message names.
 */
export type WriteFailure = 'changed' | 'refused' | 'backup';

export const EXIT_CODES: Readonly<Record<WriteFailure, number>> = { changed: 3, refused: 4, backup: 5 };

export class WriteError extends Error {
    constructor(readonly kind: WriteFailure, message: string, readonly backup?: string) {
        super(message);
    }
}

const BACKUP_TAG = '.umpire-backup-';

/** `.campaign.battle.umpire-backup-<digest of the new text>`, beside the real file. */
export function backupPath(target: string, newText: Buffer): string {
    return path.join(path.dirname(target), `.${path.basename(target)}${BACKUP_TAG}${digestOf(newText)}`);
}

function digestOf(bytes: Buffer): string {
    return crypto.createHash('sha256').update(bytes).digest('hex').slice(0, 16);
}

function errorText(err: unknown): string {
    return err instanceof Error ? err.message : String(err);
}

function octal(mode: number): string {
    return (mode & 0o7777).toString(8).padStart(4, '0');
}

/** Whether the mode bits let this process read (4) or write (2) the file; root is held to them too. */
function permitted(st: fs.Stats, bit: 4 | 2): boolean {
    if (typeof process.getuid !== 'function') return true; // Windows: the open itself says
    const uid = process.getuid();
    if (uid === 0) return (st.mode & (bit << 6 | bit << 3 | bit)) !== 0;
    if (st.uid === uid) return (st.mode & (bit << 6)) !== 0;
    if (st.gid === process.getgid!() || process.getgroups!().includes(st.gid)) return (st.mode & (bit << 3)) !== 0;
    return (st.mode & bit) !== 0;
}

function readAll(io: WriteIo, fd: number): Buffer {
    const chunks: Buffer[] = [];
    const chunk = Buffer.alloc(1 << 16);
    for (let position = 0; ;) {
        const n = io.readSync(fd, chunk, 0, chunk.length, position);
        if (n === 0) return Buffer.concat(chunks);
        chunks.push(Buffer.from(chunk.subarray(0, n)));
        position += n;
    }
}

function writeAll(io: WriteIo, fd: number, data: Buffer): void {
    // writeSync may write less than asked; keep going until everything is out.
    for (let done = 0; done < data.length;) {
        const n = io.writeSync(fd, data, done, done);
        if (n <= 0) throw new Error('the disk accepted no more bytes');
        done += n;
    }
}

/**
 * Backups left by a run that was killed while writing `file`: removed when the file is whole (it
 * holds the text from before, or the new text the backup's name records); otherwise the umpire is
 * told which backup holds the text from before, and nothing is written until it is dealt with.
 */
export function checkLeftoverBackups(file: string, io: WriteIo = nodeIo): void {
    let target: string;
    let names: string[];
    try {
        target = io.realpathSync(file);
    } catch {
        target = path.resolve(file);
    }
    try {
        names = io.readdirSync(path.dirname(target));
    } catch {
        return; // a folder that cannot be listed: the read or the write says so
    }
    const prefix = `.${path.basename(target)}`;
    // The new text of a run stopped before its swap, or a backup stopped half-way: never anyone's only copy.
    for (const name of names.filter(n => n.startsWith(prefix + NEW_TAG))) removeQuietly(io, path.join(path.dirname(target), name));
    for (const name of names.filter(n => n.startsWith(prefix + BACKUP_TAG))) {
        const backup = path.join(path.dirname(target), name);
        let now: Buffer | undefined;
        try {
            now = io.readFileSync(target);
        } catch {
            now = undefined;
        }
        if (now === undefined) {
            // Stopped between moving the file aside and putting the new one in its place.
            throw new WriteError('backup', `${file} is missing: an earlier 'umpire resolve --write' was stopped while writing it; its text from before is kept in ${backup}. Rename it back to ${file}.`, backup);
        }
        let whole = false;
        try {
            whole = now.equals(io.readFileSync(backup)) || backupPath(target, now) === backup;
        } catch {
            whole = false;
        }
        if (!whole) {
            throw new WriteError('backup', `${file}: an earlier 'umpire resolve --write' was stopped while writing it; its text from before is kept in ${backup}. Compare the two, keep the right text, then delete ${backup}.`, backup);
        }
        removeQuietly(io, backup);
    }
}

/**
 * The moments of `resolve --write` at which a test may pause it (`UMPIRE_WRITE_PAUSE`, below), in
 * the order a run reaches them: before and after the first read; with the file open, before and
 * after the verification read; the new text written beside the file; the file swapped out (its path
 * briefly names nothing); the new file in place; the old one checked; the file read back. A file
 * written in place (one with other hard links, or an owner a new file cannot be given) passes
 * `backed-up` and `last-check` (after its last read, just before its write) instead of the swap's.
 */
export const WRITE_STAGES = ['before-read', 'after-read', 'opened', 'verified', 'prepared', 'swapping', 'swapped', 'checked', 'backed-up', 'last-check', 'written', 'read-back'] as const;
export type WriteStage = typeof WRITE_STAGES[number];

/**
 * The test-only pause: when `UMPIRE_WRITE_PAUSE` names a stage, the run stops there, says so on
 * stderr (`umpire: paused at STAGE`) and waits for a line on stdin before going on, so that a test
 * can save the file from another process at exactly that moment. Nothing sets it in production.
 */
export function pauseFromEnvironment(stage: WriteStage): void {
    if (process.env.UMPIRE_WRITE_PAUSE !== stage) return;
    fs.writeSync(2, `umpire: paused at ${stage}\n`);
    const one = Buffer.alloc(1);
    for (;;) {
        try {
            if (fs.readSync(0, one, 0, 1, null) === 0 || one[0] === 10) return;
        } catch (err) {
            if ((err as NodeJS.ErrnoException).code !== 'EAGAIN') return;
        }
    }
}

/**
 * Replaces `file`'s text with `text` if the file still holds `expected` (the bytes the new text was
 * computed from). Returns only when the file on disk holds `text` (or `text` and what another
 * program appended to it since); otherwise throws a WriteError saying what is where.
 */
export function replaceFileText(file: string, text: string, expected: Buffer | string, io: WriteIo = nodeIo): void {
    const before = typeof expected === 'string' ? Buffer.from(expected, 'utf8') : expected;
    const after = Buffer.from(text, 'utf8');
    let target: string;
    let fd: number;
    try {
        target = io.realpathSync(file);
        fd = io.openSync(target, 'r+');
    } catch (err) {
        const code = (err as NodeJS.ErrnoException).code;
        if (code === 'ENOENT' || code === 'ENOTDIR') throw changed(file, 'was deleted or moved');
        if (code === 'EACCES' || code === 'EPERM' || code === 'EROFS') throw new WriteError('refused', `${file} cannot be opened for writing (${code}): nothing was written.`);
        throw new WriteError('refused', `${file} could not be written (${errorText(err)}): it is unchanged.`);
    }
    try {
        const st = io.fstatSync(fd);
        if (!st.isFile()) throw new WriteError('refused', `${file} is not a regular file: nothing was written.`);
        if (!permitted(st, 4)) throw new WriteError('refused', `${file} can no longer be read (mode ${octal(st.mode)}): nothing was written.`);
        if (!permitted(st, 2)) throw new WriteError('refused', `${file} is read-only (mode ${octal(st.mode)}): nothing was written. Make it writable (chmod u+w) to write the outcomes.`);
        io.pause?.('opened');
        if (!readAll(io, fd).equals(before)) throw changed(file, 'changed');
        io.pause?.('verified');
        const fresh = st.nlink === 1 ? newFileBeside(io, file, target, after, st) : undefined;
        if (fresh) swapIn(io, { file, target, fd, before, after, fresh });
        else writeInPlace(io, { file, target, fd, before, after, st });
    } catch (err) {
        if (err instanceof WriteError) throw err;
        // Anything else failed before the file was touched (the writes have their own handlers).
        throw new WriteError('refused', `${file} could not be written (${errorText(err)}): it is unchanged.`);
    } finally {
        try { io.closeSync(fd); } catch { /* flushed already: the data is on disk */ }
    }
}

function changed(file: string, what: string): WriteError {
    return new WriteError('changed', `${file} ${what} while it was being resolved: nothing was written. Run the command again.`);
}

interface Swap {
    file: string;
    target: string;
    /** The file as opened and verified. */
    fd: number;
    before: Buffer;
    after: Buffer;
    /** The new text, flushed, in a file beside it with the file's mode and owner. */
    fresh: string;
}

const NEW_TAG = '.umpire-new-';
const KEPT_TAG = '.umpire-kept-';

/**
 * `.NAME.umpire-new-<digest>`: the new text, flushed, with the file's mode and owner; undefined when
 * the owner cannot be given to a new file (then the file is written in place).
 */
function newFileBeside(io: WriteIo, file: string, target: string, after: Buffer, st: fs.Stats): string | undefined {
    const fresh = path.join(path.dirname(target), `.${path.basename(target)}${NEW_TAG}${digestOf(after)}`);
    let fd: number;
    try {
        fd = io.openSync(fresh, 'wx', 0o600);
    } catch (err) {
        throw new WriteError('refused', `${file} could not be written (no new file could be made beside it: ${errorText(err)}): it is unchanged.`);
    }
    try {
        io.fchmodSync(fd, st.mode & 0o7777);
        const own = io.fstatSync(fd);
        if (own.uid !== st.uid || own.gid !== st.gid) {
            try {
                io.fchownSync(fd, st.uid, st.gid);
            } catch {
                io.closeSync(fd);
                io.unlinkSync(fresh);
                return undefined;
            }
        }
        writeAll(io, fd, after);
        io.fsyncSync(fd);
        io.closeSync(fd);
        return fresh;
    } catch (err) {
        try { io.closeSync(fd); } catch { /* already failing: report the first error */ }
        try { io.unlinkSync(fresh); } catch { /* already failing: report the first error */ }
        throw new WriteError('refused', `${file} could not be written (${errorText(err)}): it is unchanged.`);
    }
}

/**
 * The new file takes the old one's place without anything another program saves being overwritten:
 * 1. the path's file is moved aside to the backup name (one rename: whatever the path names at that
 *    instant, the file as verified or a file another program saved by renaming, is kept whole);
 * 2. the new file is linked at the path, which fails if another program made a file there meanwhile;
 * 3. the old file is read again: a save written in place, or appended, before the swap is in it,
 *    and it is kept under a name the message gives; otherwise it is removed;
 * 4. the path is read back: only what is on disk is reported.
 */
function swapIn(io: WriteIo, s: Swap): void {
    const { file, target, fd, after, fresh } = s;
    io.pause?.('prepared');
    const backup = backupPath(target, after);
    try {
        io.renameSync(target, backup);
    } catch (err) {
        removeQuietly(io, fresh);
        const code = (err as NodeJS.ErrnoException).code;
        if (code === 'ENOENT' || code === 'ENOTDIR') throw changed(file, 'was deleted or moved');
        throw new WriteError('refused', `${file} could not be written (${errorText(err)}): it is unchanged.`);
    }
    try {
        if (!sameFile(io, backup, io.fstatSync(fd))) putBack(io, s, backup);
        io.pause?.('swapping');
        io.linkSync(fresh, target);
    } catch (err) {
        removeQuietly(io, fresh);
        if (err instanceof WriteError) throw err;
        if ((err as NodeJS.ErrnoException).code === 'EEXIST') {
            // Another program made a file at the path while it named none: that is the file now. It may
            // hold only what the program appended, so the text from before is kept beside it, named.
            const kept = keepAside(io, s, backup);
            throw new WriteError('backup', `${file} was saved by another program while the outcomes were being written: nothing was written; the file holds that save, and the text from before is kept in ${kept}.`, kept);
        }
        putBackAfter(io, s, backup, err);
    }
    removeQuietly(io, fresh);
    io.pause?.('swapped');
    const kept = keepIfSavedInto(io, s, backup);
    if (kept) {
        throw new WriteError('backup', `${file}: the outcomes are written, but another program saved the file while they were being written; that save is kept in ${kept}. Compare the two and keep the right text.`, kept);
    }
    io.pause?.('checked');
    reportWhatIsOnDisk(io, file, target, after);
}

/** Something failed between the two halves of the swap: the old file goes back to its name, unchanged. */
function putBackAfter(io: WriteIo, s: Swap, backup: string, err: unknown): never {
    try {
        io.linkSync(backup, s.target);
    } catch {
        throw new WriteError('backup', `${s.file} could not be written (${errorText(err)}): its text is kept in ${backup}; rename it back to ${s.file}.`, backup);
    }
    removeQuietly(io, backup);
    throw new WriteError('refused', `${s.file} could not be written (${errorText(err)}): it is unchanged.`);
}

/** The path named another file at the swap (another program saved by renaming): it goes back, and nothing is written. */
function putBack(io: WriteIo, s: Swap, backup: string): never {
    removeQuietly(io, s.fresh);
    try {
        io.linkSync(backup, s.target);
        io.unlinkSync(backup);
    } catch {
        throw new WriteError('backup', `${s.file} was saved by another program while the outcomes were being written: nothing was written, and that save is kept in ${backup}.`, backup);
    }
    throw new WriteError('changed', `${s.file} was replaced by another program's save while the outcomes were being written: nothing was written; the file holds that save. Run the command again.`);
}

/**
 * The old file after the swap: removed when it holds the text resolved; otherwise another program
 * saved into it (in place, or appending) before the swap, and it is kept as `.NAME.umpire-kept-…`,
 * a name the next run leaves alone. Returns the name it is kept under.
 */
function keepIfSavedInto(io: WriteIo, s: Swap, backup: string): string | undefined {
    let now: Buffer;
    try {
        now = readAll(io, s.fd);
    } catch {
        return backup;
    }
    if (now.equals(s.before)) {
        removeQuietly(io, backup);
        return undefined;
    }
    return keepAside(io, s, backup, now);
}

/** The old file under `.NAME.umpire-kept-<digest>`, which no later run removes; the name it has. */
function keepAside(io: WriteIo, s: Swap, backup: string, text?: Buffer): string {
    let now = text;
    try {
        now ??= readAll(io, s.fd);
    } catch {
        return backup;
    }
    const kept = path.join(path.dirname(s.target), `.${path.basename(s.target)}${KEPT_TAG}${digestOf(now)}`);
    try {
        io.renameSync(backup, kept);
        return kept;
    } catch {
        return backup;
    }
}

/** Only what is on disk is reported: the new text (perhaps with another program's lines appended since). */
function reportWhatIsOnDisk(io: WriteIo, file: string, target: string, after: Buffer): void {
    let now: Buffer;
    try {
        now = io.readFileSync(target);
    } catch (err) {
        throw new WriteError('changed', `${file} was moved or deleted just after the outcomes were written (${errorText(err)}): if it was moved, they are in the moved file, not at ${file}.`);
    }
    io.pause?.('read-back');
    if (now.equals(after) || (now.length > after.length && now.subarray(0, after.length).equals(after))) return;
    throw new WriteError('changed', `${file}: the outcomes were written, but another program saved the file afterwards: the file holds that save, not the outcomes. Run the command again.`);
}

function removeQuietly(io: WriteIo, name: string): void {
    try { io.unlinkSync(name); } catch { /* gone already */ }
}

interface InPlace {
    file: string;
    target: string;
    fd: number;
    before: Buffer;
    after: Buffer;
    st: fs.Stats;
}

/**
 * A file with other hard links, or whose owner a new file cannot be given, is written in place
 * through the descriptor (so every link sees the new text and the owner stays), after a backup of
 * the old text. A save in place between its last read and its write is overwritten unseen (the
 * one window left, ARCHITECTURE.md "Writing the file"); a save by renaming is always seen.
 */
function writeInPlace(io: WriteIo, w: InPlace): void {
    const { file, target, fd, before, after, st } = w;
    const backup = backupPath(target, after);
    let backupMade = false;
    let keepBackup = false;
    try {
        try {
            makeBackup(io, backup, before, st);
            backupMade = true;
        } catch (err) {
            throw new WriteError('refused', `${file} could not be written (no backup could be made beside it: ${errorText(err)}): it is unchanged.`);
        }
        io.pause?.('backed-up');
        // The last look: the path still names this file, and it still holds the text resolved.
        if (!sameFile(io, file, io.fstatSync(fd))) throw changed(file, 'was deleted, moved or replaced');
        if (!readAll(io, fd).equals(before)) throw changed(file, 'changed');
        io.pause?.('last-check');
        try {
            writeAll(io, fd, after);
            if (after.length < before.length) io.ftruncateSync(fd, after.length);
            io.fsyncSync(fd);
        } catch (err) {
            // Put the old text back; only if that fails too is the backup the umpire's copy.
            try {
                writeAll(io, fd, before);
                io.ftruncateSync(fd, before.length);
                io.fsyncSync(fd);
            } catch {
                keepBackup = true;
                throw new WriteError('backup', `${file} could not be written (${errorText(err)}) and may be half-written: its text from before is kept in ${backup}.`, backup);
            }
            throw new WriteError('refused', `${file} could not be written (${errorText(err)}): it is unchanged.`);
        }
        io.pause?.('written');
        // Report only what is on disk.
        let there: boolean;
        let links = 1;
        try {
            there = sameFile(io, file, io.fstatSync(fd));
            // Still linked somewhere (moved), or not at all (deleted, or replaced by a rename)?
            if (!there) links = io.fstatSync(fd).nlink;
        } catch (err) {
            keepBackup = true;
            throw new WriteError('backup', `${file} was written but could not be checked afterwards (${errorText(err)}): its text from before is kept in ${backup}.`, backup);
        }
        if (!there) {
            // The text went into the file that was opened; the path now names another file or none.
            throw new WriteError('changed', links > 0
                ? `${file} was moved while the outcomes were being written: they are in the moved file, not at ${file}.`
                : `${file} was deleted or replaced by another program while the outcomes were being written: they were not kept. Run the command again.`);
        }
        const now = readAll(io, fd);
        io.pause?.('read-back');
        if (!now.equals(after)) {
            keepBackup = true;
            throw new WriteError('backup', `${file} changed while the outcomes were being written (another program saved it): what is on disk is not what umpire wrote. Its text from before is kept in ${backup}.`, backup);
        }
    } finally {
        if (backupMade && !keepBackup) removeQuietly(io, backup);
    }
}

/** Whether the path still names the file opened; an error other than "no such file" is thrown. */
function sameFile(io: WriteIo, file: string, opened: fs.Stats): boolean {
    let now: fs.Stats;
    try {
        now = io.statSync(file);
    } catch (err) {
        const code = (err as NodeJS.ErrnoException).code;
        if (code === 'ENOENT' || code === 'ENOTDIR') return false;
        throw err;
    }
    return now.ino === opened.ino && now.dev === opened.dev;
}

/**
 * The old text beside the file, as private as the file itself and owned by the file's owner. Written
 * under a temporary name and renamed when whole, so that a run killed while writing it leaves no
 * half backup for the next run to name (only a `.umpire-new-` file, which the next run removes).
 */
function makeBackup(io: WriteIo, backup: string, bytes: Buffer, st: fs.Stats): void {
    const partial = backup.replace(BACKUP_TAG, NEW_TAG);
    // 'wx': never write over a file that is already there.
    const fd = io.openSync(partial, 'wx', st.mode & 0o666);
    try {
        if (process.getuid?.() === 0) io.fchownSync(fd, st.uid, st.gid);
        writeAll(io, fd, bytes);
        io.fsyncSync(fd);
        io.closeSync(fd);
        io.renameSync(partial, backup);
    } catch (err) {
        try { io.closeSync(fd); } catch { /* already failing, or closed: report the first error */ }
        removeQuietly(io, partial);
        throw err;
    }
}
