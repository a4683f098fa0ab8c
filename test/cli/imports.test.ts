/**
 * Campaigns across files on the command line (docs/campaigns.md#campaigns-across-files): the real
 * `umpire` (the bundle, through bin/umpire.cjs) loads the files a scenario imports, resolves a season
 * split over files exactly as the same season in one file, and `resolve --write` writes only the file named.
 */
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureServerBundle } from '../protocol/lsp-harness.js';

beforeAll(() => ensureServerBundle(), 120_000);

const bin = path.resolve('bin/umpire.cjs');
const dirs: string[] = [];
afterAll(() => dirs.forEach(d => fs.rmSync(d, { recursive: true, force: true })));

function umpire(cwd: string, ...args: string[]) {
    const r = spawnSync(process.execPath, [bin, ...args], { cwd, encoding: 'utf8' });
    return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

/** A folder holding the given files (texts, or the name of an example to copy). */
function folder(files: Record<string, string>): string {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'umpire-imports-'));
    dirs.push(dir);
    for (const [name, text] of Object.entries(files)) {
        fs.mkdirSync(path.dirname(path.join(dir, name)), { recursive: true });
        fs.writeFileSync(path.join(dir, name), text);
    }
    return dir;
}

const example = (name: string) => fs.readFileSync(path.join('examples', name), 'utf8');

/**
 * The one-file version of a season: the order of battle's declarations pasted where it is imported
 * (its `scenario` and `rules` lines dropped, the season keeps its own), the import line removed.
 */
function inlined(season: string, armies: string): string {
    const declarations = armies.split('\n').filter(l => !/^(scenario|rules) |^\/\//.test(l)).join('\n');
    return season.replace(/^import "armies\.battle"\n/m, declarations + '\n');
}

/** What a resolve prints, without the file's name: the outcomes alone. */
function outcomes(json: string) {
    const parsed = JSON.parse(json) as { engagements: unknown[], rules: string };
    return { rules: parsed.rules, engagements: parsed.engagements };
}

describe('a campaign split over files', () => {
    for (const season of ['season-1.battle', 'season-2.battle']) {
        it(`examples/${season} with armies.battle resolves, writes and reports as the same season in one file`, () => {
            const split = folder({ 'armies.battle': example('armies.battle'), [season]: example(season) });
            const whole = folder({ [season]: inlined(example(season), example('armies.battle')) });
            // The one-file version is a real scenario, not an empty one.
            expect(fs.readFileSync(path.join(whole, season), 'utf8')).toMatch(/force French/);
            expect(fs.readFileSync(path.join(whole, season), 'utf8')).not.toMatch(/import/);
            for (const dir of [split, whole]) expect(umpire(dir, 'check', season)).toMatchObject({ code: 0, stdout: '0 problems in 1 file\n' });

            const a = umpire(split, 'resolve', season, '--json');
            const b = umpire(whole, 'resolve', season, '--json');
            expect(a.code).toBe(0);
            expect(outcomes(a.stdout).engagements.length).toBeGreaterThan(0);
            expect(outcomes(a.stdout)).toEqual(outcomes(b.stdout));
            for (const args of [['odds', season, '--json'], ['status', season]]) {
                expect(umpire(split, ...args).stdout).toBe(umpire(whole, ...args).stdout);
            }

            // Written outcomes, seeds and fingerprints (`check "…"`) are the same in both.
            const written = (dir: string) => fs.readFileSync(path.join(dir, season), 'utf8').split('\n').filter(l => /^\s+(outcome|summary|\w+\.\w+(#\d+)?:)/.test(l));
            for (const dir of [split, whole]) {
                fs.writeFileSync(path.join(dir, season), fs.readFileSync(path.join(dir, season), 'utf8').replace(/\n\s*outcome seed[\s\S]*?\n {4}\}/g, ''));
            }
            expect(written(split)).toEqual([]);
            const armiesBefore = fs.readFileSync(path.join(split, 'armies.battle'));
            expect(umpire(split, 'resolve', season, '--write').code).toBe(0);
            expect(umpire(whole, 'resolve', season, '--write').code).toBe(0);
            expect(written(split).length).toBeGreaterThan(0);
            expect(written(split)).toEqual(written(whole));
            // Only the file named is written: the order of battle is left byte for byte.
            expect(fs.readFileSync(path.join(split, 'armies.battle')).equals(armiesBefore)).toBe(true);
            // And the written file is what the examples hold.
            expect(fs.readFileSync(path.join(split, season), 'utf8')).toBe(example(season));
        });
    }
});

describe('imports on the command line', () => {
    it('finds an import relative to the importing file, from any working folder', () => {
        const dir = folder({ 'oob/armies.battle': example('armies.battle'), 'seasons/s.battle': example('season-2.battle').replace('"armies.battle"', '"../oob/armies.battle"') });
        expect(umpire(dir, 'check', 'seasons/s.battle')).toMatchObject({ code: 0, stdout: '0 problems in 1 file\n' });
        expect(umpire(path.join(dir, 'oob'), 'resolve', '../seasons/s.battle').stdout).toContain('engagement Heights');
    });

    it('says which import is missing or unreadable, with its code, and does not resolve', () => {
        const dir = folder({ 's.battle': 'rules scrud\nimport "armies.battle"\nimport "folder.battle"\nengagement E {\n  French attacks Prussian\n  seed 1\n}\n' });
        fs.mkdirSync(path.join(dir, 'folder.battle'));
        const check = umpire(dir, 'check', 's.battle');
        expect(check.code).toBe(1);
        expect(check.stdout).toContain(`s.battle:2:8 error import-missing There is no file armies.battle (looked for ${path.join(dir, 'armies.battle')})`);
        expect(check.stdout).toContain('s.battle:3:8 error import-unreadable folder.battle cannot be imported: it is a folder, not a .battle file.');
        expect(check.stderr).not.toMatch(/^\s+at /m);
        expect(umpire(dir, 'resolve', 's.battle').code).toBe(1);
    });

    it('reports a cycle and a name in two files in the file checked', () => {
        const dir = folder({
            'a.battle': 'rules scrud\nimport "b.battle"\nforce French {\n  unit Line foot\n}\n',
            'b.battle': 'rules scrud\nimport "a.battle"\nforce French {\n  unit Guard foot\n}\n'
        });
        // The problems, without the summary line under them.
        const out = umpire(dir, 'check', 'a.battle').stdout.trim().split('\n').slice(0, -1);
        expect(out.map(l => l.split(' ').slice(0, 3).join(' '))).toEqual(['a.battle:2:8 error import-cycle', 'a.battle:3:7 error import-name-clash']);
    });
});
