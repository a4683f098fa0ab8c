/**
 * Loose Files house rules (docs/house-rules.md#loose-files): the combat tables as data, changed by
 * `house` blocks, with resolve and the exact odds agreeing under the same house rules (every throw
 * through the resolver), the checks of a house block, and written outcomes flagged stale on a change.
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { AVERAGE } from '../../../src/core/dice.js';
import { combatModifiers, outnumberedModifier, resolveCombat, type CombatInput, type CombatSide } from '../../../src/rulesets/loose-files/engine/loose-files-combat.js';
import { COMBAT_RESULTS, LF_SEED_TABLES, type CombatResult, type LfCombatTables } from '../../../src/rulesets/loose-files/engine/loose-files-tables.js';
import { fleesField, NO_HOUSE_RULES, strength, type LfUnit } from '../../../src/rulesets/loose-files/engine/loose-files-units.js';
import { combatOdds, fireOdds } from '../../../src/rulesets/loose-files/engine/loose-files-odds.js';
import { fireBand, fireDice, resolveFire } from '../../../src/rulesets/loose-files/engine/loose-files-fire.js';
import { loadText } from '../../../src/cli/load.js';
import { modelOf } from '../../../src/core/model-cache.js';
import { isUnresolvable, outcomeStatus, resolveAction } from '../../../src/core/resolve.js';
import { oddsForAction } from '../../../src/core/odds.js';
import { resolveAll } from '../../../src/core/resolve-all.js';
import type { OddsReport } from '../../../src/protocol.js';

const unit = (id: string, over: Partial<LfUnit> = {}): LfUnit => ({
    id, force: id.split('.')[0], unit: id.split('.')[1], type: 'infantry', class: 3, formation: 'line', stands: 4, dp: 0, casualties: 0,
    deserted: 0, guns: undefined, weapon: 'musket', hessian: false, jaeger: false, militia: false, cp: 0, attached: undefined, ...over
});
const side = (u: LfUnit, over: Partial<CombatSide> = {}): CombatSide => ({ units: [u], cover: undefined, bayonet: false, terrain: false, inspiredBy: [], flankOrRear: false, ...over });
const fight = (a: CombatSide, d: CombatSide): CombatInput => ({ attacker: a, defender: d, options: NO_HOUSE_RULES, previousStandOff: false });

/** The club's table: the rout from −7, a stand-off costing no casualty, a rout 3 DPs. */
const CLUB: LfCombatTables = {
    ...LF_SEED_TABLES,
    results: [
        { band: { from: 4, to: null }, value: 'easy-victory' }, { band: { from: 2, to: 3 }, value: 'successful' },
        { band: { from: -1, to: 1 }, value: 'stand-off' }, { band: { from: -3, to: -2 }, value: 'driven-back' },
        { band: { from: -6, to: -4 }, value: 'defeated' }, { band: { from: null, to: -7 }, value: 'routed' }
    ],
    casualties: { ...LF_SEED_TABLES.casualties, 'stand-off': 0 },
    dp: { ...LF_SEED_TABLES.dp, routed: 3 }
};

describe('Loose Files tables as data', () => {
    it('the seed tables give the sheet\'s rows (L3): −9 routed 4 DP 2 casualties, −1 stand-off 1 DP 1 casualty', () => {
        // Equal class 3 sides of 4 stands: the difference is the dice's. 2 − 5 = −3: driven back.
        const o = resolveCombat(fight(side(unit('A.x')), side(unit('D.y'))), { attacker: 2, defender: 5 });
        expect([o.attacker.result, o.attacker.dp, o.attacker.casualties]).toEqual(['driven-back', 2, 1]);
        const flank = resolveCombat(fight(side(unit('A.x')), side(unit('D.y'), { flankOrRear: true, units: [unit('D.y', { dp: 2 })] })), { attacker: 5, defender: 3 });
        // Defender: 3 − 3 (flank) − 4 (2 DP) = −4 against 5: −9, routed.
        expect([flank.defender.difference, flank.defender.result, flank.defender.dp, flank.defender.casualties]).toEqual([-9, 'routed', 4, 2]);
    });

    it('a house table moves the rout to −7 and makes a stand-off cost no casualty (hand-worked)', () => {
        const input = fight(side(unit('A.x')), side(unit('D.y', { dp: 1 })));
        // Defender 2 − 2 (1 DP) = 0 against 5: −5 → the sheet's defeated, the club's defeated (−6..−4).
        const seed = resolveCombat(input, { attacker: 5, defender: 2 });
        const club = resolveCombat(input, { attacker: 5, defender: 2 }, CLUB);
        expect([seed.defender.result, club.defender.result]).toEqual(['defeated', 'defeated']);
        // 4 stands of 1 DP and 2 DP: defender 2 − 4 = −2 against 5: −7: the sheet's defeated, the club's routed with 3 DPs.
        const worse = fight(side(unit('A.x')), side(unit('D.y', { dp: 2 })));
        expect(resolveCombat(worse, { attacker: 5, defender: 2 }).defender.result).toBe('defeated');
        const routed = resolveCombat(worse, { attacker: 5, defender: 2 }, CLUB).defender;
        expect([routed.difference, routed.result, routed.dp, routed.casualties]).toEqual([-7, 'routed', 3, 2]);
        // 3 v 3: a stand-off, 1 casualty by the sheet, none by the club's table.
        expect(resolveCombat(fight(side(unit('A.x')), side(unit('D.y'))), { attacker: 3, defender: 3 }).attacker.casualties).toBe(1);
        expect(resolveCombat(fight(side(unit('A.x')), side(unit('D.y'))), { attacker: 3, defender: 3 }, CLUB).attacker.casualties).toBe(0);
    });

    it('modifiers and outnumbering read the tables: a bayonet at +3, class at +2 a step, outnumbered 2:1 at −4', () => {
        const tables: LfCombatTables = { ...LF_SEED_TABLES, modifiers: { ...LF_SEED_TABLES.modifiers, bayonet: 3, class: 2 }, outnumbered: { ...LF_SEED_TABLES.outnumbered, 'two-to-one': -4 } };
        const mods = combatModifiers(side(unit('A.x', { class: 2 }), { bayonet: true }), side(unit('D.y', { class: 4 })), false, tables).map(m => m.value);
        expect(mods).toEqual([4, 3]);
        expect(outnumberedModifier(4, 8, tables)?.value).toBe(-4);
        expect(outnumberedModifier(4, 8)?.value).toBe(-3);
        expect(outnumberedModifier(4, 5, { ...LF_SEED_TABLES, outnumbered: { ...LF_SEED_TABLES.outnumbered, any: 0 } })?.value).toBe(0);
    });

    it('a house strength table changes who is outnumbered: cavalry counting 1 a stand no longer outnumbers 3 to 1', () => {
        const horse = side(unit('A.h', { type: 'cavalry', stands: 2 })), foot = side(unit('D.f', { stands: 2 }));
        const house: LfCombatTables = { ...LF_SEED_TABLES, strength: { ...LF_SEED_TABLES.strength, cavalry: 1 } };
        expect(strength(unit('A.h', { type: 'cavalry', stands: 2 }), house)).toBe(2);
        expect(combatModifiers(foot, horse, true).map(m => [m.reason, m.value])).toEqual([['outnumbered 3:1 or worse (6 v 2)', -5]]);
        expect(combatModifiers(foot, horse, true, house)).toEqual([]);
        const o = resolveCombat(fight(horse, foot), { attacker: 3, defender: 3 }, house);
        expect([o.attacker.strength, o.defender.total]).toEqual([2, 3]);
        expect(combatOdds(fight(horse, foot), house).defender.probabilities['stand-off']).toBeGreaterThan(combatOdds(fight(horse, foot)).defender.probabilities['stand-off']);
    });

    it('flee-losses thresholds are a table: militia at 40% flee with 2 of 5 lost, not at the sheet\'s 50%', () => {
        const u = { stands: 5, casualties: 2, deserted: 0, militia: true };
        expect(fleesField(u)).toBe(false);
        expect(fleesField(u, { militia: 40, other: 75 })).toBe(true);
        expect(fleesField({ ...u, militia: false, casualties: 3 }, { militia: 50, other: 60 })).toBe(true);
        expect(fleesField({ ...u, militia: false, casualties: 3 })).toBe(false);
    });

    it('fire ranges are a table: a musket reaching 10" throws at 9", and artillery close range ends where the house says', () => {
        const musket = unit('A.x', { stands: 3 });
        const fire = { firer: musket, target: unit('D.y'), range: 9, sameTarget: false, newTarget: false, moved: false, targetCover: undefined, options: NO_HOUSE_RULES };
        const longer: LfCombatTables = { ...LF_SEED_TABLES, ranges: { ...LF_SEED_TABLES.ranges, musket: 10, 'artillery-close': 12 } };
        expect(fireDice(fire).count).toBe(0);
        expect(fireDice(fire, longer).count).toBe(3);
        expect(fireOdds(fire, longer).dice).toBe(3);
        const gun = unit('A.g', { type: 'artillery', guns: 'medium', stands: 1 });
        expect([fireBand(gun, 11), fireBand(gun, 11, longer)]).toEqual(['long', 'close']);
        // At close range a modified 4 is 2 DPs; at long range 1 DP (L4).
        expect(resolveFire({ ...fire, firer: gun, range: 11 }, { d6: [4], reroll: [] }, longer).dp).toBe(2);
        expect(resolveFire({ ...fire, firer: gun, range: 11 }, { d6: [4], reroll: [] }).dp).toBe(1);
    });

    it('exact odds agree with every throw through the resolver under random house tables', () => {
        const bandsArb = fc.record({
            cuts: fc.uniqueArray(fc.integer({ min: -10, max: 10 }), { minLength: 5, maxLength: 5 }),
            dp: fc.array(fc.integer({ min: 0, max: 4 }), { minLength: 6, maxLength: 6 }),
            cas: fc.array(fc.integer({ min: 0, max: 3 }), { minLength: 6, maxLength: 6 }),
            bayonet: fc.integer({ min: -3, max: 5 }), any: fc.integer({ min: -3, max: 1 }), cavalry: fc.integer({ min: 0, max: 6 })
        }).map(({ cuts, dp, cas, bayonet, any, cavalry }): LfCombatTables => {
            // Six bands from high to low, each with the sheet's rows in order: a table that need not mirror (the engine reads any).
            const tops = cuts.sort((a, b) => b - a);
            const results = COMBAT_RESULTS.map((value, i) => ({ band: { from: i < 5 ? tops[i] : null, to: i === 0 ? null : tops[i - 1] - 1 }, value }));
            const byRow = (v: number[]) => Object.fromEntries(COMBAT_RESULTS.map((r, i) => [r, v[i]])) as Record<CombatResult, number>;
            return { ...LF_SEED_TABLES, results, dp: byRow(dp), casualties: byRow(cas),
                modifiers: { ...LF_SEED_TABLES.modifiers, bayonet }, outnumbered: { ...LF_SEED_TABLES.outnumbered, any },
                strength: { ...LF_SEED_TABLES.strength, cavalry } };
        });
        const sideArb = (f: string) => fc.record({ cls: fc.integer({ min: 1, max: 5 }), stands: fc.integer({ min: 1, max: 6 }), bayonet: fc.boolean(), cav: fc.boolean() })
            .map(s => side(unit(`${f}.x`, { class: s.cls, stands: s.stands, type: s.cav ? 'cavalry' : 'infantry' }), { bayonet: s.bayonet }));
        fc.assert(fc.property(sideArb('A'), sideArb('D'), bandsArb, (a, d, tables) => {
            const input = fight(a, d);
            const odds = combatOdds(input, tables);
            for (const role of ['attacker', 'defender'] as const) {
                const rows = Object.fromEntries(COMBAT_RESULTS.map(r => [r, 0])) as Record<CombatResult, number>;
                const dp: number[] = [], cas: number[] = [];
                for (const x of AVERAGE.faces) for (const y of AVERAGE.faces) {
                    const o = resolveCombat(input, { attacker: x, defender: y }, tables)[role];
                    rows[o.result] += 1 / 36;
                    dp[o.dp] = (dp[o.dp] ?? 0) + 1 / 36;
                    cas[o.casualties] = (cas[o.casualties] ?? 0) + 1 / 36;
                }
                for (const r of COMBAT_RESULTS) expect(Math.abs(odds[role].probabilities[r] - rows[r]), `${role} ${r}`).toBeLessThanOrEqual(1e-12);
                for (let k = 0; k < 6; k++) {
                    expect(Math.abs((odds[role].dp[k] ?? 0) - (dp[k] ?? 0))).toBeLessThanOrEqual(1e-12);
                    expect(Math.abs((odds[role].casualties[k] ?? 0) - (cas[k] ?? 0))).toBeLessThanOrEqual(1e-12);
                }
            }
        }), { numRuns: 150, seed: 18 });
    });
});

const FILE = `rules loose-files
option flee-losses
house {
  combat-result 4.. easy-victory, 2..3 successful, -1..1 stand-off, -4..-2 driven-back, -6..-5 defeated, ..-7 routed
  combat-casualties stand-off 0
}
force Blue { unit Foot infantry { class 3, stands 4 } }
force Red { unit Foot infantry { class 3, stands 4, dp 2 } }
engagement Hill {
  Blue attacks Red
  dice Blue 5
  dice Red 2
}
`;

async function load(text: string) {
    const loaded = await loadText('house.battle', text);
    return { model: modelOf(loaded.document.parseResult.value), diagnostics: loaded.diagnostics.map(d => `${d.code}: ${d.message}`) };
}

describe('house blocks in a Loose Files file', () => {
    it('resolve reads the house bands and says which house rows decided each side', async () => {
        const { model, diagnostics } = await load(FILE);
        expect(diagnostics).toEqual([]);
        const r = resolveAction(model, model.actions[0], { newSeed: () => 1 });
        if (isUnresolvable(r)) throw new Error(r.problem);
        // Red 2 − 4 (2 DP) = −2 against 5: −7, routed by the house (the sheet: defeated).
        expect(r.resolution.text.some(l => l.includes('Defender -7: routed, 4 DP, 2 casualties') && l.endsWith('(house: combat-result ..-7 routed)'))).toBe(true);
        const plain = (await load(FILE.replace(/house \{[^}]*\}\n/, ''))).model;
        const p = resolveAction(plain, plain.actions[0], { newSeed: () => 1 });
        if (isUnresolvable(p)) throw new Error(p.problem);
        expect(p.resolution.text.some(l => l.includes('Defender -7: defeated'))).toBe(true);
        expect(p.resolution.text.some(l => l.includes('(house:'))).toBe(false);
    });

    it('odds under the house rules: a routed row from −7 is likelier than the sheet\'s from −9', async () => {
        const { model } = await load(FILE.replace('dice Blue 5\n  dice Red 2\n', ''));
        const house = oddsForAction(model, model.actions[0]) as OddsReport;
        const plain = (await load(FILE.replace('dice Blue 5\n  dice Red 2\n', '').replace(/house \{[^}]*\}\n/, ''))).model;
        const seed = oddsForAction(plain, plain.actions[0]) as OddsReport;
        const routed = (o: OddsReport) => o.units.find(u => u.id === 'Red.Foot')!.probabilities.routed;
        // Red is at −4 before the dice (2 DP): the sheet's −9 needs Blue's die 5 more than Red's, which average dice (2..5) never give.
        expect(routed(seed)).toBe(0);
        // The house routs from −7: a − d ≥ 3, i.e. 5 v 2: 1/36.
        expect(routed(house)).toBeCloseTo(1 / 36, 14);
    });

    it('checks: a table that reads one fight two ways, a missing stand-off under Corlears Hook, unknown keys', async () => {
        const { diagnostics } = await load(`rules loose-files
option corlears-hook
house {
  combat-result 1.. easy-victory, 0 successful, ..-1 routed
  combat-modifier bayonett 3
  outnumbered 3 -2
}
force Blue { unit Foot infantry { class 3 } }
force Red { unit Foot infantry { class 3 } }
`);
        expect(diagnostics.filter(d => d.startsWith('lf-house'))).toEqual([
            "lf-house-result-mirror: Equal totals read 'successful' for both sides: each side reads its own difference, so the row at 0 must be a stand-off (or another row that is neither a win nor a loss).",
            'lf-house-no-stand-off: Corlears Hook (`option corlears-hook`, L9) turns on a second stand-off in a row, and this results table has no `stand-off` row: it can never apply.'
        ]);
        expect(diagnostics.some(d => d.startsWith("house-key: 'combat-modifier': 'bayonett' is not one of its keys"))).toBe(true);
        expect(diagnostics.some(d => d.startsWith("house-key: 'outnumbered'"))).toBe(true);
        const lopsided = await load('rules loose-files\nhouse {\n  combat-result 2.. successful, -2..1 stand-off, ..-3 driven-back\n}\n');
        expect(lopsided.diagnostics).toEqual(["lf-house-result-mirror: A side 2 ahead reads 'successful' while its enemy (-2) reads 'stand-off': each side reads its own difference, so the rows at 2 and -2 must be a win and a loss, or both a stand-off."]);
    });

    it('a fire line is refused beyond the reach in force, and allowed within a house reach', async () => {
        const text = (house: string) => `rules loose-files\n${house}force Blue { unit Foot infantry { class 3, stands 4 } }\nforce Red { unit Foot infantry { class 3, stands 4 } }\nfire Volley {\n  Blue.Foot fires at Red.Foot: range 9\n}\n`;
        expect((await load(text(''))).diagnostics.filter(d => d.startsWith('lf-range'))).toEqual(['lf-range: 9" is out of range: a musket reaches 8" (L5).']);
        expect((await load(text('house {\n  fire-range musket 10\n}\n'))).diagnostics.filter(d => d.startsWith('lf-range'))).toEqual([]);
    });

    it('a turn\'s house block changes that turn only', async () => {
        // Fresh units each turn, so that the first fight's DPs and casualties do not carry into the second.
        const text = `rules loose-files
force Blue { unit First infantry { class 3, stands 4 }
  unit Second infantry { class 3, stands 4 } }
force Red { unit First infantry { class 3, stands 4 }
  unit Second infantry { class 3, stands 4 } }
turn 1 {
  house { combat-modifier bayonet 5 }
  engagement First { Blue.First attacks Red.First
    Blue.First: bayonet
    dice Blue 3
    dice Red 3 }
}
turn 2 {
  engagement Second { Blue.Second attacks Red.Second
    Blue.Second: bayonet
    dice Blue 3
    dice Red 3 }
}
`;
        const { model, diagnostics } = await load(text);
        expect(diagnostics.filter(d => !d.startsWith('lf-') || d.startsWith('lf-house'))).toEqual([]);
        const results = model.actions.map(a => {
            const r = resolveAction(model, a, { newSeed: () => 1 });
            return isUnresolvable(r) ? r.problem : r.resolution.json.units.map(u => u.result);
        });
        // +5 bayonet: 8 v 3, easy victory; the sheet's +2: 5 v 3, successful.
        expect(results).toEqual([['easy-victory', 'defeated'], ['successful', 'driven-back']]);
    });

    it('changing a house rule above a written outcome flags it stale; without house rules fingerprints are as before', async () => {
        const check = async (t: string) => { const l = await loadText('house.battle', t); return { root: l.document.parseResult.value, errors: l.diagnostics.filter(d => d.severity === 1).map(d => d.message as string) }; };
        const written = (await resolveAll(FILE, check, { newSeed: () => 1 })).text;
        const current = await load(written);
        expect(outcomeStatus(current.model, current.model.actions[0])).toEqual({ kind: 'current' });
        const stale = await load(written.replace('..-7 routed', '..-8 routed').replace('-6..-5 defeated', '-7..-5 defeated'));
        expect(outcomeStatus(stale.model, stale.model.actions[0])).toEqual({ kind: 'stale' });
        const own = (m: typeof current.model) => (m.ruleset!.resolve(m, m.actions[0], { kind: 'entered' }) as { json: { check: string } }).json.check;
        const through = (m: typeof current.model) => { const r = resolveAction(m, m.actions[0], { newSeed: () => 1 }); return isUnresolvable(r) ? r.problem : r.resolution.json.check; };
        const plain = (await load(FILE.replace(/house \{[^}]*\}\n/, ''))).model;
        expect(through(plain)).toBe(own(plain));
        expect(through(current.model)).not.toBe(own(current.model));
    });
});
