/**
 * Every Ancients diagnostic fires on the exact range of the mistake (marked « »), with no other
 * problem beside it, and none fires on valid files (the examples and a file using every feature).
 */
import * as fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { Diagnostic } from 'vscode-languageserver';
import { Codes } from '../../../src/core/codes.js';
import { marked } from '../../support/marked.js';
import { AncientsCodes } from '../../../src/rulesets/ancients/ancients-codes.js';
import { parse } from '../../support/services.js';



async function diagnose(text: string): Promise<Diagnostic[]> {
    const doc = await parse(text, { validation: true });
    return doc.diagnostics ?? [];
}

const DECL = `rules ancients
grade Hoplite { size large, weight heavy, formation formed, skill 2, leadership 7, defensive }
force G {
  unit Hop infantry Hoplite
  unit Cav cavalry { size medium, weight medium, formation formed, skill 1, leadership 7, shock }
  unit Pelt infantry x2 { size small, weight light, formation skirmish, skill 1, leadership 6 }
}
force P {
  unit Imm infantry { size large, weight medium, formation formed, skill 2, leadership 7 }
  unit Arch infantry { size medium, weight light, formation skirmish, skill 1, leadership 6 }
}
`;
/** G.Hop (10 dice, hits on 3+) against P.Imm (10 dice, hits on 4+). */
const DUEL = `${DECL}engagement E {
  G.Hop attacks P.Imm
`;
const UNIT = 'skill 1, weight light, formation skirmish, leadership 5';
const ERROR = 1, WARNING = 2;

interface Case { name: string, code: string, severity?: number, text: string, also?: string[] }

const cases: Case[] = [
    // Stats, where they are written
    { name: 'stats missing', code: AncientsCodes.statMissing, text: `${DECL}force D { unit «U» infantry { size small } }\n` },
    { name: 'no type, and an arm that is not one', code: AncientsCodes.statMissing, text: `${DECL}force D { unit «U» foot { size small, ${UNIT} } }\n` },
    { name: 'a size that is not one of the four', code: AncientsCodes.statValue, text: `${DECL}force D { unit U infantry { size «tiny», ${UNIT} } }\n` },
    { name: 'an unknown weight in a grade', code: AncientsCodes.statValue, text: `${DECL}grade Bad { weight «iron» }\n` },
    { name: 'an unknown formation', code: AncientsCodes.statValue, text: `${DECL}force D { unit U infantry { size small, skill 1, weight light, formation «column», leadership 5 } }\n` },
    { name: 'an unknown type', code: AncientsCodes.statValue, text: `${DECL}force D { unit U infantry { type «chariot», size small, ${UNIT} } }\n` },
    { name: 'a skill that is not a number', code: AncientsCodes.statValue, text: `${DECL}force D { unit U infantry { size small, skill «high», weight light, formation skirmish, leadership 5 } }\n` },
    { name: 'a flag given a value', code: AncientsCodes.statValue, text: `${DECL}force D { unit U infantry { size small, ${UNIT}, shock «2» } }\n` },
    { name: 'both shock and defensive', code: AncientsCodes.statValue, text: `${DECL}force D { unit U infantry Hoplite { «shock» } }\n` },
    { name: 'a leadership below 2', code: AncientsCodes.leadershipRange, text: `${DECL}force D { unit U infantry { size small, skill 1, weight light, formation skirmish, leadership «1» } }\n` },
    { name: 'a leadership 2d6 cannot reach', code: AncientsCodes.leadershipRange, text: `${DECL}force D { unit U infantry { size small, skill 1, weight light, formation skirmish, leadership «15» } }\n` },
    { name: 'a leadership 1d6 cannot reach', code: AncientsCodes.leadershipRange, text: `rules ancients\noption break-die d6\nforce D { unit U infantry { size small, skill 1, weight light, formation skirmish, leadership «9» } }\n` },
    { name: 'a leadership below what a d6 rolls', code: AncientsCodes.leadershipRange, text: `rules ancients\noption break-die d6\nforce D { unit U infantry { size small, skill 1, weight light, formation skirmish, leadership «0» } }\n` },
    { name: 'negative tokens', code: AncientsCodes.tokensRange, text: `${DECL}force D { unit U infantry { size small, ${UNIT}, tokens «-1» } }\n` },
    { name: 'a misspelt stat', code: AncientsCodes.statUnknown, severity: WARNING, text: `${DECL}force D { unit U infantry { size small, ${UNIT}, «wieght» heavy } }\n` },
    { name: 'a break die that is not d6', code: AncientsCodes.breakDie, text: `rules ancients\noption break-die «d8»\n${DECL.slice('rules ancients\n'.length)}` },
    { name: 'an option Ancients does not have', code: Codes.unknownOption, text: `rules ancients\noption «pooled»\n${DECL.slice('rules ancients\n'.length)}` },
    // The melee
    { name: 'a Loose Files action', code: Codes.actionNotInRules, text: `${DECL}«fire» V { G.Hop attacks P.Imm }\n` },
    { name: 'no sides', code: Codes.missingSides, text: `${DECL}engagement «E» { G.Hop vs P.Imm }\n` },
    { name: 'a SCRUD factor', code: Codes.statementNotUsed, severity: WARNING, text: `${DECL}modifier Hill +1\n${DUEL.slice(DECL.length)}  «factor Hill on G.Hop»\n}\n` },
    { name: 'a fact the rules do not read', code: Codes.statementNotUsed, severity: WARNING, text: `${DUEL}  G.Hop: charged, «tired»\n}\n` },
    { name: 'a shock unit charging after the first turn', code: AncientsCodes.chargeNotFirstTurn, severity: WARNING, text: `${DECL}engagement E {\n  G.Cav attacks P.Imm\n  G.Cav: «charged»\n}\n` },
    { name: 'facts after a pairing', code: Codes.statementNotUsed, severity: WARNING, text: `${DUEL}  G.Hop vs P.Imm: «charged»\n}\n` },
    { name: 'a unit on both sides', code: Codes.unitOnBothSides, text: `${DECL}engagement E { G.Hop attacks P.Imm, «G.Hop» }\n`, also: [AncientsCodes.noOpponent] },
    { name: 'a pairing of several units', code: AncientsCodes.notOneUnit, text: `${DECL}engagement E { G attacks P\n  «G.Pelt» vs P.Imm }\n`, also: [AncientsCodes.noOpponent, AncientsCodes.noOpponent] },
    { name: 'a pairing with a unit on neither side', code: AncientsCodes.notInEngagement, text: `${DUEL}  G.Hop vs P.Imm\n  G.Hop vs «P.Arch»\n}\n` },
    { name: 'facts for a unit not in the engagement', code: AncientsCodes.notInEngagement, text: `${DUEL}  «P.Arch»: charged\n}\n` },
    { name: 'a unit fighting its own force', code: AncientsCodes.ownSide, text: `${DECL}engagement E { G.Hop, G.Cav attacks P.Imm\n  G.Hop vs P.Imm\n  G.Cav vs «G.Hop» }\n` },
    { name: 'a pair written twice', code: AncientsCodes.pairDuplicate, text: `${DUEL}  G.Hop vs P.Imm\n  «P.Imm front vs G.Hop flank»\n}\n` },
    { name: 'both in each other\'s rear', code: AncientsCodes.positionConflict, text: `${DUEL}  G.Hop rear vs P.Imm «rear»\n}\n` },
    { name: 'flank to flank', code: AncientsCodes.positionConflict, text: `${DUEL}  G.Hop flank vs P.Imm «flank»\n}\n` },
    { name: 'a unit with no opponent', code: AncientsCodes.noOpponent, severity: WARNING, text: `${DECL}engagement E { G.Hop, «G.Cav» attacks P.Imm\n  G.Hop vs P.Imm }\n` },
    { name: 'several units and no pairs', code: AncientsCodes.noOpponent, text: `${DECL}engagement «E» { G.Hop, G.Cav attacks P.Imm }\n` },
    {
        name: 'a split that does not add up', code: AncientsCodes.splitTotal,
        text: `${DECL}engagement E { G.Hop, G.Cav attacks P.Imm\n  G.Hop vs P.Imm\n  G.Cav flank vs P.Imm\n  split «P.Imm» 6 on G.Hop, 3 on G.Cav }\n`
    },
    {
        name: 'a split on a unit that is not an opponent', code: AncientsCodes.splitTarget,
        text: `${DECL}engagement E { G.Hop, G.Cav attacks P.Imm\n  G.Hop vs P.Imm\n  G.Cav flank vs P.Imm\n  split P.Imm 6 on G.Hop, 4 on «G.Pelt#1» }\n`
    },
    {
        name: 'several opponents and no split', code: AncientsCodes.splitMissing,
        text: `${DECL}engagement E { G.Hop, G.Cav attacks P.Imm\n  G.Hop vs P.Imm\n  G.Cav flank vs «P.Imm» }\n`
    },
    {
        name: 'two splits for one unit', code: AncientsCodes.splitDuplicate,
        text: `${DECL}engagement E { G.Hop, G.Cav attacks P.Imm\n  G.Hop vs P.Imm\n  G.Cav flank vs P.Imm\n  split P.Imm 6 on G.Hop, 4 on G.Cav\n  split «P.Imm» 5 on G.Hop, 5 on G.Cav }\n`
    },
    // Entered dice
    { name: 'a throw that is not hit, save or test', code: Codes.diceLabel, text: `${DUEL}  dice G.Hop «volley» 1 2\n}\n` },
    { name: 'too few hit dice', code: Codes.diceCount, text: `${DUEL}  dice G.Hop hit 1 1 «1»\n  dice P.Imm hit 1 1 1 1 1 1 1 1 1 1\n}\n` },
    { name: 'too many hit dice', code: Codes.diceCount, text: `${DUEL}  dice G.Hop hit 1 1 1 1 1 1 1 1 1 1 «1»\n  dice P.Imm hit 1 1 1 1 1 1 1 1 1 1\n}\n` },
    { name: 'a unit with no hit dice', code: Codes.diceCount, text: `${DECL}engagement «E» {\n  G.Hop attacks P.Imm\n  dice G.Hop hit 1 1 1 1 1 1 1 1 1 1\n}\n` },
    { name: 'a 7 on a d6', code: Codes.dieFace, text: `${DUEL}  dice G.Hop hit 1 1 1 1 1 1 1 1 1 «7»\n  dice P.Imm hit 1 1 1 1 1 1 1 1 1 1\n}\n` },
    {
        name: 'a save for each hit received: one too many', code: Codes.diceCount,
        text: `${DUEL}  dice G.Hop hit 6 6 1 1 1 1 1 1 1 1\n  dice P.Imm hit 1 1 1 1 1 1 1 1 1 1\n  dice P.Imm save 5 5 «5»\n}\n`
    },
    {
        name: 'a break test for a unit that took too few hits', code: Codes.diceCount,
        text: `${DUEL}  dice G.Hop hit 6 6 1 1 1 1 1 1 1 1\n  dice P.Imm hit 1 1 1 1 1 1 1 1 1 1\n  dice P.Imm save 1 1\n  dice P.Imm test «3» 4\n}\n`
    },
    {
        name: 'a break test of one die where 2d6 are thrown', code: Codes.diceCount,
        text: `${DUEL}  dice G.Hop hit 6 6 6 6 1 1 1 1 1 1\n  dice P.Imm hit 1 1 1 1 1 1 1 1 1 1\n  dice P.Imm save 1 1 1 1\n  dice P.Imm test «4»\n}\n`
    },
    { name: 'a second line for one throw', code: Codes.diceCount, text: `${DUEL}  dice G.Hop hit 1 1 1 1 1 1 1 1 1 1\n  dice G.Hop «hit» 1 1 1 1 1 1 1 1 1 1\n  dice P.Imm hit 1 1 1 1 1 1 1 1 1 1\n}\n` },
    { name: 'dice for a unit not in the melee', code: Codes.diceNotInEngagement, text: `${DUEL}  dice G.Hop hit 1 1 1 1 1 1 1 1 1 1\n  dice P.Imm hit 1 1 1 1 1 1 1 1 1 1\n  dice «P.Arch» hit 1\n}\n` },
    { name: 'dice for several units on one line', code: AncientsCodes.notOneUnit, text: `${DUEL}  dice G.Hop hit 1 1 1 1 1 1 1 1 1 1\n  dice P.Imm hit 1 1 1 1 1 1 1 1 1 1\n  dice «G.Pelt» hit 1\n}\n` },
    { name: 'a seed beside entered dice', code: Codes.seedWithDice, severity: WARNING, text: `${DUEL}  dice G.Hop hit 1 1 1 1 1 1 1 1 1 1\n  dice P.Imm hit 1 1 1 1 1 1 1 1 1 1\n  «seed 3»\n}\n` }
];

describe('every Ancients code fires on its exact range', () => {
    for (const c of cases) {
        it(`${c.code}: ${c.name}`, async () => {
            const { text, range } = marked(c.text);
            const diagnostics = await diagnose(text);
            const mine = diagnostics.filter(d => d.code === c.code && !(c.also ?? []).includes(d.code as string));
            const others = diagnostics.filter(d => !mine.includes(d)).map(d => d.code).sort();
            expect(mine.map(d => ({ code: d.code, severity: d.severity, range: d.range }))).toEqual([{ code: c.code, severity: c.severity ?? ERROR, range }]);
            expect(others).toEqual([...(c.also ?? [])].filter(x => x !== c.code).sort());
        });
    }
});

const VALID = `scenario "Every Ancients feature, correctly"
rules ancients
option break-die d6
grade Hoplite { size large, weight heavy, formation formed, skill 2, leadership 5, defensive, move 4 }
force G {
  unit Hop infantry Hoplite x2 { tokens 1 }
  unit Cav cavalry { size medium, weight medium, formation formed, skill 1, leadership 5, shock, move 8, tested }
}
force P {
  unit Imm infantry { size huge, weight medium, formation warband, skill 2, leadership 6, type infantry }
  unit Arch foot { type infantry, size small, weight light, formation skirmish, skill 0, leadership 3 }
}
engagement Seeded {
  G attacks P
  first turn
  G.Cav: charged
  G.Hop: follow-up
  G.Hop#1 vs P.Imm
  G.Cav flank vs P.Imm
  G.Hop#2 front vs P.Arch rear
  split P.Imm 7 on G.Cav, 5 on G.Hop#1
  seed 9
}
engagement Entered {
  G.Hop#1 attacks P.Arch
  dice G.Hop#1 hit 6 6 6 6 1 1 1 1 1 1
  dice P.Arch hit 1 1 1 1 1 1
  dice P.Arch save 1 1 1 1
  dice P.Arch test 6
}
`;

describe('the leadership a break test can meet (A7.1) counts the test\'s own +1s', () => {
    const unitWith = (leadership: number, oneDie: boolean) =>
        `rules ancients\n${oneDie ? 'option break-die d6\n' : ''}force D { unit U infantry { size small, skill 1, weight light, formation skirmish, leadership ${leadership} } }\n`;
    it('1d6 reaches 8 (6 +1 first test +1 winning side), 2d6 reaches 14; one more is refused, saying what the dice roll', async () => {
        // By hand: 1d6 rolls 1–6, +1 first test (A7.2), +1 winning side (A7.3): 1 to 8. 2d6: 2 to 14.
        for (const ok of [[1, true], [7, true], [8, true], [2, false], [13, false], [14, false]] as const) {
            expect((await diagnose(unitWith(ok[0], ok[1]))).map(d => d.message), `leadership ${ok[0]}`).toEqual([]);
        }
        expect((await diagnose(unitWith(9, true))).map(d => d.message)).toEqual([
            'A leadership of 9 cannot be tested: a d6 rolls 1–6, and with +1 for a first test and +1 for the winning side the test scores at most 8 (A7); write 1 to 8.'
        ]);
        expect((await diagnose(unitWith(15, false))).map(d => d.message)).toEqual([
            'A leadership of 15 cannot be tested: 2d6 roll 2–12, and with +1 for a first test and +1 for the winning side the test scores at most 14 (A7); write 2 to 14.'
        ]);
        expect((await diagnose(unitWith(1, false))).map(d => d.message)).toEqual([
            'A leadership of 1 cannot be tested: 2d6 roll 2–12, so no test can score below 2 before its modifiers (A7); write 2 to 14.'
        ]);
    });

    it('a charge on a shock unit with first turn, or on a unit that is not shock, is not flagged', async () => {
        const codes = async (body: string) => (await diagnose(`${DECL}engagement E {\n  G.Cav attacks P.Imm\n${body}}\n`)).map(d => d.code);
        expect(await codes('  first turn\n  G.Cav: charged\n')).toEqual([]);
        expect(await codes('  G.Cav: countercharged\n')).toEqual([AncientsCodes.chargeNotFirstTurn]);
        expect((await diagnose(`${DECL}engagement E {\n  G.Hop attacks P.Imm\n  G.Hop: charged\n}\n`)).map(d => d.code)).toEqual([]);
    });
});

describe('no Ancients code fires on valid files', () => {
    it('a file using every feature', async () => {
        expect((await diagnose(VALID)).map(d => `${d.code} ${d.message}`)).toEqual([]);
    });
    for (const file of ['examples/ancients-flank.battle', 'examples/ancients-tokens.battle']) {
        it(file, async () => {
            expect((await diagnose(fs.readFileSync(file, 'utf8'))).map(d => `${d.code} ${d.message}`)).toEqual([]);
        });
    }
});
