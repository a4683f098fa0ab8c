/**
 * The VS Code extension: thin by design. It starts the language server, which owns everything the
 * editor shows (diagnostics, code lenses, hovers, edits), and applies the edits the server computes.
 */
import * as path from 'node:path';
import * as vscode from 'vscode';
import { LanguageClient, TransportKind, type LanguageClientOptions, type ServerOptions } from 'vscode-languageclient/node.js';

let client: LanguageClient | undefined;

export async function activate(context: vscode.ExtensionContext): Promise<void> {
    const output = vscode.window.createOutputChannel('Umpire');
    context.subscriptions.push(output);
    client = createClient(context, output);
    try {
        await client.start();
    } catch (err) {
        output.appendLine(`The Umpire language server failed to start: ${String(err)}`);
        void vscode.window.showErrorMessage('The Umpire language server failed to start. See the "Umpire" output for details.');
    }
}

export async function deactivate(): Promise<void> {
    await client?.stop();
    client = undefined;
}

function createClient(context: vscode.ExtensionContext, output: vscode.OutputChannel): LanguageClient {
    const serverModule = context.asAbsolutePath(path.join('out', 'language', 'main.cjs'));
    const serverOptions: ServerOptions = {
        run: { module: serverModule, transport: TransportKind.ipc },
        debug: { module: serverModule, transport: TransportKind.ipc, options: { execArgv: ['--nolazy', '--inspect=6009'] } }
    };
    const clientOptions: LanguageClientOptions = {
        documentSelector: [{ language: 'battle' }],
        outputChannel: output
    };
    return new LanguageClient('umpire', 'Umpire', serverOptions, clientOptions);
}
