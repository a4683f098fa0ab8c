/**
 * What resolve-all costs when the caller verifies by checking the written text: the file
 * is checked twice, before and with its outcomes, however many engagements are chained, instead of
 * once per engagement (the CLI and the server verify in memory instead, with no check beyond the
 * first: test/core/resolve-all-in-memory.test.ts); and the text written is the
 * text that resolving one engagement at a time, re-reading the file in between, gives.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { formatDiagnostic, loadText } from '../../src/cli/load.js';
import { resolveAll } from '../../src/core/resolve-all.js';
import { runWrite, scratchDir } from './cli-write-support.js';

/** `forces` forces; engagement i pits force i against force i+1, so each one shares units with the last. */
function chain(forces: number): string {
    const lines = ['scenario "A chain"', 'rules scrud', 'grade Veteran +1', 'modifier Uphill +1', ''];
    for (let f = 0; f < forces; f++) lines.push(`force F${f} {`, '  unit Foot foot Veteran x3', '  unit Horse horse', '}');
    for (let e = 0; e + 1 < forces; e++) {
        lines.push(`turn ${e + 1} {`, `  ruling F${e}: rallied, reason "fresh troops"`, `  ruling F${e + 1}: rallied, reason "fresh troops"`,
            `  engagement E${e} {`, `    F${e} attacks F${e + 1}`, `    factor Uphill on F${e + 1}`, `    seed ${e + 7}`, '  }', '}');
    }
    return lines.join('\n') + '\n';
}

const CAMPAIGN = fs.readFileSync('examples/campaign.battle', 'utf8');

let dir: string;
beforeEach(() => { dir = scratchDir(); });
afterEach(() => { fs.rmSync(dir, { recursive: true, force: true }); });

async function countedResolveAll(text: string): Promise<{ text: string, checks: number, written: number }> {
    let checks = 0;
    const result = await resolveAll(text, async t => {
        checks++;
        const loaded = await loadText(path.join(dir, 'counted.battle'), t);
        return { root: loaded.document.parseResult.value, errors: loaded.diagnostics.filter(d => d.severity === 1).map(d => formatDiagnostic('x', d)) };
    }, { newSeed: () => 1 });
    return { text: result.text, checks, written: result.written.length };
}

/** One engagement per run, each run reading the file the last one wrote. */
async function oneAtATime(text: string, names: string[]): Promise<string> {
    const file = path.join(dir, 'one-at-a-time.battle');
    fs.writeFileSync(file, text);
    for (const engagement of names) expect((await runWrite(file, undefined, { engagement })).code).toBe(0);
    return fs.readFileSync(file, 'utf8');
}

describe('resolve-all checking its result checks the file twice, whatever its length', () => {
    it('on 12 chained engagements: two checks, and the text one-at-a-time gives', async () => {
        const text = chain(13);
        const r = await countedResolveAll(text);
        expect(r.written).toBe(12);
        expect(r.checks).toBe(2);
        expect(r.text).toBe(await oneAtATime(text, Array.from({ length: 12 }, (_, i) => `E${i}`)));
    });

    it('on the example campaign, where each engagement reads the state the last one left', async () => {
        const unresolved = CAMPAIGN.replace(/\n[ \t]*outcome [^{]*\{[^}]*\}/g, '');
        const r = await countedResolveAll(unresolved);
        expect(r.checks).toBe(2);
        expect(r.text).toBe(CAMPAIGN);
    });

    it('when an earlier outcome is written again, the later ones it changes are written again too', async () => {
        // The ford fought again with other dice: its outcome is stale, and the pass and the camp read it.
        const refought = CAMPAIGN.replace('    seed 6\n    outcome seed 6', '    seed 2\n    outcome seed 2');
        expect(refought).not.toBe(CAMPAIGN);
        const r = await countedResolveAll(refought);
        expect(r.checks).toBe(2);
        expect(r.text).toBe(await oneAtATime(refought, ['Ford', 'Pass', 'Camp']));
        const blocks = (t: string) => t.match(/outcome seed[^}]*\}/g)!;
        const changed = blocks(r.text).filter((b, i) => b !== blocks(CAMPAIGN)[i]);
        expect(changed.length).toBeGreaterThan(1);
    });

    it('once: a fully resolved file is checked once and left as it is', async () => {
        const r = await countedResolveAll(CAMPAIGN);
        expect(r).toEqual({ text: CAMPAIGN, checks: 1, written: 0 });
    });
});
