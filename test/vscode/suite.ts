/**
 * The same scenarios as the real-editor test (test/e2e), through the `vscode` API in a desktop
 * extension host started by @vscode/test-electron (`npm run test:vscode`; needs internet to
 * download VS Code). Bundled to out/test/vscode/suite.cjs by test/vscode/vscode-run.mjs.
 * No test framework: each scenario is an async function; `run` reports and throws on failure.
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as vscode from 'vscode';

// The worked example's result, as the SCRUD seed (docs/rules/scrud.md) states it.
const SEED_SUMMARY = 'Defender foot: 3 stand-off, 1 recoil, 2 retire · Attacker horse: 1 recoil, 1 retire';
const GUARD_LINE = 'Attacker.Guard: stand-off, die 4, mod +2, adjusted 6 vs Defender.Grenz#1';

interface ResolveResult { applied: boolean, summary: string, seed: number | null }

function fileInWorkspace(name: string): vscode.Uri {
    const folder = vscode.workspace.workspaceFolders?.[0];
    assert.ok(folder, 'the test opens a copy of examples/ as its workspace folder');
    return vscode.Uri.joinPath(folder.uri, name);
}

async function poll<T>(what: string, probe: () => Thenable<T> | T, ok: (value: T) => boolean, timeoutMs = 30000): Promise<T> {
    const deadline = Date.now() + timeoutMs;
    let value = await probe();
    while (!ok(value)) {
        if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
        await new Promise(r => setTimeout(r, 200));
        value = await probe();
    }
    return value;
}

async function lensesOf(uri: vscode.Uri): Promise<vscode.CodeLens[]> {
    return poll('code lenses', async () => await vscode.commands.executeCommand<vscode.CodeLens[]>('vscode.executeCodeLensProvider', uri) ?? [],
        lenses => lenses.some(l => l.command?.title === 'Resolve'), 60000);
}

async function clickLens(uri: vscode.Uri, title: string): Promise<ResolveResult> {
    const lens = (await lensesOf(uri)).find(l => l.command?.title === title);
    assert.ok(lens?.command, `a ${title} lens`);
    return vscode.commands.executeCommand<ResolveResult>(lens.command.command, ...(lens.command.arguments ?? []));
}

const scenarios: Array<[string, () => Promise<void>]> = [
    ['the extension activates on a .battle file and shows Resolve and Odds lenses', async () => {
        const uri = fileInWorkspace('scrud-seed.battle');
        await vscode.window.showTextDocument(await vscode.workspace.openTextDocument(uri));
        const titles = (await lensesOf(uri)).map(l => l.command?.title).sort();
        assert.deepEqual(titles, ['Odds', 'Resolve']);
        assert.ok(vscode.extensions.getExtension('umpire-dev.umpire')?.isActive, 'the extension is active');
    }],
    ['Resolve writes the seed\'s outcome into the document, and saving puts it on disk', async () => {
        const uri = fileInWorkspace('scrud-seed.battle');
        const result = await clickLens(uri, 'Resolve');
        assert.equal(result.applied, true);
        assert.equal(result.summary, SEED_SUMMARY);
        assert.equal(result.seed, null);
        const doc = await vscode.workspace.openTextDocument(uri);
        assert.match(doc.getText(), /\n {2}outcome entered check "[0-9a-f]{8}" \{\n/);
        assert.ok(doc.getText().includes(`\n    summary "${SEED_SUMMARY}"\n`));
        assert.ok(doc.getText().includes(`\n    ${GUARD_LINE}\n`));
        assert.ok(await doc.save(), 'saved');
        assert.equal(fs.readFileSync(uri.fsPath, 'utf8'), doc.getText());
    }],
    ['Resolve again leaves the text unchanged', async () => {
        const uri = fileInWorkspace('scrud-seed.battle');
        const doc = await vscode.workspace.openTextDocument(uri);
        const before = doc.getText();
        const result = await clickLens(uri, 'Resolve');
        assert.equal(result.summary, SEED_SUMMARY);
        assert.equal(doc.getText(), before);
    }],
    ['a broken file shows its problems with codes at the exact ranges', async () => {
        const uri = fileInWorkspace('broken.battle');
        await vscode.window.showTextDocument(await vscode.workspace.openTextDocument(uri));
        const diagnostics = await poll('three problems', () => vscode.languages.getDiagnostics(uri), d => d.length >= 3);
        const seen = diagnostics
            .map(d => `${typeof d.code === 'object' ? d.code.value : d.code} ${d.range.start.line}:${d.range.start.character}-${d.range.end.line}:${d.range.end.character}`)
            .sort();
        assert.deepEqual(seen, ['dice-count 17:23-17:24', 'die-face 16:21-16:22', 'unknown-reference 18:9-18:14']);
    }]
];

export async function run(): Promise<void> {
    let passed = 0;
    const failures: string[] = [];
    for (const [name, scenario] of scenarios) {
        try {
            await scenario();
            passed++;
            console.log(`  ✓ ${name}`);
        } catch (err) {
            failures.push(name);
            console.log(`  ✗ ${name}\n    ${err instanceof Error ? err.stack ?? err.message : String(err)}`);
        }
    }
    console.log(`${passed} passed, ${failures.length} failed`);
    if (failures.length > 0) throw new Error(`${failures.length} scenario(s) failed: ${failures.join('; ')}`);
}
