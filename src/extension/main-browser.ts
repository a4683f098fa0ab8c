/**
 * The web extension (vscode.dev, github.dev, any VS Code for the Web): the same client as on the
 * desktop (src/extension/client.ts), with the language server in a web worker built from
 * src/language/main-browser.ts. package.json's `browser` entry points here.
 */
import * as vscode from 'vscode';
import { LanguageClient, type LanguageClientOptions } from 'vscode-languageclient/browser';
import { activateWith, deactivateClient } from './client.js';

/** The worker's constructor: the web extension host has one; this project's TypeScript has no DOM types. */
type WorkerLike = ConstructorParameters<typeof LanguageClient>[3];
const WorkerConstructor = (globalThis as unknown as { Worker: new (url: string, options?: { name?: string }) => WorkerLike }).Worker;

export async function activate(context: vscode.ExtensionContext): Promise<void> {
    await activateWith(context, createClient);
}

export async function deactivate(): Promise<void> {
    await deactivateClient();
}

function createClient(context: vscode.ExtensionContext, clientOptions: LanguageClientOptions): LanguageClient {
    // A fresh worker for each client: a restarted server starts from nothing, as the desktop's new process does.
    const serverMain = vscode.Uri.joinPath(context.extensionUri, 'out', 'language', 'main-browser.js');
    const worker = new WorkerConstructor(serverMain.toString(true), { name: 'Umpire language server' });
    // The server loads the report's charts from here when a report is first drawn (src/report/charts-in-worker.ts).
    const chartsScript = vscode.Uri.joinPath(context.extensionUri, 'out', 'language', 'charts-browser.js').toString(true);
    // vscode-languageclient 10 takes the server (the worker) before the client's options.
    return new LanguageClient('umpire', 'Umpire', worker, { ...clientOptions, initializationOptions: { chartsScript } });
}
