/**
 * The battle report's Markdown as a Markdown previewer shows it ("the Markdown version
 * renders on a Markdown previewer with its SVG files beside it"): rendered by markdown-it, the
 * library of VS Code's own preview, with raw HTML allowed as there. Every table comes out as a
 * table with the report's rows, every chart as an image whose SVG file is beside the report, the
 * set-ups as code, and a title full of Markdown's special characters as plain text.
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import MarkdownIt from 'markdown-it';
import { afterAll, describe, expect, it } from 'vitest';
import { reportCommand } from '../../src/cli/report.js';
import { modelOf } from '../../src/core/model-cache.js';
import { battleReport, type BattleReport } from '../../src/report/battle-report.js';
import { parse } from '../support/services.js';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'umpire-md-preview-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

const TRICKY_TITLE = 'The *Successor* campaign_1 [draft] <b>#2</b> | `x` \\ end';
const campaign = fs.readFileSync(new URL('../../examples/campaign.battle', import.meta.url), 'utf8')
    .replace('scenario "The Successor campaign"', `scenario "${TRICKY_TITLE.replace(/\\/g, '\\\\')}"`);

const decode = (html: string) => html.replace(/<[^>]+>/g, '').replace(/&quot;/g, '"').replace(/&#39;/g, '\'').replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&amp;/g, '&');

/** Each table of the page: its header cells and its body rows' cells, as text. */
function tables(html: string): Array<{ header: string[], rows: string[][] }> {
    return [...html.matchAll(/<table>([^]*?)<\/table>/g)].map(m => {
        const [head, body = ''] = m[1].split('<tbody>');
        const cells = (row: string, tag: string) => [...row.matchAll(new RegExp(`<${tag}(?:\\s[^>]*)?>([^]*?)</${tag}>`, 'g'))].map(c => decode(c[1]));
        return { header: cells(head, 'th'), rows: [...body.matchAll(/<tr>([^]*?)<\/tr>/g)].map(r => cells(r[1], 'td')) };
    });
}

describe('the battle report\'s Markdown in a Markdown previewer', () => {
    let html = '';
    let report: BattleReport;

    it('is written with its charts beside it', async () => {
        const file = path.join(dir, 'campaign.battle');
        fs.writeFileSync(file, campaign);
        await reportCommand(file, { format: 'md', out: path.join(dir, 'campaign-report.md') }, () => undefined);
        html = new MarkdownIt({ html: true }).render(fs.readFileSync(path.join(dir, 'campaign-report.md'), 'utf8'));
        const r = battleReport(modelOf((await parse(campaign)).parseResult.value));
        if ('problem' in r) throw new Error(r.problem);
        report = r;
    });

    it('shows the title literally, Markdown\'s special characters and all', () => {
        const h1 = /<h1>([^]*?)<\/h1>/.exec(html)![1];
        expect(decode(h1)).toBe(`${TRICKY_TITLE} — battle report`);
        expect(h1).not.toMatch(/<(em|b|code|a)\b/);
    });

    it('shows every table as a table with the report\'s rows: forces, each engagement\'s odds and luck, the campaign\'s luck and state', () => {
        const shown = tables(html);
        const withOdds = report.actions.filter(a => !('problem' in a.odds));
        const withLuck = report.actions.filter(a => a.sides.length > 0);
        // The campaign's odds: a table of its units and one of its sides.
        const campaign = report.campaign && !('problem' in report.campaign) ? report.campaign : undefined;
        expect(campaign).toBeDefined();
        // The luck over the season: one row a side.
        const seasonShown = !('problem' in report.season) && report.season.method !== 'none';
        const season = shown.filter(t => t.header.includes('Season percentile'));
        expect(season.map(t => t.rows.map(r => r[0]))).toEqual(seasonShown && !('problem' in report.season) ? [report.season.sides.map(s => s.force)] : []);
        expect(shown).toHaveLength(1 + withOdds.length + withLuck.length + (report.luck.length > 0 ? 1 : 0) + (seasonShown ? 1 : 0) + 2 + ('problem' in report.state ? 0 : 1));
        expect(shown[0].header).toEqual(['Force', 'Unit', 'Arm', 'Grade', 'Stats']);
        expect(shown[0].rows.map(r => `${r[0]}.${r[1]}`)).toEqual(report.forces.map(f => `${f.force}.${f.unit}`));
        const odds = shown.filter(t => t.header[0] === 'Unit' && t.header.includes('Got'));
        const [units, sides] = shown.filter(t => t.header[0] === 'Unit' || t.header[0] === 'Side').filter(t => !t.header.includes('Got') && !t.header.includes('Units') && !t.header.includes('Season percentile'));
        expect(units.rows.map(r => r[0])).toEqual(campaign!.units.map(u => u.id));
        expect(sides.rows.map(r => r[0])).toEqual(campaign!.sides.map(s => s.force));
        expect(odds.map(t => t.rows.map(r => r[0]))).toEqual(withOdds.map(a => (a.odds as { units: Array<{ id: string }> }).units.map(u => u.id)));
        for (const t of shown) for (const row of t.rows) expect(row).toHaveLength(t.header.length);
        const state = shown.at(-1)!;
        if (!('problem' in report.state)) {
            expect(state.header).toEqual(report.state.header);
            expect(state.rows).toEqual(report.state.rows);
        }
    });

    it('shows each chart as an image whose SVG file is beside the report', () => {
        const images = [...html.matchAll(/<img src="([^"]+)" alt="([^"]*)">/g)].map(m => ({ src: decodeURI(m[1]), alt: m[2] }));
        expect(images.map(i => i.alt)).toEqual([...report.actions.filter(a => !('problem' in a.odds)).map(a => `Odds of ${a.name}`), 'Luck per engagement']);
        // Each chart is followed by its caption: what it shows, in words.
        const captions = [...html.matchAll(/<img [^>]*><\/p>\s*<p><em>([^<]*)<\/em><\/p>/g)].map(m => decode(m[1]));
        expect(captions).toHaveLength(images.length);
        expect(captions.at(-1)).toMatch(/^Luck per engagement: each side's mean percentile/);
        for (const image of images) {
            const svg = fs.readFileSync(path.join(dir, image.src), 'utf8');
            expect(svg).toMatch(/^<svg [^>]*xmlns="http:\/\/www\.w3\.org\/2000\/svg"/);
            expect(svg).toContain(`<title>${image.alt}</title>`);
            expect(svg.trimEnd().endsWith('</svg>')).toBe(true);
        }
    });

    it('shows each set-up as battle code, as written', () => {
        const code = [...html.matchAll(/<pre><code class="language-battle">([^]*?)<\/code><\/pre>/g)].map(m => decode(m[1]).trimEnd());
        expect(code).toEqual(report.actions.map(a => a.setup));
    });
});
