/**
 * "Umpire: New scenario": the umpire picks a rule set from the server's registry
 * (`umpire.scenarioTemplates`), and an untitled .battle file opens with that rule set's starting
 * scenario (grades, two forces, one action: it checks clean, so Resolve and Odds work at once).
 */
import * as vscode from 'vscode';
import { ExecuteCommandRequest, type BaseLanguageClient } from 'vscode-languageclient';
import { UmpireCommands, type ScenarioTemplates } from '../protocol.js';

export async function newScenario(client: BaseLanguageClient | undefined): Promise<void> {
    if (!client?.isRunning()) {
        void vscode.window.showWarningMessage('The Umpire language server is not running: "Umpire: Restart language server" starts it.');
        return;
    }
    const answer = await client.sendRequest(ExecuteCommandRequest.type, { command: UmpireCommands.scenarioTemplates, arguments: [] }) as ScenarioTemplates | null;
    const templates = answer?.templates ?? [];
    if (templates.length === 0) {
        void vscode.window.showWarningMessage('The Umpire language server knows no rule set.');
        return;
    }
    const picked = templates.length === 1 ? { template: templates[0] } : await vscode.window.showQuickPick(
        templates.map(t => ({ label: t.title, description: `rules ${t.id}`, template: t })),
        { title: 'New scenario', placeHolder: 'Which rule set does the scenario use?' });
    if (!picked) return;
    const doc = await vscode.workspace.openTextDocument({ language: 'battle', content: picked.template.text });
    await vscode.window.showTextDocument(doc);
}
