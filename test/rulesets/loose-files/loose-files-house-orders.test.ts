/**
 * Loose Files rule values that were the last literals of the engines, now house tables
 * (docs/house-rules.md#loose-files): where each outnumbering step begins (L2.12), which classes pursue
 * after an easy victory (L3), who rallies each class (L8), how far cavalry change speed (L6.8) and how
 * many dice an officer moves (L6, L8.1). Resolve, the checks and the exact odds read them alike, and the
 * combat breakdown names the house rows a line read.
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { AVERAGE } from '../../../src/core/dice.js';
import { combatModifiers, outnumberedModifier, pursues, resolveCombat, type CombatInput, type CombatSide } from '../../../src/rulesets/loose-files/engine/loose-files-combat.js';
import { COMBAT_RESULTS, LF_SEED_TABLES, type CombatResult, type LfCombatTables } from '../../../src/rulesets/loose-files/engine/loose-files-tables.js';
import { NO_HOUSE_RULES, type LfUnit } from '../../../src/rulesets/loose-files/engine/loose-files-units.js';
import { allowedMoveDice, moveDiceProblem } from '../../../src/rulesets/loose-files/engine/loose-files-movement.js';
import { rallyNeedsCommander, redressAllowance } from '../../../src/rulesets/loose-files/engine/loose-files-command.js';
import { combatOdds } from '../../../src/rulesets/loose-files/engine/loose-files-odds.js';
import { LooseFilesCodes } from '../../../src/rulesets/loose-files/loose-files-codes.js';
import { loadText } from '../../../src/cli/load.js';
import { modelOf } from '../../../src/core/model-cache.js';
import { isUnresolvable, resolveAction } from '../../../src/core/resolve.js';
import { oddsForAction } from '../../../src/core/odds.js';
import { expectCompletion, parseHelper } from 'langium/test';
import type { CompletionList } from 'vscode-languageserver';
import type { Scenario } from '../../../src/language/generated/ast.js';
import { battle as services } from '../../support/services.js';

const unit = (id: string, over: Partial<LfUnit> = {}): LfUnit => ({
    id, force: id.split('.')[0], unit: id.split('.')[1], type: 'infantry', class: 3, formation: 'line', stands: 4, dp: 0, casualties: 0,
    deserted: 0, guns: undefined, weapon: 'musket', hessian: false, jaeger: false, militia: false, cp: 0, attached: undefined, ...over
});
const side = (u: LfUnit, over: Partial<CombatSide> = {}): CombatSide => ({ units: [u], cover: undefined, bayonet: false, terrain: false, inspiredBy: [], flankOrRear: false, ...over });
const fight = (a: CombatSide, d: CombatSide): CombatInput => ({ attacker: a, defender: d, options: NO_HOUSE_RULES, previousStandOff: false });
const with_ = (over: Partial<LfCombatTables>): LfCombatTables => ({ ...LF_SEED_TABLES, ...over });

async function load(text: string) {
    const loaded = await loadText('house.battle', text);
    return {
        model: modelOf(loaded.document.parseResult.value),
        diagnostics: loaded.diagnostics.map(d => `${d.code}: ${d.message}`)
    };
}

function resolved(model: ReturnType<typeof modelOf>, name: string) {
    const action = model.actions.find(a => a.node.name === name)!;
    const r = resolveAction(model, action, { newSeed: () => 1 });
    if (isUnresolvable(r)) throw new Error(r.problem);
    return r.resolution;
}

describe('L2.12 outnumbering ratios', () => {
    it('a house outnumber-ratio table moves where each step begins: 3:2 from 160% is not met at 6 v 4', () => {
        const house = with_({ ratios: { 'three-to-two': 160, 'two-to-one': 250, 'three-to-one': 400 } });
        // The sheet: 6 v 4 is 3:2 (−2), 8 v 4 is 2:1 (−3), 12 v 4 is 3:1 (−5).
        expect([outnumberedModifier(4, 6)?.reason, outnumberedModifier(4, 6)?.value]).toEqual(['outnumbered 3:2 (6 v 4)', -2]);
        expect(outnumberedModifier(4, 12)?.reason).toBe('outnumbered 3:1 or worse (12 v 4)');
        // The house: 6 v 4 (150%) is outnumbered only; 7 v 4 (175%) is the 8:5 step; 8 v 4 (200%) still 8:5; 10 v 4 the 5:2 step; 16 v 4 the 4:1.
        expect([outnumberedModifier(4, 6, house)?.reason, outnumberedModifier(4, 6, house)?.value]).toEqual(['outnumbered (6 v 4)', -1]);
        expect([outnumberedModifier(4, 7, house)?.reason, outnumberedModifier(4, 7, house)?.value]).toEqual(['outnumbered 8:5 (7 v 4)', -2]);
        expect(outnumberedModifier(4, 8, house)?.value).toBe(-2);
        expect([outnumberedModifier(4, 10, house)?.reason, outnumberedModifier(4, 10, house)?.value]).toEqual(['outnumbered 5:2 (10 v 4)', -3]);
        expect([outnumberedModifier(4, 16, house)?.reason, outnumberedModifier(4, 16, house)?.value]).toEqual(['outnumbered 4:1 or worse (16 v 4)', -5]);
        // A ratio that reduces to no small one reads as a decimal.
        expect(outnumberedModifier(100, 133, with_({ ratios: { ...LF_SEED_TABLES.ratios, 'three-to-two': 133 } }))?.reason).toBe('outnumbered 1.33:1 (133 v 100)');
        // Equal strength is never outnumbered.
        expect(outnumberedModifier(4, 4, house)).toBeUndefined();
    });

    it('exact combat odds agree with every throw through the resolver under random outnumber ratios', () => {
        const ratiosArb = fc.uniqueArray(fc.integer({ min: 101, max: 500 }), { minLength: 3, maxLength: 3 })
            .map(r => r.sort((a, b) => a - b))
            .map(([a, b, c]): LfCombatTables => with_({ ratios: { 'three-to-two': a, 'two-to-one': b, 'three-to-one': c } }));
        const sideArb = (f: string) => fc.record({ stands: fc.integer({ min: 1, max: 12 }), cav: fc.boolean() })
            .map(s => side(unit(`${f}.x`, { stands: s.stands, type: s.cav ? 'cavalry' : 'infantry' })));
        fc.assert(fc.property(sideArb('A'), sideArb('D'), ratiosArb, (a, d, tables) => {
            const input = fight(a, d);
            const odds = combatOdds(input, tables);
            for (const role of ['attacker', 'defender'] as const) {
                const rows = Object.fromEntries(COMBAT_RESULTS.map(r => [r, 0])) as Record<CombatResult, number>;
                for (const x of AVERAGE.faces) for (const y of AVERAGE.faces) rows[resolveCombat(input, { attacker: x, defender: y }, tables)[role].result] += 1 / 36;
                for (const r of COMBAT_RESULTS) expect(Math.abs(odds[role].probabilities[r] - rows[r]), `${role} ${r}`).toBeLessThanOrEqual(1e-12);
                const own = role === 'attacker' ? a : d, foe = role === 'attacker' ? d : a;
                expect(odds[role].modifier).toBe(combatModifiers(own, foe, role === 'defender', tables).reduce((s, m) => s + m.value, 0));
            }
        }), { numRuns: 150, seed: 18 });
    });

    it('in a file, resolve, its breakdown and the odds read the house ratios', async () => {
        const file = (house: string) => `rules loose-files
${house}force Blue { unit Line infantry { class 3, stands 4 } }
force Red { unit Line infantry { class 3, stands 6 } }
engagement Hill {
  Red.Line attacks Blue.Line
  dice Red 3
  dice Blue 3
}
`;
        const seed = await load(file(''));
        expect(resolved(seed.model, 'Hill').text).toContain('  -2 outnumbered 3:2 (6 v 4)');
        const { model, diagnostics } = await load(file('house {\n  outnumber-ratio three-to-two 160\n}\n'));
        expect(diagnostics.filter(d => d.startsWith('lf-house') || d.startsWith('house-'))).toEqual([]);
        expect(resolved(model, 'Hill').text).toContain('  -1 outnumbered (6 v 4)');
        const odds = oddsForAction(model, model.actions[0]);
        if (isUnresolvable(odds)) throw new Error(odds.problem);
        expect(odds.units.find(u => u.id === 'Blue.Line')?.modifier).toBe(-1);
        const at7 = await load(file('house {\n  outnumber-ratio three-to-two 160\n}\n').replace('stands 6', 'stands 7'));
        expect(resolved(at7.model, 'Hill').text).toContain('  -2 outnumbered 8:5 (7 v 4)  (house: outnumber-ratio three-to-two 160)');
    });
});

describe('L3 pursuit, L8 rallies', () => {
    it('a house pursue table changes which classes pursue after an easy victory, in resolve and in the orders check', async () => {
        expect([1, 2, 3, 4, 5, 6].map(c => pursues(c))).toEqual([false, false, false, true, true, true]);
        const house = with_({ pursue: { ...LF_SEED_TABLES.pursue, 'class-3': true, 'class-4': false } });
        expect([1, 2, 3, 4, 5].map(c => pursues(c, house))).toEqual([false, false, true, false, true]);
        const o = resolveCombat(fight(side(unit('A.x')), side(unit('D.y', { dp: 2 }))), { attacker: 5, defender: 2 }, house);
        expect([o.attacker.result, o.attacker.order]).toEqual(['easy-victory', 'pursue']);
        const file = (cls: number) => `rules loose-files
house {
  pursue class-3 yes, class-4 no
}
force Blue { unit Line infantry { class ${cls}, stands 4 } }
force Red { unit Line infantry { class ${cls}, stands 4, dp 2 } }
turn 1 {
  engagement Hill {
    Blue.Line attacks Red.Line
    dice Blue 5
    dice Red 2
  }
}
turn 2 {
  move Back { Red.Line: average 1, retreat }
}
`;
        const c3 = await load(file(3));
        expect(resolved(c3.model, 'Hill').json.units[0]).toMatchObject({ result: 'easy-victory', order: 'pursue' });
        expect(c3.diagnostics).toContainEqual(expect.stringContaining(`${LooseFilesCodes.orderNotKept}: Blue.Line (class 3, which pursues) won an easy victory`));
        const c4 = await load(file(4));
        expect(resolved(c4.model, 'Hill').json.units[0]).toMatchObject({ result: 'easy-victory', order: 'obey orders' });
        expect(c4.diagnostics.filter(d => d.includes('won an easy victory'))).toEqual([]);
    });

    it('a house rally-by table changes who rallies a class: class 4 only the army commander, class 5 any officer', async () => {
        const officer = unit('A.Major', { type: 'officer' }), general = unit('A.General', { type: 'commander' });
        expect([rallyNeedsCommander(officer, unit('A.x', { class: 4 })), rallyNeedsCommander(officer, unit('A.x', { class: 5 }))]).toEqual([false, true]);
        const house = with_({ rallyBy: { ...LF_SEED_TABLES.rallyBy, 'class-4': 'commander', 'class-5': 'officer' } });
        expect([rallyNeedsCommander(officer, unit('A.x', { class: 4 }), house), rallyNeedsCommander(officer, unit('A.x', { class: 5 }), house)]).toEqual([true, false]);
        expect(rallyNeedsCommander(general, unit('A.x', { class: 4 }), house)).toBe(false);
        expect(redressAllowance(4, false, house).reason).toBe('class 4 removes DPs only with the army commander (a rally)');
        const file = `rules loose-files
house {
  rally-by class-4 commander, class-5 officer
}
force Blue {
  unit Major officer { cp 6, attached Militia }
  unit Militia infantry { class 4, stands 4, dp 2 }
  unit Indians infantry { class 5, stands 4, dp 2 }
}
command Rally {
  Blue.Major rallies Blue.Militia: dp 1
  Blue.Major rallies Blue.Indians: dp 1, contact
}
`;
        const { diagnostics } = await load(file);
        expect(diagnostics.filter(d => d.startsWith(LooseFilesCodes.needsCommander))).toEqual([
            `${LooseFilesCodes.needsCommander}: Blue.Militia is class 4: only the army commander removes its DPs (L8).`
        ]);
    });
});

describe('L6.8 cavalry speed, L6 and L8.1 an officer\'s dice', () => {
    it('move-dice officer-dice: officers move that many dice, in the checks, the command move, its dice and the odds', async () => {
        const major = unit('A.Major', { type: 'officer' });
        const two = with_({ move: { ...LF_SEED_TABLES.move, 'officer-dice': 2 } });
        expect(allowedMoveDice(major).explain).toBe('an officer moves one die, average or d6');
        expect(allowedMoveDice(major, two).explain).toBe('an officer moves 2 dice, average or d6');
        const input = { unit: major, average: 1, d6: 1, plus: 0, formationChange: false };
        expect(moveDiceProblem(input)).toBeDefined();
        expect(moveDiceProblem(input, two)).toBeUndefined();
        const file = `rules loose-files
house {
  move-dice officer-dice 2
}
force Blue { unit Major officer { cp 4 } }
command Ride {
  Blue.Major: move
  dice Blue.Major average 3 4
}
move Gallop {
  Blue.Major: average 2
  dice Blue.Major average 5 5
}
`;
        const { model, diagnostics } = await load(file);
        expect(diagnostics.filter(d => !d.startsWith('lf-order-of-play'))).toEqual([]);
        expect(resolved(model, 'Ride').text).toEqual(['Blue.Major moves up to 7 inches (2 average dice: 3 4) for 1 CP  (house: move-dice officer-dice 2)']);
        expect(resolved(model, 'Gallop').json.units[0]).toMatchObject({ inches: 10 });
        const odds = oddsForAction(model, model.actions[1]);
        if (isUnresolvable(odds)) throw new Error(odds.problem);
        expect(odds.units[0].expectedDistance).toBeCloseTo(7, 12);
        // One die where the house gives two is refused, and a command move with one value entered asks for both.
        const short = await load(file.replace('average 3 4', 'average 3').replace('Blue.Major: average 2', 'Blue.Major: average 1'));
        expect(short.diagnostics).toContainEqual(expect.stringContaining('an officer moves 2 dice, average or d6, not 1 average and 0 d6'));
        expect(resolveAction(short.model, short.model.actions[0], { newSeed: () => 1 })).toMatchObject({ problem: expect.stringContaining('Blue.Major moves 2 average dice') });
    });

    it('move-dice cavalry-speed: cavalry change speed by the house\'s dice a turn', async () => {
        const file = (house: string, now: string) => `rules loose-files
${house}force Blue { unit Horse cavalry { class 2, stands 3 } }
turn 1 {
  move M { Blue.Horse: average 1 }
}
turn 2 {
  move N { Blue.Horse: ${now} }
}
`;
        const flagged = (d: readonly string[]) => d.filter(x => x.startsWith(LooseFilesCodes.cavalrySpeed));
        expect(flagged((await load(file('', 'average 2, d6 1'))).diagnostics)).toEqual([
            `${LooseFilesCodes.cavalrySpeed}: Blue.Horse moved with 1 dice in turn 1: cavalry change speed by one die a turn, so 0 to 2 here, not 3 (L6).`
        ]);
        const two = 'house {\n  move-dice cavalry-speed 2\n}\n';
        expect(flagged((await load(file(two, 'average 2, d6 1'))).diagnostics)).toEqual([]);
        expect(flagged((await load(file(two, 'average 2, d6 2'))).diagnostics)).toEqual([
            `${LooseFilesCodes.cavalrySpeed}: Blue.Horse moved with 1 dice in turn 1: cavalry change speed by 2 dice a turn, so 0 to 3 here, not 4 (L6).`
        ]);
        const none = 'house {\n  move-dice cavalry-speed 0\n}\n';
        expect(flagged((await load(file(none, 'average 2'))).diagnostics)).toEqual([
            `${LooseFilesCodes.cavalrySpeed}: Blue.Horse moved with 1 dice in turn 1: cavalry change speed by 0 dice a turn, so 1 here, not 2 (L6).`
        ]);
    });
});

describe('L6.6 a Hessian\'s dice, L4.3 the same-target bonus named', () => {
    it('move-dice hessian-average: Hessian infantry throw that many average dice, and may still add hessian-inches', () => {
        const hessian = unit('A.Hessians', { hessian: true });
        const move = (average: number, plus = 0) => ({ unit: hessian, average, d6: 0, plus, formationChange: false });
        const two = with_({ move: { ...LF_SEED_TABLES.move, 'hessian-average': 2 } });
        expect(allowedMoveDice(hessian)).toMatchObject({ average: [1], explain: 'Hessian infantry: one average die (+2")' });
        expect(allowedMoveDice(hessian, two)).toMatchObject({ average: [2], explain: 'Hessian infantry: 2 average dice (+2")' });
        expect([moveDiceProblem(move(2)), moveDiceProblem(move(2), two), moveDiceProblem(move(2, 2), two)]).toEqual([expect.stringContaining('Hessian'), undefined, undefined]);
        expect(moveDiceProblem(move(1), two)).toBeDefined();
    });

    it('a same-target line that is not the same target names the bonus in force', async () => {
        const file = (house: string) => `rules loose-files
${house}force Blue { unit Guns artillery { class 2, stands 1, guns medium } }
force Red { unit Line infantry { class 3, stands 4 } unit Foot infantry { class 3, stands 4 } }
turn 1 {
  fire First { Blue.Guns fires at Red.Line: range 12 }
}
turn 2 {
  fire Second { Blue.Guns fires at Red.Foot: range 12, same-target }
}
`;
        const message = (d: readonly string[]) => d.find(x => x.includes('\'same-target\' but'));
        expect(message((await load(file(''))).diagnostics)).toContain('the +1 is for the same target and range (L4.3)');
        expect(message((await load(file('house {\n  artillery-modifier same-target 2\n}\n'))).diagnostics)).toContain('the +2 is for the same target and range (L4.3)');
    });
});

describe('L9 Corlears Hook\'s retreat dice', () => {
    it('move-dice corlears-dice: a side retreating after a second stand-off throws that many average dice, summed', async () => {
        const file = (house: string, retreat: string) => `rules loose-files
option corlears-hook
${house}force Blue { unit Line infantry { class 3, stands 4 } }
force Red { unit Line infantry { class 3, stands 4 } }
engagement First {
  Blue.Line attacks Red.Line
  dice Blue 3
  dice Red 3
}
engagement Second {
  Blue.Line attacks Red.Line
  dice Blue 4
  dice Red 4
  dice Blue retreat ${retreat}
  dice Red retreat 2 2
}
`;
        const seed = await load(file('', '5'));
        // By the sheet each side throws one retreat die: Red's second is not used.
        expect(seed.diagnostics).toContainEqual('dice-count: This die is not used: Red throws 1 retreat die here.');
        const two = await load(file('house {\n  move-dice corlears-dice 2\n}\n', '5 3'));
        expect(two.diagnostics.filter(d => d.startsWith('dice-'))).toEqual([]);
        const r = resolved(two.model, 'Second');
        expect(r.json.units.map(u => [u.result, u.retreat])).toEqual([['stand-off', 8], ['stand-off', 4]]);
        expect(r.json.units[0].order).toBe('retreat 2 average dice (Corlears Hook: second stand-off in a row)');
        expect(r.text.find(l => l.startsWith('Attacker ±0'))).toBe('Attacker ±0: stand-off, 1 DP, 1 casualty; retreat 2 average dice (Corlears Hook: second stand-off in a row), retreats 8 inches  (house: move-dice corlears-dice 2)');
        // One die where the house asks two: the retreat is not known.
        const short = resolved((await load(file('house {\n  move-dice corlears-dice 2\n}\n', '5'))).model, 'Second');
        expect(short.json.units[0].retreat).toBeNull();
    });
});

describe('the combat breakdown names the house rows it read', () => {
    it('the strength, the outnumbering, each modifier and the inspire cost, only where a house row decided them', async () => {
        const file = (house: string) => `rules loose-files
${house}force Blue {
  unit Major officer { cp 6, attached Horse }
  unit Horse cavalry { class 3, stands 2 }
}
force Red { unit Line infantry { class 3, stands 5 } }
engagement Field {
  Blue.Horse attacks Red.Line
  Blue.Major inspires Blue.Horse
  dice Blue 3
  dice Red 3
}
`;
        const seed = resolved((await load(file(''))).model, 'Field').text;
        expect(seed.slice(0, 3)).toEqual([
            'Attacker Blue.Horse (strength 6): average die 3',
            '  +1 inspired by Blue.Major (3 CP)',
            '  total 4'
        ]);
        expect(seed.join('\n')).not.toContain('house:');
        const text = resolved((await load(file('house {\n  strength cavalry 2\n  command-cost inspire 2\n  outnumbered any -2\n}\n'))).model, 'Field').text;
        expect(text.slice(0, 4)).toEqual([
            'Attacker Blue.Horse (strength 4): average die 3  (house: strength cavalry 2)',
            '  +1 inspired by Blue.Major (2 CP)  (house: command-cost inspire 2)',
            '  -2 outnumbered (5 v 4)  (house: outnumbered any -2)',
            '  total 2'
        ]);
        // The defender's strength reads the sheet's infantry row: nothing named.
        expect(text).toContain('Defender Red.Line (strength 5): average die 3');
    });
});

describe('checks of the new rows', () => {
    it('flags outnumber ratios that do not rise with the steps, and officers or a Corlears retreat given no die (lf-house-impossible)', async () => {
        const first = await load(`rules loose-files
house {
  outnumber-ratio two-to-one 140
  move-dice officer-dice 0, corlears-dice 0, hessian-average 0
}
`);
        expect(first.diagnostics.filter(d => d.startsWith('lf-house-impossible'))).toEqual([
            'lf-house-impossible: With \'hessian-average 0\' Hessian infantry could not move at all (L6.6). Write 1 or more.',
            'lf-house-impossible: With \'officer-dice 0\' officers and commanders could never move, nor move for command points (L6, L8.1). Write 1 or more.',
            'lf-house-impossible: With \'corlears-dice 0\' a side that must retreat after a second stand-off in a row (Corlears Hook, L9) throws no die and never moves. Write 1 or more.',
            'lf-house-impossible: The ratios must rise with the steps: \'two-to-one 140\' begins no later than \'three-to-two 150\', so three-to-two never applies (L2.12: only the largest step counts). Write three-to-two below two-to-one.'
        ]);
        // 3:1 from 130%: it shadows both steps below it; an out-of-range ratio is house-value's alone.
        const { diagnostics } = await load(`rules loose-files
house {
  outnumber-ratio three-to-one 130, three-to-two 100
  pursue class-6 yes, class-2 maybe
  rally-by class-1 general
}
`);
        expect(diagnostics.filter(d => d.startsWith('lf-house-impossible'))).toEqual([
            'lf-house-impossible: The ratios must rise with the steps: \'three-to-one 130\' begins no later than \'three-to-two 150\', so three-to-two never applies (L2.12: only the largest step counts). Write three-to-two below three-to-one.',
            'lf-house-impossible: The ratios must rise with the steps: \'three-to-one 130\' begins no later than \'two-to-one 200\', so two-to-one never applies (L2.12: only the largest step counts). Write two-to-one below three-to-one.'
        ]);
        expect(diagnostics.filter(d => d.startsWith('house-key') || d.startsWith('house-value'))).toEqual([
            'house-value: \'outnumber-ratio\': 100 is out of range: its values are numbers from 101 to 1000.',
            'house-key: \'pursue\': \'class-6\' is not one of its keys (`class-1`, `class-2`, `class-3`, `class-4`, `class-5`): class-1, class-2, class-3, class-4, class-5.',
            'house-value: \'pursue\': its values are yes, no, not \'maybe\'.',
            'house-value: \'rally-by\': its values are officer, commander, not \'general\'.'
        ]);
    });
});

describe('the editor on the new rows', () => {
    const complete = async (text: string) => {
        let list: CompletionList | undefined;
        await expectCompletion(services)({ text, index: 0, assert: c => { list = c; }, disposeAfterCheck: true });
        return list?.items.map(i => i.label) ?? [];
    };

    it('completion offers the new tables, their keys and their values; the hover gives the seed\'s value replaced', async () => {
        expect(await complete('rules loose-files\nhouse {\n  <|>\n}\n')).toEqual(expect.arrayContaining(['outnumber-ratio', 'pursue', 'rally-by']));
        expect(await complete('rules loose-files\nhouse {\n  outnumber-ratio <|>\n}\n')).toEqual(expect.arrayContaining(['three-to-two', 'two-to-one', 'three-to-one']));
        expect(await complete('rules loose-files\nhouse {\n  pursue class-3 <|>\n}\n')).toEqual(expect.arrayContaining(['yes', 'no']));
        expect(await complete('rules loose-files\nhouse {\n  rally-by class-4 <|>\n}\n')).toEqual(expect.arrayContaining(['officer', 'commander']));
        expect(await complete('rules loose-files\nhouse {\n  move-dice <|>\n}\n')).toEqual(expect.arrayContaining(['cavalry-speed', 'officer-dice', 'corlears-dice', 'hessian-average']));
        const doc = await parseHelper<Scenario>(services)('rules loose-files\nhouse {\n  outnumber-ratio three-to-two 160\n  pursue class-3 yes\n}\n');
        const hover = async (word: string) => {
            const offset = doc.textDocument.getText().indexOf(word);
            return JSON.stringify((await services.lsp.HoverProvider!.getHoverContent(doc, { textDocument: { uri: doc.uri.toString() }, position: doc.textDocument.positionAt(offset + 1) }))?.contents);
        };
        expect(await hover('three-to-two')).toContain("This entry replaces the seed's `three-to-two 150`.");
        expect(await hover('class-3')).toContain("This entry replaces the seed's `class-3 no`.");
    });
});
