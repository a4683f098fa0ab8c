/**
 * The client's crash handling is vscode-languageclient's own restart policy (its default error
 * handler), configured by MAX_RESTARTS, not a hand-written copy. The `vscode` module exists only in the
 * editor, so it is stood in for by a stub that accepts anything; the language client is the real one.
 */
import Module, { createRequire } from 'node:module';
import * as path from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';

// Any property, call or `new` gives another stub (and `version` the oldest VS Code the extension
// supports): enough for the client to be constructed.
const stub: object = new Proxy(function () { /* stub */ }, {
    get: (_target, key) => (key === 'version' ? '1.91.0' : key === 'then' ? undefined : key === Symbol.toPrimitive ? () => 'stub' : stub),
    apply: () => stub,
    construct: () => stub
});

// src/extension/client.ts imports `vscode` through vitest; vscode-languageclient requires it through
// Node, so the stub is also put where Node's require finds it.
vi.mock('vscode', () => ({ default: stub }));
const VSCODE = '/vscode-stub/vscode.js';
const loader = Module as unknown as { _resolveFilename: (request: string, ...rest: unknown[]) => string };
const resolve = loader._resolveFilename;
loader._resolveFilename = (request, ...rest) => (request === 'vscode' ? VSCODE : resolve.call(Module, request, ...rest));
createRequire(import.meta.url).cache[VSCODE] = { id: VSCODE, filename: VSCODE, loaded: true, exports: stub } as NodeJS.Module;
afterAll(() => { loader._resolveFilename = resolve; });

describe('the language client\'s restart policy', () => {
    it('restarts a crashed server MAX_RESTARTS times within 3 minutes, then stops and says why', async () => {
        const { CloseAction } = await import('vscode-languageclient/node');
        const { clientOptions, MAX_RESTARTS } = await import('../../src/extension/client.js');
        const { createClient } = await import('../../src/extension/main.js');
        const context = { asAbsolutePath: (p: string) => path.resolve(p), subscriptions: [] };
        const output = { appendLine: () => undefined, append: () => undefined, show: () => undefined, dispose: () => undefined, name: 'Umpire' };
        const client = createClient(context as never, clientOptions(output as never));
        const handler = client.clientOptions.errorHandler!;
        expect(handler.constructor.name).toBe('DefaultErrorHandler');
        const actions = [];
        for (let crash = 1; crash <= MAX_RESTARTS + 1; crash++) actions.push(await handler.closed());
        expect(actions.slice(0, MAX_RESTARTS).map(a => a.action)).toEqual(Array(MAX_RESTARTS).fill(CloseAction.Restart));
        expect(actions[MAX_RESTARTS]).toMatchObject({ action: CloseAction.DoNotRestart });
        expect(actions[MAX_RESTARTS].message).toMatch(new RegExp(`Umpire server crashed ${MAX_RESTARTS + 1} times in the last 3 minutes`));
    });

    it('starts the server through its loader with the Node options the loader names, in the debug start too', async () => {
        const { clientOptions } = await import('../../src/extension/client.js');
        const { createClient } = await import('../../src/extension/main.js');
        const { serverNodeArgs } = createRequire(import.meta.url)('../../bin/code-cache.cjs') as { serverNodeArgs: string[] };
        const context = { asAbsolutePath: (p: string) => path.resolve(p), subscriptions: [] };
        const output = { appendLine: () => undefined, append: () => undefined, show: () => undefined, dispose: () => undefined, name: 'Umpire' };
        const client = createClient(context as never, clientOptions(output as never));
        const options = (client as unknown as { _serverOptions: { run: { module: string, options: { execArgv: string[] } }, debug: { options: { execArgv: string[] } } } })._serverOptions;
        expect(serverNodeArgs).toEqual(['--initial-old-space-size=64']);
        expect(options.run.module).toBe(path.resolve('bin/language-server.cjs'));
        expect(options.run.options.execArgv).toEqual(serverNodeArgs);
        expect(options.debug.options.execArgv).toEqual(expect.arrayContaining(serverNodeArgs));
    });
});
