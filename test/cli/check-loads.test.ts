/**
 * What a small check loads: a check reads, links and validates, and makes none of the tables the
 * status and odds commands print. string-width makes an `Intl.Segmenter` when its module is evaluated
 * (about a fifth of the check of a small file, docs/performance.md, "Start-up"), so the check must not
 * reach it; `umpire status`, which lines its table up by display width, does.
 */
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { describe, expect, it } from 'vitest';

/** Runs the CLI with `Intl.Segmenter` counted: its output and how many were made. */
function run(args: string[]): { output: string, segmenters: number } {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'umpire-loads-'));
    const hook = path.join(dir, 'count-segmenters.cjs');
    fs.writeFileSync(hook, `const Made = Intl.Segmenter;
Intl.Segmenter = function (...a) { process.stderr.write('[segmenter made]\\n'); return new Made(...a); };\n`);
    const r = spawnSync(process.execPath, ['--require', hook, 'bin/umpire.cjs', ...args], { encoding: 'utf8', env: { ...process.env, UMPIRE_CODE_CACHE: '0' } });
    fs.rmSync(dir, { recursive: true, force: true });
    return { output: r.stdout, segmenters: (r.stderr.match(/\[segmenter made\]/g) ?? []).length };
}

describe('what a check loads', () => {
    it('a check of every rule set\'s example makes no Intl.Segmenter', () => {
        for (const file of ['examples/scrud-seed.battle', 'examples/campaign.battle', 'examples/loose-files-turn.battle']) {
            const r = run(['check', file]);
            expect(r.output, file).toMatch(/problems?( \(.*\))? in 1 file/);
            expect(r.segmenters, file).toBe(0);
        }
    });

    it('umpire status, which lines its columns up by display width, does make one', () => {
        const r = run(['status', 'examples/campaign.battle']);
        expect(r.output).toContain('Force');
        expect(r.segmenters).toBeGreaterThan(0);
    });
});
