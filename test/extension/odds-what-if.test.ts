/**
 * The Odds panel's what-ifs (docs/reports.md#what-if): the toggles the page offers for an
 * engagement (native checkboxes, grade pickers, a box for any other change), the second set-up beside
 * the first with the change per unit in signed percentage points, and Copy as Markdown/CSV with the
 * what-if's columns. The answers are the server's (`whatIfOddsCommand`) on examples/scrud-ridge.battle.
 */
import * as fs from 'node:fs';
import MarkdownIt from 'markdown-it';
import { describe, expect, it } from 'vitest';
import { modelOf } from '../../src/core/model-cache.js';
import { whatIfOddsCommand } from '../../src/language/lsp/odds-request.js';
import { escapeHtml, percent, renderOddsHtml, whatIfToggles } from '../../src/extension/odds-html.js';
import { oddsCsv, oddsMarkdown, oddsTable, signedPoints } from '../../src/extension/odds-table.js';
import type { OddsReport } from '../../src/protocol.js';
import { openDocument, scratchChecker } from '../support/services.js';

const ridge = fs.readFileSync(new URL('../../examples/scrud-ridge.battle', import.meta.url), 'utf8');
const checker = scratchChecker();

async function ridgeOdds(changes: string[]): Promise<OddsReport> {
    const doc = await openDocument('file:///examples/scrud-ridge.battle', ridge);
    return await whatIfOddsCommand(ridge, modelOf(doc.parseResult.value), 'Ridge', changes, text => checker.check(text)) as OddsReport;
}

const page = (answer: OddsReport) => renderOddsHtml(answer, { nonce: 'N0NCE', title: 'Odds: Ridge', script: { src: 'https://webview/odds-webview.js', cspSource: 'https://webview' } });

describe('the what-if toggles', () => {
    it('offer a checkbox per factor, modifier and option, a grade picker per unit and an "Other change" box, none on as written', async () => {
        const html = page(await ridgeOdds([]));
        const boxes = [...html.matchAll(/<input type="checkbox" data-whatif="([^"]*)"( checked)?>/g)];
        expect(boxes.map(m => m[1])).toEqual(['without Uphill', 'without ForcedMarch', 'without Defending', 'with Woods on French', 'with Woods on Prussian',
            'option pooled', 'option die', 'option pursuit', 'option runs-and-pursues', 'option clamp-six']);
        expect(boxes.every(m => m[2] === undefined)).toBe(true);
        // Each group is labelled for a screen reader; each picker names its unit.
        for (const group of ['Factors applied', 'Modifiers not applied', 'Grades', 'Options']) expect(html).toContain(`role="group" aria-label="${group}"`);
        const ligne = /<select data-grade="grade French.Ligne" aria-label="Grade of French.Ligne">(.*?)<\/select>/.exec(html)![1];
        expect([...ligne.matchAll(/<option value="([^"]*)">([^<]*)</g)].map(m => [m[1], m[2]])).toEqual([
            ['', 'Veteran (as written)'], ['Guard', 'Guard'], ['Line', 'Line'], ['Raw', 'Raw'], ['Landwehr', 'Landwehr']]);
        expect(html).toMatch(/<input type="text" data-whatif-other value=""/);
        // Nothing compared yet.
        expect(html).not.toContain('<div class="bar what-if-bar">');
        expect(html).not.toContain('Clear what-ifs');
    });

    it('show which are on: a box ticked, a grade picked, anything else in the "Other change" box', () => {
        const html = whatIfToggles([
            { kind: 'factor', change: 'without Uphill' }, { kind: 'modifier', change: 'with Woods on French' },
            { kind: 'grade', change: 'grade French.Ligne', unit: 'French.Ligne', grade: 'Veteran', grades: ['Guard', 'Veteran'] }
        ], ['without Uphill', 'grade French.Ligne Guard', 'option die d8']);
        expect(html).toContain('<input type="checkbox" data-whatif="without Uphill" checked>');
        expect(html).toContain('<input type="checkbox" data-whatif="with Woods on French">');
        expect(html).toContain('<option value="Guard" selected>Guard</option>');
        expect(html).toContain('data-whatif-other value="option die d8"');
        expect(html).toContain('<button type="button" data-whatif-clear>Clear what-ifs</button>');
    });

    it('are not offered on a page without its script (nothing could send them)', async () => {
        const html = renderOddsHtml(await ridgeOdds([]), { nonce: 'N0NCE', title: 'Odds: Ridge' });
        expect(html).not.toContain('data-whatif');
    });
});

describe('the second set-up beside the first', () => {
    it('shows both set-ups and the change of each unit\'s chances in signed percentage points, each result and each result or worse', async () => {
        const answer = await ridgeOdds(['without Uphill']);
        const html = page(answer);
        // Each unit's row has both set-ups' bars, and each figure as written → what if (change).
        const after0 = answer.whatIf!.after!;
        expect(html.match(/<div class="bar what-if-bar">/g)).toHaveLength(answer.units.length);
        expect(html.match(/<span class="bar-name">as written<\/span><div class="bar">/g)).toHaveLength(answer.units.length);
        const g = answer.units[0];
        expect(html).toContain(`won <b>${percent(g.probabilities.won)}</b> → <b>${percent(after0.units[0].probabilities.won)}</b> <span class="change-figure">(${escapeHtml(signedPoints(after0.units[0].probabilities.won - g.probabilities.won))})</span>`);
        expect(html).toContain('<span class="bar-name what-if">what if</span> without Uphill');
        // The change comes before the set-ups: the umpire's question answered first.
        expect(html.indexOf('<div class="whatif-change">')).toBeLessThan(html.indexOf('<div class="tables">'));
        expect(html).toContain('<input type="checkbox" data-whatif="without Uphill" checked>');
        const change = html.slice(html.indexOf('<div class="whatif-change">'));
        const results = change.slice(change.indexOf('<table class="change results">'), change.indexOf('<table class="change or-worse">'));
        const orWorse = change.slice(change.indexOf('<table class="change or-worse">'), change.indexOf('</div>'));
        const after = answer.whatIf!.after!;
        const heads = (table: string) => [...table.matchAll(/<th class="delta">([^<]*)</g)].map(m => m[1]);
        const rows = (table: string) => table.split('<tr>').slice(2).map(r => [...r.matchAll(/<td[^>]*>([^<]*)<\/td>/g)].map(m => m[1]));
        const labels = heads(results);
        expect(labels).toEqual(['won', 'stand-off', 'unpaired', 'recoil', 'retire', 'retreat', 'rout'].filter(l => l in answer.units[0].probabilities));
        for (const [i, row] of rows(results).entries()) {
            const u = answer.units[i];
            expect(row[0]).toBe(u.id);
            labels.forEach((l, k) => expect(row[k + 1]).toBe(escapeHtml(signedPoints(after.units[i].probabilities[l] - u.probabilities[l]))));
        }
        const worse = heads(orWorse).map(h => h.replace(/ or worse$/, ''));
        for (const [i, row] of rows(orWorse).entries()) {
            worse.forEach((l, k) => expect(row[k + 1]).toBe(escapeHtml(signedPoints(after.units[i].atLeast![l] - answer.units[i].atLeast![l]))));
        }
        // Uphill costs the French: without it, a French unit's chance of winning rises.
        const grenadiers = rows(results)[0];
        expect(grenadiers[labels.indexOf('won') + 1]).toMatch(/^\+\d+\.\d pp$/);
    });

    it('says why when a change is refused, and still shows the odds as written', async () => {
        const html = page(await ridgeOdds(['with Fog on French']));
        expect(html).toMatch(/<p class="whatif-problem" role="alert">No what-if odds: what if with Fog on French: there is no modifier Fog/);
        expect(html).not.toContain('<div class="bar what-if-bar">');
        expect(html).toContain('data-whatif-other value="with Fog on French"');
    });

    it('tells an error of the changed set-up at the line and column of the file on disk, and names the what-if whose line it is in', async () => {
        const answer = await ridgeOdds(['without Uphill', 'with Woods on Nowhere']);
        // The added factor goes after `seed 1806`, line 47 of the file (line 46 of the copy without Uphill).
        expect(answer.whatIf!.errors).toEqual([{ line: 46, character: 11, message: "There is no force named 'Nowhere'.", addedBy: 'with Woods on Nowhere' }]);
        expect(answer.whatIf!.problem).toBe("what if without Uphill; with Woods on Nowhere: the changed set-up has an error: line 47, column 12 (in what 'with Woods on Nowhere' puts there): There is no force named 'Nowhere'.");
        expect(page(answer)).toContain(`<p class="whatif-problem" role="alert">No what-if odds: ${escapeHtml(answer.whatIf!.problem!)}</p>`);
    });

    it('tells an error the change makes of a line it left alone at that line of the file on disk, below a removed line', async () => {
        const eights = `scenario "Eights"\nrules scrud\noption die d8\ngrade Line 0\nforce French {\n  unit Ligne foot Line\n}\nforce Prussian {\n  unit Fusiliers foot Line\n}\n` +
            'engagement Guns {\n  French.Ligne attacks Prussian.Fusiliers\n  dice French.Ligne 8\n  dice Prussian.Fusiliers 7\n}\n';
        const doc = await openDocument('file:///eights.battle', eights);
        expect((doc.diagnostics ?? []).filter(d => d.severity === 1)).toEqual([]);
        const answer = await whatIfOddsCommand(eights, modelOf(doc.parseResult.value), 'Guns', ['without option die'], text => checker.check(text)) as OddsReport;
        // The dice lines are 13 and 14 of the file, 12 and 13 of the copy without the option line.
        expect(answer.whatIf!.errors).toEqual([
            { line: 12, character: 20, message: 'A d6 cannot show 8: its faces are 1, 2, 3, 4, 5, 6.' },
            { line: 13, character: 26, message: 'A d6 cannot show 7: its faces are 1, 2, 3, 4, 5, 6.' }
        ]);
        expect(answer.whatIf!.problem).toBe('what if without option die: the changed set-up has 2 errors: line 13, column 21 of the file: A d6 cannot show 8: its faces are 1, 2, 3, 4, 5, 6.; ' +
            'line 14, column 27 of the file: A d6 cannot show 7: its faces are 1, 2, 3, 4, 5, 6.');
        expect(answer.whatIf!.after).toBeUndefined();
    });

    it('signs points as an umpire reads them', () => {
        expect([0.0321, -0.004, 0, 1e-14, 0.0001, Number.NaN].map(signedPoints)).toEqual(['+3.2 pp', '−0.4 pp', '0 pp', '0 pp', '+<0.1 pp', '—']);
    });
});

describe('Copy with a what-if shown', () => {
    it('CSV: for each result, as written, with the what-if (named) and the change in points, per unit', async () => {
        const answer = await ridgeOdds(['without Uphill']);
        const csv = oddsCsv(answer, 'results').trimEnd().split('\r\n').map(l => l.split(','));
        const labels = oddsTable(answer, 'results').header.slice(3).filter((_, i) => i % 3 === 0);
        expect(csv[0]).toEqual(['Action', 'Force', 'Unit', ...labels.flatMap(l => [`${l} (%)`, `${l} (what if: without Uphill) (%)`, `${l} (change) (pp)`])]);
        const after = answer.whatIf!.after!;
        for (const [i, u] of answer.units.entries()) {
            expect(`${csv[i + 1][1]}.${csv[i + 1][2]}`).toBe(u.id);
            labels.forEach((l, k) => {
                expect(Number(csv[i + 1][3 + 3 * k])).toBeCloseTo(100 * u.probabilities[l], 4);
                expect(Number(csv[i + 1][4 + 3 * k])).toBeCloseTo(100 * after.units[i].probabilities[l], 4);
                expect(Number(csv[i + 1][5 + 3 * k])).toBeCloseTo(100 * (after.units[i].probabilities[l] - u.probabilities[l]), 4);
            });
        }
    });

    it('Markdown: one table with the what-if columns, the change signed, and what the what-if was', async () => {
        const answer = await ridgeOdds(['without Uphill']);
        const md = oddsMarkdown(answer, 'orWorse');
        const html = new MarkdownIt().render(md);
        expect(html.match(/<table>/g)).toHaveLength(1);
        expect(html).toContain('<th style="text-align:right">rout (change)</th>');
        expect(md).toContain('What if: without Uphill (change: what if minus as written, in percentage points)');
        const first = [...html.split('<tbody>')[1].split('</tr>')[0].matchAll(/<td[^>]*>([^<]*)<\/td>/g)].map(m => m[1]);
        const u = answer.units[0];
        const rout = answer.whatIf!.after!.units[0].atLeast!.rout - u.atLeast!.rout;
        expect(first.at(-1)).toBe(signedPoints(rout));
    });

    it('copies as before when no what-if is shown', async () => {
        const header = oddsTable(await ridgeOdds([]), 'results').header;
        expect(header.some(h => h.includes('what if') || h.includes('change'))).toBe(false);
    });
});
