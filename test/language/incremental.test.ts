/**
 * Results kept from one parse to the next (an action's checks are kept by a key of their
 * inputs, src/core/model-cache.ts `actionInputsKey`) must be exactly what a cold check gives. Random
 * edit sequences over the examples of every rule set: after each edit, the document edited in place
 * (its earlier versions warmed the kept results) and a cold check of the same text (fresh rule-set
 * objects, so nothing kept applies) must give the same diagnostics, code lenses and outcomes.
 */
import { describe, expect, it } from 'vitest';
import * as fs from 'node:fs';
import fc from 'fast-check';
import { AstUtils, EmptyFileSystem, isReference, TextDocument, URI, type AstNode, type CstNode, type LangiumDocument, type LeafCstNode, type ParseResult } from 'langium';
import { TextDocument as EditorDocument } from 'vscode-languageserver-textdocument';
import type { CodeLensParams } from 'vscode-languageserver';
import { createBattleServices } from '../../src/language/battle-module.js';
import { builtInRulesets } from '../../src/rulesets/registry.js';
import { actionInputsKey, actionKey, keyedCounts, modelOf, owedCounts, settledInputsKey } from '../../src/core/model-cache.js';
import { OwedKeys } from '../../src/language/lsp/owed-keys.js';
import { isUnresolvable, outcomeStatus, resolveAction } from '../../src/core/resolve.js';
import { outcomeBlock } from '../../src/core/outcome-block.js';
import type { Scenario, Turn } from '../../src/language/generated/ast.js';
import { openDocument, services } from '../support/services.js';
// @ts-expect-error: a plain ES module of the benchmarks, without types
import { campaign as benchCampaign, turnsCampaign } from '../../scripts/bench-files.mjs';
import type { BattleLinker } from '../../src/language/battle-linker.js';
import type { BattleNodeValidator } from '../../src/language/battle-node-validator.js';
// @ts-expect-error: a plain ES module of the benchmarks, without types
import { errorFile } from '../../scripts/bench-files.mjs';
import { campaignCounts } from '../../src/language/validation/campaign.js';
import { settledOf, stateAtEnd, timelineCounts } from '../../src/core/campaign-state.js';
import { pieceCounts, reparsePiece } from '../../src/language/incremental-parse.js';

const EXAMPLES = ['scrud-ridge', 'scrud-seed', 'campaign', 'ancients-tokens', 'ancients-flank', 'loose-files-turn', 'cowpens', 'broken-campaign'];
const texts = EXAMPLES.map(name => fs.readFileSync(new URL(`../../examples/${name}.battle`, import.meta.url), 'utf8'));

/** The cold side: its own workspace, whose rule sets are replaced by fresh copies before every check. */
const coldRulesets = builtInRulesets();
const cold = createBattleServices({ ...EmptyFileSystem, rulesets: coldRulesets });
let coldCount = 0;

async function coldDocument(text: string): Promise<LangiumDocument> {
    for (const id of coldRulesets.ids()) coldRulesets.register({ ...coldRulesets.get(id)! });
    const uri = URI.parse(`file:///cold/${++coldCount}.battle`);
    const doc = cold.shared.workspace.LangiumDocumentFactory.fromTextDocument(TextDocument.create(uri.toString(), 'battle', 1, text));
    cold.shared.workspace.LangiumDocuments.addDocument(doc);
    await cold.shared.workspace.DocumentBuilder.build([doc], { validation: true });
    cold.shared.workspace.LangiumDocuments.deleteDocument(uri);
    return doc;
}

/** Everything an umpire sees of a checked document, as plain data. */
function seen(doc: LangiumDocument, lenses: (doc: LangiumDocument) => unknown): unknown {
    const model = modelOf(doc.parseResult.value as Scenario);
    const diagnostics = (doc.diagnostics ?? []).map(d => ({ range: d.range, message: d.message, code: d.code, severity: d.severity, data: d.data }));
    const outcomes = model.actions.map(a => {
        const resolved = resolveAction(model, a, { newSeed: () => 1234 });
        const status = outcomeStatus(model, a);
        // An altered outcome's status holds its parse nodes: compared by what it says.
        const plain = status.kind === 'altered' ? { kind: status.kind, written: status.alteration.written, replay: status.alteration.replay } : status;
        return { action: a.node.name, status: plain, resolved: isUnresolvable(resolved) ? resolved.problem : resolved.resolution.text };
    });
    return { diagnostics, lenses: lenses(doc), outcomes };
}

const lensesWith = (provider: typeof services.Battle.lsp.CodeLensProvider) => (doc: LangiumDocument) => {
    const lenses = provider!.provideCodeLens(doc, { textDocument: { uri: doc.uri.toString() } } as CodeLensParams) as Array<{ command?: { arguments?: Array<{ uri?: string }> } }>;
    // The lenses name their document and its version; the two sides' documents have different addresses and versions.
    return JSON.parse(JSON.stringify(lenses).replaceAll(doc.uri.toString(), 'URI').replace(/"version":\d+/g, '"version":0'));
};

/**
 * One keystroke-sized edit: a character typed, a few deleted, a digit changed, a line removed, or a
 * written result changed (what later engagements are judged from: the campaign state they see).
 */
type Edit = { at: number, kind: 'type' | 'delete' | 'digit' | 'line' | 'result', char: string, size: number };
const RESULT_SWAPS: ReadonlyArray<readonly [RegExp, string]> = [
    [/, tokens 1/, ''], [/, tested/, ''], [/: holds,/, ': destroyed,'], [/: gives-ground,/, ': holds,'], [/: rout,/, ': recoil,'], [/: won,/, ': rout,']
];
const edit = fc.record({
    at: fc.double({ min: 0, max: 1, noNaN: true }),
    kind: fc.constantFrom('type', 'delete', 'digit', 'digit', 'line', 'result', 'result'),
    char: fc.constantFrom(' ', '\n', 'a', 'x', '1', '7', '}', '{', '.', '#', '"', '-', 'e'),
    size: fc.integer({ min: 1, max: 6 })
}) as fc.Arbitrary<Edit>;

function apply(text: string, e: Edit): string {
    const at = Math.floor(e.at * text.length);
    switch (e.kind) {
        case 'type': return text.slice(0, at) + e.char + text.slice(at);
        case 'delete': return text.slice(0, at) + text.slice(at + e.size);
        case 'digit': {
            // The nearest digit at or after `at` becomes another: seeds, grades, counts, dice and outcome figures change.
            const i = text.slice(at).search(/\d/);
            if (i < 0) return text;
            const pos = at + i;
            return text.slice(0, pos) + String((Number(text[pos]) + e.size) % 10) + text.slice(pos + 1);
        }
        case 'result': {
            // The first written result or fact after `at` that one of the swaps changes.
            const tail = text.slice(at);
            const hits = RESULT_SWAPS.map(([re, by]) => ({ m: re.exec(tail), by })).filter(h => h.m !== null);
            if (hits.length === 0) return text;
            const first = hits.reduce((a, b) => (b.m!.index < a.m!.index ? b : a));
            return text.slice(0, at) + tail.slice(0, first.m!.index) + first.by + tail.slice(first.m!.index + first.m![0].length);
        }
        case 'line': {
            const start = text.lastIndexOf('\n', at - 1) + 1;
            const end = text.indexOf('\n', at);
            return text.slice(0, start) + (end < 0 ? '' : text.slice(end + 1));
        }
    }
}

describe('incremental checking gives what a cold check gives', () => {
    it('after every edit of random edit sequences, on the examples of every rule set', async () => {
        const warmLenses = lensesWith(services.Battle.lsp.CodeLensProvider);
        const coldLenses = lensesWith(cold.Battle.lsp.CodeLensProvider);
        let compared = 0;
        await fc.assert(fc.asyncProperty(fc.integer({ min: 0, max: texts.length - 1 }), fc.array(edit, { minLength: 1, maxLength: 8 }), async (which, edits) => {
            const uri = `file:///incremental/${which}.battle`;
            let text = texts[which];
            await openDocument(uri, text, 1);
            for (const [i, e] of edits.entries()) {
                text = apply(text, e);
                const warm = await openDocument(uri, text, i + 2);
                expect(seen(warm, warmLenses)).toEqual(seen(await coldDocument(text), coldLenses));
                compared++;
            }
        }), { numRuns: 60, seed: 20261130 });
        expect(compared).toBeGreaterThan(60);
    }, 300_000);

    it('judges a later engagement again when an earlier outcome changes the state it sees', async () => {
        // Pass fights the Thureophoroi that Ford left with a damage token.
        const text = texts[EXAMPLES.indexOf('campaign')];
        const uri = 'file:///incremental/campaign.battle';
        const before = await openDocument(uri, text, 1);
        expect(before.diagnostics?.filter(d => d.code === 'outcome-stale')).toEqual([]);
        // Ford's seed changed (its own line and the one its outcome records): Ford's outcome is stale, and Pass,
        // whose text did not change, sees the state Ford's new dice leave.
        const edited = text.replace('    seed 6\n', '    seed 7\n').replace('outcome seed 6 ', 'outcome seed 7 ');
        const after = await openDocument(uri, edited, 2);
        const flagged = (doc: LangiumDocument) => (doc.diagnostics ?? []).filter(d => String(d.code).startsWith('outcome-')).map(d => `${d.code} ${d.range.start.line}`);
        expect(flagged(after).length).toBeGreaterThan(0);
        expect(flagged(after)).toEqual(flagged(await coldDocument(edited)));
    });

    it('keeps an engagement\'s checks when another engagement is edited, and works again the one edited', async () => {
        // The kept results are used (not merely harmless): a stale outcome's warning moves with its
        // engagement when lines are added above it, and follows an edit to that engagement.
        const text = texts[EXAMPLES.indexOf('scrud-seed')];
        const uri = 'file:///incremental/kept.battle';
        const before = await openDocument(uri, text, 1);
        const shifted = await openDocument(uri, `// a note\n\n${text}`, 2);
        const lines = (doc: LangiumDocument) => (doc.diagnostics ?? []).map(d => `${d.range.start.line}:${d.code}`);
        expect(lines(shifted)).toEqual(lines(before).map(l => l.replace(/^(\d+)/, n => String(Number(n) + 2))));
        expect(seen(shifted, () => [])).toEqual(seen(await coldDocument(`// a note\n\n${text}`), () => []));
    });

    it('judges an outcome again when a house block of its turn changes', async () => {
        // Village (turn 2) is written as resolved under its turn's tables (a difference of 4 is a
        // retreat); the turn's house block then makes 3..4 a rout: the written outcome no longer
        // matches, though neither the engagement nor anything outside the turn changed.
        const text = await withOutcomes('file:///incremental/house-turn.battle', fs.readFileSync(new URL('../../examples/house-rules-scrud.battle', import.meta.url), 'utf8'));
        const uri = 'file:///incremental/house-turn.battle';
        const before = await openDocument(uri, text, 2);
        expect(staleActions(before)).toEqual([]);
        const turnHouse = '    result 0 recoil, 1 recoil, 2 retire, 3..4 retreat, 5.. rout';
        expect(text).toContain(turnHouse);
        const edited = text.replace(turnHouse, turnHouse.replace('3..4 retreat', '3..4 rout'));
        const after = await openDocument(uri, edited, 3);
        expect(staleActions(after)).toEqual(['Village']);
        expect(diagnosticsOf(after)).toEqual(diagnosticsOf(await coldDocument(edited)));
    });

    it('judges an importer\'s outcome again when a grade in the file it imports changes', async () => {
        // The importer is not parsed again when only the imported file changes (it is relinked and
        // checked again): its own text, unchanged, must not bring back the problems of the old grade.
        const armies = (veteran: string) => `scenario "Order of battle"\nrules scrud\n\ngrade Veteran ${veteran}\n\nforce French {\n  unit Line foot Veteran x2\n}\n\nforce Austrian {\n  unit Infantry foot x2\n}\n`;
        const season = 'scenario "Season"\nrules scrud\nimport "armies.battle"\n\nengagement Ridge {\n  French attacks Austrian\n  seed 7\n}\n';
        const base = 'file:///incremental/imports/';
        await editorBuilds({ [`${base}armies.battle`]: armies('+1') });
        const written = await withOutcomes(`${base}season.battle`, season);
        const docs = await editorBuilds({ [`${base}season.battle`]: written });
        const importer = docs[`${base}season.battle`];
        expect(importer.diagnostics).toEqual([]);
        await editorBuilds({ [`${base}armies.battle`]: armies('+2') }, 2);
        expect(staleActions(services.shared.workspace.LangiumDocuments.getDocument(importer.uri)!)).toEqual(['Ridge']);
        // And back: the grade as it was, the outcome matches again.
        await editorBuilds({ [`${base}armies.battle`]: armies('+1') }, 3);
        expect(staleActions(services.shared.workspace.LangiumDocuments.getDocument(importer.uri)!)).toEqual([]);
    });
});

const diagnosticsOf = (doc: LangiumDocument) => (doc.diagnostics ?? []).map(d => ({ range: d.range, message: d.message, code: d.code }));

/** Each action's key of its inputs (kept from the document's last model: it must be the key a cold model makes). */
function inputKeysOf(doc: LangiumDocument): string[] {
    const model = modelOf(doc.parseResult.value as Scenario);
    return model.actions.map(a => actionInputsKey(model, a.node));
}

/** The actions whose written outcome is reported stale, by name. */
function staleActions(doc: LangiumDocument): string[] {
    return actionsWith(doc, 'outcome-stale');
}

/** The actions that hold a diagnostic of this code, by name. */
function actionsWith(doc: LangiumDocument, code: string): string[] {
    const model = modelOf(doc.parseResult.value as Scenario);
    const lines = new Set((doc.diagnostics ?? []).filter(d => d.code === code).map(d => d.range.start.line));
    return model.actions.filter(a => {
        const range = a.node.$cstNode!.range;
        return [...lines].some(l => l >= range.start.line && l <= range.end.line);
    }).map(a => a.node.name ?? '');
}

/** The text with each action's outcome written as the editor's Resolve writes it (seeded actions' own seed). */
async function withOutcomes(uri: string, text: string): Promise<string> {
    const doc = await openDocument(uri, text, 1);
    const model = modelOf(doc.parseResult.value as Scenario);
    let out = text;
    for (const a of [...model.actions].reverse()) {
        const resolved = resolveAction(model, a, { newSeed: () => 1234 });
        if (isUnresolvable(resolved)) throw new Error(resolved.problem);
        const end = a.node.$cstNode!.end - 1;
        const lineStart = text.lastIndexOf('\n', a.node.$cstNode!.offset) + 1;
        const indent = /^\s*/.exec(text.slice(lineStart))![0].replace(/\n/g, '');
        out = `${out.slice(0, end)}${outcomeBlock(resolved.resolution, resolved.dice, indent)}\n${indent}${out.slice(end)}`;
    }
    return out;
}

/** Files as the editor holds them, built as the server builds a change (importers of a changed file rebuilt too). */
async function editorBuilds(files: Record<string, string>, version = 1): Promise<Record<string, LangiumDocument>> {
    for (const [uri, text] of Object.entries(files)) services.shared.workspace.TextDocuments!.set(EditorDocument.create(uri, 'battle', version, text));
    const uris = Object.keys(files).map(u => URI.parse(u));
    await services.shared.workspace.DocumentBuilder.update(uris, []);
    return Object.fromEntries(uris.map(u => [u.toString(), services.shared.workspace.LangiumDocuments.getDocument(u)!]));
}


/**
 * Parsing in pieces (src/language/incremental-parse.ts): an edit of an open document is spliced into
 * its previous tree when that can be proven to give what a full parse gives. After every edit of
 * random edit sequences (typing, deleting, broken and restored braces, comments, whole lines, edits
 * at the boundaries between elements), the spliced tree must equal a fresh parse of the same text
 * node by node (CST offsets, lines, hidden comment nodes, AST, references and syntax errors), and
 * what the umpire sees must equal a cold check.
 */
describe('a file parsed in pieces is the file parsed whole', () => {
    const factory = services.shared.workspace.LangiumDocumentFactory as unknown as { counts: { pieces: number, whole: number } };
    const linker = services.Battle.references.Linker as BattleLinker;
    const validator = services.Battle.validation.DocumentValidator as BattleNodeValidator;
    const bigger = [...texts, texts[EXAMPLES.indexOf('campaign')] + '\n// the season goes on\n' + texts[EXAMPLES.indexOf('campaign')].replace(/^[\s\S]*?(?=\n(?:grade|modifier|force|engagement|turn|state|ruling|house|fire|move|morale|redress|command) )/, '').replace(/\b(engagement|fire|move|morale|command|redress) (\w+)/g, '$1 $2Again')];

    /** Edits that people make, weighted toward the inside of elements and their boundaries. */
    type PieceEdit = { at: number, kind: 'type' | 'delete' | 'line' | 'comment' | 'boundary' | 'brace' | 'restore' | 'duplicate', char: string, size: number };
    const pieceEdit = fc.record({
        // Spread evenly over the file (fast-check's numbers lean toward the ends: here, the header).
        at: fc.noBias(fc.integer({ min: 0, max: 9999 })).map(n => n / 10000),
        kind: fc.constantFrom('type', 'type', 'delete', 'line', 'comment', 'boundary', 'boundary', 'brace', 'restore', 'duplicate'),
        char: fc.constantFrom(' ', '\n', 'a', 'x', '1', '}', '{', '.', ':', ',', '"', '/', '*', '-', 'é', 'turn', 'fire', 'grade G +1\n', 'engagement Z {\n', '// note\n', '/* c */', '/*', '\r\n'),
        size: fc.integer({ min: 1, max: 6 })
    }) as fc.Arbitrary<PieceEdit>;

    function applyPiece(text: string, e: PieceEdit, removed: string[]): string {
        const at = Math.floor(e.at * text.length);
        const starts = [...text.matchAll(/^\s*(grade|modifier|force|engagement|fire|move|morale|redress|command|turn|state|ruling|house|import|\})/gm)].map(m => m.index + m[0].length - m[1].length);
        const near = (list: number[]) => list.length === 0 ? at : list[Math.floor(e.at * list.length) % list.length];
        switch (e.kind) {
            case 'type': return text.slice(0, at) + e.char + text.slice(at);
            case 'delete': return text.slice(0, at) + text.slice(at + e.size);
            case 'comment': return text.slice(0, at) + (e.size % 2 ? '// a note\n' : '/* a note */') + text.slice(at);
            case 'boundary': {
                // Just before or just after the first token of a line, or at the end of an element's last line.
                const b = near(starts) + (e.size % 3) - 1;
                return text.slice(0, Math.max(0, b)) + e.char + text.slice(Math.max(0, b));
            }
            case 'brace': {
                // A closing brace removed (kept to be restored later): the file is broken until then.
                const i = text.indexOf('}', at);
                if (i < 0) return text;
                removed.push(String(i));
                return text.slice(0, i) + text.slice(i + 1);
            }
            case 'restore': {
                const i = removed.pop();
                return i === undefined || Number(i) > text.length ? text : text.slice(0, Number(i)) + '}' + text.slice(Number(i));
            }
            case 'duplicate': {
                // A whole line copied below itself (a unit, a dice line, an engagement's first line).
                const start = text.lastIndexOf('\n', at - 1) + 1;
                const end = text.indexOf('\n', at);
                const line = text.slice(start, end < 0 ? text.length : end + 1);
                return text.slice(0, start) + line + (line.endsWith('\n') ? '' : '\n') + text.slice(start);
            }
            case 'line': {
                const start = text.lastIndexOf('\n', at - 1) + 1;
                const end = text.indexOf('\n', at);
                return text.slice(0, start) + (end < 0 ? '' : text.slice(end + 1));
            }
        }
    }

    it('gives the same tree, errors and results after every edit of random edit sequences', async () => {
        const warmLenses = lensesWith(services.Battle.lsp.CodeLensProvider);
        const coldLenses = lensesWith(cold.Battle.lsp.CodeLensProvider);
        const before = { ...factory.counts };
        const linksBefore = { ...linker.counts }, checksBefore = validator.counts.kept, replayedBefore = validator.counts.actionsReplayed;
        let compared = 0, seenCompared = 0;
        const rebuilt = timelineCounts.rebuilt;
        await fc.assert(fc.asyncProperty(fc.integer({ min: 0, max: bigger.length - 1 }), fc.array(pieceEdit, { minLength: 1, maxLength: 14 }), async (which, edits) => {
            const uri = `file:///pieces/${which}.battle`;
            let text = bigger[which];
            const removed: string[] = [];
            await editorBuilds({ [uri]: text }, 1);
            for (const [i, e] of edits.entries()) {
                text = applyPiece(text, e, removed);
                const warm = (await editorBuilds({ [uri]: text }, i + 2))[uri];
                const coldDoc = await coldDocument(text);
                expect(treeOf(warm.parseResult as ParseResult<Scenario>)).toEqual(treeOf(coldDoc.parseResult as ParseResult<Scenario>));
                compared++;
                // What the umpire sees: every other edit, and always after the last.
                if (i % 2 === 1 || i === edits.length - 1) {
                    expect(seen(warm, warmLenses)).toEqual(seen(coldDoc, coldLenses));
                    expect(inputKeysOf(warm)).toEqual(inputKeysOf(coldDoc));
                    seenCompared++;
                }
            }
        }), { numRuns: 60, seed: 20261201 });
        // Every view read the current version's model: none of an earlier one built its timeline again.
        expect(timelineCounts.rebuilt).toBe(rebuilt);
        expect(compared).toBeGreaterThan(250);
        expect(seenCompared).toBeGreaterThan(90);
        // The splice was exercised: an edit next to a syntax error left elsewhere by an earlier edit of the
        // sequence may be parsed whole; the others (the header's included) in pieces.
        expect(factory.counts.pieces - before.pieces).toBeGreaterThan(40);
        // And the links and checks of the elements the parse in pieces kept were kept, not made again.
        expect(linker.counts.kept - linksBefore.kept).toBeGreaterThan(1000);
        expect(validator.counts.kept - checksBefore).toBeGreaterThan(500);
        // The actions of kept elements whose inputs were the same reported their problems again without running their checks.
        expect(validator.counts.actionsReplayed - replayedBefore).toBeGreaterThan(500);
    }, 600_000);

    it('keeps the syntax errors of the elements an edit did not touch, and gives the tree, errors and count of a cold parse', async () => {
        // Files with errors of every kind spread through them (scripts/bench-files.mjs: lines that do not
        // read, names not declared, checks that fail; more than the 200 listed), and the broken examples.
        const broken = [
            errorFile(260, 700, ['syntax']), errorFile(400, 900), errorFile(300, 500, ['syntax', 'checks']),
            ...['broken-scrud', 'broken-ancients', 'broken-loose-files', 'broken-campaign'].map(name => fs.readFileSync(new URL(`../../examples/${name}.battle`, import.meta.url), 'utf8'))
        ];
        const warmLenses = lensesWith(services.Battle.lsp.CodeLensProvider);
        const coldLenses = lensesWith(cold.Battle.lsp.CodeLensProvider);
        const before = { ...factory.counts };
        const keptAtEndsBefore = pieceCounts.keptAtEnds;
        let compared = 0, keptWithErrors = 0;
        await fc.assert(fc.asyncProperty(fc.integer({ min: 0, max: broken.length - 1 }), fc.array(pieceEdit, { minLength: 1, maxLength: 10 }), async (which, edits) => {
            const uri = `file:///pieces/broken-${which}.battle`;
            let text = broken[which];
            const removed: string[] = [];
            await editorBuilds({ [uri]: text }, 1);
            for (const [i, e] of edits.entries()) {
                text = applyPiece(text, e, removed);
                const pieces = factory.counts.pieces;
                const warm = (await editorBuilds({ [uri]: text }, i + 2))[uri];
                const coldDoc = await coldDocument(text);
                expect(treeOf(warm.parseResult as ParseResult<Scenario>)).toEqual(treeOf(coldDoc.parseResult as ParseResult<Scenario>));
                expect(seen(warm, warmLenses)).toEqual(seen(coldDoc, coldLenses));
                if (factory.counts.pieces > pieces && warm.parseResult.parserErrors.length > 0) keptWithErrors++;
                compared++;
            }
        }), { numRuns: 50, seed: 20261203 });
        expect(compared).toBeGreaterThan(150);
        // Most edits of these files were parsed in pieces, with the errors elsewhere kept.
        expect(keptWithErrors).toBeGreaterThan(compared / 2);
        expect(factory.counts.pieces - before.pieces).toBeGreaterThan(compared / 2);
        // Pieces took in elements for their errors and kept those that came out as they stood.
        expect(pieceCounts.keptAtEnds - keptAtEndsBefore).toBeGreaterThan(20);
    }, 900_000);

    it('gives the diagnostics of a cold check after edits of the 50,000-line file with 20,000 errors, in pieces', async () => {
        // The benchmark's file (scripts/bench-lsp.mjs --error-sizes 50000): a space typed at the start of a line
        // of a force, of an engagement next to broken ones, of a closing brace, and a seed made wrong and right.
        let text: string = errorFile(50000, 20000);
        const uri = 'file:///pieces/errors-50000.battle';
        await editorBuilds({ [uri]: text }, 1);
        const lines = (): string[] => text.split('\n');
        const lineStart = (n: number) => lines().slice(0, n).reduce((at, l) => at + l.length + 1, 0);
        const nth = (pattern: RegExp, k: number) => lines().map((l, i) => [l, i] as const).filter(([l]) => pattern.test(l))[k][1];
        const edits: Array<() => string> = [
            () => { const at = lineStart(nth(/^ {2}unit /, 2000)); return text.slice(0, at) + ' ' + text.slice(at); },
            () => { const at = lineStart(nth(/^ {2}F\d+.* attacks /, 3000)); return text.slice(0, at) + ' ' + text.slice(at); },
            () => { const at = lineStart(nth(/^\}$/, 9000)); return text.slice(0, at) + ' ' + text.slice(at); },
            () => { const at = lineStart(nth(/^ {2}seed \d+$/, 1500)) + 7; return text.slice(0, at) + 'x' + text.slice(at); },
            () => text.replace(/^( {2}seed \d+)x/m, '$1'),
            () => { const at = lineStart(nth(/^force /, 4000)); return text.slice(0, at) + ' ' + text.slice(at); }
        ];
        const pieces = factory.counts.pieces, keptAtEnds = pieceCounts.keptAtEnds;
        const plain = (doc: LangiumDocument) => (doc.diagnostics ?? []).map(d => ({ range: d.range, message: d.message, code: d.code, severity: d.severity, data: d.data }));
        const errors = (doc: LangiumDocument) => doc.parseResult.parserErrors.map(e => `${e.token.startOffset} ${e.message}`);
        for (const [i, edit] of edits.entries()) {
            text = edit();
            const warm = (await editorBuilds({ [uri]: text }, i + 2))[uri];
            const coldDoc = await coldDocument(text);
            expect(warm.textDocument.getText()).toBe(text);
            expect(errors(warm)).toEqual(errors(coldDoc));
            expect(plain(warm)).toEqual(plain(coldDoc));
            expect(plain(warm).at(-1)?.code).toBe('too-many-problems');
        }
        expect(factory.counts.pieces - pieces).toBeGreaterThanOrEqual(edits.length - 1);
        expect(pieceCounts.keptAtEnds).toBeGreaterThan(keptAtEnds);
    }, 600_000);

    it('splices an edit inside a turn among the turn\'s own elements, and gives the tree, errors and results of a cold parse', async () => {
        // Campaigns kept as turns: a generated one (scripts/bench-files.mjs), and the examples with turns of every rule set.
        const withTurns = [
            turnsCampaign(300, 6),
            ...['campaign', 'loose-files-turn', 'cowpens', 'house-rules-scrud', 'house-rules-loose-files', 'season-1', 'broken-campaign'].map(name => fs.readFileSync(new URL(`../../examples/${name}.battle`, import.meta.url), 'utf8'))
        ];
        type TurnEdit = { where: 'inside' | 'inside' | 'anywhere' | 'brace' | 'moveOut' | 'moveIn', edit: PieceEdit, pick: number };
        const turnEdit = fc.record({
            where: fc.constantFrom('inside', 'inside', 'inside', 'inside', 'anywhere', 'brace', 'moveOut', 'moveIn'),
            edit: pieceEdit,
            pick: fc.noBias(fc.integer({ min: 0, max: 9999 }))
        }) as fc.Arbitrary<TurnEdit>;
        const turnsOf = (doc: LangiumDocument) => (doc.parseResult.value as Scenario).elements.filter((e): e is Turn => e.$type === 'Turn' && e.$cstNode !== undefined);
        /** An edit placed by the current tree: inside a turn's braces, on a turn's brace, or an element moved out of a turn or into one. */
        function applyTurnEdit(text: string, doc: LangiumDocument, e: TurnEdit, removed: string[]): string {
            const turns = turnsOf(doc);
            const turn = turns[e.pick % Math.max(1, turns.length)];
            if (!turn || e.where === 'anywhere') return applyPiece(text, e.edit, removed);
            const leaves = AstUtils.streamAst(turn).count() > 0 ? [...(turn.$cstNode as CstNode & { content: CstNode[] }).content.flatMap(c => (c as CstNode & { content?: CstNode[] }).content ?? [c])] : [];
            const open = leaves.find(l => !('content' in l) && l.text === '{');
            const close = leaves[leaves.length - 1];
            if (!open || close.text !== '}') return applyPiece(text, e.edit, removed);
            const inner = turn.elements.filter(x => x.$cstNode);
            switch (e.where) {
                case 'inside': {
                    // A piece edit at a place between the braces (the edit's own kinds: typing, deleting, lines, comments, braces).
                    // Two in three are what typing into a clean turn mostly is: a space, a line break, a letter, a digit, a comment.
                    let at = open.end + Math.floor((e.pick / 10000) * (close.offset - open.end));
                    // (typed just before white space, so that it lengthens a word or a number rather than splitting a keyword)
                    if (e.pick % 3) while (at < close.offset && !/\s/.test(text[at])) at++;
                    const typed = e.pick % 3 ? { kind: 'type' as const, char: [' ', '\n', 'a', '1', '// note\n', '\r\n'][e.pick % 6] } : {};
                    return applyPiece(text, { ...e.edit, ...typed, at: at / text.length, kind: e.edit.kind === 'boundary' ? 'type' : typed.kind ?? e.edit.kind }, removed);
                }
                case 'brace': {
                    // The turn's `{` or its `}` removed, or the brace removed last put back.
                    const back = removed.pop();
                    if (back !== undefined && Number(back) <= text.length) return text.slice(0, Number(back)) + (e.pick % 2 ? '{' : '}') + text.slice(Number(back));
                    const at = e.pick % 2 ? open.offset : close.offset;
                    removed.push(String(at));
                    return text.slice(0, at) + text.slice(at + 1);
                }
                case 'moveOut': {
                    // One of the turn's elements cut and written after the turn's `}`.
                    const moved = inner[e.pick % Math.max(1, inner.length)];
                    if (!moved) return text;
                    const piece = text.slice(moved.$cstNode!.offset, moved.$cstNode!.end);
                    const after = text.slice(0, close.end) + '\n' + piece + text.slice(close.end);
                    return after.slice(0, moved.$cstNode!.offset) + after.slice(moved.$cstNode!.end);
                }
                case 'moveIn': {
                    // The top-level action after the turn (if any) moved into it, before its `}`.
                    const next = (doc.parseResult.value as Scenario).elements.find(x => x.$cstNode && x.$cstNode.offset > close.end && x.$type === 'Action');
                    if (!next) return applyPiece(text, e.edit, removed);
                    const piece = text.slice(next.$cstNode!.offset, next.$cstNode!.end);
                    const cut = text.slice(0, next.$cstNode!.offset) + text.slice(next.$cstNode!.end);
                    return cut.slice(0, close.offset) + piece + '\n' + cut.slice(close.offset);
                }
            }
        }
        const warmLenses = lensesWith(services.Battle.lsp.CodeLensProvider);
        const coldLenses = lensesWith(cold.Battle.lsp.CodeLensProvider);
        const before = { ...factory.counts };
        let compared = 0, splicedInTurns = 0, insideClean = 0, insideCleanSpliced = 0;
        await fc.assert(fc.asyncProperty(fc.integer({ min: 0, max: withTurns.length - 1 }), fc.array(turnEdit, { minLength: 1, maxLength: 12 }), async (which, edits) => {
            const uri = `file:///pieces/turns-${which}.battle`;
            let text = withTurns[which];
            const removed: string[] = [];
            let doc = (await editorBuilds({ [uri]: text }, 1))[uri];
            for (const [i, e] of edits.entries()) {
                text = applyTurnEdit(text, doc, e, removed);
                const cstBefore = new Set(turnsOf(doc).map(turn => turn.$cstNode));
                const turnsBefore = new Set(turnsOf(doc));
                const wasClean = doc.parseResult.parserErrors.length === 0;
                doc = (await editorBuilds({ [uri]: text }, i + 2))[uri];
                // A new turn node on the turn's old CST node: the edit was spliced inside the turn.
                const spliced = turnsOf(doc).some(turn => !turnsBefore.has(turn) && cstBefore.has(turn.$cstNode));
                if (spliced) splicedInTurns++;
                if (e.where === 'inside' && wasClean && doc.parseResult.parserErrors.length === 0 && doc.parseResult.lexerErrors.length === 0) {
                    insideClean++;
                    if (spliced) insideCleanSpliced++;
                }
                const coldDoc = await coldDocument(text);
                expect(treeOf(doc.parseResult as ParseResult<Scenario>)).toEqual(treeOf(coldDoc.parseResult as ParseResult<Scenario>));
                expect(seen(doc, warmLenses)).toEqual(seen(coldDoc, coldLenses));
                compared++;
            }
        }), { numRuns: 70, seed: 20261206 });
        expect(compared).toBeGreaterThan(200);
        // An edit inside a turn of a file without syntax errors, that leaves none, is spliced among the turn's
        // elements (edits next to a syntax error in the turn, left by an earlier edit, parse the whole turn again).
        expect(insideClean).toBeGreaterThan(30);
        expect(insideCleanSpliced).toBeGreaterThan(insideClean * 0.8);
        expect(splicedInTurns).toBeGreaterThan(compared / 10);
        expect(factory.counts.pieces - before.pieces).toBeGreaterThan(compared / 2);
    }, 900_000);

    it('refuses an edit that nests braces too deep, in its piece or past it, as a parse of the whole file does', async () => {
        const uri = 'file:///pieces/nesting.battle';
        const lines = ['scenario "N"', 'rules scrud', 'grade Veteran +1', ''];
        for (let k = 0; k < 8; k++) lines.push(`force F${k} {`, '  unit Line foot Veteran x2', '}', ...(k > 0 ? [`engagement E${k} {`, `  F${k} attacks F${k - 1}`, `  seed ${k}`, '}'] : []));
        // Thirty braces in a comment of the last force: harmless until something earlier leaves braces open.
        lines.push('force Late {', `  // ${'{'.repeat(30)}`, '  unit Line foot', '}');
        const text = lines.join('\n') + '\n';
        await editorBuilds({ [uri]: text }, 1);
        const refused = (doc: LangiumDocument) => doc.parseResult.lexerErrors.map(e => e.message).filter(m => m.includes('Braces nest'));
        const check = async (now: string, version: number) => {
            const warm = (await editorBuilds({ [uri]: now }, version))[uri];
            const coldDoc = await coldDocument(now);
            expect(treeOf(warm.parseResult as ParseResult<Scenario>)).toEqual(treeOf(coldDoc.parseResult as ParseResult<Scenario>));
            expect(diagnosticsOf(warm)).toEqual(diagnosticsOf(coldDoc));
            return refused(warm);
        };
        const at = text.indexOf('  seed 3');
        // Forty braces closed in the engagement: parsed in pieces, nothing refused.
        const before = factory.counts.pieces;
        expect(await check(text.slice(0, at) + `  // ${'{'.repeat(40)}${'}'.repeat(40)}\n` + text.slice(at), 2)).toEqual([]);
        expect(factory.counts.pieces).toBe(before + 1);
        // Seventy in the piece: refused.
        expect(await check(text.slice(0, at) + `  // ${'{'.repeat(70)}\n` + text.slice(at), 3)).toHaveLength(1);
        // Forty left open in the piece, the thirty of the last force past them: refused at the last force.
        await editorBuilds({ [uri]: text }, 4);
        const deep = text.slice(0, at) + `  // ${'{'.repeat(40)}\n` + text.slice(at);
        expect(await check(deep, 5)).toHaveLength(1);
        expect(diagnosticsOf((await editorBuilds({ [uri]: deep }, 5))[uri])[0].range.start.line).toBe(deep.split('\n').indexOf(`  // ${'{'.repeat(30)}`));
    });

    it('parses in pieces while a line is typed into an engagement, through its half-typed states', async () => {
        const uri = 'file:///pieces/typing.battle';
        const lines = ['scenario "T"', 'rules scrud', 'grade Veteran +1', 'modifier Uphill -1', ''];
        for (let k = 0; k < 12; k++) lines.push(`force F${k} {`, '  unit Line foot Veteran x2', '}', ...(k > 0 ? [`engagement E${k} {`, `  F${k} attacks F${k - 1}`, `  seed ${k}`, '}'] : []));
        let text = lines.join('\n') + '\n';
        await editorBuilds({ [uri]: text }, 1);
        const at = text.indexOf('  seed 6');
        const typed = '  factor Uphill on F6.Line#2\n';
        const before = { ...factory.counts };
        for (let i = 1; i <= typed.length; i++) {
            const now = text.slice(0, at) + typed.slice(0, i) + text.slice(at);
            const warm = (await editorBuilds({ [uri]: now }, i + 1))[uri];
            expect(treeOf(warm.parseResult as ParseResult<Scenario>)).toEqual(treeOf((await coldDocument(now)).parseResult as ParseResult<Scenario>));
        }
        text = text.slice(0, at) + typed + text.slice(at);
        expect(factory.counts.whole - before.whole).toBe(0);
        expect(factory.counts.pieces - before.pieces).toBe(typed.length);
    });

    it('links and checks again only the elements an edit replaced, and the references to names it declared or removed', async () => {
        const uri = 'file:///pieces/relink.battle';
        // Alone in the workspace: Langium links again every other file that has an unknown name, at every build.
        const documents = services.shared.workspace.LangiumDocuments;
        for (const doc of documents.all.toArray()) documents.deleteDocument(doc.uri);
        const lines = ['scenario "L"', 'rules scrud', 'grade Veteran +1', 'modifier Uphill -1', ''];
        for (let k = 0; k < 12; k++) lines.push(`force F${k} {`, '  unit Line foot Veteran x2', '}', ...(k > 0 ? [`engagement E${k} {`, `  F${k} attacks F${k - 1}`, `  factor Uphill on F${k}.Line#1`, `  seed ${k}`, '}'] : []));
        const text = lines.join('\n') + '\n';
        await editorBuilds({ [uri]: text }, 1);
        const named = (doc: LangiumDocument, name: string) => (doc.parseResult.value as Scenario).elements.find(e => 'name' in e && e.name === name)!;
        const referencesIn = (node: AstNode) => AstUtils.streamAst(node).flatMap(n => AstUtils.streamReferences(n)).count();
        const build = async (now: string, version: number) => {
            const before = { linked: linker.counts.linked, walked: validator.counts.walked };
            const doc = (await editorBuilds({ [uri]: now }, version))[uri];
            expect(seen(doc, () => [])).toEqual(seen(await coldDocument(now), () => []));
            expect(treeOf(doc.parseResult as ParseResult<Scenario>)).toEqual(treeOf((await coldDocument(now)).parseResult as ParseResult<Scenario>));
            return { doc, linked: linker.counts.linked - before.linked, walked: validator.counts.walked - before.walked };
        };

        // The scope a force's name is found in (BattleScopeProvider), as a reference in an engagement asks for it.
        const forceScope = (doc: LangiumDocument) => services.Battle.references.ScopeProvider.getScope(
            AstUtils.streamAst(named(doc, 'E2')).flatMap(n => AstUtils.streamReferences(n)).find(r => r.property === 'force')!);
        const firstScope = forceScope(services.shared.workspace.LangiumDocuments.getDocument(URI.parse(uri))!);

        // A seed changed in E6: only E6 is linked and walked again, and the forces' scope is the one made before.
        const seed = text.replace('  seed 6', '  seed 16');
        const one = await build(seed, 2);
        expect(one.linked).toBe(referencesIn(named(one.doc, 'E6')));
        expect(one.walked).toBe(AstUtils.streamAst(named(one.doc, 'E6')).count());
        expect(forceScope(one.doc)).toBe(firstScope);

        // F3 renamed: the force (a new node) and the engagements that name F3 are linked again, and find it no more.
        const renamed = seed.replace('force F3 {', 'force F3x {');
        const two = await build(renamed, 3);
        expect(two.linked).toBe(referencesIn(named(two.doc, 'F3x')) + referencesIn(named(two.doc, 'E3')) + referencesIn(named(two.doc, 'E4')));
        expect(two.doc.diagnostics?.filter(d => (d.message as string).startsWith('There is no force named \'F3\''))).toHaveLength(3);
        expect(two.walked).toBe(['F3x', 'E3', 'E4'].reduce((n, name) => n + AstUtils.streamAst(named(two.doc, name)).count(), 0));
        // A force's node replaced: the forces' scope is made again, and names the new node.
        expect(forceScope(two.doc)).not.toBe(firstScope);
        expect(forceScope(two.doc).getElement('F3x')?.node).toBe(named(two.doc, 'F3x'));
        expect(forceScope(two.doc).getElement('F3')).toBeUndefined();

        // A force named F3 declared again (at the end, so the last engagement is parsed again with it): what could not be found is found.
        const declared = `${renamed}force F3 {\n  unit Line foot Veteran x2\n}\n`;
        const three = await build(declared, 4);
        expect(three.linked).toBe(referencesIn(named(three.doc, 'E3')) + referencesIn(named(three.doc, 'E4')) + referencesIn(named(three.doc, 'E11')) + 1);
        expect(three.doc.diagnostics?.some(d => (d.message as string).startsWith('There is no force'))).toBe(false);

        // A grade nobody names added between E5 and F6 (both parsed again with it): E5 is linked again; F6 came
        // out of the piece as it stood, so it stays the same node, and the engagements that name it keep their
        // links; the forces' checks (which read the grades) run again, and E5's, the others' not.
        const graded = declared.replace('  seed 5\n}\n', '  seed 5\n}\ngrade Green -1\n');
        const f6 = named(three.doc, 'F6');
        const four = await build(graded, 5);
        expect(named(four.doc, 'F6')).toBe(f6);
        expect(four.linked).toBe(referencesIn(named(four.doc, 'E5')));
        const forces = (four.doc.parseResult.value as Scenario).elements.filter(e => e.$type === 'Force');
        const nodesIn = (node: AstNode) => AstUtils.streamAst(node).count();
        expect(four.walked).toBe(forces.reduce((n, f) => n + nodesIn(f), ['Green', 'E5'].reduce((n, name) => n + nodesIn(named(four.doc, name)), 0)));

        // A second force F5 (a duplicate), then the first one removed: the second becomes the F5 the engagements
        // name, and its checks (a duplicate no more) run again.
        const twice = `${graded}force F5 {\n  unit Line foot Veteran x3\n}\n`;
        expect((await build(twice, 6)).doc.diagnostics?.some(d => d.code === 'duplicate-name')).toBe(true);
        const once = twice.replace('force F5 {\n  unit Line foot Veteran x2\n}\n', '');
        expect((await build(once, 7)).doc.diagnostics?.some(d => d.code === 'duplicate-name')).toBe(false);
    });

    it('links and checks again only the turn\'s element an edit inside a turn replaced', async () => {
        const uri = 'file:///pieces/relink-turns.battle';
        const documents = services.shared.workspace.LangiumDocuments;
        for (const doc of documents.all.toArray()) documents.deleteDocument(doc.uri);
        const text: string = turnsCampaign(200, 8);
        await editorBuilds({ [uri]: text }, 1);
        const before = { linked: linker.counts.linked, walked: validator.counts.walked, pieces: factory.counts.pieces };
        const edited = text.replace('    seed 10\n', '    seed 110\n');
        const doc = (await editorBuilds({ [uri]: edited }, 2))[uri];
        expect(factory.counts.pieces).toBe(before.pieces + 1);
        const e10 = (doc.parseResult.value as Scenario).elements.filter((e): e is Turn => e.$type === 'Turn').flatMap(t => t.elements).find(a => 'name' in a && a.name === 'E10')!;
        // E10 alone is linked again; the walk is E10's nodes and its (new) turn's node.
        expect(linker.counts.linked - before.linked).toBe(AstUtils.streamAst(e10).flatMap(n => AstUtils.streamReferences(n)).count());
        expect(validator.counts.walked - before.walked).toBe(AstUtils.streamAst(e10).count() + 1);
        expect(seen(doc, () => [])).toEqual(seen(await coldDocument(edited), () => []));
        expect(treeOf(doc.parseResult as ParseResult<Scenario>)).toEqual(treeOf((await coldDocument(edited)).parseResult as ParseResult<Scenario>));
    });

    it('knows what each check reads: a check of another node type must be placed in battle-node-validator.ts first', () => {
        // BattleNodeValidator keeps a kept element's problems while its links, the rule set and the limits are
        // the same (and, for the types in READS_DECLARATIONS, the declarations); the types in RUN_AGAIN are
        // checked at every build. A check that reads anything else must be listed there before it is added here.
        const registry = services.Battle.validation.ValidationRegistry;
        const checked = services.shared.AstReflection.getAllTypes().filter(type => registry.getChecks(type).count() > 0);
        expect(checked.sort()).toEqual(['Action', 'Dice', 'Fact', 'Force', 'Grade', 'House', 'Modifier', 'RuleOption', 'Scenario', 'Seed', 'Target', 'Unit']);
        // An action's one check is BattleValidator.checkAction, whose problems replayActionChecks reports again: another needs a place there.
        expect(registry.getChecks('Action').count()).toBe(1);
    });

    it('moves the later lines and relinks what an edit renames', async () => {
        const uri = 'file:///pieces/rename.battle';
        const text = 'scenario "R"\nrules scrud\n\nforce French {\n  unit Line foot x2\n}\n\nforce Austrian {\n  unit Line foot x2\n}\n\n// the fight\nengagement Ridge {\n  French attacks Austrian\n  seed 3\n}\n';
        await editorBuilds({ [uri]: text }, 1);
        const before = factory.counts.pieces;
        // The first force renamed: the engagement (not parsed again) no longer finds it.
        const renamed = text.replace('force French', 'force Gauls');
        const doc = (await editorBuilds({ [uri]: renamed }, 2))[uri];
        expect(factory.counts.pieces).toBe(before + 1);
        expect(doc.diagnostics?.map(d => d.message)).toContain('There is no force named \'French\'.');
        // Two lines added inside the first force: the engagement's positions move by two lines.
        const longer = renamed.replace('  unit Line foot x2\n}', '  unit Line foot x2\n  unit Guard foot\n  unit Horse horse\n}');
        const moved = (await editorBuilds({ [uri]: longer }, 3))[uri];
        expect(factory.counts.pieces).toBe(before + 2);
        const ridge = (moved.parseResult.value as Scenario).elements.find(e => e.$type === 'Action')!;
        expect(ridge.$cstNode!.range.start.line).toBe(longer.split('\n').indexOf('engagement Ridge {'));
        expect(treeOf(moved.parseResult as ParseResult<Scenario>)).toEqual(treeOf((await coldDocument(longer)).parseResult as ParseResult<Scenario>));
    });

    /**
     * A chain of SCRUD engagements fought in file order (engagement k pits force k against force k-1,
     * so each fights a force the one before it fought), every outcome written from the state the
     * earlier ones leave, and one force declared late, between the engagements.
     */
    async function chain(uri: string, n: number): Promise<string> {
        const lines = ['scenario "Chain"', 'rules scrud', 'grade Veteran +1', 'grade Raw -1', 'modifier Uphill -1', ''];
        for (let k = 0; k < n; k++) {
            lines.push(`force F${k} {`, `  unit Line foot ${k % 3 === 0 ? 'Raw' : 'Veteran'} x2`, '  unit Horse horse', '}', '');
            if (k > 0) lines.push(`engagement E${k} {`, `  F${k} attacks F${k - 1}`, ...(k % 2 ? [`  factor Uphill on F${k}`] : []), `  seed ${k + 2}`, '}', '');
        }
        let text = lines.join('\n');
        // Written one at a time in file order, each from the state the ones before it leave (as Resolve all does).
        for (let k = 1; k < n; k++) {
            const doc = await openDocument(uri, text, k);
            const model = modelOf(doc.parseResult.value as Scenario);
            const a = model.actions.find(x => x.node.name === `E${k}`)!;
            const resolved = resolveAction(model, a, { newSeed: () => 1234 });
            if (isUnresolvable(resolved)) throw new Error(resolved.problem);
            const end = a.node.$cstNode!.end - 1;
            text = `${text.slice(0, end)}${outcomeBlock(resolved.resolution, resolved.dice, '')}\n${text.slice(end)}`;
        }
        return text;
    }

    it('judges the later engagements of a campaign again from the first changed one, as a cold check does', async () => {
        // The campaign timeline is kept up to the first element that changed (src/core/campaign-state.ts):
        // an edit early in the campaign must change the later outcomes' stale flags and out-of-action
        // errors exactly as a cold check of the same text finds them.
        const uri = 'file:///pieces/chain.battle';
        const text = await chain('file:///pieces/chain-written.battle', 14);
        const first = (await editorBuilds({ [uri]: text }, 1))[uri];
        expect(staleActions(first)).toEqual([]);
        const before = factory.counts.pieces;
        // A unit of Fk routed in Ek's written outcome: E(k+1), where F(k+1) attacks Fk, now has a unit
        // out of the fight. The first k whose next engagement is clean and whose outcome leaves Fk's unit standing.
        const outOfAction = (doc: LangiumDocument) => actionsWith(doc, 'unit-out-of-action');
        const clean = outOfAction(first);
        const k = [...Array(12).keys()].map(i => i + 1).find(i => !clean.includes(`E${i + 1}`)
            && new RegExp(`F${i}\\.\\w+(?:#\\d)?: (?:recoil|stand-off|won|retire|holds),`).test(text.slice(text.indexOf(`engagement E${i} {`))))!;
        const ek = text.indexOf(`engagement E${k} {`);
        const line = new RegExp(`F${k}\\.\\w+(?:#\\d)?: (recoil|stand-off|won|retire|holds),`).exec(text.slice(ek))!;
        const at = ek + line.index;
        const edited = text.slice(0, at) + line[0].replace(line[1], 'rout') + text.slice(at + line[0].length);
        const warm = (await editorBuilds({ [uri]: edited }, 2))[uri];
        expect(factory.counts.pieces).toBe(before + 1);
        const coldDoc = await coldDocument(edited);
        // A result edited by hand is outcome-altered (docs/campaigns.md#altered): the state builds on the dice,
        // so the rout takes nobody out of E(k+1); warm and cold agree on every later engagement.
        expect(actionsWith(warm, 'outcome-altered')).toContain(`E${k}`);
        expect(outOfAction(warm)).not.toContain(`E${k + 1}`);
        expect(actionsWith(warm, 'outcome-altered')).toEqual(actionsWith(coldDoc, 'outcome-altered'));
        expect(outOfAction(warm)).toEqual(outOfAction(coldDoc));
        expect(staleActions(warm)).toEqual(staleActions(coldDoc));
        expect(seen(warm, () => [])).toEqual(seen(coldDoc, () => []));
    });

    it('keeps each engagement\'s campaign checks, and works them again when a declaration or a turn moves past it', async () => {
        // The campaign checks keep each action's problems with what they read (src/language/validation/campaign.ts):
        // a force moved below a kept engagement (force-declared-later), a turn renamed that a late unit's
        // `enters` names (unit-not-arrived) and a turn inserted before one change what a kept engagement gets.
        const uri = 'file:///pieces/campaign-moves.battle';
        // Alone in the workspace: Langium checks again every other file that has an unknown name, at every build.
        const documents = services.shared.workspace.LangiumDocuments;
        for (const doc of documents.all.toArray()) documents.deleteDocument(doc.uri);
        const lines = ['scenario "M"', 'rules scrud', 'grade Line 0', '', 'force A {', '  unit Foot foot Line', '  unit Guard foot { enters Noon }', '}', ''];
        for (let k = 1; k <= 8; k++) lines.push(`force F${k} {`, '  unit Foot foot Line', '}', '');
        lines.push('turn Dawn {');
        for (let k = 1; k <= 4; k++) lines.push(`  engagement D${k} {`, `    A.Guard attacks F${k}`, `    seed ${k}`, '  }');
        lines.push('}', '', 'turn Noon {');
        for (let k = 5; k <= 8; k++) lines.push(`  engagement N${k} {`, `    A.Foot attacks F${k}`, `    seed ${k}`, '  }');
        lines.push('}', '', 'engagement Last {', '  A.Foot attacks F8', '  seed 9', '}', '');
        const text = lines.join('\n');
        const check = async (now: string, version: number) => {
            const keptBefore = campaignCounts.kept;
            const doc = (await editorBuilds({ [uri]: now }, version))[uri];
            expect(seen(doc, () => [])).toEqual(seen(await coldDocument(now), () => []));
            return { doc, kept: campaignCounts.kept - keptBefore };
        };
        const codes = (doc: LangiumDocument) => (doc.diagnostics ?? []).map(d => d.code).filter(c => c === 'unit-not-arrived' || c === 'force-declared-later');
        const first = await check(text, 1);
        expect(codes(first.doc)).toEqual(Array(4).fill('unit-not-arrived'));
        // A seed changed in N6: N6 alone is parsed again (the edit is spliced inside its turn). Its outcome, settled
        // by its seed, carries to the actions after it (docs/campaigns.md#settled), and each action of a turn reads
        // the turn: the four engagements of Dawn keep their campaign checks; Noon's and Last are worked again.
        const seeded = text.replace('    seed 6\n', '    seed 16\n');
        expect((await check(seeded, 2)).kept).toBe(4);
        // F2 moved below the turns: D2, kept, now names a force declared further down.
        const moved = seeded.replace('force F2 {\n  unit Foot foot Line\n}\n', '') + 'force F2 {\n  unit Foot foot Line\n}\n';
        expect(codes((await check(moved, 3)).doc).sort()).toEqual(['force-declared-later', ...Array(4).fill('unit-not-arrived')]);
        // The turn the Guard enters renamed: it names no turn, so nothing holds it back.
        expect(codes((await check(moved.replace('turn Noon {', 'turn Noonish {'), 4)).doc)).toEqual(['force-declared-later']);
        // A turn inserted before Dawn: Noon is turn 3, Dawn turn 2 (the messages say so): the Guard still waits.
        const inserted = moved.replace('turn Dawn {', 'turn Night {\n}\n\nturn Dawn {');
        const last = await check(inserted, 5);
        expect(codes(last.doc).filter(c => c === 'unit-not-arrived')).toHaveLength(4);
    });

    /**
     * Builds each text given as the next version of `uri`, alone in the workspace (Langium checks again every
     * other file that has an unknown name, at every build), and holds it to a cold check of the same text and
     * its keys to those a cold model makes; with how many actions' campaign checks were kept.
     */
    function keptChecker(uri: string): (now: string) => Promise<{ doc: LangiumDocument, keys: string[], kept: number }> {
        const documents = services.shared.workspace.LangiumDocuments;
        for (const doc of documents.all.toArray()) documents.deleteDocument(doc.uri);
        let version = 1;
        return async now => {
            const keptBefore = campaignCounts.kept;
            const doc = (await editorBuilds({ [uri]: now }, version++))[uri];
            const coldDoc = await coldDocument(now);
            expect(seen(doc, () => [])).toEqual(seen(coldDoc, () => []));
            expect(inputKeysOf(doc)).toEqual(inputKeysOf(coldDoc));
            return { doc, keys: inputKeysOf(doc), kept: campaignCounts.kept - keptBefore };
        };
    }

    it('makes the keys a first build owes before the next parse, as a build that makes them at once would, and keeps that build\'s checks', async () => {
        // A document's first build publishes its problems before it makes its action keys (src/core/model-cache.ts,
        // `finishOwedKeys`): what it keeps waits on keys filled later, before anything parses again.
        const text = await chain('file:///pieces/owed-written.battle', 8);
        const documents = services.shared.workspace.LangiumDocuments;
        for (const doc of documents.all.toArray()) documents.deleteDocument(doc.uri);
        const uri = 'file:///pieces/owed.battle';
        const first = (await editorBuilds({ [uri]: text }, 1))[uri];
        const model = modelOf(first.parseResult.value as Scenario);
        const owedKeys = model.actions.map(a => actionKey(model, a.node));
        expect(owedKeys).toHaveLength(7);
        for (const key of owedKeys) expect(key).toEqual({ all: undefined, settled: undefined });
        // White space typed into the last engagement: the parse makes the first build's keys before it starts.
        const finished = owedCounts.finished, keptBefore = campaignCounts.kept;
        const edited = text.replace(/(engagement E7 \{\n)/, '$1 ');
        const second = (await editorBuilds({ [uri]: edited }, 2))[uri];
        expect(owedCounts.finished - finished).toBe(1);
        // Filled as a model of the same text makes them when asked at once (the keys are of the text, not of the file's address).
        const coldModel = modelOf((await coldDocument(text)).parseResult.value as Scenario);
        expect(owedKeys.map(k => k.all)).toEqual(coldModel.actions.map(a => actionInputsKey(coldModel, a.node)));
        expect(owedKeys.map(k => k.settled)).toEqual(coldModel.actions.map(a => settledInputsKey(coldModel, a.node)));
        // The second build kept the first build's campaign checks of every engagement but E7, a new node (the edit changes none).
        expect(campaignCounts.kept - keptBefore).toBe(6);
        expect(seen(second, () => [])).toEqual(seen(await coldDocument(edited), () => []));
        // The second build owes nothing: it is no document's first.
        const secondModel = modelOf(second.parseResult.value as Scenario);
        expect(actionKey(secondModel, secondModel.actions[0].node).all).toBeDefined();
    });

    it('makes a first build\'s keys once the client has been quiet, without an edit', async () => {
        const uri = 'file:///pieces/owed-quiet.battle';
        const owed = new OwedKeys(services.shared, 5);
        const doc = (await editorBuilds({ [uri]: await chain('file:///pieces/owed-quiet-written.battle', 4) }, 1))[uri];
        const model = modelOf(doc.parseResult.value as Scenario);
        const key = actionKey(model, model.actions[0].node);
        expect(key.all).toBeUndefined();
        owed.heardFromClient();
        await new Promise(resolve => setTimeout(resolve, 50));
        expect(key.all).toBe(actionInputsKey(model, model.actions[0].node));
    });

    it('keeps the keys and campaign checks of the actions an edit leaves alone, and works again those whose starting state it changes', async () => {
        // The actions' input keys are kept from the document's last model, hashed again only for the steps
        // whose units' last writers changed (src/core/model-cache.ts); the campaign checks are kept per action
        // by that key (src/language/validation/campaign.ts); the unique names per element (checkUniqueNames).
        const text = await chain('file:///pieces/chain-kept-written.battle', 12);
        const check = keptChecker('file:///pieces/chain-kept.battle');
        const first = await check(text);
        const count = first.keys.length;
        expect(count).toBe(11);
        const outOfAction = (doc: LangiumDocument) => actionsWith(doc, 'unit-out-of-action');
        // Only the last engagement's seed changed: every other action keeps its key and its campaign checks.
        const last = text.lastIndexOf('  seed ');
        const late = await check(`${text.slice(0, last)}  seed 99${text.slice(text.indexOf('\n', last))}`);
        expect(late.keys.slice(0, -1)).toEqual(first.keys.slice(0, -1));
        expect(late.kept).toBe(count - 1);
        // White space typed in a force, then in an early engagement: the same keys, every (other) action's checks kept.
        const lateText = `${text.slice(0, last)}  seed 99${text.slice(text.indexOf('\n', last))}`;
        const spacedForce = await check(lateText.replace('  unit Horse horse', '   unit Horse horse'));
        expect(spacedForce.keys).toEqual(late.keys);
        expect(spacedForce.kept).toBe(count);
        const spaced = await check(lateText.replace('  unit Horse horse', '   unit Horse horse').replace('  F2 attacks F1', '  F2  attacks F1'));
        expect(spaced.keys).toEqual(late.keys);
        expect(spaced.kept).toBe(count - 1);
        // An early outcome's result edited by hand: its text changed, so the later actions' keys do and they are
        // worked again; the edit is outcome-altered and the state builds on the dice (docs/campaigns.md#altered).
        const e2 = text.indexOf('engagement E2 {');
        const line = /F2\.\w+(?:#\d)?: (recoil|stand-off|won|retire|holds),/.exec(text.slice(e2));
        expect(line).not.toBeNull();
        if (line) {
            const at = e2 + line.index;
            const routed = await check(text.slice(0, at) + line[0].replace(line[1], 'rout') + text.slice(at + line[0].length));
            expect(routed.keys.slice(0, 1)).toEqual(first.keys.slice(0, 1));
            expect(routed.keys.slice(2).every((k, i) => k !== first.keys[i + 2])).toBe(true);
            expect(actionsWith(routed.doc, 'outcome-altered')).toEqual(['E2']);
            expect(outOfAction(routed.doc)).toEqual(outOfAction(first.doc));
        }
        // An early outcome removed, then written again: its seed settles the same outcome, so the later
        // outcomes are in order all along (docs/campaigns.md#settled).
        const o3 = text.indexOf('outcome', text.indexOf('engagement E3 {'));
        const close = text.indexOf('}', o3);
        const removed = await check(text.slice(0, o3) + text.slice(close + 1));
        expect(removed.doc.diagnostics?.some(d => d.code === 'outcome-out-of-order')).toBe(false);
        expect(removed.keys.slice(0, 2)).toEqual(first.keys.slice(0, 2));
        const again = await check(text);
        expect(again.keys).toEqual(first.keys);
        // A force renamed (its references no longer resolve), a duplicate engagement name made and taken away.
        await check(text.replace('force F5 {', 'force F5b {'));
        const twice = await check(text.replace('engagement E7 {', 'engagement E6 {'));
        expect(twice.doc.diagnostics?.filter(d => d.code === 'duplicate-name')).toHaveLength(1);
        const back = await check(text);
        expect(back.doc.diagnostics?.filter(d => d.code === 'duplicate-name')).toHaveLength(0);
        expect(back.keys).toEqual(first.keys);
    });

    it('gives what a cold check gives after written results, seeds and forces are edited along a campaign', async () => {
        const campaigns = [await chain('file:///pieces/chain-random-written.battle', 10), ...['campaign', 'broken-campaign', 'loose-files-turn', 'cowpens'].map(name => texts[EXAMPLES.indexOf(name)])];
        const before = factory.counts.pieces;
        let compared = 0;
        await fc.assert(fc.asyncProperty(fc.integer({ min: 0, max: campaigns.length - 1 }), fc.array(edit, { minLength: 1, maxLength: 6 }), async (which, edits) => {
            const uri = `file:///pieces/campaign-${which}.battle`;
            let text = campaigns[which];
            await editorBuilds({ [uri]: text }, 1);
            for (const [i, e] of edits.entries()) {
                text = apply(text, e);
                const warm = (await editorBuilds({ [uri]: text }, i + 2))[uri];
                const coldDoc = await coldDocument(text);
                expect(staleActions(warm)).toEqual(staleActions(coldDoc));
                expect(seen(warm, () => [])).toEqual(seen(coldDoc, () => []));
                expect(inputKeysOf(warm)).toEqual(inputKeysOf(coldDoc));
                compared++;
            }
        }), { numRuns: 40, seed: 20261202 });
        expect(compared).toBeGreaterThan(60);
        expect(factory.counts.pieces - before).toBeGreaterThan(30);
    }, 300_000);

    it('gives what a cold check gives after edits in the header, near the top, and in an action later ones read', async () => {
        // The keys follow the units an action names to the last step that can change each (src/core/model-cache.ts):
        // an edit near the top changes the keys of the later actions that read what it writes, and of no other.
        // The chain's engagements each read the one before; the benchmark's campaign names the next engagement's
        // units only in a factor line; the Loose Files examples read their turns as a whole.
        const campaigns = [await chain('file:///pieces/chain-top-written.battle', 10), benchCampaign(160), ...['campaign', 'loose-files-turn', 'cowpens'].map(name => texts[EXAMPLES.indexOf(name)])];
        const nearTop = fc.oneof(
            edit.map(e => ({ ...e, at: e.at * 0.2 })),
            // A character typed into the scenario's title, or the title's last character deleted.
            fc.record({ title: fc.constantFrom('a', ' ', '"', '1', ''), where: fc.double({ min: 0, max: 1, noNaN: true }) }),
            // What the whole file means changed in its header: the rule set it names, an option, a seal.
            fc.record({ header: fc.constantFrom(...HEADER_CHANGES) })
        );
        let compared = 0, headerInPieces = 0;
        await fc.assert(fc.asyncProperty(fc.integer({ min: 0, max: campaigns.length - 1 }), fc.array(nearTop, { minLength: 1, maxLength: 6 }), async (which, edits) => {
            const uri = `file:///pieces/top-${which}.battle`;
            let text = campaigns[which];
            await editorBuilds({ [uri]: text }, 1);
            for (const [i, e] of edits.entries()) {
                text = 'title' in e ? typeInTitle(text, e.title, e.where) : 'header' in e ? changeHeader(text, e.header) : apply(text, e);
                const pieces = factory.counts.pieces;
                const warm = (await editorBuilds({ [uri]: text }, i + 2))[uri];
                if ('header' in e && factory.counts.pieces > pieces) headerInPieces++;
                const coldDoc = await coldDocument(text);
                expect(seen(warm, () => [])).toEqual(seen(coldDoc, () => []));
                expect(inputKeysOf(warm)).toEqual(inputKeysOf(coldDoc));
                compared++;
            }
        }), { numRuns: 30, seed: 20261203 });
        expect(compared).toBeGreaterThan(40);
        // The header's changes were parsed in pieces (their diagnostics all the same those of a cold check).
        expect(headerInPieces).toBeGreaterThan(10);
    }, 300_000);

    /** Changes of the header that change what the file means: another rule set named, an option added or taken out, a seal written. */
    const HEADER_CHANGES = ['rules ancients', 'rules scrud', 'rules loose-files', 'rules unknown', 'option pooled', 'option flee-losses', 'option die d8', 'option break-die d6', 'no option', 'seal'] as const;

    function changeHeader(text: string, change: typeof HEADER_CHANGES[number]): string {
        const rules = /^rules [\w-]+ *$/m.exec(text);
        const afterRules = rules ? rules.index + rules[0].length : text.indexOf('\n', text.indexOf('scenario "')) ;
        if (change.startsWith('rules ')) return rules ? text.slice(0, rules.index) + change + text.slice(afterRules) : text;
        if (change === 'no option') return text.replace(/^option [^\n]*\n/m, '');
        const line = change === 'seal' ? 'seal "sha256:de3205d30cefe4fa30f2847af0a3d334297b96cb008a568e7c91e8f69da8bc95"' : change;
        // Options go after the rules line (and before any seal); a seal after the options.
        const options = [...text.matchAll(/^option [^\n]*\n/gm)];
        const at = change === 'seal' && options.length > 0 ? options[options.length - 1].index + options[options.length - 1][0].length : afterRules + 1;
        return text.slice(0, at) + line + '\n' + text.slice(at);
    }

    /** `char` typed at a place in the `scenario "…"` line's title (`''`: the character there deleted). */
    function typeInTitle(text: string, char: string, where: number): string {
        const open = text.indexOf('scenario "');
        if (open < 0) return text;
        const from = open + 'scenario "'.length, to = text.indexOf('"', from);
        const at = from + Math.floor(where * (to - from));
        return char === '' ? text.slice(0, at) + text.slice(at + 1) : text.slice(0, at) + char + text.slice(at);
    }

    it('keeps the keys and checks of the actions an early edit cannot reach, and every key when the title changes', async () => {
        const check = keptChecker('file:///pieces/reach.battle');
        // The benchmark's campaign: engagement k's units fight nowhere else, but for the two of force k − 1 it
        // attacks, which engagement k − 1 names only in its factor line (a factor changes no unit's state).
        const text: string = benchCampaign(200);
        const first = await check(text);
        const count = first.keys.length;
        expect(count).toBeGreaterThan(15);
        // E2's seed changed: E2 is worked again; E3, which names E2's units only through their factor line, is not.
        const e2 = text.indexOf('  seed 2\n');
        const reseeded = await check(`${text.slice(0, e2)}  seed 12${text.slice(e2 + '  seed 2'.length)}`);
        expect(reseeded.keys.filter((k, i) => k !== first.keys[i])).toHaveLength(1);
        expect(reseeded.keys[1]).not.toBe(first.keys[1]);
        expect(reseeded.kept).toBe(count - 1);
        // E2 now attacks with the units E3 attacks: E3 reads what E2 writes, and so is worked again too.
        const sharing = text.replace('  F2.Guard, F2.Line#1 attacks F1.Line#2, F1.Hussars', '  F2.Line#2, F2.Hussars attacks F1.Line#2, F1.Hussars');
        expect(sharing).not.toBe(text);
        const shared = await check(sharing);
        expect(shared.keys.filter((k, i) => k !== first.keys[i])).toHaveLength(2);
        expect(shared.keys[2]).not.toBe(first.keys[2]);
        // The title typed longer: no action reads it, and every key stays; the header alone is parsed again, so
        // every element is the same node and every action's campaign checks are kept.
        const pieces = factory.counts.pieces;
        const titled = await check(sharing.replace('scenario "Benchmark"', 'scenario "Benchmark of the north"'));
        expect(factory.counts.pieces).toBe(pieces + 1);
        expect(titled.keys).toEqual(shared.keys);
        expect(titled.kept).toBe(count);
        // Another rule set named: parsed in pieces too, and the checks made again under it (a cold check's diagnostics).
        const ancients = await check(sharing.replace('rules scrud', 'rules ancients'));
        expect(factory.counts.pieces).toBe(pieces + 2);
        expect(ancients.kept).toBe(0);
    });

    it('continues the campaign timeline up to the first action that names an edited force, and answers as a cold check', async () => {
        const uri = 'file:///pieces/force-edited.battle';
        // Each engagement written in turn (E_k: F_k attacks F_(k-1)); force F5 is first named by E5, the fifth step.
        const text = await chain('file:///pieces/force-edited-chain.battle', 10);
        const f5 = text.indexOf('force F5 {\n  unit Line foot Veteran x2');
        expect(f5).toBeGreaterThan(0);
        const open = f5 + 'force F5 {'.length, count = f5 + 'force F5 {\n  unit Line foot Veteran x'.length;
        const edits = [
            // White space typed into the force: a new node, the same units.
            text.slice(0, open) + ' ' + text.slice(open),
            // One more unit: E5 and E6 name it through the whole force.
            text.slice(0, count) + '3' + text.slice(count + 1),
            // Back as it was.
            text
        ];
        // Every unit's state at the end of the file, as the status view reads it (the timeline built).
        const atEnd = (doc: LangiumDocument) => [...stateAtEnd(modelOf(doc.parseResult.value as Scenario))];
        atEnd((await editorBuilds({ [uri]: text }, 1))[uri]);
        for (const [i, now] of edits.entries()) {
            const before = timelineCounts.stepsKept, taken = timelineCounts.taken;
            const warm = (await editorBuilds({ [uri]: now }, i + 2))[uri];
            const states = atEnd(warm);
            // White space in the force leaves its units as they were: the whole timeline is taken over.
            expect(timelineCounts.stepsKept - before).toBe(i === 0 ? 0 : 4);
            expect(timelineCounts.taken - taken).toBe(i === 0 ? 1 : 0);
            const coldDoc = await coldDocument(now);
            expect(states).toEqual(atEnd(coldDoc));
            expect(seen(warm, () => [])).toEqual(seen(coldDoc, () => []));
        }
        // The unit added is in the state at the end, and the units of E6 onwards read what it changed.
        expect(atEnd(await coldDocument(edits[1])).map(([id]) => id)).toContain('F5.Line#3');
    });

    it('takes over the rest of the campaign timeline past an engagement that reads as it did, and answers as a cold check', async () => {
        // Written outcomes along a chain (each engagement reads the states the one before left), then the same
        // chain with its later outcomes not written yet: settled results, worked out only when read.
        const written = await chain('file:///pieces/swap-chain.battle', 10);
        const cut = written.indexOf('engagement E6 {');
        const unwritten = written.slice(0, cut) + written.slice(cut).replace(/\n[ \t]*outcome [^\n]*\{\n[\s\S]*?\n[ \t]*\}(?=\n[ \t]*\})/g, '');
        expect(unwritten).not.toEqual(written);
        for (const [n, text] of [written, unwritten].entries()) {
            const uri = `file:///pieces/swapped-${n}.battle`;
            const atEnd = (doc: LangiumDocument) => [...stateAtEnd(modelOf(doc.parseResult.value as Scenario))];
            atEnd((await editorBuilds({ [uri]: text }, 1))[uri]);
            const e3 = text.indexOf('engagement E3 {') + 'engagement E3 {'.length;
            const e7 = text.indexOf('engagement E7 {') + 'engagement E7 {'.length;
            const f8 = text.indexOf('force F8 {') + 'force F8 {'.length;
            const steps = 9;
            const spaced = text.slice(0, e3) + '  ' + text.slice(e3, e7) + '\n' + text.slice(e7, f8) + ' ' + text.slice(f8);
            // `keys`: whether the actions' keys were taken from the last model's as they were (its steps reading alike).
            // `inPlace`: whether the last timeline was taken over with its swapped nodes' entries moved to the new nodes.
            const edits: Array<{ text: string, swapped: number, kept: number, taken: number, inPlace: number, keys: number }> = [
                // A space typed in an engagement: a new node that reads as the old one did.
                { text: text.slice(0, e3) + '  ' + text.slice(e3), swapped: 1, kept: steps, taken: 0, inPlace: 1, keys: 1 },
                // Then one further down (the first is the node the last timeline holds).
                { text: text.slice(0, e3) + '  ' + text.slice(e3, e7) + '\n' + text.slice(e7), swapped: 1, kept: steps, taken: 0, inPlace: 1, keys: 1 },
                // White space typed into a force: every step is the node it was.
                { text: spaced, swapped: 0, kept: 0, taken: 1, inPlace: 0, keys: 1 },
                // A seed changed: E3 reads otherwise, and the timeline is built again from it.
                { text: spaced.replace('  seed 5', '  seed 6'), swapped: 0, kept: 2, taken: 0, inPlace: 0, keys: 0 }
            ];
            const rebuilt = timelineCounts.rebuilt;
            for (const [i, e] of edits.entries()) {
                const was = { ...timelineCounts }, keysWere = keyedCounts.taken;
                const warm = (await editorBuilds({ [uri]: e.text }, i + 2))[uri];
                const states = atEnd(warm);
                expect(timelineCounts.swapped - was.swapped).toBe(e.swapped);
                expect(timelineCounts.stepsKept - was.stepsKept).toBe(e.kept);
                expect(timelineCounts.taken - was.taken).toBe(e.taken);
                expect(timelineCounts.takenSwapped - was.takenSwapped).toBe(e.inPlace);
                expect(keyedCounts.taken - keysWere).toBe(e.keys);
                const coldDoc = await coldDocument(e.text);
                expect(states).toEqual(atEnd(coldDoc));
                expect(inputKeysOf(warm)).toEqual(inputKeysOf(coldDoc));
                expect(seen(warm, () => [])).toEqual(seen(coldDoc, () => []));
            }
            // No build read a model of an earlier version once its timeline was taken over.
            expect(timelineCounts.rebuilt).toBe(rebuilt);
        }
    });

    it('gives a model of an earlier version read after its timeline was taken over its own answers, built again', async () => {
        const uri = 'file:///pieces/swap-then-old.battle';
        const text = (await chain('file:///pieces/swap-old-chain.battle', 6)).replace(/\n[ \t]*outcome [^\n]*\{\n[\s\S]*?\n[ \t]*\}(?=\n[ \t]*\})/g, '');
        const first = (await editorBuilds({ [uri]: text }, 1))[uri];
        const oldModel = modelOf(first.parseResult.value as Scenario);
        const statesBefore = [...stateAtEnd(oldModel)];
        const e3 = text.indexOf('engagement E3 {') + 'engagement E3 {'.length;
        const was = { ...timelineCounts };
        const warm = (await editorBuilds({ [uri]: text.slice(0, e3) + ' ' + text.slice(e3) }, 2))[uri];
        const newModel = modelOf(warm.parseResult.value as Scenario);
        expect(stateAtEnd(newModel).size).toBeGreaterThan(0);
        expect(timelineCounts.takenSwapped - was.takenSwapped).toBe(1);
        // The old model's engagement E3 is a node the taken-over timeline no longer holds: it reads a timeline of its own.
        const oldE3 = oldModel.actions.find(a => a.node.name === 'E3')!;
        expect(newModel.actions.find(a => a.node.name === 'E3')!.node).not.toBe(oldE3.node);
        expect([...stateAtEnd(oldModel)]).toEqual(statesBefore);
        expect(settledOf(oldModel, oldE3)?.lines).toEqual(settledOf(newModel, newModel.actions.find(a => a.node.name === 'E3')!)?.lines);
        expect(timelineCounts.rebuilt - was.rebuilt).toBe(1);
        // The file's timeline is still the one the next edit continues.
        const again = { ...timelineCounts };
        await editorBuilds({ [uri]: text.slice(0, e3) + '  ' + text.slice(e3) }, 3);
        expect(timelineCounts.takenSwapped - again.takenSwapped).toBe(1);
    });

    it('takes over a turn that reads as it did, its elements under their new nodes, and answers as a cold check', async () => {
        const uri = 'file:///pieces/swapped-turns.battle';
        const text = turnsCampaign(400, 5) as string;
        const atEnd = (doc: LangiumDocument) => [...stateAtEnd(modelOf(doc.parseResult.value as Scenario))];
        atEnd((await editorBuilds({ [uri]: text }, 1))[uri]);
        const inTurn = text.indexOf('engagement E3 {') + 'engagement E3 {'.length;
        const now = text.slice(0, inTurn) + ' ' + text.slice(inTurn);
        const was = { ...timelineCounts }, keysWere = keyedCounts.taken;
        const warm = (await editorBuilds({ [uri]: now }, 2))[uri];
        const states = atEnd(warm);
        expect(timelineCounts.swapped - was.swapped).toBeGreaterThan(0);
        expect(timelineCounts.takenSwapped - was.takenSwapped).toBe(1);
        expect(timelineCounts.rebuilt).toBe(was.rebuilt);
        expect(keyedCounts.taken - keysWere).toBe(1);
        const coldDoc = await coldDocument(now);
        expect(states).toEqual(atEnd(coldDoc));
        expect(inputKeysOf(warm)).toEqual(inputKeysOf(coldDoc));
        expect(seen(warm, () => [])).toEqual(seen(coldDoc, () => []));
    });
});

/**
 * A tree as plain data: every CST node (offsets, positions, text, kind), every AST node and what its references
 * point at (with `linked`; else the names they give: a tree parsed without a document is not linked), and the syntax errors.
 */
function treeOf(result: ParseResult<Scenario>, linked = true): unknown {
    const cst: string[] = [];
    const root = result.value.$cstNode!;
    const walk = (node: CstNode, parent: CstNode | undefined) => {
        const r = node.range;
        const n = node as CstNode & { content?: CstNode[], _astNode?: { $type: string } };
        if (node.root !== root) cst.push('foreign root');
        if (parent && node.container !== parent) cst.push('wrong container');
        const kind = n.content ? `${n.grammarSource?.$type ?? ''}/${n._astNode?.$type ?? ''}` : `${(node as LeafCstNode).tokenType.name} ${JSON.stringify(node.text)}`;
        cst.push(`${node.offset}-${node.end} ${r.start.line}:${r.start.character}-${r.end.line}:${r.end.character} ${node.hidden} ${kind}`);
        for (const child of n.content ?? []) walk(child, node);
    };
    walk(root, undefined);
    const ast = AstUtils.streamAst(result.value).map(node => {
        const own = Object.entries(node).filter(([k]) => !k.startsWith('$')).map(([k, v]) => {
            // A kept link must point into this tree, not at a node of an element the edit replaced.
            const where = (x: { ref?: AstNode }) => x.ref ? `${x.ref.$cstNode?.offset}${AstUtils.findRootNode(x.ref) === result.value ? '' : ' in another tree'}` : 'none';
            const show = (x: unknown): unknown => isReference(x) ? `ref ${x.$refText}${linked ? ` -> ${where(x)}` : ''}` : typeof x === 'object' && x !== null && '$type' in x ? `node ${(x as { $type: string }).$type}` : x;
            return [k, Array.isArray(v) ? v.map(show) : show(v)];
        });
        const parentOk = node.$container ? (node.$container as unknown as Record<string, unknown>)[node.$containerProperty!] !== undefined : true;
        return { type: node.$type, in: node.$containerProperty, at: node.$containerIndex, cst: `${node.$cstNode?.offset}-${node.$cstNode?.end}`, own, parentOk, astOfCst: node.$cstNode?.astNode === node };
    }).toArray();
    const lexer = result.lexerErrors.map(e => ({ offset: e.offset, line: e.line, column: e.column, length: e.length, message: e.message }));
    const parser = result.parserErrors.map(e => ({ message: e.message, token: [e.token.startOffset, e.token.endOffset, e.token.startLine, e.token.startColumn, e.token.endLine, e.token.endColumn, e.token.image] }));
    return { cst, ast, lexer, parser };
}

/**
 * The parse in pieces moves what follows an edit per element, not per leaf (src/language/battle-cst.ts,
 * "Positions moved per element"): a leaf's offset and lines are kept relative to its element's base (a turn's
 * own element to its own, chained to the turn's), and its range object is brought up to date when read.
 * Random edit sequences parsed in pieces straight (no build between them), with the positions read never,
 * at random, or always between edits, must leave every CST node's offset, end, length, text and range
 * (leaves and composite nodes alike, and range objects read before the edits, read again) those of a
 * parse of the whole text.
 */
describe('positions moved per element by the parse in pieces', () => {
    const parser = services.Battle.parser.LangiumParser;
    const parse = (text: string) => parser.parse<Scenario>(text);
    const nodesOf = (root: CstNode) => {
        const all: CstNode[] = [];
        const walk = (node: CstNode) => {
            all.push(node);
            for (const child of (node as { content?: CstNode[] }).content ?? []) walk(child);
        };
        walk(root);
        return all;
    };
    const placesOf = (result: ParseResult<Scenario>) => nodesOf(result.value.$cstNode!).map(n => {
        const r = n.range;
        return `${n.offset}-${n.end}+${n.length} ${r.start.line}:${r.start.character}-${r.end.line}:${r.end.character} ${n.hidden} ${'content' in n} ${JSON.stringify(n.text)}`;
    });
    const errorsOf = (result: ParseResult<Scenario>) => [
        ...result.lexerErrors.map(e => `${e.offset} ${e.line}:${e.column} ${e.message}`),
        ...result.parserErrors.map(e => `${e.token.startOffset}-${e.token.endOffset} ${e.token.startLine}:${e.token.startColumn}-${e.token.endLine}:${e.token.endColumn} ${e.message}`)
    ];
    // Elements on one line with the next, comments between and across lines, turns, a header: where the edit's end line matters.
    const sameLine = 'scenario "Lines"\nrules scrud\ngrade Veteran +1 grade Raw -1 /* two\nlines */ modifier Uphill -1\n'
        + 'force A { unit Line foot x2 } force B { unit Line foot x2\n  unit Horse horse } // b\n'
        + 'turn 1 { engagement E1 { A attacks B\n seed 3 } engagement E2 { B attacks A seed 4 }\n  /* in the turn */ engagement E3 {\n  A attacks B\n  seed 5\n } }\n'
        + 'turn 2 {\n  engagement E4 { A attacks B seed 6 } /* after */ engagement E5 { B attacks A\n seed 7 }\n}\nengagement E6 { A attacks B seed 8 } // end\n';
    const files: string[] = [sameLine, turnsCampaign(400, 6), ...texts];

    type Edit = { at: number, kind: 'type' | 'delete' | 'start', char: string, size: number };
    const edit = fc.record({
        at: fc.noBias(fc.integer({ min: 0, max: 9999 })).map(n => n / 10000),
        kind: fc.constantFrom('type', 'type', 'delete', 'start', 'start'),
        char: fc.constantFrom(' ', '\n', 'a', 'xy', '1', '\n\n', '\r\n', ' // c\n', '/* c */', 'é', '}', '{', 'seed 9 ', 'grade G +1 ', 'engagement Z { A attacks B }\n'),
        size: fc.integer({ min: 1, max: 5 })
    }) as fc.Arbitrary<Edit>;

    function apply(text: string, e: Edit): string {
        const at = Math.floor(e.at * text.length);
        if (e.kind === 'delete') return text.slice(0, at) + text.slice(at + e.size);
        if (e.kind === 'start') {
            // Just before a word that starts an element or a line of one: often on the line of the next element.
            const starts = [...text.matchAll(/\b(grade|modifier|force|engagement|turn|unit|seed|A attacks)\b/g)].map(m => m.index);
            const s = starts.length > 0 ? starts[Math.floor(e.at * starts.length) % starts.length] : at;
            return text.slice(0, s) + e.char + text.slice(s);
        }
        return text.slice(0, at) + e.char + text.slice(at);
    }

    it('gives every node the offsets and ranges of a whole parse, whether or not positions were read between edits', () => {
        let inPieces = 0, compared = 0;
        fc.assert(fc.property(fc.integer({ min: 0, max: files.length - 1 }), fc.constantFrom('never', 'some', 'always'), fc.array(edit, { minLength: 1, maxLength: 12 }), fc.integer(), (which, reads, edits, seed) => {
            let text = files[which];
            let result = parse(text);
            let random = seed;
            const pick = () => (random = (random * 1103515245 + 12345) & 0x7fffffff) / 0x7fffffff;
            // Range objects read before the edits: read again through their nodes, they must be right.
            const held: CstNode[] = [];
            for (const [i, e] of edits.entries()) {
                if (reads !== 'never') {
                    const nodes = nodesOf(result.value.$cstNode!);
                    for (const node of nodes) {
                        if (reads === 'always' || pick() < 0.2) {
                            void node.range;
                            void node.offset;
                            if (i === 0 && pick() < 0.1) held.push(node);
                        }
                    }
                }
                text = apply(text, e);
                const spliced = reparsePiece(result, text, parse);
                if (spliced) inPieces++;
                result = spliced ?? parse(text);
            }
            const whole = parse(text);
            expect(placesOf(result)).toEqual(placesOf(whole));
            expect(errorsOf(result)).toEqual(errorsOf(whole));
            // A node kept from before the edits (not replaced by a piece) is where a whole parse puts it.
            const kept = new Set(nodesOf(result.value.$cstNode!));
            const at = new Map(nodesOf(whole.value.$cstNode!).map(n => [`${n.offset}-${n.end} ${'content' in n}`, n]));
            for (const node of held.filter(n => kept.has(n))) {
                const same = at.get(`${node.offset}-${node.end} ${'content' in node}`);
                expect(same, node.text).toBeDefined();
                expect(node.range).toEqual(same!.range);
            }
            compared++;
        }), { numRuns: 150, seed: 20261207 });
        expect(compared).toBe(150);
        expect(inPieces).toBeGreaterThan(400);
    }, 300_000);

    // Edits in the header (title, rules line, options, seal, comments) and at the very start of the first element.
    type HeaderEdit = { at: number, kind: 'type' | 'delete' | 'title' | 'first', char: string, size: number };
    const headerEdit = fc.record({
        at: fc.noBias(fc.integer({ min: 0, max: 9999 })).map(n => n / 10000),
        kind: fc.constantFrom('type', 'type', 'delete', 'title', 'title', 'first'),
        char: fc.constantFrom(' ', '\n', 'a', 'x', '1', '"', '\r\n', ' // c\n', '/* c */', '/*', '*/', 'é', '{', '}', 'rules ancients\n', 'rules scrud ',
            'option pooled\n', 'option die d8 ', 'option break-die d6\n', 'seal "s"\n', 'scenario "T" ', 'grade G +1\n', 'engagement Z { A attacks B }\n', 'turn '),
        size: fc.integer({ min: 1, max: 4 })
    }) as fc.Arbitrary<HeaderEdit>;
    const headerFiles: string[] = [sameLine, 'scenario "Options"\nrules scrud\noption pooled\noption die d8 // the die\n/* a note */\ngrade G +1\nforce A { unit Line foot x2 }\nforce B { unit Line foot }\nengagement E { A attacks B seed 1 }\n',
        ...texts.filter(t => /^scenario /m.test(t))];

    function applyHeader(text: string, e: HeaderEdit, firstStart: number): string {
        if (e.kind === 'title') {
            const open = text.indexOf('scenario "');
            if (open >= 0) {
                const from = open + 'scenario "'.length, to = Math.max(from, text.indexOf('"', from));
                const at = from + Math.floor(e.at * (to - from + 1));
                return e.size === 1 ? text.slice(0, at) + text.slice(at + 1) : text.slice(0, at) + e.char + text.slice(at);
            }
        }
        // In the header, or at the first element's first character (`first`): the edit touches it.
        const at = e.kind === 'first' ? firstStart : Math.floor(e.at * (firstStart + 1));
        if (e.kind === 'delete') return text.slice(0, at) + text.slice(at + e.size);
        return text.slice(0, at) + e.char + text.slice(at);
    }

    it('parses an edit in the header, or at the very start of the first element, in pieces: the tree, errors and kept elements of a whole parse', () => {
        let spliced = 0, headerOnly = 0, compared = 0;
        fc.assert(fc.property(fc.integer({ min: 0, max: headerFiles.length - 1 }), fc.array(headerEdit, { minLength: 1, maxLength: 10 }), fc.boolean(), (which, edits, read) => {
            let text = headerFiles[which];
            let result = parse(text);
            for (const e of edits) {
                if (read) for (const node of nodesOf(result.value.$cstNode!)) void node.range;
                const before = result.value.elements;
                text = applyHeader(text, e, before[0]?.$cstNode?.offset ?? 0);
                const piece = reparsePiece(result, text, parse);
                if (piece) {
                    spliced++;
                    // Every element after the piece is the previous tree's node; a change in the header alone keeps the first element too.
                    const now = piece.value.elements;
                    const keptTail = now.filter(el => before.includes(el));
                    expect(keptTail).toEqual(before.slice(before.length - keptTail.length));
                    if (keptTail.length === before.length && before.length > 0) headerOnly++;
                }
                result = piece ?? parse(text);
                const whole = parse(text);
                expect(treeOf(result, false)).toEqual(treeOf(whole, false));
                expect(placesOf(result)).toEqual(placesOf(whole));
                expect(errorsOf(result)).toEqual(errorsOf(whole));
                compared++;
            }
        }), { numRuns: 200, seed: 20261202 });
        expect(compared).toBeGreaterThan(800);
        // Most header edits are spliced, most of those keeping every element (the first one's start untouched).
        expect(spliced).toBeGreaterThan(compared / 2);
        expect(headerOnly).toBeGreaterThan(spliced / 3);
    }, 300_000);

    it('types into the title of a big file parsing the header alone, every element kept', () => {
        const text: string = benchCampaign(2000);
        let result = parse(text);
        const elements = result.value.elements;
        let edited = text;
        for (const ch of ' of the north') {
            const at = edited.indexOf('"', edited.indexOf('scenario "') + 'scenario "'.length);
            edited = edited.slice(0, at) + ch + edited.slice(at);
            const piece = reparsePiece(result, edited, parse);
            expect(piece).toBeDefined();
            result = piece!;
            expect(result.value.elements).toHaveLength(elements.length);
            expect(result.value.elements.every((el, i) => el === elements[i])).toBe(true);
        }
        expect(result.value.title).toBe('Benchmark of the north');
        expect(placesOf(result)).toEqual(placesOf(parse(edited)));
        // The rules line naming another rule set: the header parsed again, the elements kept.
        const ancients = edited.replace('rules scrud', 'rules ancients');
        const again = reparsePiece(result, ancients, parse);
        expect(again?.value.rules).toBe('ancients');
        expect(again!.value.elements.every((el, i) => el === elements[i])).toBe(true);
        expect(treeOf(again!, false)).toEqual(treeOf(parse(ancients), false));
    });

    it('moves the elements after an edit by their bases, without touching their leaves', () => {
        const text: string = turnsCampaign(2000, 50);
        const first = parse(text);
        const lastTurn = first.value.elements[first.value.elements.length - 1];
        const leaves = nodesOf(lastTurn.$cstNode!).filter(n => !('content' in n));
        // What a leaf keeps of its own place (relative to its element's base).
        const own = (leaf: CstNode) => { const l = leaf as unknown as { _offset: number, _startLine: number }; return `${l._offset} ${l._startLine}`; };
        const before = leaves.map(own);
        expect(before.every(place => /^\d+ \d+$/.test(place))).toBe(true);
        const offsets = leaves.map(l => l.offset);
        // Two lines typed at the top of the first force: every later leaf moves, none is visited.
        const at = text.indexOf('unit');
        const edited = text.slice(0, at) + 'unit Guard foot\n  unit Horse horse\n  ' + text.slice(at);
        const result = reparsePiece(first, edited, parse);
        expect(result).toBeDefined();
        expect(leaves.map(own)).toEqual(before);
        const added = edited.length - text.length;
        expect(leaves.map(l => l.offset)).toEqual(offsets.map(o => o + added));
        expect(placesOf(result!)).toEqual(placesOf(parse(edited)));
        // And an edit inside a turn moves the turn's later elements by theirs.
        const inTurn = edited.replace('seed 80\n', 'seed 800\n');
        const again = reparsePiece(result!, inTurn, parse);
        expect(again).toBeDefined();
        expect(leaves.map(own)).toEqual(before);
        expect(placesOf(again!)).toEqual(placesOf(parse(inTurn)));
    });
});
