/**
 * The .battle language: every statement form parses into the AST it should, and references link
 * (forces, `Force.Unit`, `Force.Unit#k`, grades, modifiers); a reference that does not resolve is an
 * `unknown-reference` on exactly that reference.
 */
import * as fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import * as path from 'node:path';
import { URI, type LangiumDocument, type Reference } from 'langium';
import { isAction, isDice, isFactor, isFacts, isFlag, isForce, isGrade, isModifier, isRelation, isSeed, isSides, isSplit, isTurn, isUnitState, type Action, type Scenario, type Statement } from '../../src/language/generated/ast.js';
import { Codes } from '../../src/core/codes.js';
import { openDocument, parse } from '../support/services.js';


function syntaxProblems(doc: LangiumDocument<Scenario>): string[] {
    return [
        ...doc.parseResult.lexerErrors.map(e => `${e.line}:${e.column} ${e.message}`),
        ...doc.parseResult.parserErrors.map(e => `${e.token.startLine}:${e.token.startColumn} ${e.message}`)
    ];
}

function unresolved(doc: LangiumDocument<Scenario>): string[] {
    // The grammar has single references only (no multi-references).
    return (doc.references as Reference[]).filter(r => r.ref === undefined).map(r => r.$refText);
}

// Every form of the brief's language sketch, in one file.
const EVERY_FORM = `// a line comment
/* a block
   comment */
scenario "Every form"
rules ancients
option pooled
option break-die 1
option die d4
option note "a string"
grade Elite +2
grade Raw -1
grade Hoplite { size large, weight heavy, formation formed, skill 2, leadership 7, defensive }
modifier ForcedMarch -1
modifier Tired -2
force Greeks {
  unit Hoplites infantry Hoplite x2 { tokens 1, tested }
  unit Peltasts infantry
  unit Archers foot Raw { die d4 }
}
force Persians { unit Immortals infantry Elite }
state Greeks.Hoplites#1: dp 2, casualties 1
engagement Marathon {
  Greeks.Hoplites, Greeks.Peltasts attacks Persians
  factor ForcedMarch, Tired on Greeks.Hoplites, Greeks.Peltasts
  dice Greeks foot 4 4 2 6
  dice Persians 3
  seed 42
  first turn
  pooled
  Greeks.Hoplites#1: charged, range 9, reason "x"
  Greeks.Hoplites#1 flank vs Persians.Immortals front
  Greeks.Peltasts fires at Persians.Immortals: range 9
  split Persians.Immortals 6 on Greeks.Hoplites#1, 4 on Greeks.Peltasts
  outcome seed 42 check "1a2b3c4d" {
    summary "Defender foot: 1 stand-off"
    Greeks.Hoplites#1: stand-off, die 4, mod +2, adjusted 6 vs Persians.Immortals
    Persians.Immortals: won
  }
}
turn 1 "Dawn" {
  state Greeks.Peltasts: dp 2
  ruling Greeks.Hoplites#2: rallied, reason "IMP"
  fire Volley { Greeks.Peltasts fires at Persians.Immortals: range 9 }
  move March { Greeks.Archers: distance 6 }
  morale Panic { Greeks.Peltasts sees Persians.Immortals }
  redress Rest { Greeks.Peltasts: stationary }
  command Orders { Greeks.Hoplites#1 inspires Greeks.Hoplites#2
    Greeks.Hoplites#1 rallies Greeks.Peltasts }
  engagement Later { Greeks attacks Persians
    outcome entered check "00ff00ff" {
    }
  }
}
turn Dusk { }
`;

describe('parsing', () => {
    it('reads every statement form without a syntax problem or an unresolved name', async () => {
        const doc = await parse(EVERY_FORM);
        expect(syntaxProblems(doc)).toEqual([]);
        expect(unresolved(doc)).toEqual([]);
    });

    it('puts each declaration where it belongs', async () => {
        const s = (await parse(EVERY_FORM)).parseResult.value;
        expect(s.title).toBe('Every form');
        expect(s.rules).toBe('ancients');
        expect(s.options.map(o => [o.name, o.number ?? o.word ?? o.text ?? true])).toEqual([
            ['pooled', true], ['break-die', 1], ['die', 'd4'], ['note', 'a string']
        ]);
        const grades = s.elements.filter(isGrade);
        expect(grades.map(g => [g.name, g.value])).toEqual([['Elite', 2], ['Raw', -1], ['Hoplite', undefined]]);
        expect(grades[2].stats.map(st => [st.key, st.value?.number ?? st.value?.word ?? true])).toEqual([
            ['size', 'large'], ['weight', 'heavy'], ['formation', 'formed'], ['skill', 2], ['leadership', 7], ['defensive', true]
        ]);
        expect(s.elements.filter(isModifier).map(m => [m.name, m.value])).toEqual([['ForcedMarch', -1], ['Tired', -2]]);
        const greeks = s.elements.filter(isForce)[0];
        expect(greeks.units.map(u => [u.name, u.arm, u.grade?.$refText, u.count, u.stats.map(st => st.key)])).toEqual([
            ['Hoplites', 'infantry', 'Hoplite', 'x2', ['tokens', 'tested']],
            ['Peltasts', 'infantry', undefined, undefined, []],
            ['Archers', 'foot', 'Raw', undefined, ['die']]
        ]);
        const state = s.elements.filter(isUnitState)[0];
        expect([state.kind, state.target.unit?.$refText, state.target.index, state.facts.map(f => [f.key, f.number])]).toEqual(
            ['state', 'Hoplites', 1, [['dp', 2], ['casualties', 1]]]);
    });

    it('reads each statement of an engagement', async () => {
        const s = (await parse(EVERY_FORM)).parseResult.value;
        const e = s.elements.filter(isAction)[0];
        expect([e.kind, e.name]).toEqual(['engagement', 'Marathon']);
        const kinds = (st: Statement) => st.$type;
        expect(e.statements.map(kinds)).toEqual(['Sides', 'Factor', 'Dice', 'Dice', 'Seed', 'Flag', 'Flag', 'Facts', 'Relation', 'Relation', 'Split']);
        const sides = e.statements.find(isSides)!;
        expect(sides.attackers.map(t => `${t.force.$refText}.${t.unit?.$refText}`)).toEqual(['Greeks.Hoplites', 'Greeks.Peltasts']);
        expect(sides.defenders.map(t => [t.force.$refText, t.unit])).toEqual([['Persians', undefined]]);
        const factor = e.statements.find(isFactor)!;
        expect(factor.modifiers.map(m => m.ref?.value)).toEqual([-1, -2]);
        expect(factor.targets).toHaveLength(2);
        const dice = e.statements.filter(isDice);
        expect(dice.map(d => [d.target.force.$refText, d.label, d.values])).toEqual([['Greeks', 'foot', [4, 4, 2, 6]], ['Persians', undefined, [3]]]);
        expect(e.statements.find(isSeed)!.value).toBe(42);
        expect(e.statements.filter(isFlag).map(f => [f.name, f.second])).toEqual([['first', 'turn'], ['pooled', undefined]]);
        const facts = e.statements.find(isFacts)!;
        expect(facts.facts.map(f => [f.key, f.number ?? f.text ?? true])).toEqual([['charged', true], ['range', 9], ['reason', 'x']]);
        const [pairing, fire] = e.statements.filter(isRelation);
        expect([pairing.subjectPosition, pairing.verb, pairing.objectPosition, pairing.facts]).toEqual(['flank', 'vs', 'front', []]);
        expect([fire.verb, fire.object.unit?.$refText, fire.facts.map(f => [f.key, f.number])]).toEqual(['fires', 'Immortals', [['range', 9]]]);
        const split = e.statements.find(isSplit)!;
        expect(split.parts.map(p => [p.dice, p.target.unit?.$refText, p.target.index])).toEqual([[6, 'Hoplites', 1], [4, 'Peltasts', undefined]]);
    });

    it('reads a written outcome, seeded or entered', async () => {
        const s = (await parse(EVERY_FORM)).parseResult.value;
        const o = s.elements.filter(isAction)[0].outcome!;
        expect([o.seed, o.entered, o.check, o.summary]).toEqual([42, false, '1a2b3c4d', 'Defender foot: 1 stand-off']);
        expect(o.lines.map(l => [l.unit.unit?.$refText, l.result, l.facts.map(f => [f.key, f.number]), l.opponent?.force.$refText])).toEqual([
            ['Hoplites', 'stand-off', [['die', 4], ['mod', 2], ['adjusted', 6]], 'Persians'],
            ['Immortals', 'won', [], undefined]
        ]);
        const later = (s.elements.filter(isTurn)[0].elements.filter(isAction) as Action[]).find(a => a.name === 'Later')!;
        expect([later.outcome?.entered, later.outcome?.seed, later.outcome?.check, later.outcome?.lines]).toEqual([true, undefined, '00ff00ff', []]);
    });

    it('reads turns with their actions and states in order', async () => {
        const s = (await parse(EVERY_FORM)).parseResult.value;
        const [dawn, dusk] = s.elements.filter(isTurn);
        expect([dawn.number, dawn.title, dusk.name, dusk.elements]).toEqual([1, 'Dawn', 'Dusk', []]);
        expect(dawn.elements.map(el => (isAction(el) ? `${el.kind} ${el.name}` : `${el.$type === 'UnitState' ? el.kind : el.$type}`))).toEqual([
            'state', 'ruling', 'fire Volley', 'move March', 'morale Panic', 'redress Rest', 'command Orders', 'engagement Later'
        ]);
        const command = dawn.elements.find(el => isAction(el) && el.kind === 'command') as Action;
        expect(command.statements.filter(isRelation).map(r => r.verb)).toEqual(['inspires', 'rallies']);
    });

    it('reads the three rule set names', async () => {
        for (const rules of ['scrud', 'ancients', 'loose-files']) {
            const doc = await parse(`rules ${rules}\nforce A { unit U foot }\n`);
            expect(syntaxProblems(doc)).toEqual([]);
            expect(doc.parseResult.value.rules).toBe(rules);
        }
    });

    it('reports a syntax error instead of guessing', async () => {
        const doc = await parse('force A { unit U foot x2 x3 }\n');
        expect(syntaxProblems(doc).length).toBeGreaterThan(0);
    });

    const examples = fs.readdirSync('examples').filter(f => f.endsWith('.battle') && !f.startsWith('broken'));
    it.each(examples)('examples/%s parses and links cleanly', async file => {
        // An example that imports its forces (season-*.battle) is read at its own path, beside the files it imports.
        for (const imported of fs.readFileSync(`examples/${file}`, 'utf8').matchAll(/^import "(.*)"/gm)) {
            await openDocument(URI.file(path.resolve('examples', imported[1])).toString(), fs.readFileSync(`examples/${imported[1]}`, 'utf8'));
        }
        const doc = await parse(fs.readFileSync(`examples/${file}`, 'utf8'), { documentUri: URI.file(path.resolve('examples', file)).toString() });
        expect(syntaxProblems(doc)).toEqual([]);
        expect(unresolved(doc)).toEqual([]);
    });
});

const LINKED = `rules scrud
grade Veteran +1
modifier Hill +1
force French {
  unit Line foot Veteran x3
  unit Guard foot
}
force Austrian { unit Line foot }
engagement E {
  French.Line#2, French.Line#3, French.Guard attacks Austrian.Line
  factor Hill on French.Line#3
}
`;

describe('linking', () => {
    it('links forces, Force.Unit, Force.Unit#k, grades and modifiers to their declarations', async () => {
        const s = (await parse(LINKED)).parseResult.value;
        const [french, austrian] = s.elements.filter(isForce);
        const grade = s.elements.filter(isGrade)[0];
        const hill = s.elements.filter(isModifier)[0];
        expect(french.units[0].grade?.ref).toBe(grade);
        const e = s.elements.filter(isAction)[0];
        const sides = e.statements.find(isSides)!;
        const [line2, , guard] = sides.attackers;
        expect([line2.force.ref, line2.unit?.ref, line2.index]).toEqual([french, french.units[0], 2]);
        expect([guard.unit?.ref, guard.index]).toEqual([french.units[1], undefined]);
        // Units are scoped in their force: Austrian.Line is Austrian's Line, not French's.
        expect(sides.defenders[0].unit?.ref).toBe(austrian.units[0]);
        const factor = e.statements.find(isFactor)!;
        expect(factor.modifiers[0].ref).toBe(hill);
        expect([factor.targets[0].unit?.ref, factor.targets[0].index]).toEqual([french.units[0], 3]);
    });

    const cases: Array<[string, string, string]> = [
        ['a force', 'engagement X { «Prussian» attacks Austrian }', 'Prussian'],
        ['a unit of a force', 'engagement X { French.«Hussars» attacks Austrian }', 'Hussars'],
        ['a unit of the other force', 'engagement X { French attacks Austrian.«Guard» }', 'Guard'],
        ['a unit with an index', 'engagement X { French.«Lines»#2 attacks Austrian }', 'Lines'],
        ['a grade', 'force Bavarian { unit Line foot «Elite» }', 'Elite'],
        ['a modifier', 'engagement X { French attacks Austrian\n  factor Hill, «Mud» on French }', 'Mud']
    ];
    it.each(cases)('an unresolved %s is unknown-reference on exactly that name', async (_what, snippet, name) => {
        const before = LINKED + snippet.slice(0, snippet.indexOf('«'));
        const line = before.split('\n').length - 1;
        const character = before.length - before.lastIndexOf('\n') - 1;
        const text = LINKED + snippet.replace('«', '').replace('»', '');
        const doc = await parse(text, { validation: true });
        const problems = (doc.diagnostics ?? []).map(d => ({ code: d.code, range: d.range, message: d.message }));
        expect(problems).toEqual([{
            code: Codes.unknownReference,
            range: { start: { line, character }, end: { line, character: character + name.length } },
            message: expect.stringContaining(`'${name}'`)
        }]);
    });
});
