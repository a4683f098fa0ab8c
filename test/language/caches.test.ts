/**
 * The one cache service (src/language/battle-caches.ts): every answer the language keeps from one
 * build of a document to the next is in one of its tables, each under its written rules (what it
 * keeps, keyed by what, what makes it work an element out again), and a side table anywhere else in
 * the language layer is one keyed by one parse's objects or by the grammar or the services, named here
 * with its reason. Dropping every kept answer changes no answer: the next build, a first build's work,
 * gives what the kept answers gave.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, expect, it } from 'vitest';
import { EmptyFileSystem, URI, type LangiumDocument } from 'langium';
import { TextDocument as EditorDocument } from 'vscode-languageserver-textdocument';
import type { CodeLensParams } from 'vscode-languageserver';
import { createBattleServices } from '../../src/language/battle-module.js';
import { createBattleCoreServices } from '../../src/language/battle-core-module.js';
import { BattleCaches } from '../../src/language/battle-caches.js';
import type { BattleLinker } from '../../src/language/battle-linker.js';
import type { BattleNodeValidator } from '../../src/language/battle-node-validator.js';

/** Side tables of the language layer that are not last-build answers: the file, how many, and what they are keyed by. */
const KEYED_BY_ONE_PARSE_OR_SERVICES: Record<string, { tables: number, keyedBy: string }> = {
    'battle-caches.ts': { tables: 2, keyedBy: "the service's own tables (made, and made anew when dropped)" },
    'battle-document-factory.ts': { tables: 3, keyedBy: "the services (a parser that threw), a root (the parse's record), an element (its brace depth)" },
    'incremental-parse.ts': { tables: 1, keyedBy: 'a ParseResult (the elements spliced)' },
    'battle-scope.ts': { tables: 3, keyedBy: "a root (its scopes, and with its imports') and a force node (its units' scope)" },
    'battle-imports.ts': { tables: 1, keyedBy: "a root (its import closure, with the graph's generation)" },
    'battle-cst-builder.ts': { tables: 2, keyedBy: 'grammar objects' },
    'battle-parser.ts': { tables: 1, keyedBy: 'a node type' },
    'parse-recovery-costs.ts': { tables: 1, keyedBy: 'a recogniser class' },
    'validation/limit-checks.ts': { tables: 1, keyedBy: 'a ParseResult (its syntax errors\' offsets)' },
    'validation/campaign.ts': { tables: 1, keyedBy: "a force's model (its late units)" },
    'validation/battle-validator.ts': { tables: 1, keyedBy: "a rule set, then an action's input key (its problems, content-addressed)" },
    'lsp/action-errors.ts': { tables: 1, keyedBy: 'the diagnostics published (the errors inside each action)' },
    'lsp/campaign-odds-request.ts': { tables: 1, keyedBy: 'a model (its campaign odds by turn)' },
    'lsp/client-support.ts': { tables: 1, keyedBy: 'the services (what the client announced)' }
};

function sideTables(dir: string, from = dir): Record<string, number> {
    const out: Record<string, number> = {};
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
        const full = path.join(dir, entry.name);
        if (entry.isDirectory()) {
            if (entry.name !== 'generated') Object.assign(out, sideTables(full, from));
        } else if (entry.name.endsWith('.ts')) {
            const count = (fs.readFileSync(full, 'utf8').match(/new Weak(?:Map|Set)\b/g) ?? []).length;
            if (count > 0) out[path.relative(from, full).split(path.sep).join('/')] = count;
        }
    }
    return out;
}

describe('the cache service', () => {
    it('holds every last-build table of the language, each with its rules written', () => {
        const { Battle } = createBattleServices(EmptyFileSystem);
        // The services are made when first asked for: every one that keeps a table.
        void [Battle.references.Linker, Battle.references.ScopeProvider, Battle.references.ScopeComputation, Battle.validation.DocumentValidator,
            Battle.validation.BattleValidator, Battle.lsp.SemanticTokenProvider, Battle.lsp.CodeLensProvider, Battle.lsp.DocumentSymbolProvider, Battle.lsp.FoldingRangeProvider];
        const kinds = Battle.caches.Caches.kinds;
        expect(kinds.map(k => k.name).sort()).toEqual(['checks', 'exports', 'folding', 'lens places', 'links', 'names', 'outline', 'semantic tokens', 'semantic tokens sent', 'top-level scopes']);
        for (const kind of kinds) {
            expect(kind.keeps.length, kind.name).toBeGreaterThan(10);
            expect(kind.keyedBy, kind.name).toMatch(/document/);
            expect(kind.againWhen.length, kind.name).toBeGreaterThan(10);
        }
        // The command line's services keep the build's tables, and none of the editor's.
        const core = createBattleCoreServices({ ...EmptyFileSystem });
        void [core.Battle.references.Linker, core.Battle.references.ScopeProvider, core.Battle.references.ScopeComputation, core.Battle.validation.DocumentValidator, core.Battle.validation.BattleValidator];
        expect(core.Battle.caches.Caches.kinds.map(k => k.name).sort()).toEqual(['checks', 'exports', 'links', 'names', 'top-level scopes']);
    });

    it('refuses a second table of one name', () => {
        const caches = new BattleCaches();
        const kind = { name: 'links', keeps: 'the links', keyedBy: 'the document', againWhen: 'an element is new' };
        caches.lastBuild(kind);
        expect(() => caches.lastBuild(kind)).toThrow("Two kept tables are named 'links'.");
    });

    it('is the only place in the language layer that keeps answers by the document: every other side table is keyed by one parse, the grammar or the services', () => {
        const found = sideTables('src/language');
        expect(found).toEqual(Object.fromEntries(Object.entries(KEYED_BY_ONE_PARSE_OR_SERVICES).map(([f, t]) => [f, t.tables])));
        // No table elsewhere in the layer is keyed by a document.
        for (const file of Object.keys(found).filter(f => f !== 'battle-caches.ts')) {
            expect(fs.readFileSync(`src/language/${file}`, 'utf8'), file).not.toMatch(/new WeakMap<LangiumDocument\b/);
        }
    });

    it('dropped, the next build works everything out and answers as the kept answers did', async () => {
        const { shared, Battle } = createBattleServices(EmptyFileSystem);
        const linker = Battle.references.Linker as BattleLinker;
        const validator = Battle.validation.DocumentValidator as BattleNodeValidator;
        const uri = 'file:///kept/campaign.battle';
        const source = fs.readFileSync('examples/campaign.battle', 'utf8');
        const build = async (text: string, version: number): Promise<LangiumDocument> => {
            shared.workspace.TextDocuments!.set(EditorDocument.create(uri, 'battle', version, text));
            await shared.workspace.DocumentBuilder.update([URI.parse(uri)], []);
            return shared.workspace.LangiumDocuments.getDocument(URI.parse(uri))!;
        };
        const answers = async (doc: LangiumDocument) => ({
            diagnostics: (doc.diagnostics ?? []).map(d => ({ range: d.range, message: d.message, code: d.code })),
            tokens: (await Battle.lsp.SemanticTokenProvider!.semanticHighlight(doc, { textDocument: { uri } })).data,
            outline: await Battle.lsp.DocumentSymbolProvider!.getSymbols(doc, { textDocument: { uri } }),
            folding: await Battle.lsp.FoldingRangeProvider!.getFoldingRanges(doc, { textDocument: { uri } }),
            lenses: JSON.stringify(await Battle.lsp.CodeLensProvider!.provideCodeLens(doc, { textDocument: { uri } } as CodeLensParams)).replace(/"version":\d+/g, '')
        });
        const at = source.lastIndexOf('engagement');
        const edited = (n: number) => `${source.slice(0, at)}// note ${n}\n${source.slice(at)}`;
        await answers(await build(source, 1));
        const kept = { links: linker.counts.kept, checks: validator.counts.kept };
        const warm = await answers(await build(edited(1), 2));
        expect(linker.counts.kept).toBeGreaterThan(kept.links);
        expect(validator.counts.kept).toBeGreaterThan(kept.checks);

        await build(source, 3);
        Battle.caches.Caches.dropAll();
        const before = { links: linker.counts.kept, checks: validator.counts.kept };
        const dropped = await answers(await build(edited(1), 4));
        // Nothing was there to keep: every link and check made again, and every answer the same.
        expect(linker.counts.kept).toBe(before.links);
        expect(validator.counts.kept).toBe(before.checks);
        expect(dropped).toEqual(warm);
    }, 60_000);
});
