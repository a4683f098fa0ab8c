/**
 * A rule set with an action kind and a verb of its own (skirmish-ruleset.ts), registered by this test into
 * the built-in registry at run time: its words are read from its declaration alone, so a file of it is
 * checked, completed, coloured, given lenses, resolved and given exact odds, with nothing outside this
 * folder changed for it.
 */
import { describe, expect, it } from 'vitest';
import { EmptyFileSystem, TextDocument, URI, type LangiumDocument } from 'langium';
import { expectCompletion, validationHelper } from 'langium/test';
import type { ApplyWorkspaceEditParams, CodeLens, CompletionList, TextDocumentEdit, TextEdit } from 'vscode-languageserver';
import { createBattleServices } from '../../../src/language/battle-module.js';
import { OutcomeCommands, type EditorSide } from '../../../src/language/lsp/outcome-requests.js';
import { TextChecker } from '../../../src/language/text-checker.js';
import { builtInRulesets } from '../../../src/rulesets/registry.js';
import { modelOf } from '../../../src/core/model-cache.js';
import { oddsForAction } from '../../../src/core/odds.js';
import { stateAtEnd } from '../../../src/core/campaign-state.js';
import { statusMarkdown, statusTable } from '../../../src/core/status-table.js';
import { Codes } from '../../../src/core/codes.js';
import type { Scenario } from '../../../src/language/generated/ast.js';
import { SHAKEN_AT, SkirmishCodes, skirmishRuleset } from './skirmish-ruleset.js';

/** The built-in rule sets and this one, added as a program that brings its own rule set would add it. */
function withSkirmish() {
    const rulesets = builtInRulesets();
    rulesets.register(skirmishRuleset);
    return rulesets;
}
const { shared, Battle } = createBattleServices({ ...EmptyFileSystem, rulesets: withSkirmish() });
const validate = validationHelper<Scenario>(Battle);

const FILE = `scenario "The ford"
rules skirmish

force Red {
  unit Slingers slingers
}
force Blue {
  unit Spears spears
}

skirmish Ford {
  Red.Slingers harries Blue.Spears: bold
  seed 11
}
`;

const diagnosticsOf = async (text: string) => (await validate(text)).diagnostics.map(d => ({ code: d.code, message: d.message }));

describe('a rule set with its own action kind and verb, registered at run time', () => {
    it('is checked: its own codes, and its words misspelt or out of place named with what was meant', async () => {
        expect(await diagnosticsOf(FILE)).toEqual([]);
        expect((await diagnosticsOf(FILE.replace('  Red.Slingers harries Blue.Spears: bold\n', ''))).map(d => d.code)).toEqual([SkirmishCodes.oneHarrying]);
        expect(await diagnosticsOf(FILE.replace('skirmish Ford', 'skirmsh Ford'))).toEqual([
            { code: Codes.syntaxError, message: "'skirmsh' cannot start a line here: did you mean 'skirmish'?" }
        ]);
        expect(await diagnosticsOf(FILE.replace('Red.Slingers harries Blue.Spears: bold', 'Red haries Blue'))).toEqual([
            { code: Codes.syntaxError, message: "'haries' is not a word of .battle: did you mean 'harries'?" }
        ]);
        // Another rule set's kind in a skirmish file, and a skirmish in a SCRUD file: each names where it belongs.
        expect(await diagnosticsOf(FILE.replace('skirmish Ford', 'fire Ford'))).toEqual([
            { code: Codes.actionNotInRules, message: "Skirmish has no 'fire' action (its only action is 'skirmish'): 'fire' belongs to Loose Files." }
        ]);
        expect((await diagnosticsOf(FILE.replace('rules skirmish', 'rules scrud'))).filter(d => d.code === Codes.actionNotInRules)).toEqual([
            { code: Codes.actionNotInRules, message: "SCRUD has no 'skirmish' action (its only action is 'engagement'): 'skirmish' belongs to Skirmish." }
        ]);
    });

    it('is a word of the language only once a rule set declares it', async () => {
        const builtIn = validationHelper<Scenario>(createBattleServices(EmptyFileSystem).Battle);
        const codes = (await builtIn(FILE.replace('rules skirmish', 'rules scrud'))).diagnostics.map(d => d.code);
        expect(codes).toContain(Codes.syntaxError);
    });

    it('completes its kind where an element starts, its verb after a unit, its facts after the relation', async () => {
        const complete = expectCompletion(Battle);
        const labelsAt = async (text: string) => {
            let list: CompletionList | undefined;
            await complete({ text, index: 0, assert: c => { list = c; }, disposeAfterCheck: true });
            return (list?.items ?? []).map(i => i.label);
        };
        const atTop = await labelsAt(FILE.replace('skirmish Ford', '<|>'));
        expect(atTop).toContain('skirmish');
        expect(atTop).not.toContain('engagement');
        const atVerb = await labelsAt(FILE.replace('harries Blue.Spears: bold', '<|>'));
        expect(atVerb).toContain('harries');
        expect(atVerb).not.toContain('vs');
        expect(await labelsAt(FILE.replace('Blue.Spears: bold', 'Blue.Spears: <|>'))).toContain('bold');
    });

    it('colours its kind as a keyword and its verb as an operator (semantic tokens)', async () => {
        const { document } = await validate(FILE);
        const provider = Battle.lsp.SemanticTokenProvider!;
        const legend = provider.semanticTokensOptions.legend.tokenTypes;
        const { data } = await provider.semanticHighlight(document, { textDocument: { uri: document.uri.toString() } });
        const lines = FILE.split('\n');
        const coloured: string[] = [];
        for (let i = 0, line = 0, char = 0; i < data.length; i += 5) {
            char = data[i] === 0 ? char + data[i + 1] : data[i + 1];
            line += data[i];
            coloured.push(`${lines[line].slice(char, char + data[i + 2])} ${legend[data[i + 3]]}`);
        }
        expect(coloured).toEqual(expect.arrayContaining(['skirmish keyword', 'Ford function', 'harries operator', 'Spears variable']));
    });

    it('gets its lenses, and Resolve writes an outcome that checks clean', async () => {
        const uri = 'file:///skirmish/ford.battle';
        const open = async (text: string, version: number) => {
            const documents = shared.workspace.LangiumDocuments;
            if (documents.hasDocument(URI.parse(uri))) documents.deleteDocument(URI.parse(uri));
            const doc = shared.workspace.LangiumDocumentFactory.fromTextDocument(TextDocument.create(uri, 'battle', version, text)) as LangiumDocument<Scenario>;
            documents.addDocument(doc);
            await shared.workspace.DocumentBuilder.build([doc], { validation: true });
            return doc;
        };
        let doc = await open(FILE, 1);
        const lenses = await Battle.lsp.CodeLensProvider!.provideCodeLens(doc, { textDocument: { uri } }) as CodeLens[];
        expect(lenses.map(l => l.command?.title)).toEqual(['Resolve', 'Re-roll', 'Odds']);
        const editor: EditorSide = {
            async applyEdit(params: ApplyWorkspaceEditParams) {
                const change = params.edit.documentChanges![0] as TextDocumentEdit;
                doc = await open(TextDocument.applyEdits(doc.textDocument, change.edits as TextEdit[]), doc.textDocument.version + 1);
                return { applied: true };
            },
            tell: () => undefined,
            ask: async () => undefined
        };
        const checker = new TextChecker(() => createBattleServices({ ...EmptyFileSystem, rulesets: withSkirmish() }).shared);
        const result = await new OutcomeCommands(shared, editor, checker).resolve({ uri, version: 1, action: 'Ford' }, false);
        expect(result).toMatchObject({ applied: true, changed: true, seed: 11 });
        const written = /Blue\.Spears: (shaken|stands), score (\d)/.exec(doc.textDocument.getText());
        expect(written).not.toBeNull();
        // The written score is the seed's die with the bold harrier's +1, and the result follows from it.
        expect(Number(written![2]) >= SHAKEN_AT).toBe(written![1] === 'shaken');
        expect(doc.diagnostics).toEqual([]);
    });

    it('gives exact odds, as counting the faces of the die', async () => {
        for (const [line, faces] of [['Red.Slingers harries Blue.Spears: bold', 4], ['Red.Slingers harries Blue.Spears', 3]] as const) {
            const { document } = await validate(FILE.replace('Red.Slingers harries Blue.Spears: bold', line));
            const model = modelOf(document.parseResult.value);
            const report = oddsForAction(model, model.actions[0]);
            if ('problem' in report) throw new Error(String(report.problem));
            // Bold: 3, 4, 5 and 6 reach 4 with the +1; otherwise 4, 5 and 6.
            expect(report.units[0].probabilities.shaken).toBeCloseTo(faces / 6, 12);
            expect(report.units[0].probabilities.stands).toBeCloseTo(1 - faces / 6, 12);
        }
    });

    it('brings a campaign counter of its own: carried from fight to fight, set by a ruling, shown in the status', async () => {
        const campaign = FILE.replace(/skirmish Ford \{[\s\S]*$/, '') + [1, 2, 3].map(n =>
            `turn ${n} {\n  skirmish F${n} {\n    Red.Slingers harries Blue.Spears\n    seed ${n}\n  }\n}\n`).join('');
        const model = modelOf((await validate(campaign)).document.parseResult.value);
        expect(stateAtEnd(model).get('Blue.Spears')!.counters).toEqual({ harried: 3 });
        const ruled = modelOf((await validate(campaign.replace('turn 3 {', 'turn 3 {\n  ruling Blue.Spears: harried 0, reason "a new day"'))).document.parseResult.value);
        expect(stateAtEnd(ruled).get('Blue.Spears')!.counters).toEqual({ harried: 1 });
        const table = statusTable(model);
        if ('problem' in table) throw new Error(table.problem);
        expect(statusMarkdown(model, table)).toMatch(/\| Harried \|[\s\S]*\| Blue \| Spears \|[^\n]*\| 3 \|/);
    });
});
