import { AstUtils, Cancellation, DefaultLinker, DefaultReferenceDescriptionProvider, interruptAndCheck, type AstNode, type MaybePromise, type ValidationAcceptor, type ValidationOptions, type LangiumDocument, type LangiumSharedCoreServices, type ReferenceDescription, type Stream, type URI } from 'langium';
import { BattleIndexManager } from './battle-imports.js';
import { BattleDocumentValidator } from './battle-document-validator.js';

/**
 * Whole-file costs of every build, made cheaper (issue 14, docs/performance.md).
 *
 * Langium's index of every reference of a document (who points at what), used to find references
 * and renames and to tell which files an edit of another affects, was made on every build: a
 * description of each reference of the file, a fifth of an edit's time in a 50,000-line file
 * (docs/performance.md). It is made here when first asked for, from the tree as it is then, and
 * forgotten when the document changes, as Langium forgets it.
 */
export class LazyReferenceIndexManager extends BattleIndexManager {
    private readonly pending = new Map<string, LangiumDocument>();

    constructor(private readonly services: LangiumSharedCoreServices) {
        super(services);
    }

    override async updateReferences(document: LangiumDocument): Promise<void> {
        const key = document.uri.toString();
        this.referenceIndex.delete(key);
        this.pending.set(key, document);
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
        for (const node of AstUtils.streamAst(document.parseResult.value)) {
            AstUtils.streamReferences(node).forEach(info => {
                if (!info.reference.error) descriptions.push(...this.createInfoDescriptions(info));
            });
        }
        return descriptions;
    }
}

/**
 * Langium's linker awaits between every two nodes of the tree (a promise per node, most of it
 * bookkeeping in a 50,000-line file); this one links a thousand nodes between two checks of the
 * cancellation token, which is as often as an edit can notice.
 */
export class BattleLinker extends DefaultLinker {
    override async link(document: LangiumDocument, cancelToken = Cancellation.CancellationToken.None): Promise<void> {
        let count = 0;
        for (const node of AstUtils.streamAst(document.parseResult.value)) {
            if (++count % 1000 === 0) await interruptAndCheck(cancelToken);
            AstUtils.streamReferences(node).forEach(ref => this.doLink(ref, document));
        }
    }
}

/**
 * Langium's validator awaits at every node and at every check of it, and asks the registry for a
 * node type's checks anew at each node. The checks of this language are synchronous: here each one
 * runs as soon as it is called (so the problems come in the same order), the checks of a type are
 * looked up once per build, and the walk waits and looks at the cancellation token every thousand nodes.
 */
export class BattleNodeValidator extends BattleDocumentValidator {
    protected override async validateAstNodes(rootNode: AstNode, options: ValidationOptions, acceptor: ValidationAcceptor, cancelToken = Cancellation.CancellationToken.None): Promise<void> {
        const checksOf = new Map<string, Array<(node: AstNode, accept: ValidationAcceptor, token: Cancellation.CancellationToken) => MaybePromise<void>>>();
        const running: Array<MaybePromise<void>> = [];
        let count = 0;
        const nodes = AstUtils.streamAst(rootNode).iterator();
        for (const node of nodes) {
            if (++count % 1000 === 0) {
                await Promise.all(running.splice(0));
                await interruptAndCheck(cancelToken);
            }
            const nodeOptions = this.validateSingleNodeOptions(node, options);
            if (nodeOptions.validateNode) {
                let checks = checksOf.get(node.$type);
                if (!checks) checksOf.set(node.$type, checks = this.validationRegistry.getChecks(node.$type, options.categories).toArray());
                for (const check of checks) running.push(check(node, acceptor, cancelToken));
            }
            if (!nodeOptions.validateChildren) nodes.prune();
        }
        await Promise.all(running);
    }
}
