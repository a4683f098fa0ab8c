/**
 * `umpire.odds` with `whatIf` (docs/reports.md#what-if): the Odds view's toggles ask the
 * server for one action's odds as written and with changes. The changed set-up's figures must be
 * those of the odds of the edited text itself, read separately, to 1e-12; unknown changes are refused
 * with why; the toggles offered come from what the action and the file have.
 */
import * as fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { OutcomeCommands, type EditorSide } from '../../../src/language/lsp/outcome-requests.js';
import { oddsForAction } from '../../../src/core/odds.js';
import { modelOf } from '../../../src/core/model-cache.js';
import type { OddsAnswer, OddsReport } from '../../../src/protocol.js';
import { openDocument, parse, scratchChecker, services } from '../../support/services.js';

const URI_TEXT = 'file:///what-if/ridge.battle';
const ridge = fs.readFileSync(new URL('../../../examples/scrud-ridge.battle', import.meta.url), 'utf8');

const editor: EditorSide = { applyEdit: async () => ({ applied: false }), tell: () => undefined, ask: async () => undefined };
const commands = () => new OutcomeCommands(services.shared, editor, scratchChecker(), () => 1);

/** The odds of `action` in `text`, parsed on its own: what a second, separate odds run gives. */
async function separately(text: string, action: string): Promise<OddsReport> {
    const document = await parse(text, { validation: true });
    expect((document.diagnostics ?? []).filter(d => d.severity === 1)).toEqual([]);
    const model = modelOf(document.parseResult.value);
    const report = oddsForAction(model, model.actions.find(a => a.node.name === action)!);
    if ('problem' in report) throw new Error(String(report.problem));
    return report;
}

const asReport = (answer: OddsAnswer) => answer as OddsReport;

describe('umpire.odds with what-ifs', () => {
    it('"without Uphill" on the ridge: both set-ups and the difference of two separate odds runs on the two texts, to 1e-12', async () => {
        await openDocument(URI_TEXT, ridge);
        const answer = asReport(await commands().odds({ uri: URI_TEXT, action: 'Ridge', whatIf: ['without Uphill'] }));
        // The edited text is made here by hand: the one `factor Uphill on French` line removed.
        expect(ridge.match(/^ {2}factor Uphill on French\n/gm)).toHaveLength(1);
        const before = await separately(ridge, 'Ridge');
        const after = await separately(ridge.replace(/^ {2}factor Uphill on French\n/m, ''), 'Ridge');
        expect(answer.units).toEqual(before.units);
        expect(answer.whatIf?.problem).toBeUndefined();
        expect(answer.whatIf?.changes).toEqual(['without Uphill']);
        expect(answer.whatIf?.after?.units).toEqual(after.units);
        const difference = answer.whatIf!.difference!;
        expect(difference.units.map(u => u.id)).toEqual(before.units.map(u => u.id));
        let changed = 0;
        for (const [i, u] of difference.units.entries()) {
            for (const label of Object.keys(before.units[i].probabilities)) {
                const d = after.units[i].probabilities[label] - before.units[i].probabilities[label];
                expect(Math.abs(u.probabilities[label] - d)).toBeLessThanOrEqual(1e-12);
                if (Math.abs(d) > 1e-9) changed++;
            }
            for (const label of Object.keys(before.units[i].atLeast!)) {
                expect(Math.abs(u.atLeast[label] - (after.units[i].atLeast![label] - before.units[i].atLeast![label]))).toBeLessThanOrEqual(1e-12);
            }
        }
        // Uphill is −1 on every French unit: the French chances do change.
        expect(changed).toBeGreaterThan(0);
    });

    it('makes several changes in order, as separate edits would', async () => {
        await openDocument(URI_TEXT, ridge);
        const answer = asReport(await commands().odds({ uri: URI_TEXT, action: 'Ridge', whatIf: ['without Uphill', 'grade French.Ligne Guard'] }));
        const edited = ridge.replace(/^ {2}factor Uphill on French\n/m, '').replace('unit Ligne foot Veteran x2', 'unit Ligne foot Guard x2');
        expect(answer.whatIf?.after?.units).toEqual((await separately(edited, 'Ridge')).units);
    });

    it('offers the toggles the action has: its factors, the modifiers not applied on each side, each unit\'s grade, the rule set\'s options', async () => {
        await openDocument(URI_TEXT, ridge);
        const answer = asReport(await commands().odds({ uri: URI_TEXT, action: 'Ridge', whatIf: [] }));
        expect(answer.whatIf).toBeUndefined();
        const choices = answer.whatIfChoices!;
        expect(choices.filter(c => c.kind === 'factor').map(c => c.change)).toEqual(['without Uphill', 'without ForcedMarch', 'without Defending']);
        expect(choices.filter(c => c.kind === 'modifier').map(c => c.change)).toEqual(['with Woods on French', 'with Woods on Prussian']);
        const grades = choices.filter(c => c.kind === 'grade');
        expect(grades.map(c => c.unit)).toEqual(['French.Grenadiers', 'French.Ligne', 'French.Conscripts', 'French.Chasseurs', 'Prussian.Fusiliers', 'Prussian.Musketeers', 'Prussian.Hussars']);
        expect(grades.find(c => c.unit === 'French.Ligne')).toMatchObject({ change: 'grade French.Ligne', grade: 'Veteran', grades: ['Guard', 'Veteran', 'Line', 'Raw', 'Landwehr'] });
        expect(choices.filter(c => c.kind === 'option').map(c => c.change)).toEqual(['option pooled', 'option die', 'option pursuit', 'option runs-and-pursues', 'option clamp-six']);
        // Every factor and modifier toggle is a change the server accepts.
        for (const c of choices.filter(x => x.kind === 'factor' || x.kind === 'modifier')) {
            const r = asReport(await commands().odds({ uri: URI_TEXT, action: 'Ridge', whatIf: [c.change] }));
            expect(r.whatIf?.problem, c.change).toBeUndefined();
            expect(r.whatIf?.after?.units.length, c.change).toBe(answer.units.length);
        }
        // Without `whatIf`, the answer is the odds alone, as before.
        expect(asReport(await commands().odds({ uri: URI_TEXT, action: 'Ridge' })).whatIfChoices).toBeUndefined();
    });

    it('offers each fact written on a unit (the ford\'s charge) as a toggle, and takes it away', async () => {
        const ford = fs.readFileSync(new URL('../../../examples/ancients-flank.battle', import.meta.url), 'utf8').replace(/^ {2}dice .*\n/gm, '');
        await openDocument('file:///what-if/ford.battle', ford);
        const answer = asReport(await commands().odds({ uri: 'file:///what-if/ford.battle', action: 'Ford', whatIf: [] }));
        expect(answer.whatIfChoices!.filter(c => c.kind === 'fact').map(c => c.change)).toEqual(['without fact charged on Greeks.Companions', 'without fact follow-up on Greeks.Companions']);
        const without = asReport(await commands().odds({ uri: 'file:///what-if/ford.battle', action: 'Ford', whatIf: ['without fact charged on Greeks.Companions'] }));
        expect(without.whatIf?.after?.units).toEqual((await separately(ford.replace(/^ {2}Greeks\.Companions: charged\n/m, ''), 'Ford')).units);
    });

    it('refuses unknown changes with a clear message, and keeps the odds as written', async () => {
        await openDocument(URI_TEXT, ridge);
        const cases: Array<[string, RegExp]> = [
            ['flank the Prussians', /'flank the Prussians' is not a what-if: write 'without FACTOR'/],
            ['without Woods', /engagement Ridge has no factor Woods/],
            ['with Fog on French', /there is no modifier Fog \(modifiers: Uphill, Defending, ForcedMarch, Woods\)/],
            ['grade French.Ligne Elite', /there is no grade Elite/],
            ['grade French.Nobody Guard', /there is no unit French.Nobody/],
            ['with Woods on Austrian', /the changed set-up has an error/]
        ];
        for (const [change, why] of cases) {
            const answer = asReport(await commands().odds({ uri: URI_TEXT, action: 'Ridge', whatIf: [change] }));
            expect(answer.units.length, change).toBeGreaterThan(0);
            expect(answer.whatIf?.after, change).toBeUndefined();
            expect(answer.whatIf?.problem, change).toMatch(why);
        }
        expect(await commands().odds({ uri: URI_TEXT, whatIf: ['without Uphill'] })).toMatchObject({ available: false, reason: expect.stringMatching(/needs the action/) });
        expect(await commands().odds({ uri: URI_TEXT, action: 'Nope', whatIf: [] })).toMatchObject({ available: false, reason: expect.stringMatching(/no action named 'Nope'/) });
    });
});
