/**
 * Every answer belongs to the version it names. The editor's text changes with each keystroke at once,
 * but Langium rebuilds the tree later, and a request can arrive in between: a formatter that read the
 * older tree's tokens against the newer text returned edits that turned `unit U6 foot Line x2` into
 * `unit U6 f`. Providers that return edits or positions (formatting, rename, code actions)
 * therefore wait here until the tree was parsed from exactly the text the editor holds, at the version
 * the request found; if the editor moves on first, the request is refused with ContentModified, which
 * tells the client the answer would be stale (VS Code then simply does not apply it).
 */
import { delayNextTick, DocumentState, OperationCancelled, type LangiumDocument } from 'langium';
import { CancellationToken, LSPErrorCodes, ResponseError } from 'vscode-languageserver';
import { parsedFrom } from '../battle-document-factory.js';

/** How long a request waits for the build of its version before giving up (a build is normally milliseconds). */
const CURRENT_VERSION_WAIT_MS = 30_000;

/** Why a request was refused: the editor changed the document before its version was built. */
function contentModified(detail: string): ResponseError<void> {
    return new ResponseError(LSPErrorCodes.ContentModified, `The document changed while this request waited (${detail}); ask again.`);
}

/**
 * Resolves once `document` is at least in `state` and its tree was parsed from the editor's current
 * text; rejects with ContentModified when the editor's version moves past the one found on entry, and
 * with OperationCancelled when the request is cancelled. Documents no editor holds (the CLI, tests,
 * files on disk) are current by definition and resolve at once.
 */
export async function whenCurrent(document: LangiumDocument, state: DocumentState = DocumentState.Parsed, cancelToken: CancellationToken = CancellationToken.None): Promise<void> {
    const from = parsedFrom(document);
    if (!from) return;
    const uri = document.uri.toString();
    const textDocuments = from.shared.workspace.TextDocuments;
    const version = textDocuments?.get(uri)?.version;
    if (version === undefined) return;
    const current = (): boolean | 'moved' => {
        const live = textDocuments!.get(uri);
        if (!live || live.version !== version) return 'moved';
        return document.state >= state && parsedFrom(document)?.text === live.getText();
    };
    const now = current();
    if (now === true) return;
    if (now === 'moved') throw contentModified('version moved');
    await new Promise<void>((resolve, reject) => {
        const finish = (error?: unknown) => {
            phase.dispose();
            cancel.dispose();
            clearTimeout(timer);
            if (error === undefined) resolve(); else reject(error);
        };
        const check = () => {
            const result = current();
            if (result === 'moved') finish(contentModified(`version ${version} was replaced`));
            else if (result) finish();
        };
        // Any build step may be the one that brings this document to `state` with the current text.
        const phase = from.shared.workspace.DocumentBuilder.onDocumentPhase(state, built => {
            if (built.uri.toString() === uri) check();
        });
        const cancel = cancelToken.onCancellationRequested(() => finish(OperationCancelled));
        const timer = setTimeout(() => finish(contentModified(`version ${version} was not built within ${CURRENT_VERSION_WAIT_MS / 1000} s`)), CURRENT_VERSION_WAIT_MS);
        check();
    });
}

/**
 * Runs `compute` on the current tree and returns its answer only if the tree it read is still the one
 * the answer was computed on (an asynchronous provider may yield while a new version is built).
 */
export async function onCurrentVersion<T>(document: LangiumDocument, state: DocumentState, cancelToken: CancellationToken | undefined, compute: () => Promise<T> | T): Promise<T> {
    await whenCurrent(document, state, cancelToken);
    const tree = document.parseResult;
    const answer = await compute();
    if (document.parseResult !== tree) throw contentModified('rebuilt during the request');
    return answer;
}

/**
 * For the editor's whole-file requests (semantic tokens, outline, folding, lenses), which VS Code sends
 * at once after every edit: resolves once the document is validated at the version the request found,
 * and the edit's diagnostics have gone out. Langium would answer them as soon as the tree is parsed
 * or linked, that is in the middle of the edit's build, and the umpire's squiggles waited for them.
 * Rejects as whenCurrent does (ContentModified when a newer edit overtook the request).
 */
export async function whenValidated(document: LangiumDocument, cancelToken: CancellationToken = CancellationToken.None): Promise<void> {
    await whenCurrent(document, DocumentState.Validated, cancelToken);
    if (!parsedFrom(document)) return;
    // The diagnostics were handed to the connection by Langium's listener of the same phase, before
    // this one; their write waits for the next turn of the event loop. Let it go before the answer
    // (Langium's delayNextTick: setImmediate in Node, a zero timeout in a web worker, which has none).
    await delayNextTick();
    if (cancelToken.isCancellationRequested) throw OperationCancelled;
    // A newer edit may have been parsed meanwhile: answer only for the version found.
    await whenCurrent(document, DocumentState.Validated, cancelToken);
}

/** Whether the document is validated at the editor's version now (always, for a document no editor holds). */
export function isValidatedNow(document: LangiumDocument): boolean {
    const from = parsedFrom(document);
    const live = from?.shared.workspace.TextDocuments?.get(document.uri.toString());
    if (!from || !live) return true;
    return document.state >= DocumentState.Validated && from.text === live.getText();
}
