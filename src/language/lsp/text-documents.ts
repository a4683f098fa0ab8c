/**
 * The open documents, as Langium keeps them, and a record of each edit the editor sent: for each new
 * version, the span of the text its change events replaced. A parse in pieces then splices at the span
 * the editor named instead of comparing the whole old and new texts (1.5 MB each at 50,000 lines), and
 * the answers kept per element move by the same span (battle-document-factory.ts `ParsedFrom.change`).
 *
 * Langium's `NormalizedTextDocuments` takes the functions that make and update a document as its
 * configuration: the record is kept by wrapping `update`, Langium's own seam for it.
 */
import { NormalizedTextDocuments } from 'langium/lsp';
import { TextDocument } from 'vscode-languageserver-textdocument';
import type { TextDocumentContentChangeEvent } from 'vscode-languageserver';
import { composeSpans, type EditRecord, type TextSpan } from '../text-change.js';

/** The change from one version to the next: undefined span when the whole text was sent. */
interface VersionChange {
    readonly from: number;
    readonly to: number;
    readonly span: TextSpan | undefined;
    readonly oldLength: number;
    readonly newLength: number;
}

/**
 * Versions kept per document: a parse is at most a few versions behind the editor (the builds of
 * versions typed meanwhile are cancelled), and a span older than this falls back to comparing texts.
 */
const KEPT_VERSIONS = 64;

class VersionChanges implements EditRecord {
    private readonly byUri = new Map<string, VersionChange[]>();

    opened(uri: string): void {
        this.byUri.delete(uri);
    }

    /**
     * Applies the editor's change events one after the other (each names a range of the text the ones
     * before it left; Langium's documents are updated in place), recording the span they replaced.
     */
    update(document: TextDocument, changes: readonly TextDocumentContentChangeEvent[], version: number): TextDocument {
        const from = document.version;
        const oldLength = document.getText().length;
        let span: TextSpan | undefined;
        let whole = false;
        for (const change of changes) {
            if ('range' in change) {
                const length = document.getText().length;
                // A range may come with its end first (the document reads it the other way round too).
                const a = document.offsetAt(change.range.start), b = document.offsetAt(change.range.end);
                const one: TextSpan = { prefix: Math.min(a, b), suffix: length - Math.max(a, b) };
                span = span ? composeSpans(span, one) : one;
            } else {
                whole = true;
            }
            document = TextDocument.update(document, [change], version);
        }
        const list = this.byUri.get(document.uri) ?? [];
        list.push({ from, to: version, span: whole ? undefined : span, oldLength, newLength: document.getText().length });
        if (list.length > KEPT_VERSIONS) list.splice(0, list.length - KEPT_VERSIONS);
        this.byUri.set(document.uri, list);
        return document;
    }

    changeBetween(uri: string, fromVersion: number, toVersion: number): { span: TextSpan, oldLength: number, newLength: number } | undefined {
        const list = this.byUri.get(uri);
        if (!list || fromVersion >= toVersion) return undefined;
        let k = list.findIndex(c => c.from === fromVersion);
        if (k < 0) return undefined;
        const oldLength = list[k].oldLength;
        let span: TextSpan | undefined;
        for (let version = fromVersion; version !== toVersion; k++) {
            const change = list[k];
            if (!change || change.from !== version || !change.span) return undefined;
            span = span ? composeSpans(span, change.span) : change.span;
            version = change.to;
            if (version === toVersion) return { span, oldLength, newLength: change.newLength };
        }
        return undefined;
    }
}

/** Langium's open documents, recording each edit's span (`edits`). */
export class BattleTextDocuments extends NormalizedTextDocuments<TextDocument> {
    readonly edits: EditRecord;

    constructor() {
        const changes = new VersionChanges();
        super({
            create: (uri, languageId, version, content) => {
                changes.opened(uri);
                return TextDocument.create(uri, languageId, version, content);
            },
            update: (document, events, version) => changes.update(document, events, version)
        });
        this.edits = changes;
    }
}
