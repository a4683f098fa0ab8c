/**
 * The Loose Files engine (docs/rules/loose-files.md, L1–L9), case by case against the sheet (docs/rules/loose-files.md), worked
 * by hand; and the combat table against an independent enumeration of the average die's faces.
 */
import { describe, expect, it } from 'vitest';
import { AVERAGE, faceDistribution } from '../../../src/core/dice.js';
import {
    NO_HOUSE_RULES, allowedMoveDice, artilleryModifiers, chargeTooFewDice, combatModifiers, combatResultFor,
    fireBand, fireDice, fleesField, firstOverspend, inOrderOfPlay, moveDiceProblem, outOfOrder, outnumberedModifier,
    redressAllowance, resolveCombat, resolveFire, resolveMorale, resolveMove, resolveRally, resolveRedress, strength,
    type CombatInput, type CombatSide, type FireInput, type LfOptions, type LfUnit, type MoveInput
} from '../../../src/rulesets/loose-files/engine/loose-files-engine.js';
import { artilleryEffect } from '../../../src/rulesets/loose-files/engine/loose-files-tables.js';

function unit(over: Partial<LfUnit> = {}): LfUnit {
    return {
        id: 'F.U', force: 'F', unit: 'U', type: 'infantry', class: 3, formation: 'line', stands: 4, dp: 0, casualties: 0, deserted: 0,
        guns: undefined, weapon: 'musket', hessian: false, jaeger: false, militia: false, cp: 0, attached: undefined, ...over
    };
}

function side(over: Partial<CombatSide> & { unit?: Partial<LfUnit> } = {}): CombatSide {
    const { unit: u, ...rest } = over;
    return { units: [unit(u)], cover: undefined, bayonet: false, terrain: false, inspiredBy: [], flankOrRear: false, ...rest };
}

const modsOf = (s: CombatSide, e: CombatSide = side(), defending = false) => combatModifiers(s, e, defending).map(m => m.value);

describe('L1 strength', () => {
    it('counts an infantry stand 1, a cavalry stand 3, a gun 6; casualties and deserters are gone', () => {
        expect(strength(unit({ stands: 5 }))).toBe(5);
        expect(strength(unit({ type: 'cavalry', stands: 2 }))).toBe(6);
        expect(strength(unit({ type: 'artillery', stands: 2 }))).toBe(12);
        expect(strength(unit({ stands: 5, casualties: 1, deserted: 1 }))).toBe(3);
        expect(strength(unit({ type: 'officer', stands: 1 }))).toBe(0);
    });
});

describe('L2 combat modifiers, one by one', () => {
    it('+3 for each class better than the enemy, nothing for worse', () => {
        expect(combatModifiers(side({ unit: { class: 2 } }), side({ unit: { class: 4 } }), false)).toEqual([{ reason: 'class 2 v class 4: 2 better', value: 6, reads: [['combat-modifier', 'class']] }]);
        expect(modsOf(side({ unit: { class: 4 } }), side({ unit: { class: 2 } }))).toEqual([]);
    });
    it('defending a fort or stone building +3, a fieldwork or wood building +2, an obstacle nothing; only when defending', () => {
        expect(modsOf(side({ cover: 'fort' }), side(), true)).toEqual([3]);
        expect(modsOf(side({ cover: 'stone-building' }), side(), true)).toEqual([3]);
        expect(modsOf(side({ cover: 'fieldwork' }), side(), true)).toEqual([2]);
        expect(modsOf(side({ cover: 'wood-building' }), side(), true)).toEqual([2]);
        expect(modsOf(side({ cover: 'obstacle' }), side(), true)).toEqual([]);
        expect(modsOf(side({ cover: 'fort' }), side(), false)).toEqual([]);
    });
    it('bayonet attack +2, terrain advantage +1, an inspiring officer +1 (once, however many)', () => {
        expect(modsOf(side({ bayonet: true }))).toEqual([2]);
        expect(modsOf(side({ terrain: true }))).toEqual([1]);
        expect(modsOf(side({ inspiredBy: ['F.Morgan'] }))).toEqual([1]);
        expect(modsOf(side({ inspiredBy: ['F.Morgan', 'F.Howard'] }))).toEqual([1]);
    });
    it('skirmish order −3, attacked in flank or rear −3', () => {
        expect(modsOf(side({ unit: { formation: 'skirmish' } }))).toEqual([-3]);
        expect(modsOf(side({ flankOrRear: true }))).toEqual([-3]);
    });
    it('−2 for each DP and each casualty of the leading unit', () => {
        expect(combatModifiers(side({ unit: { dp: 2 } }), side(), false)).toEqual([{ reason: '2 DP', value: -4, reads: [['combat-modifier', 'dp']] }]);
        // 1 casualty leaves 3 stands against 4: outnumbered 4:3 as well.
        expect(modsOf(side({ unit: { casualties: 1 } }))).toEqual([-2, -1]);
    });
    it('outnumbered: more than 1 → −1, 3:2 → −2, 2:1 → −3, 3:1 → −5, only the largest', () => {
        expect(outnumberedModifier(4, 4)).toBeUndefined();
        expect(outnumberedModifier(4, 3)).toBeUndefined();
        expect(outnumberedModifier(4, 5)?.value).toBe(-1);
        expect(outnumberedModifier(4, 6)?.value).toBe(-2);
        expect(outnumberedModifier(4, 7)?.value).toBe(-2);
        expect(outnumberedModifier(4, 8)?.value).toBe(-3);
        expect(outnumberedModifier(4, 11)?.value).toBe(-3);
        expect(outnumberedModifier(4, 12)?.value).toBe(-5);
        expect(outnumberedModifier(1, 40)?.value).toBe(-5);
        expect(outnumberedModifier(0, 1)?.value).toBe(-5);
    });
    it('outnumbering counts cavalry ×3 and guns ×6 over every unit of the side', () => {
        // 2 cavalry stands = 6 against 4 infantry: 3:2.
        expect(modsOf(side(), side({ unit: { type: 'cavalry', stands: 2 } }))).toEqual([-2]);
        // One gun = 6 plus 4 infantry = 10 against 4: 2:1 (not 3:1).
        const guns: CombatSide = { ...side(), units: [unit(), unit({ id: 'F.G', type: 'artillery', stands: 1 })] };
        expect(modsOf(side(), guns)).toEqual([-3]);
    });
    it('adds them all up for one side', () => {
        const s = side({ unit: { class: 1, dp: 1 }, bayonet: true, terrain: true, inspiredBy: ['F.O'], flankOrRear: true });
        // +6 class, +2 bayonet, +1 terrain, +1 inspired, −3 flank, −2 DP = +5
        expect(modsOf(s, side({ unit: { class: 3 } })).reduce((a, b) => a + b, 0)).toBe(5);
    });
});

describe('L3 the results table, row by row', () => {
    it('reads each band from its own difference', () => {
        const cases: Array<[number, string]> = [
            [9, 'easy-victory'], [4, 'easy-victory'], [3, 'successful'], [2, 'successful'], [1, 'stand-off'], [0, 'stand-off'],
            [-1, 'stand-off'], [-2, 'driven-back'], [-4, 'driven-back'], [-5, 'defeated'], [-8, 'defeated'], [-9, 'routed'], [-20, 'routed']
        ];
        for (const [d, r] of cases) expect(combatResultFor(d), `difference ${d}`).toBe(r);
    });

    const fight = (a: CombatSide, d: CombatSide, dice: [number, number], options: LfOptions = NO_HOUSE_RULES, previousStandOff = false) =>
        resolveCombat({ attacker: a, defender: d, options, previousStandOff }, { attacker: dice[0], defender: dice[1] });

    it('easy victory: 1 DP, no casualty; classes 1–3 obey orders, 4–5 pursue', () => {
        // Class 2 against class 3: +3; dice 4 v 3 → 7 v 3, +4.
        const o = fight(side({ unit: { class: 2 } }), side({ unit: { class: 3 } }), [4, 3]);
        expect([o.attacker.total, o.defender.total, o.attacker.result, o.attacker.dp, o.attacker.casualties, o.attacker.order])
            .toEqual([7, 3, 'easy-victory', 1, 0, 'obey orders']);
        expect([o.defender.result, o.defender.dp, o.defender.casualties]).toEqual(['driven-back', 2, 1]);
        const militia = fight(side({ unit: { class: 4 }, bayonet: true, terrain: true }), side({ unit: { class: 4 } }), [5, 4]);
        expect([militia.attacker.difference, militia.attacker.order]).toEqual([4, 'pursue']);
    });
    it('successful: 1 DP and a casualty against infantry or artillery in the open, none against cavalry or works', () => {
        const open = fight(side(), side(), [5, 2]);
        expect([open.attacker.result, open.attacker.dp, open.attacker.casualties, open.attacker.order]).toEqual(['successful', 1, 1, 'halt one turn']);
        expect(fight(side(), side({ unit: { type: 'artillery', stands: 1 } }), [5, 2]).attacker.casualties).toBe(1);
        // Against 2 cavalry stands (6 v 4: −2 for the attacker) with a bayonet (+2): 5 v 3, +2.
        const cav = fight(side({ bayonet: true }), side({ unit: { type: 'cavalry', stands: 2 } }), [5, 3]);
        expect([cav.attacker.result, cav.attacker.casualties, cav.attacker.casualtyNote]).toEqual(['successful', 0, 'no casualty: the enemy is cavalry']);
        // The defender in a fieldwork (+2): attacker 5+2+3 (bayonet, terrain) = ... worked: 5 +2 bayonet +1 terrain = 8 v 2 +2 = 4.
        const works = fight(side({ bayonet: true, terrain: true }), side({ cover: 'fieldwork' }), [5, 2]);
        expect([works.attacker.total, works.defender.total, works.attacker.result, works.attacker.casualties]).toEqual([8, 4, 'easy-victory', 0]);
        const works2 = fight(side({ bayonet: true }), side({ cover: 'fieldwork' }), [5, 3]);
        expect([works2.attacker.difference, works2.attacker.result, works2.attacker.casualties]).toEqual([2, 'successful', 0]);
    });
    it('stand-off: 1 DP and a casualty, except infantry facing cavalry, facing a bayonet attack, or in works', () => {
        const plain = fight(side(), side(), [3, 3]);
        expect([plain.attacker.result, plain.attacker.dp, plain.attacker.casualties, plain.defender.casualties]).toEqual(['stand-off', 1, 1, 1]);
        // Infantry (4 stands) against 2 cavalry stands (6, 3:2 → −2 for the infantry); dice 5 v 3 → 3 v 3.
        const cav = fight(side({ unit: { type: 'cavalry', stands: 2 } }), side(), [3, 5]);
        expect([cav.attacker.result, cav.attacker.casualties, cav.defender.casualties, cav.defender.casualtyNote])
            .toEqual(['stand-off', 1, 0, 'no casualty: infantry facing cavalry']);
        const bayonet = fight(side({ bayonet: true }), side(), [2, 4]);
        expect([bayonet.defender.result, bayonet.defender.casualties, bayonet.attacker.casualties]).toEqual(['stand-off', 0, 1]);
        const fort = fight(side({ terrain: true }), side({ cover: 'fort' }), [5, 3]);
        expect([fort.attacker.total, fort.defender.total, fort.defender.casualties, fort.attacker.casualties]).toEqual([6, 6, 0, 1]);
        expect(fight(side(), side(), [3, 3]).attacker.order).toBe('halt; the fight continues next turn');
    });
    it('driven back (−2..−4): 2 DPs, 1 casualty, retreat one move at full speed', () => {
        const o = fight(side(), side(), [2, 4]);
        expect([o.attacker.difference, o.attacker.result, o.attacker.dp, o.attacker.casualties, o.attacker.order])
            .toEqual([-2, 'driven-back', 2, 1, 'retreat one move at full speed']);
    });
    it('defeated (−5..−8): 2 DPs, 2 casualties, retreat behind the next friendly line', () => {
        const o = fight(side({ unit: { class: 4 } }), side({ unit: { class: 3 } }), [2, 4]);
        expect([o.attacker.difference, o.attacker.result, o.attacker.dp, o.attacker.casualties]).toEqual([-5, 'defeated', 2, 2]);
        expect(o.attacker.order).toMatch(/^retreat at full speed behind the next friendly line/);
    });
    it('routed (−9 or worse): 4 DPs, 2 casualties, run beyond artillery range', () => {
        const o = fight(side({ unit: { class: 5 } }), side({ unit: { class: 3 } }), [2, 5]);
        expect([o.attacker.difference, o.attacker.result, o.attacker.dp, o.attacker.casualties]).toEqual([-9, 'routed', 4, 2]);
        expect(o.attacker.order).toMatch(/^run at full speed beyond enemy artillery range/);
    });
    it('supporting units count for strength and take the DPs; casualties fall on the leading unit', () => {
        const two: CombatSide = { ...side(), units: [unit({ id: 'F.A' }), unit({ id: 'F.B' })] };
        const o = fight(two, side({ unit: { id: 'G.C', force: 'G' } }), [4, 4]);
        // 8 v 4 → the defender is outnumbered 2:1 (−3): 4 v 1, +3 → successful.
        expect([o.attacker.strength, o.attacker.total, o.defender.total, o.attacker.result]).toEqual([8, 4, 1, 'successful']);
    });
    it('rejects a face an average die cannot show', () => {
        expect(() => fight(side(), side(), [1, 3])).toThrow(/average die cannot show 1/);
        expect(() => fight(side(), side(), [3, 6])).toThrow(/average die cannot show 6/);
    });

    it('agrees with an enumeration of the average die: P(+3 side wins by 4 or more) = P(a > d) = 13/36', () => {
        const faces = faceDistribution(AVERAGE);
        expect(faces.map(f => f.face)).toEqual([2, 3, 4, 5]);
        let p = 0;
        for (const a of faces) for (const d of faces) {
            const o = fight(side({ unit: { class: 2 } }), side({ unit: { class: 3 } }), [a.face, d.face]);
            if (o.attacker.result === 'easy-victory') p += a.p * d.p;
            // The two rows always mirror: one side's difference is minus the other's.
            expect(o.attacker.difference + o.defender.difference).toBe(0);
            expect(o.attacker.difference).toBe(a.face + 3 - d.face);
        }
        expect(p).toBeCloseTo(13 / 36, 12);
    });
});

describe('L9 house rules in combat', () => {
    const corlears: LfOptions = { ...NO_HOUSE_RULES, corlearsHook: true };
    const input = (options: LfOptions, previousStandOff: boolean, defender = side()): CombatInput =>
        ({ attacker: side(), defender, options, previousStandOff });

    it('Corlears Hook: after a second stand-off in a row both sides retreat one average die', () => {
        const o = resolveCombat(input(corlears, true), { attacker: 3, defender: 3, attackerRetreat: 4, defenderRetreat: 2 });
        expect([o.attacker.corlearsRetreat, o.defender.corlearsRetreat]).toEqual([{ inches: 4 }, { inches: 2 }]);
        expect(o.attacker.order).toMatch(/^retreat one average die/);
    });
    it('Corlears Hook: not on a first stand-off, not with the option off, not for a side defending works', () => {
        expect(resolveCombat(input(corlears, false), { attacker: 3, defender: 3 }).attacker.corlearsRetreat).toBeUndefined();
        expect(resolveCombat(input(NO_HOUSE_RULES, true), { attacker: 3, defender: 3 }).attacker.corlearsRetreat).toBeUndefined();
        const o = resolveCombat(input(corlears, true, side({ cover: 'obstacle' })), { attacker: 3, defender: 3, attackerRetreat: 5 });
        expect([o.attacker.corlearsRetreat, o.defender.corlearsRetreat]).toEqual([{ inches: 5 }, undefined]);
    });
    it('flee-losses: militia at half losses and others at three quarters flee; off, nobody flees', () => {
        expect(fleesField({ stands: 6, casualties: 2, deserted: 1, militia: true })).toBe(true);
        expect(fleesField({ stands: 6, casualties: 2, deserted: 0, militia: true })).toBe(false);
        expect(fleesField({ stands: 4, casualties: 3, deserted: 0, militia: false })).toBe(true);
        expect(fleesField({ stands: 4, casualties: 2, deserted: 0, militia: false })).toBe(false);
        const flee: LfOptions = { ...NO_HOUSE_RULES, fleeLosses: true };
        const militia = side({ unit: { id: 'G.M', class: 5, militia: true, stands: 4, casualties: 0 } });
        // Routed (−9): 2 casualties of 4 stands is half: the militia flee.
        const on = resolveCombat({ attacker: side({ unit: { class: 3 } }), defender: militia, options: flee, previousStandOff: false }, { attacker: 5, defender: 2 });
        expect([on.defender.result, on.defender.fled]).toEqual(['routed', ['G.M']]);
        const off = resolveCombat({ attacker: side({ unit: { class: 3 } }), defender: militia, options: NO_HOUSE_RULES, previousStandOff: false }, { attacker: 5, defender: 2 });
        expect(off.defender.fled).toEqual([]);
    });
});

describe('L4 artillery fire', () => {
    const gun = (over: Partial<LfUnit> = {}) => unit({ id: 'B.Guns', type: 'artillery', formation: 'unlimbered', guns: 'medium', stands: 2, ...over });
    const fire = (over: Partial<FireInput> = {}): FireInput => ({
        firer: gun(), target: unit({ id: 'A.Line', force: 'A' }), range: 12, sameTarget: false, newTarget: false, moved: false,
        targetCover: undefined, options: NO_HOUSE_RULES, ...over
    });
    const values = (i: FireInput) => artilleryModifiers(i).map(m => m.value);

    it('has every modifier of the sheet', () => {
        expect(values(fire({ firer: gun({ guns: 'heavy' }) }))).toEqual([1]);
        expect(values(fire({ target: unit({ formation: 'column' }) }))).toEqual([1]);
        expect(values(fire({ target: unit({ type: 'artillery', formation: 'limbered' }) }))).toEqual([1]);
        expect(values(fire({ sameTarget: true }))).toEqual([1]);
        expect(values(fire({ newTarget: true }))).toEqual([-1]);
        expect(values(fire({ firer: gun({ dp: 2 }) }))).toEqual([-2]);
        expect(values(fire({ firer: gun({ guns: 'light' }) }))).toEqual([-1]);
        expect(values(fire({ targetCover: 'fieldwork' }))).toEqual([-2]);
        expect(values(fire({ targetCover: 'stone-building' }))).toEqual([-2]);
        expect(values(fire({ targetCover: 'wood-building' }))).toEqual([]);
        expect(values(fire({ target: unit({ formation: 'skirmish' }) }))).toEqual([-2]);
        expect(values(fire({ target: unit({ type: 'artillery', formation: 'unlimbered' }) }))).toEqual([-2]);
        expect(values(fire())).toEqual([]);
    });
    it('reads close under 10", long to 30" (light) or 36" (medium, heavy)', () => {
        expect(fireBand(gun({ guns: 'light' }), 9)).toBe('close');
        expect(fireBand(gun({ guns: 'light' }), 10)).toBe('long');
        expect(fireBand(gun({ guns: 'light' }), 30)).toBe('long');
        expect(fireBand(gun({ guns: 'light' }), 31)).toBe('out-of-range');
        expect(fireBand(gun({ guns: 'medium' }), 36)).toBe('long');
        expect(fireBand(gun({ guns: 'heavy' }), 36)).toBe('long');
        expect(fireBand(gun({ guns: 'heavy' }), 37)).toBe('out-of-range');
    });
    it('long table: 4 or more is 1 DP', () => {
        expect([3, 4, 5, 6, 8].map(v => artilleryEffect('long', v))).toEqual([
            { dp: 0, casualties: 0 }, { dp: 1, casualties: 0 }, { dp: 1, casualties: 0 }, { dp: 1, casualties: 0 }, { dp: 1, casualties: 0 }
        ]);
    });
    it('close table: 2–3 is 1 DP, 4–5 is 2 DPs, 6 or more is 1 DP and 1 casualty', () => {
        expect([0, 1, 2, 3, 4, 5, 6, 7].map(v => artilleryEffect('close', v))).toEqual([
            { dp: 0, casualties: 0 }, { dp: 0, casualties: 0 }, { dp: 1, casualties: 0 }, { dp: 1, casualties: 0 },
            { dp: 2, casualties: 0 }, { dp: 2, casualties: 0 }, { dp: 1, casualties: 1 }, { dp: 1, casualties: 1 }
        ]);
    });
    it('throws one d6 per gun and sums the table', () => {
        // Heavy guns at 8" on a column: +2 each; dice 4, 2 → 6 (1 DP, 1 cas.), 4 (2 DP).
        const o = resolveFire(fire({ firer: gun({ guns: 'heavy' }), target: unit({ formation: 'column' }), range: 8 }), { d6: [4, 2], reroll: [] });
        expect([o.band, o.dice.map(d => d.modified), o.dp, o.casualties, o.result]).toEqual(['close', [6, 4], 3, 1, 'casualty']);
        const miss = resolveFire(fire({ range: 20 }), { d6: [3, 2], reroll: [] });
        expect([miss.band, miss.dp, miss.result]).toEqual(['long', 0, 'no-effect']);
    });
    it('throws nothing out of range', () => {
        expect(fireDice(fire({ range: 40 })).count).toBe(0);
    });
});

describe('L5 infantry fire', () => {
    const fire = (over: Partial<FireInput> = {}): FireInput => ({
        firer: unit({ id: 'A.Line', force: 'A', stands: 5 }), target: unit({ id: 'B.Line', force: 'B' }), range: 6,
        sameTarget: false, newTarget: false, moved: false, targetCover: undefined, options: NO_HOUSE_RULES, ...over
    });
    it('reaches 8" with a musket and 10" with a rifle', () => {
        expect(fireBand(unit(), 8)).toBe('musket');
        expect(fireBand(unit(), 9)).toBe('out-of-range');
        expect(fireBand(unit({ weapon: 'rifle' }), 10)).toBe('rifle');
        expect(fireBand(unit({ weapon: 'rifle' }), 11)).toBe('out-of-range');
    });
    it('throws a d6 per stand less DPs, halved (up) against skirmishers or unlimbered guns, halved again in works', () => {
        expect(fireDice(fire()).count).toBe(5);
        expect(fireDice(fire({ firer: unit({ stands: 5, dp: 2 }) })).count).toBe(3);
        expect(fireDice(fire({ firer: unit({ stands: 5, dp: 2 }), target: unit({ formation: 'skirmish' }) })).count).toBe(2);
        expect(fireDice(fire({ target: unit({ type: 'artillery', formation: 'unlimbered' }) })).count).toBe(3);
        expect(fireDice(fire({ target: unit({ formation: 'skirmish' }), targetCover: 'fieldwork' })).count).toBe(2);
        expect(fireDice(fire({ targetCover: 'wood-building' })).count).toBe(3);
        expect(fireDice(fire({ targetCover: 'obstacle' })).count).toBe(5);
        expect(fireDice(fire({ firer: unit({ stands: 2, dp: 3 }) })).count).toBe(0);
    });
    it('each 6 is a DP; formed troops do not re-roll fives', () => {
        const o = resolveFire(fire(), { d6: [6, 5, 6, 1, 3], reroll: [] });
        expect([o.dp, o.casualties, o.result]).toEqual([2, 0, 'disordered']);
    });
    it('skirmishers throw again for each 5: 4, 5 or 6 is a DP', () => {
        const skirm = fire({ firer: unit({ stands: 4, formation: 'skirmish' }) });
        const o = resolveFire(skirm, { d6: [5, 5, 6, 1], reroll: [4, 3] });
        expect([o.dp, o.rerolls.map(r => r.dp)]).toEqual([2, [1, 0]]);
        expect(() => resolveFire(skirm, { d6: [5, 5, 6, 1], reroll: [4] })).toThrow(/2 re-rolls/);
    });
});

describe('fire against an enumeration of every throw', () => {
    const input = (firer: LfUnit): FireInput => ({
        firer, target: unit({ id: 'B.Line', force: 'B' }), range: 5, sameTarget: false, newTarget: false, moved: false,
        targetCover: undefined, options: NO_HOUSE_RULES
    });
    /** Every sequence of `n` d6 faces. */
    const throws = (n: number): number[][] => (n === 0 ? [[]] : throws(n - 1).flatMap(t => [1, 2, 3, 4, 5, 6].map(f => [...t, f])));

    it('formed infantry: expected DPs are 1/6 a die (one in six is a 6)', () => {
        let total = 0;
        const all = throws(3);
        for (const t of all) total += resolveFire(input(unit({ stands: 3 })), { d6: t, reroll: [] }).dp;
        expect(total / all.length).toBeCloseTo(3 / 6, 12);
    });
    it('skirmishers: 1/6 + 1/6 × 1/2 = 1/4 a die, over every throw and every re-roll', () => {
        let total = 0, weight = 0;
        for (const t of throws(2)) {
            const fives = t.filter(v => v === 5).length;
            for (const r of throws(fives)) {
                const w = 6 ** -(t.length + r.length);
                total += w * resolveFire(input(unit({ stands: 2, formation: 'skirmish' })), { d6: t, reroll: r }).dp;
                weight += w;
            }
        }
        expect(weight).toBeCloseTo(1, 12);
        expect(total).toBeCloseTo(2 / 4, 12);
    });
    it('artillery at close range, no modifier: (0+1+1+2+2+1)/6 = 7/6 DP and 1/6 casualty a gun', () => {
        const gun = unit({ type: 'artillery', guns: 'medium', stands: 1, formation: 'unlimbered' });
        const outcomes = [1, 2, 3, 4, 5, 6].map(v => resolveFire(input(gun), { d6: [v], reroll: [] }));
        expect(outcomes.reduce((s, o) => s + o.dp, 0) / 6).toBeCloseTo(7 / 6, 12);
        expect(outcomes.reduce((s, o) => s + o.casualties, 0) / 6).toBeCloseTo(1 / 6, 12);
    });
});

describe('L6 movement', () => {
    const move = (over: Partial<MoveInput> = {}): MoveInput => ({
        unit: unit(), average: 1, d6: 0, plus: 0, woods: false, uphill: false, charging: false, wheel: false, formationChange: false,
        retire: false, underFire: false, stop: undefined, options: NO_HOUSE_RULES, ...over
    });
    it('allows the dice of the sheet by class and type', () => {
        expect(moveDiceProblem(move({ average: 2 }))).toBeUndefined();
        expect(moveDiceProblem(move({ average: 3 }))).toMatch(/one or two average dice/);
        expect(moveDiceProblem(move({ average: 1, d6: 1 }))).toBeDefined();
        expect(moveDiceProblem(move({ unit: unit({ class: 4 }), average: 1, d6: 1 }))).toBeUndefined();
        expect(moveDiceProblem(move({ unit: unit({ class: 5 }), average: 2 }))).toBeDefined();
        expect(moveDiceProblem(move({ unit: unit({ formation: 'skirmish' }), average: 2, d6: 1 }))).toBeUndefined();
        expect(moveDiceProblem(move({ unit: unit({ formation: 'skirmish', class: 4 }), average: 1, d6: 2 }))).toBeUndefined();
        expect(moveDiceProblem(move({ unit: unit({ type: 'cavalry', class: 2 }), average: 2, d6: 2 }))).toBeUndefined();
        expect(moveDiceProblem(move({ unit: unit({ type: 'cavalry', class: 2 }), average: 2, d6: 3 }))).toBeDefined();
        expect(moveDiceProblem(move({ unit: unit({ hessian: true }), average: 1, plus: 2 }))).toBeUndefined();
        expect(moveDiceProblem(move({ unit: unit({ hessian: true }), average: 2 }))).toMatch(/Hessian/);
        expect(moveDiceProblem(move({ unit: unit({ hessian: true, jaeger: true }), average: 2 }))).toBeUndefined();
        expect(moveDiceProblem(move({ plus: 2 }))).toMatch(/only Hessian/);
        expect(moveDiceProblem(move({ unit: unit({ type: 'officer' }), average: 0, d6: 1 }))).toBeUndefined();
        expect(moveDiceProblem(move({ unit: unit({ type: 'officer' }), average: 1, d6: 1 }))).toBeDefined();
        expect(allowedMoveDice(unit({ type: 'cavalry', class: 4 })).maxD6).toBe(3);
    });
    it('charging cavalry throw at least 3 dice', () => {
        const cav = unit({ type: 'cavalry', class: 2 });
        expect(chargeTooFewDice(move({ unit: cav, average: 2, charging: true }))).toBe(true);
        expect(chargeTooFewDice(move({ unit: cav, average: 2, d6: 1, charging: true }))).toBe(false);
        expect(chargeTooFewDice(move({ unit: cav, average: 2 }))).toBe(false);
        expect(chargeTooFewDice(move({ average: 1, charging: true }))).toBe(false);
    });
    it('moves the sum of the dice; formed troops gain a DP for each d6 of 1 or 2', () => {
        const o = resolveMove(move({ unit: unit({ class: 4 }), average: 1, d6: 1 }), { average: [3], d6: [2] });
        expect([o.inches, o.dp, o.result, o.order]).toEqual([5, 1, 'moved', 'may move up to 5 inches']);
        const cav = resolveMove(move({ unit: unit({ type: 'cavalry', class: 2 }), average: 2, d6: 2 }), { average: [5, 4], d6: [1, 3] });
        expect([cav.inches, cav.dp]).toEqual([13, 1]);
        const skirm = resolveMove(move({ unit: unit({ formation: 'skirmish' }), average: 2, d6: 1 }), { average: [2, 2], d6: [1] });
        expect([skirm.inches, skirm.dp]).toEqual([5, 0]);
    });
    it('woods and uphill take 1" from each die; in woods a 3 disorders too', () => {
        const woods = resolveMove(move({ unit: unit({ class: 4 }), d6: 1, woods: true }), { average: [4], d6: [3] });
        expect([woods.inches, woods.dp]).toEqual([5, 1]);
        const up = resolveMove(move({ unit: unit({ class: 4 }), d6: 1, uphill: true }), { average: [4], d6: [3] });
        expect([up.inches, up.dp]).toEqual([5, 0]);
        const both = resolveMove(move({ unit: unit({ class: 4 }), d6: 1, woods: true, uphill: true }), { average: [2], d6: [1] });
        expect([both.inches, both.dp]).toEqual([0, 1]);
    });
    it('wheeling 1 DP; changing formation takes the turn and 1 DP, 2 under fire', () => {
        expect(resolveMove(move({ wheel: true }), { average: [4], d6: [] }).dp).toBe(1);
        const change = resolveMove(move({ formationChange: true }), { average: [], d6: [] });
        expect([change.result, change.inches, change.dp]).toEqual(['changed-formation', 0, 1]);
        expect(resolveMove(move({ formationChange: true, underFire: true }), { average: [], d6: [] }).dp).toBe(2);
    });
    it('retiring facing the enemy: half move (down), 1 DP for cavalry or under fire', () => {
        const inf = resolveMove(move({ average: 2, retire: true }), { average: [4, 5], d6: [] });
        expect([inf.result, inf.inches, inf.dp]).toEqual(['retired', 4, 0]);
        expect(resolveMove(move({ average: 2, retire: true, underFire: true }), { average: [4, 5], d6: [] }).dp).toBe(1);
        expect(resolveMove(move({ unit: unit({ type: 'cavalry' }), average: 2, retire: true }), { average: [4, 5], d6: [] }).dp).toBe(1);
    });
    it('Hessians add 2" to one average die', () => {
        expect(resolveMove(move({ unit: unit({ hessian: true }), plus: 2 }), { average: [3], d6: [] }).inches).toBe(5);
    });
    it('full-move house rule: the distance is a duty unless a stopping point is named', () => {
        const on: LfOptions = { ...NO_HOUSE_RULES, fullMove: true };
        expect(resolveMove(move({ options: on }), { average: [4], d6: [] }).order).toBe('must move the full 4 inches');
        expect(resolveMove(move({ options: on, stop: 'the fence' }), { average: [4], d6: [] }).order).toBe('moves up to 4 inches, stopping at the fence');
        expect(resolveMove(move(), { average: [4], d6: [] }).order).toBe('may move up to 4 inches');
    });
});

describe('L7 morale', () => {
    const see = (observerClass: number, friendClass: number, event: 'retreats' | 'routs', over: Partial<Parameters<typeof resolveMorale>[0]> = {}) =>
        resolveMorale({ observer: unit({ class: observerClass }), friend: unit({ id: 'F.V', class: friendClass }), event, distance: undefined, friendFled: false, options: NO_HOUSE_RULES, ...over });
    it('follows the sheet row by row', () => {
        const rows = [
            see(3, 4, 'retreats'), see(3, 4, 'routs'), see(3, 3, 'retreats'), see(3, 2, 'retreats'), see(3, 3, 'routs'), see(3, 2, 'routs')
        ].map(o => [o.result, o.dp, o.deserted]);
        expect(rows).toEqual([
            ['unmoved', 0, 0], ['disordered', 1, 0], ['disordered', 2, 0], ['disordered', 2, 0], ['stand-deserts', 2, 1], ['stand-deserts', 3, 1]
        ]);
    });
    it('ignores friends further than 6", and (flee-losses) friends who fled the field', () => {
        expect(see(3, 3, 'routs', { distance: 6 }).dp).toBe(2);
        expect(see(3, 3, 'routs', { distance: 7 }).dp).toBe(0);
        expect(see(3, 3, 'routs', { friendFled: true }).dp).toBe(2);
        expect(see(3, 3, 'routs', { friendFled: true, options: { ...NO_HOUSE_RULES, fleeLosses: true } }).dp).toBe(0);
    });
    it('flee-losses: a desertion can make the observer flee', () => {
        const o = resolveMorale({ observer: unit({ stands: 2, casualties: 1, militia: true }), friend: unit({ class: 3 }), event: 'routs', distance: undefined, friendFled: false, options: { ...NO_HOUSE_RULES, fleeLosses: true } });
        expect([o.deserted, o.fled]).toEqual([1, true]);
    });
});

describe('L8 re-dressing, rallies and command points', () => {
    it('removes DPs by class when stationary and out of combat', () => {
        const r = (cls: number, dp: number, over: { moved?: boolean, inCombat?: boolean, shotAt?: boolean } = {}) =>
            resolveRedress({ unit: unit({ class: cls, dp }), moved: false, inCombat: false, shotAt: false, ...over }).removed;
        expect([r(1, 3), r(1, 1), r(2, 3), r(3, 3), r(3, 3, { shotAt: true }), r(4, 3), r(5, 3)]).toEqual([2, 1, 1, 1, 0, 0, 0]);
        expect([r(1, 3, { moved: true }), r(1, 3, { inCombat: true }), r(2, 0)]).toEqual([0, 0, 0]);
        expect(redressAllowance(4, false).reason).toMatch(/officer/);
    });
    it('rallies 1 DP per 2 CP, up to the DPs the unit has; class 5 only by the army commander', () => {
        const officer = unit({ type: 'officer', cp: 4 });
        expect(resolveRally({ officer, unit: unit({ class: 4, dp: 3 }), dp: 2 })).toEqual({ removed: 2, cp: 4, problem: undefined });
        expect(resolveRally({ officer, unit: unit({ class: 4, dp: 1 }), dp: 2 })).toMatchObject({ removed: 1, cp: 2 });
        expect(resolveRally({ officer, unit: unit({ class: 5, dp: 2 }), dp: 1 })).toMatchObject({ removed: 0, cp: 0 });
        expect(resolveRally({ officer: unit({ type: 'commander' }), unit: unit({ class: 5, dp: 2 }), dp: 1 })).toMatchObject({ removed: 1, cp: 2 });
    });
    it('finds the first use that passes the command points', () => {
        expect(firstOverspend(6, [1, 3, 2])).toBe(-1);
        expect(firstOverspend(6, [1, 3, 2, 2])).toBe(3);
        expect(firstOverspend(2, [3])).toBe(0);
    });
});

describe('the order of play', () => {
    it('flags an action after a later phase and sorts a turn into the sheet\'s order', () => {
        expect(outOfOrder(['morale', 'fire', 'command', 'move', 'engagement', 'redress'])).toEqual([]);
        expect(outOfOrder(['fire', 'move', 'morale', 'engagement', 'fire'])).toEqual([2, 4]);
        expect(inOrderOfPlay(['engagement', 'fire', 'redress', 'move', 'morale', 'command', 'fire'], k => k))
            .toEqual(['morale', 'fire', 'fire', 'command', 'move', 'engagement', 'redress']);
    });
});
