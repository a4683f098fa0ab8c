/**
 * How long the umpire waited at the start, written to the "Umpire" log once a session: the server
 * ready after the extension's activation, and for the first scenario opened, its first diagnostics and
 * its first code lenses after the editor opened it. An umpire who finds the start slow can read and
 * quote them; the editor's end-to-end test reads them from the log (docs/performance.md, "Start-up").
 */
import type * as vscode from 'vscode';
import type { Middleware } from 'vscode-languageclient';

export class FirstAnswers {
    private readonly activated = performance.now();
    private opened: { uri: string, at: number } | undefined;
    private diagnosticsTold = false;
    private lensesTold = false;

    constructor(private readonly output: vscode.LogOutputChannel) {}

    /** Once the client's start has resolved (initialize answered). */
    serverReady(): void {
        this.output.info(`Start-up: the language server was ready ${this.since(this.activated)} after the extension's activation.`);
    }

    /** The client's middleware that sees the first scenario opened and its first answers pass. */
    readonly middleware: Middleware = {
        didOpen: (document, next) => {
            this.opened ??= { uri: document.uri.toString(), at: performance.now() };
            return next(document);
        },
        handleDiagnostics: (uri, diagnostics, next) => {
            if (!this.diagnosticsTold && this.isFirst(uri)) {
                this.diagnosticsTold = true;
                this.tell('diagnostics');
            }
            next(uri, diagnostics);
        },
        provideCodeLenses: async (document, token, next) => {
            const lenses = await next(document, token);
            if (!this.lensesTold && this.isFirst(document.uri) && lenses && lenses.length > 0) {
                this.lensesTold = true;
                this.tell('code lenses');
            }
            return lenses;
        }
    };

    private isFirst(uri: vscode.Uri): boolean {
        return this.opened !== undefined && uri.toString() === this.opened.uri;
    }

    private tell(what: string): void {
        if (!this.opened) return;
        this.output.info(`Start-up: the first ${what} of ${this.opened.uri.split('/').pop()} came ${this.since(this.opened.at)} after it was opened.`);
    }

    private since(at: number): string {
        return `${Math.round(performance.now() - at)} ms`;
    }
}
