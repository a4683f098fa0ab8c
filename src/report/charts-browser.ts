/**
 * Entry of out/language/charts-browser.js: the report's charts (Vega, Vega-Lite) as a classic script
 * that the web worker loads on demand (./charts-in-worker.ts). It only publishes them.
 */
import { reportCharts } from './charts.js';
import type { ChartsModule } from './charts-loader.js';

(globalThis as unknown as { umpireCharts?: ChartsModule }).umpireCharts = { reportCharts };
