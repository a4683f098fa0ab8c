/**
 * The server's side of the editor conventions, through the server's own execute-command
 * handler (as the client sends them): the action at the cursor (Resolve / Odds at cursor), the file
 * at a glance (the language status item), and the starting scenario of each rule set ("New scenario").
 */
import { readFileSync } from 'node:fs';
import { beforeEach, describe, expect, it } from 'vitest';
import { EmptyFileSystem, TextDocument, URI, type LangiumDocument } from 'langium';
import type { ApplyWorkspaceEditParams, TextDocumentEdit, TextEdit } from 'vscode-languageserver';
import { OutcomeCommands, type EditorSide } from '../../../src/language/lsp/outcome-requests.js';
import { createBattleServices } from '../../../src/language/battle-module.js';
import { RulesetRegistry } from '../../../src/core/ruleset.js';
import { builtInRulesets } from '../../../src/rulesets/registry.js';
import { modelOf } from '../../../src/core/model-cache.js';
import { isUnresolvable, resolveAction } from '../../../src/core/resolve.js';
import { seasonLuck } from '../../../src/report/season-luck.js';
import { UmpireCommands, type ActionAtResult, type FileSummary, type ScenarioTemplates } from '../../../src/protocol.js';
import type { Scenario } from '../../../src/language/generated/ast.js';
import { highestDieRuleset } from '../../rulesets/highest-die/highest-die-ruleset.js';
import { scratchChecker, services, openDocument } from '../../support/services.js';
import { TWO_FORDS } from '../../support/two-fords.js';

const { shared } = services;
const URI_TEXT = 'file:///campaign/cursor.battle';
const open = (text: string, version = 1): Promise<LangiumDocument> => openDocument(URI_TEXT, text, version);
const current = () => shared.workspace.LangiumDocuments.getDocument(URI.parse(URI_TEXT))!;
const run = (command: string, ...args: unknown[]) => shared.lsp.ExecuteCommandHandler!.executeCommand(command, args);

const FILE = `rules scrud
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
  seed 7
}
engagement Third {
  A.Guard#2 attacks B.Line#1
}
`;

/** The line and character of the first `needle` in FILE, plus `shift` characters. */
function at(text: string, needle: string, shift = 0): { line: number, character: number } {
    const offset = text.indexOf(needle) + shift;
    expect(offset).toBeGreaterThanOrEqual(shift);
    const before = text.slice(0, offset).split('\n');
    return { line: before.length - 1, character: before[before.length - 1].length };
}

/** Applies versioned edits the way VS Code does, then reopens the new text. */
class Editor implements EditorSide {
    told: string[] = [];
    async applyEdit(params: ApplyWorkspaceEditParams) {
        const change = params.edit.documentChanges![0] as TextDocumentEdit;
        const doc = current().textDocument;
        if (change.textDocument.version !== doc.version) return { applied: false };
        await open(TextDocument.applyEdits(doc, change.edits as TextEdit[]), doc.version + 1);
        return { applied: true };
    }
    tell(_kind: string, message: string) { this.told.push(message); }
    async ask() { return undefined; }
}

let commands: OutcomeCommands;
beforeEach(() => {
    const seeds = [101, 202, 303];
    commands = new OutcomeCommands(shared, new Editor(), scratchChecker(), () => seeds.shift()!);
});

describe('umpire.actionAt (Resolve / Odds at cursor)', () => {
    it('finds the engagement whose name or braces hold the cursor, with the commands its lenses offer', async () => {
        await open(FILE, 4);
        const ask = (position: { line: number, character: number }) => run(UmpireCommands.actionAt, { uri: URI_TEXT, version: 4, position }) as Promise<ActionAtResult>;
        expect(await ask(at(FILE, 'engagement Second', 12))).toEqual({ found: true, action: 'Second', kind: 'engagement', resolvable: true, hasOdds: true });
        expect(await ask(at(FILE, 'seed 7', 5))).toMatchObject({ found: true, action: 'Second' });
        expect(await ask(at(FILE, 'A.Guard#2 attacks'))).toMatchObject({ found: true, action: 'Third' });
        // On the closing brace of First (its last character): still First.
        expect(await ask(at(FILE, '}\nengagement Second'))).toMatchObject({ found: true, action: 'First' });
    });

    it('says where to put the cursor when it is outside every action', async () => {
        await open(FILE, 1);
        const got = await run(UmpireCommands.actionAt, { uri: URI_TEXT, version: 1, position: at(FILE, 'unit Guard') }) as ActionAtResult;
        expect(got).toEqual({ found: false, reason: expect.stringMatching(/not inside an engagement/) });
    });

    it('refuses a cursor from another version of the text, and arguments that are not a position', async () => {
        await open(FILE, 2);
        expect(await run(UmpireCommands.actionAt, { uri: URI_TEXT, version: 1, position: { line: 8, character: 2 } }))
            .toEqual({ found: false, reason: expect.stringMatching(/changed \(version 1, now 2\)/) });
        expect(await run(UmpireCommands.actionAt, { uri: URI_TEXT, version: 2 }))
            .toEqual({ found: false, reason: expect.stringMatching(/needs \[\{ uri, version, position/) });
        expect(await run(UmpireCommands.actionAt, { uri: 'file:///nowhere.battle', version: 1, position: { line: 0, character: 0 } }))
            .toEqual({ found: false, reason: expect.stringMatching(/not open/) });
    });

    it('says an action has no odds or is not resolved when the rule set says so', async () => {
        const text = FILE.replace('engagement Third', 'fire Third');
        await open(text, 1);
        const got = await run(UmpireCommands.actionAt, { uri: URI_TEXT, version: 1, position: at(text, 'fire Third', 6) });
        expect(got).toEqual({ found: true, action: 'Third', kind: 'fire', resolvable: false, hasOdds: false });
    });

    it('leads to the same Resolve as the lens: the found action\'s outcome is written', async () => {
        await open(FILE, 1);
        const found = await run(UmpireCommands.actionAt, { uri: URI_TEXT, version: 1, position: at(FILE, 'B.Line#1') }) as ActionAtResult;
        expect(found.found && found.action).toBe('Third');
        const result = await commands.resolve({ uri: URI_TEXT, version: 1, action: (found as { action: string }).action }, false);
        expect(result).toMatchObject({ applied: true, changed: true, seed: 101 });
        expect(current().textDocument.getText()).toMatch(/engagement Third \{\n {2}A\.Guard#2 attacks B\.Line#1\n {2}outcome seed 101 check "[0-9a-f]{8}" \{/);
    });
});

describe('umpire.fileSummary (the language status item)', () => {
    const summary = () => run(UmpireCommands.fileSummary, { uri: URI_TEXT }) as Promise<FileSummary>;

    it('counts the engagements resolved, not yet resolved, and stale', async () => {
        await open(FILE, 1);
        expect(await summary()).toEqual({ available: true, rules: 'scrud', rulesTitle: 'SCRUD', rulesWritten: true, actions: 3, resolved: 0, unresolved: 3, stale: 0 });
        expect(await commands.resolve({ uri: URI_TEXT, version: 1, action: 'First' }, false)).toMatchObject({ applied: true });
        expect(await commands.resolve({ uri: URI_TEXT, version: 2, action: 'Second' }, false)).toMatchObject({ applied: true });
        expect(await summary()).toMatchObject({ actions: 3, resolved: 2, unresolved: 1, stale: 0 });
        // Second's seed changed after its outcome was written: that outcome is stale.
        await open(current().textDocument.getText().replace('seed 7', 'seed 8'), 4);
        expect(current().diagnostics?.map(d => d.code)).toContain('outcome-stale');
        expect(await summary()).toMatchObject({ actions: 3, resolved: 1, unresolved: 1, stale: 1 });
    });

    it('gives each side\'s luck over the season: exact on a small season, the hand-worked figures of test/cli/status-cli.test.ts', async () => {
        // test/support/two-fords.ts: the Ford (French won, Austrian retreats) and the Mill (both stand off).
        const fords = TWO_FORDS;
        await open(fords, 1);
        expect((await summary()).luck).toBeUndefined();
        expect(await commands.resolve({ uri: URI_TEXT, version: 1, action: 'Ford' }, false)).toMatchObject({ applied: true });
        const one = (await summary()).luck!;
        expect(one.method).toBe('exact');
        // The Ford alone: each side's season percentile is its unit's, in 36ths: won 28.5, retreat 4.5.
        expect(one.sides.map(x => x.force)).toEqual(['French', 'Austrian']);
        expect(one.sides[0].percentile).toBeCloseTo(28.5 / 36, 12);
        expect(one.sides[1].percentile).toBeCloseTo(4.5 / 36, 12);
        expect(await commands.resolve({ uri: URI_TEXT, version: 2, action: 'Mill' }, false)).toMatchObject({ applied: true });
        const luck = (await summary()).luck!;
        expect(luck).toEqual({ method: 'exact', sides: [{ force: 'French', percentile: expect.any(Number) }, { force: 'Austrian', percentile: expect.any(Number) }] });
        expect(Math.abs(luck.sides[0].percentile - 981 / 1296)).toBeLessThan(1e-12);
        expect(Math.abs(luck.sides[1].percentile - 254 / 1296)).toBeLessThan(1e-12);
        // The figure umpire status prints.
        const model = modelOf(current().parseResult.value as Scenario);
        const season = seasonLuck(model, model.actions);
        if (isUnresolvable(season)) throw new Error(season.problem);
        expect(luck.sides.map(x => x.percentile)).toEqual(season.sides.map(x => x.percentile));
    });

    it('gives no luck while an outcome is stale, and the figure again once the record is whole; an edit outside the record keeps it', async () => {
        await open(TWO_FORDS, 1);
        expect(await commands.resolve({ uri: URI_TEXT, version: 1, action: 'Ford' }, false)).toMatchObject({ applied: true });
        const written = current().textDocument.getText();
        const luck = (await summary()).luck!;
        expect(luck.sides[0].percentile).toBeCloseTo(28.5 / 36, 12);
        // A comment added: the record is the same, and so is the figure.
        await open(`// the fords, resolved\n${written}`, 3);
        expect((await summary()).luck).toEqual(luck);
        // The Ford's French die changed under its outcome: measured against dice it was not fought with, no figure.
        const stale = written.replace('dice French foot 5', 'dice French foot 3');
        expect(stale).not.toBe(written);
        await open(stale, 4);
        expect(await summary()).toMatchObject({ stale: 1 });
        expect((await summary()).luck).toBeUndefined();
        await open(written, 5);
        expect((await summary()).luck).toEqual(luck);
    });

    it('samples a season whose laws do not tell the results apart, from the fixed seed: the same figure every time, near the full figure', async () => {
        await open(readFileSync('examples/campaign.battle', 'utf8'), 1);
        const first = (await summary()).luck!;
        expect(first.method).toBe('monte-carlo');
        // One action (Camp) is thrown again through the rule set: 500 throws, 500 seasons.
        expect(first.samples).toBe(500);
        await open(readFileSync('examples/campaign.battle', 'utf8'), 2);
        expect((await summary()).luck).toEqual(first);
        const model = modelOf(current().parseResult.value as Scenario);
        const full = seasonLuck(model, model.actions);
        if (isUnresolvable(full)) throw new Error(full.problem);
        for (const [i, x] of first.sides.entries()) {
            expect(x.force).toBe(full.sides[i].force);
            expect(x.se).toBeGreaterThan(0);
            expect(Math.abs(x.percentile - full.sides[i].percentile!)).toBeLessThanOrEqual(4 * Math.hypot(x.se!, full.sides[i].se!.percentile));
        }
    }, 60_000);

    it('says when the file has no rules line and is checked as the default rule set', async () => {
        await open(FILE.replace('rules scrud\n', ''), 1);
        expect(await summary()).toMatchObject({ available: true, rules: builtInRulesets().defaultId, rulesWritten: false, actions: 3 });
    });

    it('counts only what the rule set resolves, and says why when the rules are not known', async () => {
        await open(FILE.replace('engagement Third', 'fire Third'), 1);
        expect(await summary()).toMatchObject({ actions: 2, unresolved: 2 });
        await open(FILE.replace('rules scrud', 'rules chess'), 1);
        expect(await summary()).toMatchObject({ available: false, rules: 'chess', reason: 'The chess rules are not known.' });
    });
});

describe('umpire.scenarioTemplates (New scenario)', () => {
    it('offers every registered rule set, the default first, each with a scenario that checks clean and resolves', async () => {
        const { templates } = await run(UmpireCommands.scenarioTemplates) as ScenarioTemplates;
        const registry = builtInRulesets();
        expect(templates.map(t => t.id)).toEqual(registry.ids());
        expect(templates[0].id).toBe(registry.defaultId);
        for (const template of templates) {
            expect(template.title).toBe(registry.get(template.id)!.title);
            expect(template.text).toMatch(new RegExp(`^rules ${template.id}$`, 'm'));
            const doc = await openDocument(`file:///new/${template.id}.battle`, template.text);
            expect(doc.diagnostics!.filter(d => d.severity! <= 2).map(d => `${d.code} ${d.message}`), template.id).toEqual([]);
            const model = modelOf(doc.parseResult.value as Scenario);
            expect(model.actions.length, template.id).toBeGreaterThan(0);
            const resolved = resolveAction(model, model.actions[0], { newSeed: () => 5 });
            expect(isUnresolvable(resolved) ? resolved.problem : resolved.resolution.json.seed, template.id).toBe(5);
        }
    });

    it('gives a rule set without its own starting text a skeleton that names it and checks clean', async () => {
        const other = createBattleServices({ ...EmptyFileSystem, rulesets: new RulesetRegistry([...builtInRulesets().all(), highestDieRuleset]) });
        const { templates } = await other.shared.lsp.ExecuteCommandHandler!.executeCommand(UmpireCommands.scenarioTemplates, []) as ScenarioTemplates;
        const skeleton = templates.find(t => t.id === highestDieRuleset.id)!;
        expect(highestDieRuleset.newScenario).toBeUndefined();
        expect(skeleton.text).toMatch(new RegExp(`^rules ${highestDieRuleset.id}$`, 'm'));
        const doc = other.shared.workspace.LangiumDocumentFactory.fromTextDocument(TextDocument.create('file:///new/skeleton.battle', 'battle', 1, skeleton.text));
        other.shared.workspace.LangiumDocuments.addDocument(doc);
        await other.shared.workspace.DocumentBuilder.build([doc], { validation: true });
        expect(doc.diagnostics!.filter(d => d.severity! <= 2)).toEqual([]);
    });
});
