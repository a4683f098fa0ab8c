/**
 * Every common and SCRUD diagnostic code fires on the exact range of the mistake, and none fires on a
 * valid file. A case marks the expected range with « and »; the markers are removed before parsing.
 */
import * as fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { Diagnostic } from 'vscode-languageserver';
import { MAX_DIAGNOSTICS } from '../../src/language/battle-document-validator.js';
import { Codes } from '../../src/core/codes.js';
import { modelOf } from '../../src/core/model-cache.js';
import { sideUnits } from '../../src/core/scenario.js';
import { outcomeBlock } from '../../src/core/outcome-block.js';
import { isUnresolvable, resolveAction } from '../../src/core/resolve.js';
import { marked } from '../support/marked.js';
import { parse, validate } from '../support/services.js';
import { builtInRulesets } from '../../src/rulesets/registry.js';
import { DIAGNOSTICS_DOC } from '../../src/language/battle-document-validator.js';

async function diagnose(text: string): Promise<Diagnostic[]> {
    return (await validate(text)).diagnostics;
}

const brief = (d: Diagnostic) => ({ code: d.code, severity: d.severity, range: d.range });

// Forces and grades every case can refer to.
const DECLARATIONS = `rules scrud
grade Elite +2
grade Raw -1 { die d4 }
modifier Hill +1
force A {
  unit Foot foot Elite x2
  unit Horse horse
}
force B {
  unit Foot foot
  unit Horse horse Raw
}
force C { unit Guns guns }
`;

const ERROR = 1, WARNING = 2;

interface Case {
    name: string;
    code: string;
    severity?: number;
    /** Declarations and a case, with the expected range in « ». */
    text: string;
    /** Codes that rightly come with this one (a second symptom of the same edit). */
    also?: string[];
}

const cases: Case[] = [
    { name: 'a token where none belongs', code: Codes.syntaxError, text: `${DECLARATIONS}grade Bad +\n«force» D { unit U foot }\n` },
    { name: 'a character outside the language', code: Codes.syntaxError, text: `${DECLARATIONS}engagement E { A attacks B «]» }\n` },
    { name: 'a side that is not a force', code: Codes.unknownReference, text: `${DECLARATIONS}engagement E { «Elite» attacks B }\n` },
    { name: 'a unit its force does not have', code: Codes.unknownReference, text: `${DECLARATIONS}engagement E { A.«Ghost» attacks B }\n` },
    { name: 'an unknown grade', code: Codes.unknownReference, text: `${DECLARATIONS}force D { unit U foot «Veteran» }\n` },
    { name: 'an unknown modifier', code: Codes.unknownReference, text: `${DECLARATIONS}engagement E { A attacks B\n  factor Hill, «Mud» on A }\n` },
    { name: 'a second grade of the same name', code: Codes.duplicateName, text: `${DECLARATIONS}grade «Elite» +1\n` },
    { name: 'a second force of the same name', code: Codes.duplicateName, text: `${DECLARATIONS}force «C» { unit U foot }\n` },
    { name: 'two units of one name in a force', code: Codes.duplicateName, text: `${DECLARATIONS}force D { unit U foot\n  unit «U» horse }\n` },
    { name: 'two engagements of one name', code: Codes.duplicateName, text: `${DECLARATIONS}engagement E { A attacks B }\nengagement «E» { A attacks C }\n` },
    { name: 'a grade above +6', code: Codes.gradeValueRange, text: `${DECLARATIONS}grade Hero «+7»\n` },
    { name: 'a grade below −6', code: Codes.gradeValueRange, text: `${DECLARATIONS}grade Dregs «-7»\n` },
    { name: 'a modifier beyond ±10', code: Codes.modifierValueRange, text: `${DECLARATIONS}modifier Flood «-11»\n` },
    { name: 'a force with no units', code: Codes.emptyForce, text: `${DECLARATIONS}force «D» { }\n` },
    { name: 'a count of x0', code: Codes.countZero, text: `${DECLARATIONS}force D { unit U foot «x0» }\n` },
    { name: 'an absurd count', code: Codes.countTooLarge, text: `${DECLARATIONS}force D { unit U foot «x1000000» }\n` },
    { name: 'a grade naming no die', code: Codes.unknownDie, text: `${DECLARATIONS}grade Poor 0 { «die d7x» }\n` },
    { name: 'a unit naming no die', code: Codes.unknownDie, text: `${DECLARATIONS}force D { unit U foot { «die 6» } }\n` },
    { name: 'an option naming no die', code: Codes.unknownDie, text: `rules scrud\n«option die d1»\n${DECLARATIONS.slice('rules scrud\n'.length)}` },
    { name: 'an option SCRUD does not have', code: Codes.unknownOption, text: `rules scrud\noption «rally» 3\n${DECLARATIONS.slice('rules scrud\n'.length)}` },
    { name: 'an index past the count', code: Codes.unitIndexRange, text: `${DECLARATIONS}engagement E { A attacks B\n  factor Hill on A.Foot#«3» }\n` },
    { name: 'an index on a single unit', code: Codes.unitIndexRange, text: `${DECLARATIONS}engagement E { A.Horse#«1» attacks B }\n` },
    { name: 'an index of 0', code: Codes.unitIndexRange, text: `${DECLARATIONS}engagement E { A.Foot#«0» attacks B }\n` },
    { name: 'an engagement without sides', code: Codes.missingSides, text: `${DECLARATIONS}engagement «E» { seed 3 }\n` },
    { name: 'an engagement with two pairs of sides', code: Codes.missingSides, text: `${DECLARATIONS}engagement E { A attacks B\n  «B attacks C» }\n` },
    { name: 'the same force on both sides', code: Codes.sameForceBothSides, text: `${DECLARATIONS}engagement E { A attacks B, «A.Horse» }\n`, also: [Codes.sideMixesForces] },
    { name: 'a force fighting itself', code: Codes.sameForceBothSides, text: `${DECLARATIONS}engagement E { A.Foot attacks «A.Horse» }\n` },
    { name: 'a side from two forces', code: Codes.sideMixesForces, text: `${DECLARATIONS}engagement E { A.Foot, «C.Guns» attacks B }\n` },
    { name: 'a Loose Files action in SCRUD', code: Codes.actionNotInRules, text: `${DECLARATIONS}«fire» Volley { A attacks B }\n` },
    { name: 'an Ancients flag in SCRUD', code: Codes.statementNotUsed, severity: WARNING, text: `${DECLARATIONS}engagement E { A attacks B\n  «first turn» }\n` },
    { name: 'an Ancients pairing in SCRUD', code: Codes.statementNotUsed, severity: WARNING, text: `${DECLARATIONS}engagement E { A attacks B\n  «A.Horse flank vs B.Horse» }\n` },
    { name: 'unit facts in SCRUD', code: Codes.statementNotUsed, severity: WARNING, text: `${DECLARATIONS}engagement E { A attacks B\n  A.Horse: «charged» }\n` },
    { name: 'a factor on a force not in the engagement', code: Codes.factorNotInEngagement, severity: WARNING, text: `${DECLARATIONS}engagement E { A attacks B\n  factor Hill on A, «C» }\n` },
    // The side names A by one unit only: the factor's other unit of A is looked at, not passed as A's.
    { name: 'a factor on a unit of a side\'s force that is not in the engagement', code: Codes.factorNotInEngagement, severity: WARNING, text: `${DECLARATIONS}engagement E { A.Foot attacks B\n  factor Hill on A.Foot, «A.Horse» }\n` },
    { name: 'more dice than units', code: Codes.diceCount, text: `${DECLARATIONS}engagement E { A attacks B\n  dice A 1 2 3\n  dice B 1 1 «4» }\n` },
    { name: 'fewer dice than units', code: Codes.diceCount, text: `${DECLARATIONS}engagement E { A attacks B\n  dice A foot «1»\n  dice A horse 3\n  dice B foot 1\n  dice B horse 4 }\n` },
    { name: 'an arm with no dice line', code: Codes.diceCount, text: `${DECLARATIONS}engagement E { A attacks B\n  dice «A» foot 1 2\n  dice B foot 1\n  dice B horse 4 }\n` },
    { name: 'a side with no dice at all', code: Codes.diceCount, text: `${DECLARATIONS}engagement «E» { A attacks B\n  dice A 1 2 3 }\n` },
    { name: 'a unit given two dice', code: Codes.diceCount, text: `${DECLARATIONS}engagement E { A attacks B\n  dice A 1 2 3\n  dice «A.Horse» 4\n  dice B 1 1 }\n` },
    { name: 'a 7 on a d6', code: Codes.dieFace, text: `${DECLARATIONS}engagement E { A attacks B\n  dice A 1 «7» 3\n  dice B 1 1 }\n` },
    { name: 'a 5 on the d4 of a Raw grade', code: Codes.dieFace, text: `${DECLARATIONS}engagement E { A attacks B\n  dice A 1 2 3\n  dice B foot 6\n  dice B horse «5» }\n` },
    { name: 'dice for a force not in the engagement', code: Codes.diceNotInEngagement, text: `${DECLARATIONS}engagement E { A attacks B\n  dice A 1 2 3\n  dice B 1 1\n  dice «C» 3 }\n` },
    { name: 'dice for an arm the side does not have', code: Codes.diceLabel, text: `${DECLARATIONS}engagement E { A attacks B\n  dice A foot 1 2\n  dice A horse 3\n  dice A «guns» 4\n  dice B 1 1 }\n` },
    { name: 'a seed beyond 32 bits', code: Codes.seedRange, text: `${DECLARATIONS}engagement E { A attacks B\n  seed «4294967296» }\n` },
    { name: 'a seed beside entered dice', code: Codes.seedWithDice, severity: WARNING, text: `${DECLARATIONS}engagement E { A attacks B\n  dice A 1 2 3\n  dice B 1 1\n  «seed 4» }\n` },
    {
        name: 'a written outcome whose dice changed', code: Codes.outcomeStale, severity: WARNING,
        text: `${DECLARATIONS}engagement E { A attacks B\n  dice A 1 2 3\n  dice B 1 1\n  «outcome» entered check "00000000" { }\n}\n`
    },
    {
        name: 'a written entered outcome whose dice were removed', code: Codes.outcomeStale, severity: WARNING,
        text: `${DECLARATIONS}engagement E { A attacks B\n  «outcome» entered check "00000000" { }\n}\n`
    },
    {
        name: 'a written outcome of an engagement that cannot be resolved', code: Codes.outcomeUnresolvable, severity: WARNING,
        text: `${DECLARATIONS}engagement E { A attacks B\n  dice A 1 2\n  «outcome» entered check "00000000" { }\n}\n`,
        also: [Codes.diceCount, Codes.diceCount]
    }
];

describe('every code fires on its exact range', () => {
    for (const c of cases) {
        it(`${c.code}: ${c.name}`, async () => {
            const { text, range } = marked(c.text);
            const diagnostics = await diagnose(text);
            const mine = diagnostics.filter(d => d.code === c.code && !(c.also ?? []).includes(d.code as string));
            const others = diagnostics.filter(d => !mine.includes(d)).map(d => d.code).sort();
            expect(mine.map(brief)).toEqual([{ code: c.code, severity: c.severity ?? ERROR, range }]);
            expect(others).toEqual([...(c.also ?? [])].filter(x => x !== c.code).sort());
            expect((mine[0].message as string).length).toBeGreaterThan(10);
        });
    }

    it('too-many-problems: a flood of mistakes is capped, with a last line saying how many more', async () => {
        const text = `${DECLARATIONS}${Array.from({ length: 250 }, (_, i) => `force Empty${i} { }`).join('\n')}\n`;
        const diagnostics = await diagnose(text);
        expect(diagnostics).toHaveLength(MAX_DIAGNOSTICS + 1);
        const last = diagnostics[MAX_DIAGNOSTICS];
        expect(last.code).toBe(Codes.tooManyProblems);
        expect(last.message).toContain('50 more');
        expect(last.range).toEqual(diagnostics[MAX_DIAGNOSTICS - 1].range);
        expect(diagnostics.slice(0, MAX_DIAGNOSTICS).every(d => d.code === Codes.emptyForce)).toBe(true);
    });

    it('rules-not-supported: a rule set Umpire does not know, with the known ones offered', async () => {
        const { text, range } = marked(`rules «napoleonics»\nforce A { unit U foot }\n`);
        const diagnostics = await diagnose(text);
        const found = diagnostics.filter(d => d.code === Codes.rulesNotSupported);
        expect(found.map(brief)).toEqual([{ code: Codes.rulesNotSupported, severity: ERROR, range }]);
        expect(found[0].message).toContain('napoleonics');
        expect(found[0].data).toEqual({ replacements: ['scrud', 'ancients', 'loose-files'] });
    });

    it('a file of random bytes gives diagnostics, all on real positions, and no crash', async () => {
        let x = 12345;
        const bytes = Array.from({ length: 3000 }, () => { x = (x * 1103515245 + 12345) % 2147483648; return String.fromCharCode(x % 256); }).join('');
        const diagnostics = await diagnose(bytes);
        expect(diagnostics.length).toBeGreaterThan(0);
        expect(diagnostics.length).toBeLessThanOrEqual(MAX_DIAGNOSTICS + 1);
        const lines = bytes.split('\n').length;
        expect(diagnostics.every(d => d.range.start.line < lines && typeof d.code === 'string')).toBe(true);
    });
});

// A file that uses every feature the checks look at, correctly: options, a d4 grade, counts, indexes,
// factors, entered dice by arm and by unit, seeds, pooled arms, and a written outcome that is current.
const VALID = `scenario "All correct"
rules scrud
option die d6
grade Elite +2
grade Raw -1 { die d4 }
grade Militia 0 { die average }
modifier Hill +1
modifier ForcedMarch -1
force A {
  unit Foot foot Elite x2
  unit Horse horse { die d6 }
  unit Single foot x1
}
force B {
  unit Foot foot
  unit Horse horse Raw
  unit Levy foot Militia x3
}
force C { unit Guns guns }
engagement Entered {
  A attacks B
  factor Hill on A.Foot#2, A.Single#1
  factor ForcedMarch on B
  dice A foot 1 2 6
  dice A.Horse 4
  dice B foot 1 2 3 4
  dice B.Horse 4
}
engagement Seeded {
  A.Foot, A.Horse attacks B.Levy#2, B.Horse
  seed 4294967295
}
engagement Pooled {
  C attacks B
  pooled
}
turn 1 "Dawn" {
  engagement Later { B attacks C
    seed 0 }
}
`;

describe('no code fires on a valid file', () => {
    it('gives no diagnostics at all', async () => {
        expect((await diagnose(VALID)).map(d => `${d.range.start.line + 1}: ${d.code} ${d.message}`)).toEqual([]);
    });

    it('a written outcome is current until its engagement changes', async () => {
        const doc = await parse(VALID);
        const model = modelOf(doc.parseResult.value);
        let text = VALID;
        // Write each engagement's outcome before its closing brace, last first so offsets hold.
        for (const action of [...model.actions].reverse()) {
            const r = resolveAction(model, action, { newSeed: () => 99 });
            if (isUnresolvable(r)) throw new Error(r.problem);
            const end = action.node.$cstNode!.end - 1;
            text = `${text.slice(0, end)}\n${outcomeBlock(r.resolution, r.dice, '')}\n${text.slice(end)}`;
        }
        expect((await diagnose(text)).map(d => d.message)).toEqual([]);
        const edited = text.replace('dice A.Horse 4', 'dice A.Horse 5');
        expect((await diagnose(edited)).map(d => d.code)).toEqual([Codes.outcomeStale]);
    });
});

describe('the units of a side', () => {
    it('are each unit once, in declaration order, also when a force names a unit on two lines', async () => {
        const doc = await parse(`${DECLARATIONS}force D {\n  unit U foot x2\n  unit V foot\n  unit U horse x2\n}\nengagement E { D attacks A }\n`);
        const model = modelOf(doc.parseResult.value);
        const sides = sideUnits(model, model.actions[0].node)!;
        // The second U line's instances have the first's ids: each id once, where it first stands, as last declared.
        expect(sides.attackers.map(u => `${u.id} ${u.arm}`)).toEqual(['D.V foot', 'D.U#1 horse', 'D.U#2 horse']);
        expect(sides.defenders.map(u => u.id)).toEqual(['A.Foot#1', 'A.Foot#2', 'A.Horse']);
    });
});

describe('the units of a force', () => {
    it('are found by name in a force of many lines, and a name on two far-apart lines is each id once', async () => {
        // 18 lines: the duplicate names are told apart by a set (a force of a few lines compares its lines instead).
        const lines = Array.from({ length: 16 }, (_, i) => `  unit L${i} foot`);
        const doc = await parse(`${DECLARATIONS}force D {\n  unit U foot x2\n${lines.join('\n')}\n  unit U horse x2\n}\nforce G {\n  unit U foot x2\n${lines.join('\n')}\n  unit W horse x2\n}\nengagement E { D attacks G }\nengagement F { G.U#2, G.L3 attacks D.U }\n`);
        const model = modelOf(doc.parseResult.value);
        const e = sideUnits(model, model.actions[0].node)!;
        expect(e.attackers.map(u => u.id)).toEqual([...lines.map((_, i) => `D.L${i}`), 'D.U#1', 'D.U#2']);
        expect(e.attackers.filter(u => u.id.startsWith('D.U')).map(u => u.arm)).toEqual(['horse', 'horse']);
        // Distinct names: the force's units as declared.
        expect(e.defenders.map(u => u.id)).toEqual(['G.U#1', 'G.U#2', ...lines.map((_, i) => `G.L${i}`), 'G.W#1', 'G.W#2']);
        const f = sideUnits(model, model.actions[1].node)!;
        expect(f.attackers.map(u => u.id)).toEqual(['G.U#2', 'G.L3']);
        // `D.U` names both lines' instances: each id once, as last declared.
        expect(f.defenders.map(u => `${u.id} ${u.arm}`)).toEqual(['D.U#1 horse', 'D.U#2 horse']);
    });
});

describe('docs/diagnostics.md', () => {
    const every = [...Object.values(Codes), ...builtInRulesets().all().flatMap(r => Object.values(r.codes))];

    it('lists every code, the core\'s and each rule set\'s, each row with its anchor', () => {
        const doc = fs.readFileSync('docs/diagnostics.md', 'utf8');
        const missing = every.filter(code => !doc.includes(`<a id="${code}"></a>\`${code}\``));
        expect(missing, 'every code needs a row in docs/diagnostics.md').toEqual([]);
    });

    it('each problem links its code to that row, in the repository package.json names', async () => {
        const repository = JSON.parse(fs.readFileSync('package.json', 'utf8')).repository.url.replace(/\.git$/, '');
        expect(DIAGNOSTICS_DOC).toBe(`${repository}/blob/HEAD/docs/diagnostics.md`);
        const diagnostics = await diagnose('rules scrud\ngrade Elite +9\nforce A { unit U foot Elit }\n');
        expect(diagnostics.length).toBeGreaterThan(1);
        for (const d of diagnostics) expect(d.codeDescription?.href).toBe(`${DIAGNOSTICS_DOC}#${d.code}`);
    });
});
