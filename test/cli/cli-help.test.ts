/**
 * What a newcomer types first: `umpire`, `umpire --help`, each command's help and its examples, and
 * `umpire table` read as a table. The real command (bin/umpire.cjs, the bundle) is run each time.
 */
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { ensureServerBundle } from '../protocol/lsp-harness.js';

beforeAll(() => ensureServerBundle(), 120_000);

function umpire(...args: string[]) {
    const r = spawnSync(process.execPath, ['bin/umpire.cjs', ...args], { encoding: 'utf8' });
    return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

const COMMANDS = ['check', 'resolve', 'odds', 'table', 'status', 'report', 'seal', 'verify'];

/** The `$ umpire …` lines under "Examples:", split into arguments as a shell would ("a b" is one). */
function exampleLines(help: string): string[][] {
    const section = help.split('\nExamples:\n')[1] ?? '';
    return [...section.matchAll(/^ {2}\$ umpire (.*)$/gm)].map(m => [...m[1].trim().matchAll(/"([^"]*)"|(\S+)/g)].map(a => a[1] ?? a[2]));
}

describe('umpire with no command', () => {
    it('prints the help to stdout and exits 0', () => {
        const r = umpire();
        expect(r.code).toBe(0);
        expect(r.stderr).toBe('');
        expect(r.stdout).toMatch(/^Usage: umpire /);
        for (const command of COMMANDS) expect(r.stdout).toMatch(new RegExp(`^ {2}${command}\\b`, 'm'));
        expect(exampleLines(r.stdout).length).toBeGreaterThanOrEqual(3);
    });

    it('prints the same help as umpire --help', () => {
        expect(umpire().stdout).toBe(umpire('--help').stdout);
    });
});

describe('each command\'s help', () => {
    it.each(COMMANDS)('umpire %s --help shows examples of that command', command => {
        const r = umpire(command, '--help');
        expect(r.code).toBe(0);
        expect(r.stdout).toMatch(new RegExp(`^Usage: umpire ${command}\\b`));
        const examples = exampleLines(r.stdout);
        expect(examples.length).toBeGreaterThanOrEqual(2);
        expect(examples.every(args => args[0] === command)).toBe(true);
        expect(umpire('help', command).stdout).toBe(r.stdout);
    });

    // An example that fails as typed teaches the wrong thing: run every one whose files are all in
    // examples/ (not those that write into the file or need a shell glob) and expect no usage error.
    it('every runnable example in the help runs as typed', () => {
        const helps = [umpire('--help').stdout, ...COMMANDS.map(c => umpire(c, '--help').stdout)];
        const all = new Map(helps.flatMap(exampleLines).map(args => [args.join(' '), args]));
        const runnable = [...all.values()].filter(args =>
            args[0] !== 'help' && !args.includes('--write') && !args.includes('--out') && !args.some(a => a.includes('*'))
            && args.filter(a => a.endsWith('.battle') || a.endsWith('.secret')).every(a => fs.existsSync(a)));
        expect(runnable.length).toBeGreaterThanOrEqual(10);
        for (const args of runnable) {
            const r = umpire(...args);
            // `resolve --seed --json` names the actions whose dice were entered (the seed does not change them).
            const stderr = r.stderr.replace(/^umpire: \S+: its dice were entered from the table; --seed \d+ is not used for it\.\n/gm, '');
            expect({ args, code: r.code, stderr }).toEqual({ args, code: args.includes('examples/broken-scrud.battle') ? 1 : 0, stderr: '' });
            expect(r.stdout.length).toBeGreaterThan(0);
        }
    }, 120_000);
});

describe('mistakes on the command line', () => {
    it('an unknown command is named, with the nearest one, on stderr', () => {
        const r = umpire('chek', 'examples/scrud-seed.battle');
        expect(r.code).toBe(1);
        expect(r.stdout).toBe('');
        expect(r.stderr).toMatch(/unknown command 'chek'/);
        expect(r.stderr).toMatch(/Did you mean check\?/);
    });
});

describe('umpire table', () => {
    const r = () => umpire('table', '--dice', '6..7,14');

    it('lines every column up on its decimal point, the save headings over their columns', () => {
        const { code, stdout } = r();
        expect(code).toBe(0);
        const blocks = stdout.trimEnd().split('\n').slice(1).join('\n').split('\n\n').map(b => b.split('\n'));
        expect(blocks.map(b => b[0].trim().split(/\s+/)[0])).toEqual(['6', '7', '14']);
        const cellsOf = (line: string) => [...line.matchAll(/\S+/g)].map(m => ({ text: m[0], start: m.index }));
        // Where each figure's point is (or would be, for a whole number), per column, over all blocks.
        const points = new Map<number, Set<number>>();
        const rightEdges = new Map<number, Set<number>>();
        for (const block of blocks) {
            expect(block).toHaveLength(6);
            for (const line of block.slice(1)) {
                const cells = cellsOf(line);
                expect(cells).toHaveLength(7);
                cells.slice(1).forEach((cell, c) => {
                    expect(cell.text).toMatch(/^[0-9]+(\.[0-9]+)?$/);
                    const set = points.get(c) ?? new Set();
                    set.add(cell.start + cell.text.split('.')[0].length);
                    points.set(c, set);
                });
            }
            cellsOf(block[0]).slice(1).forEach((cell, c) => {
                const set = rightEdges.get(c) ?? new Set();
                set.add(cell.start + cell.text.length);
                rightEdges.set(c, set);
            });
        }
        expect([...points.values()].map(s => s.size)).toEqual([1, 1, 1, 1, 1, 1]);
        expect([...rightEdges.values()].map(s => s.size)).toEqual([1, 1, 1, 1, 1, 1]);
        // The headings end where the widest figure of their column ends, so each sits over its figures.
        for (const block of blocks) {
            for (const line of block.slice(1)) {
                cellsOf(line).slice(1).forEach((cell, c) => {
                    expect(cell.start + cell.text.length).toBeLessThanOrEqual([...rightEdges.get(c)!][0]);
                });
            }
        }
    });

    it('keeps the figures of the plain --json table', () => {
        const text = r().stdout;
        const json = JSON.parse(umpire('table', '--dice', '6..7,14', '--json').stdout) as { tables: { dice: number, rows: { toHit: number, cells: { text: string }[] }[] }[] };
        const printed = text.trimEnd().split('\n').slice(1).filter(l => l !== '' && !/^\d+ /.test(l)).map(l => l.trim().split(/\s+/));
        const fromJson = json.tables.flatMap(t => t.rows.map(row => [`${row.toHit}+`, ...row.cells.map(c => c.text)]));
        expect(printed).toEqual(fromJson);
    });
});

describe('the sealed-dice options', () => {
    it('resolve --help names --secret-file, and seal and verify take it', () => {
        expect(umpire('resolve', '--help').stdout).toMatch(/^ {2}--secret-file <file> +with --write on a sealed campaign/m);
        expect(umpire('seal', '--help').stdout).toMatch(/^ {2}--secret-file <file> +the file holding the secret/m);
        expect(umpire('verify', '--help').stdout).toMatch(/^ {2}--secret-file <file> +the secret, when the file does not publish it/m);
    });

    it('umpire seal without --secret-file is a usage error; with it, the seal line', () => {
        const bare = umpire('seal');
        expect(bare.code).toBe(1);
        expect(bare.stderr).toMatch(/--secret-file <file>.*not specified/);
        expect(umpire('seal', '--secret-file', 'examples/sealed.secret').stdout).toBe('seal "sha256:de3205d30cefe4fa30f2847af0a3d334297b96cb008a568e7c91e8f69da8bc95"\n');
    });

    it('resolve --secret-file on a file that is not sealed is refused', () => {
        const r = umpire('resolve', 'examples/scrud-seed.battle', '--write', '--secret-file', 'examples/sealed.secret');
        expect(r.code).toBe(1);
        expect(r.stderr).toMatch(/is not sealed: --secret-file is only for a file with a seal/);
    });
});
