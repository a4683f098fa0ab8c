/**
 * Every Loose Files diagnostic fires on the exact range of the mistake (marked « »), and does not fire
 * on the lawful neighbour of each mistake.
 */
import { describe, expect, it } from 'vitest';
import type { Diagnostic } from 'vscode-languageserver';
import { Codes } from '../../../src/core/codes.js';
import { marked } from '../../support/marked.js';
import { LooseFilesCodes } from '../../../src/rulesets/loose-files/loose-files-codes.js';
import { parse } from '../../support/services.js';


const BASE = `scenario "t"
rules loose-files
grade Line { class 2 }
force British {
  unit Tarleton commander { cp 6 }
  unit Ferguson officer { cp 2, attached Foot }
  unit Foot infantry Line { stands 5 }
  unit Skirm infantry Line { stands 3, formation skirmish }
  unit Horse cavalry Line { stands 2 }
  unit Guns artillery Line { stands 2, guns light }
}
force American {
  unit Morgan commander { cp 6 }
  unit Pickens officer { cp 4, attached Indians }
  unit Militia infantry { class 4, militia, stands 6, dp 2 }
  unit Rifles infantry { class 3, weapon rifle, stands 3, formation skirmish }
  unit Indians infantry { class 5, stands 2, dp 1 }
}
`;


async function diagnose(text: string): Promise<Diagnostic[]> {
    const doc = await parse(text, { validation: true });
    expect(doc.parseResult.parserErrors.map(e => e.message)).toEqual([]);
    return doc.diagnostics ?? [];
}

/** The snippet, appended to BASE, gives `code` exactly on the marked range. */
async function firesAt(snippet: string, code: string): Promise<void> {
    const { text, range } = marked(BASE + snippet);
    const diags = await diagnose(text);
    const hits = diags.filter(d => d.code === code);
    expect(hits.map(d => d.range), `${code} in ${JSON.stringify(diags.map(d => [d.code, d.message]))}`).toContainEqual(range);
}

/** The snippet, appended to BASE, gives no `code` at all. */
async function silent(snippet: string, code: string): Promise<void> {
    const diags = await diagnose(BASE + snippet);
    expect(diags.filter(d => d.code === code).map(d => d.message)).toEqual([]);
}

describe('Loose Files unit stats', () => {
    it('lf-class-range: a class outside 1–5, on the value', async () => {
        await firesAt('grade Bad { class «6» }\n', LooseFilesCodes.classRange);
        await firesAt('force X { unit Y infantry { class «0» } }\n', LooseFilesCodes.classRange);
        await firesAt('grade Bad { class «elite» }\n', LooseFilesCodes.classRange);
        await silent('grade Best { class 1 }\ngrade Worst { class 5 }\n', LooseFilesCodes.classRange);
    });
    it('lf-class-missing: a fighting unit without a class; officers need none', async () => {
        await firesAt('force X { unit «Y» infantry { stands 2 } }\n', LooseFilesCodes.classMissing);
        await silent('force X { unit O officer { cp 2 } unit Y infantry Line }\n', LooseFilesCodes.classMissing);
    });
    it('lf-stat-value: guns, formation, weapon words and counts', async () => {
        await firesAt('force X { unit Y infantry Line { formation «wedge» } }\n', LooseFilesCodes.statValue);
        await firesAt('force X { unit Y artillery Line { guns «huge» } }\n', LooseFilesCodes.statValue);
        await firesAt('force X { unit Y infantry Line { weapon «pike» } }\n', LooseFilesCodes.statValue);
        await firesAt('force X { unit Y infantry Line { stands «0» } }\n', LooseFilesCodes.statValue);
        await firesAt('force X { unit Y infantry Line { dp «-1» } }\n', LooseFilesCodes.statValue);
        await firesAt('force X { unit Y infantry Line { stands «1000» } }\n', LooseFilesCodes.statValue);
        await silent('force X { unit Y infantry Line { formation column, weapon rifle, stands 100, dp 0 } unit Z artillery Line { guns heavy } }\n', LooseFilesCodes.statValue);
    });
    it('lf-unknown-stat and lf-unit-type', async () => {
        await firesAt('force X { unit Y infantry Line { «colour» blue } }\n', LooseFilesCodes.unknownStat);
        await firesAt('force X { unit Y «dragoons» Line }\n', LooseFilesCodes.unitType);
        await silent('force X { unit Y horse Line unit Z foot Line unit G guns Line { guns light } }\n', LooseFilesCodes.unitType);
    });
    it('unknown-option: the house rules are the options', async () => {
        const { text, range } = marked(BASE.replace('rules loose-files\n', 'rules loose-files\noption «fast-march»\n'));
        expect((await diagnose(text)).filter(d => d.code === Codes.unknownOption).map(d => d.range)).toEqual([range]);
        const ok = BASE.replace('rules loose-files\n', 'rules loose-files\noption full-move\noption brigade-move\noption corlears-hook\noption flee-losses\n');
        expect((await diagnose(ok)).filter(d => d.code === Codes.unknownOption)).toEqual([]);
    });
});

describe('Loose Files fire', () => {
    it('lf-range: beyond the weapon\'s reach, on the number', async () => {
        await firesAt('fire F { British.Foot fires at American.Militia: range «9» }\n', LooseFilesCodes.range);
        await firesAt('fire F { American.Rifles fires at British.Foot: range «11» }\n', LooseFilesCodes.range);
        await firesAt('fire F { British.Guns fires at American.Militia: range «31» }\n', LooseFilesCodes.range);
        await silent('fire F { British.Foot fires at American.Militia: range 8 }\nfire G { American.Rifles fires at British.Foot: range 10 }\nfire H { British.Guns fires at American.Militia: range 30 }\n', LooseFilesCodes.range);
    });
    it('lf-missing-fact: fire without a range', async () => {
        await firesAt('fire F { British.Foot «fires» at American.Militia }\n', LooseFilesCodes.missingFact);
    });
    it('lf-moved-fire: formed infantry that moved; skirmishers may', async () => {
        await firesAt('fire F { British.Foot fires at American.Militia: range 5, «moved» }\n', LooseFilesCodes.movedFire);
        await firesAt('fire F {\n  British.Foot fires at American.Militia: range 5\n  British.Foot: «moved»\n}\n', LooseFilesCodes.movedFire);
        await silent('fire F { British.Skirm fires at American.Militia: range 5, moved }\n', LooseFilesCodes.movedFire);
    });
    it('lf-cannot-fire and lf-fire-own-side', async () => {
        await firesAt('fire F { «British.Horse» fires at American.Militia: range 3 }\n', LooseFilesCodes.cannotFire);
        await firesAt('fire F { British.Foot fires at «British.Horse»: range 3 }\n', LooseFilesCodes.fireOwnSide);
        await silent('fire F { British.Foot fires at American.Militia: range 3 }\n', LooseFilesCodes.fireOwnSide);
    });
    it('entered d6: one per die the rules throw, faces 1–6, re-rolls for skirmishers\' fives', async () => {
        await firesAt('fire F {\n  British.Foot fires at American.Militia: range 3\n  dice British.Foot d6 6 5 3 2 1 «4»\n}\n', Codes.diceCount);
        await firesAt('fire F {\n  British.Foot fires at American.Militia: range 3\n  dice British.Foot d6 6 5 3 «2»\n}\n', Codes.diceCount);
        await firesAt('fire F {\n  British.Foot fires at American.Militia: range 3\n  dice British.Foot d6 6 «7» 3 2 1\n}\n', Codes.dieFace);
        await firesAt('fire F {\n  British.Skirm fires at American.Militia: range 3\n  dice British.Skirm d6 5 5 «1»\n}\n', Codes.diceCount);
        await silent('fire F {\n  British.Skirm fires at American.Militia: range 3\n  dice British.Skirm d6 5 5 1\n  dice British.Skirm reroll 4 2\n}\n', Codes.diceCount);
        await firesAt('fire F {\n  British.Foot fires at American.Militia: range 3\n  dice British.Foot «hit» 6 5 3 2 1\n}\n', Codes.diceLabel);
    });
});

describe('Loose Files movement', () => {
    it('lf-charge-dice: charging cavalry with fewer than 3 dice, on `charging`', async () => {
        await firesAt('move M { British.Horse: average 2, «charging» }\n', LooseFilesCodes.chargeDice);
        await silent('move M { British.Horse: average 2, d6 1, charging }\n', LooseFilesCodes.chargeDice);
    });
    it('lf-move-dice: dice the class does not allow, on the dice fact', async () => {
        await firesAt('move M { British.Foot: «average 3» }\n', LooseFilesCodes.moveDice);
        await firesAt('move M { American.Militia: «average 2» }\n', LooseFilesCodes.moveDice);
        await firesAt('move M { «British.Foot»: woods }\n', LooseFilesCodes.moveDice);
        await silent('move M {\n  British.Foot: average 2\n  American.Militia: average 1, d6 1\n  American.Rifles: average 2, d6 1\n  British.Foot: formation-change\n}\n', LooseFilesCodes.moveDice);
    });
    it('entered movement dice: average faces 2–5, counts as chosen', async () => {
        await firesAt('move M {\n  British.Foot: average 2\n  dice British.Foot average 3 «1»\n}\n', Codes.dieFace);
        await firesAt('move M {\n  British.Foot: average 2\n  dice British.Foot average 3 «6»\n}\n', Codes.dieFace);
        await firesAt('move M {\n  British.Foot: average 2\n  dice British.Foot average «3»\n}\n', Codes.diceCount);
        await silent('move M {\n  British.Foot: average 2\n  dice British.Foot average 2 5\n}\n', Codes.dieFace);
    });
    it('lf-unknown-fact: a word the action does not read', async () => {
        await firesAt('move M { British.Foot: average 1, «uphil» }\n', LooseFilesCodes.unknownFact);
    });
});

describe('Loose Files officers and command points', () => {
    it('lf-officer-not-with: inspiring or rallying a unit the officer is not with', async () => {
        await firesAt('engagement E {\n  British.Foot attacks American.Militia\n  British.Tarleton inspires «British.Foot»\n}\n', LooseFilesCodes.officerNotWith);
        await firesAt('command C { American.Morgan rallies «American.Militia»: dp 1 }\n', LooseFilesCodes.officerNotWith);
        await silent('engagement E {\n  British.Foot attacks American.Militia\n  British.Tarleton inspires British.Foot: contact\n}\n', LooseFilesCodes.officerNotWith);
        await silent('command C { American.Pickens rallies American.Indians: dp 1 }\n', LooseFilesCodes.officerNotWith);
    });
    it('lf-not-officer: only officers and commanders inspire, rally and move for CP', async () => {
        await firesAt('engagement E {\n  British.Foot attacks American.Militia\n  «British.Horse» inspires British.Foot: contact\n}\n', LooseFilesCodes.notOfficer);
        await firesAt('command C { «British.Foot»: move }\n', LooseFilesCodes.notOfficer);
    });
    it('lf-needs-commander: a class 5 unit is rallied only by the army commander', async () => {
        await firesAt('command C { «American.Pickens» rallies American.Indians: dp 1 }\n', LooseFilesCodes.needsCommander);
        await silent('command C { American.Morgan rallies American.Indians: dp 1, contact }\n', LooseFilesCodes.needsCommander);
    });
    it('lf-cp-overspent: on the use that passes the officer\'s CP for the turn', async () => {
        await firesAt('engagement E {\n  British.Foot attacks American.Militia\n  «British.Ferguson» inspires British.Foot\n}\n', LooseFilesCodes.cpOverspent);
        // Tarleton: 6 CP; move 1 + inspire 3 + inspire 3 = 7 in one turn.
        const turn = 'turn 1 {\n  command C { British.Tarleton: move }\n  engagement E {\n    British.Foot attacks American.Militia\n    British.Tarleton inspires British.Foot: contact\n  }\n  engagement F {\n    British.Skirm attacks American.Rifles\n    «British.Tarleton» inspires British.Skirm: contact\n  }\n}\n';
        await firesAt(turn, LooseFilesCodes.cpOverspent);
        // The same spending over two turns is within 6 CP a turn.
        await silent('turn 1 {\n  command C { British.Tarleton: move }\n  engagement E {\n    British.Foot attacks American.Militia\n    British.Tarleton inspires British.Foot: contact\n  }\n}\nturn 2 {\n  engagement F {\n    British.Skirm attacks American.Rifles\n    British.Tarleton inspires British.Skirm: contact\n  }\n}\n', LooseFilesCodes.cpOverspent);
        // Rallies cost 2 CP a DP removed: Pickens (4 CP) rallying 2 of the Militia's 2 DPs is 4.
        await silent('command C { American.Pickens rallies American.Militia: dp 2, contact }\n', LooseFilesCodes.cpOverspent);
    });
});

describe('Loose Files engagements, morale, order of play', () => {
    it('engagement dice: one average die a side, faces 2–5', async () => {
        await firesAt('engagement E {\n  British.Foot attacks American.Militia\n  dice British «6»\n  dice American 3\n}\n', Codes.dieFace);
        await firesAt('engagement E {\n  British.Foot attacks American.Militia\n  dice British 4 «3»\n  dice American 3\n}\n', Codes.diceCount);
        await firesAt('engagement «E» {\n  British.Foot attacks American.Militia\n  dice British 4\n}\n', Codes.diceCount);
        await silent('engagement E {\n  British.Foot attacks American.Militia\n  dice British 2\n  dice American 5\n}\n', Codes.diceCount);
    });
    it('missing-sides, same-force-both-sides and lf-not-in-action', async () => {
        await firesAt('engagement «E» { British.Foot: bayonet }\n', Codes.missingSides);
        await firesAt('engagement E { British.Foot attacks «British.Horse» }\n', Codes.sameForceBothSides);
        await firesAt('engagement E {\n  British.Foot attacks American.Militia\n  «British.Guns»: terrain\n}\n', LooseFilesCodes.notInAction);
    });
    it('lf-morale-not-friend and lf-missing-fact in morale', async () => {
        await firesAt('morale M { American.Militia sees «British.Foot»: routs }\n', LooseFilesCodes.moraleNotFriend);
        await firesAt('morale M { American.Militia sees «American.Militia»: routs }\n', LooseFilesCodes.moraleNotFriend);
        await firesAt('morale M { American.Militia «sees» American.Rifles: distance 3 }\n', LooseFilesCodes.missingFact);
        await silent('morale M { American.Militia sees American.Rifles: routs }\n', LooseFilesCodes.moraleNotFriend);
    });
    it('lf-action-empty: an action without its line', async () => {
        await firesAt('redress «R» { }\n', LooseFilesCodes.actionEmpty);
        await firesAt('command «C» { }\n', LooseFilesCodes.actionEmpty);
    });
    it('lf-order-of-play: an action after a later phase of the same turn, on its kind', async () => {
        await firesAt('turn 1 {\n  move M { British.Foot: average 1 }\n  «fire» F { British.Foot fires at American.Militia: range 3 }\n}\n', LooseFilesCodes.orderOfPlay);
        await silent('turn 1 {\n  fire F { British.Foot fires at American.Militia: range 3 }\n  move M { British.Foot: average 1 }\n}\n', LooseFilesCodes.orderOfPlay);
    });
    it('statement-not-used: SCRUD factors and Ancients splits', async () => {
        await firesAt('modifier Tired -1\nengagement E {\n  British.Foot attacks American.Militia\n  «factor Tired on British.Foot»\n}\n', Codes.statementNotUsed);
    });
});

describe('Loose Files on hostile input', () => {
    it('answers huge numbers and stray dice with diagnostics, promptly and without throwing', async () => {
        const diags = await diagnose(BASE + `force X { unit Big infantry Line { stands 999999999 } }
move M {
  British.Foot: average 999999999, d6 999999999
  dice British.Foot average 9 9 9
}
fire F {
  X.Big fires at American.Militia: range 3
  dice X.Big d6 7 7 7
}
engagement E {
  British.Foot attacks American.Militia
  dice British 1 1 1 1
}
morale Mo { American.Militia sees American.Militia: routs }
`);
        const codes = new Set(diags.map(d => d.code));
        for (const c of [LooseFilesCodes.statValue, LooseFilesCodes.moveDice, Codes.dieFace, Codes.diceCount]) expect(codes).toContain(c);
    });
});
