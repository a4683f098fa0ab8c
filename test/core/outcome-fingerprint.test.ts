import { describe, expect, it } from 'vitest';
import * as fs from 'node:fs';
import { loadText } from '../../src/cli/load.js';
import { resolveAll } from '../../src/core/resolve-all.js';
import fc from 'fast-check';
import { fingerprint } from '../../src/core/fingerprint.js';

/** The fingerprint's rule, read independently: JSON with keys aliased and sorted, undefined fields left out, hashed by FNV-1a. */
function expectedFingerprint(value: unknown, aliases: ReadonlyMap<string, string>): string {
    const sorted = (v: unknown): unknown => {
        if (Array.isArray(v)) return v.map(sorted);
        if (typeof v === 'string') return aliases.get(v) ?? v;
        if (v && typeof v === 'object') {
            const pairs = Object.entries(v).filter(([, x]) => x !== undefined).map(([k, x]) => [aliases.get(k) ?? k, sorted(x)] as const);
            pairs.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
            // Keys that are array indices would be reordered by an object: the pairs are written out by hand.
            return { pairs };
        }
        return v;
    };
    const write = (v: unknown): string => {
        if (Array.isArray(v)) return `[${v.map(write).join(',')}]`;
        if (v && typeof v === 'object') return `{${(v as { pairs: Array<readonly [string, unknown]> }).pairs.map(([k, x]) => `${JSON.stringify(k)}:${write(x)}`).join(',')}}`;
        return JSON.stringify(v) ?? 'null';
    };
    const text = write(sorted(value));
    let h = 0x811c9dc5;
    for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193) >>> 0;
    return h.toString(16).padStart(8, '0');
}

/** The codes of a text's diagnostics, as the CLI and the editor see them. */
async function codes(text: string): Promise<string[]> {
    const loaded = await loadText('fingerprint.battle', text);
    return loaded.diagnostics.map(d => String(d.code));
}

/** The file with every outcome written, as `umpire resolve --write` writes it. */
async function written(file: string): Promise<string> {
    const text = fs.readFileSync(file, 'utf8');
    const result = await resolveAll(text, async t => {
        const loaded = await loadText('fingerprint.battle', t);
        return { root: loaded.document.parseResult.value, errors: loaded.diagnostics.filter(d => d.severity === 1).map(d => d.message as string) };
    }, { newSeed: () => 1 });
    return result.text;
}

describe('outcome fingerprints', () => {
    it('hash the value\'s JSON with its keys sorted and its names aliased, whatever the value', () => {
        const names = ['French', 'Austrian', 'Line#1', 'units', 'b', 'a', '10', '2'];
        const key = fc.constantFrom(...names);
        const leaf = fc.oneof(fc.integer({ min: -9, max: 99 }), fc.constantFrom(...names), fc.boolean(), fc.constant(null), fc.constant(undefined));
        const { value } = fc.letrec(tie => ({
            value: fc.oneof({ depthSize: 'small' }, leaf, fc.array(tie('value'), { maxLength: 4 }), fc.dictionary(key, tie('value'), { maxKeys: 5 }))
        }));
        const aliases = new Map([['French', '@0'], ['Austrian', '@1'], ['Line#1', '@0.1'], ['b', 'z']]);
        fc.assert(fc.property(value, v => {
            expect(fingerprint(v, aliases)).toBe(expectedFingerprint(v, aliases));
            expect(fingerprint(v)).toBe(expectedFingerprint(v, new Map()));
        }), { numRuns: 500 });
    });

    it('stay current when a force or unit is renamed everywhere', async () => {
        const text = await written('examples/scrud-ridge.battle');
        expect(await codes(text)).not.toContain('outcome-stale');
        const renamed = text.replaceAll('Prussian', 'Preussen').replaceAll('Grenadiers', 'Grenadiere');
        expect(renamed).not.toBe(text);
        expect(await codes(renamed)).not.toContain('outcome-stale');
    });

    it('go stale when what the fight depends on changes', async () => {
        const text = await written('examples/scrud-ridge.battle');
        const regraded = text.replace('grade Guard +2', 'grade Guard +1');
        expect(await codes(regraded)).toContain('outcome-stale');
        const redice = text.replace('dice French guns 5', 'dice French guns 4');
        expect(await codes(redice)).toContain('outcome-stale');
    });
});
