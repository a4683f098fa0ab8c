/**
 * The reference index of a document, made when first asked for (one of the build's whole-file costs made cheaper,
 * docs/performance.md).
 */
import { Cancellation, DefaultReferenceDescriptionProvider, type AstNode, type AstNodeDescription, type LangiumDocument, type LangiumSharedCoreServices, type ReferenceDescription, type Stream, type URI } from 'langium';
import { BattleIndexManager } from './battle-imports.js';
import { BattleScopeComputation } from './battle-scope.js';
import { forEachReference } from './battle-tree-walks.js';

/**
 * Langium's index of every reference of a document (who points at what), used to find references
 * and renames and to tell which files an edit of another affects, was made on every build: a
 * description of each reference of the file, a fifth of an edit's time in a 50,000-line file
 * (docs/performance.md). It is made here when first asked for, from the tree as it is then, and
 * forgotten when the document changes, as Langium forgets it.
 */
export class LazyReferenceIndexManager extends BattleIndexManager {
    private readonly pending = new Map<string, LangiumDocument>();
    /** The trees whose exports are not made yet, by document: see `updateContent`. */
    private readonly pendingExports = new Map<string, { document: LangiumDocument, root: AstNode }>();

    constructor(private readonly services: LangiumSharedCoreServices) {
        super(services);
    }

    override async updateReferences(document: LangiumDocument): Promise<void> {
        const key = document.uri.toString();
        this.referenceIndex.delete(key);
        this.pending.set(key, document);
    }

    /**
     * A file's exports (a description of each of its top-level names) are read only by the files that
     * import it and by a workspace symbol search, not by its own links: they are made when first read,
     * from the tree of this build (10,000 descriptions at each cold check of 50,000 lines, which nothing
     * read). The file is in the index at once, so that `allElements` lists it.
     */
    override async updateContent(document: LangiumDocument, cancelToken?: Cancellation.CancellationToken): Promise<void> {
        const computation = this.services.ServiceRegistry.getServices(document.uri).references.ScopeComputation;
        if (!(computation instanceof BattleScopeComputation)) return super.updateContent(document, cancelToken);
        const key = document.uri.toString();
        this.symbolIndex.set(key, []);
        this.symbolByTypeIndex.clear(key);
        this.pendingExports.set(key, { document, root: document.parseResult.value });
    }

    override removeContent(uri: URI): void {
        this.pendingExports.delete(uri.toString());
        super.removeContent(uri);
    }

    protected override getFileDescriptions(uri: string, nodeType?: string): AstNodeDescription[] {
        const pending = this.pendingExports.get(uri);
        if (pending) {
            this.pendingExports.delete(uri);
            const computation = this.services.ServiceRegistry.getServices(pending.document.uri).references.ScopeComputation as BattleScopeComputation;
            this.symbolIndex.set(uri, computation.exportsOf(pending.document, pending.root));
            this.symbolByTypeIndex.clear(uri);
        }
        return super.getFileDescriptions(uri, nodeType);
    }

    override removeReferences(uri: URI): void {
        this.pending.delete(uri.toString());
        super.removeReferences(uri);
    }

    override remove(uri: URI): void {
        this.pending.delete(uri.toString());
        super.remove(uri);
    }

    override isAffected(document: LangiumDocument, changedUris: Set<string>): boolean {
        this.describe(document.uri.toString());
        return super.isAffected(document, changedUris);
    }

    override findAllReferences(targetNode: AstNode, astNodePath: string): Stream<ReferenceDescription> {
        for (const key of [...this.pending.keys()]) this.describe(key);
        return super.findAllReferences(targetNode, astNodePath);
    }

    private describe(key: string): void {
        const document = this.pending.get(key);
        if (!document) return;
        this.pending.delete(key);
        const provider = this.services.ServiceRegistry.getServices(document.uri).workspace.ReferenceDescriptionProvider;
        if (provider instanceof BattleReferenceDescriptionProvider) this.referenceIndex.set(key, provider.describeNow(document));
    }
}

/** Langium's reference descriptions, made at once (the index asks for them outside a build). */
export class BattleReferenceDescriptionProvider extends DefaultReferenceDescriptionProvider {
    describeNow(document: LangiumDocument): ReferenceDescription[] {
        const descriptions: ReferenceDescription[] = [];
        forEachReference(document.parseResult.value, info => {
            if (!info.reference.error) descriptions.push(...this.createInfoDescriptions(info));
        });
        return descriptions;
    }
}
