import {
    AstUtils, Cancellation, DefaultLinker, DefaultReferenceDescriptionProvider, interruptAndCheck, isAstNode,
    type AstNode, type LangiumCoreServices, type LangiumDocument, type LangiumSharedCoreServices, type MaybePromise, type MultiReference,
    type Reference, type ReferenceDescription, type Stream, type URI, type ValidationAcceptor, type ValidationOptions
} from 'langium';
import { BattleIndexManager, importGraphOf } from './battle-imports.js';
import { isTurn } from './generated/ast.js';
import { BattleDocumentValidator } from './battle-document-validator.js';
import { isForce, isGrade, isModifier, isScenario, type Action, type Element, type Scenario } from './generated/ast.js';
import { replayActionChecks } from './validation/battle-validator.js';
import { modelOf } from '../core/model-cache.js';

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


type AnyReference = Reference | MultiReference;

/** The references of one top-level element as its last link left them, in the order a walk of the element meets them. */
interface ElementLinks {
    readonly references: readonly AnyReference[];
    readonly unresolved: readonly AnyReference[];
}

/**
 * What a build keeps on a top-level element, which the parse in pieces keeps (the same AST object)
 * when its text is unchanged: its links, and its checks' problems. A property of the node under a
 * symbol, not enumerable (so no walk, copy or serialization sees it): a WeakMap of every element
 * looked up twice per build was a visible cost of its own at 50,000 lines, its garbage collection too.
 */
const KEPT = Symbol('kept by the build');
interface KeptOnElement {
    links?: ElementLinks;
    checks?: KeptChecks;
}

function keptOn(element: AstNode): KeptOnElement {
    const node = element as AstNode & { [KEPT]?: KeptOnElement };
    let kept = node[KEPT];
    if (!kept) {
        kept = {};
        Object.defineProperty(node, KEPT, { value: kept, enumerable: false, writable: false, configurable: true });
    }
    return kept;
}

function linksOf(element: AstNode): ElementLinks | undefined {
    return (element as AstNode & { [KEPT]?: KeptOnElement })[KEPT]?.links;
}

function checksOf(element: AstNode): KeptChecks | undefined {
    return (element as AstNode & { [KEPT]?: KeptOnElement })[KEPT]?.checks;
}

/** The unresolved references of a linked tree, in file order, by its root: the linking errors without a walk. */
const UNRESOLVED = new WeakMap<AstNode, readonly AnyReference[]>();

/** What the last complete link of a document was made on. */
interface LinkedTree {
    readonly root: Scenario;
    /** The roots of the files it imports (directly or not), in scope order. */
    readonly imported: readonly AstNode[];
}

/**
 * Links only what an edit can have changed (issue 14, docs/performance.md#linking-and-checking-what-changed).
 *
 * Langium unlinks every reference of a document before each build and links them all again. Here
 * the links of a top-level element the parse in pieces kept (src/language/incremental-parse.ts: the
 * same AST object, its text unchanged) are kept when no name they read can resolve differently:
 * the names a file can reference are its top-level forces, grades and modifiers (a unit is found in
 * the force its reference names), so a kept link can change only when an element that declares its
 * name is added or removed (a force edited is parsed again: a new node, so the force it named is
 * among the removed ones). Such an element, and every new one, is linked again, and so is the whole
 * file when its imports (or the files they bring in) changed, when the tree is the one linked last
 * (a file it imports changed), or when the last link was interrupted. Each element keeps the list of
 * its references, so neither the kept links nor the linking errors need a walk of the tree.
 *
 * The walk checks the cancellation token every thousand nodes, which is as often as an edit can notice.
 */
export class BattleLinker extends DefaultLinker {
    private readonly shared: LangiumSharedCoreServices;
    private readonly linked = new WeakMap<LangiumDocument, LinkedTree>();
    /** References linked (or found unresolved) again, and kept, since the services were made: tests read them. */
    readonly counts = { linked: 0, kept: 0 };

    constructor(services: LangiumCoreServices) {
        super(services);
        this.shared = services.shared;
    }

    /**
     * Langium unlinks before a document is parsed again and when a file it imports changed. A document
     * this linker has linked keeps its links until `link` decides which can stay.
     */
    override unlink(document: LangiumDocument): void {
        if (!this.linked.has(document)) super.unlink(document);
    }

    override async link(document: LangiumDocument, cancelToken = Cancellation.CancellationToken.None): Promise<void> {
        const root = document.parseResult.value;
        const previous = this.linked.get(document);
        // Until this link completes: an interrupted one leaves links of two trees, and the next links everything.
        this.linked.delete(document);
        UNRESOLVED.delete(root);
        if (!isScenario(root)) {
            super.unlink(document);
            let count = 0;
            for (const node of AstUtils.streamAst(root)) {
                if (++count % 1000 === 0) await interruptAndCheck(cancelToken);
                AstUtils.streamReferences(node).forEach(ref => this.doLink(ref, document));
            }
            return;
        }
        const imported = importGraphOf(this.shared)?.closure(root).map(d => d.parseResult.value) ?? [];
        const elements = unitsOf(root.elements);
        // The elements [from, to) are new; the others are kept from the tree linked last, whose [from, oldTo) were removed.
        let from = 0, to = elements.length;
        let renamed: Set<string> | undefined;
        if (previous && previous.root !== root && sameItems(previous.imported, imported)) {
            const old = unitsOf(previous.root.elements);
            let oldTo = old.length;
            while (from < to && from < oldTo && elements[from] === old[from]) from++;
            while (to > from && oldTo > from && elements[to - 1] === old[oldTo - 1]) { to--; oldTo--; }
            renamed = new Set();
            for (let k = from; k < oldTo; k++) addDeclaredName(old[k], renamed);
            for (let k = from; k < to; k++) addDeclaredName(elements[k], renamed);
        }
        document.references = [];
        const references: AnyReference[] = [];
        const unresolved: AnyReference[] = [];
        let walked = 0, nextCheck = 1000;
        for (let k = 0; k < elements.length; k++) {
            const element = elements[k];
            let links = renamed && (k < from || k >= to) ? linksOf(element) : undefined;
            if (links && renamed!.size > 0 && links.references.some(r => renamed!.has(r.$refText))) links = undefined;
            if (links) this.counts.kept += links.references.length;
            else {
                links = this.linkElement(element, document);
                keptOn(element).links = links;
                walked += links.references.length + 1;
                if (walked >= nextCheck) {
                    nextCheck = walked + 1000;
                    await interruptAndCheck(cancelToken);
                }
            }
            for (const reference of links.references) references.push(reference);
            for (const reference of links.unresolved) unresolved.push(reference);
        }
        document.references = references;
        UNRESOLVED.set(root, unresolved);
        this.linked.set(document, { root, imported });
    }

    /** Every reference of one element linked again, whatever it pointed at before. */
    private linkElement(element: AstNode, document: LangiumDocument): ElementLinks {
        const references: AnyReference[] = [];
        const unresolved: AnyReference[] = [];
        for (const node of AstUtils.streamAst(element)) {
            AstUtils.streamReferences(node).forEach(info => {
                const reference = info.reference;
                forget(reference);
                this.doLink(info, document);
                references.push(reference);
                if (reference.error) unresolved.push(reference);
            });
        }
        this.counts.linked += references.length;
        return { references, unresolved };
    }
}

/** A reference back to unlinked, as Langium's `unlink` leaves each one. */
function forget(reference: AnyReference): void {
    const r = reference as { _ref?: unknown, _nodeDescription?: unknown, _items?: unknown, _linkingError?: unknown };
    if ('_ref' in r) {
        r._ref = undefined;
        delete r._nodeDescription;
    } else if ('_items' in r) {
        r._items = undefined;
        delete r._linkingError;
    }
}

/** The name an element declares for references (forces, grades, modifiers), if any. */
function addDeclaredName(element: Element, names: Set<string>): void {
    if ((isForce(element) || isGrade(element) || isModifier(element)) && element.name) names.add(element.name);
}

function sameItems(a: readonly unknown[], b: readonly unknown[]): boolean {
    return a.length === b.length && a.every((x, i) => x === b[i]);
}

/**
 * The nodes whose links and checks are kept: the top-level ones, and a turn's own elements in place
 * of the turn (the parse in pieces splices an edit inside a turn among them and makes a new turn node);
 * with `withTurns`, each turn too, before its elements (its own node only: it has no references).
 */
function unitsOf<T extends AstNode>(nodes: Iterable<T>, withTurns = false): T[] {
    const units: T[] = [];
    for (const node of nodes) {
        if (!isTurn(node)) units.push(node);
        else {
            if (withTurns) units.push(node);
            for (const inner of node.elements) units.push(inner as AstNode as T);
        }
    }
    return units;
}

/** The unresolved references of a linked tree, in file order, when the linker kept them per element. */
function unresolvedOf(root: AstNode): readonly AnyReference[] | undefined {
    return UNRESOLVED.get(root);
}

type Check = (node: AstNode, accept: ValidationAcceptor, token: Cancellation.CancellationToken) => MaybePromise<void>;
type KeptProblem = Parameters<ValidationAcceptor>;

/**
 * Checks whose result reads more than their element, its links and the file's rule set and limits,
 * run again at every build even in a kept element: an action's (the campaign state it starts from;
 * they keep their own results by a key of their inputs, `BattleValidator.checkAction`) and a house
 * block's (the other house blocks of the file and of its turn).
 */
const RUN_AGAIN = new Set(['Action', 'House']);

/**
 * Checks that also read the file's declarations: a unit's read the grades (an arm written as a
 * grade), a force's whether it is the first force of its name and how many units the forces before
 * it build (towards the file's limit). Kept while the grades and imports are the same nodes, the force
 * is still (or still not) the first of its name, and the file's units are below its limit (then every
 * force builds what it declares, whatever the others do).
 */
const READS_DECLARATIONS = new Set(['Force', 'Unit']);

/** What the checks of a top-level element found, and what they read. */
interface KeptChecks {
    readonly links: ElementLinks | undefined;
    readonly ruleset: unknown;
    readonly limits: unknown;
    readonly categories: string;
    /** Set when a check read the declarations (`READS_DECLARATIONS`): the grades and imports it saw. */
    readonly grades: object | undefined;
    /** For a force whose checks read the declarations: whether it was the first force of its name. */
    readonly firstOfName: boolean | undefined;
    /** In walk order: problems to report again, or a node whose checks run again (`RUN_AGAIN`). */
    readonly entries: ReadonlyArray<readonly KeptProblem[] | AstNode>;
}


/**
 * Langium's validator awaits at every node and at every check of it, asks the registry for a node
 * type's checks anew at each node, and walks the whole tree at every build. The checks of this
 * language are synchronous: here each one runs as soon as it is called (so the problems come in the
 * same order), the checks of a type are looked up once per build, and the walk waits and looks at the
 * cancellation token every thousand nodes. The root's checks run at every build; a top-level element
 * kept by the parse in pieces whose links were kept (so its references point where they did) and
 * whose checks read nothing else that changed gets its problems again without a walk
 * (docs/performance.md#linking-and-checking-what-changed).
 */
export class BattleNodeValidator extends BattleDocumentValidator {
    private readonly shared: LangiumSharedCoreServices;
    private readonly grades = new WeakMap<LangiumDocument, { nodes: readonly AstNode[], token: object }>();
    /** Nodes walked, top-level elements whose checks were kept, and actions whose checks were reported again without running, since the services were made: tests read them. */
    readonly counts = { walked: 0, kept: 0, actionsReplayed: 0 };

    constructor(services: LangiumCoreServices) {
        super(services);
        this.shared = services.shared;
    }

    /** Only the unresolved references, which the linker keeps per element, are read (not every reference of the file). */
    protected override referencesToReport(document: LangiumDocument): Iterable<LangiumDocument['references'][number]> {
        return (unresolvedOf(document.parseResult.value) as AnyReference[] | undefined) ?? document.references;
    }

    protected override async validateAstNodes(rootNode: AstNode, options: ValidationOptions, acceptor: ValidationAcceptor, cancelToken = Cancellation.CancellationToken.None): Promise<void> {
        const checksByType = new Map<string, Check[]>();
        const checks = (type: string) => {
            let found = checksByType.get(type);
            if (!found) checksByType.set(type, found = this.validationRegistry.getChecks(type, options.categories).toArray());
            return found;
        };
        const running: Array<MaybePromise<void>> = [];
        let count = 0, nextCheck = 1000;
        const pause = async () => {
            nextCheck = count + 1000;
            await Promise.all(running.splice(0));
            await interruptAndCheck(cancelToken);
        };
        if (!isScenario(rootNode)) {
            const nodes = AstUtils.streamAst(rootNode).iterator();
            for (const node of nodes) {
                if (++count >= nextCheck) await pause();
                const nodeOptions = this.validateSingleNodeOptions(node, options);
                if (nodeOptions.validateNode) for (const check of checks(node.$type)) running.push(check(node, acceptor, cancelToken));
                if (!nodeOptions.validateChildren) nodes.prune();
            }
            await Promise.all(running);
            return;
        }
        const root = rootNode;
        if (this.validateSingleNodeOptions(root, options).validateNode) for (const check of checks(root.$type)) running.push(check(root, acceptor, cancelToken));
        count++;
        const model = modelOf(root);
        const context = { ruleset: model.ruleset, limits: model.limits, categories: options.categories?.join(',') ?? '*' };
        const parsed = root.$document?.parseResult;
        const syntaxErrors = parsed ? parsed.lexerErrors.length + parsed.parserErrors.length > 0 : undefined;
        let grades: object | undefined, belowLimit: boolean | undefined;
        const gradesNow = () => grades ??= this.gradesToken(root);
        // By `$type`: the reflection's `isX` was a visible share of a build that keeps every element.
        const firstOfName = (element: AstNode) => element.$type === 'Force' ? model.forces.get((element as Element & { name: string }).name)?.node === element : undefined;
        const belowLimitNow = () => belowLimit ??= [...model.forces.values()].reduce((n, f) => n + f.units.length, 0) < model.limits.maxUnitsPerFile;
        // (Such checks are kept only when the file was below its limit, so it was then too.)
        // A `RUN_AGAIN` node's checks; an action's only check (`checkAction`) reports its last problems again
        // without running while its inputs are the same (the keep-alive test pins that it is the only one).
        const runAgain = (node: AstNode) => {
            if (node.$type === 'Action' && replayActionChecks(node as Action, acceptor, model, syntaxErrors)) this.counts.actionsReplayed++;
            else for (const check of checks(node.$type)) running.push(check(node, acceptor, cancelToken));
        };
        const readDeclarationsAsBefore = (element: AstNode, kept: KeptChecks) => kept.grades === gradesNow() && kept.firstOfName === firstOfName(element) && belowLimitNow();
        for (const element of unitsOf(AstUtils.streamContents(root), true)) {
            if (count >= nextCheck) await pause();
            const kept = checksOf(element);
            if (kept && kept.links === linksOf(element) && kept.ruleset === context.ruleset && kept.limits === context.limits
                && kept.categories === context.categories && (!kept.grades || readDeclarationsAsBefore(element, kept))) {
                this.counts.kept++;
                for (const entry of kept.entries) {
                    if (isAstNode(entry)) runAgain(entry);
                    else for (const problem of entry) acceptor(...problem);
                    count++;
                }
                continue;
            }
            // The element's checks, recorded with what they read.
            const entries: Array<readonly KeptProblem[] | AstNode> = [];
            let problems: KeptProblem[] = [];
            let keepable = true, readsDeclarations = false, walking = true;
            const record: ValidationAcceptor = (severity, message, info) => {
                acceptor(severity, message, info);
                // Langium wraps every check in an async function, which reports a check that threw a turn later:
                // out of order, so nothing of the element is kept.
                if (!walking) {
                    keepable = false;
                    keptOn(element).checks = undefined;
                }
                // A problem placed by range, or on a node outside the element, could not follow the element when it moves.
                if (info.range !== undefined || topElementOf(info.node) !== element) keepable = false;
                problems.push([severity, message, info]);
            };
            const before = count;
            const nodes = AstUtils.streamAst(element).iterator();
            for (const node of nodes) {
                if (++count >= nextCheck) {
                    walking = false;
                    await pause();
                    walking = true;
                }
                const nodeOptions = this.validateSingleNodeOptions(node, options);
                if (nodeOptions.validateNode) {
                    const found = checks(node.$type);
                    if (found.length > 0 && RUN_AGAIN.has(node.$type)) {
                        if (problems.length > 0) entries.push(problems);
                        problems = [];
                        entries.push(node);
                        runAgain(node);
                    } else if (found.length > 0) {
                        if (READS_DECLARATIONS.has(node.$type)) readsDeclarations = true;
                        for (const check of found) running.push(check(node, record, cancelToken));
                    }
                }
                // A turn's elements are elements of their own (`unitsOf`).
                if (!nodeOptions.validateChildren || isTurn(node)) nodes.prune();
            }
            walking = false;
            this.counts.walked += count - before;
            if (problems.length > 0) entries.push(problems);
            if (keepable && (!readsDeclarations || belowLimitNow())) {
                keptOn(element).checks = {
                    ...context, links: linksOf(element), entries,
                    grades: readsDeclarations ? gradesNow() : undefined, firstOfName: readsDeclarations ? firstOfName(element) : undefined
                };
            } else if (checksOf(element)) keptOn(element).checks = undefined;
        }
        await Promise.all(running);
    }

    /**
     * The same object while the grades are the same nodes: the file's grades and imports, and the roots
     * of the files it imports.
     */
    private gradesToken(root: Scenario): object {
        const document = root.$document;
        const nodes: AstNode[] = [...importGraphOf(this.shared)?.closure(root).map(d => d.parseResult.value) ?? []];
        for (const element of root.elements) if (element.$type === 'Grade' || element.$type === 'Import') nodes.push(element);
        const previous = document && this.grades.get(document);
        if (previous && sameItems(previous.nodes, nodes)) return previous.token;
        const token = {};
        if (document) this.grades.set(document, { nodes, token });
        return token;
    }
}

/** The top-level element (or header line) a node belongs to, or the turn's element (`unitsOf`). */
function topElementOf(node: AstNode): AstNode | undefined {
    let n: AstNode | undefined = node;
    while (n?.$container && !isScenario(n.$container) && !isTurn(n.$container)) n = n.$container;
    return n?.$container ? n : undefined;
}
