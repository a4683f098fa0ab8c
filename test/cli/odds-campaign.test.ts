/**
 * `umpire odds FILE --campaign` on the example campaign: the JSON of docs/json.md#campaign-odds,
 * every unit's end a law, the first engagement's odds its own, `--through 1` the odds of turn 1, the
 * sampled path within four standard errors of the exact one and the same from the same seed.
 */
import { describe, expect, it } from 'vitest';
import { oddsCommand, type OddsCliOptions } from '../../src/cli/odds-command.js';
import { campaignOddsCommand } from '../../src/cli/campaign-odds-command.js';
import { CliError } from '../../src/cli/load.js';
import type { CampaignOddsReport } from '../../src/core/campaign-odds.js';
import type { OddsReport } from '../../src/protocol.js';

async function run(file: string, options: OddsCliOptions): Promise<string[]> {
    const lines: string[] = [];
    await (options.campaign ? campaignOddsCommand : oddsCommand)(file, options, l => lines.push(l));
    return lines;
}

async function campaignJson(options: OddsCliOptions = {}): Promise<CampaignOddsReport & { schema: number }> {
    return JSON.parse((await run('examples/campaign.battle', { campaign: true, json: true, ...options })).join('\n'));
}

async function singleOdds(name: string): Promise<OddsReport> {
    const out = JSON.parse((await run('examples/campaign.battle', { engagement: name, json: true })).join('\n')) as { engagements: OddsReport[] };
    return out.engagements[0];
}

const sum = (r: Record<string, number>) => Object.values(r).reduce((s, p) => s + p, 0);

describe('umpire odds --campaign', { timeout: 300_000 }, () => {
    it('gives every unit of examples/campaign.battle an end whose chances sum to 1, and each counter a law', async () => {
        const report = await campaignJson();
        expect(report.schema).toBe(1);
        expect(report.method).toBe('exact');
        expect(report.units.map(u => u.id)).toEqual(['Successors.Phalanx', 'Successors.Thureophoroi', 'Gauls.Warriors', 'Gauls.Boii']);
        for (const u of report.units) {
            expect(Math.abs(sum(u.status) - 1)).toBeLessThan(1e-12);
            const tokens = u.counters.tokens;
            expect(Math.abs(tokens.law.reduce((s, p) => s + p, 0) - 1)).toBeLessThan(1e-12);
            expect(tokens.mean).toBeCloseTo(tokens.law.reduce((s, p, k) => s + p * k, 0), 12);
        }
        // The Boii fight at the pass and at the camp: destroyed at the pass, they cannot fight at the camp.
        const camp = report.actions.find(a => a.name === 'Camp')!;
        expect(camp.fought).toBeGreaterThan(0);
        expect(camp.fought).toBeLessThan(1);
        expect(camp.outOfTheFight['Gauls.Boii']).toBeGreaterThan(0);
    });

    it('gives the first engagement its own odds, and --through 1 the odds of turn 1', async () => {
        const ford = await singleOdds('Ford');
        const whole = await campaignJson();
        const first = whole.actions[0];
        expect(first.fought).toBe(1);
        for (const [i, u] of ford.units.entries()) {
            for (const [label, p] of Object.entries(u.probabilities)) expect(first.odds!.units[i].probabilities[label]).toBeCloseTo(p, 12);
            expect(first.odds!.units[i].expectedTokens as number).toBeCloseTo(u.expectedTokens as number, 12);
        }
        const turn1 = await campaignJson({ through: '1' });
        expect(turn1.through).toBe('1');
        expect(turn1.actions.map(a => a.name)).toEqual(['Ford']);
        for (const u of ford.units) {
            const end = turn1.units.find(x => x.id === u.id)!;
            expect(end.status.destroyed).toBeCloseTo(u.probabilities.destroyed, 12);
            expect(end.status.ready).toBeCloseTo(1 - u.probabilities.destroyed, 12);
            expect(end.tested).toBeCloseTo(u.atLeast!.tested, 12);
            // Ford is each unit's first fight: its tokens at the end are the tokens it gains there.
            expect(end.counters.tokens.mean).toBeCloseTo(u.expectedTokens as number, 12);
        }
    });

    it('samples within four standard errors of the exact figures, and the same seed gives the same figures', async () => {
        const exact = await campaignJson();
        const sampled = await campaignJson({ method: 'monte-carlo', samples: 800, seed: 7 });
        expect(sampled.method).toBe('monte-carlo');
        expect(sampled.samples).toBe(800);
        for (const u of sampled.units) {
            const e = exact.units.find(x => x.id === u.id)!;
            for (const s of ['ready', 'destroyed']) expect(Math.abs(u.status[s] - e.status[s])).toBeLessThan(4 * u.se!.status[s] + 1 / 800);
            expect(Math.abs(u.counters.tokens.mean - e.counters.tokens.mean)).toBeLessThan(4 * u.counters.tokens.se!.mean + 1 / 800);
        }
        for (const s of sampled.sides) {
            const e = exact.sides.find(x => x.force === s.force)!;
            expect(Math.abs(s.atLeastOne.destroyed - e.atLeastOne.destroyed)).toBeLessThan(4 * s.se!.atLeastOne.destroyed + 1 / 800);
        }
        expect(await campaignJson({ method: 'monte-carlo', samples: 800, seed: 7 })).toEqual(sampled);
        expect(await campaignJson({ method: 'monte-carlo', samples: 800, seed: 8 })).not.toEqual(sampled);
    }, 600_000);

    it('keeps the record with --from-record: a file whose every outcome is written has one end', async () => {
        const report = await campaignJson({ fromRecord: true });
        expect(report.actions.every(a => !a.open)).toBe(true);
        const boii = report.units.find(u => u.id === 'Gauls.Boii')!;
        expect(boii.status.destroyed).toBe(1);
    });

    it('prints a table with the mean and spread of each counter', async () => {
        const text = (await run('examples/campaign.battle', { campaign: true })).join('\n');
        expect(text).toContain('Campaign odds at the end of the file');
        expect(text).toMatch(/tokens \(mean ± sd\)/);
        expect(text).toContain('engagement Camp (turn 3): campaign odds, when it is fought');
    });

    it('refuses a turn that is not there, and campaign options without --campaign', async () => {
        await expect(run('examples/campaign.battle', { campaign: true, through: '9' })).rejects.toThrow(/no turn '9'/);
        await expect(run('examples/campaign.battle', { through: '1' })).rejects.toBeInstanceOf(CliError);
    });
});
