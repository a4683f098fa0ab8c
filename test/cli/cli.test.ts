/**
 * The real `umpire` command (the bundle in out/cli, run through bin/umpire.cjs) on the examples.
 */
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { ensureServerBundle } from '../protocol/lsp-harness.js';



// Bundle once when the CLI is missing or older than the sources, so the test runs what it claims to.
beforeAll(() => ensureServerBundle(), 120_000);

function umpire(...args: string[]) {
    const r = spawnSync(process.execPath, ['bin/umpire.cjs', ...args], { encoding: 'utf8' });
    return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

const NO_STACK = /^\s+at |internal error/m;

describe('umpire resolve --json on the seed\'s worked example', () => {
    // The seed's table, worked by hand: [force, unit, arm, die, modifier, adjusted, result, opponent].
    const expected = [
        ['Attacker', 'Guard', 'foot', 4, 2, 6, 'stand-off', 'Defender.Grenz#1'],
        ['Attacker', 'Line#1', 'foot', 4, 1, 5, 'won', 'Defender.Infantry#3'],
        ['Attacker', 'Line#2', 'foot', 2, 1, 3, 'won', 'Defender.Grenz#3'],
        ['Attacker', 'Fusiliers#1', 'foot', 6, 0, 6, 'won', 'Defender.Grenz#2'],
        ['Attacker', 'Fusiliers#2', 'foot', 1, 0, 1, 'stand-off', 'Defender.Infantry#2'],
        ['Attacker', 'Fusiliers#3', 'foot', 2, 0, 2, 'stand-off', 'Defender.Infantry#1'],
        ['Attacker', 'Fusiliers#4', 'foot', 1, 0, 1, 'unpaired', null],
        ['Attacker', 'Conscripts', 'foot', 2, -1, 1, 'unpaired', null],
        ['Attacker', 'Hussars#1', 'horse', 1, 0, 1, 'retire', 'Defender.Dragoons#1'],
        ['Attacker', 'Hussars#2', 'horse', 4, 0, 4, 'recoil', 'Defender.Dragoons#2'],
        ['Defender', 'Grenz#1', 'foot', 5, 1, 6, 'stand-off', 'Attacker.Guard'],
        ['Defender', 'Grenz#2', 'foot', 3, 1, 4, 'retire', 'Attacker.Fusiliers#1'],
        ['Defender', 'Grenz#3', 'foot', 1, 1, 2, 'recoil', 'Attacker.Line#2'],
        ['Defender', 'Infantry#1', 'foot', 2, 0, 2, 'stand-off', 'Attacker.Fusiliers#3'],
        ['Defender', 'Infantry#2', 'foot', 1, 0, 1, 'stand-off', 'Attacker.Fusiliers#2'],
        ['Defender', 'Infantry#3', 'foot', 3, 0, 3, 'retire', 'Attacker.Line#1'],
        ['Defender', 'Dragoons#1', 'horse', 3, 0, 3, 'won', 'Attacker.Hussars#1'],
        ['Defender', 'Dragoons#2', 'horse', 5, 0, 5, 'won', 'Attacker.Hussars#2']
    ];

    it('reports every unit as the seed does, with the fields docs/json.md promises', () => {
        const r = umpire('resolve', 'examples/scrud-seed.battle', '--json');
        expect(r.stderr).toBe('');
        expect(r.code).toBe(0);
        const json = JSON.parse(r.stdout);
        expect(json).toMatchObject({ file: 'examples/scrud-seed.battle', rules: 'scrud' });
        expect(json.engagements).toHaveLength(1);
        const e = json.engagements[0];
        expect(e).toMatchObject({
            name: 'Example', kind: 'engagement', rules: 'scrud', seed: null, turn: null, pooled: false,
            summary: 'Defender foot: 3 stand-off, 1 recoil, 2 retire · Attacker horse: 1 recoil, 1 retire'
        });
        expect(e.check).toMatch(/^[0-9a-f]{8}$/);
        const got = e.units.map((u: Record<string, unknown>) => [u.force, u.unit, u.arm, u.die, u.modifier, u.adjusted, u.result, u.opponent]);
        expect(got).toEqual(expected);
        expect(e.units.every((u: Record<string, unknown>) => u.dieType === 'd6')).toBe(true);
    });

    it('prints the pairs and the seed\'s result line without --json', () => {
        const r = umpire('resolve', 'examples/scrud-seed.battle');
        expect(r.code).toBe(0);
        expect(r.stdout).toContain('Attacker.Guard 4+2=6  v  Defender.Grenz#1 5+1=6  →  stand-off');
        expect(r.stdout).toContain('Result: Defender foot: 3 stand-off, 1 recoil, 2 retire · Attacker horse: 1 recoil, 1 retire');
    });
});

describe('umpire check', () => {
    it('prints what the extension\'s problem matcher reads: every line of a broken file, each part in place', () => {
        const matcher = JSON.parse(fs.readFileSync('package.json', 'utf8')).contributes.problemMatchers[0];
        const pattern = new RegExp(matcher.pattern.regexp);
        const lines = umpire('check', 'examples/broken-scrud.battle').stdout.trimEnd().split('\n');
        // The summary line last, which the matcher must not take for a problem.
        expect(pattern.test(lines.at(-1)!), lines.at(-1)).toBe(false);
        for (const line of lines.slice(0, -1)) {
            const m = pattern.exec(line);
            expect(m, line).not.toBeNull();
            expect([m![matcher.pattern.file], m![matcher.pattern.severity]]).toEqual(['examples/broken-scrud.battle', expect.stringMatching(/^(error|warning|info)$/)]);
            expect(line.endsWith(m![matcher.pattern.message])).toBe(true);
        }
    });

    it('checks a scenario kept under another extension as .battle, naming the file as given', () => {
        const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'umpire-ext-'));
        try {
            const notes = path.join(dir, 'notes.txt');
            fs.copyFileSync('examples/broken-scrud.battle', notes);
            const r = umpire('check', notes);
            expect(r.code).toBe(1);
            expect(r.stderr).not.toMatch(NO_STACK);
            expect(r.stdout.split('\n')[0]).toBe(`${notes}:7:7 error duplicate-name There is already a grade named 'Elite'.`);
            fs.copyFileSync('examples/scrud-seed.battle', notes);
            const resolved = umpire('resolve', notes);
            expect(resolved.code).toBe(0);
            expect(resolved.stdout).toContain('Result: Defender foot: 3 stand-off, 1 recoil, 2 retire');
        } finally {
            fs.rmSync(dir, { recursive: true, force: true });
        }
    });

    it('prints one located diagnostic per mistake in examples/broken-scrud.battle and exits 1', () => {
        const file = 'examples/broken-scrud.battle';
        const r = umpire('check', file);
        expect(r.code).toBe(1);
        // The problems, then how it went: on stdout in that order, nothing on stderr.
        expect(r.stderr).toBe('');
        const all = r.stdout.trimEnd().split('\n');
        expect(all.at(-1)).toMatch(/^12 problems \((\d+ errors?)(, \d+ warnings?)?\) in 1 file$/);
        const lines = all.slice(0, -1);
        const format = /^examples\/broken-scrud\.battle:(\d+):(\d+) (error|warning) ([a-z-]+) (.+)$/;
        expect(lines.every(l => format.test(l))).toBe(true);
        expect(lines.map(l => { const m = format.exec(l)!; return `${m[1]}:${m[2]} ${m[4]}`; })).toEqual([
            '7:7 duplicate-name', '8:12 grade-value-range', '13:20 unknown-reference', '14:20 count-zero',
            '15:19 count-too-large', '23:7 empty-force', '26:3 unknown-reference', '31:10 unknown-reference',
            '35:21 same-force-both-sides', '40:22 dice-count', '46:19 die-face', '51:13 unit-index-range'
        ]);
        // The file's own comments name the mistake on each line: they and the diagnostics agree one to one.
        const commented = fs.readFileSync(file, 'utf8').split('\n')
            .map((text, i) => [i + 1, /\/\/ ([a-z-]+):/.exec(text)?.[1]] as const)
            .filter(([, code]) => code !== undefined)
            .map(([line, code]) => `${line} ${code}`);
        expect(lines.map(l => { const m = format.exec(l)!; return `${m[1]} ${m[4]}`; })).toEqual(commented);
    });

    it('says in one line that the clean examples are clean, and exits 0', () => {
        const r = umpire('check', 'examples/scrud-seed.battle', 'examples/scrud-ridge.battle');
        expect([r.code, r.stdout, r.stderr]).toEqual([0, '0 problems in 2 files\n', '']);
    });

    it('prints diagnostics, not a stack trace, for a file of random bytes', () => {
        const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'umpire-')), 'noise.battle');
        let x = 2013;
        fs.writeFileSync(file, Buffer.from(Array.from({ length: 4000 }, () => { x = (x * 1103515245 + 12345) % 2147483648; return x >> 16 & 255; })));
        const r = umpire('check', file);
        expect(r.code).toBe(1);
        expect(r.stderr).not.toMatch(NO_STACK);
        const lines = r.stdout.trimEnd().split('\n').slice(0, -1);
        expect(lines.length).toBeGreaterThan(0);
        expect(lines.every(l => l.startsWith(`${file}:`) && / error | warning | info /.test(l))).toBe(true);
    });

    it('says in one line that a file is missing, without a stack trace', () => {
        const r = umpire('check', 'examples/no-such-file.battle');
        expect(r.code).not.toBe(0);
        expect(r.stdout).toBe('');
        expect(r.stderr.trimEnd().split('\n')).toEqual(['umpire: examples/no-such-file.battle: no such file']);
    });
});

describe('umpire resolve options', () => {
    it('--seed throws the same dice on every run, and reports the seed', () => {
        const first = umpire('resolve', 'examples/scrud-ridge.battle', '--seed', '7', '--json');
        const second = umpire('resolve', 'examples/scrud-ridge.battle', '--seed', '7', '--json');
        expect(first.code).toBe(0);
        expect(second.stdout).toBe(first.stdout);
        const seeds = JSON.parse(first.stdout).engagements.map((e: { name: string, seed: number | null }) => [e.name, e.seed]);
        // Entered dice win over any seed (the Guns duel).
        expect(seeds).toEqual([['Ridge', 7], ['Village', 7], ['Guns', null]]);
    });

    it('--engagement resolves only the one named', () => {
        const r = umpire('resolve', 'examples/scrud-ridge.battle', '--engagement', 'Village', '--json');
        expect(r.code).toBe(0);
        const json = JSON.parse(r.stdout);
        expect(json.engagements.map((e: { name: string }) => e.name)).toEqual(['Village']);
        expect(json.engagements[0]).toMatchObject({ seed: 44, pooled: true });
    });

    it('an unknown --engagement is a clear one-line error', () => {
        const r = umpire('resolve', 'examples/scrud-ridge.battle', '--engagement', 'Bridge');
        expect(r.code).not.toBe(0);
        expect(r.stdout).toBe('');
        expect(r.stderr.trimEnd().split('\n')).toEqual(["umpire: examples/scrud-ridge.battle: no engagement named 'Bridge' (there are: Ridge, Village, Guns)"]);
    });

    it('refuses to resolve a file with errors, listing them on stderr, the results\' stream left empty', () => {
        const r = umpire('resolve', 'examples/broken-scrud.battle');
        expect(r.code).toBe(1);
        expect(r.stdout).toBe('');
        const said = r.stderr.trimEnd().split('\n');
        // Its 12 errors, then why nothing was resolved.
        expect(said).toHaveLength(13);
        expect(said.slice(0, -1).every(l => l.startsWith('examples/broken-scrud.battle:'))).toBe(true);
        expect(said.at(-1)).toContain('fix the errors above before resolving');
        expect(r.stderr).not.toMatch(NO_STACK);
    });
});
