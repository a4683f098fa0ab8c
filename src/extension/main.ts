/**
 * The VS Code extension: thin by design. It starts the language server, which owns everything the
 * editor shows (diagnostics, code lenses, hovers, inlay hints, the outcome edits), and adds what only
 * a client can do: the Odds panel, restarting the server, and telling the umpire when it fails.
 *
 * The server's own commands (umpire.resolve, umpire.reroll, umpire.resolveAll, umpire.odds) are
 * registered by the language client from the server's capabilities; registering them here too
 * would fail (PITFALLS).
 */
import * as path from 'node:path';
import * as vscode from 'vscode';
import {
    ExecuteCommandRequest, LanguageClient, State, TransportKind, type LanguageClientOptions, type ServerOptions
} from 'vscode-languageclient/node.js';
import { OddsPanel, type OddsTarget } from './odds-view.js';

let client: LanguageClient | undefined;

/**
 * How often a crashed server is restarted before giving up. The restart policy is
 * vscode-languageclient's own (its default error handler): it restarts the server after each
 * crash and stops after this many restarts within 3 minutes, saying so in the "Umpire" output and
 * in a notification; "Umpire: Restart language server" starts it again.
 */
export const MAX_RESTARTS = 4;

export async function activate(context: vscode.ExtensionContext): Promise<void> {
    const output = vscode.window.createOutputChannel('Umpire');
    context.subscriptions.push(output);
    context.subscriptions.push(
        vscode.commands.registerCommand('umpire.showOdds', (target?: OddsTarget) => showOdds(target, output)),
        vscode.commands.registerCommand('umpire.showStatus', () => showStatus()),
        vscode.commands.registerCommand('umpire.restartServer', () => restart(context, output))
    );
    await start(context, output);
}

export async function deactivate(): Promise<void> {
    await client?.stop();
    client = undefined;
}

async function start(context: vscode.ExtensionContext, output: vscode.OutputChannel): Promise<void> {
    client = createClient(context, output);
    try {
        await client.start();
    } catch (err) {
        failed(output, `The Umpire language server failed to start: ${String(err)}`);
    }
}

async function restart(context: vscode.ExtensionContext, output: vscode.OutputChannel): Promise<void> {
    output.appendLine('Restarting the Umpire language server.');
    if (client && client.state !== State.Stopped) {
        try {
            await client.stop();
        } catch (err) {
            output.appendLine(`Stopping the old server: ${String(err)}`);
        }
    }
    await start(context, output);
    if (client?.state === State.Running) void vscode.window.showInformationMessage('The Umpire language server was restarted.');
}

function failed(output: vscode.OutputChannel, message: string): void {
    output.appendLine(message);
    void vscode.window.showErrorMessage(`${message.split(':')[0]}. See the "Umpire" output for details.`, 'Restart', 'Show output').then(choice => {
        if (choice === 'Restart') void vscode.commands.executeCommand('umpire.restartServer');
        if (choice === 'Show output') output.show(true);
    });
}

/** The Odds lens passes { uri, action }; from the palette, the active .battle file (all its actions). */
function showOdds(target: OddsTarget | undefined, output: vscode.OutputChannel): void {
    const uri = target?.uri ?? activeBattle()?.document.uri.toString();
    if (!uri) {
        void vscode.window.showInformationMessage('Open a .battle file to see its odds.');
        return;
    }
    OddsPanel.show(() => client, { uri, action: target?.action }, output);
}

/**
 * "Umpire: Show campaign state" (issue 8): asks for a turn (empty: the end of the file), has the
 * server's `umpire.status` build the table, and opens it as markdown beside the file, ready to paste.
 */
async function showStatus(): Promise<void> {
    const editor = activeBattle();
    if (!editor || !client) {
        void vscode.window.showInformationMessage('Open a .battle file to see its campaign state.');
        return;
    }
    const uri = editor.document.uri.toString();
    const at = await vscode.window.showInputBox({ title: 'Campaign state', prompt: 'At the end of which turn? Leave empty for the end of the file.' });
    if (at === undefined) return;
    const result = await client.sendRequest(ExecuteCommandRequest.type,
        { command: 'umpire.status', arguments: [{ uri, at: at.trim() === '' ? undefined : at.trim() }] }) as { available: boolean, markdown?: string, reason?: string } | null;
    if (!result?.available || result.markdown === undefined) {
        void vscode.window.showWarningMessage(result?.reason ?? 'The campaign state could not be shown.');
        return;
    }
    const doc = await vscode.workspace.openTextDocument({ language: 'markdown', content: result.markdown + '\n' });
    await vscode.window.showTextDocument(doc, { viewColumn: vscode.ViewColumn.Beside, preview: true });
}

function activeBattle(): vscode.TextEditor | undefined {
    const editor = vscode.window.activeTextEditor;
    return editor?.document.languageId === 'battle' ? editor : undefined;
}

export function createClient(context: vscode.ExtensionContext, output: vscode.OutputChannel): LanguageClient {
    const serverModule = context.asAbsolutePath(path.join('out', 'language', 'main.cjs'));
    const serverOptions: ServerOptions = {
        run: { module: serverModule, transport: TransportKind.ipc },
        debug: { module: serverModule, transport: TransportKind.ipc, options: { execArgv: ['--nolazy', '--inspect=6009'] } }
    };
    const clientOptions: LanguageClientOptions = {
        documentSelector: [{ language: 'battle' }],
        outputChannel: output,
        connectionOptions: { maxRestartCount: MAX_RESTARTS },
        initializationFailedHandler: err => {
            failed(output, `The Umpire language server could not initialise: ${String(err)}`);
            return false;
        },
        middleware: {
            // From the palette, "Resolve all engagements" has no arguments: it means the active file.
            executeCommand: (command, args, next) => {
                if (command === 'umpire.resolveAll' && args.length === 0) {
                    const editor = activeBattle();
                    if (!editor) {
                        void vscode.window.showInformationMessage('Open a .battle file to resolve its engagements.');
                        return undefined;
                    }
                    args = [{ uri: editor.document.uri.toString(), version: editor.document.version }];
                }
                return next(command, args);
            }
        }
    };
    return new LanguageClient('umpire', 'Umpire', serverOptions, clientOptions);
}
