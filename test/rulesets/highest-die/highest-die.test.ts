/**
 * A rule set added from the test folder alone ("highest die wins", highest-die-ruleset.ts) gets
 * everything the built-in ones get: validation with its own codes, completion from its vocabulary,
 * code lenses, Resolve writing its outcome into the file, exact odds, and campaign status, with a
 * counter of its own in the campaign state.
 */
import { describe, expect, it } from 'vitest';
import { EmptyFileSystem, TextDocument, URI, type LangiumDocument } from 'langium';
import { expectCompletion, validationHelper } from 'langium/test';
import type { ApplyWorkspaceEditParams, CodeLens, CompletionList, TextDocumentEdit, TextEdit } from 'vscode-languageserver';
import { createBattleServices } from '../../../src/language/battle-module.js';
import { OutcomeCommands, type EditorSide } from '../../../src/language/lsp/outcome-requests.js';
import { TextChecker } from '../../../src/language/text-checker.js';
import { RulesetRegistry } from '../../../src/core/ruleset.js';
import { modelOf } from '../../../src/core/model-cache.js';
import { oddsForAction } from '../../../src/core/odds.js';
import { statusTable } from '../../../src/core/status-table.js';
import { effectiveStats, unitStateAfter, unitStateAt } from '../../../src/core/campaign-state.js';
import { stateHoverMarkdown } from '../../../src/language/lsp/state-hover.js';
import { Codes } from '../../../src/core/codes.js';
import type { Scenario } from '../../../src/language/generated/ast.js';
import { HighestDieCodes, highestDieRuleset } from './highest-die-ruleset.js';

const rulesets = () => new RulesetRegistry([highestDieRuleset]);
const { shared, Battle } = createBattleServices({ ...EmptyFileSystem, rulesets: rulesets() });
const validate = validationHelper<Scenario>(Battle);

const FILE = `scenario "Bridge"
rules highest-die

force Red {
  unit Spear spearmen x2
}
force Blue {
  unit Axe spearmen
}

engagement Bridge {
  Red attacks Blue
  seed 7
}
`;

describe('a rule set registered from the test folder alone', () => {
    it('is checked with its own codes and the generic ones', async () => {
        const broken = FILE.replace('  Red attacks Blue\n', '').replace('rules highest-die', 'rules highest-die\noption quiet');
        const codes = (await validate(broken)).diagnostics.map(d => d.code);
        expect(codes).toEqual(expect.arrayContaining([HighestDieCodes.noSides, Codes.unknownOption]));
        expect((await validate(FILE)).diagnostics).toEqual([]);
        const unknown = (await validate(FILE.replace('rules highest-die', 'rules scrud'))).diagnostics;
        expect(unknown.map(d => [d.code, d.data])).toEqual([[Codes.rulesNotSupported, { replacements: ['highest-die'] }]]);
    });

    it('completes its name after rules, and its stats, facts and arms', async () => {
        const complete = expectCompletion(Battle);
        const labelsAt = async (text: string) => {
            let list: CompletionList | undefined;
            await complete({ text, index: 0, assert: c => { list = c; }, disposeAfterCheck: true });
            return (list?.items ?? []).map(i => i.label);
        };
        expect(await labelsAt('rules <|>')).toContain('highest-die');
        expect(await labelsAt(FILE.replace('unit Axe spearmen', 'unit Axe spearmen { <|> }'))).toContain('veteran');
        expect(await labelsAt(FILE.replace('  seed 7', '  Red.Spear: <|>'))).toContain('brave');
        expect(await labelsAt(FILE.replace('unit Axe spearmen', 'unit Axe <|>'))).toContain('spearmen');
    });

    it('gets Resolve, Re-roll and Odds lenses; Resolve writes its outcome, which stays current; status reads it', async () => {
        const uri = 'file:///highest-die/bridge.battle';
        const open = async (text: string, version: number) => {
            const documents = shared.workspace.LangiumDocuments;
            if (documents.hasDocument(URI.parse(uri))) documents.deleteDocument(URI.parse(uri));
            const doc = shared.workspace.LangiumDocumentFactory.fromTextDocument(TextDocument.create(uri, 'battle', version, text)) as LangiumDocument<Scenario>;
            documents.addDocument(doc);
            await shared.workspace.DocumentBuilder.build([doc], { validation: true });
            return doc;
        };
        let doc = await open(FILE, 1);
        const lenses = Battle.lsp.CodeLensProvider!.provideCodeLens(doc, { textDocument: { uri } }) as CodeLens[];
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
        const checker = new TextChecker(() => createBattleServices({ ...EmptyFileSystem, rulesets: rulesets() }).shared);
        const result = await new OutcomeCommands(shared, editor, checker).resolve({ uri, version: 1, action: 'Bridge' }, false);
        expect(result).toMatchObject({ applied: true, changed: true, seed: 7 });
        const text = doc.textDocument.getText();
        expect(text).toMatch(/outcome seed 7 check "[0-9a-f]{8}" \{/);
        expect(text).toContain(`summary "${result.summary}"`);
        expect(doc.diagnostics).toEqual([]);

        const model = modelOf(doc.parseResult.value);
        const loser = /^Red wins/.test(result.summary!) ? 'Blue' : /^Blue wins/.test(result.summary!) ? 'Red' : undefined;
        const table = statusTable(model);
        if ('problem' in table) throw new Error(table.problem);
        const statusOf = (force: string) => table.rows.filter(r => r[0] === force).map(r => r[2]);
        if (loser) expect(statusOf(loser).every(s => s === 'routed')).toBe(true);
        else expect(table.rows.every(r => r[2] === 'ready')).toBe(true);
    });

    it('gives exact odds that agree with enumerating every throw', async () => {
        const { document } = await validate(FILE);
        const model = modelOf(document.parseResult.value);
        const report = oddsForAction(model, model.actions[0]);
        if ('problem' in report) throw new Error(String(report.problem));
        // Red throws two d6, Blue one: count the 216 throws by hand.
        let red = 0, tie = 0;
        for (let a = 1; a <= 6; a++) for (let b = 1; b <= 6; b++) for (let c = 1; c <= 6; c++) {
            const best = Math.max(a, b);
            if (best > c) red++; else if (best === c) tie++;
        }
        const spear = report.units.find(u => u.id === 'Red.Spear#1')!;
        expect(spear.probabilities.won).toBeCloseTo(red / 216, 12);
        expect(spear.probabilities.tie).toBeCloseTo(tie / 216, 12);
        expect(spear.probabilities.won + spear.probabilities.tie + spear.probabilities.lost).toBeCloseTo(1, 12);
    });
});

describe('a rule set\'s own counter, declared in its folder (highest-die-counters.ts)', () => {
    const CAMPAIGN = `scenario "Crossing"
rules highest-die

force Red {
  unit Spear spearmen x2
}
force Blue {
  unit Axe spearmen { scars 1 }
}

engagement Ford {
  Red attacks Blue
  dice Red 6 5
  dice Blue 2
}
ruling Blue.Axe: rallied, scars 3, reason "IMP: the ferryman's tale"
state Blue.Axe: tokens 2
engagement Bridge {
  Blue attacks Red
  dice Blue 6
  dice Red 1 1
}
`;

    it('starts from its declared stat, is added to by outcomes, set by rulings, and read by the next fight', async () => {
        const { document, diagnostics } = await validate(CAMPAIGN);
        const model = modelOf(document.parseResult.value);
        const [ford, bridge] = model.actions;
        const axe = model.forces.get('Blue')!.units[0];
        expect(unitStateAt(model, ford, axe)!.counters).toEqual({ scars: 1 });
        // Ford's dice are entered: its settled outcome gives the loser a scar and routs it.
        expect(unitStateAfter(model, ford, axe)).toMatchObject({ status: 'routed', counters: { scars: 2 } });
        expect(unitStateAt(model, bridge, axe)).toMatchObject({ status: 'ready', counters: { scars: 3 } });
        // The rules read it as a stat, laid over the declared one.
        expect(effectiveStats(model, bridge, axe).get('scars')).toBe(3);
        const r = highestDieRuleset.resolve(model, bridge, { kind: 'entered' });
        if ('problem' in r) throw new Error(r.problem);
        expect(r.json.units.map(u => [u.unit, u.scars])).toEqual([['Axe', 3], ['Spear#1', 0], ['Spear#2', 0]]);
        // A key this rule set does not count changes nothing, and says so with the keys it does count.
        expect(diagnostics.map(d => [d.code, d.message])).toEqual([[Codes.stateUnknownKey,
            '\'tokens\' is not part of a unit\'s campaign state, so it changes nothing. Known: scars, routed, destroyed, fled, rallied, formation, reason, note.']]);
    });

    it('is shown in the status table and the hover in the words it declares', async () => {
        const { document } = await validate(CAMPAIGN);
        const model = modelOf(document.parseResult.value);
        const table = statusTable(model);
        if ('problem' in table) throw new Error(table.problem);
        expect(table.header).toEqual(['Force', 'Unit', 'Status', 'Last result', 'Scars', 'Notes']);
        expect(table.rows.map(r => [r[1], r[2], r[4]])).toEqual([['Spear#1', 'routed', '1'], ['Spear#2', 'routed', '1'], ['Axe', 'rallied', '3']]);
        expect(stateHoverMarkdown(model, model.forces.get('Blue')!.units[0])).toContain('scars 3');
    });
});
