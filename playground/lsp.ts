/**
 * A small LSP client for Monaco: the page's end of the conversation with the Umpire language server
 * running in a web worker (the very bundle the web extension starts, out/language/main-browser.js).
 *
 * Why not monaco-languageclient: its current releases bring some thirty @codingame/monaco-vscode-*
 * packages (VS Code's workbench services in the page); and monaco-editor's own LSP client has no way
 * to send `workspace/executeCommand` or to answer `workspace/applyEdit`, which Resolve needs. The
 * page needs only a handful of features, each a few lines over vscode-languageserver-protocol.
 */
import * as monaco from 'monaco-editor/editor/editor.api.js';
import {
    BrowserMessageReader, BrowserMessageWriter, createProtocolConnection, LSPErrorCodes,
    type ApplyWorkspaceEditParams, type ApplyWorkspaceEditResult, type CodeAction, type CodeLens, type Command, type CompletionItem, type CompletionList,
    type Diagnostic, type DocumentSymbol, type FoldingRange, type Hover, type InitializeResult, type InlayHint, type MarkupContent, type MessageActionItem,
    type ProtocolConnection, type PublishDiagnosticsParams, type Range, type SemanticTokens, type ShowMessageParams,
    type ShowMessageRequestParams, type TextEdit, type WorkspaceEdit
} from 'vscode-languageserver-protocol/browser';

export const LANGUAGE_ID = 'battle';

/** What the page shows of the server's talk: diagnostics, messages and questions to the umpire. */
export interface ServerHost {
    diagnostics(uri: string, diagnostics: Diagnostic[]): void;
    message(kind: 'error' | 'warning' | 'info', text: string): void;
    ask(text: string, choices: string[]): Promise<string | undefined>;
    /** The server's edit was applied to the model: where (to bring the outcome into view). */
    edited(model: monaco.editor.ITextModel, ranges: monaco.IRange[]): void;
}

function toMonacoRange(r: Range): monaco.IRange {
    return { startLineNumber: r.start.line + 1, startColumn: r.start.character + 1, endLineNumber: r.end.line + 1, endColumn: r.end.character + 1 };
}

function toPosition(p: monaco.IPosition): { line: number, character: number } {
    return { line: p.lineNumber - 1, character: p.column - 1 };
}

function markdown(contents: Hover['contents']): monaco.IMarkdownString[] {
    const list = Array.isArray(contents) ? contents : [contents];
    return list.map(c => typeof c === 'string' ? { value: c } : 'kind' in c ? { value: (c as MarkupContent).value } : { value: '```' + c.language + '\n' + c.value + '\n```' });
}

/** A quick fix's edit in Monaco's terms; the version makes Monaco refuse it if the text changed since. */
function workspaceEdit(edit: WorkspaceEdit): monaco.languages.WorkspaceEdit {
    const edits: monaco.languages.IWorkspaceTextEdit[] = [];
    for (const dc of edit.documentChanges ?? []) {
        if (!('textDocument' in dc)) continue;
        for (const e of dc.edits as TextEdit[]) {
            edits.push({ resource: monaco.Uri.parse(dc.textDocument.uri), versionId: dc.textDocument.version ?? undefined, textEdit: { range: toMonacoRange(e.range), text: e.newText } });
        }
    }
    for (const [uri, list] of Object.entries(edit.changes ?? {})) {
        for (const e of list) edits.push({ resource: monaco.Uri.parse(uri), versionId: undefined, textEdit: { range: toMonacoRange(e.range), text: e.newText } });
    }
    return { edits };
}

const SEVERITY: Record<number, monaco.MarkerSeverity> = {
    1: monaco.MarkerSeverity.Error, 2: monaco.MarkerSeverity.Warning, 3: monaco.MarkerSeverity.Info, 4: monaco.MarkerSeverity.Hint
};

/** LSP's completion kinds by number, named as Monaco names them. */
const COMPLETION_KINDS = ['', 'Text', 'Method', 'Function', 'Constructor', 'Field', 'Variable', 'Class', 'Interface', 'Module', 'Property',
    'Unit', 'Value', 'Enum', 'Keyword', 'Snippet', 'Color', 'File', 'Reference', 'Folder', 'EnumMember', 'Constant', 'Struct', 'Event',
    'Operator', 'TypeParameter'] as const;

/** One feature request the page sent and how it went: what the e2e test reads to see every provider answer. */
export interface RequestRecord {
    method: string;
    /** How many things it answered (hints, tokens, symbols, ranges, edits, …); 1 for a single answer, 0 for none. */
    items: number;
    failed?: string;
}

/** How many things an answer holds, for the record. */
function itemsIn(answer: unknown): number {
    if (answer === null || answer === undefined) return 0;
    if (Array.isArray(answer)) return answer.length;
    const data = (answer as { data?: unknown[], items?: unknown[] });
    if (Array.isArray(data.data)) return data.data.length / 5;
    if (Array.isArray(data.items)) return data.items.length;
    return 1;
}

export class UmpireServer {
    /** Every feature request and its outcome, in order (window.umpirePlayground.requests). */
    readonly requests: RequestRecord[] = [];
    private readonly connection: ProtocolConnection;
    private readonly opened = new Map<string, monaco.IDisposable>();
    private readonly lensesChanged = new monaco.Emitter<monaco.languages.CodeLensProvider>();
    private lensProvider: monaco.languages.CodeLensProvider | undefined;
    private capabilities: InitializeResult['capabilities'] = {};
    /** The last diagnostics of each document: quick fixes are asked for with them. */
    private readonly diagnosticsOf = new Map<string, Diagnostic[]>();

    constructor(private readonly worker: Worker, private readonly host: ServerHost) {
        this.connection = createProtocolConnection(new BrowserMessageReader(worker), new BrowserMessageWriter(worker));
    }

    /** Starts the conversation (initialize, initialized) and registers the editor features. */
    async start(): Promise<void> {
        const c = this.connection;
        c.onNotification('textDocument/publishDiagnostics', (p: PublishDiagnosticsParams) => this.publish(p));
        c.onNotification('window/showMessage', (p: ShowMessageParams) => this.host.message(p.type === 1 ? 'error' : p.type === 2 ? 'warning' : 'info', p.message));
        c.onNotification('window/logMessage', (p: ShowMessageParams) => console.debug(`[umpire server] ${p.message}`));
        c.onRequest('window/showMessageRequest', async (p: ShowMessageRequestParams): Promise<MessageActionItem | null> => {
            const picked = await this.host.ask(p.message, (p.actions ?? []).map(a => a.title));
            return picked === undefined ? null : { title: picked };
        });
        // No settings on the page: every umpire.* setting takes its default.
        c.onRequest('workspace/configuration', (p: { items: unknown[] }) => p.items.map(() => null));
        c.onRequest('client/registerCapability', () => null);
        c.onRequest('client/unregisterCapability', () => null);
        c.onRequest('window/workDoneProgress/create', () => null);
        c.onRequest('workspace/codeLens/refresh', () => { this.refreshLenses(); return null; });
        c.onRequest('workspace/semanticTokens/refresh', () => null);
        c.onRequest('workspace/inlayHint/refresh', () => null);
        c.onRequest('workspace/applyEdit', (p: ApplyWorkspaceEditParams) => this.applyEdit(p));
        c.listen();
        const result = await c.sendRequest('initialize', {
            processId: null, rootUri: null, workspaceFolders: null, clientInfo: { name: 'Umpire playground' },
            capabilities: {
                // The page draws the Odds view itself (main.ts registers umpire.showOdds).
                experimental: { commands: { commands: ['umpire.showOdds'] } },
                workspace: { applyEdit: true, configuration: true, workspaceEdit: { documentChanges: true }, codeLens: { refreshSupport: true } },
                window: { showMessage: { messageActionItem: { additionalPropertiesSupport: false } } },
                textDocument: {
                    synchronization: { didSave: false },
                    publishDiagnostics: { relatedInformation: false },
                    hover: { contentFormat: ['markdown', 'plaintext'] },
                    completion: { completionItem: { snippetSupport: true } },
                    codeLens: {}, formatting: {}, inlayHint: {}, rename: { prepareSupport: false },
                    documentSymbol: { hierarchicalDocumentSymbolSupport: true }, foldingRange: {},
                    codeAction: { codeActionLiteralSupport: { codeActionKind: { valueSet: ['quickfix'] } }, isPreferredSupport: true },
                    semanticTokens: { requests: { full: true }, tokenTypes: [], tokenModifiers: [], formats: ['relative'] }
                }
            }
        }) as InitializeResult;
        this.capabilities = result.capabilities;
        await c.sendNotification('initialized', {});
        this.registerProviders();
    }

    /** Tells the server about a model and every later change to it (the whole text: files are small). */
    open(model: monaco.editor.ITextModel): void {
        const uri = model.uri.toString();
        void this.connection.sendNotification('textDocument/didOpen', {
            textDocument: { uri, languageId: LANGUAGE_ID, version: model.getVersionId(), text: model.getValue() }
        });
        this.opened.set(uri, model.onDidChangeContent(() => {
            void this.connection.sendNotification('textDocument/didChange', {
                textDocument: { uri, version: model.getVersionId() }, contentChanges: [{ text: model.getValue() }]
            });
        }));
    }

    private refreshLenses(): void {
        if (this.lensProvider) this.lensesChanged.fire(this.lensProvider);
    }

    close(model: monaco.editor.ITextModel): void {
        const uri = model.uri.toString();
        this.opened.get(uri)?.dispose();
        this.opened.delete(uri);
        void this.connection.sendNotification('textDocument/didClose', { textDocument: { uri } });
    }

    /** `workspace/executeCommand`: Resolve, Re-roll, Resolve all, Odds, campaign state. */
    executeCommand<T = unknown>(command: string, args: unknown[]): Promise<T> {
        return this.connection.sendRequest('workspace/executeCommand', { command, arguments: args }) as Promise<T>;
    }

    codeLenses(model: monaco.editor.ITextModel): Promise<CodeLens[] | null> {
        return this.ask('textDocument/codeLens', { textDocument: { uri: model.uri.toString() } }) as Promise<CodeLens[] | null>;
    }

    /**
     * A feature's request. When the server cancels it (a document it has not read yet: Langium reads a
     * newly opened file a moment later; or one closed meanwhile, as when the umpire switches examples),
     * the answer is "nothing", not an error.
     */
    private async ask(method: string, params: object): Promise<unknown> {
        try {
            const answer = await this.connection.sendRequest(method, params);
            this.requests.push({ method, items: itemsIn(answer) });
            return answer;
        } catch (err) {
            const code = (err as { code?: number }).code;
            // Cancelled, or the text changed meanwhile: Monaco asks again; nothing failed.
            if (code === LSPErrorCodes.ServerCancelled || code === LSPErrorCodes.RequestCancelled || code === LSPErrorCodes.ContentModified) return null;
            const failed = err instanceof Error ? err.message : String(err);
            this.requests.push({ method, items: 0, failed });
            console.error(`[umpire] Request ${method} failed: ${failed}`);
            return null;
        }
    }

    private publish(p: PublishDiagnosticsParams): void {
        this.diagnosticsOf.set(p.uri, p.diagnostics);
        const model = monaco.editor.getModel(monaco.Uri.parse(p.uri));
        if (model) {
            monaco.editor.setModelMarkers(model, 'umpire', p.diagnostics.map(d => ({
                ...toMonacoRange(d.range), message: typeof d.message === 'string' ? d.message : d.message.value, severity: SEVERITY[d.severity ?? 1],
                code: d.code === undefined ? undefined : String(d.code), source: d.source
            })));
        }
        this.host.diagnostics(p.uri, p.diagnostics);
        // Lenses carry the document's version: new diagnostics mean a new version was checked.
        this.refreshLenses();
    }

    /** The outcome edits of Resolve: applied only to the version they were computed for, as one undo step. */
    private applyEdit(p: ApplyWorkspaceEditParams): ApplyWorkspaceEditResult {
        const changes: Array<{ uri: string, version: number | null, edits: TextEdit[] }> = [];
        for (const dc of p.edit.documentChanges ?? []) {
            if (!('textDocument' in dc)) return { applied: false, failureReason: 'the page can only edit the open file' };
            changes.push({ uri: dc.textDocument.uri, version: dc.textDocument.version, edits: dc.edits as TextEdit[] });
        }
        for (const [uri, edits] of Object.entries(p.edit.changes ?? {})) changes.push({ uri, version: null, edits });
        for (const change of changes) {
            const model = monaco.editor.getModel(monaco.Uri.parse(change.uri));
            if (!model) return { applied: false, failureReason: `${change.uri} is not open` };
            if (change.version !== null && change.version !== model.getVersionId()) {
                return { applied: false, failureReason: `the text changed (version ${change.version}, now ${model.getVersionId()})` };
            }
        }
        for (const change of changes) {
            const model = monaco.editor.getModel(monaco.Uri.parse(change.uri))!;
            model.pushStackElement();
            model.pushEditOperations([], change.edits.map(e => ({ range: toMonacoRange(e.range), text: e.newText })), () => null);
            model.pushStackElement();
            this.host.edited(model, change.edits.map(e => toMonacoRange(e.range)));
        }
        return { applied: true };
    }

    private registerProviders(): void {
        const doc = (model: monaco.editor.ITextModel) => ({ textDocument: { uri: model.uri.toString() } });
        const at = (model: monaco.editor.ITextModel, position: monaco.IPosition) => ({ ...doc(model), position: toPosition(position) });

        this.lensProvider = {
            onDidChange: this.lensesChanged.event,
            provideCodeLenses: async model => {
                const lenses = await this.codeLenses(model) ?? [];
                return {
                    lenses: lenses.map((l, i) => ({
                        range: toMonacoRange(l.range), id: String(i),
                        command: l.command && { id: l.command.command, title: l.command.title, arguments: l.command.arguments }
                    })),
                    dispose: () => undefined
                };
            }
        };
        monaco.languages.registerCodeLensProvider(LANGUAGE_ID, this.lensProvider);
        monaco.languages.registerCodeActionProvider(LANGUAGE_ID, {
            provideCodeActions: async (model, range, context) => {
                const diagnostics = this.diagnosticsOf.get(model.uri.toString()) ?? [];
                const answer = await this.ask('textDocument/codeAction', {
                    ...doc(model),
                    range: { start: toPosition({ lineNumber: range.startLineNumber, column: range.startColumn }), end: toPosition({ lineNumber: range.endLineNumber, column: range.endColumn }) },
                    // The server's diagnostics under the markers Monaco passes (same ranges, same messages).
                    context: { diagnostics: diagnostics.filter(d => context.markers.some(m => m.message === d.message && m.startLineNumber === d.range.start.line + 1)) }
                }) as Array<CodeAction | Command> | null;
                const actions = (answer ?? []).filter((a): a is CodeAction => 'edit' in a && a.edit !== undefined).map(a => ({
                    title: a.title, kind: a.kind, isPreferred: a.isPreferred, edit: workspaceEdit(a.edit!)
                }));
                return { actions, dispose: () => undefined };
            }
        });
        monaco.languages.registerHoverProvider(LANGUAGE_ID, {
            provideHover: async (model, position) => {
                const hover = await this.ask('textDocument/hover', at(model, position)) as Hover | null;
                return hover ? { contents: markdown(hover.contents), range: hover.range && toMonacoRange(hover.range) } : null;
            }
        });
        monaco.languages.registerCompletionItemProvider(LANGUAGE_ID, {
            triggerCharacters: this.capabilities.completionProvider?.triggerCharacters,
            provideCompletionItems: async (model, position) => {
                const answer = await this.ask('textDocument/completion', at(model, position)) as CompletionList | CompletionItem[] | null;
                const items = Array.isArray(answer) ? answer : answer?.items ?? [];
                const word = model.getWordUntilPosition(position);
                const fallback = { startLineNumber: position.lineNumber, endLineNumber: position.lineNumber, startColumn: word.startColumn, endColumn: word.endColumn };
                return {
                    suggestions: items.map(item => {
                        const edit = item.textEdit && 'range' in item.textEdit ? item.textEdit : undefined;
                        const kind = monaco.languages.CompletionItemKind[COMPLETION_KINDS[item.kind ?? 1] as keyof typeof monaco.languages.CompletionItemKind];
                        return {
                            label: item.label, kind: kind ?? monaco.languages.CompletionItemKind.Text,
                            detail: item.detail, sortText: item.sortText, filterText: item.filterText,
                            documentation: typeof item.documentation === 'string' ? item.documentation : item.documentation && { value: item.documentation.value },
                            insertText: edit?.newText ?? item.insertText ?? item.label,
                            insertTextRules: item.insertTextFormat === 2 ? monaco.languages.CompletionItemInsertTextRule.InsertAsSnippet : undefined,
                            range: edit ? toMonacoRange(edit.range) : fallback
                        };
                    })
                };
            }
        });
        monaco.languages.registerDocumentFormattingEditProvider(LANGUAGE_ID, {
            provideDocumentFormattingEdits: async (model, options) => {
                const edits = await this.ask('textDocument/formatting', { ...doc(model), options }) as TextEdit[] | null;
                return (edits ?? []).map(e => ({ range: toMonacoRange(e.range), text: e.newText }));
            }
        });
        monaco.languages.registerInlayHintsProvider(LANGUAGE_ID, {
            provideInlayHints: async (model, range) => {
                const hints = await this.ask('textDocument/inlayHint', {
                    ...doc(model), range: { start: toPosition({ lineNumber: range.startLineNumber, column: range.startColumn }), end: toPosition({ lineNumber: range.endLineNumber, column: range.endColumn }) }
                }) as InlayHint[] | null;
                return {
                    hints: (hints ?? []).map(h => ({
                        position: { lineNumber: h.position.line + 1, column: h.position.character + 1 },
                        label: typeof h.label === 'string' ? h.label : h.label.map(part => part.value).join(''),
                        paddingLeft: h.paddingLeft, paddingRight: h.paddingRight,
                        // The details (a die's result, the action's breakdown) are in the tooltip.
                        tooltip: typeof h.tooltip === 'string' || h.tooltip === undefined ? h.tooltip : { value: h.tooltip.value }
                    })),
                    dispose: () => undefined
                };
            }
        });
        monaco.languages.registerRenameProvider(LANGUAGE_ID, {
            provideRenameEdits: async (model, position, newName) => {
                const edit = await this.ask('textDocument/rename', { ...at(model, position), newName }) as WorkspaceEdit | null;
                return edit ? workspaceEdit(edit) : { edits: [] };
            }
        });
        monaco.languages.registerDocumentSymbolProvider(LANGUAGE_ID, {
            provideDocumentSymbols: async model => {
                const symbols = await this.ask('textDocument/documentSymbol', doc(model)) as DocumentSymbol[] | null;
                const convert = (s: DocumentSymbol): monaco.languages.DocumentSymbol => ({
                    name: s.name, detail: s.detail ?? '', kind: (s.kind - 1) as monaco.languages.SymbolKind, tags: [],
                    range: toMonacoRange(s.range), selectionRange: toMonacoRange(s.selectionRange), children: (s.children ?? []).map(convert)
                });
                return (symbols ?? []).map(convert);
            }
        });
        monaco.languages.registerFoldingRangeProvider(LANGUAGE_ID, {
            provideFoldingRanges: async model => {
                const ranges = await this.ask('textDocument/foldingRange', doc(model)) as FoldingRange[] | null;
                return (ranges ?? []).map(r => ({ start: r.startLine + 1, end: r.endLine + 1 }));
            }
        });
        const legend = this.capabilities.semanticTokensProvider?.legend;
        if (legend) {
            // The tokens of the lines on screen (textDocument/semanticTokens/range): Monaco 0.57's features
            // (register.all) ask only for those; a whole-document provider would never be asked.
            monaco.languages.registerDocumentRangeSemanticTokensProvider(LANGUAGE_ID, {
                getLegend: () => legend,
                provideDocumentRangeSemanticTokens: async (model, range) => {
                    const tokens = await this.ask('textDocument/semanticTokens/range', {
                        ...doc(model), range: { start: toPosition({ lineNumber: range.startLineNumber, column: range.startColumn }), end: toPosition({ lineNumber: range.endLineNumber, column: range.endColumn }) }
                    }) as SemanticTokens | null;
                    return tokens ? { data: new Uint32Array(tokens.data), resultId: tokens.resultId } : null;
                }
            });
        }
    }

    dispose(): void {
        this.connection.dispose();
        this.worker.terminate();
    }
}
