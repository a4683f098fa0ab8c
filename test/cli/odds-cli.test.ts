/**
 * `umpire odds` end to end on the examples: the JSON of docs/json.md "Odds", per engagement and
 * per unit, with the rule sets' result labels, and the errors an umpire can make on the command line.
 */
import { describe, expect, it } from 'vitest';
import { oddsCommand, percent } from '../../src/cli/odds-command.js';
import { CliError } from '../../src/cli/load.js';
import { SCRUD_RESULTS } from '../../src/rulesets/scrud/engine/scrud-engine.js';
import { ANCIENTS_RESULTS } from '../../src/rulesets/ancients/engine/ancients-engine.js';

async function run(file: string, options: { engagement?: string, json?: boolean }): Promise<string[]> {
    const lines: string[] = [];
    await oddsCommand(file, options, l => lines.push(l));
    return lines;
}

interface JsonUnit { force: string, unit: string, id: string, probabilities: Record<string, number>, hits?: number[] }
interface JsonOdds { engagements: Array<{ name: string, units: JsonUnit[], sides: Array<{ force: string, expected: Record<string, number>, atLeastOne: Record<string, number> }> }> }

const sum = (r: Record<string, number>) => Object.values(r).reduce((s, p) => s + p, 0);

describe('umpire odds --json', () => {
    it('gives every unit of examples/scrud-large.battle probabilities keyed by the S6 labels, summing to 1', async () => {
        const out = JSON.parse((await run('examples/scrud-large.battle', { json: true })).join('\n')) as JsonOdds;
        const ridge = out.engagements[0];
        expect(ridge.name).toBe('Ridge');
        expect(ridge.units).toHaveLength(40);
        for (const u of ridge.units) {
            expect(Object.keys(u.probabilities)).toEqual([...SCRUD_RESULTS]);
            expect(Math.abs(sum(u.probabilities) - 1)).toBeLessThan(1e-12);
            expect(u.id).toBe(`${u.force}.${u.unit}`);
        }
        // 14 v 14 foot and 6 v 6 horse: nobody is left unpaired, and each side's expected counts add up to its 20 units.
        for (const s of ridge.sides) {
            expect(s.expected.unpaired).toBeCloseTo(0, 12);
            expect(sum(s.expected)).toBeCloseTo(20, 10);
            expect(s.atLeastOne.rout).toBeGreaterThan(0);
        }
    });

    it('adds the law of unsaved hits for Ancients', async () => {
        const out = JSON.parse((await run('examples/ancients-flank.battle', { json: true })).join('\n')) as JsonOdds;
        for (const u of out.engagements[0].units) {
            expect(Object.keys(u.probabilities)).toEqual([...ANCIENTS_RESULTS]);
            expect(u.hits!.length).toBeGreaterThan(1);
            expect(Math.abs(u.hits!.reduce((s, p) => s + p, 0) - 1)).toBeLessThan(1e-12);
        }
    });

    it('prints a table per engagement with per-side lines', async () => {
        const lines = await run('examples/scrud-seed.battle', {});
        expect(lines[0]).toBe('engagement Example: exact odds');
        expect(lines.some(l => l.includes('Attacker.Guard'))).toBe(true);
        expect(lines.some(l => l.includes('P(≥1 rout)'))).toBe(true);
    });

    it('gives every count\'s sd beside its mean: sdHits from the unit\'s own law of hits, and each side\'s sd per result', async () => {
        const out = JSON.parse((await run('examples/ancients-flank.battle', { json: true })).join('\n')) as JsonOdds;
        for (const u of out.engagements[0].units as Array<JsonUnit & Record<string, unknown>>) {
            const mean = u.hits!.reduce((s, p, k) => s + p * k, 0);
            const variance = u.hits!.reduce((s, p, k) => s + p * (k - mean) ** 2, 0);
            expect(u.sdHits as number).toBeCloseTo(Math.sqrt(variance), 12);
            expect(typeof u.sdTokens).toBe('number');
        }
        for (const s of out.engagements[0].sides as Array<{ expected: Record<string, number>, sd?: Record<string, number> }>) {
            expect(Object.keys(s.sd!)).toEqual(Object.keys(s.expected));
        }
    });

    it('prints each count as mean ± sd, per unit and per side, the figures of the JSON', async () => {
        const json = JSON.parse((await run('examples/ancients-flank.battle', { json: true })).join('\n')) as JsonOdds;
        const lines = await run('examples/ancients-flank.battle', {});
        const odds = json.engagements[0] as unknown as { units: Array<Record<string, number> & { id: string }>, sides: Array<{ force: string, expected: Record<string, number>, sd: Record<string, number> }> };
        expect(lines[1]).toMatch(/hits \(mean ± sd\)\s+tokens \(mean ± sd\)$/);
        expect(lines).toContain('  per side (number of units: mean ± sd; chance of at least one):');
        for (const u of odds.units) {
            const row = lines.find(l => l.startsWith(`  ${u.id} `))!;
            expect(row.split(/\s{2,}/).slice(-2), row).toEqual([`${u.expectedHits.toFixed(2)} ± ${u.sdHits.toFixed(2)}`, `${u.expectedTokens.toFixed(2)} ± ${u.sdTokens.toFixed(2)}`]);
        }
        for (const s of odds.sides) {
            const row = lines.find(l => l.startsWith(`  ${s.force} `))!;
            expect(row).toContain(`${s.expected.destroyed.toFixed(2)} ± ${s.sd.destroyed.toFixed(2)}`);
        }
    });

    it('prints a SCRUD side\'s mean alone, with a note, where the results in one line have no known joint law', async () => {
        const lines = await run('examples/scrud-seed.battle', {});
        const attacker = lines.find(l => l.startsWith('  Attacker  '))!;
        expect(attacker).not.toContain('±');
        expect(lines).toContain('  note: Attacker, Defender: the spread (sd) of the number of units with each result is left out: units in one line are sorted together (S4), and the exact odds keep no joint law of their results.');
    });

    it('says which engagements exist when asked for one that does not', async () => {
        await expect(run('examples/scrud-seed.battle', { engagement: 'Nope' })).rejects.toThrow(/no engagement named 'Nope' \(there are: Example\)/);
    });

    it('refuses a file with errors, exit code 1', async () => {
        const err = await run('examples/broken-scrud.battle', {}).catch((e: unknown) => e);
        expect(err).toBeInstanceOf(CliError);
        expect((err as CliError).exitCode).toBe(1);
    });

    it('shows tiny chances as <0.1% and impossible ones as 0', () => {
        expect(percent(0)).toBe('0');
        expect(percent(1e-17)).toBe('0');
        expect(percent(0.0001)).toBe('<0.1%');
        expect(percent(5 / 12)).toBe('41.7%');
        expect(percent(1)).toBe('100%');
    });
});
