/**
 * Rename keeps the record current (docs/campaigns.md#rename): the written summaries follow a rename of
 * a force or a unit, so no summary names the old name and no outcome is stale or altered after it.
 */
import * as fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { loadText } from '../../../src/cli/load.js';
import { resolveAll } from '../../../src/core/resolve-all.js';
import { battle as services, parse } from '../../support/services.js';

async function written(text: string): Promise<string> {
    const check = async (t: string) => {
        const l = await loadText('rename.battle', t);
        return { root: l.document.parseResult.value, errors: l.diagnostics.filter(d => d.severity === 1).map(d => d.message as string) };
    };
    return (await resolveAll(text, check, { newSeed: () => 1 })).text;
}

/** Renames the name at `at` (offset `shift` into it) and returns the new text. */
async function rename(text: string, at: string, newName: string, shift = 0): Promise<string> {
    const doc = await parse(text);
    const position = doc.textDocument.positionAt(text.indexOf(at) + shift);
    const edit = await services.lsp.RenameProvider!.rename(doc, { textDocument: { uri: doc.uri.toString() }, position, newName });
    return TextDocument.applyEdits(doc.textDocument, edit?.changes?.[doc.uri.toString()] ?? []);
}

/** The outcome problems of a text, and its summaries. */
async function record(text: string): Promise<{ problems: string[], summaries: string[] }> {
    const l = await loadText('renamed.battle', text);
    return {
        problems: l.diagnostics.filter(d => d.severity === 1 || String(d.code).startsWith('outcome-')).map(d => `${d.code}: ${d.message}`),
        summaries: [...text.matchAll(/summary ("[^"]*")/g)].map(m => m[1])
    };
}

describe('rename and the written record', () => {
    const cases: Array<[string, string, string, string, number]> = [
        // [example, text at the name, new name, old name as a summary writes it, shift into the text]
        ['campaign', 'unit Thureophoroi', 'Peltasts', 'Successors.Thureophoroi', 'unit '.length],
        ['campaign', 'force Gauls', 'Celts', 'Gauls', 'force '.length],
        ['scrud-seed', 'force Defender', 'Austrians', 'Defender', 'force '.length],
        ['cowpens', 'force British', 'Crown', 'British', 'force '.length]
    ];
    it.each(cases)('in %s, renaming at "%s" to %s leaves no summary naming the old name and nothing stale', async (example, at, newName, old, shift) => {
        const text = await written(fs.readFileSync(`examples/${example}.battle`, 'utf8'));
        const before = await record(text);
        expect(before.problems).toEqual([]);
        expect(before.summaries.some(s => s.includes(old))).toBe(true);
        const renamed = await rename(text, at, newName, shift);
        const after = await record(renamed);
        expect(after.problems).toEqual([]);
        const boundary = new RegExp(`(^|["\\s·(])${old.replace('.', '\\.')}(?=[.#\\s:,)"])`, 'u');
        expect(after.summaries.filter(s => boundary.test(s))).toEqual([]);
        expect(after.summaries.length).toBe(before.summaries.length);
        // Resolve all finds every outcome current: it changes nothing.
        expect(await written(renamed)).toBe(renamed);
    });

    it('a summary left naming a unit renamed by hand is not current: outcome-altered at the summary', async () => {
        const text = await written(fs.readFileSync('examples/campaign.battle', 'utf8'));
        // Renamed by hand in the declaration and the outcome lines, but not in the summaries.
        const byHand = text.replace(/unit Boii /, 'unit Arverni ').split('\n')
            .map(l => (l.includes('summary') ? l : l.replace(/Gauls\.Boii/g, 'Gauls.Arverni'))).join('\n');
        expect(byHand).toContain('summary "Gauls 5 hits, Successors 4 hits · Gauls.Boii holds');
        const after = await record(byHand);
        expect(after.problems.length).toBeGreaterThan(0);
        expect(after.problems.every(p => p.startsWith('outcome-altered: This line says \'summary'))).toBe(true);
    });
});
