/**
 * The charts in the web worker: out/language/charts-browser.js (built from ./charts-browser.ts), a
 * classic script loaded with `importScripts` the first time a report is drawn. esbuild.mjs makes
 * ./charts-loader.ts import this module instead of ./charts.ts in the worker's bundle.
 *
 * The script's address: the web extension passes it in the server's initialization options
 * (`chartsScript`), because VS Code for the Web starts the worker from a blob whose own address
 * says nothing of where the extension lives; elsewhere (the playground) it is beside the worker.
 */
import type { ChartsModule } from './charts-loader.js';

interface WorkerScope {
    umpireCharts?: ChartsModule;
    importScripts?: (...urls: string[]) => void;
    location?: { href: string };
}

const scope = globalThis as unknown as WorkerScope;
let scriptUrl: string | undefined;

/** Where charts-browser.js is (from the client's initialization options). */
export function setChartsScript(url: unknown): void {
    if (typeof url === 'string' && url.length > 0) scriptUrl = url;
}

function load(): ChartsModule {
    if (!scope.umpireCharts) {
        const url = scriptUrl ?? (scope.location ? new URL('charts-browser.js', scope.location.href).href : undefined);
        if (!url || !scope.importScripts) throw new Error('the charts script cannot be loaded here');
        scope.importScripts(url);
        if (!scope.umpireCharts) throw new Error(`${url} did not define the charts`);
    }
    return scope.umpireCharts;
}

/**
 * What ./charts-loader.ts gets in the worker's bundle in place of ./charts.ts (by esbuild.mjs, which
 * is why no source file names it).
 * @public
 */
export const reportCharts: ChartsModule['reportCharts'] = (...args) => load().reportCharts(...args);
