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
import { coreKept, KeptTables } from '../../src/core/kept.js';
import { modelOf } from '../../src/core/model-cache.js';
import type { BattleLinker } from '../../src/language/battle-linker.js';
import type { BattleNodeValidator } from '../../src/language/battle-node-validator.js';

/** Side tables of the language layer that are not last-build answers: the file, how many, and what they are keyed by. */
const KEYED_BY_ONE_PARSE_OR_SERVICES: Record<string, { tables: number, keyedBy: string }> = {
    'battle-document-factory.ts': { tables: 3, keyedBy: "the services (a parser that threw), a root (the parse's record), an element (its brace depth)" },
    'incremental-parse.ts': { tables: 1, keyedBy: 'a ParseResult (the elements spliced)' },
    'battle-scope.ts': { tables: 3, keyedBy: "a root (its scopes, and with its imports') and a force node (its units' scope)" },
    'battle-imports.ts': { tables: 1, keyedBy: "a root (its import closure, with the graph's generation)" },
    'battle-cst-builder.ts': { tables: 2, keyedBy: 'grammar objects' },
    'battle-parser.ts': { tables: 1, keyedBy: 'a node type' },
    'parse-recovery-costs.ts': { tables: 1, keyedBy: 'a recogniser class' },
    'parser-recording.ts': { tables: 1, keyedBy: 'a recogniser class' },
    'syntax-messages.ts': { tables: 1, keyedBy: "the registry's set of verbs (the verbs a misspelt word is close to)" },
    'validation/limit-checks.ts': { tables: 1, keyedBy: 'a ParseResult (its syntax errors\' offsets)' },
    'validation/campaign.ts': { tables: 1, keyedBy: "a force's model (its late units)" },
    'validation/battle-validator.ts': { tables: 1, keyedBy: "a rule set, then an action's input key (its problems, content-addressed)" },
    'lsp/action-errors.ts': { tables: 1, keyedBy: 'the diagnostics published (the errors inside each action)' },
    'lsp/campaign-odds-request.ts': { tables: 1, keyedBy: 'a model (its campaign odds by turn)' },
    'lsp/client-support.ts': { tables: 1, keyedBy: 'the services (what the client announced)' }
};

/**
 * The module-level state of the core and the rule sets that is not a table of the core's registry
 * (src/core/kept.ts), each with its reason: the file, and the names declared there.
 */
const CORE_OUTSIDE_THE_REGISTRY: Record<string, { names: string[], why: string }> = {
    'core/kept.ts': { names: ['coreKept'], why: 'the registry itself' },
    'core/model-cache.ts': { names: ['contexts', 'unlisted', 'owed'], why: "the context each parse was made in (its rule sets and limits), recorded by the document factory with the parse: the parse's own record, not an answer (dropping it would lose what the parse was made under); a counter; the keys a document's first build still has to make, work to be done before the next parse (iterated, and emptied as it is done), not an answer" },
    'core/campaign-odds.ts': { names: ['carriedFacts'], why: "keyed by a rule set object: the facts its counters carry, read from the rule set alone" },
    'core/campaign-state.ts': { names: ['settling'], why: 'a depth counter while settled results are worked out' },
    'core/scenario.ts': { names: ['NO_STATS', 'lastScope', 'keptSides', 'keeping'], why: "a constant; one token that stands for the grades in scope while they are the same nodes (no answer: an identity); the sides of the action whose checks are running, forgotten when they end; a depth counter" },
    'rulesets/loose-files/loose-files-orders.ts': { names: ['MUST_RETREAT', 'MUST_HALT'], why: 'constants of the rules' },
    'rulesets/loose-files/loose-files-house.ts': { names: ['WINS', 'LOSSES'], why: 'constants of the rules' }
};

/** The names of module-level tables, counters and slots in each file: `let`, and a `const` made as a `new` Map or Set. */
function moduleState(dir: string, from = dir): Record<string, string[]> {
    const out: Record<string, string[]> = {};
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
        const full = path.join(dir, entry.name);
        if (entry.isDirectory()) Object.assign(out, moduleState(full, from));
        else if (entry.name.endsWith('.ts')) {
            const text = fs.readFileSync(full, 'utf8');
            const names = [...text.matchAll(/^(?:export )?(?:let (\w+)|const (\w+)(?::[^=\n]+)? = new (?:KeptTables|Weak(?:Map|Set)|Map|Set)\b)/gm)].map(m => m[1] ?? m[2]);
            if (names.length > 0) out[path.relative(from, full).split(path.sep).join('/')] = names;
        }
    }
    return out;
}

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

    it("holds the core's and the rule sets' tables through the core's registry, each with its rules written", () => {
        const { Battle } = createBattleServices(EmptyFileSystem);
        const kinds = Battle.caches.Caches.coreKinds;
        expect(kinds.map(k => k.name).sort()).toEqual(['action forces', 'action index', 'action input keys', 'action roles', 'campaign laws', 'force models', 'imports', 'initial states',
            'keyed steps', 'last timelines', 'loose files turn problems', 'merged laws', 'models', 'node keys', 'replays', 'scrud factors', 'settled results', 'shared unit aliases', 'sides apart', 'step units',
            'tables in force', 'timelines', 'unit aliases', 'units by id']);
        for (const kind of kinds) {
            expect(kind.keeps.length, kind.name).toBeGreaterThan(10);
            expect(kind.keyedBy.length, kind.name).toBeGreaterThan(5);
            expect(kind.againWhen.length, kind.name).toBeGreaterThan(10);
        }
        // The two carried from a file's last model to its next are keyed by what carries (`carriedKey`), as the service's by the document.
        for (const name of ['last timelines', 'keyed steps']) expect(kinds.find(k => k.name === name)!.keyedBy).toMatch(/carriedKey/);
    });

    it("leaves no module-level table in the core or a rule set outside the registry but the named ones, each with its reason", () => {
        const found = { ...moduleState('src/core', 'src'), ...moduleState('src/rulesets', 'src') };
        expect(found).toEqual(Object.fromEntries(Object.entries(CORE_OUTSIDE_THE_REGISTRY).map(([f, t]) => [f, t.names])));
        for (const { why } of Object.values(CORE_OUTSIDE_THE_REGISTRY)) expect(why.length).toBeGreaterThan(10);
        // Every other table is made through the registry, once for the program: as many tables as places that make one.
        createBattleServices(EmptyFileSystem);
        const places = (dir: string): number => fs.readdirSync(dir, { withFileTypes: true }).reduce((n, e) => n + (e.isDirectory() ? places(path.join(dir, e.name))
            : e.name.endsWith('.ts') ? (fs.readFileSync(path.join(dir, e.name), 'utf8').match(/coreKept\.table</g) ?? []).length : 0), 0);
        expect(places('src/core') + places('src/rulesets')).toBe(coreKept.kinds.length);
    });

    it("keeps a kept force's model through an edit elsewhere, makes a replaced force's again, and makes every one again once dropped", async () => {
        const { shared, Battle } = createBattleServices(EmptyFileSystem);
        const uri = 'file:///kept/forces.battle';
        const source = fs.readFileSync('examples/campaign.battle', 'utf8');
        let version = 0;
        const forces = async (text: string) => {
            shared.workspace.TextDocuments!.set(EditorDocument.create(uri, 'battle', ++version, text));
            await shared.workspace.DocumentBuilder.update([URI.parse(uri)], []);
            const model = modelOf(shared.workspace.LangiumDocuments.getDocument(URI.parse(uri))!.parseResult.value);
            return { gauls: model.forces.get('Gauls')!, successors: model.forces.get('Successors')! };
        };
        const first = await forces(source);
        const at = source.lastIndexOf('engagement');
        const elsewhere = await forces(`${source.slice(0, at)}// a note\n${source.slice(at)}`);
        expect(elsewhere.gauls).toBe(first.gauls);
        expect(elsewhere.successors).toBe(first.successors);
        const gauls = source.indexOf('unit Boii');
        const inGauls = await forces(`${source.slice(0, gauls)}// a note\n  ${source.slice(gauls)}`);
        expect(inGauls.gauls).not.toBe(first.gauls);
        expect(inGauls.gauls.units.map(u => u.id)).toEqual(first.gauls.units.map(u => u.id));
        expect(inGauls.successors).toBe(first.successors);
        Battle.caches.Caches.dropAll();
        const dropped = await forces(`${source.slice(0, at)}// another note\n${source.slice(at)}`);
        expect(dropped.successors).not.toBe(first.successors);
        expect(dropped.successors.units.map(u => u.id)).toEqual(first.successors.units.map(u => u.id));
    }, 60_000);

    it('refuses a second table of one name', () => {
        const core = new KeptTables();
        core.table({ name: 'models', keeps: 'the models', keyedBy: 'a root', againWhen: 'the root is new' });
        expect(() => core.table({ name: 'models', keeps: 'x', keyedBy: 'y', againWhen: 'z' })).toThrow("Two kept tables are named 'models'.");
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
        // The core's tables carried from the last model hold the file's timeline and action keys, by its CST root.
        const carried = (await build(edited(2), 5)).parseResult.value.$cstNode!;
        expect(coreKept.named('last timelines')!.has(carried)).toBe(true);
        expect(coreKept.named('keyed steps')!.has(carried)).toBe(true);
        await build(source, 6);
        Battle.caches.Caches.dropAll();
        // The service's dropAll empties the core's tables too.
        expect(coreKept.named('last timelines')!.has(carried)).toBe(false);
        expect(coreKept.named('keyed steps')!.has(carried)).toBe(false);
        const before = { links: linker.counts.kept, checks: validator.counts.kept };
        const dropped = await answers(await build(edited(1), 7));
        // Nothing was there to keep: every link and check made again, and every answer the same.
        expect(linker.counts.kept).toBe(before.links);
        expect(validator.counts.kept).toBe(before.checks);
        expect(dropped).toEqual(warm);
    }, 60_000);
});
