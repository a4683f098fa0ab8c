/**
 * What no unit can be at once, and stats no unit can have: each is a diagnostic at the fact or stat at
 * fault, in the sheet's words, with a quick fix that keeps one (docs/rules/loose-files.md#exclusive).
 */
import { describe, expect, it } from 'vitest';
import type { LangiumDocument } from 'langium';
import { TextDocument } from 'vscode-languageserver-textdocument';
import type { CodeAction, Diagnostic, TextDocumentEdit, TextEdit } from 'vscode-languageserver';
import { Codes } from '../../../src/core/codes.js';
import { LooseFilesCodes } from '../../../src/rulesets/loose-files/loose-files-codes.js';
import { looseFilesRuleset } from '../../../src/rulesets/loose-files/loose-files-ruleset.js';
import { battle, parse } from '../../support/services.js';
import { expectCompletion } from 'langium/test';
import type { CompletionList } from 'vscode-languageserver';

const complete = expectCompletion(battle);

const FORCES = `rules loose-files
force A {
  unit Line infantry { class 2, stands 4 }
  unit Win infantry { class 2, stands 4 }
  unit Horse cavalry { class 2, stands 2 }
  unit Guns artillery { class 2, stands 2, guns medium }
}
force B {
  unit Foot infantry { class 3, stands 4 }
}
`;

async function check(text: string): Promise<{ doc: LangiumDocument, diagnostics: Diagnostic[] }> {
    const doc = await parse(text, { validation: true });
    expect(doc.parseResult.parserErrors.map(e => e.message)).toEqual([]);
    return { doc, diagnostics: doc.diagnostics ?? [] };
}

/** The diagnostics with this code, as `line: severity message` (lines counted from 1). */
async function found(text: string, code: string): Promise<string[]> {
    const { diagnostics } = await check(text);
    return diagnostics.filter(d => d.code === code).map(d => `${d.range.start.line + 1}: ${d.severity === 1 ? 'error' : 'warning'} ${d.message}`);
}

/** The line (from 1) of the first line of `text` that contains `needle`. */
const lineOf = (text: string, needle: string) => text.split('\n').findIndex(l => l.includes(needle)) + 1;

async function keep(text: string, word: string): Promise<string> {
    const { doc, diagnostics } = await check(text);
    const diagnostic = diagnostics.find(d => d.code === Codes.factsExclusive)!;
    const actions = await battle.lsp.CodeActionProvider!.getCodeActions(doc, {
        textDocument: { uri: doc.uri.toString() }, range: diagnostic.range, context: { diagnostics: [diagnostic] }
    }) as CodeAction[];
    const action = actions.find(a => a.title === `Keep '${word}'`);
    expect(action, actions.map(a => a.title).join(', ')).toBeDefined();
    return TextDocument.applyEdits(doc.textDocument, (action!.edit!.documentChanges![0] as TextDocumentEdit).edits as TextEdit[]);
}

const combat = (facts: string) => `${FORCES}
engagement E {
  A.Line attacks B.Foot
  ${facts}
  dice A 3
  dice B 4
}
`;

describe('Loose Files facts that exclude each other', () => {
    it('a fort, a fieldwork and a stone building at once: one error, in the sheet\'s words, on the second', async () => {
        const text = combat('B.Foot: fort, fieldwork, stone-building');
        expect(await found(text, Codes.factsExclusive)).toEqual([
            `${lineOf(text, 'fort,')}: error 'fort', 'fieldwork' and 'stone-building' cannot all be true of B.Foot: a unit defends one kind of works, "a fort or stone building" (+3) or "a fieldwork or wood building" (+2) (L2.4). Keep one.`
        ]);
        const fixed = await keep(text, 'fieldwork');
        expect(fixed).toContain('B.Foot: fieldwork\n');
        expect((await check(fixed)).diagnostics.filter(d => d.code === Codes.factsExclusive)).toEqual([]);
    });

    it('flank and rear: a warning, one −3 (L2.10), also across two lines of the same unit', async () => {
        const text = combat('A.Line: flank\n  A.Line: rear');
        expect(await found(text, Codes.factsExclusive)).toEqual([
            `${lineOf(text, 'A.Line: rear')}: warning 'flank' and 'rear' cannot both be true of A.Line: "attacked in flank/rear" is one −3 however it is attacked (L2.10). Keep one.`
        ]);
        const fixed = await keep(text, 'flank');
        expect(fixed).not.toContain('A.Line: rear');
        expect(fixed).toContain('A.Line: flank');
    });

    it('a move that retires and charges, or retreats and routs, is an error (L6)', async () => {
        const text = `${FORCES}
move M {
  A.Horse: average 1, d6 2, retire, charging
  A.Win: average 1, retreat, rout
}
`;
        const got = await found(text, Codes.factsExclusive);
        expect(got).toHaveLength(2);
        expect(got[0]).toMatch(new RegExp(`^${lineOf(text, 'retire, charging')}: error 'retire' and 'charging' cannot both be true of A.Horse: .*"facing enemy".*\\(L6\\)`));
        expect(got[1]).toMatch(new RegExp(`^${lineOf(text, 'retreat, rout')}: error 'retreat' and 'rout' cannot both be true of A.Win: .*"run away"`));
        expect(await keep(text, 'retire')).toContain('A.Horse: average 1, d6 2, retire\n');
    });

    it('morale: a friend seen to rout and to retreat (L7); the fix keeps one and the colon stays', async () => {
        const text = `${FORCES}
morale Mo {
  A.Line sees A.Win: routs, retreats
}
`;
        expect(await found(text, Codes.factsExclusive)).toEqual([
            `${lineOf(text, 'sees')}: error 'routs' and 'retreats' cannot both be true of A.Line sees A.Win: the friend was seen to "retreat" or to "rout", and the two rows differ (L7). Keep one.`
        ]);
        expect(await keep(text, 'retreats')).toContain('A.Line sees A.Win: retreats\n');
    });

    it('re-dress: stationary and moved (L8)', async () => {
        const text = `${FORCES}
redress R {
  A.Line: stationary, moved
}
`;
        expect(await found(text, Codes.factsExclusive)).toEqual([
            `${lineOf(text, 'stationary')}: error 'stationary' and 'moved' cannot both be true of A.Line: DPs come off "if stationary", and a unit that moved was not (L8). Keep one.`
        ]);
    });

    it('a defender\'s bayonet: the sheet\'s "+2 making bayonet attack" is the attacker\'s (L2.6)', async () => {
        const text = combat('B.Foot: bayonet\n  A.Line: bayonet');
        expect(await found(text, LooseFilesCodes.defenderBayonet)).toEqual([
            `${lineOf(text, 'B.Foot: bayonet')}: warning B.Foot defends: "+2 making bayonet attack" is for the side that attacks (L2.6). It is counted as written; remove it unless the defenders charged out.`
        ]);
    });

    it('completion reads the same list: after rear, flank is not offered; terrain still is', async () => {
        let list: CompletionList | undefined;
        await complete({ text: `${FORCES}engagement E {\n  A.Line attacks B.Foot\n  A.Line: rear, <|>\n}`, index: 0, assert: c => { list = c; }, disposeAfterCheck: true });
        const labels = (list?.items ?? []).map(i => i.label);
        expect(labels).toContain('terrain');
        expect(labels).not.toContain('flank');
        const group = (looseFilesRuleset.vocabulary.exclusive ?? []).find(g => g.facts.includes('rear'))!;
        expect(group.facts).toEqual(['flank', 'rear']);
    });
});

describe('Loose Files stats no unit can have', () => {
    it('limbered guns do not fire: they are a target (L4), unlimbered first (L6.11)', async () => {
        const text = `${FORCES.replace('guns medium }', 'guns medium, formation limbered }')}
fire F {
  A.Guns fires at B.Foot: range 5
  dice A.Guns d6 4 4
}
`;
        const got = await found(text, LooseFilesCodes.cannotFire);
        expect(got).toEqual([`${lineOf(text, 'fires at')}: error A.Guns is limbered: limbered guns are a target (+1, L4), not a battery; unlimber them first (formation-change, unlimbered, L6.11).`]);
        // One mistake, one message: the dice of guns that cannot fire are not counted as well.
        expect((await check(text)).diagnostics.filter(d => d.code === Codes.diceCount)).toEqual([]);
    });

    it('casualties 5 on stands 4: an error on the casualties, not a strength-0 combat as well', async () => {
        const text = combat('').replace('unit Line infantry { class 2, stands 4 }', 'unit Line infantry { class 2, stands 4, casualties 5 }');
        const { diagnostics } = await check(text);
        const lost = diagnostics.filter(d => d.code === LooseFilesCodes.statValue);
        expect(lost.map(d => `${d.range.start.line + 1}: ${d.message}`)).toEqual([`${lineOf(text, 'casualties 5')}: Line has 4 stands and cannot have lost 5: a casualty is one stand (L1.3).`]);
        expect(lost[0].severity).toBe(1);
        expect(diagnostics.filter(d => d.code === LooseFilesCodes.casualtiesOverStands)).toEqual([]);
    });

    it('weapon rifle on guns, guns heavy on infantry: each an error on the stat (L4, L5)', async () => {
        const text = FORCES
            .replace('guns medium }', 'guns medium, weapon rifle }')
            .replace('unit Foot infantry { class 3, stands 4 }', 'unit Foot infantry { class 3, stands 4, guns heavy }');
        expect(await found(text, LooseFilesCodes.statValue)).toEqual([
            `${lineOf(text, 'weapon rifle')}: error Guns is artillery: 'weapon' belongs to infantry (musket 8 inches, rifles 10 inches, L5).`,
            `${lineOf(text, 'guns heavy')}: error Foot is infantry: 'guns' belongs to artillery ("heavy gun", "light gun", L4).`
        ]);
    });

    it('a count out of its range names the range and the rule', async () => {
        const text = FORCES.replace('unit Line infantry { class 2, stands 4 }', 'unit Line infantry { class 2, stands 0 }');
        expect(await found(text, LooseFilesCodes.statValue)).toEqual([
            `${lineOf(text, 'stands 0')}: error 'stands' is a whole number from 1 to 100: a unit has at least one stand (L1).`
        ]);
    });
});
