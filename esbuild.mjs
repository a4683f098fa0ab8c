/* global process */
// Bundles the entry points: the language server, the VS Code client and the CLI for Node; the
// language server (a web worker) and the client for the web extension for the browser.
// Langium is ESM-only; VS Code loads desktop extensions as CommonJS, so those bundles are emitted as .cjs.
import * as fs from 'node:fs';
import { builtinModules, createRequire } from 'node:module';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import * as esbuild from 'esbuild';
import * as eslintScope from 'eslint-scope';
import * as espree from 'espree';

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
                ? bundleBeside('../report/charts.cjs')
                : { path: path.resolve('src/report/charts-in-worker.ts') };
        });
    }
});

/**
 * Another of the Node bundles, loaded by `require` when first imported: the CLI's bundle is run from a
 * code cache (bin/code-cache.cjs) as a vm.Script, where an `import()` left in the code would need an
 * experimental flag. esbuild turns the `import()` of this small module into a call of it.
 */
const bundleBeside = file => ({ path: file, namespace: 'bundle-beside' });

/** The module `bundleBeside` names: `require` of the bundle, beside the importing one in out/. */
const besideBundles = {
    name: 'bundle-beside',
    setup(build) {
        build.onLoad({ filter: /.*/, namespace: 'bundle-beside' }, args => ({ contents: `module.exports = require(${JSON.stringify(args.path)});`, loader: 'js' }));
        build.onResolve({ filter: /^\.\.\/(report|language|\.\.\/bin)\/[\w-]+\.cjs$/ }, args => args.namespace === 'bundle-beside' ? { path: args.path, external: true } : undefined);
    }
};

/**
 * `umpire lsp` (src/cli/lsp-command.ts) starts the server as the extension does, through its loader
 * (bin/language-server.cjs: out/language/main.cjs from V8's code cache), instead of a second copy of
 * the server inside the CLI's bundle.
 */
const serverApart = {
    name: 'server-apart',
    setup(build) {
        build.onResolve({ filter: /^\.\.\/language\/main\.js$/ }, args =>
            /[\\/]src[\\/]cli[\\/]lsp-command\.ts$/.test(args.importer) ? bundleBeside('../../bin/language-server.cjs') : undefined);
    }
};

/**
 * Fails the build when the CLI's bundle holds the editor's code: Umpire's providers (src/language/lsp/),
 * Langium's LSP layer, vscode-languageserver or its protocol (see protocolForCore). A command makes the language's core services only
 * (src/language/battle-core-module.ts); evaluating the editor's modules cost a small check about 100 ms.
 */
const cliWithoutEditor = {
    name: 'cli-without-editor',
    setup(build) {
        build.initialOptions.metafile = true;
        build.onEnd(result => {
            const cli = result.metafile && Object.entries(result.metafile.outputs).find(([file]) => /[\\/]cli[\\/]main\.cjs$/.test(file));
            if (!cli) return undefined;
            const editor = Object.keys(cli[1].inputs).filter(file => /^src\/language\/lsp\/|node_modules\/(langium\/lib\/lsp|vscode-languageserver|vscode-languageserver-protocol)\//.test(file));
            return { errors: editor.map(file => ({ text: `out/cli/main.cjs holds ${file}: the command line must not load the editor's code (src/language/battle-core-module.ts)` })) };
        });
    }
};

/**
 * The editor's protocol packages (vscode-languageserver, vscode-languageserver-protocol; CommonJS) made one
 * module each in the bundle: esbuild gives every module that imports a CommonJS package a copy of its
 * exports (`__toESM`, a getter per name), and some forty modules import these two, of about 300 names
 * each: 8,000 getters made at every start of the server (docs/performance.md, "Start-up"). Each import of
 * them is pointed at a module of its own that re-exports the package, made once.
 */
const protocolOnce = {
    name: 'protocol-once',
    setup(build) {
        build.onResolve({ filter: /^vscode-languageserver(-protocol)?(\/(node|browser))?$/ }, args =>
            args.kind === 'import-statement' && args.namespace !== 'protocol-once' ? { path: args.path, namespace: 'protocol-once' } : undefined);
        build.onLoad({ filter: /.*/, namespace: 'protocol-once' }, args =>
            ({ contents: `export * from ${JSON.stringify(args.path)};`, loader: 'js', resolveDir: process.cwd() }));
    }
};

/**
 * Langium's core takes five names from vscode-languageserver-protocol (`CancellationToken`,
 * `CancellationTokenSource`, `Emitter`, `ResponseError`, `LSPErrorCodes`); importing the package evaluates
 * all of it: the protocol's request types, vscode-languageserver-types and vscode-jsonrpc's connection
 * (130 KB of the CLI's bundle, docs/performance.md "Start-up"). In the CLI's bundle each such import is
 * pointed at a module that takes the first four from the vscode-jsonrpc files that define them and
 * `LSPErrorCodes`' values from the protocol as built. A name Langium imports that this module lacks fails
 * the build (esbuild: no matching export).
 */
const require = createRequire(import.meta.url);
const protocolForCore = {
    name: 'protocol-for-core',
    setup(build) {
        // The vscode-jsonrpc the protocol itself loads (lib/node/main.js), and its lib/common/ beside.
        const jsonrpc = createRequire(require.resolve('vscode-languageserver-protocol')).resolve('vscode-jsonrpc');
        const common = file => JSON.stringify(path.join(path.dirname(jsonrpc), '..', 'common', file));
        const { LSPErrorCodes } = require('vscode-languageserver-protocol');
        build.onResolve({ filter: /^vscode-languageserver-protocol$/ }, args =>
            /[\\/]node_modules[\\/]langium[\\/]lib[\\/](utils|workspace)[\\/]/.test(args.importer) ? { path: 'core-names', namespace: 'protocol-for-core' } : undefined);
        build.onLoad({ filter: /.*/, namespace: 'protocol-for-core' }, () => ({
            contents: [
                `export { CancellationToken, CancellationTokenSource } from ${common('cancellation.js')};`,
                `export { Emitter } from ${common('events.js')};`,
                `export { ResponseError } from ${common('messages.js')};`,
                `export const LSPErrorCodes = ${JSON.stringify(LSPErrorCodes)};`
            ].join('\n'),
            loader: 'js',
            resolveDir: process.cwd()
        }));
    }
};

/** A script of the build bundled (unminified) and run here, with `define`: its exports. */
async function runBundled(entry, define) {
    const { outputFiles } = await esbuild.build({
        entryPoints: [entry], bundle: true, write: false, format: 'cjs', platform: 'node',
        target: 'node20', mainFields: ['module', 'main'], define: { ...langiumRelease, ...define }, logLevel: 'warning'
    });
    const module = { exports: {} };
    new Function('module', 'exports', 'require', outputFiles[0].text)(module, module.exports, createRequire(import.meta.url));
    return module.exports;
}

/**
 * An outline of the grammar (its terminals and keywords, each keyword's longer alternatives, its reachable parser
 * rules), found by the token builder itself and Langium's walk of the grammar (scripts/grammar-outline.ts) and
 * written into each bundle, whose token builder and parser builder read it (src/language/grammar-outline.ts)
 * instead of walking the grammar at every start. Not in watch mode, where the grammar may change under a running
 * build: the builders then walk the grammar themselves.
 */
async function grammarOutline() {
    if (watch) return 'undefined';
    const { outline } = await runBundled('scripts/grammar-outline.ts', { __GRAMMAR_OUTLINE__: 'undefined' });
    if (!outline || [outline.keywords, outline.terminals, outline.parserRules].some(names => names.length === 0)) {
        throw new Error('scripts/grammar-outline.ts found no keyword, terminal or parser rule in the grammar');
    }
    // A string, parsed where it is read: esbuild would make an object's value a module of its own, initialised from every module.
    return JSON.stringify(JSON.stringify(outline));
}

/**
 * The parsers' lookahead decisions, as Chevrotain's strategy works them out from the grammar and its tokens
 * (scripts/lookahead-record.ts, run here unminified: the record reads the strategy's own functions), written into
 * each bundle, whose parsers read them (src/language/known-lookahead.ts) instead of analysing the grammar at every
 * start. Not in watch mode, as for the outline: the parsers then analyse it themselves.
 */
async function lookaheadRecord(outline) {
    if (watch) return 'undefined';
    const { record } = await runBundled('scripts/lookahead-record.ts', { __GRAMMAR_OUTLINE__: outline, __BUILT_LOOKAHEAD__: 'undefined' });
    const decisions = Object.values(record?.decisions ?? {});
    if (decisions.length === 0 || decisions.every(alts => alts === null)) throw new Error('scripts/lookahead-record.ts found no decision one token makes');
    return JSON.stringify(JSON.stringify(record));
}

/** The version of package.json, for `umpire --version`. */
const { version } = JSON.parse(fs.readFileSync('package.json', 'utf8'));

const node = {
    entryPoints: {
        'language/main': 'src/language/main.ts',
        'extension/main': 'src/extension/main.ts',
        'report/charts': 'src/report/charts.ts'
    },
    plugins: [chartsApart('node'), besideBundles, protocolOnce],
    define: { ...langiumRelease, UMPIRE_VERSION: JSON.stringify(version) },
    outdir: 'out',
    bundle: true,
    format: 'cjs',
    platform: 'node',
    target: 'node20',
    outExtension: { '.js': '.cjs' },
    // `canvas` is Vega's optional text measurer; without it Vega estimates widths, which the reports accept.
    external: ['vscode', 'canvas'],
    mainFields: ['module', 'main'],
    sourcemap: true,
    minify: !watch && !process.env.UMPIRE_NO_MINIFY,
    logLevel: 'info'
};

/**
 * Commander loads `node:child_process` as it starts, for a feature the CLI does not use (a subcommand
 * run as a program of its own); with it come `net`, `dgram` and Node's streams: about 5 ms of a small
 * check's 130 (docs/performance.md, "Start-up"). In the CLI's bundle commander's import is pointed at a
 * module that loads `node:child_process` when a name of it is first read.
 */
const childProcessOnUse = {
    name: 'child-process-on-use',
    setup(build) {
        build.onResolve({ filter: /^(node:)?child_process$/ }, args =>
            /[\\/]node_modules[\\/]commander[\\/]/.test(args.importer) ? { path: 'child_process', namespace: 'child-process-on-use' } : undefined);
        build.onLoad({ filter: /.*/, namespace: 'child-process-on-use' }, () => ({
            contents: [
                'let loaded;',
                'const load = () => loaded ??= require("node:child_process");',
                'module.exports = new Proxy({}, { get: (_, name) => load()[name], has: (_, name) => name in load() });'
            ].join('\n'),
            loader: 'js'
        }));
    }
};

/** The CLI: a build of its own, since its plugins point some of the imports it shares with the server elsewhere. */
const cli = {
    ...node,
    entryPoints: { 'cli/main': 'src/cli/main.ts' },
    plugins: [chartsApart('node'), serverApart, besideBundles, cliWithoutEditor, protocolForCore, childProcessOnUse]
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

/** Globals that Node gives a script and a browser or web worker does not. */
const NODE_GLOBALS = new Set(['setImmediate', 'clearImmediate', 'process', 'Buffer', 'global', '__dirname', '__filename', 'require', 'module', 'exports']);
/** A module whose text names none of them needs no parse. */
const NODE_GLOBAL_WORD = new RegExp(`\\b(${[...NODE_GLOBALS].join('|')})\\b`);

/**
 * The JavaScript of one bundled module (TypeScript stripped of its types, JavaScript as it is) and
 * how to place a use found in that JavaScript in the file as written.
 */
function moduleCode(file) {
    const text = fs.readFileSync(file, 'utf8');
    if (!NODE_GLOBAL_WORD.test(text)) return undefined;
    if (!/\.[cm]?tsx?$/.test(file)) return { code: text, place: use => use };
    const { code, map } = esbuild.transformSync(text, { loader: 'ts', format: 'esm', target: 'es2022', sourcemap: 'external' });
    const lines = sourceLines(JSON.parse(map).mappings);
    const written = text.split('\n');
    return {
        code,
        place: use => {
            const line = (lines[use.line - 1] ?? use.line - 1) + 1;
            return { ...use, line, column: Math.max(0, written[line - 1]?.search(new RegExp(`\\b${use.name}\\b`)) ?? 0) };
        }
    };
}

const BASE64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';

/** A source map's `mappings`, read only as far as the original line of each generated line's first segment (0-based). */
function sourceLines(mappings) {
    const lines = [];
    let sourceLine = 0;
    for (const line of mappings.split(';')) {
        let first;
        for (const segment of line.split(',').filter(Boolean)) {
            const fields = [];
            let value = 0, shift = 0;
            for (const char of segment) {
                const digit = BASE64.indexOf(char);
                value += (digit & 31) << shift;
                if (digit & 32) { shift += 5; continue; }
                fields.push(value & 1 ? -(value >>> 1) : value >>> 1);
                value = 0;
                shift = 0;
            }
            if (fields.length >= 4) {
                sourceLine += fields[2];
                first ??= sourceLine;
            }
        }
        lines.push(first);
    }
    return lines;
}

/**
 * The uses of a Node-only global in one module's code that would throw in a browser: a free
 * reference to one of NODE_GLOBALS, unless the module tests for it (`typeof setImmediate`, as
 * Langium, lodash and Vega do before they use it), or it is what esbuild provides a CommonJS module
 * (`module`, `exports`, `require('literal')`, which it resolves at build time).
 */
export function nodeGlobalsIn(code, format) {
    let program;
    try {
        program = espree.parse(code, { ecmaVersion: 'latest', sourceType: 'module', loc: true, range: true });
    } catch {
        program = espree.parse(code, { ecmaVersion: 'latest', sourceType: 'script', loc: true, range: true });
    }
    const resolvedRequires = literalRequires(program);
    const scopes = eslintScope.analyze(program, { ecmaVersion: 2022, sourceType: program.sourceType });
    const tested = new Set([...code.matchAll(/typeof\s*\(?\s*([A-Za-z_$][\w$]*)/g)].map(m => m[1]));
    const uses = [];
    for (const reference of scopes.globalScope.through) {
        const { name, loc } = reference.identifier;
        if (!NODE_GLOBALS.has(name) || tested.has(name)) continue;
        if (format === 'cjs' && (name === 'module' || name === 'exports')) continue;
        if (resolvedRequires.has(reference.identifier)) continue;
        uses.push({ name, line: loc.start.line, column: loc.start.column });
    }
    return uses;
}

/** The callees of `require('literal')` calls, which esbuild resolves at build time. */
function literalRequires(program) {
    const callees = new Set();
    const walk = node => {
        if (Array.isArray(node)) return node.forEach(walk);
        if (!node || typeof node.type !== 'string') return;
        if (node.type === 'CallExpression' && node.callee.type === 'Identifier' && node.callee.name === 'require'
            && node.arguments.length === 1 && node.arguments[0].type === 'Literal') callees.add(node.callee);
        for (const key of Object.keys(node)) if (key !== 'loc' && key !== 'range' && node[key] && typeof node[key] === 'object') walk(node[key]);
    };
    walk(program);
    return callees;
}

/** What nodeGlobalsIn found in each module, by path, while the module is unchanged (shared by the builds: Vega is in two). */
const globalsSeen = new Map();

/**
 * Fails the build when a browser bundle's code uses a Node-only global (`setImmediate`, `process`,
 * `Buffer`, `__dirname`, `global`, `require`, …): in a web worker it throws "setImmediate is not
 * defined" at the first request that reaches it, which a module check cannot see. Every module the
 * bundle keeps is read (each once per change, in watch mode) and its free references checked.
 */
export const noNodeGlobals = {
    name: 'no-node-globals',
    setup(build) {
        build.initialOptions.metafile = true;
        build.onEnd(result => {
            if (!result.metafile) return undefined;
            const kept = new Set(Object.values(result.metafile.outputs).flatMap(o => Object.entries(o.inputs).filter(([, i]) => i.bytesInOutput > 0).map(([file]) => file)));
            const errors = [];
            for (const [file, input] of Object.entries(result.metafile.inputs)) {
                if (!kept.has(file) || !/\.([cm]?[jt]sx?)$/.test(file) || !fs.existsSync(file)) continue;
                const stamp = `${fs.statSync(file).mtimeMs}`;
                let uses = globalsSeen.get(file)?.stamp === stamp ? globalsSeen.get(file).uses : undefined;
                if (!uses) {
                    const read = moduleCode(file);
                    uses = read ? nodeGlobalsIn(read.code, input.format).map(read.place) : [];
                    globalsSeen.set(file, { stamp, uses });
                }
                for (const use of uses) {
                    errors.push({
                        text: `'${use.name}' is a Node-only global: the browser bundles (web worker, web extension, playground) must not use it` +
                            ` unless the module tests for it first (typeof ${use.name})`,
                        location: { file, line: use.line, column: use.column }
                    });
                }
            }
            return { errors };
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
    plugins: [noNodeBuiltins, noNodeGlobals, chartsApart('worker'), protocolOnce],
    sourcemap: true,
    minify: !watch && !process.env.UMPIRE_NO_MINIFY,
    logLevel: 'info'
};

/** The charts for the web worker, a classic script of their own (see chartsApart). */
const workerCharts = {
    ...worker,
    entryPoints: { 'language/charts-browser': 'src/report/charts-browser.ts' },
    plugins: [noNodeBuiltins, noNodeGlobals]
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
    plugins: [noNodeBuiltins, noNodeGlobals]
};

// Builds only when run (`node esbuild.mjs`): scripts/playground.mjs imports this file for the plugin above.
const run = process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href;
const bundles = [node, cli, worker, workerCharts, oddsWebview, webExtension];
if (run) {
    const outline = await grammarOutline();
    const lookahead = await lookaheadRecord(outline);
    for (const options of bundles) options.define = { ...options.define, __GRAMMAR_OUTLINE__: outline, __BUILT_LOOKAHEAD__: lookahead };
}
if (run && watch) {
    for (const options of bundles) await (await esbuild.context(options)).watch();
} else if (run) {
    await Promise.all(bundles.map(options => esbuild.build(options)));
}
