/**
 * What a Loose Files unit may do in a turn, held to the sheet and to what the file records before each
 * action: compulsory retreats at maximum speed and only after a combat lost, one move a turn and a
 * formation change that takes it, an officer's move paid for, re-dressing within the class's allowance
 * a turn, morale lines that agree with the record, the orders after a Corlears Hook retreat or a flight,
 * and "under fire" read from the turn's own fire. Each case is a file; each diagnostic sits on its line.
 */
import { describe, expect, it } from 'vitest';
import type { Diagnostic } from 'vscode-languageserver';
import { modelOf } from '../../../src/core/model-cache.js';
import { isUnresolvable, resolveAction } from '../../../src/core/resolve.js';
import type { ScenarioModel } from '../../../src/core/scenario.js';
import { LooseFilesCodes } from '../../../src/rulesets/loose-files/loose-files-codes.js';
import { parse } from '../../support/services.js';

const FORCES = `rules loose-files
force A {
  unit Line infantry { class 2, stands 4 }
  unit Horse cavalry { class 2, stands 2 }
  unit Obs infantry { class 2, stands 4 }
  unit Win infantry { class 2, stands 4 }
  unit Maj officer { cp 1 }
}
force B {
  unit Foot infantry { class 1, stands 4 }
  unit Guns artillery { class 2, stands 2, guns medium }
  unit Raw infantry { class 4, stands 2 }
}
`;

/** Turn 1: A.Line (class 2) on a 2 against B.Foot (class 1) on a 5: 2 − 3 v 5 … A.Line is defeated (−6). */
const LOST = `turn 1 {
  engagement Melee {
    A.Line attacks B.Foot
    dice A 2
    dice B 5
  }
}
`;

async function load(text: string): Promise<{ model: ScenarioModel, diagnostics: Diagnostic[], lines: string[] }> {
    const doc = await parse(text, { validation: true });
    expect(doc.parseResult.parserErrors.map(e => e.message)).toEqual([]);
    return { model: modelOf(doc.parseResult.value), diagnostics: doc.diagnostics ?? [], lines: text.split('\n') };
}

/** The diagnostics of a code, each with the text of the line it sits on. */
function found(file: { diagnostics: Diagnostic[], lines: string[] }, code: string): Array<{ message: string, line: string, severity: number | undefined }> {
    return file.diagnostics.filter(d => d.code === code).map(d => ({ message: String(d.message), line: file.lines[d.range.start.line].trim(), severity: d.severity }));
}

describe('compulsory retreats (L0.1, L3.5–L3.7)', () => {
    it('a compulsory retreat throws the most its class allows: a driven-back unit on one average die is lf-retreat-speed', async () => {
        const f = await load(`${FORCES}${LOST}turn 2 {
  move Back {
    A.Line: average 1, retreat
    dice A.Line average 3
  }
}
`);
        expect(found(f, LooseFilesCodes.retreatSpeed)).toEqual([{
            line: 'A.Line: average 1, retreat', severity: 1,
            message: expect.stringContaining(`A.Line was defeated in 'Melee' (turn 1): "Retreat at maximum speed behind next line of friendly troops" (L3.6) — its maximum is 2 average dice`)
        }]);
        expect(found(f, LooseFilesCodes.retreatSpeed)[0].message).toContain('this retreat throws 1 average die');
        // Two average dice, the most a class 2 unit throws: clean, and the order after the combat is kept.
        const full = await load(`${FORCES}${LOST}turn 2 {\n  move Back {\n    A.Line: average 2, retreat\n    dice A.Line average 3 4\n  }\n}\n`);
        expect(full.diagnostics.filter(d => d.severity === 1 || d.severity === 2)).toEqual([]);
    });

    it('cavalry routed runs away on every die it may throw; a rout on fewer is flagged with the sheet\'s words', async () => {
        // A.Horse (class 2, strength 6) on a 2, attacked in flank with a DP: 2 − 3 − 2 = −3; B.Foot (class 1,
        // strength 4, outnumbered) on a 5: 5 + 3 − 1 = 7. −10: routed.
        const f = await load(`${FORCES}turn 1 {
  engagement Charge {
    A.Horse attacks B.Foot
    A.Horse: flank, dp 1
    dice A 2
    dice B 5
  }
}
turn 2 {
  move Away {
    A.Horse: average 2, d6 1, rout
    dice A.Horse average 3 3
    dice A.Horse d6 4
  }
}
`);
        const [problem] = found(f, LooseFilesCodes.retreatSpeed);
        expect(problem.line).toBe('A.Horse: average 2, d6 1, rout');
        expect(problem.message).toMatch(/^A\.Horse was routed in 'Charge' \(turn 1\): "run away at maximum speed" \(L3\.7\) — its maximum is 2 average dice and 2 d6/);
        expect(problem.message).toContain('this rout throws 2 average dice and 1 d6');
    });

    it('a ruling in the turn records the umpire\'s word on a shorter retreat', async () => {
        const f = await load(`${FORCES}${LOST}turn 2 {
  ruling A.Line: reason "stopped at the fence line"
  move Back {
    A.Line: average 1, retreat
    dice A.Line average 3
  }
}
`);
        expect(found(f, LooseFilesCodes.retreatSpeed)).toEqual([]);
    });

    it('a unit that did not fight making a compulsory retreat is lf-retreat-not-compulsory', async () => {
        const f = await load(`${FORCES}${LOST}turn 2 {
  move Back {
    A.Line: average 2, retreat
    A.Obs: average 2, retreat
    B.Foot: average 2, rout
    dice A.Line average 3 3
    dice A.Obs average 3 3
    dice B.Foot average 3 3
  }
}
`);
        expect(found(f, LooseFilesCodes.retreatNotCompulsory).map(p => [p.line, p.severity])).toEqual([
            ['A.Obs: average 2, retreat', 2], ['B.Foot: average 2, rout', 2]
        ]);
        const [never, winner] = found(f, LooseFilesCodes.retreatNotCompulsory);
        expect(never.message).toContain('A.Obs makes a compulsory retreat, but the file records no combat of it before this move');
        expect(winner.message).toContain("B.Foot makes a compulsory rout, but its last combat, 'Melee' (turn 1), won an easy victory");
    });
});

describe('one move a turn (L6.11, L6.14)', () => {
    it('a formation change takes the turn: a move after it is lf-moves-twice, naming the change', async () => {
        const f = await load(`${FORCES}turn 1 {
  move Form {
    A.Win: formation-change, column
  }
  move After {
    A.Win: average 2
    dice A.Win average 3 4
  }
}
`);
        expect(found(f, LooseFilesCodes.movesTwice)).toEqual([{
            line: 'A.Win: average 2', severity: 1,
            message: `A.Win changed formation or facing in move 'Form' this turn: "Change formation or facing takes 1 turn" (L6.11), so it does not move again until turn 1 is over.`
        }]);
        // The same move in the next turn is its own.
        const next = await load(`${FORCES}turn 1 {\n  move Form {\n    A.Win: formation-change, column\n  }\n}\nturn 2 {\n  move After {\n    A.Win: average 2\n    dice A.Win average 3 4\n  }\n}\n`);
        expect(found(next, LooseFilesCodes.movesTwice)).toEqual([]);
    });

    it('one move a turn: a class 2 unit\'s second move is lf-moves-twice, naming the first', async () => {
        const f = await load(`${FORCES}turn 1 {
  move Twice {
    A.Horse: average 2
    dice A.Horse average 5 5
  }
  move Again {
    A.Horse: average 2
    dice A.Horse average 5 5
  }
}
`);
        const problems = found(f, LooseFilesCodes.movesTwice);
        expect(problems).toHaveLength(1);
        expect(problems[0].message).toMatch(/^A\.Horse moved in move 'Twice' this turn: a unit moves once a turn/);
        // The second is the one flagged: the line after 'move Again'.
        const again = f.lines.indexOf('  move Again {');
        expect(f.diagnostics.find(d => d.code === LooseFilesCodes.movesTwice)!.range.start.line).toBe(again + 1);
    });
});

describe('command points for an officer\'s move (L8.1)', () => {
    it('an officer\'s move costs 1 CP: an officer with no CP left cannot move', async () => {
        const f = await load(`${FORCES}turn 1 {
  command Orders {
    A.Maj: move
    dice A.Maj average 3
  }
  move March {
    A.Maj: average 1
    dice A.Maj average 4
  }
}
`);
        expect(found(f, LooseFilesCodes.cpOverspent)).toEqual([{
            line: 'A.Maj: average 1', severity: 1,
            message: 'A.Maj has 0 of its 1 CP left this turn: "Move own commander up to 1 die … = 1CP" costs 1 (L8.1), so it cannot move.'
        }]);
        // One move, paid for: clean.
        const once = await load(`${FORCES}turn 1 {\n  move March {\n    A.Maj: average 1\n    dice A.Maj average 4\n  }\n}\n`);
        expect(found(once, LooseFilesCodes.cpOverspent)).toEqual([]);
    });
});

describe('re-dressing per turn (L8.4–L8.8)', () => {
    it('a second redress in the turn removes no DP past the class\'s allowance', async () => {
        const f = await load(`${FORCES}state A.Obs: dp 3
turn 1 {
  redress R1 {
    A.Obs: stationary
  }
  redress R2 {
    A.Obs: stationary
  }
}
`);
        expect(found(f, LooseFilesCodes.redressTwice)).toEqual([{
            line: 'A.Obs: stationary', severity: 1,
            message: "A.Obs re-dressed 1 DP in redress 'R1' this turn: class 2 removes 1 DP a turn (L8), so this one removes 1 more than it may."
        }]);
        expect(f.diagnostics.find(d => d.code === LooseFilesCodes.redressTwice)!.range.start.line).toBe(f.lines.indexOf('  redress R2 {') + 1);
        // A class 1 unit with 3 DPs may shed 2 in a turn: one and one is within it.
        const elite = await load(`${FORCES.replace('unit Obs infantry { class 2', 'unit Obs infantry { class 1')}state A.Obs: dp 3\nturn 1 {\n  redress R1 {\n    A.Obs: stationary\n  }\n}\n`);
        expect(found(elite, LooseFilesCodes.redressTwice)).toEqual([]);
    });
});

describe('morale against the record (L7.1)', () => {
    it('a morale line that the record contradicts says what the record shows', async () => {
        const f = await load(`${FORCES}turn 1 {
  engagement Melee {
    A.Win attacks B.Raw
    dice A 5
    dice B 2
  }
}
turn 2 {
  morale Seen {
    A.Obs sees A.Win: routs, distance 3
  }
}
`);
        expect(found(f, LooseFilesCodes.moraleNotRecorded)).toEqual([{
            line: 'A.Obs sees A.Win: routs, distance 3', severity: 1,
            message: "'A.Obs sees A.Win: routs', but the file records that A.Win won an easy victory in 'Melee' (turn 1), so it neither retreats nor routs, and there is nothing to see (\"seeing friends retreat/rout within 6 inches\", L7.1)."
        }]);
        // A friend defeated retreats: 'routs' is corrected to what it did, 'retreats' is clean.
        const lost = await load(`${FORCES}${LOST}turn 2 {\n  morale Seen {\n    A.Obs sees A.Line: routs, distance 3\n  }\n}\n`);
        expect(found(lost, LooseFilesCodes.moraleNotRecorded)[0].message).toContain("A.Line was defeated in 'Melee' (turn 1), so it retreats: write 'retreats'");
        const right = await load(`${FORCES}${LOST}turn 2 {\n  morale Seen {\n    A.Obs sees A.Line: retreats, distance 3\n  }\n}\n`);
        expect(found(right, LooseFilesCodes.moraleNotRecorded)).toEqual([]);
    });
});

describe('orders after a house-rule retreat and a flight (L9.3, L9.4)', () => {
    const TWO = `rules loose-files
option corlears-hook
force A {
  unit Line infantry { class 3, stands 4 }
}
force B {
  unit Foot infantry { class 3, stands 4 }
}
turn 1 {
  engagement First {
    A.Line attacks B.Foot
    dice A 3
    dice B 3
  }
}
turn 2 {
  engagement Second {
    A.Line attacks B.Foot
    dice A 4
    dice B 4
    dice A retreat 3
    dice B retreat 2
  }
}
turn 3 {
  move Later {
    A.Line: average 2
    dice A.Line average 3 3
  }
}
`;
    it('after a Corlears Hook retreat neither the halt nor the continued fight is expected', async () => {
        const f = await load(TWO);
        expect(found(f, LooseFilesCodes.orderNotKept)).toEqual([]);
        // Without the house rule the same file is two stand-offs: both orders are expected.
        const plain = await load(TWO.replace('option corlears-hook\n', '').replace('    dice A retreat 3\n    dice B retreat 2\n', ''));
        expect(found(plain, LooseFilesCodes.orderNotKept).map(p => p.message)).toEqual([
            expect.stringContaining('A.Line must halt this turn'), expect.stringContaining('the fight continues this turn')
        ]);
    });

    it('a unit that fled the field keeps no order, and its move is lf-fled-moves', async () => {
        const FLEE = `rules loose-files
option flee-losses
force British {
  unit Guards infantry { class 1, stands 4 }
}
force American {
  unit Militia infantry { class 4, stands 4, militia, casualties 1 }
}
turn 1 {
  engagement Charge {
    British.Guards attacks American.Militia
    dice British 5
    dice American 2
  }
}
turn 2 {
  move Rout {
    American.Militia: average 1, d6 1, rout
    dice American.Militia average 4
    dice American.Militia d6 3
  }
}
`;
        const f = await load(FLEE);
        // Routed with 2 more casualties: 3 of 4 stands lost, past the militia's half: it fled.
        expect(found(f, LooseFilesCodes.fledMoves)).toEqual([{
            line: 'American.Militia: average 1, d6 1, rout', severity: 1,
            message: expect.stringMatching(/^American\.Militia fled in engagement Charge \(turn 1\): it is off the table \("flee the field, remove from table", L9\.4\) and cannot move/)
        }]);
        expect(f.diagnostics.filter(d => d.code !== LooseFilesCodes.fledMoves && (d.severity ?? 1) <= 2)).toEqual([]);
        // No move for it at all: no "must retreat" either.
        const still = await load(FLEE.replace(/turn 2 \{[\s\S]*$/, 'turn 2 {\n  move March {\n    British.Guards: average 1\n    dice British.Guards average 3\n  }\n}\n'));
        expect(found(still, LooseFilesCodes.orderNotKept)).toEqual([]);
    });
});

describe('"under fire" from the turn (L6.11)', () => {
    it('a unit fired at this turn changes formation under fire: 2 DPs without the fact written', async () => {
        const text = (fire: boolean) => `${FORCES}turn 1 {
${fire ? '  fire Volley {\n    B.Guns fires at A.Line: range 12\n    dice B.Guns d6 1 1\n  }\n' : ''}  move Form {
    A.Line: formation-change, column
  }
}
`;
        for (const [fire, dp] of [[true, 2], [false, 1]] as const) {
            const { model } = await load(text(fire));
            const r = resolveAction(model, model.actions.find(a => a.node.name === 'Form')!, { newSeed: () => 1 });
            if (isUnresolvable(r)) throw new Error(r.problem);
            expect(r.resolution.json.units.find(u => u.unit === 'Line')!.dp).toBe(dp);
            expect(r.resolution.text.join('\n')).toContain(fire ? 'formation change under fire' : 'formation change');
        }
    });
});
