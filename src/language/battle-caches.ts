/**
 * The answers the language keeps from one build of a document to the next, in one service
 * (`services.caches.Caches`, wired in battle-core-module.ts), under one set of rules:
 *
 * - **What may be kept**: an answer worked out from inputs that never change once made. A parse tree
 *   is one: its nodes keep their properties for as long as they live (Resolve all and the campaign
 *   odds lay their outcomes over it on models of their own, `ScenarioModel.overlay`), and the parse in
 *   pieces keeps the elements an edit did not touch as the same objects. So is each parse's record of
 *   its text and edit (`ParsedFrom`). An answer read from anything that changes in place (the editor's
 *   text, the settings, another document) is not kept here.
 * - **Keyed by what it depends on**: each table says what (`KeptKind.keyedBy`). The tables here are
 *   "the last build's answer": one entry per document (or per the CST root the parse in pieces keeps),
 *   holding the answer with the elements it was made for, so that the next build matches its elements
 *   against them by identity (or moves them by the edit the parse recorded) and works out only the
 *   elements that are new. An answer of one parse's objects alone (a root, a node, a `ParseResult`, a
 *   model, a set of diagnostics) needs no entry here: it is kept in a weak map by that object, right
 *   for as long as the object lives.
 * - **Dropped when**: an entry is replaced by the next build's answer, and each table names what
 *   makes it work an element out again rather than keep it (`KeptKind.againWhen`); an entry goes with
 *   its key (weak keys: a document removed from the workspace takes its answers with it), and `dropAll`
 *   takes out every answer at once (the next build then does a first build's work, with the same
 *   answers). Nothing is dropped by age or size here: one entry a document, replacing the last.
 *
 * ARCHITECTURE.md, "What is kept from one build to the next", lists the tables and their rules.
 */

/** What one table keeps, keyed by what, and what makes it work an element out again. */
export interface KeptKind {
    /** Unique among the service's tables. */
    readonly name: string;
    readonly keeps: string;
    readonly keyedBy: string;
    readonly againWhen: string;
}

/** One table of last-build answers. The key is the document, or the object that stands for it (its CST root). */
export class LastBuild<K extends object, V> {
    private table = new WeakMap<K, V>();

    constructor(readonly kind: KeptKind) {}

    get(key: K): V | undefined {
        return this.table.get(key);
    }

    has(key: K): boolean {
        return this.table.has(key);
    }

    set(key: K, value: V): void {
        this.table.set(key, value);
    }

    delete(key: K): void {
        this.table.delete(key);
    }

    /** Every entry gone (a weak map cannot be listed). */
    clear(): void {
        this.table = new WeakMap();
    }
}

export class BattleCaches {
    private readonly tables: Array<LastBuild<object, unknown>> = [];

    /** A new table of last-build answers, under its rules; a name given twice is a mistake of the wiring. */
    lastBuild<K extends object, V>(kind: KeptKind): LastBuild<K, V> {
        if (this.tables.some(t => t.kind.name === kind.name)) throw new Error(`Two kept tables are named '${kind.name}'.`);
        const table = new LastBuild<K, V>(kind);
        this.tables.push(table as unknown as LastBuild<object, unknown>);
        return table;
    }

    /** The tables, in the order they were made, with their rules. */
    get kinds(): readonly KeptKind[] {
        return this.tables.map(t => t.kind);
    }

    /** Every answer kept for any document: the next build of each works everything out, as a first build does. */
    dropAll(): void {
        for (const t of this.tables) t.clear();
    }
}
