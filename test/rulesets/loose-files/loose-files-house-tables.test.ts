/**
 * Loose Files' fire, movement, morale and re-dress tables as house rules (docs/house-rules.md#loose-files,
 * L4–L8): each table overridden changes resolve, and the exact odds agree with every throw through the
 * resolver under random house tables; the checks flag a table that makes a rule impossible; the
 * breakdown names the house row that applied.
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { AVERAGE, D6 } from '../../../src/core/dice.js';
import { LF_SEED_TABLES, type LfCombatTables } from '../../../src/rulesets/loose-files/engine/loose-files-tables.js';
import { NO_HOUSE_RULES, type LfUnit } from '../../../src/rulesets/loose-files/engine/loose-files-units.js';
import { artilleryModifiers, fireDice, rerollsFor, resolveFire, type FireInput } from '../../../src/rulesets/loose-files/engine/loose-files-fire.js';
import { allowedMoveDice, chargeTooFewDice, moveDiceCounts, moveDiceProblem, resolveMove, type MoveInput } from '../../../src/rulesets/loose-files/engine/loose-files-movement.js';
import { resolveMorale } from '../../../src/rulesets/loose-files/engine/loose-files-morale.js';
import { resolveRally, resolveRedress } from '../../../src/rulesets/loose-files/engine/loose-files-command.js';
import { fireOdds, moveOdds } from '../../../src/rulesets/loose-files/engine/loose-files-odds.js';
import { loadText } from '../../../src/cli/load.js';
import { modelOf } from '../../../src/core/model-cache.js';
import { isUnresolvable, resolveAction } from '../../../src/core/resolve.js';
import { oddsForAction } from '../../../src/core/odds.js';

const unit = (id: string, over: Partial<LfUnit> = {}): LfUnit => ({
    id, force: id.split('.')[0], unit: id.split('.')[1], type: 'infantry', class: 3, formation: 'line', stands: 4, dp: 0, casualties: 0,
    deserted: 0, guns: undefined, weapon: 'musket', hessian: false, jaeger: false, militia: false, cp: 0, attached: undefined, ...over
});
const fire = (firer: LfUnit, target: LfUnit, range: number, over: Partial<FireInput> = {}): FireInput => ({
    firer, target, range, sameTarget: false, newTarget: false, moved: false, targetCover: undefined, options: NO_HOUSE_RULES, ...over
});
const move = (u: LfUnit, over: Partial<MoveInput> = {}): MoveInput => ({
    unit: u, average: 1, d6: 0, plus: 0, woods: false, uphill: false, charging: false, wheel: false, formationChange: false,
    retire: false, underFire: false, stop: undefined, options: NO_HOUSE_RULES, ...over
});
const with_ = (over: Partial<LfCombatTables>): LfCombatTables => ({ ...LF_SEED_TABLES, ...over });

/** Every throw of a fire through `resolveFire`: P(dp = k), P(casualties = k). */
function bruteFire(input: FireInput, tables: LfCombatTables): { dp: number[], cas: number[] } {
    const n = fireDice(input, tables).count;
    const dp: number[] = [], cas: number[] = [];
    const add = (arr: number[], k: number, p: number) => { arr[k] = (arr[k] ?? 0) + p; };
    const walkRerolls = (d6: number[], reroll: number[], m: number, p: number) => {
        if (reroll.length === m) {
            const o = resolveFire(input, { d6, reroll }, tables);
            add(dp, o.dp, p); add(cas, o.casualties, p);
            return;
        }
        for (const f of D6.faces) walkRerolls(d6, [...reroll, f], m, p / 6);
    };
    const walk = (d6: number[], p: number) => {
        if (d6.length === n) return walkRerolls(d6, [], rerollsFor(input, d6, tables), p);
        for (const f of D6.faces) walk([...d6, f], p / 6);
    };
    walk([], 1);
    return { dp, cas };
}

const close = (a: readonly number[], b: readonly number[]) => {
    for (let k = 0; k < Math.max(a.length, b.length); k++) expect(Math.abs((a[k] ?? 0) - (b[k] ?? 0)), `at ${k}`).toBeLessThanOrEqual(1e-12);
};

/** A banded table over every score: cut points, each band with a value. */
const bandsArb = (max: number) => fc.record({
    cuts: fc.uniqueArray(fc.integer({ min: -2, max: 9 }), { minLength: 1, maxLength: 4 }),
    values: fc.array(fc.integer({ min: 0, max: max }), { minLength: 5, maxLength: 5 })
}).map(({ cuts, values }) => {
    const starts = cuts.sort((a, b) => a - b);
    return [{ band: { from: null, to: starts[0] - 1 }, value: values[0] },
        ...starts.map((from, i) => ({ band: { from, to: i + 1 < starts.length ? starts[i + 1] - 1 : null }, value: values[i + 1] }))];
});

describe('L4, L5 fire tables', () => {
    const gun = unit('B.Guns', { type: 'artillery', formation: 'unlimbered', guns: 'medium', stands: 2 });
    const line = unit('A.Line', { stands: 3 });

    it('a house artillery table changes what each die does, close and long', () => {
        const house = with_({ artillery: { ...LF_SEED_TABLES.artillery, closeDp: [{ band: { from: null, to: 3 }, value: 0 }, { band: { from: 4, to: null }, value: 3 }], longDp: [{ band: { from: null, to: 4 }, value: 0 }, { band: { from: 5, to: null }, value: 2 }] } });
        expect(resolveFire(fire(gun, line, 5), { d6: [4, 3], reroll: [] }).dp).toBe(3);
        expect(resolveFire(fire(gun, line, 5), { d6: [4, 3], reroll: [] }, house).dp).toBe(3 + 0);
        expect(resolveFire(fire(gun, line, 5), { d6: [6, 2], reroll: [] }, house).dp).toBe(3);
        expect(resolveFire(fire(gun, line, 20), { d6: [4, 5], reroll: [] }).dp).toBe(2);
        expect(resolveFire(fire(gun, line, 20), { d6: [4, 5], reroll: [] }, house).dp).toBe(2);
        expect(resolveFire(fire(gun, line, 20), { d6: [4, 6], reroll: [] }, house).dp).toBe(2);
        expect(resolveFire(fire(gun, line, 20), { d6: [4, 4], reroll: [] }, house).dp).toBe(0);
    });

    it('a house artillery-modifier table changes each die\'s score, and the odds read it', () => {
        const heavy = unit('B.Guns', { type: 'artillery', formation: 'unlimbered', guns: 'heavy', stands: 2, dp: 2 });
        const column = unit('A.Column', { formation: 'column', stands: 3 });
        const input = fire(heavy, column, 20, { newTarget: true });
        const house = with_({ artilleryModifiers: { ...LF_SEED_TABLES.artilleryModifiers, heavy: 2, column: 0, 'new-target': 0, dp: -2 } });
        expect(artilleryModifiers(input).map(m => m.value)).toEqual([1, 1, -1, -2]);
        expect(artilleryModifiers(input, house).map(m => [m.reason, m.value])).toEqual([
            ['heavy gun', 2], ['target in column', 0], ['new target', 0], ['2 DP on the firing guns', -4]]);
        // At long range (4 or more hits) the sheet's −1 lets a 5 or 6 hit; the house's −2 only a 6.
        expect(resolveFire(input, { d6: [6, 5], reroll: [] }).dp).toBe(2);
        expect(resolveFire(input, { d6: [6, 5], reroll: [] }, house).dp).toBe(1);
        expect(resolveFire(input, { d6: [6, 5], reroll: [] }, house).dice.map(d => d.modified)).toEqual([4, 3]);
        expect(fireOdds(input).expectedDp).toBeCloseTo(2 * 2 / 6, 12);
        expect(fireOdds(input, house).expectedDp).toBeCloseTo(2 * 1 / 6, 12);
    });

    it('a house infantry-fire table moves the hit, the re-roll and the re-roll\'s hit', () => {
        const house = with_({ infantry: { hit: 5, reroll: 4, 'reroll-hit': 6 } });
        const skirm = unit('A.Lights', { formation: 'skirmish', stands: 3 });
        const input = fire(skirm, unit('B.Line', { force: 'B' }), 5);
        expect(rerollsFor(input, [5, 4, 1])).toBe(1);
        expect(rerollsFor(input, [5, 4, 1], house)).toBe(1);
        expect(resolveFire(input, { d6: [5, 4, 1], reroll: [5] }).dp).toBe(1);
        expect(resolveFire(input, { d6: [5, 4, 1], reroll: [5] }, house).dp).toBe(1);
        expect(resolveFire(input, { d6: [5, 4, 1], reroll: [6] }, house).dp).toBe(2);
    });

    it('a house infantry-dice table changes the dice lost to DPs and the shares thrown at skirmishers, guns and works', () => {
        const house = with_({ infantryDice: { dp: 2, 'skirmish-percent': 25, 'unlimbered-percent': 100, 'works-percent': 50 } });
        const foot = unit('B.Foot', { stands: 6, dp: 1 });
        const skirm = unit('A.Lights', { formation: 'skirmish' }), guns = unit('A.Guns', { type: 'artillery', formation: 'unlimbered', guns: 'light' });
        expect(fireDice(fire(foot, skirm, 5))).toEqual({ count: 3, steps: ['6 stands − 1 DP = 5', 'halved against skirmishers: 3'] });
        expect(fireDice(fire(foot, skirm, 5), house)).toEqual({ count: 1, steps: ['6 stands − 1 DP × 2 = 4', '25% (rounded up) against skirmishers: 1'] });
        expect(fireDice(fire(foot, guns, 5, { targetCover: 'fieldwork' }))).toMatchObject({ count: 2 });
        expect(fireDice(fire(foot, guns, 5, { targetCover: 'fieldwork' }), house)).toEqual({
            count: 2, steps: ['6 stands − 1 DP × 2 = 4', '100% (rounded up) against unlimbered artillery: 4', 'halved again, target in a fieldwork: 2'] });
        // The odds throw as many dice as resolve asks for: one die at a 6, against skirmishers.
        expect(fireOdds(fire(foot, skirm, 5), house)).toMatchObject({ dice: 1 });
        expect(fireOdds(fire(foot, skirm, 5), house).expectedDp).toBeCloseTo(1 / 6, 12);
    });

    it('exact fire odds agree with every throw through the resolver under random house tables', () => {
        const tablesArb = fc.record({
            closeDp: bandsArb(3), closeCas: bandsArb(2), longDp: bandsArb(2),
            hit: fc.integer({ min: 1, max: 7 }), reroll: fc.integer({ min: 1, max: 7 }), rerollHit: fc.integer({ min: 1, max: 7 }),
            heavy: fc.integer({ min: -3, max: 3 }), dp: fc.integer({ min: -3, max: 1 }), unlimbered: fc.integer({ min: -3, max: 3 }),
            dicePerDp: fc.integer({ min: 0, max: 2 }), unlimberedShare: fc.integer({ min: 0, max: 100 })
        }).map(t => with_({
            infantryDice: { ...LF_SEED_TABLES.infantryDice, dp: t.dicePerDp, 'unlimbered-percent': t.unlimberedShare },
            artillery: { closeDp: t.closeDp, closeCasualties: t.closeCas, longDp: t.longDp },
            artilleryModifiers: { ...LF_SEED_TABLES.artilleryModifiers, heavy: t.heavy, dp: t.dp, unlimbered: t.unlimbered },
            infantry: { hit: t.hit, reroll: t.reroll, 'reroll-hit': t.rerollHit }
        }));
        const inputArb = fc.record({
            artillery: fc.boolean(), skirmish: fc.boolean(), heavy: fc.boolean(), range: fc.constantFrom(4, 20),
            stands: fc.integer({ min: 1, max: 3 }), targetStands: fc.integer({ min: 1, max: 4 }), dp: fc.integer({ min: 0, max: 2 }), guns: fc.boolean()
        }).map(i => fire(
            i.artillery ? unit('B.Guns', { type: 'artillery', formation: 'unlimbered', guns: i.heavy ? 'heavy' : 'medium', stands: Math.min(i.stands, 2), dp: i.dp })
                : unit('B.Foot', { formation: i.skirmish ? 'skirmish' : 'line', stands: i.stands, dp: Math.min(i.dp, 1) }),
            i.guns ? unit('A.Guns', { type: 'artillery', formation: 'unlimbered', guns: 'light', stands: i.targetStands })
                : unit('A.Line', { stands: i.targetStands }), i.artillery ? i.range : 5));
        fc.assert(fc.property(inputArb, tablesArb, (input, tables) => {
            const odds = fireOdds(input, tables);
            const brute = bruteFire(input, tables);
            close(odds.dp, brute.dp);
            close(odds.casualties, brute.cas);
        }), { numRuns: 120, seed: 18 });
    });
});

describe('L6 movement dice', () => {
    it('a house move-dice table changes the dice allowed, the charge minimum and the disordering faces', () => {
        const house = with_({ move: { ...LF_SEED_TABLES.move, 'good-class': 2, 'other-d6': 2, 'charge-dice': 2, disorder: 3 } });
        const c3 = unit('A.Line', { class: 3 });
        expect(allowedMoveDice(c3).average).toEqual([1, 2]);
        expect(allowedMoveDice(c3, house)).toMatchObject({ average: [1], maxD6: 2 });
        expect(moveDiceProblem(move(c3, { average: 1, d6: 2 }))).toBeDefined();
        expect(moveDiceProblem(move(c3, { average: 1, d6: 2 }), house)).toBeUndefined();
        const horse = unit('A.Horse', { type: 'cavalry', class: 2 });
        expect(chargeTooFewDice(move(horse, { average: 2, charging: true }))).toBe(true);
        expect(chargeTooFewDice(move(horse, { average: 2, charging: true }), house)).toBe(false);
        expect(resolveMove(move(c3, { d6: 1 }), { average: [3], d6: [3] }).dp).toBe(0);
        expect(resolveMove(move(c3, { d6: 1 }), { average: [3], d6: [3] }, house).dpReasons).toEqual([{ reason: 'formed troops: 1 d6 showing 1–3', value: 1 }]);
    });

    it('exact move odds agree with every throw through the resolver under random disordering faces', () => {
        const arb = fc.record({
            disorder: fc.integer({ min: 0, max: 7 }), woodsDisorder: fc.integer({ min: 0, max: 7 }), woods: fc.boolean(),
            average: fc.integer({ min: 1, max: 2 }), d6: fc.integer({ min: 0, max: 2 }), plus: fc.constantFrom(0, 3), retire: fc.boolean()
        });
        fc.assert(fc.property(arb, a => {
            const tables = with_({ move: { ...LF_SEED_TABLES.move, disorder: a.disorder, 'woods-disorder': a.woodsDisorder, 'hessian-inches': a.plus || 2 } });
            const input = move(unit('A.Line', { class: 4 }), { average: a.average, d6: a.d6, woods: a.woods, plus: a.plus, retire: a.retire });
            const odds = moveOdds(input, tables);
            expectMoveOddsMatchEveryThrow(odds, input, tables, { average: a.average, d6: a.d6 });
        }), { numRuns: 80, seed: 18 });
    });
});

/** The move odds equal the distribution over every throw of the dice, each resolved by `resolveMove` (brute force). */
function expectMoveOddsMatchEveryThrow(odds: ReturnType<typeof moveOdds>, input: Parameters<typeof resolveMove>[0], tables: Parameters<typeof resolveMove>[2],
    counts: { average: number, d6: number }): void {
    const dist: number[] = [], dp: number[] = [];
    const walk = (avg: number[], d6: number[], p: number) => {
        if (avg.length < counts.average) { for (const f of AVERAGE.faces) walk([...avg, f], d6, p / AVERAGE.faces.length); return; }
        if (d6.length < counts.d6) { for (const f of D6.faces) walk(avg, [...d6, f], p / 6); return; }
        const o = resolveMove(input, { average: avg, d6 }, tables);
        dist[o.inches] = (dist[o.inches] ?? 0) + p;
        dp[o.dp] = (dp[o.dp] ?? 0) + p;
    };
    walk([], [], 1);
    close(odds.distance, dist);
    close(odds.dp, dp);
}

describe('L6 move costs', () => {
    it('a house move-cost table changes the inches and DPs of terrain, wheeling, formation changes and retiring', () => {
        const house = with_({ moveCosts: { 'woods-inches': 2, 'uphill-inches': 0, 'wheel-inches': 3, 'wheel-dp': 0, 'formation-dp': 2, 'formation-under-fire-dp': 3, 'retire-percent': 25, 'retire-dp': 2 } });
        const line = unit('A.Line', { class: 3 }), horse = unit('A.Horse', { type: 'cavalry', class: 2 });
        const inWoods = move(line, { average: 2, woods: true, uphill: true });
        expect(resolveMove(inWoods, { average: [4, 5], d6: [] }).inches).toBe(5);
        expect(resolveMove(inWoods, { average: [4, 5], d6: [] }, house)).toMatchObject({ inches: 5, inchModifiers: [{ reason: 'woods: −2" on each of 2 dice', value: -4 }] });
        const wheel = move(line, { average: 2, wheel: true, options: { ...NO_HOUSE_RULES, wheelAsUphill: true } });
        expect(resolveMove(wheel, { average: [4, 5], d6: [] })).toMatchObject({ inches: 7, dp: 1 });
        expect(resolveMove(wheel, { average: [4, 5], d6: [] }, house)).toMatchObject({ inches: 3, dp: 0 });
        const change = move(line, { formationChange: true, underFire: true });
        expect(resolveMove(change, { average: [], d6: [] }).dp).toBe(2);
        expect(resolveMove(change, { average: [], d6: [] }, house).dp).toBe(3);
        const retire = move(horse, { average: 2, retire: true });
        expect(resolveMove(retire, { average: [4, 5], d6: [] })).toMatchObject({ inches: 4, dp: 1 });
        expect(resolveMove(retire, { average: [4, 5], d6: [] }, house)).toMatchObject({ inches: 2, dp: 2 });
        expect(resolveMove(retire, { average: [4, 5], d6: [] }, house).inchModifiers).toEqual([{ reason: 'retiring facing the enemy: 25% of the move, rounded down', value: -7 }]);
    });

    it('exact move odds agree with every throw through the resolver under random move costs', () => {
        const costArb = fc.record({
            'woods-inches': fc.integer({ min: 0, max: 3 }), 'uphill-inches': fc.integer({ min: 0, max: 3 }), 'wheel-inches': fc.integer({ min: 0, max: 3 }),
            'wheel-dp': fc.integer({ min: 0, max: 3 }), 'formation-dp': fc.integer({ min: 0, max: 3 }), 'formation-under-fire-dp': fc.integer({ min: 0, max: 3 }),
            'retire-percent': fc.integer({ min: 0, max: 100 }), 'retire-dp': fc.integer({ min: 0, max: 3 })
        });
        const inputArb = fc.record({
            cavalry: fc.boolean(), woods: fc.boolean(), uphill: fc.boolean(), wheel: fc.boolean(), wheelAsUphill: fc.boolean(),
            formationChange: fc.boolean(), underFire: fc.boolean(), retire: fc.boolean(), average: fc.integer({ min: 1, max: 2 }), d6: fc.integer({ min: 0, max: 2 })
        }).map(i => move(unit('A.Unit', { type: i.cavalry ? 'cavalry' : 'infantry', class: 2 }), {
            average: i.average, d6: i.d6, woods: i.woods, uphill: i.uphill, wheel: i.wheel, formationChange: i.formationChange, underFire: i.underFire,
            retire: i.retire, options: { ...NO_HOUSE_RULES, wheelAsUphill: i.wheelAsUphill }
        }));
        fc.assert(fc.property(inputArb, costArb, (input, moveCosts) => {
            const tables = with_({ moveCosts });
            const odds = moveOdds(input, tables);
            expectMoveOddsMatchEveryThrow(odds, input, tables, moveDiceCounts(input));
        }), { numRuns: 120, seed: 18 });
    });
});

describe('L7 morale and L8 re-dress tables', () => {
    it('a house morale table changes the DPs, the deserters and how near a friend must be', () => {
        const see = (tables?: LfCombatTables, distance?: number) => resolveMorale({
            observer: unit('A.Line', { class: 3 }), friend: unit('A.Guard', { class: 3 }), event: 'routs', distance, friendFled: false, options: NO_HOUSE_RULES
        }, tables);
        expect([see().dp, see().deserted]).toEqual([2, 1]);
        const house = with_({ morale: { ...LF_SEED_TABLES.morale, within: 3, 'routs-equal-dp': 1, 'routs-equal-deserters': 0 } });
        expect([see(house).dp, see(house).deserted, see(house).result]).toEqual([1, 0, 'disordered']);
        expect(see(undefined, 5).dp).toBe(2);
        expect(see(house, 5)).toMatchObject({ result: 'unmoved', reason: 'the friend is 5" away, beyond 3"' });
    });

    it('a house redress table changes what each class sheds', () => {
        const redress = (cls: number, tables?: LfCombatTables, shotAt = false) =>
            resolveRedress({ unit: unit('A.Line', { class: cls, dp: 3 }), moved: false, inCombat: false, shotAt }, tables);
        const house = with_({ redress: { ...LF_SEED_TABLES.redress, 'class-3-shot-at': 1, 'class-4': 1 } });
        expect([redress(3, undefined, true).removed, redress(4).removed]).toEqual([0, 0]);
        expect(redress(3, house, true)).toMatchObject({ removed: 1, reason: 'class 3 removes 1 DP when shot at' });
        expect(redress(4, house)).toMatchObject({ removed: 1, reason: 'class 4 removes 1 DP' });
        expect(redress(1).reason).toBe('class 1 removes up to 2 DPs');
    });
});

describe('L8 command point costs', () => {
    it('a house command-cost table changes what moving, inspiring and rallying cost', async () => {
        const officer = unit('A.Major', { type: 'officer', cp: 6 }), line = unit('A.Line', { class: 4, dp: 3 });
        expect(resolveRally({ officer, unit: line, dp: 2 })).toMatchObject({ removed: 2, cp: 4 });
        expect(resolveRally({ officer, unit: line, dp: 2 }, with_({ command: { move: 1, inspire: 3, 'rally-dp': 1 } }))).toMatchObject({ removed: 2, cp: 2 });
        const file = (house: string) => `rules loose-files
${house}force Blue {
  unit Major officer { cp 4, attached Line }
  unit Line infantry { class 4, stands 4, dp 2 }
}
force Red { unit Line infantry { class 3, stands 4 } }
command Orders {
  Blue.Major: move
  Blue.Major rallies Blue.Line: dp 1
  dice Blue.Major average 3
}
engagement Fight {
  Blue.Line attacks Red.Line
  Blue.Major inspires Blue.Line
  dice Blue.Line average 3
  dice Red.Line average 3
}
`;
        // By the sheet: move 1 + rally 2 + inspire 3 = 6 CP, past the major's 4.
        const seed = await load(file(''));
        expect(seed.diagnostics).toContain('lf-cp-overspent: Blue.Major has 4 CP a turn and this brings its spending to 6 (L8: move 1, inspire 3, rally 2 a DP).');
        const { model, diagnostics } = await load(file('house {\n  command-cost move 0, inspire 2, rally-dp 1\n}\n'));
        expect(diagnostics.filter(d => d.startsWith('lf-cp-overspent'))).toEqual([]);
        const resolved = (i: number) => {
            const r = resolveAction(model, model.actions[i], { newSeed: () => 1 });
            if (isUnresolvable(r)) throw new Error(r.problem);
            return r.resolution;
        };
        expect(resolved(0).text).toEqual([
            'Blue.Major moves up to 3 inches (one average die) for 0 CP  (house: command-cost move 0)',
            'Blue.Major rallies Blue.Line: 1 DP removed for 1 CP (1 CP a DP)  (house: command-cost rally-dp 1)'
        ]);
        expect(resolved(1).text).toContain('  +1 inspired by Blue.Major (2 CP)  (house: command-cost inspire 2)');
        expect(JSON.stringify(resolved(1).json)).toContain('"result":"inspired","cp":2');
    });
});

async function load(text: string) {
    const loaded = await loadText('house.battle', text);
    return { model: modelOf(loaded.document.parseResult.value), diagnostics: loaded.diagnostics.map(d => `${d.code}: ${d.message}`) };
}

const FILE = `rules loose-files
house {
  artillery-close-dp ..1 0, 2..3 1, 4.. 2
  artillery-close-casualties ..5 0, 6.. 1
  artillery-modifier same-target 2
  infantry-fire hit 5
  morale routs-equal-dp 1
  redress class-3-shot-at 1
}
force Blue {
  unit Guns artillery { class 3, stands 1, guns medium, formation unlimbered }
  unit Line infantry { class 3, stands 4 }
  unit Guard infantry { class 3, stands 4 }
}
force Red { unit Line infantry { class 3, stands 4, dp 2 } }
fire Battery {
  Blue.Guns fires at Red.Line: range 5
  dice Blue.Guns d6 6
}
fire Again {
  Blue.Guns fires at Red.Line: range 5, same-target
  dice Blue.Guns d6 2
}
fire Volley {
  Blue.Line fires at Red.Line: range 5
  dice Blue.Line d6 5 2 1 6
}
morale Shaken {
  Blue.Line sees Blue.Guard: routs
}
redress Dress {
  Red.Line: shot-at
}
`;

describe('house fire, morale and re-dress tables in a file', () => {
    it('resolve reads them and names the house row that applied', async () => {
        const { model, diagnostics } = await load(FILE);
        expect(diagnostics).toEqual([]);
        const text = (i: number) => {
            const r = resolveAction(model, model.actions[i], { newSeed: () => 1 });
            if (isUnresolvable(r)) throw new Error(r.problem);
            return r.resolution.text;
        };
        // 6 at close range: the house gives 2 DPs where the sheet gives 1, and the sheet's casualty.
        expect(text(0)).toContain('  Red.Line: casualty, 2 DP, 1 casualty  (house: artillery-close-dp 4.. 2; artillery-close-casualties 6.. 1)');
        // 2 + 2 (same target, by the house) = 4: two DPs by the house close table.
        expect(text(1)).toContain('  +2 same target and range as last turn (each die)');
        expect(text(1)).toContain('  Red.Line: disordered, 2 DP, 0 casualties  (house: artillery-modifier same-target 2; artillery-close-dp 4.. 2; artillery-close-casualties ..5 0)');
        expect(text(2)).toContain('  Red.Line: disordered, 2 DP, 0 casualties  (house: infantry-fire hit 5)');
        expect(text(3)).toContain('  stand-deserts, 1 DP, 1 stand deserts  (house: morale routs-equal-dp 1)');
        expect(text(4).join('\n')).toContain('redressed, 1 DP removed — class 3 removes 1 DP when shot at  (house: redress class-3-shot-at 1)');
    });

    it('a move names the move-cost rows it read, and its odds read them too', async () => {
        const { model, diagnostics } = await load(`rules loose-files
house {
  move-cost woods-inches 2, retire-percent 100
}
force Blue { unit Line infantry { class 3, stands 4 } }
move March {
  Blue.Line: average 2, woods, retire
  dice Blue.Line average 4 5
}
`);
        expect(diagnostics).toEqual([]);
        const r = resolveAction(model, model.actions[0], { newSeed: () => 1 });
        if (isUnresolvable(r)) throw new Error(r.problem);
        expect(r.resolution.text).toEqual([
            'Blue.Line: retired  (house: move-cost woods-inches 2; move-cost retire-percent 100)',
            '  dice: average 4 5 · d6 —',
            '  -4" woods: −2" on each of 2 dice',
            '  ±0" retiring facing the enemy: 100% of the move, rounded down',
            '  5 inches: may move up to 5 inches'
        ]);
        const odds = oddsForAction(model, model.actions[0]);
        if (isUnresolvable(odds)) throw new Error(odds.problem);
        // Average dice show 2 to 5 (mean 3.5): each loses 2", none below 0", and the retire keeps it all.
        const perDie = [2, 3, 3, 4, 4, 5].reduce((sum, f) => sum + Math.max(0, f - 2), 0) / 6;
        expect(odds.units[0].expectedDistance).toBeCloseTo(2 * perDie, 12);
    });

    it('a fire at skirmishers names the infantry-dice row it read', async () => {
        const { model, diagnostics } = await load(`rules loose-files
house {
  infantry-dice skirmish-percent 1
}
force Blue { unit Line infantry { class 3, stands 4, dp 1 } }
force Red { unit Lights infantry { class 3, stands 2, formation skirmish } }
fire Volley {
  Blue.Line fires at Red.Lights: range 5
  dice Blue.Line d6 6
}
`);
        expect(diagnostics).toEqual([]);
        const r = resolveAction(model, model.actions[0], { newSeed: () => 1 });
        if (isUnresolvable(r)) throw new Error(r.problem);
        expect(r.resolution.text).toContain('  dice: 4 stands − 1 DP = 3; 1% (rounded up) against skirmishers: 1');
        expect(r.resolution.text).toContain('  Red.Lights: disordered, 1 DP, 0 casualties  (house: infantry-dice skirmish-percent 1)');
    });

    it('the odds of a fire read the house table: a 5 hits, so 2 d6 in 6 hit instead of 1', async () => {
        const { model } = await load(FILE);
        const odds = oddsForAction(model, model.actions[2]);
        if (isUnresolvable(odds)) throw new Error(odds.problem);
        expect(odds.units[0].expectedDp).toBeCloseTo(4 * 2 / 6, 12);
        const seed = await load(FILE.replace(/house \{[\s\S]*?\n\}\n/, ''));
        const seedOdds = oddsForAction(seed.model, seed.model.actions[2]);
        if (isUnresolvable(seedOdds)) throw new Error(seedOdds.problem);
        expect(seedOdds.units[0].expectedDp).toBeCloseTo(4 / 6, 12);
    });

    it('flags a house table that makes a rule impossible (lf-house-impossible)', async () => {
        const { diagnostics } = await load(`rules loose-files
house {
  infantry-fire hit 7
  move-dice other-average 0, charge-dice 9
  morale retreats-lower-deserters 1
  artillery-long-dp .. 0
  artillery-long-dp ..0 0, 1.. 0
  move-cost retire-percent 0
  infantry-dice works-percent 0
}
`);
        expect(diagnostics.filter(d => d.startsWith('lf-house-impossible'))).toEqual([
            'lf-house-impossible: No d6 shows 7: infantry fire never disorders (L5). Write 6 or less.',
            'lf-house-impossible: With \'works-percent 0\' infantry throws no dice at a target in works, so it can never hit them (L5). Write 1 or more.',
            'lf-house-impossible: A unit moves with one average die at least (L6): with \'other-average 0\' classes worse than 3 could not move at all. Write 1 or more.',
            'lf-house-impossible: No cavalry may throw 9 movement dice (at most 5 by this table), so none could ever charge (L6). Write 5 or less.',
            'lf-house-impossible: With \'retire-percent 0\' a unit retiring facing the enemy never moves at all (L6.13). Write 1 or more.',
            'lf-house-impossible: A unit that sees a lower grade friend retreats takes no DP by this table, so it is unmoved and its 1 deserter never desert (L7). Give the row a DP, or 0 deserters.',
            'lf-house-impossible: By this table artillery at long range never does anything: every score gives 0 (L4).'
        ]);
        expect(diagnostics.some(d => d.startsWith('house-band:'))).toBe(true);
    });
});
