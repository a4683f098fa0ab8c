/**
 * A small LSP client for the protocol tests: it spawns the bundled server the .vsix ships
 * (out/language/main.cjs) over stdio and talks to it the way VS Code does, with
 * vscode-languageserver-protocol. It answers the server's own requests (configuration,
 * capability registration, progress, and workspace/applyEdit, which it records and applies).
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import {
    ApplyWorkspaceEditRequest, CodeActionRequest, CodeLensRequest, ConfigurationRequest, DidChangeTextDocumentNotification,
    DidOpenTextDocumentNotification, DocumentFormattingRequest, ExecuteCommandRequest, ExitNotification,
    HoverRequest, InitializedNotification, InitializeRequest, PublishDiagnosticsNotification,
    RegistrationRequest, ShowMessageNotification, ShowMessageRequest, ShutdownRequest, StreamMessageReader, StreamMessageWriter,
    TextDocumentEdit, UnregistrationRequest, WorkDoneProgressCreateRequest, createProtocolConnection,
    type ApplyWorkspaceEditParams, type ClientCapabilities, type CodeAction, type CodeLens, type Command, type Diagnostic, type Hover, type InitializeResult,
    type ProtocolConnection, type TextEdit
} from 'vscode-languageserver-protocol/node';
import { TextDocument } from 'vscode-languageserver-textdocument';

export const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const serverBundle = path.join(repoRoot, 'out', 'language', 'main.cjs');

/** Newest modification time of any file under `dir` (0 if it does not exist). */
function newestMtime(dir: string): number {
    if (!fs.existsSync(dir)) return 0;
    let newest = 0;
    for (const entry of fs.readdirSync(dir, { withFileTypes: true, recursive: true })) {
        if (entry.isFile()) newest = Math.max(newest, fs.statSync(path.join(entry.parentPath, entry.name)).mtimeMs);
    }
    return newest;
}

/**
 * Bundles (`node esbuild.mjs`: server, client, CLI) when out/language/main.cjs or out/cli/main.cjs
 * is missing or older than the sources, so the tests exercise the code under test in the form
 * the .vsix ships it.
 */
export function ensureServerBundle(): void {
    const bundles = [serverBundle, path.join(repoRoot, 'out', 'cli', 'main.cjs')];
    const bundleTime = Math.min(...bundles.map(b => fs.existsSync(b) ? fs.statSync(b).mtimeMs : 0));
    if (bundleTime >= newestMtime(path.join(repoRoot, 'src'))) return;
    const r = spawnSync(process.execPath, ['esbuild.mjs'], { cwd: repoRoot, encoding: 'utf8' });
    if (r.status !== 0) throw new Error(`node esbuild.mjs failed:\n${r.stdout}\n${r.stderr}`);
}

interface OpenDocument {
    uri: string;
    document: TextDocument;
}

/** The result of `workspace/executeCommand` for umpire.resolve / umpire.reroll (the contract). */
export interface ResolveCommandResult {
    applied: boolean;
    summary: string;
    seed: number | null;
}

/** The result of `workspace/executeCommand` for umpire.resolveAll. */
export interface ResolveAllResult {
    applied: boolean;
    resolved: Array<{ action: string, summary: string, seed: number | null }>;
    reason?: string;
}

/** How a session starts its server and what its client says it can do (VS Code's defaults otherwise). */
export interface SessionOptions {
    /** The server's command line; the bundle the .vsix ships, over stdio, unless given. */
    command?: string[];
    /** The client's capabilities at initialize, instead of the VS Code-like set below. */
    capabilities?: ClientCapabilities;
    /** The `umpire` section the client answers the server's configuration requests with. */
    settings?: Record<string, unknown>;
}

/** What VS Code announces of what the tests use (with the extension's own client command, the Odds view). */
const VS_CODE_LIKE: ClientCapabilities = {
    experimental: { commands: { commands: ['umpire.showOdds'] } },
    workspace: {
        applyEdit: true,
        workspaceEdit: { documentChanges: true },
        configuration: true,
        executeCommand: { dynamicRegistration: false }
    },
    textDocument: {
        synchronization: { dynamicRegistration: false },
        publishDiagnostics: { relatedInformation: true, versionSupport: true },
        codeLens: {},
        hover: { contentFormat: ['markdown', 'plaintext'] },
        formatting: {}
    }
};

export class LspSession {
    readonly process: ChildProcess;
    readonly connection: ProtocolConnection;
    readonly stderr: string[] = [];
    /** Every request the server sent the client, by method, in order. */
    readonly serverRequests: string[] = [];
    /** The methods the server registered for (client/registerCapability), in order. */
    readonly registered: string[] = [];
    /** The documents the server asked the client to show (window/showDocument), in order. */
    readonly shownDocuments: string[] = [];
    /** Every workspace/applyEdit the server requested, in order. */
    readonly appliedEdits: ApplyWorkspaceEditParams[] = [];
    /** Every message the server showed the user (window/showMessage and window/showMessageRequest). */
    readonly messages: string[] = [];
    private readonly docs = new Map<string, OpenDocument>();
    private readonly diagnostics = new Map<string, { version?: number, items: Diagnostic[] }>();
    private readonly diagnosticWaiters: Array<() => void> = [];
    initializeResult?: InitializeResult;

    constructor(readonly workspaceFolder: string, private readonly options: SessionOptions = {}) {
        const [command, ...args] = options.command ?? [process.execPath, serverBundle, '--stdio'];
        this.process = spawn(command, args, { stdio: ['pipe', 'pipe', 'pipe'] });
        this.process.stderr!.on('data', (chunk: Buffer) => this.stderr.push(chunk.toString()));
        // Writing to a server that died is reported by the exit handler below, not as an unhandled EPIPE.
        this.process.stdin!.on('error', error => this.stderr.push(`[lsp-harness] writing to the server: ${String(error)}\n`));
        this.connection = createProtocolConnection(
            new StreamMessageReader(this.process.stdout!), new StreamMessageWriter(this.process.stdin!));
        this.answerServerRequests();
        this.connection.listen();
        // A server that dies must fail the test at once, saying why, not leave its requests pending forever.
        this.process.once('exit', (code, signal) => {
            if (!this.shuttingDown) {
                console.error(`[lsp-harness] the server exited (code ${code}, signal ${signal}) before shutdown; its stderr:\n${this.stderrTail()}`);
            }
            this.connection.dispose();
        });
    }

    private shuttingDown = false;

    /** The last lines the server wrote to stderr, for a failure message. */
    stderrTail(lines = 40): string {
        return this.stderr.join('').split('\n').slice(-lines).join('\n');
    }

    /**
     * `request`'s answer, or a failure after `timeoutMs` that says what was asked and what the server
     * last wrote: a request that never comes back fails its test with a reason, not the test's timeout.
     */
    async answerWithin<T>(what: string, request: Promise<T>, timeoutMs = 60_000): Promise<T> {
        let timer: NodeJS.Timeout | undefined;
        const timeout = new Promise<never>((_, reject) => {
            timer = setTimeout(() => reject(new Error(`no answer to ${what} within ${timeoutMs} ms (server ${this.process.exitCode === null ? 'running' : `exited ${this.process.exitCode}`}); its stderr:\n${this.stderrTail()}`)), timeoutMs);
        });
        try {
            return await Promise.race([request, timeout]);
        } finally {
            clearTimeout(timer);
        }
    }

    private answerServerRequests(): void {
        const c = this.connection;
        c.onRequest(ConfigurationRequest.type, params => {
            this.serverRequests.push(ConfigurationRequest.method);
            return params.items.map(item => (item.section === 'umpire' && this.options.settings) || null);
        });
        c.onRequest(RegistrationRequest.type, params => {
            this.serverRequests.push(RegistrationRequest.method);
            this.registered.push(...params.registrations.map(r => r.method));
        });
        // The refreshes and window/showDocument are noted (what a client without them must not get) and answered.
        for (const method of ['workspace/codeLens/refresh', 'workspace/inlayHint/refresh', 'workspace/semanticTokens/refresh', 'workspace/diagnostic/refresh']) {
            c.onRequest(method, () => { this.serverRequests.push(method); return null; });
        }
        c.onRequest('window/showDocument', (params: { uri: string }) => {
            this.serverRequests.push('window/showDocument');
            this.shownDocuments.push(params.uri);
            return { success: true };
        });
        c.onRequest(UnregistrationRequest.type, () => undefined);
        c.onRequest(WorkDoneProgressCreateRequest.type, () => undefined);
        c.onNotification('window/logMessage', () => undefined);
        c.onNotification(ShowMessageNotification.type, params => { this.messages.push(params.message); });
        // Like a user who closes the message without picking a button.
        c.onRequest(ShowMessageRequest.type, params => {
            this.messages.push(params.message);
            return null;
        });
        c.onNotification('$/progress', () => undefined);
        c.onNotification(PublishDiagnosticsNotification.type, params => {
            this.diagnostics.set(params.uri, { version: params.version, items: params.diagnostics });
            for (const wake of this.diagnosticWaiters.splice(0)) wake();
        });
        // Like VS Code: apply the edit only if every versioned document still has that version.
        c.onRequest(ApplyWorkspaceEditRequest.type, params => {
            this.serverRequests.push(ApplyWorkspaceEditRequest.method);
            this.appliedEdits.push(params);
            return this.applyWorkspaceEdit(params);
        });
    }

    async initialize(): Promise<InitializeResult> {
        const folderUri = pathToFileURL(this.workspaceFolder).toString();
        this.initializeResult = await this.answerWithin('initialize', this.connection.sendRequest(InitializeRequest.type, {
            processId: process.pid,
            rootUri: folderUri,
            workspaceFolders: [{ uri: folderUri, name: path.basename(this.workspaceFolder) }],
            capabilities: this.options.capabilities ?? VS_CODE_LIKE
        }));
        await this.connection.sendNotification(InitializedNotification.type, {});
        return this.initializeResult;
    }

    uriOf(file: string): string {
        return pathToFileURL(path.join(this.workspaceFolder, file)).toString();
    }

    async open(file: string): Promise<string> {
        const uri = this.uriOf(file);
        const text = fs.readFileSync(path.join(this.workspaceFolder, file), 'utf8');
        const document = TextDocument.create(uri, 'battle', 1, text);
        this.docs.set(uri, { uri, document });
        await this.connection.sendNotification(DidOpenTextDocumentNotification.type, {
            textDocument: { uri, languageId: 'battle', version: 1, text }
        });
        return uri;
    }

    document(uri: string): TextDocument {
        const doc = this.docs.get(uri);
        if (!doc) throw new Error(`${uri} is not open`);
        return doc.document;
    }

    /** Replaces the whole text, as an editor would after a change, and tells the server. */
    async change(uri: string, text: string): Promise<void> {
        const doc = this.document(uri);
        const next = TextDocument.update(doc, [{ text }], doc.version + 1);
        this.docs.set(uri, { uri, document: next });
        this.forgetDiagnostics(uri);
        await this.connection.sendNotification(DidChangeTextDocumentNotification.type, {
            textDocument: { uri, version: next.version }, contentChanges: [{ text }]
        });
    }

    private async applyWorkspaceEdit(params: ApplyWorkspaceEditParams): Promise<{ applied: boolean, failureReason?: string }> {
        if (params.edit.changes) {
            // Plain `changes` (a client without documentChanges): applied to whatever the text is now.
            for (const [uri, edits] of Object.entries(params.edit.changes)) await this.change(uri, TextDocument.applyEdits(this.document(uri), edits));
            return { applied: Object.keys(params.edit.changes).length > 0 };
        }
        const changes = params.edit.documentChanges ?? [];
        for (const change of changes) {
            if (!TextDocumentEdit.is(change)) return { applied: false, failureReason: 'only text document edits expected' };
            const doc = this.docs.get(change.textDocument.uri);
            if (!doc) return { applied: false, failureReason: `${change.textDocument.uri} is not open` };
            if (change.textDocument.version !== null && change.textDocument.version !== doc.document.version) {
                return { applied: false, failureReason: `version ${change.textDocument.version} is not ${doc.document.version}` };
            }
        }
        for (const change of changes as TextDocumentEdit[]) {
            const doc = this.document(change.textDocument.uri);
            await this.change(change.textDocument.uri, TextDocument.applyEdits(doc, change.edits as TextEdit[]));
        }
        return { applied: changes.length > 0 };
    }

    /**
     * The diagnostics the server published for `uri` at the document's current version. Langium
     * publishes without a version, so this waits for the first publication after `since`
     * publications were seen, up to `timeoutMs`.
     */
    async diagnosticsFor(uri: string, timeoutMs = 20000): Promise<Diagnostic[]> {
        const deadline = Date.now() + timeoutMs;
        const version = this.document(uri).version;
        for (;;) {
            const got = this.diagnostics.get(uri);
            if (got && (got.version === undefined || got.version === version)) return got.items;
            if (Date.now() > deadline) throw new Error(`no diagnostics for ${uri} (version ${version}) within ${timeoutMs} ms`);
            await new Promise<void>(resolve => {
                const timer = setTimeout(resolve, 200);
                this.diagnosticWaiters.push(() => { clearTimeout(timer); resolve(); });
            });
        }
    }

    /** The version of the last diagnostics published for `uri` (undefined when none were, or without a version). */
    publishedVersion(uri: string): number | undefined {
        return this.diagnostics.get(uri)?.version;
    }

    /** Forgets what was published for `uri`, so the next diagnosticsFor waits for a fresh publication. */
    forgetDiagnostics(uri: string): void {
        this.diagnostics.delete(uri);
    }

    codeActions(uri: string, line: number, character: number): Promise<Array<CodeAction | Command> | null> {
        const position = { line, character };
        return this.connection.sendRequest(CodeActionRequest.type, { textDocument: { uri }, range: { start: position, end: position }, context: { diagnostics: [] } });
    }

    codeLenses(uri: string): Promise<CodeLens[] | null> {
        return this.connection.sendRequest(CodeLensRequest.type, { textDocument: { uri } });
    }

    hover(uri: string, line: number, character: number): Promise<Hover | null> {
        return this.connection.sendRequest(HoverRequest.type, { textDocument: { uri }, position: { line, character } });
    }

    format(uri: string): Promise<TextEdit[] | null> {
        return this.connection.sendRequest(DocumentFormattingRequest.type, {
            textDocument: { uri }, options: { tabSize: 2, insertSpaces: true }
        });
    }

    executeCommand(command: string, args: unknown[] | undefined): Promise<unknown> {
        return this.connection.sendRequest(ExecuteCommandRequest.type, { command, arguments: args });
    }

    /** `shutdown` then `exit`; resolves with the server's exit code, or rejects after `timeoutMs`. */
    async shutdown(timeoutMs = 10000): Promise<number | null> {
        this.shuttingDown = true;
        const exited = new Promise<number | null>(resolve => {
            if (this.process.exitCode !== null) resolve(this.process.exitCode);
            else this.process.once('exit', code => resolve(code));
        });
        await this.connection.sendRequest(ShutdownRequest.type);
        await this.connection.sendNotification(ExitNotification.type);
        let timer: NodeJS.Timeout | undefined;
        const timeout = new Promise<never>((_, reject) => {
            timer = setTimeout(() => reject(new Error(`the server did not exit within ${timeoutMs} ms`)), timeoutMs);
        });
        try {
            return await Promise.race([exited, timeout]);
        } finally {
            clearTimeout(timer);
            this.connection.dispose();
        }
    }

    /** Last resort after a failed test: end the server we started, by its own pid. */
    kill(): void {
        this.shuttingDown = true;
        if (this.process.exitCode === null && this.process.signalCode === null) this.process.kill('SIGKILL');
        this.connection.dispose();
    }
}

/**
 * A server over a scratch workspace, started and initialized once for a test file: `fill` puts the
 * files it needs in the folder first. `stopScratchSession` stops the server and removes the folder.
 */
export async function startScratchSession(prefix: string, fill: (workspace: string) => void = () => {}): Promise<{ workspace: string, session: LspSession }> {
    ensureServerBundle();
    const workspace = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
    fill(workspace);
    const session = new LspSession(workspace);
    await session.initialize();
    return { workspace, session };
}

export function stopScratchSession(workspace: string | undefined, session: LspSession | undefined): void {
    session?.kill();
    if (workspace) fs.rmSync(workspace, { recursive: true, force: true });
}
