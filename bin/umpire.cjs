#!/usr/bin/env node
// The CLI is bundled by `npm run build` (run on install) into out/cli/main.cjs.
// A command runs for seconds, not hours: V8's optimizing compiler is told to inline less into the functions it
// optimizes (half its default size per callee, a quarter in all), which costs it less work than the slower code
// saves: a cold check makes 9 % fewer instructions at 10,000 lines, 8 % at 50,000, as many at 200,000
// (docs/performance.md, "Counted in instructions").
// Set before the bundle is loaded, so that every compile reads it. The language server keeps V8's defaults.
// Only on the Node versions whose V8 has these flags: V8 prints an error line for a flag it does not know.
// Not for `umpire lsp`: the language server lives for hours and keeps V8's defaults.
const inlineLess = Number(process.versions.node.split('.')[0]) <= 24 && process.argv[2] !== 'lsp';
if (inlineLess) {
    const v8 = require('node:v8');
    v8.setFlagsFromString('--max-inlined-bytecode-size=230');
    v8.setFlagsFromString('--max-inlined-bytecode-size-cumulative=230');
}
// The bundle's bytecode from the last run's, when there is one (bin/code-cache.cjs). `umpire lsp` sets the
// server's flag first: the CLI's bundle is compiled, and its cache made, under the flags the server runs with.
const codeCache = require('./code-cache.cjs');
const flags = inlineLess ? 'inline230' : process.argv[2] === 'lsp' ? codeCache.useServerFlags() : 'v8';
codeCache.requireWithCodeCache(require('node:path').join(__dirname, '..', 'out', 'cli', 'main.cjs'), flags, process.argv[2]);
