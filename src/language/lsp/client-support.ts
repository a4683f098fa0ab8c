/**
 * What the connected editor said it can do at initialize, read once, so that the server's requests and
 * edits follow it: a refresh only to a client that announced `refreshSupport`, versioned
 * `documentChanges` only to one that takes them (plain `changes` otherwise), `window/showDocument` only
 * where supported, and client-side commands (the Odds view, `umpire.showOdds`) only to clients that
 * list them. The list is rust-analyzer's "client commands": `experimental.commands.commands` at
 * initialize (the VS Code extension and the playground send it; docs/editors.md).
 */
import type { LangiumSharedServices } from 'langium/lsp';
import type { ClientCapabilities, TextEdit, WorkspaceEdit } from 'vscode-languageserver';
import { UmpireCommands } from '../../protocol.js';

export interface ClientSupport {
    documentChanges: boolean;
    codeLensRefresh: boolean;
    inlayHintRefresh: boolean;
    semanticTokensRefresh: boolean;
    showDocument: boolean;
    /** The client registers file watchers for the server (`didChangeWatchedFiles.dynamicRegistration`). */
    watchesFiles: boolean;
    /** Commands the client itself runs (UmpireCommands marked "Client"), as it listed them. */
    commands: ReadonlySet<string>;
}

/** Before initialize (and without a client: the CLI, tests in one process), the VS Code extension's set. */
const VS_CODE_DEFAULTS: ClientSupport = {
    documentChanges: true, codeLensRefresh: true, inlayHintRefresh: true, semanticTokensRefresh: true, showDocument: true,
    watchesFiles: true, commands: new Set([UmpireCommands.showOdds])
};

const supportOf = new WeakMap<LangiumSharedServices, ClientSupport>();

/** Reads the client's capabilities when it initializes (called once, where the services are made). */
export function readClientSupport(shared: LangiumSharedServices): void {
    shared.lsp.LanguageServer.onInitialize(params => supportOf.set(shared, clientSupportFrom(params.capabilities)));
}

function clientSupportFrom(capabilities: ClientCapabilities): ClientSupport {
    const listed = (capabilities.experimental as { commands?: { commands?: unknown } } | undefined)?.commands?.commands;
    return {
        documentChanges: capabilities.workspace?.workspaceEdit?.documentChanges === true,
        codeLensRefresh: capabilities.workspace?.codeLens?.refreshSupport === true,
        inlayHintRefresh: capabilities.workspace?.inlayHint?.refreshSupport === true,
        semanticTokensRefresh: capabilities.workspace?.semanticTokens?.refreshSupport === true,
        showDocument: capabilities.window?.showDocument?.support === true,
        watchesFiles: capabilities.workspace?.didChangeWatchedFiles?.dynamicRegistration === true,
        commands: new Set(Array.isArray(listed) ? listed.filter((c): c is string => typeof c === 'string') : [])
    };
}

export function clientSupport(shared: LangiumSharedServices | undefined): ClientSupport {
    return (shared && supportOf.get(shared)) ?? VS_CODE_DEFAULTS;
}

/**
 * One document's edits as the client takes them: versioned `documentChanges` (the client refuses the
 * edit if the umpire typed meanwhile), else plain `changes` (the server has checked the version just
 * before, so only a keystroke in the last moment is not caught).
 */
export function documentEdit(support: ClientSupport, uri: string, version: number, edits: TextEdit[]): WorkspaceEdit {
    return support.documentChanges ? { documentChanges: [{ textDocument: { uri, version }, edits }] } : { changes: { [uri]: edits } };
}

/** The command that shows an action's odds: the client's Odds view, or the server's Markdown answer. */
export function oddsCommandFor(support: ClientSupport): string {
    return support.commands.has(UmpireCommands.showOdds) ? UmpireCommands.showOdds : UmpireCommands.oddsText;
}
