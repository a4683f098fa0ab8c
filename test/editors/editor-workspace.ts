/**
 * What the tests of third-party LSP clients share: a scratch copy of the examples, the CLI run in it
 * (whose output is what the editor must match), and the editor's driver script run in batch, which
 * writes what it saw as JSON.
 */
import { spawnSync, type SpawnSyncReturns } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { repoRoot } from '../protocol/lsp-harness.js';

const umpireBin = path.join(repoRoot, 'bin', 'umpire.cjs');

export interface EditorWorkspace {
    readonly dir: string;
    /** The examples' file names, sorted. */
    readonly examples: string[];
    /** `umpire ARGS…` run in the workspace: its stdout. */
    umpire(...args: string[]): string;
    read(name: string): string;
}

export function editorWorkspace(prefix: string): EditorWorkspace {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
    fs.cpSync(path.join(repoRoot, 'examples'), dir, { recursive: true });
    return {
        dir,
        examples: fs.readdirSync(dir).filter(f => f.endsWith('.battle')).sort(),
        umpire: (...args) => spawnSync(process.execPath, [umpireBin, ...args], { cwd: dir, encoding: 'utf8' }).stdout,
        read: name => fs.readFileSync(path.join(dir, name), 'utf8')
    };
}

/**
 * Runs an editor's driver in the workspace; the driver reads UMPIRE_WORKSPACE, UMPIRE_NODE, UMPIRE_BIN,
 * UMPIRE_EXAMPLES and writes its JSON to the file named by `resultVariable`.
 */
export function runDriver<T>(ws: EditorWorkspace, editor: string, args: string[], resultVariable: string): { seen: T, run: SpawnSyncReturns<string> } {
    const resultFile = path.join(ws.dir, `${editor}-result.json`);
    const run = spawnSync(editor, args, {
        cwd: ws.dir, encoding: 'utf8', timeout: 240_000,
        env: {
            ...process.env, UMPIRE_WORKSPACE: ws.dir, [resultVariable]: resultFile, UMPIRE_NODE: process.execPath, UMPIRE_BIN: umpireBin,
            UMPIRE_EXAMPLES: ws.examples.join(',')
        }
    });
    if (!fs.existsSync(resultFile)) throw new Error(`${editor} wrote no result (exit ${run.status}, signal ${run.signal}): ${run.stderr}${run.stdout}`);
    return { seen: JSON.parse(fs.readFileSync(resultFile, 'utf8')) as T, run };
}
