/**
 * `umpire check`'s services (`createBattleServices({ oneShot: true })`, src/cli/load.ts), which skip
 * what only an editor's next build reads, find exactly what the editor's services find, on every example.
 */
import * as fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { URI } from 'langium';
import { NodeFileSystem } from 'langium/node';
import { createBattleServices, type BattleServices } from '../../src/language/battle-module.js';
import { contextOf } from '../../src/core/model-cache.js';
import { buildScenario } from '../../src/core/scenario.js';
import type { Scenario } from '../../src/language/generated/ast.js';

const folder = new URL('../../examples/', import.meta.url);
const examples = fs.readdirSync(folder).filter(f => f.endsWith('.battle')).sort();

async function problemsOf(services: BattleServices, file: string, text: string): Promise<string[]> {
    const uri = URI.file(new URL(file, folder).pathname);
    const documents = services.shared.workspace.LangiumDocuments;
    if (documents.hasDocument(uri)) documents.deleteDocument(uri);
    const document = services.shared.workspace.LangiumDocumentFactory.fromString(text, uri);
    documents.addDocument(document);
    await services.shared.workspace.DocumentBuilder.build([document], { validation: true });
    return (document.diagnostics ?? []).map(d => `${d.range.start.line}:${d.range.start.character}-${d.range.end.line}:${d.range.end.character} ${d.severity} ${d.code} ${d.message}`);
}

describe('a one-shot check', () => {
    it('finds what the editor finds, in every example, and with every written outcome made stale', async () => {
        const once = createBattleServices({ ...NodeFileSystem, oneShot: true }).Battle;
        const editor = createBattleServices(NodeFileSystem).Battle;
        let problems = 0, stale = 0;
        for (const file of examples) {
            const text = fs.readFileSync(new URL(file, folder), 'utf8');
            // A fingerprint that no longer matches: the outcome's replay (checkOutcome) says it is stale.
            for (const variant of [text, text.replace(/check "/g, 'check "0')]) {
                const found = await problemsOf(once, file, variant);
                expect(found, file).toEqual(await problemsOf(editor, file, variant));
                problems += found.length;
                if (variant !== text) stale += found.filter(line => line.includes('stale')).length;
            }
        }
        expect(examples.length).toBeGreaterThan(10);
        expect(problems).toBeGreaterThan(0);
        expect(stale).toBeGreaterThan(0);
    });
});

describe('a one-shot check keeps no force\'s model for a next build', () => {
    it('its parses say so to the model, which builds each force anew, as the editor\'s keeps each by its node', async () => {
        const text = 'scenario "K"\nrules scrud\ngrade Veteran +1\nforce A {\n  unit Guard foot Veteran\n  unit Line foot x3\n}\nforce B { unit Hussars horse }\n';
        const rootOf = (services: BattleServices, name: string) =>
            services.shared.workspace.LangiumDocumentFactory.fromString(text, URI.file(`/one-shot/${name}.battle`)).parseResult.value as Scenario;
        const once = rootOf(createBattleServices({ ...NodeFileSystem, oneShot: true }).Battle, 'once');
        const editor = rootOf(createBattleServices(NodeFileSystem).Battle, 'editor');
        expect(contextOf(once).once).toBe(true);
        expect(contextOf(editor).once).toBe(false);
        for (const root of [once, editor]) {
            const [first, second] = [buildScenario(root, contextOf(root)), buildScenario(root, contextOf(root))];
            const units = (model: typeof first) => [...model.forces.values()].flatMap(f => f.units.map(u => `${u.id} ${u.arm} ${u.gradeValue} ${u.order}`));
            expect(units(second)).toEqual(['A.Guard foot 1 0', 'A.Line#1 foot 0 1', 'A.Line#2 foot 0 2', 'A.Line#3 foot 0 3', 'B.Hussars horse 0 0']);
            expect(units(first)).toEqual(units(second));
            // The editor's second build finds each force's model kept by its node; a one-shot build makes it again.
            expect(second.forces.get('A') === first.forces.get('A')).toBe(root === editor);
        }
    });
});
