/**
 * The shipped language server (out/language/main.cjs, the file the .vsix carries) spoken to over
 * stdio by a real LSP client, as VS Code does: diagnostics, code lenses, the resolve command and
 * its versioned workspace edit, hover, formatting, and a clean shutdown.
 */
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TextDocumentEdit, type CodeLens, type MarkupContent } from 'vscode-languageserver-protocol/node';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { type LspSession, repoRoot, type ResolveAllResult, type ResolveCommandResult, startScratchSession, stopScratchSession } from './lsp-harness.js';
import type { ReportResult } from '../../src/protocol.js';

// The worked example's result, as the SCRUD seed (docs/rules/scrud.md) states it.
const SEED_SUMMARY = 'Defender foot: 3 stand-off, 1 recoil, 2 retire · Attacker horse: 1 recoil, 1 retire';

let workspace: string;
let session: LspSession;

beforeAll(async () => {
    ({ workspace, session } = await startScratchSession('umpire-protocol-', workspace => {
        fs.cpSync(path.join(repoRoot, 'examples'), workspace, { recursive: true });
        fs.copyFileSync(path.join(repoRoot, 'test', 'fixtures', 'protocol', 'broken.battle'), path.join(workspace, 'broken.battle'));
    }));
}, 60000);

afterAll(() => stopScratchSession(workspace, session));

function lensTitles(lenses: CodeLens[] | null): string[] {
    return (lenses ?? []).map(l => l.command?.title ?? '(unresolved)');
}

describe('the bundled language server over stdio', () => {
    it('advertises code lenses and the umpire commands', () => {
        const caps = session.initializeResult!.capabilities;
        expect(caps.codeLensProvider).toBeTruthy();
        expect(caps.executeCommandProvider?.commands).toEqual(
            expect.arrayContaining(['umpire.resolve', 'umpire.reroll', 'umpire.resolveAll', 'umpire.odds', 'umpire.report']));
    });

    it('reports no problem in any example but the broken ones, and problems with codes in those', async () => {
        const examples = fs.readdirSync(workspace).filter(f => f.endsWith('.battle'));
        expect(examples).toContain('scrud-seed.battle');
        for (const file of examples) {
            const uri = await session.open(file);
            const diagnostics = await session.diagnosticsFor(uri);
            if (file.startsWith('broken')) {
                expect(diagnostics.length, file).toBeGreaterThan(0);
                for (const d of diagnostics) expect(d.code, `${file}: ${d.message}`).toMatch(/^[a-z]+(-[a-z]+)*$/);
            } else {
                // Information notes are no problem (the Loose Files turn example is written out of order on purpose).
                expect(diagnostics.filter(d => d.severity !== 3).map(d => `${d.code} ${d.message}`), file).toEqual([]);
            }
        }
    });

    it('reports the problems of a broken file with their codes at the exact ranges', async () => {
        const uri = await session.open('broken.battle');
        const diagnostics = await session.diagnosticsFor(uri);
        const seen = diagnostics
            .map(d => ({ code: d.code, severity: d.severity, range: d.range }))
            .sort((a, b) => a.range.start.line - b.range.start.line);
        expect(seen).toEqual([
            // `dice Attacker foot 7`: the 7 itself.
            { code: 'die-face', severity: 1, range: { start: { line: 16, character: 21 }, end: { line: 16, character: 22 } } },
            // `dice Defender foot 3 5`: one unit, two dice; the second die is the one too many.
            { code: 'dice-count', severity: 1, range: { start: { line: 17, character: 23 }, end: { line: 17, character: 24 } } },
            // `factor Tired on …`: the unknown modifier's name.
            { code: 'unknown-reference', severity: 1, range: { start: { line: 18, character: 9 }, end: { line: 18, character: 14 } } }
        ]);
        expect(diagnostics.find(d => d.code === 'unknown-reference')?.message).toContain("'Tired'");
    });

    it('puts Resolve and Odds (no Re-roll: dice are entered) above the engagement', async () => {
        const uri = session.uriOf('scrud-seed.battle');
        const lenses = await session.codeLenses(uri);
        expect(lensTitles(lenses).sort()).toEqual(['Odds', 'Resolve']);
        const engagementLine = session.document(uri).getText().split('\n').findIndex(l => l.startsWith('engagement Example'));
        for (const lens of lenses!) expect(lens.range.start.line).toBe(engagementLine);
        const resolve = lenses!.find(l => l.command?.title === 'Resolve')!;
        expect(resolve.command!.command).toBe('umpire.resolve');
        expect(resolve.command!.arguments).toEqual([expect.objectContaining({ uri, version: 1 })]);
    });

    it('offers Re-roll when the engagement has a seed instead of dice', async () => {
        const uri = session.uriOf('scrud-seed.battle');
        const seeded = session.document(uri).getText().replace(/^\s*dice .*\n/gm, '').replace('Attacker attacks Defender', 'Attacker attacks Defender\n  seed 42');
        const scratch = path.join(workspace, 'seeded.battle');
        fs.writeFileSync(scratch, seeded);
        const seededUri = await session.open('seeded.battle');
        expect(await session.diagnosticsFor(seededUri)).toEqual([]);
        expect(lensTitles(await session.codeLenses(seededUri)).sort()).toEqual(['Odds', 'Re-roll', 'Resolve']);
    });

    it('runs the Resolve lens command: the server applies a versioned edit writing the seed\'s outcome', async () => {
        const uri = session.uriOf('scrud-seed.battle');
        const before = session.document(uri).getText();
        const resolve = (await session.codeLenses(uri))!.find(l => l.command?.title === 'Resolve')!;
        const editsBefore = session.appliedEdits.length;
        const result = await session.executeCommand(resolve.command!.command, resolve.command!.arguments) as ResolveCommandResult;
        expect(result).toEqual(expect.objectContaining({ applied: true, summary: SEED_SUMMARY, seed: null }));

        expect(session.appliedEdits.length).toBe(editsBefore + 1);
        const change = session.appliedEdits[editsBefore].edit.documentChanges![0];
        expect(TextDocumentEdit.is(change)).toBe(true);
        expect((change as TextDocumentEdit).textDocument).toEqual({ uri, version: 1 });

        const after = session.document(uri).getText();
        expect(after).not.toBe(before);
        expect(after).toMatch(/\n {2}outcome entered check "[0-9a-f]{8}" \{\n/);
        expect(after).toContain(`\n    summary "${SEED_SUMMARY}"\n`);
        expect(after).toContain('\n    Attacker.Guard: stand-off, die 4, mod +2, adjusted 6 vs Defender.Grenz#1\n');
        // Only the block was added: removing it gives back the file as it was.
        expect(after.replace(/ {2}outcome entered check "[0-9a-f]{8}" \{\n(?: {4}.*\n)+ {2}\}\n/, '')).toBe(before);
        // The written outcome is current: no stale-outcome problem.
        expect(await session.diagnosticsFor(uri)).toEqual([]);
    });

    it('resolving again leaves the text unchanged', async () => {
        const uri = session.uriOf('scrud-seed.battle');
        const once = session.document(uri).getText();
        const lens = (await session.codeLenses(uri))!.find(l => l.command?.title === 'Resolve')!;
        expect(lens.command!.arguments).toEqual([expect.objectContaining({ uri, version: session.document(uri).version })]);
        const result = await session.executeCommand(lens.command!.command, lens.command!.arguments) as ResolveCommandResult;
        expect(result.summary).toBe(SEED_SUMMARY);
        expect(session.document(uri).getText()).toBe(once);
    });

    it('refuses an edit computed for an older version of the document', async () => {
        const uri = session.uriOf('scrud-seed.battle');
        const stale = (await session.codeLenses(uri))!.find(l => l.command?.title === 'Resolve')!;
        await session.change(uri, session.document(uri).getText() + '\n');
        const text = session.document(uri).getText();
        const result = await session.executeCommand(stale.command!.command, stale.command!.arguments) as ResolveCommandResult;
        expect(result.applied).toBe(false);
        expect(session.document(uri).getText()).toBe(text);
        // The umpire is told why nothing was written.
        expect(session.messages.length).toBeGreaterThan(0);
    });

    it('umpire.resolveAll writes every outcome as the CLI\'s resolve --write does, and again changes nothing', async () => {
        const uri = await session.open('scrud-ridge.battle');
        expect(await session.diagnosticsFor(uri)).toEqual([]);
        // The same file written by the CLI bundle, an independent entry to the same engine.
        const cliCopy = path.join(workspace, 'ridge-cli.battle');
        fs.copyFileSync(path.join(workspace, 'scrud-ridge.battle'), cliCopy);
        const cli = spawnSync(process.execPath, [path.join(repoRoot, 'out', 'cli', 'main.cjs'), 'resolve', cliCopy, '--write'], { encoding: 'utf8' });
        expect(cli.status, cli.stderr).toBe(0);

        const result = await session.executeCommand('umpire.resolveAll', [{ uri, version: session.document(uri).version }]) as ResolveAllResult;
        expect(result.applied).toBe(true);
        expect(result.resolved.map(r => r.action)).toEqual(['Ridge', 'Village', 'Guns']);
        const text = session.document(uri).getText();
        for (const r of result.resolved) expect(text).toContain(`summary ${JSON.stringify(r.summary)}`);
        expect(text).toBe(fs.readFileSync(cliCopy, 'utf8'));

        const again = await session.executeCommand('umpire.resolveAll', [{ uri, version: session.document(uri).version }]) as ResolveAllResult;
        expect(again.resolved).toEqual([]);
        expect(session.document(uri).getText()).toBe(text);
    });

    it('umpire.report gives the same HTML page as the CLI\'s umpire report, and a reason for a broken file', async () => {
        const uri = await session.open('campaign.battle');
        expect(await session.diagnosticsFor(uri)).toEqual([]);
        const out = path.join(workspace, 'campaign-cli.html');
        const cli = spawnSync(process.execPath, [path.join(repoRoot, 'out', 'cli', 'main.cjs'), 'report', path.join(workspace, 'campaign.battle'), '--out', out], { encoding: 'utf8' });
        expect(cli.status, cli.stderr).toBe(0);
        const result = await session.executeCommand('umpire.report', [{ uri, format: 'html' }]) as ReportResult;
        expect(result.available).toBe(true);
        expect(result.text).toBe(fs.readFileSync(out, 'utf8'));
        const md = await session.executeCommand('umpire.report', [{ uri, format: 'md', turn: '1' }]) as ReportResult;
        expect(Object.keys(md.charts ?? {})).toEqual(['campaign-Ford-odds.svg', 'campaign-luck.svg']);
        expect(md.text).toContain('![Odds of Ford](campaign-Ford-odds.svg)');
        const broken = await session.open('broken.battle');
        await session.diagnosticsFor(broken);
        expect(await session.executeCommand('umpire.report', [{ uri: broken }])).toEqual({ available: false, reason: 'Fix the errors in the file before writing a report.' });
    });

    it('shows a hover on a unit', async () => {
        const uri = session.uriOf('scrud-seed.battle');
        const lines = session.document(uri).getText().split('\n');
        const line = lines.findIndex(l => l.includes('unit Guard foot Elite'));
        const hover = await session.hover(uri, line, lines[line].indexOf('Guard') + 1);
        const value = (hover?.contents as MarkupContent | undefined)?.value ?? '';
        expect(value).toContain('Guard');
        expect(value).toContain('Elite');
    });

    it('formats a file, and formatting the result again changes nothing', async () => {
        const uri = session.uriOf('scrud-seed.battle');
        const messy = session.document(uri).getText().replace(/^ {2}unit Guard/m, 'unit   Guard').replace(/^ {2}Attacker attacks/m, '      Attacker   attacks');
        await session.change(uri, messy);
        const edits = await session.format(uri);
        expect(edits?.length ?? 0).toBeGreaterThan(0);
        const formatted = TextDocument.applyEdits(session.document(uri), edits!);
        expect(formatted).toContain('\n  unit Guard foot Elite\n');
        expect(formatted).toContain('\n  Attacker attacks Defender\n');
        await session.change(uri, formatted);
        expect(await session.format(uri) ?? []).toEqual([]);
    });

    it('shuts down cleanly on shutdown and exit', async () => {
        expect(await session.shutdown()).toBe(0);
        expect(session.stderr.join('')).not.toMatch(/Error|exception/i);
    });
});
