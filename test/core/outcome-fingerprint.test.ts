import { describe, expect, it } from 'vitest';
import * as fs from 'node:fs';
import { loadText } from '../../src/cli/load.js';
import { resolveAll } from '../../src/core/resolve-all.js';

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
