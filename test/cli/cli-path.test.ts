/**
 * The README's set-up (`npm install && npm link`) puts `umpire` on the PATH as a symlink to
 * bin/umpire.cjs in the clone. The same link is made here in a temporary folder, without npm, and
 * `umpire` is run by name from elsewhere, as a user would type it.
 */
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureServerBundle } from '../protocol/lsp-harness.js';

const root = fileURLToPath(new URL('../..', import.meta.url));
const manifest = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8'));
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'umpire-path-'));

beforeAll(() => ensureServerBundle(), 120_000);
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

describe('umpire on the PATH', () => {
    it('is the bin npm links: an executable node script', () => {
        expect(manifest.bin).toEqual({ umpire: './bin/umpire.cjs' });
        const bin = path.join(root, manifest.bin.umpire);
        expect(fs.readFileSync(bin, 'utf8').split('\n')[0]).toBe('#!/usr/bin/env node');
        expect(fs.statSync(bin).mode & 0o111).not.toBe(0);
    });

    it('runs by name through a link from another folder, as after npm link', () => {
        const binDir = path.join(tmp, 'bin');
        const work = path.join(tmp, 'work');
        fs.mkdirSync(binDir);
        fs.mkdirSync(work);
        fs.symlinkSync(path.join(root, manifest.bin.umpire), path.join(binDir, 'umpire'));
        fs.copyFileSync(path.join(root, 'examples', 'scrud-seed.battle'), path.join(work, 'scrud-seed.battle'));
        const env = { ...process.env, PATH: [binDir, path.dirname(process.execPath), process.env.PATH].join(path.delimiter) };
        const run = (...args: string[]) => spawnSync('umpire', args, { cwd: work, env, encoding: 'utf8' });

        const check = run('check', 'scrud-seed.battle');
        expect([check.status, check.stdout, check.stderr]).toEqual([0, '0 problems in 1 file\n', '']);
        const resolve = run('resolve', 'scrud-seed.battle');
        expect(resolve.status).toBe(0);
        expect(resolve.stdout).toContain('Result: Defender foot: 3 stand-off, 1 recoil, 2 retire · Attacker horse: 1 recoil, 1 retire');
        expect(run('--version').stdout.trim()).toBe(manifest.version);
    });
});
