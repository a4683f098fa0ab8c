#!/usr/bin/env node
// The language server's start, as the VS Code extension runs it (src/extension/main.ts): the server bundle
// (out/language/main.cjs) run from V8's code cache (bin/code-cache.cjs), so that a server started after the
// first reads its functions' bytecode instead of compiling the bundle again. The cache is written when the
// server ends, with every function compiled by then.
'use strict';
const { requireWithCodeCache, useServerFlags } = require('./code-cache.cjs');
requireWithCodeCache(require('node:path').join(__dirname, '..', 'out', 'language', 'main.cjs'), useServerFlags(), 'server');
