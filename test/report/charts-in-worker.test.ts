/**
 * The report's charts in the web worker (src/report/charts-in-worker.ts): not in the worker's bundle,
 * but loaded once, with importScripts, from the address the client gave, when a report is first drawn.
 * The worker's importScripts is played here by a stand-in that publishes the real charts module.
 */
import { afterAll, describe, expect, it } from 'vitest';
import * as charts from '../../src/report/charts.js';
import { reportCharts, setChartsScript } from '../../src/report/charts-in-worker.js';
import type { BattleReport } from '../../src/report/battle-report.js';

const scope = globalThis as unknown as { importScripts?: (url: string) => void, umpireCharts?: unknown };
afterAll(() => { delete scope.importScripts; delete scope.umpireCharts; });

const report: BattleReport = {
    title: 't', rules: 'r', forces: [], state: { problem: 'none' }, luck: [], season: { method: 'none', actions: 0, sides: [] },
    actions: [{ name: 'Ford', kind: 'engagement', turn: undefined, setup: '', dice: 'seed 1', record: 'current', lines: [], summary: undefined,
        odds: { problem: 'no odds' }, results: [], luck: [], sides: [{ force: 'Gauls', units: 1, meanPercentile: 0.3, expected: {}, actual: {} }] }]
};

describe('the charts in the web worker', () => {
    it('says so when there is nowhere to load them from, instead of drawing nothing', () => {
        expect(() => reportCharts(report, [])).toThrow(/the charts script cannot be loaded here/);
    });

    it('loads the script once, from the address the client gave, and draws with it', async () => {
        const loaded: string[] = [];
        scope.importScripts = url => { loaded.push(url); scope.umpireCharts = { reportCharts: charts.reportCharts }; };
        setChartsScript('https://example.test/ext/out/language/charts-browser.js');
        const first = await reportCharts(report, []);
        const second = await reportCharts(report, []);
        expect(loaded).toEqual(['https://example.test/ext/out/language/charts-browser.js']);
        expect([...first.keys()]).toEqual(['luck.svg']);
        expect(first.get('luck.svg')).toMatch(/^<svg /);
        expect(second.get('luck.svg')).toBe(first.get('luck.svg'));
    });
});
