import {
    AstUtils, CstUtils, DefaultScopeComputation, MapScope, MultiMap, EMPTY_SCOPE, isAstNode,
    type AstNode, type AstNodeDescription, type AstNodeLocator, type IndexManager, type LangiumCoreServices, type LangiumDocument,
    type LangiumSharedCoreServices, type LocalSymbols, type NameProvider, type ReferenceInfo, type Scope, type ScopeProvider, type URI
} from 'langium';
import { isScenario, type Force, type Target, type Grade, type Modifier, type Scenario } from './generated/ast.js';
import { importGraphOf } from './battle-imports.js';
import { importsOf } from '../core/scenario.js';
import type { BattleCaches, LastBuild } from './battle-caches.js';
import { elementsChangedSince, parsedFrom, type ParseElements } from './battle-document-factory.js';

/**
 * Names are those a file declares, then those of the files it imports (docs/campaigns.md#campaigns-across-files):
 * forces, grades and modifiers are declared at the top, units inside their force. Scopes are hashed
 * maps built once per document (the default provider's linear scopes make linking quadratic on large
 * files: see docs/limits.md#linking); an importing file's scope is built again when an imported file
 * changes, from Langium's index of the imported files' declarations.
 */
export class BattleScopeProvider implements ScopeProvider {
    private readonly locator: AstNodeLocator;
    private readonly nameProvider: NameProvider;
    private readonly index: IndexManager;
    private readonly shared: LangiumSharedCoreServices;
    /** Keyed by the root, which each parse makes anew (a parse in pieces too, src/language/incremental-parse.ts). */
    private readonly topLevel = new WeakMap<Scenario, Map<string, Scope>>();
    /** Keyed by the force's node, which belongs to one parse: a force in an imported file gets a fresh scope when that file changes. */
    private readonly unitScopes = new WeakMap<Force, Scope>();
    private readonly withImports = new WeakMap<Scenario, { imported: readonly LangiumDocument[], scopes: Map<string, Scope> }>();
    /** The last tree's top-level scopes of each document, with its elements: a scope whose declarations an edit did not touch is used again. */
    private readonly lastTopLevel: LastBuild<LangiumDocument, { elements: readonly AstNode[], parse: ParseElements | undefined, scopes: Map<string, Scope> }>;
    /** `topLevel`'s entry of the root asked for last (a field, not a second look in the map; the root is never changed in place). It holds that tree until another is linked. */
    private lastRoot: AstNode | undefined = undefined;
    private lastScopes: Map<string, Scope> | undefined = undefined;

    constructor(services: LangiumCoreServices, caches: BattleCaches) {
        this.locator = services.workspace.AstNodeLocator;
        this.nameProvider = services.references.NameProvider;
        this.index = services.shared.workspace.IndexManager;
        this.shared = services.shared;
        this.lastTopLevel = caches.lastBuild({
            name: 'top-level scopes', keeps: "each type's scope of the file's own declarations, with the elements they were made from",
            keyedBy: 'the document', againWhen: 'an element declaring a name of that type was added or removed, or the parse\'s record does not reach back to the tree of the last scopes'
        });
    }

    getScope(context: ReferenceInfo): Scope {
        const container = context.container;
        const document = AstUtils.getDocument(container);
        const root = document.parseResult.value;
        // By `$type` (neither has subtypes): the reflection's `isX` looks in two dictionaries, for each of 35,000 references of a cold check.
        if (root.$type !== 'Scenario') return EMPTY_SCOPE;
        if (container.$type === 'Target' && context.property === 'unit') {
            // `.Unit` with no force before it (a half-typed line) names no force.
            const force = (container as Target).force?.ref;
            if (!force) return EMPTY_SCOPE;
            let scope = this.unitScopes.get(force);
            if (!scope) this.unitScopes.set(force, scope = this.scopeOf(force.units, AstUtils.getDocument(force).uri));
            return scope;
        }
        const type = context.reference.$refText !== undefined ? this.referenceType(context) : undefined;
        if (!type) return EMPTY_SCOPE;
        if (importsOf(root as Scenario).length > 0) return this.importingScope(root as Scenario, type, document.uri);
        // The last root's scopes at hand: every reference of a link asks, most for the same root.
        let scopes = this.lastRoot === root ? this.lastScopes : this.topLevel.get(root as Scenario);
        if (!scopes) this.topLevel.set(root as Scenario, scopes = this.keptScopes(document, root as Scenario));
        this.lastRoot = root;
        this.lastScopes = scopes;
        let scope = scopes.get(type);
        if (!scope) scopes.set(type, scope = this.scopeOf(elementsOf(root as Scenario, type), document.uri));
        return scope;
    }

    /**
     * The scopes of the last tree of the document whose declarations are the same nodes, in the same order:
     * the parse in pieces keeps the elements an edit did not touch, so only the types declared by the elements
     * it added or removed need a scope made again (each scope describes every declaration of its type: 5,000
     * forces in a 50,000-line file, made again at each edit before; docs/performance.md). Which were added and
     * removed is read from the parse's record of the edits since the last tree (`elementsChangedSince`: the
     * span of elements they replaced); when it does not reach back that far, every scope is made again.
     */
    private keptScopes(document: LangiumDocument, root: Scenario): Map<string, Scope> {
        const scopes = new Map<string, Scope>();
        const last = this.lastTopLevel.get(document);
        const parse = parsedFrom(document)?.elements;
        this.lastTopLevel.set(document, { elements: root.elements, parse, scopes });
        if (!last || last.scopes.size === 0 || !last.parse) return scopes;
        const changed = elementsChangedSince(document, last.parse);
        if (!changed || changed.first + changed.replaced > last.elements.length || last.elements.length - changed.replaced !== root.elements.length - changed.added) return scopes;
        const touched = new Set<string>();
        for (let k = changed.first; k < changed.first + changed.replaced; k++) touched.add(last.elements[k].$type);
        for (let k = changed.first; k < changed.first + changed.added; k++) touched.add(root.elements[k].$type);
        for (const [type, scope] of last.scopes) if (!touched.has(type)) scopes.set(type, scope);
        return scopes;
    }

    /** The file's own declarations first, then each imported file's in import order (the first of a name wins). */
    private importingScope(root: Scenario, type: string, uri: URI): Scope {
        const imported = importGraphOf(this.shared)?.closure(root) ?? [];
        let cached = this.withImports.get(root);
        if (!cached || cached.imported !== imported) this.withImports.set(root, cached = { imported, scopes: new Map() });
        let scope = cached.scopes.get(type);
        if (!scope) {
            const outer: AstNodeDescription[] = [];
            for (const document of imported) outer.push(...this.index.allElements(type, new Set([document.uri.toString()])));
            scope = this.scopeOf(elementsOf(root, type), uri, new MapScope(outer.reverse()));
            cached.scopes.set(type, scope);
        }
        return scope;
    }

    private describe(node: AstNode, name: string, documentUri: URI): AstNodeDescription {
        return describeWhenRead(node, name, documentUri, this.locator, this.nameProvider);
    }

    private referenceType(context: ReferenceInfo): string | undefined {
        if (context.property === 'force') return 'Force';
        if (context.property === 'grade') return 'Grade';
        if (context.property === 'modifiers') return 'Modifier';
        return undefined;
    }

    private scopeOf(nodes: Iterable<{ name: string } & AstNode>, uri: URI, outer?: Scope): Scope {
        const descriptions: AstNodeDescription[] = [];
        for (const node of nodes) {
            if (node.name) descriptions.push(this.describe(node, node.name, uri));
        }
        // The first declaration wins; duplicates are reported by the validator.
        return new MapScope(descriptions.reverse(), outer);
    }
}

/**
 * What Langium's description provider makes, with the path and text segments computed when
 * read: linking needs only the node and its name, and computing a path and a range for every
 * declaration of a 50,000-line file was a visible part of each build (docs/performance.md).
 * They are not kept: a description outlives an edit that moves its node (a parse in pieces keeps
 * the nodes of the elements it did not parse again and moves their positions and their index).
 */
function describeWhenRead(node: AstNode, name: string, documentUri: URI, locator: AstNodeLocator, names: NameProvider): AstNodeDescription {
    return new DescriptionWhenRead(node, name, documentUri, locator, names);
}

/**
 * A class, not an object literal with getters: a literal made three closures per description (one per
 * getter), 5,000 forces' and 10,000 elements' worth at each cold check of 50,000 lines (docs/performance.md,
 * "The checks' own work"). The getters are the prototype's; nothing copies a description's properties.
 */
class DescriptionWhenRead implements AstNodeDescription {
    readonly type: string;
    constructor(readonly node: AstNode, readonly name: string, readonly documentUri: URI, private readonly locator: AstNodeLocator, private readonly names: NameProvider) {
        this.type = node.$type;
    }

    get path(): string { return this.locator.getAstNodePath(this.node); }
    get nameSegment() { return CstUtils.toDocumentSegment(this.names.getNameNode(this.node) ?? this.node.$cstNode); }
    get selectionSegment() { return CstUtils.toDocumentSegment(this.node.$cstNode); }
}

/** The file's top-level forces, grades or modifiers, in file order. By `$type` (none has subtypes): each of 10,000 elements is asked. */
function elementsOf(root: Scenario, type: string): Array<Force | Grade | Modifier> {
    if (type !== 'Force' && type !== 'Grade' && type !== 'Modifier') return [];
    const found: Array<Force | Grade | Modifier> = [];
    const elements = root.elements;
    for (let i = 0; i < elements.length; i++) if (elements[i].$type === type) found.push(elements[i] as Force | Grade | Modifier);
    return found;
}

/**
 * Names are found by BattleScopeProvider's own hashed scopes, never through Langium's local symbols:
 * collecting a description of every named node (each unit of each force) on every build was 9% of
 * an edit's time in a 10,000-line file (docs/performance.md), for a table nothing read.
 */
export class BattleScopeComputation extends DefaultScopeComputation {
    private readonly locator: AstNodeLocator;
    private readonly lastExports: LastBuild<LangiumDocument, { elements: readonly AstNode[], parse: ParseElements | undefined, descriptions: ReadonlyArray<AstNodeDescription | null>, uri: URI }>;

    constructor(services: LangiumCoreServices, caches: BattleCaches) {
        super(services);
        this.locator = services.workspace.AstNodeLocator;
        this.lastExports = caches.lastBuild({
            name: 'exports', keeps: "each top-level element's description in Langium's index, with the elements they were made from",
            keyedBy: 'the document', againWhen: 'the element is new, the document has another address, or the parse\'s record does not reach back to the tree of the last exports'
        });
    }

    /**
     * The file's exports (its top-level names, which Langium's index gives to the files that import
     * it), one description per top-level node, kept beside the tree's elements: an element the parse in
     * pieces kept keeps its description, whose path and positions are read from the node when asked for
     * (docs/performance.md#linking-and-checking-what-changed). Langium made them all again at every
     * build, waiting between every two.
     */
    override async collectExportedSymbols(document: LangiumDocument): Promise<AstNodeDescription[]> {
        return this.exportsOf(document, document.parseResult.value);
    }

    /** `collectExportedSymbols` of the tree `root` of the document, at once (the index asks for them when first read). */
    exportsOf(document: LangiumDocument, root: AstNode): AstNodeDescription[] {
        const exports: AstNodeDescription[] = [];
        for (const property of Object.keys(root)) {
            if (property.startsWith('$')) continue;
            const value = (root as unknown as Record<string, unknown>)[property];
            if (property === 'elements' && isScenario(root)) this.elementExports(document, root, exports);
            else if (isAstNode(value)) this.addExport(value, document, exports);
            else if (Array.isArray(value)) for (const node of value) if (isAstNode(node)) this.addExport(node, document, exports);
        }
        return exports;
    }

    /**
     * The exports of the top-level elements, kept beside the last tree's elements: those of the elements the
     * parse in pieces kept are used again without reading the nodes (reading a property kept on each of 10,000
     * nodes was itself a visible cost). Which were kept is read from the parse's record of the edits since the
     * last tree (`elementsChangedSince`): the elements outside the span they replaced, in place; when the record
     * does not reach back that far, or the tree is not the document's own, every element is described again.
     */
    private elementExports(document: LangiumDocument, root: Scenario, exports: AstNodeDescription[]): void {
        const now = root.elements;
        const last = this.lastExports.get(document);
        const own = document.parseResult.value === root;
        const parse = own ? parsedFrom(document)?.elements : undefined;
        const changed = own && last?.parse && last.uri === document.uri ? elementsChangedSince(document, last.parse) : undefined;
        const fits = changed && changed.first + changed.replaced <= last!.elements.length && changed.first + changed.added <= now.length
            && last!.elements.length - changed.replaced === now.length - changed.added;
        const descriptions: Array<AstNodeDescription | null> = [];
        const from = fits ? changed.first : 0, to = fits ? changed.first + changed.added : now.length;
        for (let k = 0; k < from; k++) descriptions.push(last!.descriptions[k]);
        for (let k = from; k < to; k++) descriptions.push(this.describeNode(now[k], document));
        if (fits) for (let j = changed.first + changed.replaced; j < last!.elements.length; j++) descriptions.push(last!.descriptions[j]);
        this.lastExports.set(document, { elements: now, parse, descriptions, uri: document.uri });
        for (const description of descriptions) if (description) exports.push(description);
    }

    private addExport(node: AstNode, document: LangiumDocument, exports: AstNodeDescription[]): void {
        const description = this.describeNode(node, document);
        if (description) exports.push(description);
    }

    private describeNode(node: AstNode, document: LangiumDocument): AstNodeDescription | null {
        const name = this.nameProvider.getName(node);
        return name ? describeWhenRead(node, name, document.uri, this.locator, this.nameProvider) : null;
    }

    override async collectLocalSymbols(_document: LangiumDocument): Promise<LocalSymbols> {
        return new MultiMap<AstNode, AstNodeDescription>();
    }
}
