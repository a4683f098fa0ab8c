import {
    AstUtils, Cancellation, DefaultLinker, GrammarAST, GrammarUtils, DefaultReferenceDescriptionProvider, interruptAndCheck, isAstNode,
    isMultiReference, isOperationCancelled, isReference, ValidationRegistry, type AstNode, type AstNodeDescription, type LangiumCoreServices, type LangiumDocument, type LangiumSharedCoreServices, type MaybePromise, type MultiReference,
    type Reference, type ReferenceDescription, type ReferenceInfo, type Stream, type URI, type ValidationAcceptor, type ValidationCheck,
    type ValidationOptions
} from 'langium';
import { BattleIndexManager, importGraphOf } from './battle-imports.js';
import { BattleGrammar } from './generated/grammar.js';
import { BattleDocumentValidator } from './battle-document-validator.js';
import { BattleScopeComputation } from './battle-scope.js';
import { isForce, isGrade, isModifier, isScenario, isTurn, type Action, type Force, type Scenario, type Turn } from './generated/ast.js';
import { actionChecksOf, replayActionChecks, type ActionChecks } from './validation/battle-validator.js';
import { headerKeyOf, modelOf } from '../core/model-cache.js';

/**
 * Whole-file costs of every build, made cheaper (docs/performance.md).
 *
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

/**
 * Langium wraps every check in two async functions (`wrapValidationException`, `handleException`): two
 * promises and their turns of the microtask queue for each check of each node, which a cold check of
 * 50,000 lines paid about 200,000 times (docs/performance.md, "A one-shot check keeps nothing"). The checks
 * of this language are synchronous, so each is called straight; one that throws is reported as Langium
 * reports it (the message, the node), at once rather than a turn later; a check that returns a promise
 * is awaited by the caller as Langium's wrapper would be.
 */
export class BattleValidationRegistry extends ValidationRegistry {
    protected override wrapValidationException(check: ValidationCheck, thisObj: unknown): ValidationCheck {
        const failed = (error: unknown, accept: ValidationAcceptor, node: AstNode): void => {
            if (isOperationCancelled(error)) throw error;
            console.error('An error occurred during validation:', error);
            if (error instanceof Error && error.stack) console.error(error.stack);
            accept('error', `An error occurred during validation: ${error instanceof Error ? error.message : String(error)}`, { node });
        };
        return (node, accept, cancelToken) => {
            let result: MaybePromise<void>;
            try {
                result = check.call(thisObj, node, accept, cancelToken);
            } catch (error) {
                failed(error, accept, node);
                return;
            }
            return result instanceof Promise ? result.catch(error => failed(error, accept, node)) : undefined;
        };
    }
}

type AnyReference = Reference | MultiReference;

/** The references of one unit (`unitsOf`) as its last link left them, in the order a walk of the unit meets them. */
interface ElementLinks {
    readonly references: readonly AnyReference[];
    readonly unresolved: readonly AnyReference[];
    /** The names its references read, each once: whether a name declared again can move one of its links. */
    readonly names: readonly string[];
}

/** A turn's own node has no references (its elements are units of their own). */
const NO_LINKS: ElementLinks = { references: [], unresolved: [], names: [] };

/**
 * What the last complete link of a document was made on, and what it left: the links of each unit,
 * in arrays beside the units. A build reads these arrays, not the nodes: looking a kept value up on
 * each of 10,000 elements (a property under a symbol, or a WeakMap) cost more than the work it saved,
 * most of it in memory reads of nodes scattered over the heap (docs/performance.md).
 */
interface LinkedTree {
    readonly root: Scenario;
    /** The roots of the files it imports (directly or not), in scope order. */
    readonly imported: readonly AstNode[];
    /** `unitsOf(root.elements, true)`. */
    readonly units: readonly AstNode[];
    /** The links of `units[k]`. */
    readonly links: readonly ElementLinks[];
    /** 1 where `links[k]` has unresolved references: the linking errors without reading every unit's links. */
    readonly failed: Uint8Array;
}

/**
 * For each of `now`, its index in `old` when it is the same node, else -1; and the nodes of each that
 * are not in the other. The parse in pieces keeps a run of nodes at the start and at the end; between
 * them, the nodes of a turn an edit was spliced into are kept too, so the middle is matched by a map.
 */
function matchUnits(old: readonly AstNode[], now: readonly AstNode[]): { oldIndex: Int32Array, added: AstNode[], removed: AstNode[] } {
    const oldIndex = new Int32Array(now.length).fill(-1);
    let from = 0, to = now.length, oldTo = old.length;
    while (from < to && from < oldTo && now[from] === old[from]) { oldIndex[from] = from; from++; }
    while (to > from && oldTo > from && now[to - 1] === old[oldTo - 1]) { to--; oldTo--; oldIndex[to] = oldTo; }
    const added: AstNode[] = [], removed: AstNode[] = [];
    if (from === to) {
        for (let j = from; j < oldTo; j++) removed.push(old[j]);
        return { oldIndex, added, removed };
    }
    const middle = new Map<AstNode, number>();
    for (let j = from; j < oldTo; j++) middle.set(old[j], j);
    for (let k = from; k < to; k++) {
        const j = middle.get(now[k]);
        if (j === undefined) added.push(now[k]);
        else {
            oldIndex[k] = j;
            middle.delete(now[k]);
        }
    }
    for (const node of middle.keys()) removed.push(node);
    return { oldIndex, added, removed };
}

/**
 * Links only what an edit can have changed (docs/performance.md#linking-and-checking-what-changed).
 *
 * Langium unlinks every reference of a document before each build and links them all again. Here
 * the links of a unit the parse in pieces kept (src/language/incremental-parse.ts: the same AST
 * object, its text unchanged) are kept when no name they read can resolve differently: the names a
 * file can reference are its top-level forces, grades and modifiers (a unit is found in the force its
 * reference names), so a kept link can change only when an element that declares its name is added
 * or removed (a force edited is parsed again: a new node, so the force it named is among the removed
 * ones). Such a unit, and every new one, is linked again, and so is the whole file when its imports
 * (or the files they bring in) changed, when the tree is the one linked last (a file it imports
 * changed), or when the last link was interrupted. The links of each unit are kept beside it, so
 * neither the kept links nor the linking errors need a walk of the tree.
 *
 * The walk checks the cancellation token every thousand nodes, which is as often as an edit can notice.
 */
export class BattleLinker extends DefaultLinker {
    private readonly shared: LangiumSharedCoreServices;
    private readonly linked = new WeakMap<LangiumDocument, LinkedTree>();
    /** References linked (or found unresolved) again, and kept, since the services were made: tests read them. */
    readonly counts = { linked: 0, kept: 0 };

    /** `oneShot`: each document is linked once and never edited (createBattleServices' `oneShot`), so no unit's links are kept. */
    constructor(services: LangiumCoreServices, private readonly oneShot = false) {
        super(services);
        this.shared = services.shared;
    }

    /**
     * Langium unlinks before a document is parsed again and when a file it imports changed. A document
     * this linker has linked keeps its links until `link` decides which can stay.
     */
    override unlink(document: LangiumDocument): void {
        if (this.linked.has(document)) return;
        // Langium's `unlink`, but through `forget`, which clears this linker's references without deleting a field.
        for (const reference of document.references) forget(reference);
        document.references = [];
    }

    /** The last complete link of the document, if it was made on this tree. */
    linkedTree(document: LangiumDocument): LinkedTree | undefined {
        const tree = this.linked.get(document);
        return tree?.root === document.parseResult.value ? tree : undefined;
    }

    override async link(document: LangiumDocument, cancelToken = Cancellation.CancellationToken.None): Promise<void> {
        const root = document.parseResult.value;
        const previous = this.linked.get(document);
        // Until this link completes: an interrupted one leaves links of two trees, and the next links everything.
        this.linked.delete(document);
        if (!isScenario(root)) {
            super.unlink(document);
            let count = 0;
            for (const node of AstUtils.streamAst(root)) {
                if (++count % 1000 === 0) await interruptAndCheck(cancelToken);
                AstUtils.streamReferences(node).forEach(ref => this.doLink(ref, document));
            }
            return;
        }
        if (this.oneShot) {
            // Langium's `doLink` appends each reference to `document.references`, which is all a one-shot build reads of them.
            document.references = [];
            let count = 0;
            const link = (info: ReferenceInfo) => this.doLink(info, document);
            for (const element of root.elements) {
                forEachReference(element, link);
                if (++count % 1000 === 0) await interruptAndCheck(cancelToken);
            }
            return;
        }
        const imported = importGraphOf(this.shared)?.closure(root).map(d => d.parseResult.value) ?? [];
        const units = unitsOf(root.elements, true);
        let oldIndex: Int32Array | undefined;
        let renamed: Set<string> | undefined;
        if (previous && previous.root !== root && sameItems(previous.imported, imported)) {
            const match = matchUnits(previous.units, units);
            oldIndex = match.oldIndex;
            renamed = new Set();
            for (const node of match.removed) addDeclaredName(node, renamed);
            for (const node of match.added) addDeclaredName(node, renamed);
        }
        // Langium's `doLink` appends each reference it links here: a throwaway list, replaced when the link completes.
        document.references = [];
        const links: ElementLinks[] = [];
        const failed = new Uint8Array(units.length);
        let walked = 0, nextCheck = 1000;
        // The kept units from `from` on, up to the first to link again: a plain function, which V8 optimizes at
        // once, not this async one (see `BattleNodeValidator.validateAstNodes`).
        const keptRun = (from: number): number => {
            let k = from;
            for (; k < units.length; k++) {
                const j = oldIndex ? oldIndex[k] : -1;
                const kept: ElementLinks | undefined = j >= 0 ? previous!.links[j] : undefined;
                if (!kept || (renamed!.size > 0 && kept.names.some(name => renamed!.has(name)))) break;
                links.push(kept);
                failed[k] = previous!.failed[j];
                this.counts.kept += kept.references.length;
            }
            return k;
        };
        for (let k = 0; k < units.length; k++) {
            k = keptRun(k);
            if (k >= units.length) break;
            const unit = units[k];
            links.push(unit.$type === 'Turn' ? NO_LINKS : this.linkElement(unit, document));
            if (links[k].unresolved.length > 0) failed[k] = 1;
            walked += links[k].references.length + 1;
            if (walked >= nextCheck) {
                nextCheck = walked + 1000;
                await interruptAndCheck(cancelToken);
            }
        }
        setReferences(document, links);
        this.linked.set(document, { root, imported, units, links, failed });
    }

    /** Every reference of one element linked again, whatever it pointed at before. */
    private linkElement(element: AstNode, document: LangiumDocument): ElementLinks {
        const references: AnyReference[] = [];
        const unresolved: AnyReference[] = [];
        const names = new Set<string>();
        forEachReference(element, info => {
            const reference = info.reference;
            forget(reference);
            this.doLink(info, document);
            references.push(reference);
            names.add(reference.$refText);
            if (reference.error) unresolved.push(reference);
        });
        this.counts.linked += references.length;
        return references.length === 0 ? NO_LINKS : { references, unresolved, names: [...names] };
    }
}

/**
 * `document.references`, every reference of the file in walk order, made from the units' links when
 * first read: Langium reads it only when another file changed (`shouldRelink`) or a reference is
 * resolved outside a link, and joining 30,000 references at every build was a visible cost. Setting it
 * (Langium's `unlink` does) makes it a plain property again.
 */
function setReferences(document: LangiumDocument, links: readonly ElementLinks[]): void {
    let joined: AnyReference[] | undefined;
    Object.defineProperty(document, 'references', {
        configurable: true, enumerable: true,
        get: () => joined ??= links.flatMap(l => l.references as AnyReference[]),
        set: (value: unknown) => Object.defineProperty(document, 'references', { value, writable: true, configurable: true, enumerable: true })
    });
}

/**
 * Langium's `streamAst` and `streamReferences` in one walk, in their order (each node's references in the
 * order of its properties, then its children's): their stream iterators, and `Object.keys` of every node
 * twice, were most of the linking of a cold check. Only the properties the grammar assigns a reference or
 * a node to are read (`walkOf`), not every property of every node.
 */
export function forEachReference(node: AstNode, found: (info: ReferenceInfo) => void): void {
    const walk = walkOf(node.$type);
    if (!walk) {
        forEachReferenceByKeys(node, found);
        return;
    }
    const n = node as unknown as Record<string, unknown>;
    for (const property of walk.references) {
        const value = n[property];
        if (value === undefined) continue;
        referencesIn(value, node, property, found);
    }
    for (const property of walk.children) {
        const value = n[property];
        if (value === undefined) continue;
        if (Array.isArray(value)) {
            for (let index = 0; index < value.length; index++) {
                const item: unknown = value[index];
                if (isAstNode(item)) forEachReference(item, found);
            }
        } else if (isAstNode(value)) forEachReference(value, found);
    }
}

/** The references a property's value holds (one, a multi-reference, or a list of them), in order. */
function referencesIn(value: unknown, node: AstNode, property: string, found: (info: ReferenceInfo) => void): void {
    if (isReference(value) || isMultiReference(value)) found({ reference: value, container: node, property });
    else if (Array.isArray(value)) {
        for (let index = 0; index < value.length; index++) {
            const item: unknown = value[index];
            if (isReference(item)) found({ reference: item, container: node, property, index });
        }
    }
}

/** `forEachReference` for a node whose type the grammar does not name: every own enumerable property, as `Object.keys` gives them; `$` properties are Langium's own. */
function forEachReferenceByKeys(node: AstNode, found: (info: ReferenceInfo) => void): void {
    const n = node as unknown as Record<string, unknown>;
    for (const property in n) {
        if (property.charCodeAt(0) === 36) continue;
        const value = n[property];
        referencesIn(value, node, property, found);
    }
    for (const property in n) {
        if (property.charCodeAt(0) === 36) continue;
        const value = n[property];
        if (isAstNode(value)) forEachReference(value, found);
        else if (Array.isArray(value)) for (const item of value) if (isAstNode(item)) forEachReference(item, found);
    }
}

/** The nodes of a tree in `streamAst`'s order, the children of a node only when `descend` says so. */
export function nodesOf(node: AstNode, descend: (node: AstNode) => boolean, out: AstNode[] = []): AstNode[] {
    out.push(node);
    if (!descend(node)) return out;
    const n = node as unknown as Record<string, unknown>;
    const walk = walkOf(node.$type);
    if (!walk) {
        for (const property in n) {
            if (property.charCodeAt(0) === 36) continue;
            const value = n[property];
            if (isAstNode(value)) nodesOf(value, descend, out);
            else if (Array.isArray(value)) for (const item of value) if (isAstNode(item)) nodesOf(item, descend, out);
        }
        return out;
    }
    for (const property of walk.children) {
        const value = n[property];
        if (value === undefined) continue;
        if (Array.isArray(value)) {
            for (let index = 0; index < value.length; index++) {
                const item: unknown = value[index];
                if (isAstNode(item)) nodesOf(item, descend, out);
            }
        } else if (isAstNode(value)) nodesOf(value, descend, out);
    }
    return out;
}

/** What a walk reads of a node of one type: the properties holding references, and those holding child nodes, each in the grammar's order. */
interface TypeWalk {
    readonly references: readonly string[];
    readonly children: readonly string[];
}

let walks: Map<string, TypeWalk | undefined> | undefined;

/**
 * The properties of a node type that can hold references or child nodes, read from the grammar once:
 * every other property holds a value (a name, a number, a keyword) that a walk skips. The parser
 * assigns a rule's properties in the grammar's order, so `Object.keys` lists the ones that hold
 * something in that order too (a property the parser adds afterwards, `assignMandatoryProperties`,
 * is an empty array or false: it holds nothing). A type with a property on which its rules disagree
 * about the order (a type made by two rules), the root (whose elements the parse in pieces sets
 * anew), and a type the grammar does not name are walked by their keys, as Langium walks them.
 * test/language/build-steps.test.ts compares both walks on every example.
 */
export function walkOf(type: string): TypeWalk | undefined {
    walks ??= typeWalks(BattleGrammar());
    return walks.get(type);
}

function typeWalks(grammar: GrammarAST.Grammar): Map<string, TypeWalk | undefined> {
    const byType = new Map<string, Array<{ references: string[], children: string[] }>>();
    for (const rule of grammar.rules) {
        if (!GrammarAST.isParserRule(rule) || GrammarUtils.isDataTypeRule(rule) || rule.entry) continue;
        const references: string[] = [], children: string[] = [];
        let assigns = false;
        for (const element of AstUtils.streamAllContents(rule.definition)) {
            if (!GrammarAST.isAssignment(element)) continue;
            assigns = true;
            const holds = AstUtils.streamAst(element.terminal).toArray();
            const list = holds.some(GrammarAST.isCrossReference) ? references
                : holds.some(t => GrammarAST.isRuleCall(t) && GrammarAST.isParserRule(t.rule.ref) && !GrammarUtils.isDataTypeRule(t.rule.ref)) ? children : undefined;
            if (list && !list.includes(element.feature)) list.push(element.feature);
        }
        // A rule that only calls others (`Element: Grade | Modifier | …`) makes no node of its own type.
        if (!assigns) continue;
        const type = GrammarUtils.getTypeName(rule);
        let rules = byType.get(type);
        if (!rules) byType.set(type, rules = []);
        rules.push({ references, children });
    }
    const result = new Map<string, TypeWalk | undefined>();
    for (const [type, rules] of byType) {
        const same = rules.every(r => sameItems(r.references, rules[0].references) && sameItems(r.children, rules[0].children));
        result.set(type, same ? rules[0] : undefined);
    }
    return result;
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
function addDeclaredName(element: AstNode, names: Set<string>): void {
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
function unitsOf<T extends AstNode>(nodes: readonly T[], withTurns = false): T[] {
    const units: T[] = [];
    for (const node of nodes) {
        if (node.$type !== 'Turn') units.push(node);
        else {
            if (withTurns) units.push(node);
            for (const inner of (node as AstNode as Turn).elements) units.push(inner as AstNode as T);
        }
    }
    return units;
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

/** A node whose checks run again at every build (`RUN_AGAIN`), with what an action's check last kept on it. */
interface RunAgain {
    readonly node: AstNode;
    action: ActionChecks | undefined;
}

/** What the checks of a unit found, beyond what `CheckedTree.flags` say: its problems, and the nodes whose checks run again. */
interface KeptChecks {
    /** For a force whose checks read the declarations: its name (`FIRST_OF_NAME`). */
    readonly name: string | undefined;
    /** In walk order: problems to report again, or a node whose checks run again. */
    readonly entries: ReadonlyArray<readonly KeptProblem[] | RunAgain>;
}

/** `CheckedTree.flags`: what a unit's kept checks read. */
const KEPT_CHECKS = 1, READS_GRADES = 2, FIRST_OF_NAME = 4, IS_FIRST = 8;
/** A unit whose checks found nothing and run nothing again (most forces): no object kept. */
const NOTHING: KeptChecks = { name: undefined, entries: [] };

/**
 * What the last complete validation of a document kept, in arrays beside its units (as the linker
 * keeps its links): a kept unit is judged by comparing pointers and reading flags, without reading
 * its node or an object of its own (a unit's kept object is read only when it has problems or
 * checks to run again).
 */
interface CheckedTree {
    readonly units: readonly AstNode[];
    /** The links each unit's checks read (`links[k] === ` the linker's: its references point where they did). */
    readonly links: ReadonlyArray<ElementLinks | undefined>;
    readonly flags: Uint8Array;
    readonly checks: readonly KeptChecks[];
    /** What every kept unit's checks read of the build: the rule set, limits and categories, and the header (`headerKeyOf`). */
    readonly ruleset: unknown;
    readonly header: string;
    readonly limits: unknown;
    readonly categories: string;
    readonly imported: readonly AstNode[];
    /** The same object while the grades and imports are the same nodes. */
    readonly grades: object;
}

/**
 * Langium's validator awaits at every node and at every check of it, asks the registry for a node
 * type's checks anew at each node, and walks the whole tree at every build. The checks of this
 * language are synchronous: here each one runs as soon as it is called (so the problems come in the
 * same order), the checks of a type are looked up once per build, and the walk waits and looks at the
 * cancellation token every thousand nodes. The root's checks run at every build; a unit kept by the
 * parse in pieces whose links were kept (so its references point where they did) and whose checks
 * read nothing else that changed gets its problems again without a walk
 * (docs/performance.md#linking-and-checking-what-changed). What is kept lies in arrays beside the
 * units, compared by position: a kept unit's node is not read at all.
 */
export class BattleNodeValidator extends BattleDocumentValidator {
    private readonly linker: unknown;
    private readonly checked = new WeakMap<LangiumDocument, CheckedTree>();
    /** Nodes walked, units whose checks were kept, and actions whose checks were reported again without running, since the services were made: tests read them. */
    readonly counts = { walked: 0, kept: 0, actionsReplayed: 0 };

    /** `oneShot`: each document is checked once and never edited (createBattleServices' `oneShot`), so no unit's checks are kept. */
    constructor(services: LangiumCoreServices, private readonly oneShot = false) {
        super(services);
        this.linker = services.references.Linker;
    }

    /** Only the unresolved references, which the linker keeps per unit, are read (not every reference of the file). */
    protected override referencesToReport(document: LangiumDocument): Iterable<LangiumDocument['references'][number]> {
        const tree = this.linker instanceof BattleLinker ? this.linker.linkedTree(document) : undefined;
        if (!tree) return document.references;
        const unresolved: AnyReference[] = [];
        for (let k = 0; k < tree.failed.length; k++) if (tree.failed[k]) for (const reference of tree.links[k].unresolved) unresolved.push(reference);
        return unresolved as LangiumDocument['references'];
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
        const run = (node: AstNode, accept: ValidationAcceptor) => {
            // Indexed, not `for…of`: an iterator's result object per check of each node until the loop is optimized.
            const found = checks(node.$type);
            for (let i = 0; i < found.length; i++) {
                // Synchronous checks return nothing (BattleValidationRegistry): only a promise is waited for.
                const result = found[i](node, accept, cancelToken);
                if (result) running.push(result);
            }
        };
        if (this.oneShot && isScenario(rootNode)) {
            // Nothing is kept for a next build: every node's checks run, in the order of the walk below (the tree's order).
            const nodes = nodesOf(rootNode, node => this.validateSingleNodeOptions(node, options).validateChildren);
            // The nodes up to the next pause, in a plain function (as `keptRun` below): V8 optimizes its loop at once,
            // where a loop in this async function stays unoptimized, making an iterator result for each of 100,000 nodes.
            const runNode = (node: AstNode) => {
                if (this.validateSingleNodeOptions(node, options).validateNode) run(node, acceptor);
            };
            const runFrom = (from: number): number => {
                let k = from;
                for (; k < nodes.length && count + 1 < nextCheck; k++) {
                    count++;
                    runNode(nodes[k]);
                }
                return k;
            };
            for (let k = runFrom(0); k < nodes.length; k = runFrom(k + 1)) {
                // The thousandth node since the last pause: a pause before its checks, as in the walks below.
                count++;
                await pause();
                runNode(nodes[k]);
            }
            this.counts.walked += count;
            await Promise.all(running);
            return;
        }
        if (!isScenario(rootNode)) {
            const nodes = AstUtils.streamAst(rootNode).iterator();
            for (const node of nodes) {
                if (++count >= nextCheck) await pause();
                const nodeOptions = this.validateSingleNodeOptions(node, options);
                if (nodeOptions.validateNode) run(node, acceptor);
                if (!nodeOptions.validateChildren) nodes.prune();
            }
            await Promise.all(running);
            return;
        }
        const root = rootNode;
        if (this.validateSingleNodeOptions(root, options).validateNode) run(root, acceptor);
        count++;
        const document = root.$document;
        const tree = document && this.linker instanceof BattleLinker ? this.linker.linkedTree(document) : undefined;
        // Without the linker's record of this tree, no unit's links are known to be those its checks read: nothing is kept.
        const elements = tree?.units ?? unitsOf(root.elements, true);
        // The root's other children (its options: no references, few) are units too, walked at every build, where
        // Langium's walk meets them; `first` is where the elements' units start.
        const { units, first } = withHeader(root, elements);
        // An interrupted validation leaves the last complete one's record, still true of the nodes it names.
        const previous = document && tree ? this.checked.get(document) : undefined;
        const imported = tree?.imported ?? [];
        const model = modelOf(root);
        const ruleset = model.ruleset, limits = model.limits, categories = options.categories?.join(',') ?? '*', header = headerKeyOf(root);
        const parsed = document?.parseResult;
        const syntaxErrors = parsed ? parsed.lexerErrors.length + parsed.parserErrors.length > 0 : undefined;
        // What the kept units' checks read that an edit can change: the grades and imports (as nodes), and the
        // forces of a name (whether a kept force is still the first of its name), from the units added and removed.
        let oldIndex: Int32Array | undefined, grades: object = {}, renamed: Set<string> | undefined, sameImports = false;
        const usable = previous && previous.ruleset === ruleset && previous.limits === limits && previous.categories === categories && previous.header === header ? previous : undefined;
        if (usable) {
            const match = matchUnits(usable.units, units);
            oldIndex = match.oldIndex;
            renamed = new Set();
            sameImports = sameItems(usable.imported, imported);
            let gradesChanged = !sameImports;
            for (const changed of [match.added, match.removed]) {
                for (const node of changed) {
                    if (node.$type === 'Grade' || node.$type === 'Import') gradesChanged = true;
                    else if (node.$type === 'Force') renamed.add((node as Force).name);
                }
            }
            if (!gradesChanged) grades = usable.grades;
        }
        let belowLimit: boolean | undefined;
        // By `$type`: the reflection's `isX` was a visible share of a build.
        const firstOfName = (element: AstNode) => model.forces.get((element as Force).name)?.node === element;
        const belowLimitNow = () => belowLimit ??= [...model.forces.values()].reduce((n, f) => n + f.units.length, 0) < model.limits.maxUnitsPerFile;
        // Checks that read the declarations are kept only when the file was below its limit, so it was then too.
        const readDeclarationsAsBefore = (element: AstNode, flags: number, j: number) => usable!.grades === grades
            && (!(flags & FIRST_OF_NAME) || (sameImports && !renamed!.has(usable!.checks[j].name!)) || ((flags & IS_FIRST) !== 0) === firstOfName(element))
            && belowLimitNow();
        // A `RUN_AGAIN` node's checks; an action's only check (`checkAction`) reports its last problems again
        // without running while its inputs are the same (the keep-alive test pins that it is the only one).
        const runAgain = (entry: RunAgain) => {
            const node = entry.node;
            if (node.$type === 'Action' && replayActionChecks(node as Action, acceptor, model, syntaxErrors, entry.action)) {
                this.counts.actionsReplayed++;
                return;
            }
            run(node, acceptor);
            if (node.$type === 'Action') entry.action = actionChecksOf(node as Action);
        };
        const keptLinks: Array<ElementLinks | undefined> = [], keptChecks: KeptChecks[] = [];
        const keptFlags = new Uint8Array(units.length);
        // The kept units from `from` on, up to the first one whose checks must run (or a pause is due). A plain
        // function, not this async one: V8 optimizes a loop in an async function only with the whole function,
        // builds after an open, so the first edits went over 10,000 kept units unoptimized
        // (docs/performance.md#the-first-edits-after-an-open).
        const keptRun = (from: number): number => {
            let k = from;
            for (; k < units.length && count < nextCheck; k++) {
                const links = k >= first && k < first + elements.length ? tree?.links[k - first] : undefined;
                const j = oldIndex ? oldIndex[k] : -1;
                const flags = j >= 0 ? usable!.flags[j] : 0;
                if (!(flags & KEPT_CHECKS && usable!.links[j] === links && (!(flags & READS_GRADES) || readDeclarationsAsBefore(units[k], flags, j)))) break;
                this.counts.kept++;
                const before = usable!.checks[j];
                keptLinks.push(links);
                keptChecks.push(before);
                keptFlags[k] = flags;
                if (before === NOTHING) continue;
                for (const entry of before.entries) {
                    if (Array.isArray(entry)) for (const problem of entry as readonly KeptProblem[]) acceptor(...problem);
                    else runAgain(entry as RunAgain);
                    count++;
                }
            }
            return k;
        };
        for (let k = 0; k < units.length; k++) {
            if (count >= nextCheck) await pause();
            k = keptRun(k);
            if (k >= units.length) break;
            if (count >= nextCheck) {
                k--;
                continue;
            }
            const element = units[k];
            const links = k >= first && k < first + elements.length ? tree?.links[k - first] : undefined;
            keptLinks.push(undefined);
            keptChecks.push(NOTHING);
            // The element's checks, recorded with what they read.
            const entries: Array<readonly KeptProblem[] | RunAgain> = [];
            let problems: KeptProblem[] = [];
            let keepable = links !== undefined, readsDeclarations = false, walking = true;
            const record: ValidationAcceptor = (severity, message, info) => {
                acceptor(severity, message, info);
                // Langium wraps every check in an async function, which reports a check that threw a turn later:
                // out of order, so nothing of the element is kept.
                if (!walking) {
                    keepable = false;
                    keptFlags[k] = 0;
                }
                // A problem placed by range, or on a node outside the element, could not follow the element when it moves.
                if (info.range !== undefined || topElementOf(info.node) !== element) keepable = false;
                problems.push([severity, message, info]);
            };
            const walkedBefore = count;
            // A turn's elements are units of their own (`unitsOf`).
            for (const node of nodesOf(element, node => node.$type !== 'Turn' && this.validateSingleNodeOptions(node, options).validateChildren)) {
                if (++count >= nextCheck) {
                    walking = false;
                    await pause();
                    walking = true;
                }
                if (this.validateSingleNodeOptions(node, options).validateNode) {
                    const found = checks(node.$type);
                    if (found.length > 0 && RUN_AGAIN.has(node.$type)) {
                        if (problems.length > 0) entries.push(problems);
                        problems = [];
                        const entry: RunAgain = { node, action: node.$type === 'Action' ? actionChecksOf(node as Action) : undefined };
                        entries.push(entry);
                        runAgain(entry);
                    } else if (found.length > 0) {
                        if (READS_DECLARATIONS.has(node.$type)) readsDeclarations = true;
                        run(node, record);
                    }
                }
            }
            walking = false;
            this.counts.walked += count - walkedBefore;
            if (problems.length > 0) entries.push(problems);
            if (keepable && (!readsDeclarations || belowLimitNow())) {
                const force = readsDeclarations && element.$type === 'Force';
                keptLinks[k] = links;
                if (entries.length > 0 || force) keptChecks[k] = { name: force ? (element as Force).name : undefined, entries };
                keptFlags[k] = KEPT_CHECKS | (readsDeclarations ? READS_GRADES : 0) | (force ? FIRST_OF_NAME : 0) | (force && firstOfName(element) ? IS_FIRST : 0);
            }
        }
        await Promise.all(running);
        if (document && tree) {
            this.checked.set(document, { units, links: keptLinks, flags: keptFlags, checks: keptChecks, ruleset, header, limits, categories, imported, grades });
        }
    }
}

/** The root's children in `streamContents`' order: its options and its elements' units (`unitsOf`). */
function withHeader(root: Scenario, elements: readonly AstNode[]): { units: readonly AstNode[], first: number } {
    if (root.options.length === 0) return { units: elements, first: 0 };
    const keys = Object.keys(root);
    return keys.indexOf('options') < keys.indexOf('elements')
        ? { units: [...root.options, ...elements], first: root.options.length }
        : { units: [...elements, ...root.options], first: 0 };
}

/** The top-level element (or header line) a node belongs to, or the turn's element (`unitsOf`). */
function topElementOf(node: AstNode): AstNode | undefined {
    let n: AstNode | undefined = node;
    while (n?.$container && !isScenario(n.$container) && !isTurn(n.$container)) n = n.$container;
    return n?.$container ? n : undefined;
}
