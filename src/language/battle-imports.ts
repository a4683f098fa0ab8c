/**
 * Campaigns across files: `import "armies.battle"` makes another file's grades, modifiers and forces
 * usable in this one (docs/campaigns.md#campaigns-across-files). Paths are relative to the importing
 * file; imports are followed transitively, so an order of battle may itself gather one file per nation.
 *
 * The document builder loads imported files that are not yet in the workspace (the CLI, or a file
 * outside the editor's folder) before anything is linked, and records why a file could not be loaded;
 * the scope provider, the model and the validator read the graph from here.
 */
import { DefaultDocumentBuilder, DefaultIndexManager, DocumentState, URI, UriUtils, type BuildOptions, type LangiumDocument, type LangiumSharedCoreServices } from 'langium';
import type { CancellationToken } from 'vscode-languageserver';
import { isScenario, type Import, type Scenario } from './generated/ast.js';
import { importsOf, unquote } from '../core/scenario.js';

/** At most this many files are loaded through imports in one build: a file cannot make the tool read without bound. */
const MAX_IMPORTED_FILES = 500;

interface ImportLink {
    readonly node: Import;
    readonly uri: URI;
    /** The document, when the file is in the workspace. */
    readonly document: LangiumDocument<Scenario> | undefined;
}

export class ImportGraph {
    /** Bumped whenever documents may have changed: every cached closure is then recomputed once. */
    private generation = 0;
    private readonly closures = new WeakMap<Scenario, { generation: number, documents: LangiumDocument<Scenario>[] }>();
    private readonly failures = new Map<string, string>();

    constructor(private readonly shared: LangiumSharedCoreServices) {}

    invalidate(): void {
        this.generation++;
    }

    /** The file an import names, relative to the importing document. */
    uriOf(document: URI, node: Import): URI {
        return UriUtils.resolvePath(UriUtils.dirname(document), unquote(node.path ?? ''));
    }

    /** This file's own imports, in the order written. */
    direct(root: Scenario): ImportLink[] {
        if (importsOf(root).length === 0) return [];
        const document = root.$document;
        if (!document) return [];
        const documents = this.shared.workspace.LangiumDocuments;
        return importsOf(root).filter(i => i.path !== undefined).map(node => {
            const uri = this.uriOf(document.uri, node);
            const found = documents.getDocument(uri);
            return { node, uri, document: found && isScenario(found.parseResult.value) ? found as LangiumDocument<Scenario> : undefined };
        });
    }

    /**
     * Every file this one imports, directly or through another, each once, depth first in the order
     * written (a file's own imports come before it, as if pasted where it is imported). The file itself
     * is never among them, even through a cycle (the validator reports `import-cycle`).
     */
    closure(root: Scenario): readonly LangiumDocument<Scenario>[] {
        if (importsOf(root).length === 0) return [];
        const cached = this.closures.get(root);
        if (cached && cached.generation === this.generation) return cached.documents;
        const documents: LangiumDocument<Scenario>[] = [];
        const seen = new Set<string>(root.$document ? [root.$document.uri.toString()] : []);
        const visit = (from: Scenario) => {
            for (const link of this.direct(from)) {
                const key = link.uri.toString();
                if (seen.has(key) || !link.document) continue;
                seen.add(key);
                visit(link.document.parseResult.value);
                documents.push(link.document);
            }
        };
        visit(root);
        this.closures.set(root, { generation: this.generation, documents });
        return documents;
    }

    /** The import chain that leads from `link` back to `root`'s own file (`a → b → a`), if there is one. */
    cycleThrough(root: Scenario, link: ImportLink): string[] | undefined {
        const home = root.$document?.uri.toString();
        if (!home || !link.document) return undefined;
        const seen = new Set<string>();
        const path: string[] = [];
        const walk = (uri: URI, doc: LangiumDocument<Scenario> | undefined): boolean => {
            const key = uri.toString();
            path.push(UriUtils.basename(uri));
            if (key === home) return true;
            if (!doc || seen.has(key)) { path.pop(); return false; }
            seen.add(key);
            for (const next of this.direct(doc.parseResult.value)) if (walk(next.uri, next.document)) return true;
            path.pop();
            return false;
        };
        if (!walk(link.uri, link.document)) return undefined;
        return [UriUtils.basename(root.$document!.uri), ...path];
    }

    /** Why a file could not be loaded, when it could not. */
    failure(uri: URI): string | undefined {
        return this.failures.get(uri.toString());
    }

    /**
     * Adds to a build the files its documents import that the workspace does not hold yet, reading
     * them from the file system; a file that cannot be read is remembered with the reason.
     */
    async load(documents: LangiumDocument[]): Promise<LangiumDocument[]> {
        const all = [...documents];
        const known = new Set(all.map(d => d.uri.toString()));
        const langiumDocuments = this.shared.workspace.LangiumDocuments;
        let loaded = 0;
        for (let i = 0; i < all.length; i++) {
            const root = all[i].parseResult.value;
            if (!isScenario(root)) continue;
            for (const node of importsOf(root)) {
                if (node.path === undefined) continue;
                const uri = this.uriOf(all[i].uri, node);
                const key = uri.toString();
                if (known.has(key)) continue;
                known.add(key);
                const existing = langiumDocuments.getDocument(uri);
                if (existing) {
                    // Already in the workspace: built with this build only if it is not built yet.
                    if (existing.state < DocumentState.Validated) all.push(existing);
                    continue;
                }
                if (!unquote(node.path).endsWith('.battle')) { this.failures.set(key, 'only .battle files can be imported'); continue; }
                if (loaded >= MAX_IMPORTED_FILES) { this.failures.set(key, `more than ${MAX_IMPORTED_FILES} files are imported`); continue; }
                try {
                    const document = await langiumDocuments.getOrCreateDocument(uri);
                    this.failures.delete(key);
                    loaded++;
                    all.push(document);
                } catch (err) {
                    this.failures.set(key, readFailure(err));
                }
            }
        }
        return all;
    }
}

function readFailure(err: unknown): string {
    const code = (err as { code?: string }).code;
    if (code === 'ENOENT') return 'no such file';
    if (code === 'EISDIR') return 'it is a folder, not a .battle file';
    if (code === 'EACCES' || code === 'EPERM') return 'permission denied';
    return err instanceof Error ? err.message : String(err);
}

/**
 * Parses what a build is given first, so that their imports are known, then adds the imported files
 * the workspace lacks to the same build: they are indexed before anything links to them.
 */
export class BattleDocumentBuilder extends DefaultDocumentBuilder {
    readonly imports: ImportGraph;

    constructor(services: LangiumSharedCoreServices) {
        super(services);
        this.imports = new ImportGraph(services);
    }

    protected override async buildDocuments(documents: LangiumDocument[], options: BuildOptions, cancelToken: CancellationToken): Promise<void> {
        this.imports.invalidate();
        await this.runCancelable(documents, DocumentState.Parsed, cancelToken, doc => this.langiumDocumentFactory.update(doc, cancelToken));
        const all = await this.imports.load(documents);
        this.imports.invalidate();
        return super.buildDocuments(all, options, cancelToken);
    }
}

/**
 * A file is relinked and checked again when a file it imports (directly or not) changes, also when
 * none of its references points into that file: a new clash of names, a changed `rules` line, or a
 * file that now exists are news to the importer.
 */
export class BattleIndexManager extends DefaultIndexManager {
    constructor(private readonly shared: LangiumSharedCoreServices) {
        super(shared);
    }

    override isAffected(document: LangiumDocument, changedUris: Set<string>): boolean {
        if (super.isAffected(document, changedUris)) return true;
        const root = document.parseResult.value;
        if (!isScenario(root) || importsOf(root).length === 0) return false;
        const graph = importGraphOf(this.shared);
        if (!graph) return false;
        if (graph.direct(root).some(link => changedUris.has(link.uri.toString()))) return true;
        return graph.closure(root).some(d => changedUris.has(d.uri.toString()) || graph.direct(d.parseResult.value).some(l => changedUris.has(l.uri.toString())));
    }
}

export function importGraphOf(shared: LangiumSharedCoreServices): ImportGraph | undefined {
    const builder = shared.workspace.DocumentBuilder;
    return builder instanceof BattleDocumentBuilder ? builder.imports : undefined;
}
