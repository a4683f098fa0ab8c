/**
 * `umpire report` end to end (docs/reports.md): the HTML is one self-contained file, the Markdown
 * links SVG files written beside it, the options pick turns and engagements, and mistakes get a message.
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import stringWidth from 'string-width';
import { afterAll, describe, expect, it } from 'vitest';
import { reportCommand, type ReportCliOptions } from '../../src/cli/report.js';
import { oddsCommand } from '../../src/cli/odds-command.js';
import { CliError } from '../../src/cli/load.js';
import { SEVERITY_COLOURS } from '../../src/protocol.js';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'umpire-report-'));

/** Names longer than any room a chart gives them, in letters and in wide characters. */
const LONG_NAMES = `rules ancients
grade Thureophoroi { size medium, weight medium, formation formed, skill 2, leadership 7, move 5 }
force SuccessorsOfAlexanderUnderAntigonosTheOneEyed {
  unit ThureophoroiOfTheSecondLineUnderPhilipSonOfMachatas infantry Thureophoroi { tokens 2, tested }
  unit 騎兵隊騎兵隊騎兵隊騎兵隊騎兵隊 infantry { size small, weight light, formation skirmish, skill 1, leadership 5, tokens 1, move 6 }
}
force Gauls {
  unit WarriorsOfTheTectosagesWhoCrossedTheHellespont infantry { size huge, weight light, formation warband, skill 1, leadership 6, shock, move 6 }
  unit Horse cavalry { size medium, weight light, formation warband, skill 1, leadership 6, shock, move 10 }
}
engagement Pass {
  Gauls attacks SuccessorsOfAlexanderUnderAntigonosTheOneEyed
  first turn
  Gauls.WarriorsOfTheTectosagesWhoCrossedTheHellespont: charged
  Gauls.WarriorsOfTheTectosagesWhoCrossedTheHellespont vs SuccessorsOfAlexanderUnderAntigonosTheOneEyed.ThureophoroiOfTheSecondLineUnderPhilipSonOfMachatas
  Gauls.Horse vs SuccessorsOfAlexanderUnderAntigonosTheOneEyed.騎兵隊騎兵隊騎兵隊騎兵隊騎兵隊
  seed 12
}
`;
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

async function run(file: string, options: ReportCliOptions): Promise<string> {
    const lines: string[] = [];
    await reportCommand(file, options, l => lines.push(l));
    return lines.join('\n');
}

/** Every place a page could fetch something: attributes that load, CSS that loads, any URL but the SVG namespaces. */
function externalReferences(html: string): string[] {
    const withoutNamespaces = html.replace(/xmlns(:\w+)?="http:\/\/www\.w3\.org\/[^"]*"/g, '');
    return [
        ...withoutNamespaces.matchAll(/\b(src|href|xlink:href|srcset|action|poster|data)\s*=\s*["']?[^"'\s>]*/gi),
        ...withoutNamespaces.matchAll(/url\(|@import|<link\b|<script\b|<iframe\b|<object\b|<embed\b/gi),
        ...withoutNamespaces.matchAll(/[a-z]+:\/\/[^\s"'<>)]*/gi)
    ].map(m => m[0]);
}

describe('umpire report', () => {
    it('gives each engagement\'s counts per unit as mean ± sd in its odds table, the figures of umpire odds', async () => {
        const md = await run('examples/campaign.battle', { engagement: 'Ford' });
        const lines: string[] = [];
        await oddsCommand('examples/campaign.battle', { engagement: 'Ford', json: true }, l => lines.push(l));
        const units = (JSON.parse(lines.join('\n')) as { engagements: Array<{ units: Array<Record<string, number> & { id: string }> }> }).engagements[0].units;
        expect(md).toContain('| Unit | untested | holds | gives-ground | destroyed | hits (mean ± sd) | tokens (mean ± sd) | Got |');
        for (const u of units) {
            expect(md).toContain(`| ${u.expectedHits.toFixed(2)} ± ${u.sdHits.toFixed(2)} | ${u.expectedTokens.toFixed(2)} ± ${u.sdTokens.toFixed(2)} |`);
        }
    });

    it('writes examples/campaign.battle as one self-contained HTML file: every engagement, its chart, the state', async () => {
        const out = path.join(dir, 'r.html');
        await run('examples/campaign.battle', { format: 'html', out });
        const html = fs.readFileSync(out, 'utf8');
        expect(externalReferences(html)).toEqual([]);
        for (const name of ['Ford', 'Pass', 'Camp']) expect(html).toContain(`<h3>engagement ${name}`);
        expect(html.match(/<svg class="umpire-chart"/g)).toHaveLength(4);
        expect(html).toContain('prefers-color-scheme: dark');
        expect(html).toContain('@media print');
        expect(html).toContain('Campaign state at the end of the file');
        expect(externalReferences('<img src="x.png"><a href="https://example.org">')).toHaveLength(3);
    });

    it('writes Markdown with its charts as SVG files beside it, each linked', async () => {
        const out = path.join(dir, 'campaign.md');
        await run('examples/campaign.battle', { out });
        const md = fs.readFileSync(out, 'utf8');
        const links = [...md.matchAll(/!\[[^\]]*\]\(([^)]+)\)/g)].map(m => m[1]);
        // Each action with odds gets a chart, and the written outcomes a luck chart.
        expect(links).toContain('campaign-luck.svg');
        for (const link of links) {
            const svg = fs.readFileSync(path.join(dir, link), 'utf8');
            expect(svg.startsWith('<svg ')).toBe(true);
            expect(externalReferences(svg)).toEqual([]);
        }
        expect(links.filter(l => l.endsWith('-odds.svg'))).toEqual(['campaign-Ford-odds.svg', 'campaign-Pass-odds.svg', 'campaign-Camp-odds.svg']);
    });

    it('gives the odds of actions not yet fought, and no luck for them', async () => {
        const md = await run('examples/scrud-ridge.battle', {});
        expect(md).toContain('Dice: not yet fought: no written outcome.');
        expect(md).toContain('No written outcome has odds to measure luck against.');
        expect(md).not.toContain('![');
    });

    it('picks one turn (and the state after it), or one engagement', async () => {
        const md = await run('examples/campaign.battle', { turn: '2' });
        expect(md).toContain('### engagement Pass');
        expect(md).not.toContain('### engagement Ford');
        expect(md).toContain('## Campaign state after turn 2 "The pass"');
        const one = await run('examples/campaign.battle', { engagement: 'Camp', luck: true });
        expect(one.startsWith('## Luck')).toBe(true);
        expect(one).toMatch(/\| Gauls \| 2 \| 40\.3% \|/);
    });

    it('says what is wrong with a bad turn, engagement or format', async () => {
        await expect(run('examples/campaign.battle', { turn: '9' })).rejects.toThrow(/there is no turn '9'/);
        await expect(run('examples/campaign.battle', { engagement: 'Nowhere' })).rejects.toThrow(/no engagement named 'Nowhere' \(there are: Ford, Pass, Camp\)/);
        await expect(run('examples/campaign.battle', { format: 'pdf' })).rejects.toBeInstanceOf(CliError);
        await expect(run('examples/broken-scrud.battle', {})).rejects.toThrow(/fix the errors above/);
    });

    it('says what it wrote, and where: the page, or the Markdown and each chart beside it', async () => {
        const html = path.join(dir, 'said.html');
        expect(await run('examples/campaign.battle', { out: html })).toBe(`${html}: wrote the battle report (3 actions), with 4 charts inside.`);
        const md = path.join(dir, 'said.md');
        const said = await run('examples/campaign.battle', { out: md });
        const charts = ['Ford-odds', 'Pass-odds', 'Camp-odds', 'luck'].map(c => path.join(dir, `said-${c}.svg`));
        expect(said).toBe(`${md}: wrote the battle report (3 actions), and 4 charts beside it: ${charts.join(', ')}.`);
        for (const chart of charts) expect(fs.existsSync(chart)).toBe(true);
    });
});

describe('what a report says of the forces and each action', () => {
    it('gives each unit\'s grade and stats as written: a grade\'s value and stats, and a unit\'s own', async () => {
        const ridge = await run('examples/scrud-ridge.battle', {});
        expect(ridge).toContain('| Force | Unit | Arm | Grade | Stats |');
        expect(ridge).toContain('| Prussian | Landwehr#1 | foot | Landwehr (0) | die d4 |');
        expect(ridge).toContain('| French | Grenadiers | foot | Guard (+2) | — |');
        const flank = await run('examples/ancients-flank.battle', {});
        expect(flank).toMatch(/\| Greeks \| Companions \| cavalry \| — \| size medium, weight medium, formation formed, skill 1, leadership 7, shock, move 8 \|/);
        expect(flank).toMatch(/\| Greeks \| Hoplites \| infantry \| Hoplite \| size large, weight heavy, [^|]*\|/);
    });

    it('a unit\'s own stat is shown in the place of its grade\'s', async () => {
        const file = path.join(dir, 'own-die.battle');
        fs.writeFileSync(file, fs.readFileSync('examples/scrud-ridge.battle', 'utf8').replace('unit Uhlans horse Landwehr', 'unit Uhlans horse Landwehr { die d8 }'));
        expect(await run(file, {})).toContain('| Prussian | Uhlans | horse | Landwehr (0) | die d8 |');
    });

    it('heads each resolution "Step by step", whatever the action, and draws no chart where no die could change the result', async () => {
        const md = path.join(dir, 'turn.md');
        await run('examples/loose-files-turn.battle', { out: md });
        const text = fs.readFileSync(md, 'utf8');
        expect(text).not.toContain('Pair by pair');
        const form = text.slice(text.indexOf('### move Form'), text.indexOf('### fire Cannonade'));
        expect(form).toContain('No dice could change it: British.Guards changed-formation.');
        expect(form).not.toContain('![');
        expect(form).not.toContain('| Unit |');
        expect(fs.existsSync(path.join(dir, 'turn-Form-odds.svg'))).toBe(false);
        expect(fs.existsSync(path.join(dir, 'turn-Assault-odds.svg'))).toBe(true);
        const campaign = await run('examples/campaign.battle', {});
        expect(campaign.match(/^Step by step:$/gm)).toHaveLength(3);
    });

    it('draws every unit\'s name whole in its chart, in as many lines as it takes: none cut with an ellipsis, wide characters too', async () => {
        const file = path.join(dir, 'long-names.battle');
        fs.writeFileSync(file, LONG_NAMES);
        const out = path.join(dir, 'long-names.html');
        await run(file, { format: 'html', out });
        const svg = fs.readFileSync(out, 'utf8').match(/<svg class="umpire-chart"[^]*?<\/svg>/)![0];
        expect(svg).not.toContain('…');
        // The names left of the bars: one text each, its lines as tspans.
        const names = [...svg.matchAll(/<text text-anchor="end"[^>]*>((?:<tspan[^>]*>[^<]*<\/tspan>)+|[^<]*)<\/text>/g)].map(m => m[1].match(/<tspan[^>]*>[^<]*<\/tspan>/g)?.map(t => t.replace(/<[^>]+>/g, '')) ?? [m[1]]);
        for (const id of ['Gauls.WarriorsOfTheTectosagesWhoCrossedTheHellespont', 'SuccessorsOfAlexanderUnderAntigonosTheOneEyed.ThureophoroiOfTheSecondLineUnderPhilipSonOfMachatas',
            'SuccessorsOfAlexanderUnderAntigonosTheOneEyed.騎兵隊騎兵隊騎兵隊騎兵隊騎兵隊', 'Gauls.Horse']) {
            const lines = names.find(n => n.join('') === id);
            expect(lines, id).toBeDefined();
            // Each line within the room the chart gives the names (Vega reckons 0.8 em a letter, two for a wide one).
            for (const line of lines!) expect(0.8 * 12 * stringWidth(line), line).toBeLessThanOrEqual(240);
        }
    });

    it('gives each chart of the page a caption that says what it shows', async () => {
        const out = path.join(dir, 'captions.html');
        await run('examples/campaign.battle', { format: 'html', out });
        const figures = [...fs.readFileSync(out, 'utf8').matchAll(/<figure><svg class="umpire-chart" role="img" aria-label="([^"]*)"[^]*?<\/svg><figcaption>([^<]*)<\/figcaption><\/figure>/g)];
        expect(figures.map(f => f[1])).toEqual(['Odds of Ford', 'Odds of Pass', 'Odds of Camp', 'Luck per engagement']);
        expect(figures[0][2]).toBe('The odds of engagement Ford: for each unit, the chance of each result, best to worst, the result written outlined (the figures of the table above).');
    });

    it('colours the odds charts as the Odds view does: each result by its severity', async () => {
        const out = path.join(dir, 'colours.md');
        await run('examples/scrud-ridge.battle', { out });
        const svg = fs.readFileSync(path.join(dir, 'colours-Ridge-odds.svg'), 'utf8');
        expect(svg).toContain(`fill="${SEVERITY_COLOURS.worst.fill}"`);
        expect(svg).toContain(`fill="${SEVERITY_COLOURS.best.fill}"`);
    });
});
