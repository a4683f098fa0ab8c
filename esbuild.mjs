/* global process */
// Bundles the entry points: the language server, the VS Code client and the CLI for Node; the
// language server (a web worker) and the client for the web extension for the browser.
// Langium is ESM-only; VS Code loads desktop extensions as CommonJS, so those bundles are emitted as .cjs.
import * as fs from 'node:fs';
import { builtinModules } from 'node:module';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import * as esbuild from 'esbuild';

const watch = process.argv.includes('--watch');

/** The Langium release bundled, which src/language/langium-version.ts checks at start-up. */
const langiumRelease = { __LANGIUM_VERSION__: JSON.stringify(JSON.parse(fs.readFileSync('node_modules/langium/package.json', 'utf8')).version) };

/**
 * Keeps the report's charts (Vega, Vega-Lite: about 800 KB) out of the bundles that do not draw them.
 * src/report/charts-loader.ts imports ./charts.js dynamically; here that import is pointed at the
 * charts' own bundle: for Node, out/report/charts.cjs (loaded by `import()` beside out/language/ and
 * out/cli/); in the web worker, src/report/charts-in-worker.ts, which loads
 * out/language/charts-browser.js with importScripts when a report is first drawn.
 */
const chartsApart = target => ({
    name: 'charts-apart',
    setup(build) {
        build.onResolve({ filter: /^\.\/charts\.js$/ }, args => {
            if (!/[\\/]src[\\/]report[\\/]charts-loader\.ts$/.test(args.importer)) return undefined;
            return target === 'node'
                ? { path: '../report/charts.cjs', external: true }
                : { path: path.resolve('src/report/charts-in-worker.ts') };
        });
    }
});

const node = {
    entryPoints: {
        'language/main': 'src/language/main.ts',
        'extension/main': 'src/extension/main.ts',
        'cli/main': 'src/cli/main.ts',
        'report/charts': 'src/report/charts.ts'
    },
    plugins: [chartsApart('node')],
    outdir: 'out',
    bundle: true,
    format: 'cjs',
    platform: 'node',
    target: 'node20',
    outExtension: { '.js': '.cjs' },
    // `canvas` is Vega's optional text measurer; without it Vega estimates widths, which the reports accept.
    external: ['vscode', 'canvas'],
    mainFields: ['module', 'main'],
    define: langiumRelease,
    sourcemap: true,
    minify: !watch && !process.env.UMPIRE_NO_MINIFY,
    logLevel: 'info'
};

const builtins = new Set(builtinModules);

/**
 * Fails the build when anything in a browser bundle imports a Node built-in (`node:crypto`, `fs`,
 * `path`, …): in a web worker or the web extension host it would throw at load. Packages that name a
 * browser replacement in their `browser` field are resolved to it before this sees them.
 */
export const noNodeBuiltins = {
    name: 'no-node-builtins',
    setup(build) {
        build.onResolve({ filter: /.*/ }, args => {
            if (args.kind === 'entry-point') return undefined;
            const bare = args.path.startsWith('node:') ? args.path.slice(5) : args.path;
            if (!args.path.startsWith('node:') && !builtins.has(bare.split('/')[0])) return undefined;
            return {
                errors: [{
                    text: `'${args.path}' is a Node built-in: the browser bundles (web worker, web extension) must not import it` +
                        ` (imported by ${args.importer})`
                }]
            };
        });
    }
};

/**
 * The language server as a web worker: a classic (iife) script, as `new Worker(url)` loads it in
 * the web extension host and on the playground page. No `vscode`: the server never imports it.
 */
const worker = {
    entryPoints: { 'language/main-browser': 'src/language/main-browser.ts' },
    outdir: 'out',
    bundle: true,
    format: 'iife',
    platform: 'browser',
    target: 'es2022',
    define: langiumRelease,
    plugins: [noNodeBuiltins, chartsApart('worker')],
    sourcemap: true,
    minify: !watch && !process.env.UMPIRE_NO_MINIFY,
    logLevel: 'info'
};

/** The charts for the web worker, a classic script of their own (see chartsApart). */
const workerCharts = {
    ...worker,
    entryPoints: { 'language/charts-browser': 'src/report/charts-browser.ts' },
    plugins: [noNodeBuiltins]
};

/** The web extension's client: CommonJS, as VS Code for the Web's extension host loads extensions (`require('vscode')`). */
const webExtension = {
    ...worker,
    entryPoints: { 'extension/main-browser': 'src/extension/main-browser.ts' },
    format: 'cjs',
    external: ['vscode']
};

/**
 * The Odds panel's page script (src/extension/odds-webview.ts): Vega and Vega-Lite draw its charts in
 * the webview, so that neither the extension nor the server carries them for the panel.
 */
const oddsWebview = {
    ...worker,
    entryPoints: { 'extension/odds-webview': 'src/extension/odds-webview.ts' },
    plugins: [noNodeBuiltins]
};

// Builds only when run (`node esbuild.mjs`): scripts/playground.mjs imports this file for the plugin above.
const run = process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href;
if (run && watch) {
    for (const options of [node, worker, workerCharts, oddsWebview, webExtension]) await (await esbuild.context(options)).watch();
} else if (run) {
    await Promise.all([node, worker, workerCharts, oddsWebview, webExtension].map(options => esbuild.build(options)));
}
