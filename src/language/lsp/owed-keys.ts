/**
 * The action keys a document's first build leaves for later (src/core/model-cache.ts, `finishOwedKeys`),
 * made once the client has been quiet for a while after a build: its first problems are published without
 * them, and the umpire's first edit finds them made. Should the edit come first, the document factory makes
 * them before it parses (battle-document-factory.ts), so nothing reads a key that was not made.
 */
import { DocumentState, type LangiumSharedCoreServices } from 'langium';
import { finishOwedKeys } from '../../core/model-cache.js';

export class OwedKeys {
    private timer: ReturnType<typeof setTimeout> | undefined;

    constructor(shared: LangiumSharedCoreServices, private readonly quietMs = 50) {
        shared.workspace.DocumentBuilder.onBuildPhase(DocumentState.Validated, () => this.schedule());
    }

    /** A message came from the client: the keys wait until it has been quiet again. */
    heardFromClient(): void {
        if (this.timer !== undefined) this.schedule();
    }

    private schedule(): void {
        clearTimeout(this.timer);
        this.timer = setTimeout(() => {
            this.timer = undefined;
            finishOwedKeys();
        }, this.quietMs);
    }
}
