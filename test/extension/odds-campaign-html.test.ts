/**
 * The Odds panel's Campaign tab (src/extension/odds-campaign-html.ts) drawn from the real figures of
 * the Successor campaign (examples/campaign.battle) as the server gives them: each unit's end states
 * in the colours of their severities (destroyed the worst, never green), its counters as mean and
 * spread with the chance of each count, each side's chance of a loss and expected losses, the turns
 * to ask through, and a sampled campaign's standard errors. The single-action table's counts get
 * their mean and spread too.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, expect, it } from 'vitest';
import { modelOf } from '../../src/core/model-cache.js';
import { oddsForAction } from '../../src/core/odds.js';
import { isUnresolvable } from '../../src/core/resolve.js';
import { renderCampaignHtml } from '../../src/extension/odds-campaign-html.js';
import { renderOddsHtml } from '../../src/extension/odds-html.js';
import { campaignOddsCommand, campaignOddsView } from '../../src/language/lsp/campaign-odds-request.js';
import { signedPoints } from '../../src/extension/odds-table.js';
import { SEVERITY_COLOURS, type CampaignOddsView, type OddsReport } from '../../src/protocol.js';
import { openDocument, parse, scratchChecker, services } from '../support/services.js';

const examples = path.join(__dirname, '..', '..', 'examples');
const script = { src: 'https://file+.vscode-resource/out/extension/odds-webview.js', cspSource: 'https://file+.vscode-resource' };

async function exampleModel(file: string) {
    return modelOf((await parse(fs.readFileSync(path.join(examples, file), 'utf8'))).parseResult.value);
}

async function campaignView(file: string, through?: string): Promise<CampaignOddsView> {
    const answer = campaignOddsView(await exampleModel(file), through);
    if (!answer.available) throw new Error(answer.reason);
    return answer;
}

/** The class of the style sheet rule that gives `fill` as a background. */
function classOfFill(html: string, fill: string): string | undefined {
    return new RegExp(`\\.(c-[\\w-]+) \\{ background: ${fill};`).exec(html)?.[1];
}

const pct = (p: number) => `${(100 * p).toFixed(1)}%`;

describe('the Campaign tab', () => {
    it("shows each unit's end states, its tokens as a distribution and each side's losses, at the end of the file", async () => {
        const view = await campaignView('campaign.battle');
        const html = renderCampaignHtml(view, { nonce: 'N0', title: 'Campaign odds', script });
        const thureophoroi = view.units.find(u => u.id === 'Successors.Thureophoroi')!;
        expect(html).toContain('<h2>Campaign at the end of the file');
        expect(html).toContain(`ready ${pct(thureophoroi.status.ready)} · destroyed ${pct(thureophoroi.status.destroyed)}`);
        const tokens = thureophoroi.counters.tokens;
        expect(html).toContain(`tokens mean <b>${tokens.mean.toFixed(2)}</b>, sd ${tokens.sd.toFixed(2)}`);
        const rest = tokens.law.slice(4).reduce((s, p) => s + p, 0);
        expect(html).toContain(`0: ${pct(tokens.law[0])} · 1: ${pct(tokens.law[1])} · 2: ${pct(tokens.law[2])} · 3: ${pct(tokens.law[3])} · 4+: ${rest < 0.001 ? '<0.1%' : pct(rest)}`);
        expect(html).toContain(`tested <b>${pct(thureophoroi.tested!)}</b>`);
        for (const side of view.sides) {
            expect(html).toContain(`at least one destroyed: <b>${pct(side.atLeastOne.destroyed)}</b> · destroyed: mean <b>${side.losses.destroyed.mean.toFixed(2)}</b>, sd ${side.losses.destroyed.sd.toFixed(2)} units`);
        }
        // The pass and the camp are not always fought: a unit of theirs may be destroyed by then.
        const pass = view.actions.find(a => a.name === 'Pass')!;
        expect(html).toContain(`engagement Pass (turn 2) is fought as written <b>${pct(pass.fought)}</b> of the time`);
        expect(html).not.toMatch(/style="|onclick=/);
    });

    it('colours destroyed as the worst severity and ready as good, with a key to the states shown', async () => {
        const html = renderCampaignHtml(await campaignView('campaign.battle'), { nonce: 'N0', title: 'Campaign odds', script });
        const worst = classOfFill(html, SEVERITY_COLOURS.worst.fill)!;
        const good = classOfFill(html, SEVERITY_COLOURS.good.fill)!;
        expect(html).toContain(`<span class="seg ${worst} `);
        expect(html).toMatch(new RegExp(`<span class="seg ${worst} [^"]*" title="destroyed `));
        expect(html).toMatch(new RegExp(`<span class="seg ${good} [^"]*" title="ready `));
        // The key lists the states some unit can end in (no rout or flight in Ancients), best to worst.
        const key = /<ul class="legend"[^>]*>(.*?)<\/ul>/.exec(html)![1];
        expect([...key.matchAll(/<\/span>([\w-]+)<\/li>/g)].map(m => m[1])).toEqual(['ready', 'destroyed']);
        expect(html).toContain('role="tablist"');
        expect(html).toContain('data-tab="campaign" aria-selected="true"');
    });

    it('offers every turn to ask through, the one asked for chosen', async () => {
        const view = await campaignView('campaign.battle', '2');
        const html = renderCampaignHtml(view, { nonce: 'N0', title: 'Campaign odds', script });
        expect(html).toContain('<h2>Campaign at the end of turn 2');
        const picker = /<select data-through[^>]*>(.*?)<\/select>/.exec(html)![1];
        expect([...picker.matchAll(/<option value="([^"]*)"( selected)?>([^<]*)<\/option>/g)].map(m => [m[1], m[2] !== undefined, m[3]])).toEqual([
            ['', false, 'the end of the file'], ['1', false, 'turn 1 The ford'], ['2', true, 'turn 2 The pass'], ['3', false, 'turn 3 The camp']
        ]);
    });

    it("gives a sampled campaign's figures with their standard errors and says how it was sampled", async () => {
        const view = await campaignView('house-rules-scrud.battle');
        expect(view.method).toBe('monte-carlo');
        const html = renderCampaignHtml(view, { nonce: 'N0', title: 'Campaign odds', script });
        expect(html).toContain(`Monte Carlo: ${view.samples!.toLocaleString('en')} campaigns, seed ${view.seed}; ±N is the standard error of a figure`);
        const unit = view.units.find(u => (u.status.routed ?? 0) > 0)!;
        expect(html).toContain(`routed ${pct(unit.status.routed)} <span class="se">±${(100 * unit.se!.status.routed).toFixed(1)}</span>`);
        expect(html).toContain(view.notes[0]);
    });

    it('shows a what-if over the campaign: the box with its choices, both set-ups per unit and side, and the difference table', async () => {
        const uri = 'file:///campaign-html/campaign.battle';
        await openDocument(uri, fs.readFileSync(path.join(examples, 'campaign.battle'), 'utf8'));
        const change = 'without fact charged on Gauls.Warriors';
        const view = await campaignOddsCommand(services.shared, { uri, whatIf: [change], engagement: 'Ford' }, undefined, scratchChecker()) as CampaignOddsView;
        const houseFiles = [{ uri: 'file:///campaign-html/house-rules-ancients.battle', name: 'house-rules-ancients.battle' }];
        const html = renderCampaignHtml(view, { nonce: 'N0', title: 'Campaign odds', script, houseFiles });
        // The box: the engagement picked, its fact checked, each unit's grade, the house rules picker.
        const engagements = /<select data-campaign-engagement[^>]*>(.*?)<\/select>/.exec(html)![1];
        expect([...engagements.matchAll(/<option value="([^"]*)"( selected)?>/g)].map(m => [m[1], m[2] !== undefined])).toEqual([['', false], ['Ford', true], ['Pass', false], ['Camp', false]]);
        expect(html).toContain(`<input type="checkbox" data-whatif="${change}" checked>`);
        expect(html).toContain('<select data-grade="grade Gauls.Boii" aria-label="Grade of Gauls.Boii">');
        expect(html).toContain('<option value="file:///campaign-html/house-rules-ancients.battle">house-rules-ancients.battle</option>');
        expect(html).toContain('<button type="button" data-whatif-clear>Clear what-ifs</button>');
        // Both set-ups: each unit's two bars and its figures as written → changed (the change).
        const before = view.units.find(u => u.id === 'Successors.Thureophoroi')!;
        const after = view.whatIf!.after!.units.find(u => u.id === 'Successors.Thureophoroi')!;
        const d = view.whatIf!.difference!.units.find(u => u.id === 'Successors.Thureophoroi')!;
        expect(d.status.destroyed).toBeCloseTo(after.status.destroyed - before.status.destroyed, 12);
        expect(html).toContain(`destroyed <b>${pct(before.status.destroyed)}</b> → <b>${pct(after.status.destroyed)}</b> <span class="change-figure">(${signedPoints(d.status.destroyed)})</span>`);
        expect(html).toContain('aria-label="Successors.Thureophoroi, what if: ready');
        // The difference table, per side and per unit, as the CLI prints it (in percentage points).
        expect(html).toContain(`<h3>Change: what if ${change}, minus as written, at the end of the file</h3>`);
        expect(html).toContain(`<td class="unit" title="Successors.Thureophoroi">Successors.Thureophoroi</td><td class="delta" data-label="ready">${signedPoints(d.status.ready)}</td><td class="delta" data-label="destroyed">${signedPoints(d.status.destroyed)}</td>`);
        const side = view.whatIf!.difference!.sides.find(s => s.force === 'Gauls')!;
        expect(html).toContain(`<td class="unit">Gauls</td><td class="delta" data-label="P(≥1 destroyed)">${signedPoints(side.atLeastOne.destroyed)}</td>`);
        expect(html).toContain('engagement Pass is fought as written <b>+3.3 pp</b> more often');
        expect(html).not.toMatch(/style="|onclick=/);
        // A refused change: the campaign as written, and why.
        const refused = await campaignOddsCommand(services.shared, { uri, whatIf: [change] }, undefined, scratchChecker()) as CampaignOddsView;
        const told = renderCampaignHtml(refused, { nonce: 'N0', title: 'Campaign odds', script });
        expect(told).toContain('<p class="whatif-problem" role="alert">No what-if campaign: what if without fact charged on Gauls.Warriors: it changes the lines of one action: pick the engagement it is made to</p>');
        expect(told).not.toContain('class="whatif-change"');
    });

    it('says why when there are no campaign odds', () => {
        const html = renderCampaignHtml({ available: false, reason: "There is no turn '9' in this file." }, { nonce: 'N0', title: 'Campaign odds', script });
        expect(html).toContain("No campaign odds: There is no turn &#39;9&#39; in this file.");
        expect(html).toContain('data-tab="actions" aria-selected="false"');
    });
});

describe("the single action's table", () => {
    it("gives each count the engine has a law of as its mean and spread (the Ford's unsaved hits)", async () => {
        const model = await exampleModel('campaign.battle');
        const report = oddsForAction(model, model.actions.find(a => a.node.name === 'Ford')!);
        if (isUnresolvable(report)) throw new Error(report.problem);
        const html = renderOddsHtml(report as OddsReport, { nonce: 'N0', title: 'Odds', script });
        for (const u of report.units) {
            const hits = u.hits!;
            const mean = hits.reduce((s, p, k) => s + p * k, 0);
            const sd = Math.sqrt(hits.reduce((s, p, k) => s + p * k * k, 0) - mean * mean);
            expect(mean).toBeCloseTo(u.expectedHits as number, 12);
            expect(html).toContain(`hits: mean <b>${mean.toFixed(2)}</b>, sd ${sd.toFixed(2)}`);
        }
    });
});
