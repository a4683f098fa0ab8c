/**
 * The Odds panel (`umpire.showOdds`): a webview beside the file, filled from the server's
 * `umpire.odds` command and refreshed, a moment after the umpire stops typing, as the file changes.
 * Its page (odds-html.ts, odds-webview.ts) has a table and a chart, and buttons to copy the figures
 * (the text is made here, odds-table.ts, and put on the clipboard by VS Code) and to save the chart
 * (the page sends Vega's image; this side asks where and writes it with workspace.fs, so that it
 * works in the web extension too).
 */
import * as vscode from 'vscode';
import { ExecuteCommandRequest, type BaseLanguageClient } from 'vscode-languageclient';
import { renderOddsHtml } from './odds-html.js';
import { renderCampaignHtml, type HouseFileChoice } from './odds-campaign-html.js';
import type { OddsPageMessage, OddsPanelMessage } from './odds-messages.js';
import { oddsCsv, oddsMarkdown, oddsTable, type OddsDistribution } from './odds-table.js';
import { UmpireCommands, type CampaignOddsAnswer, type CampaignOddsArgs, type OddsAnswer, type OddsArgs } from '../protocol.js';

/** The extension's own id (package.json publisher.name): where the page's script is. */
const EXTENSION_ID = 'umpire-dev.umpire';

const REFRESH_DELAY_MS = 400;

export interface OddsTarget {
    uri: string;
    /** One action; all of the file's when absent. */
    action?: string;
    /** What-ifs on the action's set-up, as the page's toggles set them (docs/reports.md#what-if). */
    whatIf?: string[];
    /**
     * The Campaign tab (docs/odds.md#campaign-odds) instead of the actions' odds, through `through` (the
     * end of the file without it); with what-ifs over the campaign (docs/odds.md#campaign-what-if), the
     * engagement a change of one action's lines is made to, and another file whose house rules are put in.
     */
    campaign?: { through?: string, whatIf?: string[], engagement?: string, house?: string };
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

    /**
     * The palette's "Copy odds as Markdown/CSV" and "Save odds chart as SVG/PNG": they act on the open
     * panel, as its buttons do. Copy answers the text copied (undefined when there is no panel).
     */
    static registerCommands(): vscode.Disposable[] {
        const none = () => void vscode.window.showInformationMessage('Show the odds first (Umpire: Show odds): there is no Odds panel.');
        return [
            vscode.commands.registerCommand(UmpireCommands.copyOddsMarkdown, () => OddsPanel.current ? OddsPanel.current.copy('markdown', OddsPanel.current.distribution) : none()),
            vscode.commands.registerCommand(UmpireCommands.copyOddsCsv, () => OddsPanel.current ? OddsPanel.current.copy('csv', OddsPanel.current.distribution) : none()),
            vscode.commands.registerCommand(UmpireCommands.saveOddsChartSvg, () => OddsPanel.current ? OddsPanel.current.askForChart('svg') : none()),
            vscode.commands.registerCommand(UmpireCommands.saveOddsChartPng, () => OddsPanel.current ? OddsPanel.current.askForChart('png') : none())
        ];
    }

    private readonly panel: vscode.WebviewPanel;
    private readonly scriptRoot: vscode.Uri | undefined;
    private answer: OddsAnswer | undefined;
    /** The page's "Each result" / "This or worse": what the palette's Copy copies. */
    private distribution: OddsDistribution = 'results';

    private constructor(private readonly client: () => BaseLanguageClient | undefined, private target: OddsTarget, private readonly output: vscode.OutputChannel) {
        const extension = vscode.extensions.getExtension(EXTENSION_ID);
        this.scriptRoot = extension ? vscode.Uri.joinPath(extension.extensionUri, 'out', 'extension') : undefined;
        this.panel = vscode.window.createWebviewPanel('umpire.odds', title(target), { viewColumn: vscode.ViewColumn.Beside, preserveFocus: true },
            { enableScripts: this.scriptRoot !== undefined, enableCommandUris: false, localResourceRoots: this.scriptRoot ? [this.scriptRoot] : [] });
        this.panel.onDidDispose(() => this.dispose(), undefined, this.disposables);
        this.panel.webview.onDidReceiveMessage((m: OddsPageMessage) => void this.onMessage(m), undefined, this.disposables);
        vscode.workspace.onDidChangeTextDocument(e => {
            if (e.document.uri.toString() !== this.target.uri) return;
            if (this.timer) clearTimeout(this.timer);
            this.timer = setTimeout(() => void this.refresh(), REFRESH_DELAY_MS);
        }, undefined, this.disposables);
    }

    private async refresh(): Promise<void> {
        const ask = ++this.asked;
        const target = this.target;
        const houseFiles = target.campaign ? await otherBattleFiles(target.uri) : [];
        const answer = await this.ask<OddsAnswer | CampaignOddsAnswer>(target, target.campaign ? UmpireCommands.campaignOdds : UmpireCommands.odds,
            target.campaign ? await campaignArgs(target) : oddsArgs(target));
        // A later refresh has started meanwhile: its answer is the one to show.
        if (ask !== this.asked || OddsPanel.current !== this) return;
        // What the palette's Copy copies: the actions' figures only.
        this.answer = target.campaign ? undefined : answer as OddsAnswer;
        this.panel.title = title(target);
        const webview = this.panel.webview;
        const script = this.scriptRoot ? { src: webview.asWebviewUri(vscode.Uri.joinPath(this.scriptRoot, 'odds-webview.js')).toString(), cspSource: webview.cspSource } : undefined;
        const page = { nonce: freshNonce(), title: title(target), script };
        webview.html = target.campaign ? renderCampaignHtml(answer as CampaignOddsAnswer, { ...page, houseFiles, house: target.campaign.house })
            : renderOddsHtml(answer as OddsAnswer, page);
    }

    /** The server's answer to `command`, or why there is none (never a throw: the page says why). */
    private async ask<T>(target: OddsTarget, command: string, args: OddsArgs | CampaignOddsArgs): Promise<T | { available: false, action?: string, reason: string }> {
        try {
            const client = this.client();
            return client
                ? await client.sendRequest(ExecuteCommandRequest.type, { command, arguments: [args] }) as T
                : { available: false, reason: 'the Umpire language server is not running.' };
        } catch (err) {
            this.output.appendLine(`Odds for ${target.action ?? target.uri}: ${String(err)}`);
            return { available: false, action: target.action, reason: `the language server could not compute them (${String(err)}).` };
        }
    }

    private async onMessage(m: OddsPageMessage): Promise<void> {
        try {
            if (m.type === 'choices') this.distribution = m.distribution === 'orWorse' ? 'orWorse' : 'results';
            else if (m.type === 'copy') await this.copy(m.format === 'csv' ? 'csv' : 'markdown', m.distribution === 'orWorse' ? 'orWorse' : 'results');
            else if (m.type === 'save') await this.save(m.format === 'png' ? 'png' : 'svg', String(m.action), String(m.data));
            else if (m.type === 'problem') void vscode.window.showWarningMessage(String(m.text));
            else if (m.type === 'tab') {
                this.target = { ...this.target, campaign: m.tab === 'campaign' ? this.target.campaign ?? {} : undefined };
                await this.refresh();
            } else if (m.type === 'through') {
                this.target = { ...this.target, campaign: { ...this.target.campaign, through: String(m.through) || undefined } };
                await this.refresh();
            } else if (m.type === 'whatIf' && this.target.campaign) {
                const changes = Array.isArray(m.changes) ? m.changes.map(String).filter(c => c.trim().length > 0) : [];
                this.target = { ...this.target, campaign: {
                    through: this.target.campaign.through, whatIf: changes,
                    engagement: typeof m.engagement === 'string' && m.engagement !== '' ? m.engagement : undefined,
                    house: typeof m.house === 'string' && m.house !== '' ? m.house : undefined
                } };
                await this.refresh();
            } else if (m.type === 'whatIf' && this.target.action !== undefined) {
                const changes = Array.isArray(m.changes) ? m.changes.map(String).filter(c => c.trim().length > 0) : [];
                this.target = { ...this.target, whatIf: changes.length > 0 ? changes : undefined };
                await this.refresh();
            }
        } catch (err) {
            this.output.appendLine(`Odds panel: ${String(err)}`);
            void vscode.window.showErrorMessage(`The Odds panel could not do that: ${String(err)}`);
        }
    }

    private async copy(format: 'markdown' | 'csv', distribution: OddsDistribution): Promise<string | undefined> {
        const answer = this.answer;
        const rows = answer ? oddsTable(answer, distribution).rows.length : 0;
        if (!answer || rows === 0) {
            void vscode.window.showInformationMessage('There are no odds to copy: this panel shows none.');
            return undefined;
        }
        const text = format === 'csv' ? oddsCsv(answer, distribution) : oddsMarkdown(answer, distribution);
        await vscode.env.clipboard.writeText(text);
        const which = distribution === 'results' ? 'the chance of each result' : 'the chance of each result or worse';
        void vscode.window.showInformationMessage(`Copied ${which} for ${rows} unit${rows === 1 ? '' : 's'} as ${format === 'csv' ? 'CSV' : 'Markdown'}.`);
        return text;
    }

    private askForChart(format: 'svg' | 'png'): void {
        this.panel.reveal(undefined, true);
        void this.panel.webview.postMessage({ type: 'save', format } satisfies OddsPanelMessage);
    }

    /** Asks where (beside the file, `NAME-ACTION-odds.svg` proposed) and writes the page's image there. */
    private async save(format: 'svg' | 'png', action: string, data: string): Promise<void> {
        const bytes = format === 'svg' ? new TextEncoder().encode(data) : pngBytes(data);
        if (!bytes) {
            void vscode.window.showErrorMessage('The chart came back as no PNG image: nothing was saved.');
            return;
        }
        const source = vscode.Uri.parse(this.target.uri);
        const base = source.path.split('/').pop()!.replace(/\.[^.]*$/, '');
        const safe = action.replace(/[^\p{L}\p{N}_-]+/gu, '_');
        const target = await vscode.window.showSaveDialog({
            title: `Save the chart of ${action} as ${format.toUpperCase()}`,
            defaultUri: vscode.Uri.joinPath(source, '..', `${base}-${safe}-odds.${format}`),
            filters: format === 'svg' ? { 'SVG image': ['svg'] } : { 'PNG image': ['png'] }
        });
        if (!target) return;
        await vscode.workspace.fs.writeFile(target, bytes);
        void vscode.window.showInformationMessage(`Chart saved to ${vscode.workspace.asRelativePath(target)}.`);
    }

    private dispose(): void {
        if (this.timer) clearTimeout(this.timer);
        for (const d of this.disposables) d.dispose();
        if (OddsPanel.current === this) OddsPanel.current = undefined;
    }
}

/** The bytes of a `data:image/png;base64,…` address (Vega's toImageURL), or undefined if it is not one. */
function pngBytes(url: string): Uint8Array | undefined {
    const m = /^data:image\/png;base64,([A-Za-z0-9+/=]+)$/.exec(url);
    if (!m) return undefined;
    const binary = atob(m[1]);
    return Uint8Array.from(binary, c => c.charCodeAt(0));
}

/** 16 random bytes, base64: from Web Crypto, so that the panel works in the web extension too. */
function freshNonce(): string {
    const bytes = globalThis.crypto.getRandomValues(new Uint8Array(16));
    return btoa(String.fromCharCode(...bytes));
}

/** One action's odds are asked with its what-ifs (none: the toggles it offers, and the odds as written). */
function oddsArgs(target: OddsTarget): OddsArgs {
    return target.action === undefined ? { uri: target.uri } : { uri: target.uri, action: target.action, whatIf: target.whatIf ?? [] };
}

/**
 * The Campaign tab asks with its what-ifs (none: the what-ifs the file offers, and the campaign as
 * written); another file's house rules go with the file's text as the editor has it, for a server
 * that has not read that file (the browser's).
 */
async function campaignArgs(target: OddsTarget): Promise<CampaignOddsArgs> {
    const { through, whatIf, engagement, house } = target.campaign ?? {};
    const args: CampaignOddsArgs = { uri: target.uri, whatIf: whatIf ?? [] };
    if (through !== undefined) args.through = through;
    if (engagement !== undefined) args.engagement = engagement;
    if (house !== undefined) {
        args.house = house;
        try {
            const open = vscode.workspace.textDocuments.find(d => d.uri.toString() === house);
            args.houseText = open ? open.getText() : new TextDecoder().decode(await vscode.workspace.fs.readFile(vscode.Uri.parse(house)));
        } catch {
            // Unreadable here: the server says so, or reads it itself.
        }
    }
    return args;
}

/** The workspace's other .battle files, whose house rules the Campaign tab can put in this file's place. */
async function otherBattleFiles(uri: string): Promise<HouseFileChoice[]> {
    try {
        const found = await vscode.workspace.findFiles('**/*.battle', '**/node_modules/**', 200);
        return found.filter(f => f.toString() !== uri)
            .map(f => ({ uri: f.toString(), name: vscode.workspace.asRelativePath(f) }))
            .sort((a, b) => a.name.localeCompare(b.name));
    } catch {
        return [];
    }
}

function title(target: OddsTarget): string {
    if (target.campaign) return `Campaign odds: ${target.uri.split('/').pop() ?? 'file'}`;
    return target.action ? `Odds: ${target.action}` : `Odds: ${target.uri.split('/').pop() ?? 'file'}`;
}
