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
 *   holding the answer with the elements it was made for, so that the next build reads which of them
 *   were kept from the parse's record of its edits (`elementsChangedSince`; or moves them by the edit the
 *   parse recorded) and works out only the elements that are new. An answer of one parse's objects alone (a root, a node, a `ParseResult`, a
 *   model, a set of diagnostics) needs no entry here: it is kept in a weak map by that object, right
 *   for as long as the object lives.
 * - **Dropped when**: an entry is replaced by the next build's answer, and each table names what
 *   makes it work an element out again rather than keep it (`KeptKind.againWhen`); an entry goes with
 *   its key (weak keys: a document removed from the workspace takes its answers with it), and `dropAll`
 *   takes out every answer at once (the next build then does a first build's work, with the same
 *   answers). Nothing is dropped by age or size here: one entry a document, replacing the last.
 *
 * The core's and the rule sets' tables are made through the core's registry under the same rules
 * (src/core/kept.ts: the core imports nothing of this layer), and `dropAll` empties them too.
 *
 * ARCHITECTURE.md, "What is kept from one build to the next", lists the tables and their rules.
 */

import { coreKept, KeptTable, KeptTables, type KeptKind } from '../core/kept.js';

/** One table of last-build answers. The key is the document, or the object that stands for it (its CST root). */
export type LastBuild<K extends object, V> = KeptTable<K, V>;

export class BattleCaches {
    private readonly own = new KeptTables();

    /** A new table of last-build answers, under its rules; a name given twice is a mistake of the wiring. */
    lastBuild<K extends object, V>(kind: KeptKind): LastBuild<K, V> {
        return this.own.table<K, V>(kind);
    }

    /** The service's tables, in the order they were made, with their rules. */
    get kinds(): readonly KeptKind[] {
        return this.own.kinds;
    }

    /** The core's and the rule sets' tables (src/core/kept.ts), which `dropAll` empties with the service's. */
    get coreKinds(): readonly KeptKind[] {
        return coreKept.kinds;
    }

    /**
     * Every answer kept for any document, the core's and the rule sets' included: the next build of
     * each works everything out, as a first build does.
     */
    dropAll(): void {
        this.own.dropAll();
        coreKept.dropAll();
    }
}
