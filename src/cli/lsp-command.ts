/**
 * `umpire lsp --stdio`: the language server for any editor with an LSP client (Neovim, Helix, Emacs
 * eglot, …; docs/editors.md). It is the very bundle the VS Code extension starts (out/language/main.cjs,
 * through bin/language-server.cjs, from V8's code cache), so every editor gets the same checks, lenses,
 * code actions and edits. The server reads its transport from the command line as vscode-languageserver
 * does (`--stdio`, `--node-ipc`, `--socket=N`) and runs until the client says exit.
 */
export async function lspCommand(options: { stdio?: boolean }, tell: (line: string) => void = line => process.stderr.write(line + '\n')): Promise<number> {
    const transports = process.argv.slice(2).filter(a => a === '--stdio' || a === '--node-ipc' || a.startsWith('--socket=') || a.startsWith('--pipe='));
    if (!options.stdio && transports.length === 0) {
        tell('umpire lsp: say how the editor talks to the server: --stdio (what editors use), --node-ipc, --socket=PORT or --pipe=NAME');
        return 2;
    }
    // esbuild.mjs points this import at bin/language-server.cjs, which starts the server bundle the extension ships.
    await import('../language/main.js');
    // The server answers until the client's `exit`; the process ends then, with the code it gives.
    return new Promise<number>(() => undefined);
}
