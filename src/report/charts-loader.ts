/**
 * The report's charts, loaded only when a report is drawn. Vega and Vega-Lite are most of a bundle's
 * weight (the web worker went from 751 KB to 1565 KB when they came in), and only reports need them
 * (`umpire report`, the language server's `umpire.report`): checking, resolving and odds do not. esbuild.mjs builds ./charts.ts as a bundle of its own
 * (out/report/charts.cjs for Node, out/language/charts-browser.js for the web worker) and points this
 * import at it; run from source (the tests), it is a plain dynamic import.
 */
import type { reportCharts } from './charts.js';

export interface ChartsModule {
    reportCharts: typeof reportCharts;
}

export async function loadCharts(): Promise<ChartsModule> {
    const loaded = await import('./charts.js') as ChartsModule & { default?: ChartsModule };
    // A CommonJS bundle imported from Node may come back as its `default` export only.
    return typeof loaded.reportCharts === 'function' ? loaded : loaded.default!;
}
