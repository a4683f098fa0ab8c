/** The language server: started by the VS Code extension, or by any LSP client through `umpire lsp --stdio`, over stdio or IPC. */
// Chevrotain 13 (Langium 4.4's) calls `Object.groupBy`, which Node 20 lacks: core-js's, before anything else loads.
import 'core-js/actual/object/group-by.js';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import { setFlagsFromString } from 'node:v8';
import { DocumentState } from 'langium';
import { startLanguageServer } from 'langium/lsp';
import { NodeFileSystem } from 'langium/node';
import { createConnection, ProposedFeatures } from 'vscode-languageserver/node';
import { createBattleServices } from './battle-module.js';
import { IdleWarmUp } from './lsp/idle-warm-up.js';
import { OwedKeys } from './lsp/owed-keys.js';
import { rulesetsOf } from './battle-core-module.js';
import { publishWithVersions } from './versioned-diagnostics.js';
import { watchImportedFiles } from './watch-imported-files.js';

// The heap may grow to twice what the last full collection kept before the next one (V8 picks up to 4
// times by its own measure): with a 50,000-line file open the server kept ~160 MB, and between full
// collections its resident memory grew to 400-450 MB of mostly garbage (docs/performance.md,
// "Memory"). 1.5 times saved more but cost a file with
// thousands of errors (parsed whole at each edit) a quarter more CPU per edit. Set here, not as a launch
// flag, so that every client that starts the server gets it; V8 reads it at each collection. The server's
// loader (bin/language-server.cjs, `useServerFlags` in bin/code-cache.cjs) sets the same before this
// bundle is compiled, so that the code cache is made and read under one set of flags.
setFlagsFromString('--heap-growing-percent=100');

/** Generated documents (the odds as Markdown, for editors without the Odds view) go to a folder of the system's temporary files. */
const scratchDir = path.join(os.tmpdir(), `umpire-${process.pid}`);
process.on('exit', () => fs.rmSync(scratchDir, { recursive: true, force: true }));

async function writeScratchFile(name: string, text: string): Promise<string> {
    const dir = scratchDir;
    await fs.promises.mkdir(dir, { recursive: true });
    const file = path.join(dir, name);
    await fs.promises.writeFile(file, text);
    return pathToFileURL(file).toString();
}

// Every message from the client is told to the idle warm-up (below), which then waits until the client is quiet.
const heard: Array<(method: string | undefined) => void> = [];
const connection = createConnection(ProposedFeatures.all, {
    messageStrategy: {
        handleMessage(message, next) {
            const method = (message as { method?: string }).method;
            for (const listener of heard) listener(method);
            return next(message);
        }
    }
});
const context = { connection, ...NodeFileSystem, writeScratchFile };
// One registry of rule sets for the services and the warm-up.
const rulesets = rulesetsOf(context);
const { shared, Battle } = createBattleServices({ ...context, rulesets });
publishWithVersions(connection, shared);
watchImportedFiles(shared);
startLanguageServer(shared);
// A document's first build publishes its problems before it makes the keys its next build reads (lsp/owed-keys.ts).
const owedKeys = new OwedKeys(shared);
heard.push(() => owedKeys.heardFromClient());
// Completion's parser is made and the odds engines run before the umpire asks (lsp/idle-warm-up.ts): the odds
// once each when the client says it is initialized, before the first document is built; once the first diagnostics
// are published, a completion and the odds again, in idle time.
const warmUp = new IdleWarmUp(Battle, rulesets);
heard.push(() => warmUp.heardFromClient());
shared.lsp.LanguageServer.onInitialized(() => void warmUp.prime());
const first = shared.workspace.DocumentBuilder.onBuildPhase(DocumentState.Validated, () => {
    first.dispose();
    warmUp.start();
});
// The first edit's build asks the first completion too, once its diagnostics are on their way (a timer: the
// diagnostics are written first), should the umpire type before the client has been quiet.
let changed = false;
heard.push(method => changed ||= method === 'textDocument/didChange');
const firstEdit = shared.workspace.DocumentBuilder.onBuildPhase(DocumentState.Validated, () => {
    if (!changed) return;
    firstEdit.dispose();
    setTimeout(() => warmUp.edited(), 0);
});
