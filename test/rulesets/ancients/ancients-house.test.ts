/**
 * Ancients house rules (docs/house-rules.md#ancients): the tables as data, changed by `house` blocks,
 * with resolve and the exact odds agreeing under the same house rules (brute force through the
 * resolver), the checks of a house block, and written outcomes flagged stale when a house rule changes.
 */
import * as fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { everyThrow } from '../../support/ancients-every-throw.js';
import fc from 'fast-check';
import {
    ANCIENTS_RESULTS, diceFor, resolveAncients, SequenceDice, testModifiers, toHitFor,
    type AncientsInput, type AncientsResult, type AncientsUnit
} from '../../../src/rulesets/ancients/engine/ancients-engine.js';
import { ancientsOdds } from '../../../src/rulesets/ancients/engine/ancients-odds.js';
import { ANCIENTS_SEED_TABLES, poolSizes, type AncientsTables } from '../../../src/rulesets/ancients/engine/ancients-tables.js';
import { SEED_DICE } from '../../../src/rulesets/ancients/engine/ancients-table.js';
import { loadText } from '../../../src/cli/load.js';
import { modelOf } from '../../../src/core/model-cache.js';
import { isUnresolvable, outcomeStatus, resolveAction } from '../../../src/core/resolve.js';
import { oddsForAction } from '../../../src/core/odds.js';
import { resolveAll } from '../../../src/core/resolve-all.js';
import type { OddsReport } from '../../../src/protocol.js';

function unitOf(id: string, side: 'attacker' | 'defender', over: Partial<AncientsUnit> = {}): AncientsUnit {
    const [force, unit] = id.split('.');
    return {
        id, force, unit, side, size: 'small', skill: 1, weight: 'medium', type: 'infantry', formation: 'formed', leadership: 7,
        shock: false, defensive: false, tokens: 0, tested: false, move: undefined, charged: false, followUp: false, ...over
    };
}

function duel(a: AncientsUnit, b: AncientsUnit, over: Partial<AncientsInput> = {}): AncientsInput {
    return { units: [a, b], pairings: [{ a: a.id, aPosition: 'front', b: b.id, bPosition: 'front' }], splits: [], firstTurn: false, breakDice: 2, ...over };
}

const withTables = (over: Partial<AncientsTables>): AncientsTables => ({ ...ANCIENTS_SEED_TABLES, ...over });

describe('Ancients tables as data', () => {
    it('the seed tables are the printed ones: A1 pools, A4 to-hit, and the table command\'s blocks 14, 12, 10, 8, 6', () => {
        expect(ANCIENTS_SEED_TABLES.dice).toEqual({ huge: 12, large: 10, medium: 8, small: 6 });
        expect([-3, -2, -1, 0, 1, 2, 5].map(n => toHitFor(n))).toEqual([5, 5, 4, 4, 3, 3, 3]);
        expect(poolSizes(ANCIENTS_SEED_TABLES)).toEqual([14, 12, 10, 8, 6]);
        expect(SEED_DICE).toEqual([14, 12, 10, 8, 6]);
    });

    it('a house save of 3+ for heavy troops: a 3 saves a heavy unit, not a medium one (A5)', () => {
        const tables = withTables({ save: { heavy: 3, medium: 5, light: 6 } });
        const a = unitOf('A.Heavy', 'attacker', { weight: 'heavy', size: 'small' });
        const b = unitOf('B.Medium', 'defender', { weight: 'medium', size: 'small' });
        // Skill and formation even; weight heavy 2 v medium 1: A at +1 hits on 3+, B at −1 on 4+.
        // A throws 6 dice: 3 3 3 1 1 1 = 3 hits on B; B throws 4 4 1 1 1 1 = 2 hits on A.
        // Saves (A first): A's 2 hits on 3+: 3 3 = both saved; B's 3 hits on 5+: 3 3 3 = none saved.
        const dice = [3, 3, 3, 1, 1, 1, 4, 4, 1, 1, 1, 1, 3, 3, 3, 3, 3, 6, 6];
        const out = resolveAncients(duel(a, b), new SequenceDice(dice), tables);
        expect(out.units.map(u => [u.saveOn, u.saved, u.hits])).toEqual([[3, 2, 0], [5, 0, 3]]);
        // With the seed's 4+ the heavy unit saves neither.
        const seed = resolveAncients(duel(a, b), new SequenceDice(dice));
        expect(seed.units[0]).toMatchObject({ saveOn: 4, saved: 0, hits: 2 });
    });

    it('a house to-hit table moves the bands: -5..-1 6, 0 4, 1..4 2, 5 1 makes +1 hit on 2+, −1 on 6+, and +9 counts as +5', () => {
        const tables = withTables({ toHit: [
            { band: { from: -5, to: -1 }, value: 6 }, { band: { from: 0, to: 0 }, value: 4 }, { band: { from: 1, to: 4 }, value: 2 }, { band: { from: 5, to: 5 }, value: 1 }
        ] });
        expect([toHitFor(-1, tables), toHitFor(0, tables), toHitFor(1, tables), toHitFor(9, tables), toHitFor(-9, tables)]).toEqual([6, 4, 2, 1, 6]);
    });

    it('house pools and first-turn bonus: a large shock unit that charged throws 12 + 3', () => {
        const tables = withTables({ dice: { huge: 14, large: 12, medium: 8, small: 6 }, firstTurn: { shock: 3, defensive: 1 } });
        expect(diceFor({ size: 'large', shock: true, defensive: false, charged: true }, true, tables)).toBe(15);
        expect(diceFor({ size: 'large', shock: false, defensive: true, charged: false }, true, tables)).toBe(13);
        expect(diceFor({ size: 'large', shock: true, defensive: false, charged: true }, false, tables)).toBe(12);
    });

    it('house break-test modifiers: +2 winning side, −2 per token, and a 0 leaves the modifier out (A7)', () => {
        const tables = withTables({ breakTest: { 'first-test': 0, 'winning-side': 2, 'extra-multiples': -1, 'damage-tokens': -2 } });
        const u = { tested: false, tokens: 1, side: 'defender' as const };
        expect(testModifiers(u, 6, 3, 'defender', tables)).toEqual([
            { reason: 'winning-side', value: 2 }, { reason: 'extra-multiples', value: -1 }, { reason: 'damage-tokens', value: -2 }
        ]);
    });
});

// ─── Exact odds against every throw through the resolver, under random house tables ────────────

/** Each unit's chance of each result, its expected unsaved hits and tokens, over every sequence of dice the resolver asks for. */
function bruteForce(input: AncientsInput, tables: AncientsTables) {
    const out = new Map(input.units.map(u => [u.id, { results: Object.fromEntries(ANCIENTS_RESULTS.map(r => [r, 0])) as Record<AncientsResult, number>, hits: 0, tokens: 0 }]));
    everyThrow(input, (outcome, p) => {
        for (const u of outcome.units) {
            const o = out.get(u.id)!;
            o.results[u.result] += p;
            o.hits += p * u.hits;
            o.tokens += p * u.tokensGained;
        }
    }, tables);
    return out;
}

const small = fc.integer({ min: 1, max: 2 });
const score = fc.integer({ min: 1, max: 7 });
const step = fc.integer({ min: -1, max: 3 });
const tablesArb: fc.Arbitrary<AncientsTables> = fc.record({
    dice: fc.record({ huge: small, large: small, medium: small, small }),
    firstTurn: fc.record({ shock: fc.integer({ min: 0, max: 1 }), defensive: fc.integer({ min: 0, max: 1 }) }),
    cuts: fc.uniqueArray(fc.integer({ min: -3, max: 3 }), { maxLength: 3 }),
    toHitValues: fc.array(score, { minLength: 4, maxLength: 4 }),
    save: fc.record({ heavy: score, medium: score, light: score }),
    threshold: fc.record({ huge: small, large: small, medium: small, small }),
    steps: fc.record({
        weight: fc.record({ heavy: step, medium: step, light: step }),
        type: fc.record({ cavalry: step, infantry: step }),
        formation: fc.record({ formed: step, warband: step, skirmish: step }),
        position: fc.record({ front: step, flank: step, rear: step })
    }),
    breakTest: fc.record({
        'first-test': fc.integer({ min: -2, max: 2 }), 'winning-side': fc.integer({ min: -2, max: 2 }),
        'extra-multiples': fc.integer({ min: -2, max: 2 }), 'damage-tokens': fc.integer({ min: -2, max: 2 })
    }),
    movement: fc.record({ 'give-ground': fc.integer({ min: 0, max: 200 }), 'follow-up': fc.integer({ min: 0, max: 200 }) })
}).map(({ cuts, toHitValues, ...rest }) => {
    // Bands from the sorted cut points: ..c1-1, c1..c2-1, …, cn.. — every net Advantage once.
    const starts = [null, ...cuts.sort((x, y) => x - y)];
    const toHit = starts.map((from, i) => ({ band: { from, to: i + 1 < starts.length ? starts[i + 1]! - 1 : null }, value: toHitValues[i] }));
    return { ...rest, toHit };
});

const unitArb = (id: string, side: 'attacker' | 'defender') => fc.record({
    size: fc.constantFrom('huge', 'large', 'medium', 'small') as fc.Arbitrary<AncientsUnit['size']>,
    weight: fc.constantFrom('heavy', 'medium', 'light') as fc.Arbitrary<AncientsUnit['weight']>,
    formation: fc.constantFrom('formed', 'warband', 'skirmish') as fc.Arbitrary<AncientsUnit['formation']>,
    type: fc.constantFrom('cavalry', 'infantry') as fc.Arbitrary<AncientsUnit['type']>,
    skill: fc.integer({ min: 0, max: 2 }),
    leadership: fc.integer({ min: 2, max: 9 }),
    tokens: fc.integer({ min: 0, max: 1 }),
    tested: fc.boolean(),
    shock: fc.boolean(),
    charged: fc.boolean()
}).map(over => unitOf(id, side, over));

describe('exact Ancients odds under house rules', () => {
    it('agree with every throw through the resolver, under random house tables', () => {
        fc.assert(fc.property(unitArb('A.U', 'attacker'), unitArb('B.U', 'defender'), tablesArb, fc.constantFrom<1 | 2>(1, 2),
            fc.constantFrom('front', 'flank', 'rear') as fc.Arbitrary<'front' | 'flank' | 'rear'>, fc.boolean(), (a, b, tables, breakDice, aPosition, firstTurn) => {
                const input: AncientsInput = { ...duel(a, b, { breakDice, firstTurn }), pairings: [{ a: a.id, aPosition, b: b.id, bPosition: 'front' }] };
                // Keep the enumeration small: every die of hits, saves and both tests at most 6 in all.
                const pools = input.units.map(u => diceFor(u, firstTurn, tables));
                fc.pre(2 * (pools[0] + pools[1]) + 2 * breakDice <= 7);
                const exact = bruteForce(input, tables);
                const odds = ancientsOdds(input, tables);
                for (const u of odds.units) {
                    const e = exact.get(u.id)!;
                    for (const r of ANCIENTS_RESULTS) expect(Math.abs(u.probabilities[r] - e.results[r]), `${u.id} ${r}`).toBeLessThanOrEqual(1e-12);
                    expect(u.expectedHits).toBeCloseTo(e.hits, 12);
                    expect(u.expectedTokens).toBeCloseTo(e.tokens, 12);
                }
            }), { numRuns: 60 });
    });
});

// ─── House blocks in an Ancients file ──────────────────────────────────────────────────────────

const FILE = `rules ancients
house {
  save heavy 3
}
grade Hoplite { size large, weight heavy, formation formed, skill 2, leadership 7 }
grade Sparabara { size large, weight medium, formation formed, skill 1, leadership 7 }
force Greeks { unit Hoplites infantry Hoplite }
force Persians { unit Sparabara infantry Sparabara }
engagement Asopus {
  Greeks attacks Persians
  dice Greeks.Hoplites hit 6 5 3 1 2 4 3 6 2 1
  dice Persians.Sparabara hit 4 2 6 1 3 5 2 6 3 1
  dice Persians.Sparabara save 1 5 2 3 6 4
  dice Greeks.Hoplites save 4 1 3
  dice Persians.Sparabara test 4 3
}
`;

async function load(text: string) {
    const loaded = await loadText('house.battle', text);
    return { model: modelOf(loaded.document.parseResult.value), diagnostics: loaded.diagnostics.map(d => `${d.code}: ${d.message}`) };
}

describe('house blocks in an Ancients file', () => {
    it('resolve saves the hoplites on 3+ and says the house row applied', async () => {
        const { model, diagnostics } = await load(FILE);
        expect(diagnostics).toEqual([]);
        const r = resolveAction(model, model.actions[0], { newSeed: () => 1 });
        if (isUnresolvable(r)) throw new Error(r.problem);
        // Hoplites receive 3 hits (the Sparabara at −2 hit on 5+: 6 5 6), save 4 1 3 on 3+: 4 and 3 saved.
        expect(r.resolution.text).toContain('  3 hits received, saves on 3+: 4 1 3 = 2 saved, 1 unsaved (threshold 4)  (house: save heavy 3)');
        // The Sparabara's own saves are the seed's: no note.
        expect(r.resolution.text).toContain('  6 hits received, saves on 5+: 1 5 2 3 6 4 = 2 saved, 4 unsaved (threshold 4)');
    });

    it('odds under the house rules: the hoplites\' expected unsaved hits are 10 · 1/3 · 1/3, and the note says why', async () => {
        const { model } = await load(FILE.replace(/ {2}dice [^\n]*\n/g, ''));
        const odds = oddsForAction(model, model.actions[0]) as OddsReport;
        expect(odds.units.find(u => u.id === 'Greeks.Hoplites')!.expectedHits).toBeCloseTo(10 / 9, 12);
        expect(odds.notes).toContain('Under the house rules: save heavy 3.');
        const seed = oddsForAction((await load(FILE.replace(/house \{[^}]*\}\n/, '').replace(/ {2}dice [^\n]*\n/g, ''))).model, model.actions[0]) as OddsReport;
        // With the seed's 4+: 10 · 1/3 · 1/2.
        expect(seed.units.find(u => u.id === 'Greeks.Hoplites')!.expectedHits).toBeCloseTo(10 / 6, 12);
        expect(seed.notes).toEqual([]);
    });

    it('checks: unknown key, a to-hit or save no d6 scores, a break test on 3 dice, a threshold of 0, a to-hit gap', async () => {
        const { diagnostics } = await load(`rules ancients
house {
  save heavy 7, huge 3
  to-hit -5..-1 7, 1..5 3
  threshold small 0
  break d6 3
}
`);
        expect(diagnostics).toEqual([
            "house-key: 'save': 'huge' is not one of its keys (weights): heavy, medium, light.",
            "house-value: 'threshold': 0 is out of range: its values are numbers of 1 or more.",
            "house-band-gap: 'to-hit': no band covers 0: a house table replaces the seed's whole, so its bands must cover -5 to 5.",
            'ancients-house-impossible: No d6 scores 7+: a heavy unit never saves a hit. Write 6 or less, or keep it if the club means no save at all.',
            'ancients-house-impossible: No d6 scores 7+: a unit at net Advantage -5..-1 never hits. Write 6 or less.',
            "ancients-house-impossible: A break test throws 2d6 or 1d6 (A7): write 'd6 2' or 'd6 1', not 3."
        ]);
    });

    it('a house break test on one die makes leadership 9 untestable (1d6 +1 +1 reaches 8)', async () => {
        const text = `rules ancients
house { break d6 1 }
force G { unit U infantry { size small, skill 1, weight light, formation skirmish, leadership 9 } }
`;
        const { diagnostics } = await load(text);
        expect(diagnostics).toEqual(['ancients-leadership-range: A leadership of 9 cannot be tested: a d6 rolls 1–6, and with +1 for a first test and +1 for the winning side the test scores at most 8 (A7); write 1 to 8.']);
        const bigger = await load(text.replace('break d6 1', 'break d6 1, winning-side 3'));
        expect(bigger.diagnostics).toEqual([]);
        expect((await load(text.replace('house { break d6 1 }\n', ''))).diagnostics).toEqual([]);
    });

    it('a turn\'s house block changes that turn only: break tests on one die in turn 1', async () => {
        const text = `rules ancients
grade G { size small, weight light, formation skirmish, skill 0, leadership 5 }
force A { unit U infantry G }
force B { unit U infantry G }
force C { unit U infantry G }
force D { unit U infantry G }
turn 1 {
  house { break d6 1 }
  engagement First { A attacks B
    seed 3 }
}
turn 2 {
  engagement Second { C attacks D
    seed 3 }
}
`;
        const { model, diagnostics } = await load(text);
        expect(diagnostics).toEqual([]);
        const breakDice = model.actions.map(a => {
            const r = resolveAction(model, a, { newSeed: () => 1 });
            return isUnresolvable(r) ? r.problem : (r.resolution.json as unknown as { breakDice: number }).breakDice;
        });
        expect(breakDice).toEqual([1, 2]);
    });

    it('changing a house rule above a written outcome flags it stale', async () => {
        const check = async (t: string) => { const l = await loadText('house.battle', t); return { root: l.document.parseResult.value, errors: l.diagnostics.filter(d => d.severity === 1).map(d => d.message as string) }; };
        const written = (await resolveAll(FILE, check, { newSeed: () => 1 })).text;
        const current = await load(written);
        expect(outcomeStatus(current.model, current.model.actions[0])).toEqual({ kind: 'current' });
        const stale = await load(written.replace('save heavy 3', 'save heavy 4'));
        expect(outcomeStatus(stale.model, stale.model.actions[0])).toEqual({ kind: 'stale' });
        expect(stale.diagnostics.some(d => d.startsWith('outcome-stale'))).toBe(true);
    });
});

describe('the movement table (A9)', () => {
    const FLANK = fs.readFileSync('examples/ancients-flank.battle', 'utf8');
    /** The breakdown of the file's first engagement, and the file's problems. */
    const breakdown = async (text: string) => {
        const { model, diagnostics } = await load(text);
        const r = resolveAction(model, model.actions[0], { newSeed: () => 1 });
        if (isUnresolvable(r)) throw new Error(r.problem);
        return { text: r.resolution.text, diagnostics };
    };

    it('a house movement table moves the unit giving ground its whole move and the follower a quarter, and the breakdown names the rows', async () => {
        const house = await breakdown(FLANK.replace('rules ancients\n', 'rules ancients\nhouse {\n  movement give-ground 100, follow-up 25\n}\n'));
        expect(house.diagnostics).toEqual([]);
        // The Immortals' move is 4 (all of it: 4"); the Companions' 8 (a quarter: 2").
        expect(house.text).toContain('  gives ground 4"  (house: movement give-ground 100)');
        expect(house.text).toContain('  follows up 2"  (house: movement follow-up 25)');
        // The seed's half of each, without a note.
        const seed = await breakdown(FLANK);
        expect(seed.text).toContain('  gives ground 2"');
        expect(seed.text).toContain('  follows up 4"');
    });
});
