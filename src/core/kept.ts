/**
 * The tables the core and the rule sets keep answers in, made through one registry under the rules of
 * the language's cache service (src/language/battle-caches.ts, ARCHITECTURE.md "What is kept from one
 * build to the next"): each table says what it keeps, keyed by what, and what makes it work an answer
 * out again; its keys are weak (an entry goes with its key); and the registry's `dropAll`, which the
 * language's `dropAll` calls, takes every answer out at once, after which the next build works
 * everything out as a first build does and gives the same answers.
 *
 * The core imports nothing of the language layer: the registry is the core's own, made once for the
 * program (`coreKept`), and the language's service owns it in that it empties it with its own tables.
 * A table is keyed by objects of one parse (a root, a node, a model, a force's model), or by what
 * carries from a file's last model to its next (its CST root, which the parse in pieces keeps, or an
 * overlay's run: `carriedKey` in scenario.ts), never by a file's name or text.
 */

/** What one table keeps, keyed by what, and what makes it work an answer out again. */
export interface KeptKind {
    /** Unique among the registry's tables. */
    readonly name: string;
    readonly keeps: string;
    readonly keyedBy: string;
    readonly againWhen: string;
}

/** One table of kept answers, by a weak key. */
export class KeptTable<K extends object, V> {
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

/** Tables of kept answers, each made once under its rules, and emptied together. */
export class KeptTables {
    private readonly tables: Array<KeptTable<object, unknown>> = [];

    /** A new table, under its rules; a name given twice is a mistake of the wiring. */
    table<K extends object, V>(kind: KeptKind): KeptTable<K, V> {
        if (this.tables.some(t => t.kind.name === kind.name)) throw new Error(`Two kept tables are named '${kind.name}'.`);
        const table = new KeptTable<K, V>(kind);
        this.tables.push(table as unknown as KeptTable<object, unknown>);
        return table;
    }

    /** The tables, in the order they were made, with their rules. */
    get kinds(): readonly KeptKind[] {
        return this.tables.map(t => t.kind);
    }

    /** The table of that name, for a test to look into. */
    named(name: string): KeptTable<object, unknown> | undefined {
        return this.tables.find(t => t.kind.name === name);
    }

    /** Every answer of every table taken out. */
    dropAll(): void {
        for (const t of this.tables) t.clear();
    }
}

/** The core's and the rule sets' tables (one registry for the program: the core's functions are plain functions). */
export const coreKept = new KeptTables();
