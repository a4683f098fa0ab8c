/**
 * `umpire.campaignOdds` with `whatIf`, `engagement` and `house` (docs/odds.md#campaign-what-if): the
 * Odds view's Campaign tab asks the server for the campaign as written and changed. Its figures must be
 * exactly those `umpire odds FILE --campaign --what-if … --house … --json` prints for the same change
 * (both set-ups and the difference, per unit, side and action); a change the file cannot take is
 * refused with why, and an error of the changed set-up is told at its line in the file on disk.
 */
import * as fs from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { campaignOddsCommand as cliCampaignOdds } from '../../../src/cli/campaign-odds-command.js';
import type { OddsCliOptions } from '../../../src/cli/odds-command.js';
import type { CampaignOddsReport } from '../../../src/core/campaign-odds.js';
import { campaignOddsCommand } from '../../../src/language/lsp/campaign-odds-request.js';
import type { CampaignOddsView } from '../../../src/protocol.js';
import type { CampaignDifference } from '../../../src/report/campaign-compare.js';
import { openDocument, scratchChecker, services } from '../../support/services.js';

const example = (name: string) => fileURLToPath(new URL(`../../../examples/${name}`, import.meta.url));
const CAMPAIGN = 'file:///campaign-what-if/campaign.battle';
const HOUSE_RULES = 'file:///campaign-what-if/house-rules-ancients.battle';

interface CliComparison {
    before: CampaignOddsReport;
    after: CampaignOddsReport;
    difference: CampaignDifference;
    notes: string[];
}

/** What `umpire odds FILE --campaign --json …` prints, read back. */
async function cli(file: string, options: OddsCliOptions): Promise<CliComparison> {
    const lines: string[] = [];
    const errors: string[] = [];
    await cliCampaignOdds(file, { campaign: true, json: true, ...options }, l => lines.push(l), l => errors.push(l));
    expect(errors).toEqual([]);
    return JSON.parse(lines.join('\n')) as CliComparison;
}

const ask = async (args: Record<string, unknown>) => await campaignOddsCommand(services.shared, args, undefined, scratchChecker()) as CampaignOddsView;

/** The figures the tab shows of a campaign: each unit's and side's, and how often each action is fought. */
const figures = (r: { units: unknown, sides: unknown, actions: ReadonlyArray<{ name: string, kind: string, fought: number }> }) =>
    ({ units: r.units, sides: r.sides, fought: r.actions.map(a => [a.kind, a.name, a.fought]) });

describe('umpire.campaignOdds with what-ifs and house rules', () => {
    it('without the charge at the ford: both campaigns and the difference exactly as the CLI\'s JSON gives them', async () => {
        await openDocument(CAMPAIGN, fs.readFileSync(example('campaign.battle'), 'utf8'));
        const change = 'without fact charged on Gauls.Warriors';
        const answer = await ask({ uri: CAMPAIGN, whatIf: [change], engagement: 'Ford' });
        const printed = await cli(example('campaign.battle'), { engagement: 'Ford', whatIf: [change] });
        expect(answer.whatIf?.problem).toBeUndefined();
        expect(answer.whatIf?.label).toBe(`what if ${change}`);
        expect(figures(answer)).toEqual(figures(printed.before));
        expect(figures(answer.whatIf!.after!)).toEqual(figures(printed.after));
        expect(answer.whatIf!.difference).toEqual(printed.difference);
        // The change does move the figures: the Thureophoroi are lost less often without the charge.
        const thureophoroi = answer.whatIf!.difference!.units.find(u => u.id === 'Successors.Thureophoroi')!;
        expect(thureophoroi.status.destroyed).toBeLessThan(-0.01);
    });

    it('through a turn, and a grade (a change of the whole file, no engagement needed), as the CLI', async () => {
        await openDocument(CAMPAIGN, fs.readFileSync(example('campaign.battle'), 'utf8'));
        const change = 'grade Gauls.Boii Pikes';
        const answer = await ask({ uri: CAMPAIGN, through: '2', whatIf: [change] });
        const printed = await cli(example('campaign.battle'), { through: '2', whatIf: [change] });
        expect(answer.through).toBe('2');
        expect(answer.whatIf?.after?.through).toBe('2');
        expect(figures(answer.whatIf!.after!)).toEqual(figures(printed.after));
        expect(answer.whatIf!.difference).toEqual(printed.difference);
    });

    it('under the house rules of another file, as `--house` gives it', async () => {
        await openDocument(CAMPAIGN, fs.readFileSync(example('campaign.battle'), 'utf8'));
        await openDocument(HOUSE_RULES, fs.readFileSync(example('house-rules-ancients.battle'), 'utf8'));
        const answer = await ask({ uri: HOUSE_RULES, whatIf: [], house: CAMPAIGN });
        const printed = await cli(example('house-rules-ancients.battle'), { house: example('campaign.battle') });
        expect(answer.whatIf?.problem).toBeUndefined();
        expect(answer.whatIf?.house).toBe('campaign.battle');
        expect(answer.whatIf?.label).toBe('with the house rules of campaign.battle');
        expect(figures(answer.whatIf!.after!)).toEqual(figures(printed.after));
        expect(answer.whatIf!.difference).toEqual(printed.difference);
        // The club's house rules do change the campaign: some unit's chances move.
        expect(answer.whatIf!.difference!.units.some(u => Object.values(u.status).some(d => Math.abs(d) > 1e-6))).toBe(true);
        // A file the server has not read is checked from the text the editor sends.
        const sent = await ask({ uri: HOUSE_RULES, whatIf: [], house: 'file:///elsewhere/club.battle', houseText: fs.readFileSync(example('campaign.battle'), 'utf8') });
        expect(sent.whatIf?.label).toBe('with the house rules of club.battle');
        expect(sent.whatIf!.difference).toEqual(printed.difference);
    });

    it('offers the engagements, the picked one\'s facts, each unit\'s grade and the options; without a what-if the campaign alone', async () => {
        await openDocument(CAMPAIGN, fs.readFileSync(example('campaign.battle'), 'utf8'));
        const none = await ask({ uri: CAMPAIGN, whatIf: [] });
        expect(none.whatIf).toBeUndefined();
        expect(none.whatIfChoices?.engagements).toEqual(['Ford', 'Pass', 'Camp']);
        expect(none.whatIfChoices?.engagement).toBeUndefined();
        expect(none.whatIfChoices?.choices.filter(c => c.kind === 'fact')).toEqual([]);
        expect(none.whatIfChoices?.choices.filter(c => c.kind === 'grade').map(c => c.unit)).toEqual(['Successors.Phalanx', 'Successors.Thureophoroi', 'Gauls.Warriors', 'Gauls.Boii']);
        const ford = await ask({ uri: CAMPAIGN, whatIf: [], engagement: 'Ford' });
        expect(ford.whatIfChoices?.engagement).toBe('Ford');
        expect(ford.whatIfChoices?.choices.filter(c => c.kind === 'fact').map(c => c.change)).toEqual(['without fact charged on Gauls.Warriors']);
        // Without `whatIf` and `house`: the answer the tab had before, no choices.
        expect((await ask({ uri: CAMPAIGN })).whatIfChoices).toBeUndefined();
    });

    it('refuses what the file cannot take, with why, and tells an error of the changed set-up at its line on disk', async () => {
        const text = fs.readFileSync(example('campaign.battle'), 'utf8');
        await openDocument(CAMPAIGN, text);
        const cases: Array<[Record<string, unknown>, RegExp]> = [
            [{ whatIf: ['flank the Gauls'] }, /'flank the Gauls' is not a what-if/],
            [{ whatIf: ['without fact charged on Gauls.Warriors'] }, /changes the lines of one action: pick the engagement/],
            [{ whatIf: ['grade Gauls.Boii Elite'], engagement: 'Ford' }, /there is no grade Elite/],
            [{ whatIf: ['grade Gauls.Boii Pikes'], engagement: 'Nowhere' }, /no action named 'Nowhere'/],
            [{ whatIf: [], house: 'file:///elsewhere/none.battle' }, /has not read none\.battle/]
        ];
        for (const [args, why] of cases) {
            const answer = await ask({ uri: CAMPAIGN, ...args });
            expect(answer.units.length, String(args.whatIf)).toBeGreaterThan(0);
            expect(answer.whatIf?.after, String(args.whatIf)).toBeUndefined();
            expect(answer.whatIf?.problem, String(args.whatIf)).toMatch(why);
        }
        const bad = await ask({ uri: CAMPAIGN, whatIf: ['with fact charged on Gauls.Nobody'], engagement: 'Pass' });
        const passLine = text.split('\n').findIndex(l => l.includes('Gauls.Boii vs Successors.Thureophoroi'));
        expect(bad.whatIf?.problem).toMatch(/the changed set-up has an error/);
        expect(bad.whatIf?.errors?.[0]).toMatchObject({ addedBy: 'with fact charged on Gauls.Nobody' });
        // The line a what-if puts in is told where it went in, in the file on disk: within the Pass.
        const at = bad.whatIf!.errors![0].line;
        expect(at).toBeGreaterThan(passLine - 5);
        expect(at).toBeLessThan(passLine + 10);
        expect(bad.whatIf?.problem).toContain(`line ${at + 1}, column`);
    });
});
