/** The language server: started by the VS Code extension (or any LSP client) over stdio or IPC. */
// Chevrotain 13 (Langium 4.4's) calls `Object.groupBy`, which Node 20 lacks: core-js's, before anything else loads.
import 'core-js/actual/object/group-by.js';
import { setFlagsFromString } from 'node:v8';
import { startLanguageServer } from 'langium/lsp';
import { NodeFileSystem } from 'langium/node';
import { createConnection, ProposedFeatures } from 'vscode-languageserver/node';
import { createBattleServices } from './battle-module.js';
import { publishWithVersions } from './versioned-diagnostics.js';

// The heap may grow to twice what the last full collection kept before the next one (V8 picks up to 4
// times by its own measure): with a 50,000-line file open the server kept ~160 MB, and between full
// collections its resident memory grew to 400-450 MB of mostly garbage (issue 14, docs/performance.md
// "The per-build checks made proportional to the edit"). 1.5 times saved more but cost a file with
// thousands of errors (parsed whole at each edit) a quarter more CPU per edit. Set here, not as a launch
// flag, so that every client that starts the server gets it; V8 reads it at each collection.
setFlagsFromString('--heap-growing-percent=100');

const connection = createConnection(ProposedFeatures.all);
const { shared } = createBattleServices({ connection, ...NodeFileSystem });
publishWithVersions(connection, shared);
startLanguageServer(shared);
