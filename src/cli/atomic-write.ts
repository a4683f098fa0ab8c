/**
 * Writing the umpire's file without ever leaving it half-written (issue 8): the new text goes to a
 * temporary file in the same folder, is flushed to disk, and then renamed over the original, which
 * the operating system does in one step. Any failure removes the temporary file and leaves the
 * original exactly as it was.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';

/** The file operations used, so that a test can make one of them fail. */
export interface WriteIo {
    openSync(file: string, flags: string, mode?: number): number;
    /** Writes `data` from `offset` on; returns how many bytes were written. */
    writeSync(fd: number, data: Uint8Array, offset: number): number;
    fsyncSync(fd: number): void;
    closeSync(fd: number): void;
    renameSync(from: string, to: string): void;
    unlinkSync(file: string): void;
    readFileSync(file: string, encoding: 'utf8'): string;
    statSync(file: string): { mode: number };
    realpathSync(file: string): string;
}

export const nodeIo: WriteIo = {
    openSync: (file, flags, mode) => fs.openSync(file, flags, mode),
    writeSync: (fd, data, offset) => fs.writeSync(fd, data, offset, data.length - offset),
    fsyncSync: fd => fs.fsyncSync(fd),
    closeSync: fd => fs.closeSync(fd),
    renameSync: (from, to) => fs.renameSync(from, to),
    unlinkSync: file => fs.unlinkSync(file),
    readFileSync: (file, encoding) => fs.readFileSync(file, encoding),
    statSync: file => fs.statSync(file),
    realpathSync: file => fs.realpathSync(file)
};

export class WriteError extends Error {}

let counter = 0;

/**
 * Replaces `file`'s text with `text` atomically. `expected` is the text the new one was computed
 * from: if the file changed meanwhile (an editor saved it), nothing is written.
 */
export function writeFileAtomic(file: string, text: string, expected: string | undefined, io: WriteIo = nodeIo): void {
    // Through a symbolic link, write the real file (renaming over the link would replace the link).
    const target = io.realpathSync(file);
    const mode = io.statSync(target).mode & 0o7777;
    if (expected !== undefined && io.readFileSync(target, 'utf8') !== expected) {
        throw new WriteError(`${file} changed while it was being resolved: nothing was written. Run the command again.`);
    }
    const temp = path.join(path.dirname(target), `.${path.basename(target)}.${process.pid}.${++counter}.tmp`);
    let fd: number | undefined;
    try {
        fd = io.openSync(temp, 'wx', mode);
        const data = Buffer.from(text, 'utf8');
        // writeSync may write less than asked; keep going until everything is out.
        for (let done = 0; done < data.length;) done += io.writeSync(fd, data, done);
        io.fsyncSync(fd);
        io.closeSync(fd);
        fd = undefined;
        io.renameSync(temp, target);
    } catch (err) {
        if (fd !== undefined) { try { io.closeSync(fd); } catch { /* already failing: report the first error */ } }
        try { io.unlinkSync(temp); } catch { /* the temporary file may never have been made */ }
        throw new WriteError(`${file} could not be written (${err instanceof Error ? err.message : String(err)}): it is unchanged.`);
    }
}
