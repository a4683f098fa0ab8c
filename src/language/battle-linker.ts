/**
 * The linker: links only what an edit changed, keeping each element's links in arrays beside the elements
 * (docs/performance.md#linking-and-checking-what-changed).
 */
import { AstUtils, Cancellation, DefaultLinker, interruptAndCheck, type AstNode, type LangiumCoreServices, type LangiumDocument, type LangiumSharedCoreServices, type MultiReference, type Reference, type ReferenceInfo } from 'langium';
import { importGraphOf } from './battle-imports.js';
import { isForce, isGrade, isModifier, isScenario, type Scenario, type Turn } from './generated/ast.js';
import { forEachReference, keptUnits, sameItems } from './battle-tree-walks.js';
import type { BattleCaches, LastBuild } from './battle-caches.js';
import { elementsChangedSince, parsedFrom, type ParseElements } from './battle-document-factory.js';

export type AnyReference = Reference | MultiReference;

/** The references of one unit (`elementsOf`) as its last link left them, in the order a walk of the unit meets them. */
export interface ElementLinks {
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
    /** The parse's record of its elements and the edits that led to it (`ParsedFrom.elements`). */
    readonly parse: ParseElements | undefined;
    /** `elementsOf(root.elements, true)`: the top-level elements, and each turn followed by its own elements. */
    readonly units: readonly AstNode[];
    /** The index in `units` of each top-level element, and the units' count after the last. */
    readonly tops: Int32Array;
    /** The links of `units[k]`. */
    readonly links: readonly ElementLinks[];
    /** 1 where `links[k]` has unresolved references: the linking errors without reading every unit's links. */
    readonly failed: Uint8Array;
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
 * changed), or when the last link was interrupted. Which units were kept is read from the parse's
 * record of its edits since the tree linked last (battle-document-factory.ts `elementsChangedSince`), not
 * worked out by comparing the two trees: every unit outside the span it names is kept in place, and only
 * the span's are looked up; when the record does not reach back that far, everything is linked again.
 * The links of each unit are kept beside it, so neither the kept links nor the linking errors need a walk
 * of the tree.
 *
 * The walk checks the cancellation token every thousand nodes, which is as often as an edit can notice.
 */
export class BattleLinker extends DefaultLinker {
    private readonly shared: LangiumSharedCoreServices;
    private readonly linked: LastBuild<LangiumDocument, LinkedTree>;
    /** References linked (or found unresolved) again, and kept, since the services were made: tests read them. */
    readonly counts = { linked: 0, kept: 0 };

    /** `oneShot`: each document is linked once and never edited (createBattleServices' `oneShot`), so no unit's links are kept. */
    constructor(services: LangiumCoreServices, caches: BattleCaches, private readonly oneShot = false) {
        super(services);
        this.shared = services.shared;
        this.linked = caches.lastBuild({
            name: 'links', keeps: 'the links of each element and whether any failed, with the elements and imports they were made for',
            keyedBy: 'the document',
            againWhen: 'an element is new, a name it reads was declared or removed, the imports changed, the tree is the one linked last, the last link was interrupted, or the record of the parse\'s edits does not reach back to the tree linked last'
        });
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
        const { units, tops } = unitsOf(root);
        const parse = parsedFrom(document)?.elements;
        let oldIndex: Int32Array | undefined;
        let renamed: Set<string> | undefined;
        // Which elements were kept since the tree linked last, as the parse recorded them (`elementsChangedSince`).
        const changed = previous && previous.root !== root && previous.parse && sameItems(previous.imported, imported) ? elementsChangedSince(document, previous.parse) : undefined;
        const match = changed && keptUnits(previous!.units, previous!.tops, units, tops, changed);
        if (match) {
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
        this.linked.set(document, { root, parse, imported, units, tops, links, failed });
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

/** The units of a tree (`elementsOf(root.elements, true)`), and where each top-level element's start among them. */
function unitsOf(root: Scenario): { units: AstNode[], tops: Int32Array } {
    const elements = root.elements;
    const units: AstNode[] = [];
    const tops = new Int32Array(elements.length + 1);
    for (let i = 0; i < elements.length; i++) {
        tops[i] = units.length;
        const element = elements[i];
        units.push(element);
        if (element.$type === 'Turn') for (const inner of (element as Turn).elements) units.push(inner);
    }
    tops[elements.length] = units.length;
    return { units, tops };
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
