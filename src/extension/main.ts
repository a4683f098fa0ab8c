/**
 * The VS Code extension on the desktop: thin by design. It starts the language server, which owns everything the
 * editor shows (diagnostics, code lenses, hovers, inlay hints, the outcome edits), and adds what only
 * a client can do: the Odds panel, restarting the server, and telling the umpire when it fails
 * (src/extension/client.ts, shared with the web extension in main-browser.ts).
 *
 * Here the server runs as a Node process, spoken to over IPC.
 */
import { createRequire } from 'node:module';
import * as path from 'node:path';
import type * as vscode from 'vscode';
import { LanguageClient, TransportKind, type LanguageClientOptions, type ServerOptions } from 'vscode-languageclient/node';
import { activateWith, deactivateClient } from './client.js';

export async function activate(context: vscode.ExtensionContext): Promise<void> {
    await activateWith(context, createClient);
}

export async function deactivate(): Promise<void> {
    await deactivateClient();
}

export function createClient(context: vscode.ExtensionContext, clientOptions: LanguageClientOptions): LanguageClient {
    // The server bundle, run from V8's code cache by its loader (bin/language-server.cjs).
    const serverModule = context.asAbsolutePath(path.join('bin', 'language-server.cjs'));
    // Started with the Node options its loader names (an old generation made large enough at the start that the
    // first full collection does not fall in the umpire's first odds call: bin/code-cache.cjs, `serverNodeArgs`).
    const { serverNodeArgs } = createRequire(serverModule)('./code-cache.cjs') as { serverNodeArgs: string[] };
    const serverOptions: ServerOptions = {
        run: { module: serverModule, transport: TransportKind.ipc, options: { execArgv: serverNodeArgs } },
        debug: { module: serverModule, transport: TransportKind.ipc, options: { execArgv: ['--nolazy', '--inspect=6009', ...serverNodeArgs] } }
    };
    return new LanguageClient('umpire', 'Umpire', serverOptions, clientOptions);
}
