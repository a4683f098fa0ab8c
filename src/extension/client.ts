/**
 * The client's side of the extension, shared by the desktop entry (src/extension/main.ts: the server
 * in a Node process over IPC) and the web entry (src/extension/main-browser.ts: the server in a web
 * worker). Only the way a client is made differs; the commands, the crash handling and the options
 * are these. Nothing here may import Node: the web build fails if it does.
 *
 * The server's own commands (umpire.resolve, umpire.reroll, umpire.resolveAll, umpire.odds) are
 * registered by the language client from the server's capabilities; registering them here too
 * would fail (docs/limits.md#client-commands).
 */
import * as vscode from 'vscode';
import {
    ExecuteCommandRequest, State,
    type BaseLanguageClient, type LanguageClientOptions
} from 'vscode-languageclient';
import { OddsPanel, type OddsTarget } from './odds-view.js';
import { atCursor } from './cursor-commands.js';
import { languageStatus } from './language-status.js';
import { newScenario } from './new-scenario.js';
import { CampaignStatePreview } from './campaign-preview.js';
import { FirstAnswers } from './first-answers.js';
import { UmpireCommands, type ReportArgs, type ReportResult, type StatusArgs, type StatusResult } from '../protocol.js';

/** Makes a (not yet started) client for these options: over Node IPC, or to a web worker. */
export type ClientFactory = (context: vscode.ExtensionContext, options: LanguageClientOptions) => BaseLanguageClient;

let client: BaseLanguageClient | undefined;
let newClient: ClientFactory;
let statePreview: CampaignStatePreview;
/** The start-up's waits, logged once a session (first-answers.ts). */
let firstAnswers: FirstAnswers | undefined;

/**
 * How often a crashed server is restarted before giving up. The restart policy is
 * vscode-languageclient's own (its default error handler): it restarts the server after each
 * crash and stops after this many restarts within 3 minutes, saying so in the "Umpire" output and
 * in a notification; "Umpire: Restart language server" starts it again.
 */
export const MAX_RESTARTS = 4;

export async function activateWith(context: vscode.ExtensionContext, factory: ClientFactory): Promise<void> {
    newClient = factory;
    // A log channel: the umpire chooses its level ("Developer: Set Log Level…", or the Output
    // panel's gear), and the language client logs the server's messages at theirs.
    const output = vscode.window.createOutputChannel('Umpire', { log: true });
    context.subscriptions.push(output);
    firstAnswers = new FirstAnswers(output);
    statePreview = CampaignStatePreview.register(context);
    context.subscriptions.push(
        vscode.commands.registerCommand(UmpireCommands.showOdds, (target?: OddsTarget) => showOdds(target, output)),
        vscode.commands.registerCommand(UmpireCommands.showStatus, () => showStatus()),
        vscode.commands.registerCommand(UmpireCommands.exportReport, () => exportReport()),
        vscode.commands.registerCommand(UmpireCommands.restartServer, () => restart(context, output)),
        ...OddsPanel.registerCommands(),
        vscode.commands.registerCommand(UmpireCommands.resolveAtCursor, () => atCursor(client, 'resolve')),
        vscode.commands.registerCommand(UmpireCommands.showOddsAtCursor, () => atCursor(client, 'odds')),
        vscode.commands.registerCommand(UmpireCommands.newScenario, () => newScenario(client))
    );
    await start(context, output);
    context.subscriptions.push(languageStatus(() => client, output));
}

export async function deactivateClient(): Promise<void> {
    await client?.stop();
    client = undefined;
}

/**
 * Tells the server which of the protocol's client commands this client runs itself (the Odds view),
 * as rust-analyzer's clients do (`experimental.commands.commands`): its lenses then open the view,
 * where other editors get the odds as Markdown.
 */
const clientCommandsFeature = {
    fillClientCapabilities(capabilities: { experimental?: unknown }): void {
        capabilities.experimental = { ...(capabilities.experimental as object | undefined), commands: { commands: [UmpireCommands.showOdds] } };
    },
    initialize(): void { /* nothing to set up: the commands are registered in activateClient */ },
    getState: () => ({ kind: 'static' as const }),
    clear(): void { /* nothing kept */ }
};

async function start(context: vscode.ExtensionContext, output: vscode.LogOutputChannel): Promise<void> {
    client = newClient(context, clientOptions(output, firstAnswers));
    client.registerFeature(clientCommandsFeature);
    try {
        await client.start();
        firstAnswers?.serverReady();
        firstAnswers = undefined;
    } catch (err) {
        failed(output, `The Umpire language server failed to start: ${String(err)}`);
    }
}

async function restart(context: vscode.ExtensionContext, output: vscode.LogOutputChannel): Promise<void> {
    output.info('Restarting the Umpire language server.');
    if (client && client.state !== State.Stopped) {
        try {
            await client.stop();
        } catch (err) {
            output.warn(`Stopping the old server: ${String(err)}`);
        }
    }
    await start(context, output);
    if (client?.state === State.Running) void vscode.window.showInformationMessage('The Umpire language server was restarted.');
}

function failed(output: vscode.LogOutputChannel, message: string): void {
    output.error(message);
    void vscode.window.showErrorMessage(`${message.split(':')[0]}. See the "Umpire" output for details.`, 'Restart', 'Show output').then(choice => {
        if (choice === 'Restart') void vscode.commands.executeCommand(UmpireCommands.restartServer);
        if (choice === 'Show output') output.show(true);
    });
}

/** The Odds lens passes { uri, action }; from the palette, the active .battle file (all its actions). */
function showOdds(target: OddsTarget | undefined, output: vscode.LogOutputChannel): void {
    const uri = target?.uri ?? activeBattle()?.document.uri.toString();
    if (!uri) {
        void vscode.window.showInformationMessage('Open a .battle file to see its odds.');
        return;
    }
    OddsPanel.show(() => client, { uri, action: target?.action, campaign: target?.campaign }, output);
}

/**
 * "Umpire: Show campaign state": asks for a turn (empty: the end of the file), has the
 * server's `umpire.status` build the table, and shows it rendered beside the file (campaign-preview.ts).
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
    const args: StatusArgs = { uri, at: at.trim() === '' ? undefined : at.trim() };
    const result = await client.sendRequest(ExecuteCommandRequest.type,
        { command: UmpireCommands.status, arguments: [args] }) as StatusResult | null;
    if (!result?.available || result.markdown === undefined) {
        void vscode.window.showWarningMessage(result?.reason ?? 'The campaign state could not be shown.');
        return;
    }
    await statePreview.show(editor.document.uri, result.markdown);
}

/**
 * "Umpire: Export battle report": the server's `umpire.report` (the same report as
 * `umpire report`, docs/reports.md) written beside the file: NAME-report.html, or NAME-report.md
 * with its SVG charts. Works through vscode.workspace.fs, so also in the web extension.
 */
async function exportReport(): Promise<void> {
    const editor = activeBattle();
    if (!editor || !client) {
        void vscode.window.showInformationMessage('Open a .battle file to export its battle report.');
        return;
    }
    const picked = await vscode.window.showQuickPick([
        { label: 'HTML', description: 'one self-contained page', format: 'html' as const },
        { label: 'Markdown', description: 'with its charts as SVG files beside it', format: 'md' as const }
    ], { title: 'Export battle report' });
    if (!picked) return;
    const source = editor.document.uri;
    const args: ReportArgs = { uri: source.toString(), format: picked.format };
    const result = await client.sendRequest(ExecuteCommandRequest.type, { command: UmpireCommands.report, arguments: [args] }) as ReportResult | null;
    if (!result?.available || result.text === undefined) {
        void vscode.window.showWarningMessage(result?.reason ?? 'The battle report could not be made.');
        return;
    }
    const folder = vscode.Uri.joinPath(source, '..');
    const base = source.path.split('/').pop()!.replace(/\.[^.]*$/, '');
    const target = vscode.Uri.joinPath(folder, `${base}-report.${picked.format}`);
    const encode = (text: string) => new TextEncoder().encode(text);
    for (const [name, svg] of Object.entries(result.charts ?? {})) await vscode.workspace.fs.writeFile(vscode.Uri.joinPath(folder, name), encode(svg));
    await vscode.workspace.fs.writeFile(target, encode(result.text));
    if (picked.format === 'md') await vscode.window.showTextDocument(target, { viewColumn: vscode.ViewColumn.Beside, preview: true });
    else void vscode.window.showInformationMessage(`Battle report written to ${vscode.workspace.asRelativePath(target)}.`);
}

function activeBattle(): vscode.TextEditor | undefined {
    const editor = vscode.window.activeTextEditor;
    return editor?.document.languageId === 'battle' ? editor : undefined;
}

/** What both clients ask for: .battle files, the "Umpire" output, the crash handling, the palette's Resolve all. */
export function clientOptions(output: vscode.LogOutputChannel, firstAnswers?: FirstAnswers): LanguageClientOptions {
    return {
        documentSelector: [{ language: 'battle' }],
        outputChannel: output,
        // A turn's hover links to the Odds view's Campaign tab: that one command may run from a hover.
        markdown: { isTrusted: { enabledCommands: [UmpireCommands.showOdds] } },
        connectionOptions: { maxRestartCount: MAX_RESTARTS },
        initializationFailedHandler: err => {
            failed(output, `The Umpire language server could not initialise: ${String(err)}`);
            return false;
        },
        middleware: {
            ...firstAnswers?.middleware,
            // From the palette, "Resolve all engagements" has no arguments: it means the active file.
            executeCommand: (command, args, next) => {
                if (command === UmpireCommands.resolveAll && args.length === 0) {
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
}

