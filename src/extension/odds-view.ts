/**
 * The Odds panel (`umpire.showOdds`): a webview beside the file, filled from the server's
 * `umpire.odds` command and refreshed, a moment after the umpire stops typing, as the file changes.
 */
import * as vscode from 'vscode';
import { ExecuteCommandRequest, type BaseLanguageClient } from 'vscode-languageclient';
import { renderOddsHtml } from './odds-html.js';
import { UmpireCommands, type OddsAnswer } from '../protocol.js';

const REFRESH_DELAY_MS = 400;

export interface OddsTarget {
    uri: string;
    /** One action; all of the file's when absent. */
    action?: string;
}

export class OddsPanel {
    private static current: OddsPanel | undefined;
    private readonly disposables: vscode.Disposable[] = [];
    private timer: ReturnType<typeof setTimeout> | undefined;
    private asked = 0;

    /** Shows the panel for `target`, reusing the open one. */
    static show(client: () => BaseLanguageClient | undefined, target: OddsTarget, output: vscode.OutputChannel): void {
        if (OddsPanel.current) {
            OddsPanel.current.target = target;
            OddsPanel.current.panel.reveal(undefined, true);
        } else {
            OddsPanel.current = new OddsPanel(client, target, output);
        }
        void OddsPanel.current.refresh();
    }

    private readonly panel: vscode.WebviewPanel;

    private constructor(private readonly client: () => BaseLanguageClient | undefined, private target: OddsTarget, private readonly output: vscode.OutputChannel) {
        this.panel = vscode.window.createWebviewPanel('umpire.odds', title(target), { viewColumn: vscode.ViewColumn.Beside, preserveFocus: true },
            { enableScripts: false, enableCommandUris: false, localResourceRoots: [] });
        this.panel.onDidDispose(() => this.dispose(), undefined, this.disposables);
        vscode.workspace.onDidChangeTextDocument(e => {
            if (e.document.uri.toString() !== this.target.uri) return;
            if (this.timer) clearTimeout(this.timer);
            this.timer = setTimeout(() => void this.refresh(), REFRESH_DELAY_MS);
        }, undefined, this.disposables);
    }

    private async refresh(): Promise<void> {
        const ask = ++this.asked;
        const target = this.target;
        let answer: OddsAnswer | undefined;
        try {
            const client = this.client();
            answer = client
                ? await client.sendRequest(ExecuteCommandRequest.type, { command: UmpireCommands.odds, arguments: [target] }) as OddsAnswer
                : { available: false, reason: 'the Umpire language server is not running.' };
        } catch (err) {
            this.output.appendLine(`Odds for ${target.action ?? target.uri}: ${String(err)}`);
            answer = { available: false, action: target.action, reason: `the language server could not compute them (${String(err)}).` };
        }
        // A later refresh has started meanwhile: its answer is the one to show.
        if (ask !== this.asked || OddsPanel.current !== this) return;
        this.panel.title = title(target);
        this.panel.webview.html = renderOddsHtml(answer, { nonce: freshNonce(), title: title(target) });
    }

    private dispose(): void {
        if (this.timer) clearTimeout(this.timer);
        for (const d of this.disposables) d.dispose();
        if (OddsPanel.current === this) OddsPanel.current = undefined;
    }
}

/** 16 random bytes, base64: from Web Crypto, so that the panel works in the web extension too. */
function freshNonce(): string {
    const bytes = globalThis.crypto.getRandomValues(new Uint8Array(16));
    return btoa(String.fromCharCode(...bytes));
}

function title(target: OddsTarget): string {
    return target.action ? `Odds: ${target.action}` : `Odds: ${target.uri.split('/').pop() ?? 'file'}`;
}
