/**
 * The real CLI's outputs on every example, byte for byte against test/goldens/ (written by
 * `node scripts/goldens.mjs --update`). A refactor leaves them identical; a change of output that is
 * meant is made by updating the goldens in its own commit, where the diff shows what changed.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { ensureServerBundle } from './protocol/lsp-harness.js';
// @ts-expect-error a plain ES module script, without types
import { produceGoldens } from '../scripts/goldens.mjs';

beforeAll(() => ensureServerBundle(), 120_000);

describe('CLI outputs on every example are the goldens', () => {
    it('resolve, odds, status, check, table and resolve --write match test/goldens/', async () => {
        const results = await produceGoldens(3) as Array<[string, string]>;
        expect(results.length).toBeGreaterThan(80);
        for (const [name, text] of results) {
            const golden = fs.readFileSync(path.join('test', 'goldens', name), 'utf8');
            expect(text, name).toBe(golden);
        }
    }, 240_000);
});
