/**
 * `umpire odds FILE --campaign --what-if …` and `--house OTHER.battle`: the campaign as written and
 * changed, and their difference. The changed campaign is checked against the same file edited by
 * hand and asked for its campaign odds on its own; turn 1 of a campaign what-if against the
 * one-engagement what-if of that turn; the house rules of another file against the same blocks
 * written into the file.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { campaignOddsCommand } from '../../src/cli/campaign-odds-command.js';
import { oddsCommand, type OddsCliOptions } from '../../src/cli/odds-command.js';
import { CliError } from '../../src/cli/load.js';
import type { CampaignOddsReport } from '../../src/core/campaign-odds.js';
import type { CampaignDifference } from '../../src/report/campaign-compare.js';
import type { OddsReport } from '../../src/protocol.js';

interface Comparison {
    schema: number;
    whatIf: string[];
    house: string | null;
    before: CampaignOddsReport;
    after: CampaignOddsReport;
    difference: CampaignDifference;
    notes: string[];
}

async function run(file: string, options: OddsCliOptions, err: string[] = []): Promise<string[]> {
    const lines: string[] = [];
    await (options.campaign ? campaignOddsCommand : oddsCommand)(file, options, l => lines.push(l), l => err.push(l));
    return lines;
}

const json = async <T>(file: string, options: OddsCliOptions): Promise<T> => JSON.parse((await run(file, { json: true, ...options })).join('\n')) as T;

const dir = mkdtempSync(join(tmpdir(), 'umpire-campaign-compare-'));
function written(name: string, text: string): string {
    const file = join(dir, name);
    writeFileSync(file, text);
    return file;
}

/** Every figure of two campaign reports, to 1e-12. */
function expectSameCampaign(a: CampaignOddsReport, b: CampaignOddsReport): void {
    expect(a.units.map(u => u.id)).toEqual(b.units.map(u => u.id));
    for (const [i, u] of a.units.entries()) {
        const v = b.units[i];
        for (const [s, p] of Object.entries(u.status)) expect(v.status[s] ?? 0).toBeCloseTo(p, 12);
        for (const [c, law] of Object.entries(u.counters)) expect(v.counters[c].mean).toBeCloseTo(law.mean, 12);
    }
    for (const [i, s] of a.sides.entries()) for (const [k, p] of Object.entries(s.atLeastOne)) expect(b.sides[i].atLeastOne[k]).toBeCloseTo(p, 12);
    expect(a.actions.map(x => x.fought)).toEqual(b.actions.map(x => x.fought).map(f => expect.closeTo(f, 12) as unknown as number));
}

const CAMPAIGN = 'examples/campaign.battle';
const WITHOUT_CHARGE = 'without fact charged on Gauls.Warriors';

describe('umpire odds --campaign --what-if', { timeout: 300_000 }, () => {
    it('gives the campaign of the file edited as the what-if says, beside it as written, and their difference', async () => {
        const compared = await json<Comparison>(CAMPAIGN, { campaign: true, engagement: 'Ford', whatIf: [WITHOUT_CHARGE] });
        expect(compared.schema).toBe(1);
        expect(compared.whatIf).toEqual([WITHOUT_CHARGE]);
        const text = readFileSync(CAMPAIGN, 'utf8');
        // The Ford's only `Gauls.Warriors: charged` line, taken out by hand.
        const charged = '    Gauls.Warriors: charged\n';
        expect(text.split(charged)).toHaveLength(2);
        const byHand = written('campaign-no-charge.battle', text.replace(charged, ''));
        expectSameCampaign(compared.before, await json<CampaignOddsReport>(CAMPAIGN, { campaign: true }));
        expectSameCampaign(compared.after, await json<CampaignOddsReport>(byHand, { campaign: true }));
        for (const [i, u] of compared.difference.units.entries()) {
            for (const [s, d] of Object.entries(u.status)) expect(d).toBeCloseTo((compared.after.units[i].status[s] ?? 0) - (compared.before.units[i].status[s] ?? 0), 12);
            expect(u.counters.tokens).toBeCloseTo(compared.after.units[i].counters.tokens.mean - compared.before.units[i].counters.tokens.mean, 12);
        }
        // The change is felt: without the charge the Warriors hit less often, and the Thureophoroi survive more.
        const thureophoroi = compared.difference.units.find(u => u.id === 'Successors.Thureophoroi')!;
        expect(thureophoroi.status.destroyed).toBeLessThan(-0.01);
    });

    it('after turn 1, gives the figures of the one-engagement what-if of that turn', async () => {
        const compared = await json<Comparison>(CAMPAIGN, { campaign: true, through: '1', engagement: 'Ford', whatIf: [WITHOUT_CHARGE] });
        const single = await json<{ after: OddsReport }>(CAMPAIGN, { engagement: 'Ford', whatIf: [WITHOUT_CHARGE] });
        for (const u of single.after.units) {
            const end = compared.after.units.find(x => x.id === u.id)!;
            expect(end.status.destroyed ?? 0).toBeCloseTo(u.probabilities.destroyed ?? 0, 12);
            expect(end.counters.tokens.mean).toBeCloseTo(u.expectedTokens as number, 12);
        }
    });

    it('takes a change to the whole file (a grade) without --engagement', async () => {
        const compared = await json<Comparison>(CAMPAIGN, { campaign: true, whatIf: ['grade Gauls.Boii Thureophoroi'] });
        const byHand = written('campaign-boii.battle', readFileSync(CAMPAIGN, 'utf8').replace('unit Boii infantry Warband', 'unit Boii infantry Thureophoroi'));
        expectSameCampaign(compared.after, await json<CampaignOddsReport>(byHand, { campaign: true }));
    });

    it('prints both campaigns and the difference in percentage points', async () => {
        const text = (await run(CAMPAIGN, { campaign: true, engagement: 'Ford', whatIf: [WITHOUT_CHARGE] })).join('\n');
        expect(text).toContain('As written:\nCampaign odds at the end of the file');
        expect(text).toContain(`What if ${WITHOUT_CHARGE}:\nCampaign odds`);
        expect(text).toMatch(new RegExp(`Difference \\(what if ${WITHOUT_CHARGE} minus as written\\), at the end of the file`));
        expect(text).toMatch(/Successors\.Thureophoroi +\+\d+\.\d +−\d+\.\d/);
    });

    it('says which engagement a change of one action needs, and refuses one it cannot make', async () => {
        await expect(run(CAMPAIGN, { campaign: true, whatIf: [WITHOUT_CHARGE] })).rejects.toThrow(/name the action with --engagement/);
        await expect(run(CAMPAIGN, { campaign: true, engagement: 'Ford', whatIf: ['without fact charged on Gauls.Boii'] })).rejects.toThrow(/has no fact charged on Gauls\.Boii/);
        await expect(run(CAMPAIGN, { campaign: true, engagement: 'Ford' })).rejects.toThrow(/--engagement goes with --what-if/);
    });
});

const SCRUD = `scenario "Two fights"
rules scrud

HOUSE
grade Veteran +1
grade Raw -1

force French {
  unit Line foot Veteran
  unit Conscripts foot Raw
}

force Austrian {
  unit Grenz foot Veteran
}

engagement Bridge {
  French.Line attacks Austrian.Grenz
}

engagement Mill {
  French.Conscripts attacks Austrian.Grenz
}
`;

const CLUB = 'house {\n  result 0 stand-off, 1 recoil, 2 retire, 3..4 retreat, 5.. rout\n}\n';

describe('umpire odds --campaign --house', { timeout: 300_000 }, () => {
    it('gives the campaign with the other file\'s house rules in place of the file\'s own', async () => {
        const own = written('own.battle', SCRUD.replace('HOUSE\n', 'house {\n  result 0 recoil, 1 recoil, 2 retire, 3 retreat, 4.. rout\n}\n'));
        const club = written('club.battle', `scenario "The club's table"\nrules scrud\n\n${CLUB}`);
        const byHand = written('by-hand.battle', SCRUD.replace('HOUSE\n', CLUB));
        const compared = await json<Comparison>(own, { campaign: true, house: club });
        expect(compared.house).toBe(club);
        expectSameCampaign(compared.before, await json<CampaignOddsReport>(own, { campaign: true }));
        expectSameCampaign(compared.after, await json<CampaignOddsReport>(byHand, { campaign: true }));
        // The club's table routs less (5 or more, against 4): the Grenz is routed less often over the two fights.
        expect(compared.difference.units.find(u => u.id === 'Austrian.Grenz')!.status.routed).toBeLessThan(0);
    });

    it('puts the other file\'s house rules after the rules line of a file with none', async () => {
        const plain = written('plain.battle', SCRUD.replace('HOUSE\n', ''));
        const club = written('club2.battle', `rules scrud\n${CLUB}`);
        const byHand = written('by-hand2.battle', SCRUD.replace('HOUSE\n', CLUB));
        const compared = await json<Comparison>(plain, { campaign: true, house: club });
        expectSameCampaign(compared.after, await json<CampaignOddsReport>(byHand, { campaign: true }));
    });

    it('refuses house rules of another rule set, a file with errors, and --house without --campaign', async () => {
        const own = written('own3.battle', SCRUD.replace('HOUSE\n', ''));
        const ancients = written('ancients-house.battle', 'rules ancients\n');
        await expect(run(own, { campaign: true, house: ancients })).rejects.toThrow(/written for the ancients rules, this file for scrud/);
        const broken = written('broken-house.battle', 'rules scrud\nhouse {\n  result 0 nonsense\n}\n');
        const err: string[] = [];
        await expect(run(own, { campaign: true, house: broken }, err)).rejects.toThrow(/fix the errors above before comparing its house rules/);
        expect(err.join('\n')).toMatch(/broken-house\.battle:3:/);
        await expect(run(own, { house: broken })).rejects.toBeInstanceOf(CliError);
    });
});
