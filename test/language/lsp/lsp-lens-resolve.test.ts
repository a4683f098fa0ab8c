/**
 * Code lenses and the Resolve / Re-roll / Resolve all / Odds commands, through the server's own
 * providers with a fake editor that applies edits the way the client does (checking the version).
 */
import { beforeEach, describe, expect, it } from 'vitest';
import * as fs from 'node:fs';
import { TextDocument, URI, type LangiumDocument } from 'langium';
import type { ApplyWorkspaceEditParams, CodeLens, Diagnostic, TextDocumentEdit, TextEdit } from 'vscode-languageserver';
import { OutcomeCommands, type EditorSide } from '../../../src/language/lsp/outcome-requests.js';
import type { OddsAnswer, ResolveAllResult, ResolveResult } from '../../../src/protocol.js';
import { staleOutcomeActions } from '../../../src/language/lsp/stale-fix.js';
import { renderOddsHtml } from '../../../src/extension/odds-html.js';
import { scratchChecker, services as allServices, openDocument } from '../../support/services.js';

const { shared, Battle } = allServices;
const URI_TEXT = 'file:///campaign/test.battle';
const seedExample = fs.readFileSync(new URL('../../../examples/scrud-seed.battle', import.meta.url), 'utf8');

const open = (text: string, version = 1): Promise<LangiumDocument> => openDocument(URI_TEXT, text, version);

const current = () => shared.workspace.LangiumDocuments.getDocument(URI.parse(URI_TEXT))!;

/** An editor like VS Code's: applies a versioned edit only to that version, then reopens the new text. */
class FakeEditor implements EditorSide {
    applied: ApplyWorkspaceEditParams[] = [];
    told: string[] = [];
    answer: string | undefined = undefined;
    asked: string[] = [];
    async applyEdit(params: ApplyWorkspaceEditParams) {
        const change = params.edit.documentChanges![0] as TextDocumentEdit;
        const doc = current().textDocument;
        if (change.textDocument.version !== doc.version) return { applied: false, failureReason: 'version mismatch' };
        this.applied.push(params);
        await open(TextDocument.applyEdits(doc, change.edits as TextEdit[]), doc.version + 1);
        return { applied: true };
    }
    tell(_kind: string, message: string) {
        this.told.push(message);
    }
    async ask(message: string) {
        this.asked.push(message);
        return this.answer;
    }
}

let editor: FakeEditor;
let seeds: number[];
let commands: OutcomeCommands;

beforeEach(() => {
    editor = new FakeEditor();
    seeds = [101, 202, 303, 404];
    commands = new OutcomeCommands(shared, editor, scratchChecker(), () => seeds.shift()!);
});

function lenses(doc: LangiumDocument): CodeLens[] {
    return Battle.lsp.CodeLensProvider!.provideCodeLens(doc, { textDocument: { uri: URI_TEXT } }) as CodeLens[];
}

const SEEDED = `rules scrud
force A {
  unit Guard foot x2
}
force B {
  unit Line foot x2
}
engagement First {
  A attacks B
  seed 42
}
engagement Second {
  A.Guard#1 attacks B.Line#2
}
`;

describe('code lenses', () => {
    it('puts Resolve and Odds above an engagement with entered dice (no Re-roll)', async () => {
        const doc = await open(seedExample, 3);
        const got = lenses(doc);
        expect(got.map(l => l.command!.title)).toEqual(['Resolve', 'Odds']);
        const line = seedExample.split('\n').findIndex(l => l.startsWith('engagement Example'));
        for (const l of got) expect(l.range.start).toEqual({ line, character: 0 });
        expect(got[0].command).toEqual({ title: 'Resolve', command: 'umpire.resolve', arguments: [{ uri: URI_TEXT, version: 3, action: 'Example' }] });
        expect(got[1].command).toEqual({ title: 'Odds', command: 'umpire.showOdds', arguments: [{ uri: URI_TEXT, action: 'Example' }] });
    });

    it('adds Re-roll when the dice come from a seed, for every engagement', async () => {
        const got = lenses(await open(SEEDED, 1));
        expect(got.map(l => `${l.command!.title} ${l.command!.arguments![0].action}`)).toEqual([
            'Resolve First', 'Re-roll First', 'Odds First', 'Resolve Second', 'Re-roll Second', 'Odds Second'
        ]);
        expect(got[1].command!.command).toBe('umpire.reroll');
    });

    it('puts none above actions the rule set does not resolve', async () => {
        const got = lenses(await open(SEEDED.replace('engagement Second', 'fire Second'), 1));
        expect(got.map(l => l.command!.arguments![0].action)).not.toContain('Second');
    });

    it('advertises the server commands, and not the client-side odds panel or report export', () => {
        const names = shared.lsp.ExecuteCommandHandler!.commands;
        expect(names.sort()).toEqual(['umpire.actionAt', 'umpire.campaignOdds', 'umpire.fileSummary', 'umpire.odds', 'umpire.oddsText', 'umpire.report', 'umpire.reroll', 'umpire.resolve',
            'umpire.resolveAll', 'umpire.scenarioTemplates', 'umpire.status', 'umpire.verify']);
    });
});

describe('Resolve', () => {
    it('writes the entered dice\'s outcome in one versioned edit, then changes nothing on a second click', async () => {
        const doc = await open(seedExample, 3);
        const result = await commands.resolve(lenses(doc)[0].command!.arguments![0], false);
        expect(result).toEqual({ applied: true, changed: true, summary: 'Defender foot: 3 stand-off, 1 recoil, 2 retire · Attacker horse: 1 recoil, 1 retire', seed: null });
        expect(editor.applied).toHaveLength(1);
        const change = editor.applied[0].edit.documentChanges![0] as TextDocumentEdit;
        expect(change.textDocument).toEqual({ uri: URI_TEXT, version: 3 });
        expect(change.edits).toHaveLength(1);
        const closing = seedExample.split('\n').length - 2;
        expect(change.edits[0].range).toEqual({ start: { line: closing, character: 0 }, end: { line: closing, character: 0 } });
        expect((change.edits[0] as TextEdit).newText).toMatch(/^ {2}outcome entered check "[0-9a-f]{8}" \{\n {4}summary "Defender foot: 3 stand-off/);
        expect((change.edits[0] as TextEdit).newText).toContain('\n    Attacker.Guard: stand-off, die 4, mod +2, adjusted 6 vs Defender.Grenz#1\n');
        const written = current().textDocument.getText();
        expect(current().diagnostics).toEqual([]);

        const again = await commands.resolve(lenses(current())[0].command!.arguments![0], false);
        expect(again).toMatchObject({ applied: true, changed: false, summary: result.summary });
        expect(editor.applied).toHaveLength(1);
        expect(current().textDocument.getText()).toBe(written);
    });

    it('draws a new seed, records it, and resolves again from the recorded seed', async () => {
        await open(SEEDED, 1);
        const r = await commands.resolve({ uri: URI_TEXT, version: 1, action: 'Second' }, false);
        expect(r).toMatchObject({ applied: true, seed: 101 });
        const text = current().textDocument.getText();
        expect(text).toMatch(/engagement Second \{\n {2}A\.Guard#1 attacks B\.Line#2\n {2}outcome seed 101 check "[0-9a-f]{8}" \{\n/);
        const again = await commands.resolve({ uri: URI_TEXT, version: 2, action: 'Second' }, false);
        expect(again).toMatchObject({ applied: true, changed: false, seed: 101 });
        expect(seeds).toEqual([202, 303, 404]);
    });

    it('re-rolls with a new seed, replacing the block', async () => {
        await open(SEEDED, 1);
        await commands.resolve({ uri: URI_TEXT, version: 1, action: 'Second' }, false);
        const r = await commands.resolve({ uri: URI_TEXT, version: 2, action: 'Second' }, true);
        expect(r).toMatchObject({ applied: true, seed: 202 });
        const text = current().textDocument.getText();
        expect(text.match(/outcome seed/g)).toHaveLength(1);
        expect(text).toContain('outcome seed 202 reroll 1 check');
        // Current (resolving Second before First is the campaign checks' business, not this one's).
        expect(current().diagnostics!.filter(d => d.code === 'outcome-stale')).toEqual([]);
    });

    it('names the editor\'s version in lenses asked for before the server built the file the editor just opened', async () => {
        // The server read the file from disk (version 0); the editor opens it (version 1, the same text) and asks for
        // lenses before the server has built its copy. Before, the lenses named version 0 and the first Resolve was refused.
        const fromDisk = await open(SEEDED, 0);
        const editorTexts = shared.workspace.TextDocuments!;
        editorTexts.set(TextDocument.create(URI_TEXT, 'battle', 1, SEEDED));
        try {
            const early = lenses(fromDisk)[0].command!.arguments![0];
            expect(early.version).toBe(1);
            await open(SEEDED, 1);
            const r = await commands.resolve(early, false);
            expect(r.applied).toBe(true);
            // A different text in the editor: the lenses wait for it to be built (never given for the server's
            // older text) and name its version.
            editorTexts.set(TextDocument.create(URI_TEXT, 'battle', 9, `${SEEDED}\n`));
            const later = Battle.lsp.CodeLensProvider!.provideCodeLens(current(), { textDocument: { uri: URI_TEXT } });
            expect(later).toBeInstanceOf(Promise);
            await shared.workspace.DocumentBuilder.update([URI.parse(URI_TEXT)], []);
            expect((await later)![0].command!.arguments![0].version).toBe(9);
        } finally {
            editorTexts.delete(URI_TEXT);
        }
    });

    it('refuses a command computed for an older version, and says why', async () => {
        await open(SEEDED, 1);
        await open(SEEDED + '\n', 2);
        const r = await commands.resolve({ uri: URI_TEXT, version: 1, action: 'First' }, false);
        expect(r.applied).toBe(false);
        expect(r.reason).toMatch(/changed/);
        expect(editor.applied).toEqual([]);
        expect(editor.told).toEqual([r.reason]);
        expect(current().textDocument.getText()).toBe(SEEDED + '\n');
    });

    it('reports an edit the editor refused', async () => {
        await open(SEEDED, 1);
        editor.applyEdit = async () => ({ applied: false, failureReason: 'document changed' });
        const r: ResolveResult = await commands.resolve({ uri: URI_TEXT, version: 1, action: 'First' }, false);
        expect(r.applied).toBe(false);
        expect(editor.told[0]).toMatch(/not written \(document changed\)/);
    });

    it('refuses an engagement with errors, an unknown action and bad arguments', async () => {
        await open(SEEDED.replace('seed 42', 'seed 42\n  dice A foot 9 9'), 1);
        expect((await commands.resolve({ uri: URI_TEXT, version: 1, action: 'First' }, false)).reason).toMatch(/not resolved: line/);
        expect((await commands.resolve({ uri: URI_TEXT, version: 1, action: 'Nope' }, false)).reason).toMatch(/no action named 'Nope'/);
        expect((await commands.resolve({ uri: URI_TEXT }, false)).applied).toBe(false);
        expect((await commands.resolve(undefined, false)).applied).toBe(false);
        expect(editor.applied).toEqual([]);
    });

    it('asks before drawing a seed when umpire.outcomes.recordNewSeeds is false', async () => {
        const config = shared.workspace.ConfigurationProvider;
        config.updateConfiguration({ settings: { umpire: { outcomes: { recordNewSeeds: false } } } });
        try {
            await open(SEEDED, 1);
            editor.answer = 'Cancel';
            const no = await commands.resolve({ uri: URI_TEXT, version: 1, action: 'Second' }, false);
            expect(no.applied).toBe(false);
            expect(editor.asked).toHaveLength(1);
            // The seed statement of First needs no question.
            expect(await commands.resolve({ uri: URI_TEXT, version: 1, action: 'First' }, false)).toMatchObject({ applied: true, seed: 42 });
            expect(editor.asked).toHaveLength(1);
            editor.answer = 'Draw a new seed';
            expect(await commands.resolve({ uri: URI_TEXT, version: 2, action: 'Second' }, false)).toMatchObject({ applied: true, seed: 101 });
        } finally {
            config.updateConfiguration({ settings: { umpire: {} } });
        }
    });
});

describe('Resolve all', () => {
    it('writes every unresolved engagement in one edit, in file order, and skips written ones', async () => {
        await open(SEEDED, 1);
        await commands.resolve({ uri: URI_TEXT, version: 1, action: 'First' }, false);
        const r: ResolveAllResult = await commands.resolveAll({ uri: URI_TEXT, version: 2 });
        expect(r.applied).toBe(true);
        expect(r.resolved.map(x => [x.action, x.seed])).toEqual([['Second', 101]]);
        expect(editor.applied).toHaveLength(2);
        const text = current().textDocument.getText();
        expect(text.match(/outcome seed/g)).toHaveLength(2);
        const again = await commands.resolveAll({ uri: URI_TEXT, version: 3 });
        expect(again).toMatchObject({ applied: true, changed: false, resolved: [] });
        expect(current().textDocument.getText()).toBe(text);
    });

    it('resolves both engagements of a fresh file with one edit holding two changes', async () => {
        await open(SEEDED, 1);
        const r = await commands.resolveAll({ uri: URI_TEXT, version: 1 });
        expect(r.resolved.map(x => x.action)).toEqual(['First', 'Second']);
        expect(editor.applied).toHaveLength(1);
        expect((editor.applied[0].edit.documentChanges![0] as TextDocumentEdit).edits).toHaveLength(2);
        expect(current().diagnostics).toEqual([]);
    });
});

describe('Resolve all, asking first', () => {
    it('asks once before drawing seeds when umpire.outcomes.recordNewSeeds is false, and writes nothing on Cancel', async () => {
        const config = shared.workspace.ConfigurationProvider;
        config.updateConfiguration({ settings: { umpire: { outcomes: { recordNewSeeds: false } } } });
        try {
            await open(SEEDED, 1);
            editor.answer = 'Cancel';
            const no = await commands.resolveAll({ uri: URI_TEXT, version: 1 });
            expect(no.applied).toBe(false);
            expect(editor.asked).toEqual(['1 action has neither dice entered nor a seed. Draw new seeds and record them?']);
            expect(editor.applied).toEqual([]);
            editor.answer = 'Draw a new seed';
            const yes = await commands.resolveAll({ uri: URI_TEXT, version: 1 });
            expect(yes.resolved.map(r => [r.action, r.seed])).toEqual([['First', 42], ['Second', 101]]);
        } finally {
            config.updateConfiguration({ settings: { umpire: {} } });
        }
    });

    it('refuses a file with errors, and a stale version', async () => {
        await open(SEEDED.replace('seed 42', 'seed 42\n  dice A foot 9 9'), 1);
        const bad = await commands.resolveAll({ uri: URI_TEXT, version: 1 });
        expect(bad.applied).toBe(false);
        expect(bad.reason).toMatch(/^Nothing was written: the file has errors/);
        await open(SEEDED, 2);
        expect((await commands.resolveAll({ uri: URI_TEXT, version: 1 })).reason).toMatch(/changed/);
        expect(editor.applied).toEqual([]);
    });
});

describe('the stale-outcome quick fix', () => {
    it('offers Resolve again for an outcome-stale warning, with the current version', async () => {
        await open(SEEDED, 1);
        await commands.resolve({ uri: URI_TEXT, version: 1, action: 'First' }, false);
        const edited = current().textDocument.getText().replace('A attacks B', 'B attacks A');
        const doc = await open(edited, 5);
        const stale = (doc.diagnostics ?? []).find(d => d.code === 'outcome-stale') as Diagnostic;
        expect(stale).toBeDefined();
        const fixes = staleOutcomeActions(doc, stale);
        expect(fixes).toHaveLength(1);
        expect(fixes[0].command).toEqual({ title: 'Resolve', command: 'umpire.resolve', arguments: [{ uri: URI_TEXT, version: 5, action: 'First' }] });
        expect(fixes[0].diagnostics).toEqual([stale]);
        const r = await commands.resolve(fixes[0].command!.arguments![0], false);
        expect(r).toMatchObject({ applied: true, seed: 42 });
        expect(current().diagnostics).toEqual([]);
        expect(staleOutcomeActions(doc, { ...stale, code: 'dice-count' })).toEqual([]);
    });
});

describe('Odds', () => {
    const DUEL = `rules scrud
grade Elite +2
force A {
  unit Guard foot Elite
}
force B {
  unit Line foot
}
engagement Duel {
  A attacks B
}
`;

    /** B.Line's chances by listing all 36 throws (S2 clamp, S6 labels): independent of the engine. */
    function lineByEnumeration(): Record<string, number> {
        const labels = ['recoil', 'retire', 'retreat', 'rout'];
        const p: Record<string, number> = {};
        for (let a = 1; a <= 6; a++) {
            for (let b = 1; b <= 6; b++) {
                const d = Math.min(6, a + 2) - b;
                const label = d === 0 ? 'stand-off' : d < 0 ? 'won' : labels[Math.min(d, 4) - 1];
                p[label] = (p[label] ?? 0) + 1 / 36;
            }
        }
        return p;
    }

    it('returns the exact odds of the action asked for, matching a brute-force count', async () => {
        await open(DUEL, 1);
        const report = await commands.odds({ uri: URI_TEXT, action: 'Duel' }) as { name: string, units: Array<{ id: string, probabilities: Record<string, number> }> };
        expect(report.name).toBe('Duel');
        const line = report.units.find(u => u.id === 'B.Line')!;
        for (const [label, p] of Object.entries(lineByEnumeration())) expect(line.probabilities[label]).toBeCloseTo(p, 12);
        expect(editor.applied).toEqual([]);
    });

    it('answers for every action without a name, and says why when there are no odds', async () => {
        await open(DUEL + 'engagement Empty {\n}\n', 1);
        const all = await commands.odds({ uri: URI_TEXT }) as { actions: Array<{ name?: string, available?: boolean, reason?: string }> };
        expect(all.actions).toHaveLength(2);
        expect(all.actions[0].name).toBe('Duel');
        expect(all.actions[1]).toMatchObject({ available: false, action: 'Empty' });
        expect(all.actions[1].reason).toMatch(/two sides/);
        expect(await commands.odds({ uri: URI_TEXT, action: 'Nope' })).toMatchObject({ available: false });
        expect(await commands.odds({})).toMatchObject({ available: false });
    });

    it('draws the odds panel as a locked-down page: a bar per unit whose segments add up to 100%', async () => {
        await open(DUEL, 1);
        const answer = await commands.odds({ uri: URI_TEXT, action: 'Duel' }) as OddsAnswer;
        const html = renderOddsHtml(answer, { nonce: 'N0nce', title: 'Odds: Duel' });
        expect(html).toContain(`<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'nonce-N0nce';">`);
        expect(html).toContain('<style nonce="N0nce">');
        expect(html).not.toMatch(/<script|style="|https?:/i);
        expect(html).toContain('<h3>A</h3>');
        expect(html).toContain('<h3>B</h3>');
        // B.Line's row: its segments' widths (classes of the sheet) add up to the whole bar.
        const row = /<tr><td class="unit" title="B\.Line">Line<\/td>(.*?)<\/tr>/.exec(html)![1];
        const widths = [...row.matchAll(/class="seg [^ ]+ (w[0-9_]+)"/g)].map(m => Number(new RegExp(`\\.${m[1]} \\{ width: ([0-9.]+)%; \\}`).exec(html)![1]));
        expect(widths.reduce((a, b) => a + b, 0)).toBeCloseTo(100, 1);
        // "At least" figures: recoil or worse for B.Line is 1 - P(stand-off) - P(won), by enumeration.
        const p = lineByEnumeration();
        expect(row).toContain(`recoil+ <b>${(100 * (1 - p['stand-off'] - p['won'])).toFixed(1)}%</b>`);
    });

    it('says why when there are no odds, and escapes what it shows', () => {
        const html = renderOddsHtml({ available: false, action: '<b>x</b>', reason: 'no "sides" & more' }, { nonce: 'n', title: 't' });
        expect(html).toContain('&lt;b&gt;x&lt;/b&gt;');
        expect(html).toContain('No odds: no &quot;sides&quot; &amp; more');
    });
});
