/** The language server: started by the VS Code extension (or any LSP client) over stdio or IPC. */
import { startLanguageServer } from 'langium/lsp';
import { NodeFileSystem } from 'langium/node';
import { createConnection, ProposedFeatures } from 'vscode-languageserver/node.js';
import { createBattleServices } from './battle-module.js';
import { publishWithVersions } from './versioned-diagnostics.js';

const connection = createConnection(ProposedFeatures.all);
const { shared } = createBattleServices({ connection, ...NodeFileSystem });
publishWithVersions(connection, shared);
startLanguageServer(shared);
