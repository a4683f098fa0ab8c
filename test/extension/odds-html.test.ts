/**
 * The Odds panel's page with its script (src/extension/odds-html.ts): the toolbar an umpire works
 * by keyboard (buttons with words, pressed states), a chart place per action with odds, the figures
 * handed to the script as JSON that nothing in a name can break out of, and a policy that lets in
 * only the nonce'd script and style.
 */
import { describe, expect, it } from 'vitest';
import { renderOddsHtml } from '../../src/extension/odds-html.js';
import { SEVERITY_COLOURS, type OddsReport } from '../../src/protocol.js';

const report = (name: string): OddsReport => ({
    name, kind: 'engagement', rules: 'scrud', turn: null, notes: [], sides: [],
    units: [{ force: 'A', unit: 'Line', id: 'A.Line', probabilities: { 'won': 0.25, 'stand-off': 0.5, 'recoil': 0.25 }, atLeast: { recoil: 0.25 } }]
});
const script = { src: 'https://file+.vscode-resource/out/extension/odds-webview.js', cspSource: 'https://file+.vscode-resource' };

describe('the Odds panel page with its script', () => {
    it('has the toolbar buttons, a chart place per action with odds, and the figures as JSON', () => {
        const html = renderOddsHtml({ actions: [report('Ford</script><b>'), { available: false, action: 'Camp', reason: 'no sides' }, report('Pass')] }, { nonce: 'N0', title: 'Odds', script });
        for (const label of ['Table', 'Chart', 'Each result', 'This or worse', 'Copy as Markdown', 'Copy as CSV']) expect(html).toContain(`>${label}</button>`);
        expect(html.match(/<button type="button"/g)!.length).toBe(2 + 6 + 2 * 2);
        expect(html).toContain('data-save="svg" data-index="0"');
        expect(html).toContain('data-save="png" data-index="2"');
        expect(html).not.toContain('data-index="1"');
        const json = /<script type="application\/json" id="odds-data" nonce="N0">(.*?)<\/script>/s.exec(html)![1];
        expect(json).not.toContain('<');
        expect((JSON.parse(json) as { actions: OddsReport[] }).actions[0].name).toBe('Ford</script><b>');
        expect(html).toContain(`script-src 'nonce-N0' ${script.cspSource}; img-src data:;`);
        expect(html).toContain(`<script nonce="N0" src="${script.src}"></script>`);
        expect(html).not.toMatch(/style="|onclick=/);
    });

    it('has no toolbar when there are no odds to show, only the reason', () => {
        const html = renderOddsHtml({ available: false, action: 'Camp', reason: 'no sides' }, { nonce: 'N0', title: 'Odds', script });
        expect(html).not.toContain('role="toolbar"');
        expect(html).toContain('No odds: no sides');
    });
});

describe('the Odds panel page\'s side lines', () => {
    const side = (sd?: Record<string, number>): OddsReport => ({
        ...report('Ford'), sides: [{ force: 'A', expected: { 'won': 0.25, 'recoil': 1.5 }, ...(sd ? { sd } : {}), atLeastOne: {} }]
    });

    it('show each expected count as mean ± sd where the odds give its spread', () => {
        const html = renderOddsHtml(side({ 'won': 0.433, 'recoil': 0.5 }), { nonce: 'N0', title: 'Odds', script });
        expect(html).toContain('<p class="side">Expected (mean ± sd): 0.25 ± 0.43 won, 1.50 ± 0.50 recoil</p>');
    });

    it('and the mean alone where they do not', () => {
        const html = renderOddsHtml(side(), { nonce: 'N0', title: 'Odds', script });
        expect(html).toContain('<p class="side">Expected: 0.25 won, 1.50 recoil</p>');
    });
});

describe('the Odds panel page\'s labels', () => {
    it('cut no label: names and figures wrap, and each bar segment shows what fits whole, its text in its tooltip', () => {
        const long = 'ThureophoroiOfTheSecondLineUnderPhilipSonOfMachatas';
        const html = renderOddsHtml({
            name: 'Pass', kind: 'engagement', rules: 'ancients', turn: null, notes: [], sides: [],
            units: [{ force: 'Successors', unit: long, id: `Successors.${long}`, probabilities: { 'holds': 0.6, 'gives-ground': 0.3, 'destroyed': 0.1 }, atLeast: { 'gives-ground': 0.4, 'destroyed': 0.1 } }],
            results: [{ label: 'holds', severity: 'good' }, { label: 'gives-ground', severity: 'bad' }, { label: 'destroyed', severity: 'worst' }]
        }, { nonce: 'N0', title: 'Odds', script });
        expect(html).toContain(`<td class="unit" title="Successors.${long}">${long}</td>`);
        // The worst result has nothing worse: no "+".
        expect(html).toContain('<span class="atleast" title="gives-ground+ 40.0%">gives-ground+ <b>40.0%</b></span>');
        expect(html).toContain('<span class="atleast" title="destroyed 10.0%">destroyed <b>10.0%</b></span>');
        // Every segment has its name and figure; the sheet hides the name (or both) where the segment is too narrow.
        expect(html).toMatch(/<span class="seg [^"]*" title="gives-ground 30.0%" aria-hidden="true"><span class="seg-name n12">gives-ground <\/span><span class="seg-figure">30.0%<\/span><\/span>/);
        expect(html).toContain('@container (max-width: 20ch) { .seg-name.n12 { display: none; } }');
        expect(html).toMatch(/@container \(max-width: 7ch\) \{ \.seg-figure \{ display: none; \} \}/);
        expect(html).not.toContain('text-overflow: ellipsis');
        expect(html).toMatch(/td\.unit \{[^}]*overflow-wrap: anywhere/);
    });
});

describe('the Odds panel page\'s colours', () => {
    const rules = (labels: Array<[string, string]>): OddsReport => ({
        name: 'Fight', kind: 'engagement', rules: 'x', turn: null, notes: [], sides: [],
        units: [{ force: 'A', unit: 'U', id: 'A.U', probabilities: Object.fromEntries(labels.map(([l], i) => [l, i === 0 ? 1 - 0.1 * (labels.length - 1) : 0.1])) }],
        results: labels.map(([label, severity]) => ({ label, severity: severity as never }))
    });
    const fill = (html: string, label: string) => new RegExp(`\\.c-${label} \\{ background: (#[0-9a-f]{6}); color: (#[0-9a-f]{6}); \\}`).exec(html)?.slice(1);

    it('colour a result by its severity, the same in every rule set: the worst never green', () => {
        const scrud = renderOddsHtml(rules([['won', 'best'], ['stand-off', 'even'], ['rout', 'worst']]), { nonce: 'N0', title: 'Odds', script });
        const looseFiles = renderOddsHtml(rules([['easy-victory', 'best'], ['stand-off', 'even'], ['routed', 'worst']]), { nonce: 'N0', title: 'Odds', script });
        expect(fill(scrud, 'won')).toEqual([SEVERITY_COLOURS.best.fill, SEVERITY_COLOURS.best.text]);
        expect(fill(looseFiles, 'easy-victory')).toEqual(fill(scrud, 'won'));
        expect(fill(looseFiles, 'routed')).toEqual(fill(scrud, 'rout'));
        expect(fill(looseFiles, 'routed')![0]).toBe(SEVERITY_COLOURS.worst.fill);
    });

    it('gives results the rule set does not rank colours that say neither good nor bad', () => {
        const html = renderOddsHtml({ ...rules([['won', 'best']]), units: [{ force: 'A', unit: 'U', id: 'A.U', probabilities: { won: 0.5, tie: 0.5 } }] }, { nonce: 'N0', title: 'Odds', script });
        const tie = fill(html, 'tie')![0];
        expect(Object.values(SEVERITY_COLOURS).map(c => c.fill)).not.toContain(tie);
    });

    it('has one key to the colours at the top of the page, kept there as it scrolls, best to worst', () => {
        const html = renderOddsHtml({ actions: [rules([['rout', 'worst'], ['won', 'best']]), rules([['stand-off', 'even'], ['won', 'best']])] }, { nonce: 'N0', title: 'Odds', script });
        expect(html.match(/<ul class="legend"/g)).toHaveLength(1);
        const head = /<header class="page-head">([^]*?)<\/header>/.exec(html)![1];
        expect([...head.matchAll(/<li class="key" title="([^"]*)">/g)].map(m => m[1])).toEqual(['won: the best result', 'stand-off: neither side gained', 'rout: the worst result']);
        expect(html).toMatch(/\.page-head \{ position: sticky; top: 0;/);
    });
});

describe('the what-if change tables', () => {
    it('list each unit\'s changes under its name where the table does not fit, each figure with its result', () => {
        const before: OddsReport = { ...report('Ford'), results: [{ label: 'won', severity: 'best' }, { label: 'stand-off', severity: 'even' }, { label: 'recoil', severity: 'setback' }] };
        const html = renderOddsHtml({
            ...before, whatIf: {
                changes: ['without Uphill'], after: before,
                difference: { units: [{ id: 'A.Line', probabilities: { 'won': 0.1, 'stand-off': -0.1, 'recoil': 0 }, atLeast: { recoil: 0 } }], sides: [] }
            }
        }, { nonce: 'N0', title: 'Odds', script });
        // The unit column (6 letters, monospace) and three results: 10 + 10 + 11 + 10 ch.
        expect(html).toContain('<div class="change-place stack41">');
        expect(html).toContain('<td class="delta" data-label="stand-off">−10.0 pp</td>');
        expect(html).toMatch(/@container \(max-width: 41ch\) \{ \.stack41 thead \{ display: none; \}[^\n]*\.stack41 td\.delta::before \{ content: attr\(data-label\) " "/);
    });
});
