/**
 * "Umpire: Resolve engagement at cursor" and "Umpire: Show odds at cursor" (keybindings and the
 * editor's context menu): the server says which action the cursor is in (`umpire.actionAt`), then
 * the same Resolve and Odds as that action's code lenses run.
 */
import * as vscode from 'vscode';
import { ExecuteCommandRequest, type BaseLanguageClient } from 'vscode-languageclient';
import { UmpireCommands, type ActionAtResult, type OddsArgs, type PositionArgs, type ResolveArgs } from '../protocol.js';

export async function atCursor(client: BaseLanguageClient | undefined, what: 'resolve' | 'odds'): Promise<void> {
    const editor = vscode.window.activeTextEditor;
    if (!editor || editor.document.languageId !== 'battle' || !client) {
        void vscode.window.showInformationMessage(`Open a .battle file and put the cursor in an engagement to ${what === 'resolve' ? 'resolve it' : 'see its odds'}.`);
        return;
    }
    const uri = editor.document.uri.toString();
    const version = editor.document.version;
    const { line, character } = editor.selection.active;
    const args: PositionArgs = { uri, version, position: { line, character } };
    const found = await client.sendRequest(ExecuteCommandRequest.type, { command: UmpireCommands.actionAt, arguments: [args] }) as ActionAtResult | null;
    if (!found?.found) {
        void vscode.window.showInformationMessage(found?.reason ?? 'The Umpire language server did not answer.');
        return;
    }
    if (what === 'resolve') {
        if (!found.resolvable) {
            void vscode.window.showInformationMessage(`'${found.action}' (a ${found.kind}) is not resolved by this file's rule set.`);
            return;
        }
        const resolve: ResolveArgs = { uri, version, action: found.action };
        // The server's own command (registered by the language client): it writes the outcome, or says why not.
        await vscode.commands.executeCommand(UmpireCommands.resolve, resolve);
        return;
    }
    if (!found.hasOdds) {
        void vscode.window.showInformationMessage(`This file's rule set has no odds for '${found.action}' (a ${found.kind}).`);
        return;
    }
    const odds: OddsArgs = { uri, action: found.action };
    await vscode.commands.executeCommand(UmpireCommands.showOdds, odds);
}
