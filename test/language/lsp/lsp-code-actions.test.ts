import { describe, expect, it } from 'vitest';
import { type LangiumDocument } from 'langium';
import { parseHelper } from 'langium/test';
import { TextDocument } from 'vscode-languageserver-textdocument';
import type { CodeAction, Diagnostic, TextDocumentEdit, TextEdit } from 'vscode-languageserver';
import { Codes } from '../../../src/core/codes.js';
import { FIXES } from '../../../src/language/lsp/code-actions.js';
import { AncientsCodes } from '../../../src/rulesets/ancients/ancients-codes.js';
import { LooseFilesCodes } from '../../../src/rulesets/loose-files/loose-files-codes.js';
import { ScrudCodes } from '../../../src/rulesets/scrud/scrud-checks.js';
import { battle as services } from '../../support/services.js';

const parse = parseHelper(services);

async function diagnosticsOf(text: string): Promise<{ doc: LangiumDocument, diagnostics: Diagnostic[] }> {
    const doc = await parse(text, { validation: true });
    return { doc, diagnostics: doc.diagnostics ?? [] };
}

/** The quick fixes offered for the first diagnostic with this code. */
async function fixesFor(text: string, code: string): Promise<{ doc: LangiumDocument, actions: CodeAction[] }> {
    const { doc, diagnostics } = await diagnosticsOf(text);
    const diagnostic = diagnostics.find(d => d.code === code);
    expect(diagnostic, `no ${code} in ${diagnostics.map(d => `${d.code}: ${d.message}`).join('\n')}`).toBeDefined();
    const actions = await services.lsp.CodeActionProvider!.getCodeActions(doc, {
        // Only the quick fixes: the umpire's commands at an action are source actions (action-commands.ts).
        textDocument: { uri: doc.uri.toString() }, range: diagnostic!.range, context: { diagnostics: [diagnostic!], only: ['quickfix'] }
    }) as CodeAction[];
    return { doc, actions };
}

function apply(doc: LangiumDocument, action: CodeAction): string {
    const change = action.edit!.documentChanges![0] as TextDocumentEdit;
    expect(change.textDocument.version).toBe(doc.textDocument.version);
    return TextDocument.applyEdits(doc.textDocument, change.edits as TextEdit[]);
}

/** Applies the fix with this title and returns the new text and the codes it still reports. */
async function applyFix(text: string, code: string, title: string | RegExp): Promise<{ text: string, codes: string[] }> {
    const { doc, actions } = await fixesFor(text, code);
    const action = actions.find(a => typeof title === 'string' ? a.title === title : title.test(a.title));
    expect(action, `no '${title}' among ${actions.map(a => a.title).join(', ')}`).toBeDefined();
    const fixed = apply(doc, action!);
    return { text: fixed, codes: (await diagnosticsOf(fixed)).diagnostics.map(d => String(d.code)) };
}

const SCRUD = `scenario "t"
rules scrud

grade Elite +2
grade Raw -1

modifier Tired -1

force French {
  unit Line foot Elite x2
  unit Hussars horse
}

force Austrian {
  unit Grenz foot Raw x2
  unit Dragoons horse
}
`;

const ENGAGEMENT = `engagement Ridge {
  French attacks Austrian
  dice French foot 4 2
  dice French horse 3
  dice Austrian foot 5 1
  dice Austrian horse 6
}
`;

describe('quick fixes', () => {
    it('declares a missing grade after the last grade', async () => {
        const r = await applyFix(SCRUD.replace('unit Hussars horse', 'unit Hussars horse Guard'), Codes.unknownReference, "Declare grade 'Guard'");
        expect(r.text).toContain('grade Raw -1\ngrade Guard 0\n');
        expect(r.codes).toEqual([]);
    });

    it('declares a missing grade after the header when there are no grades', async () => {
        const r = await applyFix('scenario "t"\nrules scrud\n\nforce F {\n  unit U foot Guard\n}\n', Codes.unknownReference, "Declare grade 'Guard'");
        expect(r.text).toBe('scenario "t"\nrules scrud\n\ngrade Guard 0\n\nforce F {\n  unit U foot Guard\n}\n');
    });

    it('declares a missing modifier after the last modifier', async () => {
        const r = await applyFix(`${SCRUD}${ENGAGEMENT.replace('  dice French foot', '  factor Rain on French\n  dice French foot')}`, Codes.unknownReference, "Declare modifier 'Rain'");
        expect(r.text).toContain('modifier Tired -1\nmodifier Rain -1\n');
        expect(r.codes).toEqual([]);
    });

    it('offers the close spelling of a misspelt force or unit', async () => {
        const force = await applyFix(`${SCRUD}${ENGAGEMENT.replace('French attacks', 'Frnech attacks')}`, Codes.unknownReference, "Change to 'French'");
        expect(force.text).toContain('  French attacks Austrian');
        const unit = await applyFix(`${SCRUD}${ENGAGEMENT.replace('French attacks Austrian', 'French.Lines attacks Austrian')}`, Codes.unknownReference, "Change to 'Line'");
        expect(unit.text).toContain('  French.Line attacks Austrian');
    });

    it('repairs the obvious syntax errors: a misspelt keyword or verb, a block left open, a stray brace', async () => {
        const keyword = await applyFix(`${SCRUD}${ENGAGEMENT.replace('engagement', 'engagment')}`, Codes.syntaxError, "Change to 'engagement'");
        expect(keyword.codes).toEqual([]);
        const verb = await applyFix(`${SCRUD}${ENGAGEMENT.replace('French attacks', 'French atacks')}`, Codes.syntaxError, "Change to 'attacks'");
        expect(verb.text).toContain('  French attacks Austrian');
        expect(verb.codes).toEqual([]);
        const open = await applyFix(`${SCRUD.replace(/(unit Hussars horse\n)\}/, '$1')}${ENGAGEMENT}`, Codes.syntaxError, "Add '}' here");
        expect(open.codes).toEqual([]);
        const stray = await applyFix(`${SCRUD}${ENGAGEMENT}}\n`, Codes.syntaxError, "Remove this '}'");
        expect(stray.text).toBe(`${SCRUD}${ENGAGEMENT}\n`);
        expect(stray.codes).toEqual([]);
    });

    it('says the close spelling of an unknown name in its message, from imported files too', async () => {
        const { diagnostics } = await diagnosticsOf(`${SCRUD}${ENGAGEMENT.replace('French attacks', 'Frnech attacks')}`);
        expect(diagnostics.find(d => d.code === Codes.unknownReference)?.message).toBe("There is no force named 'Frnech': did you mean 'French'?");
        const grade = await diagnosticsOf(SCRUD.replace('unit Hussars horse', 'unit Hussars horse Elit'));
        expect(grade.diagnostics.find(d => d.code === Codes.unknownReference)?.message)
            .toBe("There is no grade named 'Elit': did you mean 'Elite'? Or declare it with 'grade Elit +1'.");
    });

    it('removes extra dice', async () => {
        const r = await applyFix(`${SCRUD}${ENGAGEMENT.replace('dice French foot 4 2', 'dice French foot 4 2 6 1')}`, Codes.diceCount, 'Remove the 2 extra dice');
        expect(r.text).toContain('  dice French foot 4 2\n');
        expect(r.codes).toEqual([]);
    });

    it('replaces too few dice by a new seed, never by invented dice', async () => {
        const { actions } = await fixesFor(`${SCRUD}${ENGAGEMENT.replace('dice French foot 4 2', 'dice French foot 4')}`, Codes.diceCount);
        expect(actions.map(a => a.title)).toEqual([expect.stringMatching(/^Remove the entered dice and use a new seed \(\d+\)$/)]);
        const r = await applyFix(`${SCRUD}${ENGAGEMENT.replace('dice French foot 4 2', 'dice French foot 4')}`, Codes.diceCount, /new seed/);
        expect(r.text).toMatch(/engagement Ridge \{\n {2}French attacks Austrian\n {2}seed \d+\n\}\n$/);
        expect(r.codes).toEqual([]);
    });

    it('keeps an existing seed when the dice are removed', async () => {
        const text = `${SCRUD}${ENGAGEMENT.replace('dice French foot 4 2', 'seed 42\n  dice French foot 4')}`;
        const r = await applyFix(text, Codes.diceCount, 'Remove the entered dice and use seed 42');
        expect(r.text).toMatch(/engagement Ridge \{\n {2}French attacks Austrian\n {2}seed 42\n\}\n$/);
        expect(r.codes).toEqual([]);
    });

    it('clamps an impossible face to the nearest face of the die', async () => {
        const r = await applyFix(`${SCRUD}${ENGAGEMENT.replace('dice French horse 3', 'dice French horse 9')}`, Codes.dieFace, 'Change 9 to 6, the nearest face');
        expect(r.text).toContain('dice French horse 6\n');
        expect(r.codes).toEqual([]);
        const average = `${SCRUD.replace('unit Hussars horse', 'unit Hussars horse { die average }')}${ENGAGEMENT.replace('dice French horse 3', 'dice French horse 1')}`;
        const r2 = await applyFix(average, Codes.dieFace, 'Change 1 to 2, the nearest face');
        expect(r2.text).toContain('dice French horse 2\n');
        expect(r2.codes).toEqual([]);
    });

    it('renames a duplicate to a free name', async () => {
        const r = await applyFix(SCRUD.replace('grade Raw -1', 'grade Raw -1\ngrade Elite +1\ngrade Elite2 0'), Codes.duplicateName, "Rename to 'Elite3'");
        expect(r.text).toContain('grade Elite +1\ngrade Elite2 0\n'.replace('Elite +1', 'Elite3 +1'));
        expect(r.codes).toEqual([]);
    });

    it('removes a zero count and caps a huge one', async () => {
        const zero = await applyFix(SCRUD.replace('unit Hussars horse', 'unit Hussars horse x0'), Codes.countZero, "Remove 'x0' (one unit)");
        expect(zero.text).toBe(SCRUD);
        const huge = await applyFix(SCRUD.replace('unit Hussars horse', 'unit Hussars horse x5000'), Codes.countTooLarge, /x1000/);
        expect(huge.text).toContain('unit Hussars horse x1000\n');
        expect(huge.codes).toEqual([]);
    });

    it('removes the seed that entered dice override', async () => {
        const r = await applyFix(`${SCRUD}${ENGAGEMENT.replace('  dice French foot', '  seed 7\n  dice French foot')}`, Codes.seedWithDice, 'Remove the seed (the entered dice are used)');
        expect(r.text).toBe(`${SCRUD}${ENGAGEMENT}`);
    });

    it('removes #k from a single unit', async () => {
        const r = await applyFix(`${SCRUD}${ENGAGEMENT.replace('  dice French foot', '  factor Tired on French.Hussars#1\n  dice French foot')}`, Codes.unitIndexRange, "Remove '#1'");
        expect(r.text).toContain('factor Tired on French.Hussars\n');
        expect(r.codes).toEqual([]);
    });

    it('clamps grade and modifier values into their range', async () => {
        const g = await applyFix(SCRUD.replace('grade Elite +2', 'grade Elite +9'), Codes.gradeValueRange, 'Change to +6');
        expect(g.text).toContain('grade Elite +6\n');
        const m = await applyFix(SCRUD.replace('modifier Tired -1', 'modifier Tired -25'), Codes.modifierValueRange, 'Change to -10');
        expect(m.text).toContain('modifier Tired -10\n');
        expect([...g.codes, ...m.codes]).toEqual([]);
    });

    it('replaces an unknown die by a d6', async () => {
        const r = await applyFix(SCRUD.replace('unit Hussars horse', 'unit Hussars horse { die banana }'), Codes.unknownDie, "Change to 'die d6'");
        expect(r.text).toContain('unit Hussars horse { die d6 }');
        expect(r.codes).toEqual([]);
    });

    it('removes a factor named twice: the repeated name, the repeated target, or the repeating line', async () => {
        const withFactors = (lines: string) => `${SCRUD}${ENGAGEMENT.replace('  dice French foot', `${lines}\n  dice French foot`)}`;
        const once = withFactors('  factor Tired on French');
        const name = await applyFix(withFactors('  factor Tired, Tired on French'), Codes.factorRepeated, "Remove the repeated 'Tired'");
        expect(name.text).toBe(once);
        const line = await applyFix(withFactors('  factor Tired on French\n  factor Tired on French.Line#2'), Codes.factorRepeated, 'Remove the repeated factor');
        expect(line.text).toBe(once);
        const target = await applyFix(withFactors('  factor Tired on French, French.Hussars'), Codes.factorRepeated, "Remove the repeated 'French.Hussars'");
        expect(target.text).toBe(once);
        const first = await applyFix(withFactors('  factor Tired on French\n  factor Tired on French.Hussars, Austrian'), Codes.factorRepeated, "Remove the repeated 'French.Hussars'");
        expect(first.text).toBe(withFactors('  factor Tired on French\n  factor Tired on Austrian'));
        expect([name, line, target, first].flatMap(r => r.codes)).toEqual([]);
        // A repeat that also reaches new units cannot simply go: the warning stays, with no fix.
        const { actions } = await fixesFor(withFactors('  factor Tired on French.Line\n  factor Tired on French'), Codes.factorRepeated);
        expect(actions).toEqual([]);
    });

    it('removes a statement SCRUD does not use', async () => {
        const r = await applyFix(`${SCRUD}${ENGAGEMENT.replace('  dice French foot', '  first turn\n  dice French foot')}`, Codes.statementNotUsed, 'Remove this statement');
        expect(r.text).toBe(`${SCRUD}${ENGAGEMENT}`);
    });

    it('offers the words a rule set accepts for a stat', async () => {
        const ancients = 'scenario "a"\nrules ancients\ngrade Hoplite { size large, weight enormous, formation formed, skill 2, leadership 7 }\n';
        const { actions } = await fixesFor(ancients, AncientsCodes.statValue);
        expect(actions.map(a => a.title)).toEqual(["Change to 'weight heavy'", "Change to 'weight medium'", "Change to 'weight light'"]);
        const lf = 'scenario "l"\nrules loose-files\nforce B {\n  unit G infantry { class 7 }\n}\n';
        const r = await applyFix(lf, LooseFilesCodes.classRange, "Change to 'class 5'");
        expect(r.text).toContain('unit G infantry { class 5 }');
        expect(r.codes).not.toContain(LooseFilesCodes.classRange);
    });

    it('respells an unknown stat or fact as the word the rule set knows', async () => {
        const ancients = 'scenario "a"\nrules ancients\ngrade Hoplite { size large, wieght heavy, formation formed, skill 2, leadership 7 }\n';
        const stat = await applyFix(ancients, AncientsCodes.statUnknown, "Change to 'weight'");
        expect(stat.text).toContain('{ size large, weight heavy,');
        expect(stat.codes).not.toContain(AncientsCodes.statUnknown);
        const lf = 'scenario "l"\nrules loose-files\nforce B {\n  unit G infantry { class 2 }\n}\nredress Dress {\n  B.G: stationery\n}\n';
        const fact = await applyFix(lf, LooseFilesCodes.unknownFact, "Change to 'stationary'");
        expect(fact.text).toContain('B.G: stationary\n');
        expect(fact.codes).not.toContain(LooseFilesCodes.unknownFact);
        const scrudStat = await applyFix(`${SCRUD}force Blue {\n  unit Foot foot { dei d4 }\n}\n`, ScrudCodes.unknownStat, "Change to 'die'");
        expect(scrudStat.text).toContain('unit Foot foot { die d4 }');
        expect(scrudStat.codes).not.toContain(ScrudCodes.unknownStat);
        const pursuit = ENGAGEMENT.replace('  dice French foot', '  French.Line: pursiut\n  dice French foot');
        expect(pursuit).not.toBe(ENGAGEMENT);
        const scrudFact = await applyFix(`${SCRUD}${pursuit}`, ScrudCodes.unknownFact, "Change to 'pursuit'");
        expect(scrudFact.text).toContain('French.Line: pursuit\n');
        expect(scrudFact.codes).not.toContain(ScrudCodes.unknownFact);
    });

    it('sets a negative token count to 0 and clamps leadership to what the break test can roll', async () => {
        const base = 'scenario "a"\nrules ancients\ngrade Hoplite { size large, weight heavy, formation formed, skill 2, leadership 7, tokens 0 }\n';
        const tokens = await applyFix(base.replace('tokens 0', 'tokens -2'), AncientsCodes.tokensRange, "Change to 'tokens 0'");
        expect(tokens.text).toBe(base);
        const leadership = await applyFix(base.replace('leadership 7', 'leadership 15'), AncientsCodes.leadershipRange, "Change to 'leadership 14'");
        expect(leadership.text).toBe(base.replace('leadership 7', 'leadership 14'));
        const oneDie = await applyFix(base.replace('rules ancients', 'rules ancients\noption break-die d6').replace('leadership 7', 'leadership 9'), AncientsCodes.leadershipRange, "Change to 'leadership 8'");
        expect(oneDie.codes).not.toContain(AncientsCodes.leadershipRange);
    });

    it('offers the labels a dice line may carry', async () => {
        const r = await applyFix(`${SCRUD}${ENGAGEMENT.replace('dice French horse 3', 'dice French hrose 3')}`, Codes.diceLabel, "Change to 'horse'");
        expect(r.text).toContain('dice French horse 3\n');
        expect(r.codes).toEqual([]);
        const { actions } = await fixesFor(`${SCRUD}${ENGAGEMENT.replace('dice French horse 3', 'dice French hrose 3')}`, Codes.diceLabel);
        expect(actions.map(a => a.title)).toEqual(["Change to 'foot'", "Change to 'horse'", "Change to 'pursuit'"]);
    });

    it('offers the Loose Files types for an arm that is none', async () => {
        const lf = 'scenario "l"\nrules loose-files\nforce B {\n  unit G infantery { class 2 }\n  unit D dragoons { class 2 }\n}\n';
        const r = await applyFix(lf, LooseFilesCodes.unitType, "Change to 'infantry'");
        expect(r.text).toContain('unit G infantry { class 2 }');
        const doc = await parse(lf, { validation: true });
        const dragoons = doc.diagnostics!.filter(d => d.code === LooseFilesCodes.unitType)[1];
        const actions = await services.lsp.CodeActionProvider!.getCodeActions(doc, { textDocument: { uri: doc.uri.toString() }, range: dragoons.range, context: { diagnostics: [dragoons], only: ['quickfix'] } }) as CodeAction[];
        expect(actions.map(a => a.title)).toEqual(['infantry', 'cavalry', 'artillery', 'officer', 'commander'].map(t => `Change to '${t}'`));
    });

    it('adds a reason to a ruling', async () => {
        const r = await applyFix(`${SCRUD}ruling French.Hussars: rallied\n`, Codes.rulingWithoutReason, 'Add a reason');
        expect(r.text).toContain('ruling French.Hussars: rallied, reason "…"\n');
        expect(r.codes).not.toContain(Codes.rulingWithoutReason);
    });

    it('offers to resolve a stale outcome again (the resolve command of the code lens)', async () => {
        const stale = `${SCRUD}engagement Ridge {\n  French attacks Austrian\n  seed 42\n  outcome seed 42 check "00000000" {\n    summary "old"\n  }\n}\n`;
        const { actions } = await fixesFor(stale, Codes.outcomeStale);
        expect(actions).toHaveLength(1);
        expect(actions[0].command?.arguments?.[0]).toMatchObject({ action: 'Ridge' });
    });

    it('puts the arm before a grade written in its place, and names a known rule set', async () => {
        const text = 'rules scrud\ngrade Veteran +1\nforce A {\n  unit Line Veteran\n}\n';
        const r = await applyFix(text, Codes.gradeAsArm, "Change to 'horse Veteran'");
        expect(r.text).toBe(text.replace('unit Line Veteran', 'unit Line horse Veteran'));
        expect(r.codes).not.toContain(Codes.gradeAsArm);
        const rules = await applyFix('rules scrub\nforce A {\n  unit Line foot\n}\n', Codes.rulesNotSupported, "Change to 'scrud'");
        expect(rules.text).toBe('rules scrud\nforce A {\n  unit Line foot\n}\n');
        expect(rules.codes).toEqual([]);
    });

    it('says which rule set a file without a rules line is checked as, as information, and adds the line', async () => {
        const bare = 'force A {\n  unit Line foot\n}\n';
        const { diagnostics } = await diagnosticsOf(bare);
        expect(diagnostics.map(d => ({ code: d.code, severity: d.severity, range: d.range }))).toEqual([
            // Information (3), on the first line only: not the force's whole block.
            { code: Codes.rulesDefault, severity: 3, range: { start: { line: 0, character: 0 }, end: { line: 0, character: 9 } } }
        ]);
        expect(diagnostics[0].message).toMatch(/^No 'rules' line: this file is checked as SCRUD \('rules scrud'\)\..*\(scrud, ancients, loose-files\)/);
        const { actions } = await fixesFor(bare, Codes.rulesDefault);
        expect(actions.map(a => [a.title, a.isPreferred])).toEqual([["Add 'rules scrud'", true], ["Add 'rules ancients'", undefined], ["Add 'rules loose-files'", undefined]]);
        const fixed = await applyFix(bare, Codes.rulesDefault, "Add 'rules scrud'");
        expect(fixed.text).toBe(`rules scrud\n${bare}`);
        expect(fixed.codes).toEqual([]);
        // With a title, the line goes after it (the grammar wants `scenario` first), and the note sits on the title.
        const titled = `scenario "Ford"\n${bare}`;
        const onTitle = (await diagnosticsOf(titled)).diagnostics.find(d => d.code === Codes.rulesDefault)!;
        expect(onTitle.range).toEqual({ start: { line: 0, character: 9 }, end: { line: 0, character: 15 } });
        const afterTitle = await applyFix(titled, Codes.rulesDefault, "Add 'rules loose-files'");
        expect(afterTitle.text).toBe(`scenario "Ford"\nrules loose-files\n${bare}`);
        expect(afterTitle.codes).not.toContain(Codes.rulesDefault);
        // An empty file gets it too, at its start.
        const empty = await applyFix('', Codes.rulesDefault, "Add 'rules ancients'");
        expect(empty.text).toBe('rules ancients\n');
        expect(empty.codes).toEqual([]);
    });

    it('offers nothing for a diagnostic without an obvious fix', async () => {
        const { actions } = await fixesFor(`${SCRUD}engagement E {\n  dice French foot 1 2\n}\n`, Codes.missingSides);
        expect(actions).toEqual([]);
    });

    it('keys every fix by a real diagnostic code', () => {
        const codes = new Set<string>(Object.values(Codes));
        for (const code of Object.keys(FIXES)) expect(codes).toContain(code);
    });
});
