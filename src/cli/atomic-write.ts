/**
 * Writing the umpire's file without losing anyone's text (issues 8 and 19).
 *
 * The file is written in place, through one open descriptor, never by renaming a new file over it:
 * a rename gives the path a new file, so a second hard link keeps the old text, an owner other than
 * the writer's is lost (as root the file became root's), and whatever another program saved between
 * the last check and the rename is gone without a trace. Written in place, the file keeps its mode,
 * owner, links and inode, and a save that lands in the old file is seen, because it is the same file.
 *
 * 1. Open the real file (through symbolic links) for reading and writing; refuse a file whose mode
 *    bits forbid writing or reading, even to root (root's open would succeed).
 * 2. Read it through the descriptor: it must be byte for byte the text the outcomes were computed from.
 * 3. Copy that text to a backup beside it, flushed to disk, named with a digest of the new text.
 * 4. Immediately before writing, read it again and check that the path still names this file.
 * 5. Write the new text at offset 0, cut the file to its length, flush.
 * 6. Read back through the descriptor and the path: only what is on disk is reported. When it is the
 *    new text, the backup is removed; when not (another program wrote meanwhile), the backup stays
 *    and the message names it.
 *
 * A failing write puts the old text back; only if that fails too does the backup stay. A killed run
 * leaves only the backup, which the next run removes when the file is whole (it holds the old text,
 * or the new one whose digest the name records) and otherwise names, refusing to write.
 *
 * No lock is taken: editors take none. What is left is the few microseconds between the read of
 * step 4 and the write of step 5, in which a save by a program writing in place would be overwritten
 * unseen; a program that saves by renaming is always seen (step 4 or 6).
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
    readFileSync: file => fs.readFileSync(file)
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
    const digest = crypto.createHash('sha256').update(newText).digest('hex').slice(0, 16);
    return path.join(path.dirname(target), `.${path.basename(target)}${BACKUP_TAG}${digest}`);
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
        names = io.readdirSync(path.dirname(target));
    } catch {
        return; // no file, or a folder that cannot be listed: the read or the write says so
    }
    const prefix = `.${path.basename(target)}${BACKUP_TAG}`;
    for (const name of names.filter(n => n.startsWith(prefix))) {
        const backup = path.join(path.dirname(target), name);
        let whole = false;
        try {
            const now = io.readFileSync(target);
            whole = now.equals(io.readFileSync(backup)) || backupPath(target, now) === backup;
        } catch {
            whole = false;
        }
        if (!whole) {
            throw new WriteError('backup', `${file}: an earlier 'umpire resolve --write' was stopped while writing it; its text from before is kept in ${backup}. Compare the two, keep the right text, then delete ${backup}.`, backup);
        }
        try { io.unlinkSync(backup); } catch { /* gone already, or another run removed it */ }
    }
}

/**
 * Replaces `file`'s text with `text`, in place, if the file still holds `expected` (the bytes the
 * new text was computed from). Returns only when the file on disk holds `text`; otherwise throws a
 * WriteError saying what is on disk.
 */
export function replaceFileText(file: string, text: string, expected: Buffer | string, io: WriteIo = nodeIo): void {
    const before = typeof expected === 'string' ? Buffer.from(expected, 'utf8') : expected;
    const after = Buffer.from(text, 'utf8');
    const changed = (what: string) => new WriteError('changed', `${file} ${what} while it was being resolved: nothing was written. Run the command again.`);
    let target: string;
    let fd: number;
    try {
        target = io.realpathSync(file);
        fd = io.openSync(target, 'r+');
    } catch (err) {
        const code = (err as NodeJS.ErrnoException).code;
        if (code === 'ENOENT' || code === 'ENOTDIR') throw changed('was deleted or moved');
        if (code === 'EACCES' || code === 'EPERM' || code === 'EROFS') throw new WriteError('refused', `${file} cannot be opened for writing (${code}): nothing was written.`);
        throw new WriteError('refused', `${file} could not be written (${errorText(err)}): it is unchanged.`);
    }
    const backup = backupPath(target, after);
    let backupMade = false;
    let keepBackup = false;
    try {
        const st = io.fstatSync(fd);
        if (!st.isFile()) throw new WriteError('refused', `${file} is not a regular file: nothing was written.`);
        if (!permitted(st, 4)) throw new WriteError('refused', `${file} can no longer be read (mode ${octal(st.mode)}): nothing was written.`);
        if (!permitted(st, 2)) throw new WriteError('refused', `${file} is read-only (mode ${octal(st.mode)}): nothing was written. Make it writable (chmod u+w) to write the outcomes.`);
        if (!readAll(io, fd).equals(before)) throw changed('changed');

        try {
            makeBackup(io, backup, before, st);
            backupMade = true;
        } catch (err) {
            throw new WriteError('refused', `${file} could not be written (no backup could be made beside it: ${errorText(err)}): it is unchanged.`);
        }

        // The last look: the path still names this file, and it still holds the text resolved.
        if (!sameFile(io, file, io.fstatSync(fd))) throw changed('was deleted, moved or replaced');
        if (!readAll(io, fd).equals(before)) throw changed('changed');

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
        if (!readAll(io, fd).equals(after)) {
            keepBackup = true;
            throw new WriteError('backup', `${file} changed while the outcomes were being written (another program saved it): what is on disk is not what umpire wrote. Its text from before is kept in ${backup}.`, backup);
        }
    } catch (err) {
        if (err instanceof WriteError) throw err;
        // Anything else failed before the write began (the write has its own handler above).
        throw new WriteError('refused', `${file} could not be written (${errorText(err)}): it is unchanged.`);
    } finally {
        try { io.closeSync(fd); } catch { /* flushed already: the data is on disk */ }
        if (backupMade && !keepBackup) {
            try { io.unlinkSync(backup); } catch { /* the next run removes it */ }
        }
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

/** The old text beside the file, as private as the file itself and owned by the file's owner. */
function makeBackup(io: WriteIo, backup: string, bytes: Buffer, st: fs.Stats): void {
    // 'wx': never write over a file that is already there.
    const fd = io.openSync(backup, 'wx', st.mode & 0o666);
    try {
        if (process.getuid?.() === 0) io.fchownSync(fd, st.uid, st.gid);
        writeAll(io, fd, bytes);
        io.fsyncSync(fd);
        io.closeSync(fd);
    } catch (err) {
        try { io.closeSync(fd); } catch { /* already failing: report the first error */ }
        try { io.unlinkSync(backup); } catch { /* already failing: report the first error */ }
        throw err;
    }
}
