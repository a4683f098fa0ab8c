/**
 * `umpire resolve --json` and `umpire table` on the Ancients examples: the per-unit outcomes an
 * umpire can check by hand (docs/rules/ancients.md works the flank example through), the JSON shape
 * of docs/json.md, and the outcome block that the campaign reads back.
 */
import { describe, expect, it } from 'vitest';
import { resolveCommand } from '../../../src/cli/resolve-command.js';
import { tableCommand } from '../../../src/rulesets/ancients/ancients-table-command.js';
import { loadFile } from '../../../src/cli/load.js';
import { modelOf } from '../../../src/core/model-cache.js';
import { formatOutcomeLine } from '../../../src/core/outcome-block.js';
import { isUnresolvable, resolveAction } from '../../../src/core/resolve.js';
import { D6, SeededDice } from '../../../src/core/dice.js';

async function run(file: string, options: { json?: boolean, seed?: number } = {}): Promise<string[]> {
    const lines: string[] = [];
    expect(await resolveCommand(file, options, l => lines.push(l))).toBe(0);
    return lines;
}

async function resolveJson(file: string) {
    const lines = await run(file, { json: true });
    return JSON.parse(lines.join('\n'));
}

describe('examples/ancients-flank.battle (entered dice)', () => {
    it('gives the outcome worked by hand', async () => {
        const json = await resolveJson('examples/ancients-flank.battle');
        expect(json.rules).toBe('ancients');
        const [e] = json.engagements;
        expect(e).toMatchObject({ name: 'Ford', seed: null, firstTurn: true, breakDice: 2, sideHits: { attacker: 3, defender: 9 }, winner: 'attacker' });
        const byUnit = Object.fromEntries(e.units.map((u: { force: string, unit: string }) => [`${u.force}.${u.unit}`, u]));
        // Hoplites: large + defensive, did not charge: 12 dice at 3+ (heavy v medium, +1).
        expect(byUnit['Greeks.Hoplites']).toMatchObject({
            result: 'untested', dice: 12, hitsScored: 8, hitsReceived: 3, saves: { on: 4, saved: 1 }, hits: 2, unsavedHits: 2, tested: false, test: null,
            attacks: [{ target: 'Persians.Immortals', dice: 12, advantage: 1, toHit: 3, hits: 8 }]
        });
        // Companions: medium shock that charged, in the flank: skill −1, type +1, position +1 = +1.
        expect(byUnit['Greeks.Companions']).toMatchObject({
            result: 'untested', dice: 10, hitsScored: 4, hits: 1,
            attacks: [{ target: 'Persians.Immortals', dice: 10, advantage: 1, toHit: 3 }],
            followUp: { from: ['Persians.Immortals'], allowed: true, chosen: true, moves: true, distance: 4 }
        });
        // Immortals: split 6/4 at 4+; 12 hits received, 3 saved on 5+: 9 unsaved, threshold 4 → test.
        // 4+3 = 7, +1 first test, −1 for ⌊9/4⌋ − 1 = 1 extra multiple → 7 = leadership: gives ground, 2 tokens.
        expect(byUnit['Persians.Immortals']).toMatchObject({
            result: 'gives-ground', dice: 10, hitsReceived: 12, saves: { on: 5, saved: 3 }, hits: 9, threshold: 4, tested: true,
            attacks: [{ target: 'Greeks.Hoplites', dice: 6, toHit: 4, hits: 3 }, { target: 'Greeks.Companions', dice: 4, toHit: 4, hits: 1 }],
            test: { dice: [4, 3], roll: 7, modifiers: [{ reason: 'first-test', value: 1 }, { reason: 'extra-multiples', value: -1 }], total: 7, needed: 7 },
            tokensGained: 2, givesGround: 2
        });
        expect(e.summary).toBe('Greeks 3 hits, Persians 9 hits · Persians.Immortals gives-ground');
    });

    it('prints lines a reader can check', async () => {
        const text = (await run('examples/ancients-flank.battle')).join('\n');
        expect(text).toContain('→ Greeks.Hoplites: 6 at 4+ (advantage −1: weight −1): 4 2 6 1 3 5 = 3 hits');
        expect(text).toContain('break test: 4+3 = 7 +1 first test −1 extra multiples → 7 vs leadership 7: gives-ground; gains 2 tokens');
    });

    it('writes outcome lines with the keys the campaign reads (hits, tested, tokens)', async () => {
        const loaded = await loadFile('examples/ancients-flank.battle');
        const model = modelOf(loaded.document.parseResult.value);
        const r = resolveAction(model, model.actions[0], { newSeed: () => 0 });
        if (isUnresolvable(r)) throw new Error(r.problem);
        expect(r.resolution.lines.map(formatOutcomeLine)).toEqual([
            'Greeks.Hoplites: untested, hits 2 vs Persians.Immortals',
            'Greeks.Companions: untested, hits 1, follow-up vs Persians.Immortals',
            'Persians.Immortals: gives-ground, hits 9, tested, roll 7, total 7, tokens 2 vs Greeks.Hoplites'
        ]);
    });
});

describe('examples/ancients-tokens.battle (seeded)', () => {
    it('reproduces from its seed, with the tokens and the earlier test counted', async () => {
        const a = await resolveJson('examples/ancients-tokens.battle');
        const b = await resolveJson('examples/ancients-tokens.battle');
        expect(a).toEqual(b);
        const [e] = a.engagements;
        expect(e.seed).toBe(12);
        const thureo = e.units.find((u: { unit: string }) => u.unit === 'Thureophoroi');
        // Already tested (no +1) and carrying 2 tokens (−2), whatever the dice.
        expect(thureo.test.modifiers).toContainEqual({ reason: 'damage-tokens', value: -2 });
        expect(thureo.test.modifiers.map((m: { reason: string }) => m.reason)).not.toContain('first-test');
        expect(thureo.test.total).toBe(thureo.test.roll + thureo.test.modifiers.reduce((s: number, m: { value: number }) => s + m.value, 0));
        for (const u of e.units) {
            expect(['untested', 'holds', 'gives-ground', 'destroyed']).toContain(u.result);
            expect(u.hits).toBe(u.hitsReceived - u.saves.saved);
            expect(u.saves.rolls).toHaveLength(u.hitsReceived);
        }
    });

    it('throws the seeded dice in the documented order: every hit, then every save, then every test', async () => {
        const [e] = (await resolveJson('examples/ancients-tokens.battle')).engagements;
        type U = { attacks: Array<{ rolls: number[] }>, saves: { rolls: number[] }, test: { dice: number[] } | null };
        const order = [
            ...e.units.flatMap((u: U) => u.attacks.flatMap(a => a.rolls)),
            ...e.units.flatMap((u: U) => u.saves.rolls),
            ...e.units.flatMap((u: U) => u.test?.dice ?? [])
        ];
        expect(order).toEqual(new SeededDice(12).rollMany(D6, order.length));
        // Pinned, so that a change of generator or order cannot pass unnoticed.
        expect(e.units[0].attacks[0].rolls).toEqual([2, 4, 4, 1, 4, 6, 3, 6, 6, 6, 5, 5, 5, 2]);
    });

    it('another seed throws other dice', async () => {
        const lines = await run('examples/ancients-tokens.battle', { json: true, seed: 99 });
        expect(JSON.parse(lines.join('\n')).engagements[0].seed).toBe(99);
    });
});

describe('umpire table', () => {
    it('prints the seed\'s block for 14 dice', async () => {
        const lines: string[] = [];
        await tableCommand({ dice: '14' }, l => lines.push(l));
        // The seed's figures, cell by cell (the CLI aligns the columns; test/cli/cli-help.test.ts checks that).
        expect(lines.slice(1).map(l => l.trim().split(/ +/).join(' '))).toEqual([
            '14 - 6+ 5+ 4+ 3+ 2+',
            '6+ 2.333333 1.944444 1.555556 1.166667 0.777778 0.388889',
            '5+ 4.666667 3.888889 3.111111 2.333333 1.555556 0.777778',
            '4+ 7 5.833333 4.666667 3.5 2.333333 1.166667',
            '3+ 9.333333 7.777778 6.222222 4.666667 3.111111 1.555556',
            '2+ 11.66667 9.722222 7.777778 5.833333 3.888889 1.944444'
        ]);
    });
    it('gives exact fractions in JSON for any pool', async () => {
        const lines: string[] = [];
        await tableCommand({ dice: '7', json: true }, l => lines.push(l));
        const t = JSON.parse(lines.join('\n')).tables[0];
        expect(t.dice).toBe(7);
        // 7 dice hitting on 4+ against a 5+ save: 7 · 1/2 · 4/6 = 7/3.
        expect(t.rows[2].cells[2]).toEqual({ save: 5, exact: '7/3', expected: 7 / 3, text: '2.333333' });
    });
});

describe('examples/broken-ancients.battle', () => {
    it('gets one diagnostic per mistake, on the line whose comment names its code', async () => {
        const file = 'examples/broken-ancients.battle';
        const loaded = await loadFile(file);
        const lines = loaded.text.split('\n');
        const expected = lines.flatMap((l, i) => {
            const m = /\/\/ ([a-z-]+):/.exec(l);
            return m && i > 1 ? [`${i} ${m[1]}`] : [];
        });
        const got = loaded.diagnostics.map(d => `${d.range.start.line} ${d.code}`).sort();
        expect(got).toEqual(expected.sort());
        expect(expected.length).toBeGreaterThanOrEqual(10);
        await expect(resolveCommand(file, {}, () => undefined)).rejects.toThrow(/fix the errors/);
    });
});
