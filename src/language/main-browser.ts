/**
 * The language server in a web worker (the web extension on vscode.dev, and the playground page):
 * the same services as src/language/main.ts, spoken over the worker's postMessage instead of
 * Node IPC, with no file system (documents come only from the editor). esbuild.mjs bundles it to
 * out/language/main-browser.js and fails the build if anything here pulls in a Node built-in.
 */
// Chevrotain 13 (Langium 4.4's) calls `Object.groupBy`, which Node 20 lacks: core-js's, before anything else loads.
import 'core-js/actual/object/group-by.js';
import { EmptyFileSystem } from 'langium';
import { startLanguageServer } from 'langium/lsp';
import { BrowserMessageReader, BrowserMessageWriter, createConnection } from 'vscode-languageserver/browser';
import { createBattleServices } from './battle-module.js';
import { publishWithVersions } from './versioned-diagnostics.js';
import { setChartsScript } from '../report/charts-in-worker.js';
import { OwedKeys } from './lsp/owed-keys.js';

// `self` is the worker's global scope; this project's TypeScript has no WebWorker types.
const scope = globalThis as unknown as ConstructorParameters<typeof BrowserMessageReader>[0];
const connection = createConnection(new BrowserMessageReader(scope), new BrowserMessageWriter(scope));
const { shared } = createBattleServices({ connection, ...EmptyFileSystem });
publishWithVersions(connection, shared);
// A document's first build publishes its problems before it makes the keys its next build reads.
new OwedKeys(shared);
// The report's charts are a script of their own, loaded on demand: the client says where it is.
shared.lsp.LanguageServer.onInitialize(params => setChartsScript((params.initializationOptions as { chartsScript?: unknown } | undefined)?.chartsScript));
startLanguageServer(shared);
