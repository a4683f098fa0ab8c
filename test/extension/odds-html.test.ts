/**
 * The Odds panel's page with its script (src/extension/odds-html.ts): the toolbar an umpire works
 * by keyboard (buttons with words, pressed states), a chart place per action with odds, the figures
 * handed to the script as JSON that nothing in a name can break out of, and a policy that lets in
 * only the nonce'd script and style.
 */
import { describe, expect, it } from 'vitest';
import { renderOddsHtml } from '../../src/extension/odds-html.js';
import type { OddsReport } from '../../src/protocol.js';

const report = (name: string): OddsReport => ({
    name, kind: 'engagement', rules: 'scrud', turn: null, notes: [], sides: [],
    units: [{ force: 'A', unit: 'Line', id: 'A.Line', probabilities: { 'won': 0.25, 'stand-off': 0.5, 'recoil': 0.25 }, atLeast: { recoil: 0.25 } }]
});
const script = { src: 'https://file+.vscode-resource/out/extension/odds-webview.js', cspSource: 'https://file+.vscode-resource' };

describe('the Odds panel page with its script', () => {
    it('has the toolbar buttons, a chart place per action with odds, and the figures as JSON', () => {
        const html = renderOddsHtml({ actions: [report('Ford</script><b>'), { available: false, action: 'Camp', reason: 'no sides' }, report('Pass')] }, { nonce: 'N0', title: 'Odds', script });
        for (const label of ['Table', 'Chart', 'Each result', 'This or worse', 'Copy as Markdown', 'Copy as CSV']) expect(html).toContain(`>${label}</button>`);
        expect(html.match(/<button type="button"/g)!.length).toBe(6 + 2 * 2);
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

describe('the Odds panel page\'s labels', () => {
    it('give each label that a narrow panel may cut its whole text as a tooltip', () => {
        const long = 'ThureophoroiOfTheSecondLineUnderPhilipSonOfMachatas';
        const html = renderOddsHtml({
            name: 'Pass', kind: 'engagement', rules: 'ancients', turn: null, notes: [], sides: [],
            units: [{ force: 'Successors', unit: long, id: `Successors.${long}`, probabilities: { 'holds': 0.6, 'gives-ground': 0.3, 'destroyed': 0.1 }, atLeast: { 'gives-ground': 0.4, 'destroyed': 0.1 } }]
        }, { nonce: 'N0', title: 'Odds', script });
        expect(html).toContain(`<td class="unit" title="Successors.${long}">${long}</td>`);
        expect(html).toContain('<span class="atleast" title="gives-ground+ 40.0%">gives-ground+ <b>40.0%</b></span>');
        expect(html).toContain('<span class="key" title="gives-ground">');
        // A wide segment shows its name and figure (the name is hidden when the bar is narrow); a narrow one neither.
        expect(html).toMatch(/<span class="seg [^"]*" title="gives-ground 30.0%"><span class="seg-name">gives-ground <\/span>30.0%<\/span>/);
        expect(html).toMatch(/<span class="seg [^"]*" title="destroyed 10.0%"><\/span>/);
        expect(html).toMatch(/td\.unit \{[^}]*text-overflow: ellipsis/);
    });
});
