/**
 * What was left of the sheet after the turn was played in order: distances in fractions
 * of an inch, "same target and range as last turn" from last turn's fire, casualties that a unit
 * cannot take, officers who take nothing from fire and morale, and a side's expected DPs as its total.
 */
import { describe, expect, it } from 'vitest';
import type { Diagnostic } from 'vscode-languageserver';
import type { Hover, MarkupContent } from 'vscode-languageserver';
import { modelOf } from '../../../src/core/model-cache.js';
import { isUnresolvable, resolveAction } from '../../../src/core/resolve.js';
import type { Resolution } from '../../../src/core/resolution.js';
import type { ScenarioModel } from '../../../src/core/scenario.js';
import { actionOffsets, applyEdits, resolutionEdit } from '../../../src/core/outcome-edit.js';
import { oddsForAction } from '../../../src/core/odds.js';
import { stateAtEnd } from '../../../src/core/campaign-state.js';
import { LOOSE_FILES_COLUMNS } from '../../../src/rulesets/loose-files/loose-files-counters.js';
import { Codes } from '../../../src/core/codes.js';
import { LooseFilesCodes } from '../../../src/rulesets/loose-files/loose-files-codes.js';
import { resolveFire, type FireInput } from '../../../src/rulesets/loose-files/engine/loose-files-fire.js';
import { resolveMorale } from '../../../src/rulesets/loose-files/engine/loose-files-morale.js';
import { NO_HOUSE_RULES, type LfUnit } from '../../../src/rulesets/loose-files/engine/loose-files-units.js';
import { fireOdds } from '../../../src/rulesets/loose-files/engine/loose-files-odds.js';
import { openDocument, parse, services } from '../../support/services.js';

const FORCES = `rules loose-files
force A {
  unit Line infantry { class 2, stands 4 }
  unit Horse cavalry { class 2, stands 2 }
  unit Howard officer { class 3, attached Line }
}
force B {
  unit Foot infantry { class 3, stands 4 }
  unit Solo infantry { class 3, stands 1 }
  unit Guns artillery { class 2, stands 2, guns medium }
}
`;

async function load(text: string): Promise<{ model: ScenarioModel, diagnostics: Diagnostic[] }> {
    const doc = await parse(text, { validation: true });
    expect(doc.parseResult.parserErrors.map(e => e.message)).toEqual([]);
    return { model: modelOf(doc.parseResult.value), diagnostics: doc.diagnostics ?? [] };
}

function resolved(model: ScenarioModel, name: string): Resolution {
    const a = model.actions.find(x => x.node.name === name)!;
    const r = resolveAction(model, a, { newSeed: () => 1 });
    if (isUnresolvable(r)) throw new Error(r.problem);
    return r.resolution;
}

/** The text with the action's outcome written, as Resolve writes it. */
function written(text: string, model: ScenarioModel, name: string): string {
    const a = model.actions.find(x => x.node.name === name)!;
    const r = resolveAction(model, a, { newSeed: () => 1 });
    if (isUnresolvable(r)) throw new Error(r.problem);
    return applyEdits(text, [resolutionEdit(text, actionOffsets(a.node, text)!, r.resolution, r.dice)]);
}

const errors = (ds: readonly Diagnostic[]) => ds.filter(d => d.severity === 1).map(d => `${d.code}: ${d.message}`);
const withCode = (ds: readonly Diagnostic[], code: string) => ds.filter(d => d.code === code);
const modifiersOf = (r: Resolution) => r.json.units[0].modifiers as Array<{ reason: string, value: number }>;

const volley = (name: string, target: string, range: string, facts = '') =>
    `  fire ${name} {\n    B.Guns fires at ${target}: range ${range}${facts}\n    dice B.Guns d6 3 3\n  }\n`;

describe('distances in fractions of an inch (#l-dist)', () => {
    it('fractional distances: range 9.5 is close, 10 long; a fraction on a count is refused', async () => {
        const close = await load(`${FORCES}${volley('V', 'A.Line', '9.5').replace(/^ {2}/gm, '')}`);
        expect(errors(close.diagnostics)).toEqual([]);
        const r = resolved(close.model, 'V');
        expect(r.json.units[0]).toMatchObject({ band: 'close', range: 9.5 });
        // Two 3s at close range (L4.7): 1 DP each. At 10" (long, L4.6) a 3 does nothing.
        expect(r.json.units[1]).toMatchObject({ result: 'disordered', dp: 2 });
        const long = await load(`${FORCES}${volley('V', 'A.Line', '10').replace(/^ {2}/gm, '')}`);
        expect(resolved(long.model, 'V').json.units[1]).toMatchObject({ result: 'no-effect', dp: 0 });

        // The written outcome keeps the fraction and reads back current, with no problem.
        const text = `${FORCES}${volley('V', 'A.Line', '9.5').replace(/^ {2}/gm, '')}`;
        const after = written(text, close.model, 'V');
        expect(after).toContain('B.Guns: fired, range 9.5, throws 2 vs A.Line');
        const back = await load(after);
        expect(back.diagnostics.map(d => d.code)).not.toContain(Codes.outcomeStale);
        expect(errors(back.diagnostics)).toEqual([]);

        // Morale within 6": 5.5 counts, 6.5 does not (L7.1).
        const morale = (d: string) => `${FORCES}morale M { B.Foot sees B.Solo: retreats, distance ${d} }\n`;
        expect(resolved((await load(morale('5.5'))).model, 'M').json.units[0].result).toBe('disordered');
        expect(resolved((await load(morale('6.5'))).model, 'M').json.units[0].result).toBe('unmoved');

        // Below 0 and longer than any table: lf-range, on the number.
        for (const bad of ['-0.5', '1300']) {
            const { diagnostics } = await load(`${FORCES}${volley('V', 'A.Line', bad).replace(/^ {2}/gm, '')}${morale(bad).slice(FORCES.length)}`);
            expect(withCode(diagnostics, LooseFilesCodes.range).length, bad).toBe(2);
        }
        // A count takes no fraction: DPs, dice, the Hessian's inches.
        const counts = await load(`${FORCES}move M { A.Line: average 1.5, dp 0.5 }\n`);
        expect(withCode(counts.diagnostics, Codes.fractionNotAllowed).map(d => d.message)).toEqual([
            "'average' takes a whole number, not 1.5 (fractions are for distances: range, distance).",
            "'dp' takes a whole number, not 0.5 (fractions are for distances: range, distance)."
        ]);
    });
});

describe('same target and range as last turn, from last turn\'s fire (L4.3)', () => {
    const twoTurns = (second: string) => `${FORCES}turn 1 {\n${volley('First', 'A.Line', '12')}}\nturn 2 {\n${second}}\n`;

    it('is derived from the firer\'s fire of the turn before, and the modifier says where from', async () => {
        const same = await load(twoTurns(volley('Again', 'A.Line', '12')));
        expect(errors(same.diagnostics)).toEqual([]);
        expect(modifiersOf(resolved(same.model, 'Again'))).toContainEqual({ reason: "same target and range as last turn (from fire 'First', turn 1)", value: 1 });
        // The first turn has no last turn: nothing is derived.
        expect(modifiersOf(resolved(same.model, 'First')).map(m => m.reason)).toEqual([]);

        const other = await load(twoTurns(volley('Switch', 'A.Horse', '12')));
        expect(modifiersOf(resolved(other.model, 'Switch'))).toContainEqual({ reason: "new target (from fire 'First', turn 1: it fired at A.Line)", value: -1 });

        // The same target at another range is neither the same target and range, nor a new target.
        const moved = await load(twoTurns(volley('Closer', 'A.Line', '11.5')));
        expect(modifiersOf(resolved(moved.model, 'Closer')).map(m => m.reason)).toEqual([]);
    });

    it('the hover on the fire shows the derived modifier and its source', async () => {
        const text = twoTurns(volley('Again', 'A.Line', '12'));
        const doc = await openDocument('file:///sheet/same-target.battle', text);
        const at = text.indexOf('fire Again');
        const hover = await services.Battle.lsp.HoverProvider!.getHoverContent(doc, {
            textDocument: { uri: 'file:///sheet/same-target.battle' }, position: doc.textDocument.positionAt(at)
        }) as Hover | undefined;
        expect((hover?.contents as MarkupContent).value).toContain("+1 same target and range as last turn (from fire 'First', turn 1)");
    });

    it('what the umpire writes stands, and is flagged when last turn\'s fire says otherwise', async () => {
        const written = await load(twoTurns(volley('Switch', 'A.Horse', '12', ', same-target')));
        expect(modifiersOf(resolved(written.model, 'Switch'))).toContainEqual({ reason: 'same target and range as last turn', value: 1 });
        expect(withCode(written.diagnostics, LooseFilesCodes.contradictoryFacts).map(d => [d.severity, d.message])).toEqual([
            [2, "'same-target' but B.Guns fired at A.Line at 12\" last turn (fire 'First', turn 1): the +1 is for the same target and range (L4.3)."]
        ]);
        const fresh = await load(twoTurns(volley('Again', 'A.Line', '12', ', new-target')));
        expect(withCode(fresh.diagnostics, LooseFilesCodes.contradictoryFacts)).toHaveLength(1);
        const agreed = await load(twoTurns(volley('Again', 'A.Line', '12', ', same-target')));
        expect(withCode(agreed.diagnostics, LooseFilesCodes.contradictoryFacts)).toEqual([]);
    });
});

describe('a casualty is a stand (L1.3)', () => {
    // Hand-worked (L2, L3): Line class 2 v Solo class 3: +3. Solo 1 stand v Line 4: outnumbered 4:1, −5.
    // Line 4 + 3 = 7; Solo 2 − 5 = −3: −10 for Solo, routed: 4 DPs and 2 casualties — it has 1 stand.
    const fight = `engagement Melee {\n  A.Line attacks B.Solo\n  dice A 4\n  dice B 2\n}\n`;

    it('two casualties on a one-stand unit: lf-casualties-over-stands, and the unit loses the one stand it has', async () => {
        const { model, diagnostics } = await load(`${FORCES}${fight}`);
        const r = resolved(model, 'Melee');
        const solo = r.json.units.find(u => u.unit === 'Solo')!;
        expect(solo).toMatchObject({ result: 'routed', dp: 4, casualties: 1, casualtiesOver: 1 });
        expect(r.text.join('\n')).toContain('1 casualty (2 by the sheet; only 1 stand left)');
        expect(withCode(diagnostics, LooseFilesCodes.casualtiesOverStands).map(d => [d.severity, d.message])).toEqual([
            [2, 'B.Solo has 1 stand left: the sheet gives 2 casualties, and it loses only 1 (a casualty is a stand, L1.3).']
        ]);
        // The state caps: one casualty, no stand left.
        const end = stateAtEnd(model).get('B.Solo')!;
        expect(end.counters.casualties).toBe(1);
        expect(LOOSE_FILES_COLUMNS.find(c => c.name === 'stands')!.cell(end.counters, model.forces.get('B')!.byName.get('Solo')![0])).toBe('0 of 1');
    });

    it('a written outcome line that takes more stands than the unit has is flagged on its casualties', async () => {
        const text = `${FORCES}${fight.replace('dice A 4\n  dice B 2\n', 'outcome entered {\n    B.Solo: routed, dp 4, casualties 2\n  }\n')}`;
        const { diagnostics } = await load(text);
        const flagged = withCode(diagnostics, LooseFilesCodes.casualtiesOverStands);
        expect(flagged.map(d => d.message)).toEqual(['B.Solo has 1 stand left: it cannot lose 2 (a casualty is a stand, L1.3).']);
        expect(text.split('\n')[flagged[0].range.start.line].slice(flagged[0].range.start.character, flagged[0].range.end.character)).toBe('2');
    });

    it('a unit with stands to spare is not flagged', async () => {
        const { diagnostics } = await load(`${FORCES}${fight.replace('B.Solo', 'B.Foot')}`);
        expect(withCode(diagnostics, LooseFilesCodes.casualtiesOverStands)).toEqual([]);
    });
});

describe('officers take no DPs, casualties or desertions from fire and morale (L1.4)', () => {
    const unit = (over: Partial<LfUnit>): LfUnit => ({
        id: 'A.x', force: 'A', unit: 'x', type: 'infantry', class: 3, formation: 'line', stands: 2, dp: 0, casualties: 0, deserted: 0,
        guns: undefined, weapon: 'musket', hessian: false, jaeger: false, militia: false, cp: 0, attached: undefined, ...over
    });
    const guns = unit({ id: 'B.g', force: 'B', type: 'artillery', class: 2, guns: 'medium', formation: 'unlimbered' });

    it('fire: two 6s at close range disorder a line and kill two stands; an officer takes nothing', () => {
        // L4.7, hand-worked: medium guns, no modifier against a line in the open; each 6 → 1 DP and 1 casualty.
        const at = (target: LfUnit): FireInput => ({ firer: guns, target, range: 6, sameTarget: false, newTarget: false, moved: false, targetCover: undefined, options: NO_HOUSE_RULES });
        expect(resolveFire(at(unit({})), { d6: [6, 6], reroll: [] })).toMatchObject({ result: 'casualty', dp: 2, casualties: 2 });
        expect(resolveFire(at(unit({ type: 'officer' })), { d6: [6, 6], reroll: [] })).toMatchObject({ result: 'no-effect', dp: 0, casualties: 0 });
        expect(resolveFire(at(unit({ type: 'commander' })), { d6: [6, 6], reroll: [] })).toMatchObject({ result: 'no-effect', dp: 0, casualties: 0 });
        const odds = fireOdds(at(unit({ type: 'officer' })));
        expect(odds.probabilities['no-effect']).toBeCloseTo(1, 12);
        expect([odds.probabilities.disordered, odds.probabilities.casualty, odds.expectedDp]).toEqual([0, 0, 0]);
    });

    it('morale: an equal-grade friend routing within 6" costs 2 DPs and a stand; an officer takes neither', () => {
        // L7.4, hand-worked: class 3 sees a class 3 friend rout at 4": 2 DPs and one stand deserts.
        const sees = (observer: LfUnit) => resolveMorale({ observer, friend: unit({ id: 'A.f' }), event: 'routs', distance: 4, friendFled: false, options: NO_HOUSE_RULES });
        expect(sees(unit({}))).toMatchObject({ result: 'stand-deserts', dp: 2, deserted: 1 });
        expect(sees(unit({ type: 'officer' }))).toMatchObject({ result: 'unmoved', dp: 0, deserted: 0 });
    });
});

describe('a side\'s expected DPs are its total (docs/json.md, "Odds")', () => {
    it('an engagement side of two units expects twice the row\'s DPs; its casualties fall on the leading unit', async () => {
        const { model } = await load(`${FORCES}engagement Melee {\n  A.Line, A.Horse attacks B.Foot\n}\n`);
        const report = oddsForAction(model, model.actions[0]);
        if (isUnresolvable(report)) throw new Error(report.problem);
        const mean = (law: readonly number[]) => law.reduce((s, p, k) => s + p * k, 0);
        const attackers = report.units.filter(u => u.side === 'attacker');
        const side = report.sides.find(s => s.side === 'attacker')!;
        expect(attackers).toHaveLength(2);
        expect(side.expectedDp as number).toBeCloseTo(attackers.reduce((s, u) => s + mean(u.dp as number[]), 0), 12);
        expect(side.expectedDp as number).toBeCloseTo(2 * mean(attackers[0].dp as number[]), 12);
        expect(side.expectedCasualties as number).toBeCloseTo(mean(attackers[0].casualties as number[]), 12);
    });

    it('a fire\'s side totals its targets', async () => {
        const { model } = await load(`${FORCES}fire V {\n  B.Guns fires at A.Line: range 6\n  B.Foot fires at A.Horse: range 5\n}\n`);
        const report = oddsForAction(model, model.actions[0]);
        if (isUnresolvable(report)) throw new Error(report.problem);
        const side = report.sides.find(s => s.force === 'A')!;
        expect(side.expectedDp as number).toBeCloseTo(report.units.reduce((s, u) => s + (u.expectedDp as number), 0), 12);
    });
});
