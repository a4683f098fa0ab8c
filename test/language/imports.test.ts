/**
 * Campaigns across files in the language server (docs/campaigns.md#campaigns-across-files): an order
 * of battle in one document, scenarios that `import` it, linked through Langium's index.
 */
import { describe, expect, it } from 'vitest';
import { AstUtils, URI, type LangiumDocument } from 'langium';
import { TextDocument } from 'vscode-languageserver-textdocument';
import type { ApplyWorkspaceEditParams, Location, TextDocumentEdit, TextEdit } from 'vscode-languageserver';
import { scratchChecker, services, battle } from '../support/services.js';
import { OutcomeCommands, type EditorSide } from '../../src/language/lsp/outcome-requests.js';
import { modelOf } from '../../src/core/model-cache.js';
import { Codes } from '../../src/core/codes.js';
import { isAction, isSides, type Scenario } from '../../src/language/generated/ast.js';

const ARMIES = `scenario "Order of battle"
rules scrud

grade Veteran +1
modifier Uphill -1

force French {
  unit Ligne foot Veteran x2
  unit Chasseurs horse
}

force Austrian {
  unit Grenz foot
}
`;

const SEASON = `scenario "Season"
rules scrud
import "armies.battle"

engagement Ridge {
  French.Ligne#2, French.Chasseurs attacks Austrian
  factor Uphill on French.Ligne
  seed 7
}
`;

let folder = 0;
/**
 * A fresh folder of the shared workspace for each test, so that no test sees another's files. The
 * texts are open in the editor (the server's TextDocuments), and built as the server builds a change.
 */
async function campaign(files: Record<string, string>): Promise<Record<string, LangiumDocument<Scenario>>> {
    const base = `file:///campaign-${++folder}/`;
    for (const [name, text] of Object.entries(files)) editorHolds(base + name, text, 1);
    const uris = Object.keys(files).map(name => URI.parse(base + name));
    await services.shared.workspace.DocumentBuilder.update(uris, []);
    const docs: Record<string, LangiumDocument<Scenario>> = {};
    for (const uri of uris) docs[uri.path.split('/').pop()!] = services.shared.workspace.LangiumDocuments.getDocument(uri) as LangiumDocument<Scenario>;
    return docs;
}

function editorHolds(uri: string, text: string, version: number): void {
    services.shared.workspace.TextDocuments!.set(TextDocument.create(uri, 'battle', version, text));
}

/** An edit typed in the editor: the server rebuilds that file and every file it affects. */
async function edit(doc: LangiumDocument, text: string, version: number): Promise<void> {
    editorHolds(doc.uri.toString(), text, version);
    await services.shared.workspace.DocumentBuilder.update([doc.uri], []);
}

const codes = (doc: LangiumDocument) => (doc.diagnostics ?? []).map(d => d.code);
const position = (doc: LangiumDocument, text: string, shift = 0) => doc.textDocument.positionAt(doc.textDocument.getText().indexOf(text) + shift);

describe('import "file.battle"', () => {
    it('resolves the imported forces, units, grades and modifiers, and the model holds them', async () => {
        const { 'season.battle': season, 'armies.battle': armies } = await campaign({ 'armies.battle': ARMIES, 'season.battle': SEASON });
        expect(season.diagnostics).toEqual([]);
        const action = season.parseResult.value.elements.find(isAction)!;
        const sides = action.statements.find(isSides)!;
        expect(AstUtils.getDocument(sides.attackers[0].force.ref!).uri.toString()).toBe(armies.uri.toString());
        expect(sides.attackers[0].unit?.ref?.name).toBe('Ligne');
        const model = modelOf(season.parseResult.value);
        expect([...model.forces.keys()]).toEqual(['French', 'Austrian']);
        expect(model.forces.get('French')!.units.map(u => `${u.id} ${u.gradeValue}`)).toEqual(['French.Ligne#1 1', 'French.Ligne#2 1', 'French.Chasseurs 0']);
        expect([...model.modifiers.keys()]).toEqual(['Uphill']);
        // The order of battle's actions (it has none) never become the season's, and its own model is its own.
        expect(model.actions.map(a => a.node.name)).toEqual(['Ridge']);
        expect(modelOf(armies.parseResult.value).actions).toEqual([]);
    });

    it("says the close spelling of a name declared in the imported file (did you mean), and the quick fix offers it", async () => {
        const { 'season.battle': season } = await campaign({ 'armies.battle': ARMIES, 'season.battle': SEASON.replace('French.Ligne#2', 'Frnch.Ligne#2') });
        const problem = season.diagnostics!.find(d => d.code === Codes.unknownReference)!;
        expect(problem.message).toBe("There is no force named 'Frnch': did you mean 'French'?");
        expect((problem.data as { replacements?: string[] }).replacements).toEqual(['French']);
    });

    it('follows imports through another file', async () => {
        const { 'season.battle': season } = await campaign({
            'grades.battle': 'rules scrud\ngrade Veteran +1\n',
            'armies.battle': 'rules scrud\nimport "grades.battle"\nforce French {\n  unit Ligne foot Veteran\n}\nforce Austrian {\n  unit Grenz foot\n}\n',
            'season.battle': 'rules scrud\nimport "armies.battle"\nengagement E {\n  French attacks Austrian\n  seed 1\n}\n'
        });
        expect(season.diagnostics).toEqual([]);
        expect(modelOf(season.parseResult.value).forces.get('French')!.units[0].gradeValue).toBe(1);
    });

    it('goes to the definition in the imported file, and finds references from it', async () => {
        const { 'season.battle': season, 'armies.battle': armies } = await campaign({ 'armies.battle': ARMIES, 'season.battle': SEASON });
        const links = await battle.lsp.DefinitionProvider!.getDefinition(season, { textDocument: { uri: season.uri.toString() }, position: position(season, 'Chasseurs attacks', 2) });
        expect(links?.map(l => l.targetUri)).toEqual([armies.uri.toString()]);
        expect(links![0].targetSelectionRange.start.line).toBe(8);
        const refs = await battle.lsp.ReferencesProvider!.findReferences(armies, { textDocument: { uri: armies.uri.toString() }, position: position(armies, 'French', 1), context: { includeDeclaration: false } }) as Location[];
        expect(refs.map(r => `${r.uri.split('/').pop()}:${r.range.start.line}`)).toEqual(['season.battle:5', 'season.battle:5', 'season.battle:6']);
    });

    it('renames a force and a unit in every file that uses them', async () => {
        const { 'season.battle': season, 'armies.battle': armies } = await campaign({ 'armies.battle': ARMIES, 'season.battle': SEASON });
        const rename = async (doc: LangiumDocument, at: string, newName: string) => {
            const edit = await battle.lsp.RenameProvider!.rename(doc, { textDocument: { uri: doc.uri.toString() }, position: position(doc, at, 1), newName });
            return (d: LangiumDocument) => TextDocument.applyEdits(d.textDocument, edit?.changes?.[d.uri.toString()] ?? []);
        };
        const byForce = await rename(season, 'French.Ligne#2', 'Français');
        expect(byForce(armies)).toContain('force Français {');
        expect(byForce(season)).toContain('Français.Ligne#2, Français.Chasseurs attacks Austrian');
        expect(byForce(season)).toContain('factor Uphill on Français.Ligne');
        const byUnit = await rename(armies, 'Ligne foot', 'Line');
        expect(byUnit(armies)).toContain('unit Line foot Veteran x2');
        expect(byUnit(season)).toContain('French.Line#2, French.Chasseurs');
        // The name the imported declaration must not take is looked up in its own file.
        await expect(battle.lsp.RenameProvider!.rename(season, { textDocument: { uri: season.uri.toString() }, position: position(season, 'French.Ligne#2', 1), newName: 'Austrian' }))
            .rejects.toThrow(/already a force named 'Austrian'/);
    });

    it('checks the importer again when the imported file changes', async () => {
        const { 'season.battle': season, 'armies.battle': armies } = await campaign({ 'armies.battle': ARMIES, 'season.battle': SEASON });
        expect(season.diagnostics).toEqual([]);
        await edit(armies, ARMIES.replace('unit Chasseurs horse', 'unit Hussars horse'), 2);
        expect(codes(season)).toContain(Codes.unknownReference);
        expect(modelOf(season.parseResult.value).forces.get('French')!.units.map(u => u.name)).toEqual(['Ligne', 'Ligne', 'Hussars']);
        await edit(armies, ARMIES, 3);
        expect(season.diagnostics).toEqual([]);
    });

    it('checks the importer again when the imported file changes, also when none of its references points there', async () => {
        const own = 'rules scrud\nimport "armies.battle"\nforce Bavarian {\n  unit Line foot\n}\n';
        const { 'own.battle': season, 'armies.battle': armies } = await campaign({ 'armies.battle': ARMIES, 'own.battle': own });
        expect(season.diagnostics).toEqual([]);
        await edit(armies, ARMIES + 'force Bavarian {\n  unit Jaeger foot\n}\n', 2);
        expect(codes(season)).toEqual([Codes.importNameClash]);
        await edit(armies, ARMIES.replace('rules scrud', 'rules ancients'), 3);
        expect(codes(season)).toEqual([Codes.importRulesDiffer]);
    });

    it('reports a cycle, a name in two files and another rule set, each with its code', async () => {
        const { 'a.battle': a, 'b.battle': b, 'season.battle': season } = await campaign({
            'armies.battle': ARMIES,
            'a.battle': 'rules scrud\nimport "b.battle"\ngrade Raw -1\n',
            'b.battle': 'rules scrud\nimport "a.battle"\ngrade Green -1\n',
            'other.battle': 'rules ancients\nforce Austrian {\n  unit Grenz infantry { size medium }\n}\n',
            'season.battle': 'rules scrud\nimport "armies.battle"\nimport "other.battle"\nforce French {\n  unit Old foot\n}\n'
        });
        expect(codes(a)).toEqual([Codes.importCycle]);
        expect(a.diagnostics![0].message).toContain('a.battle → b.battle → a.battle');
        expect(codes(b)).toEqual([Codes.importCycle]);
        const found = (season.diagnostics ?? []).map(d => `${d.range.start.line}:${d.code}`);
        expect(found).toEqual(expect.arrayContaining(['2:import-rules-differ', '2:import-name-clash', '3:import-name-clash']));
        expect(found).toHaveLength(3);
        const own = season.diagnostics!.find(d => d.range.start.line === 3)!;
        expect(own.message).toContain("force named 'French' in armies.battle");
        // The file's own declaration is the one it uses.
        expect(modelOf(season.parseResult.value).forces.get('French')!.units.map(u => u.name)).toEqual(['Old']);
    });

    it('reports a file that cannot be loaded, and a file that imports itself', async () => {
        const { 'season.battle': season } = await campaign({ 'season.battle': 'rules scrud\nimport "nowhere.battle"\nimport "season.battle"\nimport "notes.txt"\n' });
        // This workspace has no file system (as in the browser): a file not open cannot be read.
        expect(codes(season)).toEqual([Codes.importUnreadable, Codes.importCycle, Codes.importUnreadable]);
        expect(season.diagnostics![2].message).toContain('only .battle files can be imported');
    });

    it('Resolve all checks its scratch copies beside the imported files, and writes into the importer only', async () => {
        const { 'season.battle': season, 'armies.battle': armies } = await campaign({ 'armies.battle': ARMIES, 'season.battle': SEASON });
        const written: ApplyWorkspaceEditParams[] = [];
        const editor: EditorSide = { applyEdit: async p => { written.push(p); return { applied: true }; }, tell: () => undefined, ask: async () => undefined };
        const commands = new OutcomeCommands(services.shared, editor, scratchChecker(), () => 1);
        const result = await commands.resolveAll({ uri: season.uri.toString(), version: 1 });
        expect(result).toMatchObject({ applied: true });
        expect(result.resolved.map(r => r.action)).toEqual(['Ridge']);
        const edits = written.flatMap(w => w.edit.documentChanges ?? []) as TextDocumentEdit[];
        expect(edits.map(e => e.textDocument.uri)).toEqual([season.uri.toString()]);
        expect((edits[0].edits[0] as TextEdit).newText).toContain('French.Ligne#2:');
        expect(armies.textDocument.getText()).toBe(ARMIES);
    });

    it('Format Document keeps an import on its own line in the header', async () => {
        const { 'season.battle': season } = await campaign({ 'armies.battle': ARMIES, 'season.battle': 'scenario "S"\nrules scrud   import   "armies.battle"\n\n\nimport "armies.battle"  engagement E {\n French attacks Austrian\n seed 1 }\n' });
        const edits = await battle.lsp.Formatter!.formatDocument(season, { textDocument: { uri: season.uri.toString() }, options: { tabSize: 2, insertSpaces: true } });
        expect(TextDocument.applyEdits(season.textDocument, edits)).toBe(
            'scenario "S"\nrules scrud\nimport "armies.battle"\nimport "armies.battle"\n\nengagement E {\n  French attacks Austrian\n  seed 1\n}\n');
    });
});
