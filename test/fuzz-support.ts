/**
 * What the fuzz tests (test/fuzz-*.test.ts) and the large run (scripts/fuzz.mjs, `npm run fuzz`) share:
 * inputs mutated from the files in examples/, and the checks every input must pass.
 *
 * A check returns the list of broken properties (empty when all hold) and lets exceptions escape: an
 * exception out of parse, link, validate or an LSP provider is itself a failure.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import fc from 'fast-check';
import { TextDocument, URI, type LangiumDocument } from 'langium';
import type { CodeAction, Command, Diagnostic, Position, Range, TextEdit } from 'vscode-languageserver';
import type { Scenario } from '../src/language/generated/ast.js';
import { modelOf } from '../src/core/model-cache.js';
import { isUnresolvable, resolveAction } from '../src/core/resolve.js';
import { hasOdds, oddsForAction } from '../src/core/odds.js';
import { services } from './support/services.js';

export { services };
const { shared, Battle } = services;

export interface Example { name: string, text: string }

/** Every example scenario, read once. */
export function examples(dir = path.resolve('examples')): Example[] {
    return fs.readdirSync(dir).filter(f => f.endsWith('.battle')).sort()
        .map(name => ({ name, text: fs.readFileSync(path.join(dir, name), 'utf8') }));
}

// ---------------------------------------------------------------- building documents

let counter = 0;

/** Parses, links and validates `text` as the server does, under a URI of its own. */
export async function build(text: string, name = `fuzz-${counter++ % 4}`): Promise<LangiumDocument<Scenario>> {
    const uri = URI.parse(`file:///fuzz/${name}.battle`);
    const documents = shared.workspace.LangiumDocuments;
    if (documents.hasDocument(uri)) documents.deleteDocument(uri);
    shared.workspace.IndexManager.remove(uri);
    const doc = shared.workspace.LangiumDocumentFactory.fromTextDocument<Scenario>(TextDocument.create(uri.toString(), 'battle', 1, text));
    documents.addDocument(doc);
    await shared.workspace.DocumentBuilder.build([doc], { validation: true });
    return doc;
}

// ---------------------------------------------------------------- mutations

/** The text cut into tokens that keep every character: words, numbers, strings, comments, blanks, single characters. */
function tokenize(text: string): string[] {
    return text.match(/\s+|"(?:\\.|[^"\\\r\n])*"|\/\/[^\n]*|\/\*[\s\S]*?\*\/|[A-Za-z_][\w-]*|\d+|[\s\S]/gu) ?? [];
}

/** Numbers a file may say that no loop or allocation can follow blindly. */
const HUGE_NUMBERS = [
    '1000000000', '99999999999999999999', '4294967296', '4294967295', '2147483648', '9007199254740993',
    '1e308', '0', '00000000000000000000001', '-1', '-99999999999999999999'
];

const WORDS = [
    'scenario', 'rules', 'scrud', 'ancients', 'loose-files', 'option', 'pooled', 'grade', 'modifier', 'force', 'unit',
    'turn', 'state', 'ruling', 'engagement', 'fire', 'move', 'morale', 'redress', 'command', 'attacks', 'factor', 'on',
    'dice', 'seed', 'first', 'vs', 'fires', 'sees', 'inspires', 'rallies', 'at', 'front', 'flank', 'rear', 'split',
    'outcome', 'entered', 'check', 'summary', 'x2', 'x1000000000', 'x0', '#', '.', ':', ',', '{', '}', '+', '-', '"', '"x"', '/*', '//'
];

const junk: fc.Arbitrary<string> = fc.oneof(
    fc.constantFrom(...WORDS),
    fc.constantFrom(...HUGE_NUMBERS),
    fc.constantFrom(...HUGE_NUMBERS).map(n => `x${n}`),
    fc.string({ unit: 'binary', maxLength: 12 }),
    fc.string({ unit: 'grapheme', maxLength: 8 }),
    fc.uint8Array({ maxLength: 40 }).map(bytes => Buffer.from(bytes).toString('latin1')),
    fc.constantFrom('\r\n', '\r', '\n', '\t', '\u2028', '\uFEFF', '\u0000', '\uD800', 'é', '⚔', '🎲', '\u202E'),
    fc.integer({ min: 1, max: 300 }).map(n => '{'.repeat(n)),
    fc.integer({ min: 1, max: 300 }).map(n => '}'.repeat(n)),
    fc.integer({ min: 1, max: 20_000 }).map(n => 'a'.repeat(n)),
    fc.integer({ min: 1, max: 2_000 }).map(n => ' 6'.repeat(n)),
    fc.integer({ min: 1, max: 500 }).map(n => 'Line#1, '.repeat(n))
);

type Mutation =
    | { kind: 'delete', at: number, length: number }
    | { kind: 'duplicate', at: number, length: number }
    | { kind: 'swap', a: number, b: number }
    | { kind: 'insert', at: number, text: string }
    | { kind: 'number', at: number, value: string }
    | { kind: 'crlf' };

const mutation: fc.Arbitrary<Mutation> = fc.oneof(
    fc.record({ kind: fc.constant('delete' as const), at: fc.nat(), length: fc.integer({ min: 1, max: 8 }) }),
    fc.record({ kind: fc.constant('duplicate' as const), at: fc.nat(), length: fc.integer({ min: 1, max: 40 }) }),
    fc.record({ kind: fc.constant('swap' as const), a: fc.nat(), b: fc.nat() }),
    fc.record({ kind: fc.constant('insert' as const), at: fc.nat(), text: junk }),
    fc.record({ kind: fc.constant('number' as const), at: fc.nat(), value: fc.constantFrom(...HUGE_NUMBERS) }),
    fc.constant({ kind: 'crlf' as const })
);

/** Applies the mutations to the example's tokens, in order. */
function mutate(text: string, mutations: readonly Mutation[]): string {
    let tokens = tokenize(text);
    for (const m of mutations) {
        const n = Math.max(tokens.length, 1);
        switch (m.kind) {
            case 'delete': tokens.splice(m.at % n, m.length); break;
            case 'duplicate': tokens.splice(m.at % n, 0, ...tokens.slice(m.at % n, m.at % n + m.length)); break;
            case 'swap': {
                const a = m.a % n, b = m.b % n;
                [tokens[a], tokens[b]] = [tokens[b] ?? '', tokens[a] ?? ''];
                break;
            }
            case 'insert': tokens.splice(m.at % (n + 1), 0, m.text); break;
            case 'number': {
                const numbers = tokens.map((t, i) => /^\d+$/.test(t) ? i : -1).filter(i => i >= 0);
                if (numbers.length > 0) tokens[numbers[m.at % numbers.length]] = m.value;
                break;
            }
            case 'crlf': tokens = tokenize(tokens.join('').replace(/\r?\n/g, '\r\n')); break;
        }
    }
    return tokens.join('');
}

/** An example with up to `max` mutations applied. */
export function mutatedExample(all: readonly Example[], max = 6): fc.Arbitrary<{ name: string, text: string }> {
    return fc.record({ example: fc.constantFrom(...all), mutations: fc.array(mutation, { minLength: 1, maxLength: max }) })
        .map(({ example, mutations }) => ({ name: example.name, text: mutate(example.text, mutations) }));
}

/** Whitespace and comments changed between tokens: the same scenario to the parser. */
export function respacedExample(all: readonly Example[]): fc.Arbitrary<{ name: string, text: string }> {
    const blank = fc.constantFrom(' ', '  ', '\t', '\n', '\r\n', '\n\n', ' // note\n', ' /* c */ ', '\n    ');
    return fc.record({ example: fc.constantFrom(...all), blanks: fc.array(fc.tuple(fc.nat(), blank), { minLength: 1, maxLength: 20 }) })
        .map(({ example, blanks }) => {
            const tokens = tokenize(example.text);
            const spaces = tokens.map((t, i) => /^\s+$/.test(t) ? i : -1).filter(i => i >= 0);
            for (const [at, b] of blanks) if (spaces.length) tokens[spaces[at % spaces.length]] = b;
            return { name: example.name, text: tokens.join('') };
        });
}

// ---------------------------------------------------------------- checks

/** Whether a position names a real place in the document (offset and back give the same position). */
function inside(doc: LangiumDocument, p: Position): boolean {
    if (!Number.isInteger(p.line) || !Number.isInteger(p.character) || p.line < 0 || p.character < 0) return false;
    const back = doc.textDocument.positionAt(doc.textDocument.offsetAt(p));
    return back.line === p.line && back.character === p.character;
}

/** Langium turns an exception in a validator into this diagnostic: for us it is a crash. */
const VALIDATOR_THREW = /^An error occurred (during validation|while resolving reference)/;

function rangeProblem(doc: LangiumDocument, what: string, r: Range | undefined): string | undefined {
    if (VALIDATOR_THREW.test(what.replace(/^diagnostic \S+ "/, ''))) return `a validator threw: ${what}`;
    if (!r) return `${what}: no range`;
    if (!inside(doc, r.start) || !inside(doc, r.end)) return `${what}: range ${JSON.stringify(r)} outside the document`;
    if (doc.textDocument.offsetAt(r.start) > doc.textDocument.offsetAt(r.end)) return `${what}: range ends before it starts`;
    return undefined;
}

const FORMAT = { tabSize: 2, insertSpaces: true };

/** Positions worth asking about: a few token starts and the very ends. */
function probes(doc: LangiumDocument, picks: readonly number[]): Position[] {
    const text = doc.textDocument.getText();
    const out: Position[] = [{ line: 0, character: 0 }, doc.textDocument.positionAt(text.length)];
    for (const p of picks) out.push(doc.textDocument.positionAt(text.length === 0 ? 0 : p % (text.length + 1)));
    return out;
}

/**
 * Every provider on the document, as the editor calls them. Returns broken properties; lets any
 * exception escape.
 */
export async function exercise(text: string, picks: readonly number[] = [7, 101, 997]): Promise<string[]> {
    const doc = await build(text);
    const problems: string[] = [];
    const id = { uri: doc.uri.toString() };
    const diagnostics: Diagnostic[] = doc.diagnostics ?? [];
    for (const d of diagnostics) {
        const p = rangeProblem(doc, `diagnostic ${String(d.code)} "${d.message}"`, d.range);
        if (p) problems.push(p);
    }
    if (diagnostics.length > 201) problems.push(`${diagnostics.length} diagnostics published (cap is 200 + 1)`);
    for (const position of probes(doc, picks)) {
        await Battle.lsp.HoverProvider!.getHoverContent(doc, { textDocument: id, position });
        const completion = await Battle.lsp.CompletionProvider!.getCompletion(doc, { textDocument: id, position });
        for (const item of completion?.items ?? []) {
            const edit = item.textEdit as TextEdit | undefined;
            if (edit && 'range' in edit) { const p = rangeProblem(doc, `completion '${item.label}'`, edit.range); if (p) problems.push(p); }
        }
    }
    for (const lens of await Battle.lsp.CodeLensProvider!.provideCodeLens(doc, { textDocument: id }) ?? []) {
        const p = rangeProblem(doc, `code lens ${lens.command?.title}`, lens.range); if (p) problems.push(p);
    }
    const whole = { start: { line: 0, character: 0 }, end: doc.textDocument.positionAt(doc.textDocument.getText().length) };
    for (const hint of await Battle.lsp.InlayHintProvider!.getInlayHints(doc, { textDocument: id, range: whole }) ?? []) {
        if (!inside(doc, hint.position)) problems.push(`inlay hint at ${JSON.stringify(hint.position)} outside the document`);
    }
    for (const edit of await Battle.lsp.Formatter!.formatDocument(doc, { textDocument: id, options: FORMAT })) {
        const p = rangeProblem(doc, 'formatting edit', edit.range); if (p) problems.push(p);
    }
    const actions = await Battle.lsp.CodeActionProvider!.getCodeActions(doc, { textDocument: id, range: whole, context: { diagnostics } }) ?? [];
    for (const action of actions as Array<CodeAction | Command>) {
        for (const edit of ('edit' in action ? action.edit?.changes?.[id.uri] : undefined) ?? []) {
            const p = rangeProblem(doc, `quick fix '${action.title}'`, edit.range); if (p) problems.push(p);
        }
    }
    for (const symbol of await Battle.lsp.DocumentSymbolProvider!.getSymbols(doc, { textDocument: id })) {
        const p = rangeProblem(doc, `symbol ${symbol.name}`, symbol.range); if (p) problems.push(p);
    }
    await Battle.lsp.SemanticTokenProvider!.semanticHighlight(doc, { textDocument: id });
    await Battle.lsp.FoldingRangeProvider!.getFoldingRanges(doc, { textDocument: id });
    problems.push(...engines(doc));
    return problems;
}

/** A JavaScript fault (not a rule's own refusal) caught inside an engine. */
const FAULT = /Cannot read propert|is not a function|is not iterable|Invalid array length|Maximum call stack|out of memory/;

/**
 * Resolve and odds on every action: they must answer (a result or a reason), never throw. An engine
 * that refuses a broken action by throwing is tolerated when the file has errors (the umpire already
 * sees them); a JavaScript fault inside, or any throw on a file without errors, is a failure.
 */
function engines(doc: LangiumDocument<Scenario>): string[] {
    const problems: string[] = [];
    const model = modelOf(doc.parseResult.value);
    const clean = !(doc.diagnostics ?? []).some(d => d.severity === 1);
    const fault = (what: string, message: string) => {
        if (clean || FAULT.test(message)) problems.push(`${what} threw inside: ${message}`);
    };
    for (const action of model.actions) {
        const r = resolveAction(model, action, { seed: 7, newSeed: () => 7 });
        if (isUnresolvable(r) && /^Could not resolve/.test(r.problem)) fault('resolve', r.problem);
        if (hasOdds(model, action)) {
            const o = oddsForAction(model, action);
            if ('problem' in o && /^Could not compute/.test(String(o.problem))) fault('odds', String(o.problem));
            else if (!('problem' in o)) problems.push(...oddsProblems(o.units));
        }
    }
    return problems;
}

/** Each unit's probabilities are in [0, 1] and sum to 1. */
export function oddsProblems(units: ReadonlyArray<{ id: string, probabilities: Record<string, number> }>): string[] {
    const problems: string[] = [];
    for (const u of units) {
        const ps = Object.values(u.probabilities);
        const sum = ps.reduce((a, b) => a + b, 0);
        if (ps.some(p => !(p >= -1e-12 && p <= 1 + 1e-12))) problems.push(`odds of ${u.id}: a probability outside [0, 1]`);
        if (Math.abs(sum - 1) > 1e-9) problems.push(`odds of ${u.id} sum to ${sum}`);
    }
    return problems;
}

/** The scenario as data, without positions or CST (references by their text), to compare meanings. */
export function meaning(doc: LangiumDocument): string {
    return Battle.serializer.JsonSerializer.serialize(doc.parseResult.value, { refText: true, sourceText: false, textRegions: false, comments: false });
}

export function hasSyntaxErrors(doc: LangiumDocument): boolean {
    return doc.parseResult.lexerErrors.length > 0 || doc.parseResult.parserErrors.length > 0;
}

/** The formatter's output for `text`. */
export async function formatted(text: string): Promise<string> {
    const doc = await build(text);
    const edits = await Battle.lsp.Formatter!.formatDocument(doc, { textDocument: { uri: doc.uri.toString() }, options: FORMAT });
    return TextDocument.applyEdits(doc.textDocument, edits);
}

/**
 * Formatting a file that parses: the result parses to the same scenario and formatting it again
 * changes nothing. Files that do not parse are left to `exercise`.
 */
export async function formattingProblems(text: string): Promise<string[]> {
    const before = await build(text, 'format-before');
    if (hasSyntaxErrors(before)) return [];
    const once = await formatted(text);
    const after = await build(once, 'format-after');
    const problems: string[] = [];
    if (hasSyntaxErrors(after)) problems.push(`formatting broke the syntax: ${after.parseResult.parserErrors[0]?.message ?? after.parseResult.lexerErrors[0]?.message}`);
    else if (meaning(after) !== meaning(before)) problems.push('formatting changed the scenario');
    const twice = await formatted(once);
    if (twice !== once) problems.push('formatting is not idempotent');
    return problems;
}

/**
 * Resolving every action of `text` with `seed` in two separate parses gives the same JSON, and that
 * JSON names the seed (or entered dice).
 */
export async function determinismProblems(text: string, seed: number): Promise<string[]> {
    const runs: string[][] = [];
    for (const name of ['seed-a', 'seed-b']) {
        const doc = await build(text, name);
        const model = modelOf(doc.parseResult.value);
        runs.push(model.actions.map(action => {
            const r = resolveAction(model, action, { seed, newSeed: () => { throw new Error('a seed was given'); } });
            return JSON.stringify(isUnresolvable(r) ? r : r.resolution.json);
        }));
    }
    const problems: string[] = [];
    runs[0].forEach((json, i) => { if (json !== runs[1][i]) problems.push(`action ${i} resolved differently with seed ${seed}`); });
    return problems;
}

/**
 * A random SCRUD engagement: 1–6 unit lines a side (counts up to x4), grades, modifiers on some units,
 * foot and horse, sometimes pooled or another die. Its odds must sum to 1 for every unit.
 */
export const scrudScenario: fc.Arbitrary<string> = fc.record({
    pooled: fc.boolean(),
    die: fc.constantFrom('', 'd6', 'd4', 'd8', 'average'),
    grades: fc.array(fc.integer({ min: -3, max: 3 }), { minLength: 1, maxLength: 3 }),
    sides: fc.tuple(...[0, 1].map(() => fc.array(fc.record({
        arm: fc.constantFrom('foot', 'horse'), grade: fc.nat(), count: fc.integer({ min: 1, max: 4 }), tired: fc.boolean()
    }), { minLength: 1, maxLength: 6 })))
}).map(({ pooled, die, grades, sides }) => {
    const lines = ['rules scrud'];
    if (pooled) lines.push('option pooled');
    if (die) lines.push(`option die ${die}`);
    grades.forEach((g, i) => lines.push(`grade G${i} ${g >= 0 ? '+' : ''}${g}`));
    lines.push('modifier Tired -1');
    const tired: string[] = [];
    sides.forEach((units, s) => {
        lines.push(`force F${s} {`);
        units.forEach((u, i) => {
            lines.push(`  unit U${i} ${u.arm} G${u.grade % grades.length}${u.count > 1 ? ` x${u.count}` : ''}`);
            if (u.tired) tired.push(`F${s}.U${i}`);
        });
        lines.push('}');
    });
    lines.push('engagement E {', '  F0 attacks F1');
    if (tired.length) lines.push(`  factor Tired on ${tired.join(', ')}`);
    lines.push('}');
    return lines.join('\n') + '\n';
});

/** A run of 1–12 lines from an example, mutated: small inputs, so that many can be tried. */
export function mutatedPiece(all: readonly Example[]): fc.Arbitrary<string> {
    return fc.record({ example: fc.constantFrom(...all), from: fc.nat(), length: fc.integer({ min: 1, max: 12 }), mutations: fc.array(mutation, { maxLength: 4 }) })
        .map(({ example, from, length, mutations }) => {
            const lines = example.text.split('\n');
            const start = from % lines.length;
            return mutate(lines.slice(start, start + length).join('\n'), mutations);
        });
}

/** The cheap core check: parse, link and validate; every diagnostic inside the document, at most 200 + 1. */
export async function diagnosticProblems(text: string): Promise<string[]> {
    const doc = await build(text);
    const problems: string[] = [];
    const diagnostics = doc.diagnostics ?? [];
    for (const d of diagnostics) {
        const p = rangeProblem(doc, `diagnostic ${String(d.code)} "${d.message}"`, d.range);
        if (p) problems.push(p);
    }
    if (diagnostics.length > 201) problems.push(`${diagnostics.length} diagnostics published (cap is 200 + 1)`);
    return problems;
}

/** The odds of a generated SCRUD engagement: one entry per unit, each summing to 1. */
export async function scrudOddsProblems(text: string): Promise<string[]> {
    const doc = await build(text, 'odds-random');
    const errors = (doc.diagnostics ?? []).filter(d => d.severity === 1);
    if (errors.length > 0) return errors.map(e => `generated scenario has an error: ${e.message}`);
    const model = modelOf(doc.parseResult.value);
    const odds = oddsForAction(model, model.actions[0]);
    if ('problem' in odds) return [String(odds.problem)];
    const units = [...model.forces.values()].reduce((n, f) => n + f.units.length, 0);
    if (odds.units.length !== units) return [`odds for ${odds.units.length} units of ${units}`];
    return oddsProblems(odds.units);
}
