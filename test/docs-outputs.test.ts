/**
 * Every output shown in README.md and docs/ comes from the tool: a fenced block preceded by a marker
 * comment is compared with what the real CLI (bin/umpire.cjs, the bundle) prints.
 *
 *   <!-- doc-test: umpire ARGS -->            the block is the command's output, exactly (a first
 *                                             `$ umpire …` line in the block is skipped)
 *   <!-- doc-test: umpire ARGS (excerpt) -->  each line of the block is in the output, in order
 *   <!-- doc-test: written outcome -->         the block is in the file that `umpire resolve --write`
 *                                             leaves from the nearest ```battle block above it
 *   <!-- doc-test: written FILE (excerpt) -->  each line of the block is in the file that
 *                                             `umpire resolve --write` leaves from a copy of FILE
 *
 * A tutorial builds a file step by step in a folder of its own (one per page, made empty), so that each
 * step's output is the tool's on the file as the umpire has it at that point, outcomes written included:
 *
 *   <!-- doc-test: tutorial write FILE -->           the block becomes FILE
 *   <!-- doc-test: tutorial append FILE -->          the block is added at the end of FILE
 *   <!-- doc-test: tutorial umpire ARGS -->          as `umpire ARGS` above, run in the tutorial's folder
 *   <!-- doc-test: tutorial umpire ARGS (excerpt) -->
 *   <!-- doc-test: tutorial file FILE (excerpt) -->  each line of the block is in FILE as it is now
 *
 * In an excerpt, a line that is only `…` stands for lines left out.
 *
 * Commands run from the repository root. A block of measured figures (timings, sizes) is not an
 * output of the tool on a file and carries no marker.
 */
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureServerBundle } from './protocol/lsp-harness.js';

beforeAll(() => ensureServerBundle(), 120_000);

interface Marked { file: string, line: number, marker: string, block: string, battleAbove?: string }

/** The marked blocks of a markdown file. */
export function markedBlocks(file: string, text: string): Marked[] {
    const lines = text.split('\n');
    const out: Marked[] = [];
    let battleAbove: string | undefined;
    for (let i = 0; i < lines.length; i++) {
        if (/^\s*```battle\s*$/.test(lines[i])) {
            const end = lines.findIndex((l, j) => j > i && /^\s*```\s*$/.test(l));
            battleAbove = lines.slice(i + 1, end).join('\n') + '\n';
        }
        const m = /^\s*<!-- doc-test: (.*) -->\s*$/.exec(lines[i]);
        if (!m) continue;
        const open = i + 1;
        if (!/^\s*```/.test(lines[open] ?? '')) throw new Error(`${file}:${i + 1}: a doc-test marker must stand right above a fenced block`);
        const close = lines.findIndex((l, j) => j > open && /^\s*```\s*$/.test(l));
        // A block may show the command it ran as a first `$ …` line; what follows is the output.
        const indent = /^(\s*)/.exec(lines[open])![1].length;
        const body = lines.slice(open + 1, close).map(l => l.slice(Math.min(indent, /^(\s*)/.exec(l)![1].length)));
        out.push({ file, line: i + 1, marker: m[1], block: (body[0]?.startsWith('$ ') ? body.slice(1) : body).join('\n'), battleAbove });
    }
    return out;
}

/** The words of a command line as a shell splits them: a "quoted phrase" is one argument. */
function argsOf(command: string): string[] {
    return (command.match(/"[^"]*"|\S+/g) ?? []).map(a => (a.startsWith('"') ? a.slice(1, -1) : a));
}

function umpire(args: string[], cwd = '.'): string {
    const r = spawnSync(process.execPath, [path.resolve('bin/umpire.cjs'), ...args], { cwd, encoding: 'utf8' });
    return r.stdout;
}

/** Every line of the block, but `…`, stands in `text`, in the same order. */
function expectExcerpt(b: Marked, text: string): void {
    let from = 0;
    const lines = text.split('\n').map(l => l.trimEnd());
    for (const wanted of b.block.split('\n').map(l => l.trimEnd()).filter(l => l.trim() !== '' && l.trim() !== '…')) {
        const at = lines.indexOf(wanted, from);
        expect(at, `'${wanted}' (${b.file}:${b.line}) in:\n${text}`).toBeGreaterThanOrEqual(0);
        from = at + 1;
    }
}

const trimEnds = (text: string) => text.split('\n').map(l => l.trimEnd()).join('\n').trim();

function docs(): string[] {
    const walk = (dir: string): string[] => fs.readdirSync(dir, { withFileTypes: true })
        .flatMap(e => e.isDirectory() ? walk(path.join(dir, e.name)) : e.name.endsWith('.md') ? [path.join(dir, e.name)] : []);
    return ['README.md', ...walk('docs')];
}

const blocks = docs().flatMap(f => markedBlocks(f, fs.readFileSync(f, 'utf8')));

/** Each tutorial's folder, made empty when its first step runs. */
const tutorialFolders = new Map<string, string>();
afterAll(() => { for (const dir of tutorialFolders.values()) fs.rmSync(dir, { recursive: true, force: true }); });

function tutorialFolder(doc: string): string {
    if (!tutorialFolders.has(doc)) tutorialFolders.set(doc, fs.mkdtempSync(path.join(os.tmpdir(), 'umpire-tutorial-')));
    return tutorialFolders.get(doc)!;
}

/** A tutorial's step: the file written or added to, the command's output or the file compared. */
function tutorialStep(b: Marked, step: string): void {
    const dir = tutorialFolder(b.file);
    const file = /^(write|append|file) (\S+)/.exec(step);
    if (file?.[1] === 'write') return fs.writeFileSync(path.join(dir, file[2]), b.block + '\n');
    if (file?.[1] === 'append') return fs.appendFileSync(path.join(dir, file[2]), '\n' + b.block + '\n');
    if (file?.[1] === 'file') {
        expect(step, 'a tutorial file is compared as an excerpt').toMatch(/ \(excerpt\)$/);
        return expectExcerpt(b, fs.readFileSync(path.join(dir, file[2]), 'utf8'));
    }
    const m = /^umpire (.*?)( \(excerpt\))?$/.exec(step);
    expect(m, `an unknown tutorial step: ${step}`).not.toBeNull();
    const printed = umpire(argsOf(m![1]), dir);
    if (m![2]) expectExcerpt(b, printed);
    else expect(trimEnds(b.block), `the output of ${step}`).toBe(trimEnds(printed));
}

describe('outputs shown in the docs are the tool\'s', () => {
    it('finds the marked blocks', () => {
        expect(blocks.length).toBeGreaterThanOrEqual(5);
    });

    it.each(blocks.map(b => [`${b.file}:${b.line} ${b.marker}`, b] as const))('%s', (_name, b) => {
        if (b.marker.startsWith('tutorial ')) return tutorialStep(b, b.marker.slice('tutorial '.length));
        if (b.marker === 'written outcome') {
            expect(b.battleAbove, 'a ```battle block above').toBeDefined();
            const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'umpire-doc-'));
            try {
                fs.writeFileSync(path.join(dir, 'doc.battle'), b.battleAbove!);
                umpire(['resolve', '--write', 'doc.battle'], dir);
                const written = fs.readFileSync(path.join(dir, 'doc.battle'), 'utf8');
                expect(written, `the block at ${b.file}:${b.line}, as the tool writes it:\n${written}`).toContain(b.block);
            } finally {
                fs.rmSync(dir, { recursive: true, force: true });
            }
            return;
        }
        const written = /^written (\S+) \(excerpt\)$/.exec(b.marker);
        if (written) {
            const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'umpire-doc-'));
            try {
                const copy = path.join(dir, path.basename(written[1]));
                fs.copyFileSync(written[1], copy);
                umpire(['resolve', '--write', path.basename(copy)], dir);
                expectExcerpt(b, fs.readFileSync(copy, 'utf8'));
            } finally {
                fs.rmSync(dir, { recursive: true, force: true });
            }
            return;
        }
        const m = /^umpire (.*?)( \(excerpt\))?$/.exec(b.marker);
        expect(m, `an unknown marker: ${b.marker}`).not.toBeNull();
        const printed = umpire(argsOf(m![1]));
        if (m![2]) {
            expectExcerpt(b, printed);
        } else {
            expect(trimEnds(b.block), `the output of ${b.marker}`).toBe(trimEnds(printed));
        }
    }, 60_000);
});
