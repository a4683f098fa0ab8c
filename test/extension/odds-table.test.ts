/**
 * The Odds panel's "Copy as Markdown" and "Copy as CSV" (src/extension/odds-table.ts) on the odds
 * the language server answers for the examples: every figure copied is the engine's, in the order
 * an umpire reads results, and the Markdown is a table a Markdown previewer (markdown-it, as VS
 * Code's preview) shows as one.
 */
import * as fs from 'node:fs';
import MarkdownIt from 'markdown-it';
import { describe, expect, it } from 'vitest';
import { modelOf } from '../../src/core/model-cache.js';
import { oddsCommand } from '../../src/language/lsp/odds-request.js';
import { oddsCsv, oddsMarkdown, oddsTable } from '../../src/extension/odds-table.js';
import type { OddsAnswer, OddsReport } from '../../src/protocol.js';
import { openDocument } from '../support/services.js';

async function oddsOf(example: string, action?: string): Promise<OddsAnswer> {
    const text = fs.readFileSync(new URL(`../../examples/${example}`, import.meta.url), 'utf8');
    const doc = await openDocument(`file:///examples/${example}`, text);
    return oddsCommand(modelOf(doc.parseResult.value), action);
}

/** RFC 4180 fields of one CSV text (quoted fields may hold commas and doubled quotes). */
function parseCsv(text: string): string[][] {
    expect(text.endsWith('\r\n')).toBe(true);
    return text.slice(0, -2).split('\r\n').map(line => [...line.matchAll(/(?:^|,)("(?:[^"]|"")*"|[^,]*)/g)].map(m => m[1].startsWith('"') ? m[1].slice(1, -1).replace(/""/g, '"') : m[1]));
}

const reports = (a: OddsAnswer): OddsReport[] => ('actions' in a && Array.isArray(a.actions) ? a.actions : [a as OddsReport]).filter((r): r is OddsReport => !('available' in r));

describe('Copy as CSV', () => {
    it('gives every unit of every action a line with the engine\'s chance of each result, as percentages', async () => {
        const answer = await oddsOf('campaign.battle');
        const rows = parseCsv(oddsCsv(answer, 'results'));
        const units = reports(answer).flatMap(r => r.units.map(u => ({ action: r.name, ...u })));
        expect(units.length).toBeGreaterThan(4);
        expect(rows).toHaveLength(units.length + 1);
        const header = rows[0];
        expect(header.slice(0, 3)).toEqual(['Action', 'Force', 'Unit']);
        const labels = header.slice(3).map(h => h.replace(/ \(%\)$/, ''));
        // Best to worst, as the panel's legend reads.
        const order = ['won', 'stand-off', 'unpaired', 'recoil', 'retire', 'retreat', 'rout'].filter(l => labels.includes(l));
        expect(labels.slice(0, order.length)).toEqual(order);
        units.forEach((u, i) => {
            const row = rows[i + 1];
            expect(row.slice(0, 3)).toEqual([u.action, u.force, u.unit]);
            const figures = row.slice(3).map(Number);
            labels.forEach((l, k) => expect(figures[k]).toBeCloseTo(100 * (u.probabilities[l] ?? 0), 4));
            expect(figures.reduce((a, b) => a + b, 0)).toBeCloseTo(100, 2);
        });
    });

    it('with "This or worse", copies each result-or-worse chance, which falls from the mildest result to the worst', async () => {
        const answer = await oddsOf('scrud-seed.battle', 'Example');
        const rows = parseCsv(oddsCsv(answer, 'orWorse'));
        const report = reports(answer)[0];
        const worst = Object.keys(report.units[0].atLeast!).at(-1)!;
        expect(rows[0].slice(3)).toEqual(Object.keys(report.units[0].atLeast!).map(l => `${l === worst ? l : `${l} or worse`} (%)`));
        report.units.forEach((u, i) => {
            const figures = rows[i + 1].slice(3).map(Number);
            Object.values(u.atLeast!).forEach((p, k) => expect(figures[k]).toBeCloseTo(100 * p, 4));
            for (let k = 1; k < figures.length; k++) expect(figures[k]).toBeLessThanOrEqual(figures[k - 1]);
        });
    });

    it('quotes a field holding a comma or a quote, so that a spreadsheet keeps it in one cell', async () => {
        const answer = await oddsOf('scrud-seed.battle', 'Example') as OddsReport;
        const renamed: OddsReport = { ...answer, name: 'Ford, "the" crossing' };
        const rows = parseCsv(oddsCsv(renamed, 'results'));
        expect(rows[1][0]).toBe('Ford, "the" crossing');
        expect(rows[1]).toHaveLength(rows[0].length);
    });
});

describe('Copy as Markdown', () => {
    it('is a table a Markdown previewer shows with one row per unit and the panel\'s figures', async () => {
        const answer = await oddsOf('campaign.battle');
        const markdown = oddsMarkdown(answer, 'results');
        const html = new MarkdownIt().render(markdown);
        const table = oddsTable(answer, 'results');
        expect(html.match(/<table>/g)).toHaveLength(1);
        expect(html.match(/<tr>/g)).toHaveLength(table.rows.length + 1);
        expect([...html.matchAll(/<th[^>]*>([^<]*)<\/th>/g)].map(m => m[1])).toEqual(table.header);
        // The first unit's figures, right-aligned, as the panel shows them.
        const first = reports(answer)[0].units[0];
        const cells = [...html.split('<tbody>')[1].split('</tr>')[0].matchAll(/<td[^>]*>([^<]*)<\/td>/g)].map(m => m[1]);
        expect(cells.slice(0, 3)).toEqual([reports(answer)[0].name, first.force, first.unit]);
        table.header.slice(3).forEach((label, k) => {
            const p = first.probabilities[label] ?? 0;
            expect(cells[3 + k]).toBe(p > 0 && p < 0.001 ? '&lt;0.1%' : `${(100 * p).toFixed(1)}%`);
        });
        expect(cells.slice(3).some(c => c !== '0.0%')).toBe(true);
        expect(html).toMatch(/<td style="text-align:right">/);
    });

    it('says why an action has no odds, under the table, with a pipe in the reason kept out of the cells', async () => {
        const answer = await oddsOf('scrud-seed.battle', 'Example') as OddsReport;
        const markdown = oddsMarkdown({ actions: [answer, { available: false, action: 'Camp', reason: 'too | large' }] }, 'results');
        const html = new MarkdownIt().render(markdown);
        expect(html.match(/<tr>/g)).toHaveLength(answer.units.length + 1);
        expect(html).toContain('<p>No odds for Camp: too | large</p>');
    });

    it('copies nothing but the reason when no action has odds', () => {
        expect(oddsMarkdown({ available: false, action: 'Ford', reason: 'no sides' }, 'results')).toBe('No odds for Ford: no sides\n');
        expect(parseCsv(oddsCsv({ available: false, action: 'Ford', reason: 'no sides' }, 'results'))).toEqual([['Action', 'Force', 'Unit']]);
    });
});
