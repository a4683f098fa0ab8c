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
