// Runs a bundle (out/cli/main.cjs) from V8's code cache: the bytecode of every function the last run of
// the same bundle compiled, kept in the user's cache folder. A check of a small file spent a fifth of its
// time compiling the bundle's JavaScript (docs/performance.md, "Start-up"); from the cache it is read instead.
// Node 22.1 and later keep such a cache themselves (module.enableCompileCache); on Node 20 the bundle
// is compiled as a vm.Script with the cached data, and the cache is written when the process ends, once
// per bundle, Node release, V8 flags and command. Nothing breaks without it: a cache that is missing, unreadable
// or refused by V8 means one ordinary compile. UMPIRE_CODE_CACHE=0 turns it off.
'use strict';
const fs = require('node:fs');
const Module = require('node:module');
const os = require('node:os');
const path = require('node:path');
const vm = require('node:vm');

/** The user's own cache folder (never a folder shared with other users: the cache is code this process runs). */
function cacheFolder() {
    const home = os.homedir();
    if (process.platform === 'win32') return path.join(process.env.LOCALAPPDATA || path.join(home, 'AppData', 'Local'), 'umpire', 'code-cache');
    if (process.platform === 'darwin') return path.join(home, 'Library', 'Caches', 'umpire', 'code-cache');
    return path.join(process.env.XDG_CACHE_HOME || path.join(home, '.cache'), 'umpire', 'code-cache');
}

/**
 * Loads `file` as `require` would, its functions' bytecode read from the cache. `flags` names the V8
 * flags the process set (V8 refuses a cache made under other flags); `command`, what the run does.
 */
function requireWithCodeCache(file, flags, command) {
    if (process.env.UMPIRE_CODE_CACHE === '0') return require(file);
    let folder;
    try {
        folder = cacheFolder();
    } catch {
        return require(file);
    }
    if (typeof Module.enableCompileCache === 'function') {
        Module.enableCompileCache(folder);
        return require(file);
    }
    return runCached(file, folder, flags, /^[a-z]+$/.test(command ?? '') ? command : 'other');
}

function runCached(file, folder, flags, command) {
    const code = fs.readFileSync(file, 'utf8');
    const stat = fs.statSync(file);
    // One cache per command: each compiles functions of its own, and a cache V8 accepts is not written again.
    // Named by its folder too: the CLI's bundle and the server's are both main.cjs (out/cli, out/language).
    const bundle = `${path.basename(path.dirname(file))}-${path.basename(file)}`;
    // The build of the bundle (and the Node it runs on): the caches of any other build are old.
    const stamp = `${bundle}-${process.version}-${process.arch}-${stat.size}-${Math.floor(stat.mtimeMs)}`;
    const cacheFile = path.join(folder, `${stamp}-${flags}-${command}.v8`);
    let cachedData;
    try {
        cachedData = fs.readFileSync(cacheFile);
    } catch {
        cachedData = undefined;
    }
    const script = new vm.Script(Module.wrap(code), { filename: file, cachedData });
    if (cachedData === undefined || script.cachedDataRejected) process.once('exit', () => writeCache(script, folder, bundle, stamp, cacheFile));
    const module = new Module(file, require.main);
    module.filename = file;
    module.paths = Module._nodeModulePaths(path.dirname(file));
    module.loaded = true;
    script.runInThisContext()(module.exports, Module.createRequire(file), module, file, path.dirname(file));
    return module.exports;
}

/**
 * The bytecode compiled by now, written for the next run (atomically: another run may read it meanwhile);
 * the caches of older builds of the bundle removed.
 */
function writeCache(script, folder, bundle, stamp, cacheFile) {
    try {
        fs.mkdirSync(folder, { recursive: true, mode: 0o700 });
        for (const old of fs.readdirSync(folder)) {
            if (old.startsWith(`${bundle}-`) && !old.startsWith(`${stamp}-`) && old.endsWith('.v8')) fs.rmSync(path.join(folder, old), { force: true });
        }
        const partial = `${cacheFile}.${process.pid}.tmp`;
        fs.writeFileSync(partial, script.createCachedData(), { mode: 0o600 });
        fs.renameSync(partial, cacheFile);
    } catch {
        // A cache that cannot be written costs the next run one compile, nothing else.
    }
}

/**
 * The Node options the language server is started with where its client can give them (the VS Code extension,
 * src/extension/main.ts): an old generation of 64 MB from the start. A fresh server otherwise makes its first
 * full collection 200-450 ms after its spawn, about when the first diagnostics go out, and so inside the umpire's
 * first odds call (docs/performance.md, "Start-up"). V8 reads this flag only when the heap is made: set from
 * within the process it does nothing, so only the command line that starts the server can give it.
 */
const serverNodeArgs = ['--initial-old-space-size=64'];

/**
 * The V8 flag the language server sets at its start (src/language/main.ts, where the reason is), set
 * before its bundle is compiled: V8 accepts a cache only under the flags it was made with, and one
 * made at the end of a run that set the flag midway would be refused at the next start. Answers the
 * flags' name for `requireWithCodeCache`: a server started with `serverNodeArgs` is named apart, since V8
 * refuses a cache made without them too.
 */
function useServerFlags() {
    require('node:v8').setFlagsFromString('--heap-growing-percent=100');
    return serverNodeArgs.every(a => process.execArgv.includes(a)) ? 'heap100-old64' : 'heap100';
}

module.exports = { requireWithCodeCache, serverNodeArgs, useServerFlags };
