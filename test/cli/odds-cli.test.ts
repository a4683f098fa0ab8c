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
