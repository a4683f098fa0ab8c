/**
 * The campaign state rendered: the server's markdown table (`umpire.status`) is served as a
 * read-only virtual document (scheme `umpire-state`) and shown in VS Code's Markdown preview beside
 * the file, so nothing unsaved is left behind to ask "Save changes?". Asking again for the same
 * file refreshes the open preview.
 */
import * as vscode from 'vscode';

const SCHEME = 'umpire-state';

export class CampaignStatePreview implements vscode.TextDocumentContentProvider {
    private readonly texts = new Map<string, string>();
    private readonly changed = new vscode.EventEmitter<vscode.Uri>();
    readonly onDidChange = this.changed.event;

    static register(context: vscode.ExtensionContext): CampaignStatePreview {
        const provider = new CampaignStatePreview();
        context.subscriptions.push(provider.changed, vscode.workspace.registerTextDocumentContentProvider(SCHEME, provider));
        return provider;
    }

    provideTextDocumentContent(uri: vscode.Uri): string {
        return this.texts.get(uri.toString()) ?? '_The campaign state is no longer available: run "Umpire: Show campaign state" again._\n';
    }

    /** Shows `markdown` as the campaign state of `source`, rendered beside it. */
    async show(source: vscode.Uri, markdown: string): Promise<void> {
        const name = source.path.split('/').pop() ?? 'battle';
        // One virtual document per .battle file: a second request replaces the text and refreshes the preview.
        const uri = vscode.Uri.from({ scheme: SCHEME, path: `/Campaign state of ${name.replace(/\.battle$/, '')}.md`, query: source.toString() });
        // In a box of its own, which the extension's preview style and script (media/preview/campaign-state.*)
        // lay out: one line a row where the table fits, a card a unit where it does not.
        this.texts.set(uri.toString(), `<div class="umpire-state">\n\n${markdown}\n\n</div>\n`);
        this.changed.fire(uri);
        try {
            await vscode.commands.executeCommand('markdown.showPreviewToSide', uri);
        } catch {
            // An editor without the built-in Markdown extension: the text itself, read-only.
            const doc = await vscode.workspace.openTextDocument(uri);
            await vscode.window.showTextDocument(doc, { viewColumn: vscode.ViewColumn.Beside, preview: true });
        }
    }
}
