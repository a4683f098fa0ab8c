/**
 * V8's code cache (bin/code-cache.cjs): the CLI and the language server (through its loader,
 * bin/language-server.cjs, as the extension and `umpire lsp` start it) each keep their bundle's
 * bytecode in the user's cache folder, written once and read by the next run; the two caches live
 * side by side (both bundles are named main.cjs), and UMPIRE_CODE_CACHE=0 writes none.
 */
import { spawn, spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import { createRequire } from 'node:module';
import * as os from 'node:os';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import { createProtocolConnection, StreamMessageReader, StreamMessageWriter } from 'vscode-languageserver-protocol/node';
import { beforeAll, describe, expect, it } from 'vitest';
import { ensureServerBundle } from '../protocol/lsp-harness.js';

beforeAll(() => ensureServerBundle(), 120_000);

const cacheOf = (home: string) => path.join(home, 'umpire', 'code-cache');
const filesIn = (dir: string) => (fs.existsSync(dir) ? fs.readdirSync(dir).sort() : []);

function check(home: string, extra: Record<string, string> = {}): void {
    const r = spawnSync(process.execPath, ['bin/umpire.cjs', 'check', 'examples/scrud-seed.battle'], { encoding: 'utf8', env: { ...process.env, XDG_CACHE_HOME: home, ...extra } });
    expect(r.stdout + r.stderr).toContain('0 problems');
}

/** A server started as the extension starts it, one file opened and checked, then shut down as a client does. */
async function serve(home: string, args: string[]): Promise<void> {
    const file = path.resolve('examples/scrud-seed.battle');
    const uri = pathToFileURL(file).toString();
    const proc = spawn(process.execPath, args, { stdio: ['pipe', 'pipe', 'ignore'], env: { ...process.env, XDG_CACHE_HOME: home } });
    const connection = createProtocolConnection(new StreamMessageReader(proc.stdout!), new StreamMessageWriter(proc.stdin!));
    const diagnostics = new Promise(resolve => connection.onNotification('textDocument/publishDiagnostics', (p: { uri: string }) => { if (p.uri === uri) resolve(p); }));
    connection.onRequest('workspace/configuration', (params: { items: unknown[] }) => params.items.map(() => null));
    connection.onRequest('client/registerCapability', () => null);
    connection.listen();
    await connection.sendRequest('initialize', { processId: process.pid, rootUri: null, capabilities: {} });
    connection.sendNotification('initialized', {});
    connection.sendNotification('textDocument/didOpen', { textDocument: { uri, languageId: 'battle', version: 1, text: fs.readFileSync(file, 'utf8') } });
    await diagnostics;
    await connection.sendRequest('shutdown');
    const exited = new Promise(resolve => proc.once('exit', resolve));
    connection.sendNotification('exit');
    await exited;
    connection.dispose();
}

describe('the code cache', { timeout: 120_000 }, () => {
    it('keeps the CLI\'s and the server\'s bytecode side by side, each written once and then read', async () => {
        const home = fs.mkdtempSync(path.join(os.tmpdir(), 'umpire-code-cache-'));
        check(home);
        await serve(home, ['bin/language-server.cjs', '--stdio']);
        const written = filesIn(cacheOf(home));
        expect(written.filter(f => f.startsWith('cli-main.cjs-') && f.endsWith('-check.v8'))).toHaveLength(1);
        expect(written.filter(f => f.startsWith('language-main.cjs-') && f.endsWith('-server.v8'))).toHaveLength(1);
        const stamps = new Map(written.map(f => [f, fs.statSync(path.join(cacheOf(home), f)).mtimeMs]));
        // Started again, each reads its cache (V8 accepts it) and writes nothing; `umpire lsp` shares the server's.
        check(home);
        await serve(home, ['bin/umpire.cjs', 'lsp', '--stdio']);
        const again = filesIn(cacheOf(home));
        expect(again.filter(f => !f.endsWith('-lsp.v8'))).toEqual(written);
        for (const f of written) expect(fs.statSync(path.join(cacheOf(home), f)).mtimeMs).toBe(stamps.get(f));
    });

    it('keeps a cache of its own for the server started with the extension\'s Node options, which V8 accepts at the next start', async () => {
        const { serverNodeArgs } = createRequire(import.meta.url)('../../bin/code-cache.cjs') as { serverNodeArgs: string[] };
        const home = fs.mkdtempSync(path.join(os.tmpdir(), 'umpire-code-cache-flags-'));
        await serve(home, [...serverNodeArgs, 'bin/language-server.cjs', '--stdio']);
        const written = filesIn(cacheOf(home));
        // Named apart from the cache of a server started without them: V8 refuses a cache made under other flags.
        expect(written.filter(f => f.startsWith('language-main.cjs-'))).toEqual([expect.stringMatching(/-heap100-old64-server\.v8$/)]);
        const stamp = fs.statSync(path.join(cacheOf(home), written[0])).mtimeMs;
        await serve(home, [...serverNodeArgs, 'bin/language-server.cjs', '--stdio']);
        expect(filesIn(cacheOf(home))).toEqual(written);
        // Not written again: V8 accepted it (a refused cache is written anew when the server ends).
        expect(fs.statSync(path.join(cacheOf(home), written[0])).mtimeMs).toBe(stamp);
        // A server started without them makes its own, beside it.
        await serve(home, ['bin/language-server.cjs', '--stdio']);
        expect(filesIn(cacheOf(home)).filter(f => f.startsWith('language-main.cjs-')).map(f => f.replace(/^.*-(heap100[a-z0-9-]*)-server\.v8$/, '$1')).sort()).toEqual(['heap100', 'heap100-old64']);
    });

    it('writes nothing with UMPIRE_CODE_CACHE=0', () => {
        const home = fs.mkdtempSync(path.join(os.tmpdir(), 'umpire-code-cache-off-'));
        check(home, { UMPIRE_CODE_CACHE: '0' });
        expect(filesIn(cacheOf(home))).toEqual([]);
    });
});
