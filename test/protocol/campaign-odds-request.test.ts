/**
 * `umpire.campaignOdds` and the hover on a turn, from the shipped language server over stdio: the
 * figures are those `umpire odds --campaign --json` prints for the same file and turn (the one engine),
 * the end states are ranked for the view's colours, a sampled campaign carries its standard errors, and
 * a turn's hover gives each side's chances through that turn with a link to the Odds view's Campaign tab.
 */
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MarkupContent } from 'vscode-languageserver-protocol/node';
import { type LspSession, repoRoot, startScratchSession, stopScratchSession } from './lsp-harness.js';
import type { CampaignOddsAnswer, CampaignOddsView } from '../../src/protocol.js';

let workspace: string;
let session: LspSession;

beforeAll(async () => {
    ({ workspace, session } = await startScratchSession('umpire-campaign-odds-', workspace => {
        for (const f of ['campaign.battle', 'house-rules-scrud.battle']) fs.copyFileSync(path.join(repoRoot, 'examples', f), path.join(workspace, f));
    }));
}, 60000);

afterAll(() => stopScratchSession(workspace, session));

/** `umpire odds FILE --campaign [--through T] --json` from the CLI of the same build. */
function cliCampaign(file: string, through?: string): CampaignOddsView {
    const args = [path.join(repoRoot, 'bin', 'umpire.cjs'), 'odds', path.join(workspace, file), '--campaign', ...(through ? ['--through', through] : []), '--json'];
    const r = spawnSync(process.execPath, args, { encoding: 'utf8' });
    expect(r.status, r.stderr).toBe(0);
    return JSON.parse(r.stdout) as CampaignOddsView;
}

async function campaignOdds(file: string, through?: string): Promise<CampaignOddsAnswer> {
    const uri = await session.open(file);
    await session.diagnosticsFor(uri);
    return await session.executeCommand('umpire.campaignOdds', [{ uri, ...(through ? { through } : {}) }]) as CampaignOddsAnswer;
}

function available(answer: CampaignOddsAnswer): CampaignOddsView {
    if (!answer.available) throw new Error(`no campaign odds: ${answer.reason}`);
    return answer;
}

describe('umpire.campaignOdds', () => {
    it('is advertised', () => {
        expect(session.initializeResult!.capabilities.executeCommandProvider?.commands).toContain('umpire.campaignOdds');
    });

    it("gives the CLI's campaign figures at the end of the file, its turns, and its end states ranked best to worst", async () => {
        const view = available(await campaignOdds('campaign.battle'));
        const cli = cliCampaign('campaign.battle');
        expect(view.method).toBe('exact');
        expect(view.through).toBeNull();
        expect(view.units).toEqual(cli.units);
        expect(view.sides).toEqual(cli.sides);
        expect(view.turns).toEqual([{ label: '1', title: 'The ford' }, { label: '2', title: 'The pass' }, { label: '3', title: 'The camp' }]);
        expect(view.actions.map(a => [a.name, a.turn])).toEqual([['Ford', '1'], ['Pass', '2'], ['Camp', '3']]);
        for (const u of view.units) expect(Object.values(u.status).reduce((s, p) => s + p, 0)).toBeCloseTo(1, 12);
        // Ready first and green; destroyed last, the worst severity (never green).
        expect(view.statuses[0]).toEqual({ label: 'ready', severity: 'good' });
        expect(view.statuses.at(-1)).toEqual({ label: 'destroyed', severity: 'worst' });
    });

    it('gives the figures through a turn, as `--through` does, and says why for a turn the file has not', async () => {
        const view = available(await campaignOdds('campaign.battle', '1'));
        expect(view.through).toBe('1');
        expect(view.units).toEqual(cliCampaign('campaign.battle', '1').units);
        const none = await campaignOdds('campaign.battle', '9');
        expect(none.available).toBe(false);
        expect(none.available === false && none.reason).toMatch(/turn/i);
    });

    it('gives a sampled campaign with the standard error of every figure, the same as the CLI for the same seed', async () => {
        const view = available(await campaignOdds('house-rules-scrud.battle'));
        const cli = cliCampaign('house-rules-scrud.battle');
        expect(view.method).toBe('monte-carlo');
        expect([view.samples, view.seed]).toEqual([cli.samples, cli.seed]);
        expect(view.units).toEqual(cli.units);
        for (const u of view.units) expect(Object.keys(u.se!.status)).toEqual(Object.keys(u.status));
        expect(view.notes.join(' ')).toMatch(/Sampled/);
    });
});

describe('the hover on a turn', () => {
    it("gives each side's chances through that turn and links to the Campaign tab", async () => {
        const uri = await session.open('campaign.battle');
        await session.diagnosticsFor(uri);
        const lines = fs.readFileSync(path.join(workspace, 'campaign.battle'), 'utf8').split('\n');
        const line = lines.findIndex(l => l.startsWith('turn 2'));
        const hover = await session.hover(uri, line, 1);
        const value = (hover?.contents as MarkupContent | undefined)?.value ?? '';
        const cli = cliCampaign('campaign.battle', '2');
        expect(value).toContain('**Campaign odds at the end of this turn**');
        for (const side of cli.sides) {
            const p = side.atLeastOne.destroyed;
            expect(value).toContain(`**${side.force}**: at least one destroyed ${(100 * p).toFixed(1)}% · ${side.losses.destroyed.mean.toFixed(2)} destroyed expected`);
        }
        const link = /\[Show the campaign's odds through turn 2\]\(command:umpire\.showOdds\?([^)]+)\)/.exec(value);
        expect(link).not.toBeNull();
        expect(JSON.parse(decodeURIComponent(link![1]))).toEqual([{ uri, campaign: { through: '2' } }]);
        // Inside the turn, on an action: the action's own hover, not the campaign's.
        const inside = await session.hover(uri, lines.findIndex((l, i) => i > line && /engagement/.test(l)), 3);
        expect((inside?.contents as MarkupContent | undefined)?.value ?? '').not.toContain('Campaign odds at the end of this turn');
    });
});
