/**
 * What a small check loads: a check reads, links and validates, and makes none of the tables the
 * status and odds commands print. string-width makes an `Intl.Segmenter` when its module is evaluated
 * (about a fifth of the check of a small file, docs/performance.md, "Start-up"), so the check must not
 * reach it; `umpire status`, which lines its table up by display width, does. Nor does a command load
 * Node's `child_process` (with it `net`, `dgram` and their kin), which the CLI's argument parser loads only
 * for a feature the CLI does not use (esbuild.mjs, `childProcessOnUse`).
 */
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { describe, expect, it } from 'vitest';

/** Runs the CLI with `Intl.Segmenter` counted: its output, how many were made, and whether `child_process` was loaded. */
function run(args: string[]): { output: string, segmenters: number, childProcess: boolean } {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'umpire-loads-'));
    const hook = path.join(dir, 'count-segmenters.cjs');
    fs.writeFileSync(hook, `const Made = Intl.Segmenter;
Intl.Segmenter = function (...a) { process.stderr.write('[segmenter made]\\n'); return new Made(...a); };
process.on('exit', () => { if (process.moduleLoadList.includes('NativeModule child_process')) process.stderr.write('[child_process loaded]\\n'); });\n`);
    const r = spawnSync(process.execPath, ['--require', hook, 'bin/umpire.cjs', ...args], { encoding: 'utf8', env: { ...process.env, UMPIRE_CODE_CACHE: '0' } });
    fs.rmSync(dir, { recursive: true, force: true });
    return { output: r.stdout, segmenters: (r.stderr.match(/\[segmenter made\]/g) ?? []).length, childProcess: r.stderr.includes('[child_process loaded]') };
}

describe('what a check loads', () => {
    it('a check of every rule set\'s example makes no Intl.Segmenter', () => {
        for (const file of ['examples/scrud-seed.battle', 'examples/campaign.battle', 'examples/loose-files-turn.battle']) {
            const r = run(['check', file]);
            expect(r.output, file).toMatch(/problems?( \(.*\))? in 1 file/);
            expect(r.segmenters, file).toBe(0);
            expect(r.childProcess, file).toBe(false);
        }
    });

    it('umpire status, which lines its columns up by display width, does make one', () => {
        const r = run(['status', 'examples/campaign.battle']);
        expect(r.output).toContain('Force');
        expect(r.segmenters).toBeGreaterThan(0);
    });

    it('the hook sees child_process when a program loads it (what the check above asserts can fail)', () => {
        const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'umpire-loads-'));
        const program = path.join(dir, 'spawns.cjs');
        fs.writeFileSync(program, `require('node:child_process');\nprocess.on('exit', () => process.stderr.write(String(process.moduleLoadList.includes('NativeModule child_process'))));\n`);
        const r = spawnSync(process.execPath, [program], { encoding: 'utf8' });
        fs.rmSync(dir, { recursive: true, force: true });
        expect(r.stderr).toBe('true');
    });
});
