/**
 * `umpire status`'s luck over the season (docs/reports.md#season-luck), plain, as Markdown and as JSON:
 * on a small SCRUD campaign whose figures are worked by hand below, and on the Ancients example (sampled),
 * each against `seasonLuck` called directly on the same file.
 *
 * The hand-worked case: two fights of one foot unit against one, no grade or factor, one d6 each (S6).
 * Of the 36 throws a unit wins 15, stands off 6, recoils 5, retires 4, retreats 3 and routs 3; its
 * percentile (P(worse) + ½ P(same)) is, in 36ths: won 28.5, stand-off 18, recoil 12.5, retire 8,
 * retreat 4.5, rout 1.5. Ford: 5 against 2, French.A won (28.5), Austrian.C retreats (4.5). Mill: 3
 * against 3, both stand off (18). Over the 1296 pairs of throws of the two fights:
 *   French, T = 46.5: below 15·15 + 6·21 + (5+4+3+3)·36 = 891, tied 15·6 + 6·15 = 180:
 *     season percentile (891 + 90)/1296, P(as lucky or luckier) 1 − 891/1296;
 *   Austrian, T = 22.5: below 6·3 + 5·10 + 4·15 + 3·15 + 3·21 = 236, tied 6·3 + 3·6 = 36:
 *     season percentile (236 + 18)/1296, P(as lucky or luckier) 1 − 236/1296.
 * Up to turn 1 (the Ford alone) a side's season percentile is its unit's: French 28.5/36 and P 1 − 21/36,
 * Austrian 4.5/36 and P 1 − 3/36.
 */
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CliError } from '../../src/cli/load.js';
import { statusCommand } from '../../src/cli/status-command.js';
import { modelOf } from '../../src/core/model-cache.js';
import type { ScenarioModel } from '../../src/core/scenario.js';
import { seasonHeading, seasonLuck, seasonRows, type SeasonLuck } from '../../src/report/season-luck.js';
import { parse } from '../support/services.js';
import { TWO_FORDS } from '../support/two-fords.js';


/** The hand-worked figures above. */
const HAND = {
    all: {
        French: { mean: 46.5 / 72, percentile: 981 / 1296, atLeast: 405 / 1296 },
        Austrian: { mean: 22.5 / 72, percentile: 254 / 1296, atLeast: 1060 / 1296 }
    },
    turn1: {
        French: { mean: 28.5 / 36, percentile: 28.5 / 36, atLeast: 15 / 36 },
        Austrian: { mean: 4.5 / 36, percentile: 4.5 / 36, atLeast: 33 / 36 }
    }
};

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'umpire-status-'));
const file = path.join(dir, 'two-fords.battle');
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

function umpire(...args: string[]) {
    const r = spawnSync(process.execPath, ['bin/umpire.cjs', ...args], { encoding: 'utf8' });
    return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

async function status(f: string, options: Parameters<typeof statusCommand>[1]): Promise<string[]> {
    const lines: string[] = [];
    expect(await statusCommand(f, options, l => lines.push(...l.split('\n')), () => undefined)).toBe(0);
    return lines;
}

async function modelOfFile(f: string): Promise<ScenarioModel> {
    return modelOf((await parse(fs.readFileSync(f, 'utf8'))).parseResult.value);
}

/** What follows the state table: from the blank line after it. */
function seasonSection(lines: readonly string[]): string[] {
    const heading = lines.findIndex(l => l.startsWith('Luck over the season'));
    expect(heading).toBeGreaterThan(0);
    expect(lines[heading - 1]).toBe('');
    return lines.slice(heading);
}

const pct = (p: number) => `${(p * 100).toFixed(1)}%`;

function expectHand(luck: SeasonLuck | { problem: string }, hand: typeof HAND.all, actions: number): void {
    if ('problem' in luck) throw new Error(luck.problem);
    expect(luck.method).toBe('exact');
    expect(luck.actions).toBe(actions);
    expect(luck.sides.map(s => [s.force, s.units, s.actions])).toEqual([['French', actions, actions], ['Austrian', actions, actions]]);
    for (const s of luck.sides) {
        const h = hand[s.force as keyof typeof hand];
        expect(Math.abs(s.meanPercentile! - h.mean)).toBeLessThan(1e-12);
        expect(Math.abs(s.percentile! - h.percentile)).toBeLessThan(1e-12);
        expect(Math.abs(s.atLeastAsLucky! - h.atLeast)).toBeLessThan(1e-12);
    }
}

beforeAll(() => {
    fs.writeFileSync(file, TWO_FORDS);
    const r = umpire('resolve', '--write', file);
    expect([r.code, r.stderr]).toEqual([0, '']);
}, 60_000);

describe('umpire status: luck over the season', () => {
    it('prints each side\'s season under the state table, with the hand-worked figures and those of seasonLuck', async () => {
        const lines = await status(file, {});
        // The state table comes first, as before.
        expect(lines.slice(0, 3)).toEqual(['Two fords: state at the end of the file', '', 'Force     Unit  Status  Last result               Notes']);
        const season = seasonSection(lines);
        expect(season[0]).toBe('Luck over the season (exact): the written dice of 2 actions against every way they could have fallen, each action thrown again from where it was fought.');
        expect(season[1]).toBe('');
        expect(season[2].split(/ {2,}/)).toEqual(['Side', 'Results', 'Mean percentile', 'Season percentile', 'P(as lucky or luckier)']);
        expect(season[3]).toMatch(/^─+( {2}─+){4}$/);
        const rows = season.slice(4).map(l => l.split(/ {2,}/));
        const { French: f, Austrian: a } = HAND.all;
        expect(rows).toEqual([
            ['French', '2 in 2 actions', pct(f.mean), pct(f.percentile), pct(f.atLeast)],
            ['Austrian', '2 in 2 actions', pct(a.mean), pct(a.percentile), pct(a.atLeast)]
        ]);
        const model = await modelOfFile(file);
        const direct = seasonLuck(model, model.actions);
        expectHand(direct, HAND.all, 2);
        expect(rows).toEqual(seasonRows(direct as SeasonLuck));
    });

    it('--at TURN counts only the actions up to the end of that turn', async () => {
        const season = seasonSection(await status(file, { at: '1' }));
        expect(season[0]).toMatch(/^Luck over the season \(exact\): the written dice of 1 action against/);
        const { French: f, Austrian: a } = HAND.turn1;
        expect(season.slice(4).map(l => l.split(/ {2,}/))).toEqual([
            ['French', '1 in 1 action', pct(f.mean), pct(f.percentile), pct(f.atLeast)],
            ['Austrian', '1 in 1 action', pct(a.mean), pct(a.percentile), pct(a.atLeast)]
        ]);
        const json = JSON.parse((await status(file, { at: '1', json: true })).join('\n'));
        expect(json.at).toBe('1');
        expect(json.when).toBe('after turn 1');
        expectHand(json.season, HAND.turn1, 1);
        // By turn 2 every action is in: the same figures as at the end of the file.
        expect(JSON.parse((await status(file, { at: '2', json: true })).join('\n')).season).toEqual(JSON.parse((await status(file, { json: true })).join('\n')).season);
    });

    it('--markdown adds the heading and a Markdown table of the same rows', async () => {
        const lines = await status(file, { markdown: true });
        expect(lines[0]).toBe('### Two fords — state at the end of the file');
        const season = seasonSection(lines);
        const model = await modelOfFile(file);
        const rows = seasonRows(seasonLuck(model, model.actions) as SeasonLuck);
        expect(season).toEqual([
            'Luck over the season (exact): the written dice of 2 actions against every way they could have fallen, each action thrown again from where it was fought.',
            '',
            '| Side | Results | Mean percentile | Season percentile | P(as lucky or luckier) |',
            '| --- | --- | --- | --- | --- |',
            ...rows.map(r => `| ${r.join(' | ')} |`)
        ]);
        expect(rows[0][3]).toBe(pct(HAND.all.French.percentile));
    });

    it('--json prints the state table and the season object, with its schema', async () => {
        const json = JSON.parse((await status(file, { json: true })).join('\n'));
        expect(Object.keys(json)).toEqual(['schema', 'file', 'rules', 'title', 'at', 'when', 'header', 'rows', 'season']);
        expect([json.schema, json.file, json.rules, json.title, json.at, json.when]).toEqual([1, file, 'scrud', 'Two fords', null, 'at the end of the file']);
        expect(json.header).toEqual(['Force', 'Unit', 'Status', 'Last result', 'Notes']);
        expect(json.rows).toEqual([
            ['French', 'A', 'ready', 'won (Ford, turn 1)', ''], ['French', 'B', 'ready', 'stand-off (Mill, turn 2)', ''],
            ['Austrian', 'C', 'ready', 'retreat (Ford, turn 1)', ''], ['Austrian', 'D', 'ready', 'stand-off (Mill, turn 2)', '']
        ]);
        expectHand(json.season, HAND.all, 2);
        const model = await modelOfFile(file);
        expect(json.season).toEqual(JSON.parse(JSON.stringify(seasonLuck(model, model.actions))));
    });

    it('a sampled season (the Ancients example) prints the figures seasonLuck gives, the same every run', async () => {
        const example = 'examples/campaign.battle';
        const model = await modelOfFile(example);
        const direct = seasonLuck(model, model.actions);
        if ('problem' in direct) throw new Error(direct.problem);
        expect([direct.method, direct.samples, direct.seed]).toEqual(['monte-carlo', 2000, 1]);
        const json = JSON.parse((await status(example, { json: true })).join('\n'));
        expect(json.season).toEqual(JSON.parse(JSON.stringify(direct)));
        expect(seasonHeading(direct)).toMatch(/^Luck over the season \(Monte Carlo over 2000 seasons from seed 1, ±N the standard error; sampled: /);
        expect(seasonRows(direct)[0][3]).toMatch(/^\d+\.\d% ±\d+\.\d$/);
    }, 60_000);

    it('a file with no written outcome says so, and prints no table', async () => {
        const fresh = path.join(dir, 'fresh.battle');
        fs.writeFileSync(fresh, TWO_FORDS);
        const lines = await status(fresh, {});
        expect(seasonSection(lines)).toEqual(['Luck over the season: no written outcome has odds to measure luck against.']);
        const json = JSON.parse((await status(fresh, { json: true })).join('\n'));
        expect(json.season.method).toBe('none');
        expect(json.season.sides.map((s: { percentile: null }) => s.percentile)).toEqual([null, null]);
    });

    it('--markdown with --json, or an unknown turn, is refused with a clear message and its exit code', async () => {
        await expect(statusCommand(file, { markdown: true, json: true }, () => undefined)).rejects.toThrow(CliError);
        const both = umpire('status', file, '--markdown', '--json');
        expect([both.code, both.stdout]).toEqual([2, '']);
        expect(both.stderr).toMatch(/--markdown and --json are two ways to print the same state: choose one/);
        const turn = umpire('status', file, '--at', '9', '--json');
        expect([turn.code, turn.stdout]).toEqual([1, '']);
        expect(turn.stderr).toMatch(/there is no turn '9' \(turns: 1, 2\)/);
    }, 60_000);
});
