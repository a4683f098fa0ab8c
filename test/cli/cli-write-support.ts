/**
 * Shared by the test/cli-write-*.test.ts suites: a small campaign, a scratch folder, and a WriteIo
 * that lets another program act just before the n-th file operation of `resolve --write`.
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { nodeIo, type WriteIo } from '../../src/cli/atomic-write.js';
import { CliError } from '../../src/cli/load.js';
import { resolveWriteCommand } from '../../src/cli/resolve-write.js';

/** Two engagements, the second written on one line. */
export const SMALL = [
    'scenario "Small"',
    'rules scrud',
    'force A { unit Foot foot x2 }',
    'force B { unit Foot foot x2 }',
    'engagement First {',
    '  A.Foot#1 attacks B.Foot#1',
    '  seed 3',
    '}',
    'engagement Second { A.Foot#2 attacks B.Foot#2 seed 5 }',
    ''
].join('\n');

export function scratchDir(): string {
    return fs.mkdtempSync(path.join(os.tmpdir(), 'umpire-cli-write-'));
}

export interface Run {
    /** 0, or the CliError's exit code. */
    code: number;
    /** stdout lines, then the CliError's message. */
    lines: string[];
    message?: string;
}

/** `umpire resolve FILE --write` in this process; a CliError becomes its exit code, anything else fails the test. */
export async function runWrite(file: string, io: WriteIo = nodeIo, options: { engagement?: string, seed?: number } = {}): Promise<Run> {
    const lines: string[] = [];
    try {
        return { code: await resolveWriteCommand(file, options, l => lines.push(l), io), lines };
    } catch (err) {
        if (!(err instanceof CliError)) throw err;
        return { code: err.exitCode, lines: [...lines, err.message], message: err.message };
    }
}

/** Every operation of `io`, counted; `act` runs once, just before operation number `at` (from 0). */
export function actBefore(at: number, act: () => void, io: WriteIo = nodeIo): { io: WriteIo, calls: string[] } {
    const calls: string[] = [];
    const wrapped = {} as Record<string, unknown>;
    for (const [name, fn] of Object.entries(io) as Array<[string, (...args: unknown[]) => unknown]>) {
        wrapped[name] = (...args: unknown[]) => {
            if (calls.length === at) act();
            calls.push(name);
            return fn(...args);
        };
    }
    return { io: wrapped as unknown as WriteIo, calls };
}
