#!/usr/bin/env node
/* global process, console */
// `npm run playground`: the static site in playground-dist/ — the page (playground/), Monaco, the examples,
// and the language server's web-worker bundle exactly as `npm run build` made it for the web extension
// (out/language/main-browser.js). Any static host can serve the folder; `npm run playground:serve` does locally.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import * as esbuild from 'esbuild';
import { noNodeBuiltins, noNodeGlobals } from '../esbuild.mjs';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const dist = path.join(repoRoot, 'playground-dist');
const serverBundle = path.join(repoRoot, 'out', 'language', 'main-browser.js');
const grammar = path.join(repoRoot, 'syntaxes', 'battle.tmLanguage.json');

for (const needed of [serverBundle, grammar]) {
    if (!fs.existsSync(needed)) {
        console.error(`[playground] ${path.relative(repoRoot, needed)} is missing: run 'npm run build' first (npm run playground does).`);
        process.exit(1);
    }
}

/** The `match` of every `keyword.*` rule, wherever it sits in the grammar. */
function keywordMatches(node) {
    if (Array.isArray(node)) return node.flatMap(keywordMatches);
    if (!node || typeof node !== 'object') return [];
    const own = typeof node.name === 'string' && node.name.startsWith('keyword.') && typeof node.match === 'string' ? [node.match] : [];
    return [...own, ...Object.values(node).flatMap(keywordMatches)];
}

/** Every example, by name, in the picker's order; and the keywords the TextMate grammar colours. */
function examplesModule() {
    const dir = path.join(repoRoot, 'examples');
    const examples = fs.readdirSync(dir).filter(f => f.endsWith('.battle')).sort()
        .map(f => ({ name: f.slice(0, -'.battle'.length), text: fs.readFileSync(path.join(dir, f), 'utf8') }));
    // The keywords are the words of the TextMate grammar's `keyword.*` rules (syntaxes/, written by hand).
    const keywords = [...new Set(keywordMatches(JSON.parse(fs.readFileSync(grammar, 'utf8'))).flatMap(m => /\(([a-z|-]+)\)/.exec(m)?.[1].split('|') ?? []))];
    if (examples.length === 0 || keywords.length === 0) throw new Error('no examples or no keywords found for the playground');
    return `export const examples = ${JSON.stringify(examples)};\nexport const keywords = ${JSON.stringify(keywords)};\n`;
}

const examplesPlugin = {
    name: 'umpire-examples',
    setup(build) {
        build.onResolve({ filter: /^umpire:examples$/ }, args => ({ path: args.path, namespace: 'umpire-examples' }));
        build.onLoad({ filter: /.*/, namespace: 'umpire-examples' }, () => ({ contents: examplesModule(), loader: 'js', watchFiles: [grammar] }));
    }
};

const started = Date.now();
fs.rmSync(dist, { recursive: true, force: true });
fs.mkdirSync(dist, { recursive: true });
const common = { bundle: true, platform: 'browser', target: 'es2022', minify: true, legalComments: 'none', logLevel: 'warning', plugins: [noNodeBuiltins, noNodeGlobals] };
await esbuild.build({
    ...common,
    entryPoints: { main: 'playground/main.ts' },
    outdir: dist,
    format: 'esm',
    // Monaco's style sheets go to main.css; its icon font is a file beside it.
    loader: { '.ttf': 'file' },
    plugins: [...common.plugins, examplesPlugin]
});
// The page's first script, which starts the language server's worker before main.js has loaded (playground/boot.ts).
await esbuild.build({ ...common, entryPoints: { boot: 'playground/boot.ts' }, outdir: dist, format: 'iife' });
// Monaco's own worker (word suggestions, diffs): a classic script, as the page starts it.
await esbuild.build({ ...common, entryPoints: { 'editor.worker': 'monaco-editor/editor/editor.worker.js' }, outdir: dist, format: 'iife' });
fs.copyFileSync(serverBundle, path.join(dist, 'main-browser.js'));
fs.copyFileSync(path.join(repoRoot, 'playground', 'playground.css'), path.join(dist, 'playground.css'));
const icon = fs.readFileSync(path.join(repoRoot, 'images', 'icon.png'));
fs.writeFileSync(path.join(dist, 'icon.png'), icon);
// The tab's icon goes inside the page: browsers ask for it late, when the network may have gone.
const page = fs.readFileSync(path.join(repoRoot, 'playground', 'index.html'), 'utf8')
    .replace('<link rel="icon" href="icon.png">', `<link rel="icon" href="data:image/png;base64,${icon.toString('base64')}">`);
fs.writeFileSync(path.join(dist, 'index.html'), page);

// Each file's size as served and gzipped (what a visitor downloads from a host that compresses), and the page's
// JavaScript in all: the figure the playground's first answer waits for (docs/performance.md, "Start-up").
const gzipped = f => gzipSync(fs.readFileSync(path.join(dist, f))).length;
const kb = bytes => `${(bytes / 1024).toFixed(0)} KB`;
let scripts = 0, all = 0;
for (const f of fs.readdirSync(dist).sort()) {
    if (fs.statSync(path.join(dist, f)).isDirectory()) continue;
    const zipped = gzipped(f);
    all += zipped;
    if (f.endsWith('.js')) scripts += zipped;
    console.log(`[playground] ${f.padEnd(24)} ${kb(fs.statSync(path.join(dist, f)).size).padStart(8)}, ${kb(zipped)} gzipped`);
}
console.log(`[playground] gzipped in all: the page's JavaScript ${kb(scripts)}, every file ${kb(all)}`);
console.log(`[playground] built ${path.relative(repoRoot, dist)}/ in ${((Date.now() - started) / 1000).toFixed(1)} s`);
