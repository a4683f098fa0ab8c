/**
 * The Node server's own watch on files it read from disk (the imported forces of a campaign,
 * docs/campaigns.md#campaigns-across-files), for editors that cannot watch files for it (Neovim 0.7,
 * many others: no `didChangeWatchedFiles` registration). A file changed, replaced or deleted on disk is
 * handed to Langium's update handler as the client's notification would be, so that its importers are
 * checked again. Files open in the editor are the editor's: their text comes from it, not from disk.
 * Polled (fs.watchFile, once a second): an editor that saves by writing a new file and renaming it
 * over the old one ends an fs.watch on the old file.
 */
import * as fs from 'node:fs';
import { fileURLToPath } from 'node:url';
import { DocumentState } from 'langium';
import type { LangiumSharedServices } from 'langium/lsp';
import { FileChangeType } from 'vscode-languageserver';
import { clientSupport } from './lsp/client-support.js';

const POLL_MS = 1000;

export function watchImportedFiles(shared: LangiumSharedServices): void {
    const watched = new Set<string>();
    shared.lsp.LanguageServer.onInitialized(() => {
        if (clientSupport(shared).watchesFiles) return;
        shared.workspace.DocumentBuilder.onBuildPhase(DocumentState.IndexedContent, documents => {
            for (const document of documents) {
                const uri = document.uri.toString();
                if (document.uri.scheme !== 'file' || watched.has(uri)) continue;
                watched.add(uri);
                fs.watchFile(fileURLToPath(uri), { interval: POLL_MS, persistent: false }, (now, before) => {
                    if (now.mtimeMs === before.mtimeMs && now.size === before.size) return;
                    if (shared.workspace.TextDocuments?.get(uri)) return;
                    const type = now.mtimeMs === 0 ? FileChangeType.Deleted : FileChangeType.Changed;
                    shared.lsp.DocumentUpdateHandler.didChangeWatchedFiles?.({ changes: [{ uri, type }] });
                });
            }
        });
    });
}
