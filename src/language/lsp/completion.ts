/**
 * Completion for .battle files: Langium's keywords and cross-references (forces, grades, modifiers),
 * plus what the grammar alone cannot know: unit names of the force before the dot (with `#k` for
 * counted units), arms already used in the file, and the stat keys and values of the scenario's rule set.
 */
import { AstUtils, GrammarAST, type AstNode, type AstNodeDescription, type LangiumDocuments, type MaybePromise, type ReferenceInfo, type TextDocument } from 'langium';
import { DefaultCompletionProvider, type CompletionAcceptor, type CompletionContext, type CompletionValueItem, type LangiumServices, type NextFeature } from 'langium/lsp';
import { CompletionItemKind } from 'vscode-languageserver';
import { isAction, isFacts, isForce, isGrade, isHouse, isModifier, isRelation, isScenario, isTurn, isUnit, isUnitState, type Element, type Facts, type Relation, type Scenario, type Unit } from '../generated/ast.js';
import { excludedBy } from '../validation/exclusive-facts.js';
import { seedText } from '../../core/house-rules.js';
import { unitCount } from '../../core/scenario.js';
import { contextOf, modelOf } from '../../core/model-cache.js';
import { stateKeys } from '../../core/unit-campaign-state.js';
import type { RulesetVocabulary } from '../../core/ruleset.js';
import { signedValue as signed } from '../../core/signed.js';
import { NAME_SOURCE } from './names.js';
import { parsedFrom } from '../battle-document-factory.js';

/** At most this many `Unit#k` items for one counted unit; past it the umpire types the number. */
const MAX_INDEX_ITEMS = 12;
/** After `#` the numbers themselves are listed, up to this many. */
const MAX_INDEX_LIST = 100;
/** `Force.` and `Force.Unit#` just before the cursor, names in any script. */
const FORCE_DOT = new RegExp(`(${NAME_SOURCE})\\s*\\.\\s*$`, 'u');
const FORCE_UNIT_HASH = new RegExp(`(${NAME_SOURCE})\\s*\\.\\s*(${NAME_SOURCE})\\s*#\\s*$`, 'u');

export class BattleCompletionProvider extends DefaultCompletionProvider {
    /** Typing `Force.` opens the list of that force's units, `Force.Unit#` the list of its numbers. */
    override readonly completionOptions = { triggerCharacters: ['.', '#'] };
    private readonly documents: LangiumDocuments;

    constructor(services: LangiumServices) {
        super(services);
        this.documents = services.shared.workspace.LangiumDocuments;
    }

    /**
     * What may come at `offset`, from a parse of the text since the last whole top-level element before
     * it instead of since the file's start. Langium lexes the whole text and parses all of it before the
     * cursor, twice a request: in code-server half-way down a 10,000-line file completion took 0.4 s at
     * a keystroke, and the keystroke's squiggles waited behind it (50,000 lines: 90 → 3 ms). The file's top level is a list of elements,
     * so after a whole element the parser is where it would be had it started at the file's start; the
     * element before the cursor is parsed too so that the file's header is behind the parse as well.
     * In a file with syntax errors the parse starts at an earlier element when it must: the first of a
     * run of elements before the cursor whose neighbour before it is clean up to its first keyword (an
     * error's recovery reads at most to the next element's first keyword, as the parse in pieces holds:
     * incremental-parse.ts), so errors far before the cursor cost nothing (50,000 lines with 20,000
     * errors: 290 ms a request before). The whole text is parsed when the tree was not parsed from this
     * text, or when no such element comes before the cursor.
     */
    protected override findFeaturesAt(document: TextDocument, offset: number): NextFeature[] {
        const around = this.elementsAround(document.getText(), offset);
        if (!around) return super.findFeaturesAt(document, offset);
        const text = document.getText().slice(around.start, offset);
        // Langium reads the text before the cursor through these two calls only.
        const since = { getText: () => text, positionAt: () => ({ line: 0, character: 0 }) } as unknown as TextDocument;
        return super.findFeaturesAt(since, text.length);
    }

    /**
     * The tokens at and before the cursor, from the same element before it to the end of the element at
     * the cursor: Langium reads them from the whole text's tokens (200 ms at 50,000 lines), once a request.
     * An element starts with a token wherever the syntax errors are, and the lexer reads the same tokens
     * from any token's start, so this holds in a file with errors too.
     */
    protected override backtrackToAnyToken(text: string, offset: number): ReturnType<DefaultCompletionProvider['backtrackToAnyToken']> {
        const around = this.elementsAround(text, offset);
        if (!around) return super.backtrackToAnyToken(text, offset);
        const found = super.backtrackToAnyToken(text.slice(around.start, around.end), offset - around.start);
        const moved = (at: number | undefined) => at === undefined ? undefined : at + around.start;
        return {
            nextTokenStart: found.nextTokenStart + around.start, nextTokenEnd: found.nextTokenEnd + around.start,
            previousTokenStart: moved(found.previousTokenStart), previousTokenEnd: moved(found.previousTokenEnd)
        };
    }

    /**
     * Where a parse of the text before `offset` may start and give the whole parse's answer, and where the
     * element at or after `offset` ends (the text's end if none), in the document whose text is `text`:
     * the start of the last top-level element ending at or before `offset`, or of an earlier one when
     * syntax errors come near it (`cleanStart`). `undefined` when the whole text must be read.
     */
    private elementsAround(text: string, offset: number): { start: number, end: number } | undefined {
        // Langium hands over the text, not the document; a request is about an open document.
        const document = this.documents.all.find(d => d.textDocument.getText().length === text.length && parsedFrom(d)?.text === text);
        if (!document || document.textDocument.getText() !== text) return undefined;
        const { value, lexerErrors, parserErrors } = document.parseResult;
        const elements = (value as Scenario).elements;
        let lo = 0, hi = elements.length;
        // The first element not ending by `offset` (elements are in the order of the text).
        while (lo < hi) {
            const mid = (lo + hi) >> 1;
            const end = elements[mid].$cstNode?.end;
            if (end !== undefined && end <= offset) lo = mid + 1; else hi = mid;
        }
        const errors = [...lexerErrors.map(e => e.offset), ...parserErrors.map(e => e.token.startOffset)];
        const first = cleanStart(elements, lo - 1, errors);
        const start = first === undefined ? undefined : elements[first].$cstNode?.offset;
        if (start === undefined) return undefined;
        return { start, end: elements[lo]?.$cstNode?.end ?? text.length };
    }

    protected override completionFor(context: CompletionContext, next: NextFeature, acceptor: CompletionAcceptor): MaybePromise<void> {
        const where = featureOf(next, context.node);
        const root = context.document.parseResult.value as Scenario;
        switch (where) {
            case 'Target.unit': return this.completeUnits(context, root, acceptor);
            case 'Target.index': return this.completeIndexes(context, root, acceptor);
            case 'Unit.arm': return this.completeWords(context, armsOf(root), 'arm', acceptor);
            case 'Stat.key': return this.completeStatKeys(context, root, acceptor);
            case 'StatValue.word': return this.completeStatValues(context, root, acceptor);
            case 'Fact.key': return this.completeWords(context, factsOffered(context.node, root, context.offset), 'fact', acceptor);
            case 'Scenario.rules': return this.completeWords(context, contextOf(root).rulesets.ids(), 'rule set', acceptor);
            case 'Action.kind': return this.completeKeywords(context, declaredOf(root, 'kinds'), 'action', acceptor);
            case 'Relation.verb': return this.completeKeywords(context, declaredOf(root, 'verbs'), 'verb', acceptor);
            case 'HouseRow.table': return this.completeTables(context, root, acceptor);
            case 'HouseEntry.key': return this.completeHouseWords(context, root, 'key', acceptor);
            case 'HouseEntry.word': return this.completeHouseWords(context, root, 'value', acceptor);
        }
        // Words used as stat keys are also keywords; only offer keywords where a statement may start.
        if (GrammarAST.isKeyword(next.feature) && isInsideWord(next.feature)) return;
        return super.completionFor(context, next, acceptor);
    }

    /** After `Force.`: every unit of that force, and `Unit#k` for each unit of a counted one. */
    private completeUnits(context: CompletionContext, root: Scenario, acceptor: CompletionAcceptor): void {
        const before = context.textDocument.getText().slice(0, context.tokenOffset);
        const forceName = FORCE_DOT.exec(before)?.[1];
        // The force may be declared in an imported file: the model holds both.
        const force = forceName === undefined ? undefined : modelOf(root).forces.get(forceName)?.node;
        if (!isForce(force)) return;
        for (const unit of force.units) {
            if (!unit.name) continue;
            acceptor(context, { label: unit.name, kind: CompletionItemKind.Field, detail: unitDetail(unit), sortText: '0' });
            const count = Math.min(unitCount(unit), modelOf(root).limits.maxCount);
            if (!unit.count || count < 2) continue;
            for (let k = 1; k <= Math.min(count, MAX_INDEX_ITEMS); k++) {
                acceptor(context, { label: `${unit.name}#${k}`, kind: CompletionItemKind.Field, detail: `${unit.name} ${k} of ${count}`, sortText: `1${String(k).padStart(4, '0')}` });
            }
        }
    }

    /** After `Force.Unit#`: the numbers of that unit's instances, 1 to its count. */
    private completeIndexes(context: CompletionContext, root: Scenario, acceptor: CompletionAcceptor): void {
        const before = context.textDocument.getText().slice(0, context.tokenOffset);
        const m = FORCE_UNIT_HASH.exec(before);
        const force = m ? modelOf(root).forces.get(m[1])?.node : undefined;
        const unit = isForce(force) ? force.units.find(u => u.name === m![2]) : undefined;
        if (!unit?.count) return;
        const count = Math.min(unitCount(unit), modelOf(root).limits.maxCount);
        for (let k = 1; k <= Math.min(count, MAX_INDEX_LIST); k++) {
            acceptor(context, { label: String(k), kind: CompletionItemKind.Value, detail: `${unit.name} ${k} of ${count}`, sortText: String(k).padStart(5, '0') });
        }
    }

    private completeStatKeys(context: CompletionContext, root: Scenario, acceptor: CompletionAcceptor): void {
        const stats = vocabularyOf(root)?.stats ?? {};
        for (const [key, spec] of Object.entries(stats)) {
            acceptor(context, { label: key, kind: CompletionItemKind.Property, detail: spec.values ? spec.values.join(' | ') : undefined, documentation: spec.doc, sortText: '0' });
        }
    }

    /** The value after a stat key: the key is the last word after `{` or `,` before the cursor. */
    private completeStatValues(context: CompletionContext, root: Scenario, acceptor: CompletionAcceptor): void {
        const before = context.textDocument.getText().slice(0, context.tokenOffset);
        const key = /[{,]\s*([\w-]+)\s+$/.exec(before)?.[1];
        const values = key ? vocabularyOf(root)?.stats[key]?.values : undefined;
        for (const value of values ?? []) {
            acceptor(context, { label: value, kind: CompletionItemKind.EnumMember, detail: key, sortText: '0' });
        }
    }

    /** At the start of a house row: the rule set's tables, with what each decides and its seed values. */
    private completeTables(context: CompletionContext, root: Scenario, acceptor: CompletionAcceptor): void {
        for (const [name, schema] of Object.entries(modelOf(root).ruleset?.tables ?? {})) {
            acceptor(context, { label: name, kind: CompletionItemKind.Struct, detail: `house table · ${schema.keys.doc}`, documentation: `${schema.doc}. The seed: ${seedText(schema)}.`, sortText: '0' });
        }
    }

    /** A key or value of the house row the cursor is in (its table is the first word of the row). */
    private completeHouseWords(context: CompletionContext, root: Scenario, part: 'key' | 'value', acceptor: CompletionAcceptor): void {
        const model = modelOf(root);
        const before = context.textDocument.getText().slice(0, context.tokenOffset);
        const table = /(?:^|[{\n])\s*([\p{L}_][\p{L}\p{N}_-]*)\s[^{}\n]*$/u.exec(before)?.[1];
        const schema = table ? model.ruleset?.tables?.[table] : undefined;
        if (!schema) return;
        const words = part === 'key'
            ? (schema.keys.kind === 'words' ? [...(schema.keys.words ?? []), ...(schema.keys.grades ? model.grades.keys() : [])] : [])
            : (schema.values.kind === 'word' ? schema.values.words : schema.values.kind === 'die' ? ['d6', 'd4', 'd8', 'd10', 'average'] : []);
        this.completeWords(context, words, `${table} ${part}`, acceptor);
    }

    /** Names of forces, units, grades and modifiers, each with its own kind and what it stands for. */
    protected override createReferenceCompletionItem(description: AstNodeDescription, refInfo: ReferenceInfo, context: CompletionContext): CompletionValueItem {
        const item = super.createReferenceCompletionItem(description, refInfo, context);
        const node = description.node;
        if (isForce(node)) return { ...item, kind: CompletionItemKind.Module, detail: `force · ${node.units.length} unit lines` };
        if (isGrade(node)) return { ...item, kind: CompletionItemKind.Class, detail: `grade ${node.value !== undefined ? signed(node.value) : '{…}'}` };
        if (isModifier(node)) return { ...item, kind: CompletionItemKind.Constant, detail: `modifier ${signed(node.value)}` };
        if (isUnit(node)) return { ...item, kind: CompletionItemKind.Field, detail: unitDetail(node) };
        return item;
    }

    private completeWords(context: CompletionContext, words: Iterable<string>, detail: string, acceptor: CompletionAcceptor): void {
        for (const word of words) acceptor(context, { label: word, kind: CompletionItemKind.Value, detail, sortText: '0' });
    }

    /** The rule set's action kinds and verbs, offered as the grammar's keywords are (they start a line or relate two units as keywords do). */
    private completeKeywords(context: CompletionContext, words: Iterable<string>, detail: string, acceptor: CompletionAcceptor): void {
        for (const word of words) acceptor(context, { label: word, kind: CompletionItemKind.Keyword, detail, sortText: '1' });
    }
}

/**
 * `Rule.property` of the feature completion is asked for, e.g. `Target.unit` or `Stat.key`. Langium
 * expands the `Word` and `Signed` rules into their tokens and keeps only the property they fill, so
 * for those the rule is read from where the cursor is: in a grade's or unit's braces, a stat.
 */
/**
 * The index of the last element at or before `last` from whose start a parse is where the whole parse is:
 * the element (or the file's header) before it is clean from its own start up to and including that
 * element's first keyword. `errors` are the syntax errors' offsets (NaN: at the end of the text, which
 * the parse before the cursor never reaches). `undefined` when none is.
 */
function cleanStart(elements: readonly Element[], last: number, errors: readonly number[]): number | undefined {
    const offsetOf = (index: number) => elements[index].$cstNode?.offset ?? Number.NaN;
    const anyErrorIn = (from: number, to: number) => errors.some(at => at >= from && at <= to);
    for (let index = last; index >= 0; index--) {
        const at = offsetOf(index);
        if (Number.isNaN(at)) return undefined;
        if (!anyErrorIn(index > 0 ? offsetOf(index - 1) : 0, at)) return index;
    }
    return undefined;
}

function featureOf(next: NextFeature, node: AstNode | undefined): string | undefined {
    const rule = AstUtils.getContainerOfType(next.feature, GrammarAST.isParserRule);
    // `rules NAME`: any name parses; the registry knows which there are.
    if (rule?.name === 'RulesetName') return 'Scenario.rules';
    // A relation's verb: the rule set's (`vs` is also a keyword of the grammar, for outcome lines).
    if (rule?.name === 'Verb') return 'Relation.verb';
    if ((rule?.name === 'Word' || rule?.name === 'Signed') && next.property && node && AstUtils.getContainerOfType(node, isHouse)) {
        switch (next.property) {
            case 'table': return 'HouseRow.table';
            case 'key': return 'HouseEntry.key';
            case 'word': return 'HouseEntry.word';
            default: return undefined;
        }
    }
    if ((rule?.name === 'Word' || rule?.name === 'Signed' || rule?.name === 'Measure') && next.property) {
        const inBraces = node !== undefined && AstUtils.getContainerOfType(node, n => isGrade(n) || isUnit(n)) !== undefined;
        switch (next.property) {
            case 'arm': return 'Unit.arm';
            case 'key': return inBraces ? 'Stat.key' : 'Fact.key';
            case 'value': case 'word': case 'number': return inBraces ? 'StatValue.word' : undefined;
            default: return undefined;
        }
    }
    const assignment = AstUtils.getContainerOfType(next.feature, GrammarAST.isAssignment);
    if (!assignment || !rule) return undefined;
    return `${next.type ?? rule.name}.${assignment.feature}`;
}

/** A keyword that is only an alternative of the `Word` rule (a stat key or value, not a statement). */
function isInsideWord(keyword: GrammarAST.Keyword): boolean {
    const rule = AstUtils.getContainerOfType(keyword, GrammarAST.isParserRule);
    return rule?.name === 'Word';
}

/**
 * The action kinds or relation verbs of the file's rule set; of every known rule set when the file names
 * an unknown one (each of them lexes as a kind or verb).
 */
function declaredOf(root: Scenario, words: 'kinds' | 'verbs'): Iterable<string> {
    const ruleset = modelOf(root).ruleset;
    return ruleset ? ruleset[words] ?? [] : contextOf(root).rulesets[words];
}

/** The words of the file's rule set, or undefined when the file names an unknown one. */
function vocabularyOf(root: Scenario): RulesetVocabulary | undefined {
    return modelOf(root).ruleset?.vocabulary;
}

/** The rule set's common arms, then every arm already written in the file. */
function armsOf(root: Scenario): Set<string> {
    const arms = new Set<string>(vocabularyOf(root)?.arms ?? []);
    const visit = (node: AstNode) => {
        if (isForce(node)) node.units.forEach(u => { if (u.arm) arms.add(u.arm); });
        else if (isTurn(node)) node.elements.forEach(visit);
    };
    if (isScenario(root)) root.elements.forEach(visit);
    return arms;
}

/** The facts a line may state where the cursor is: a state or ruling line, or a unit line of an action. */
export function factsAt(node: AstNode | undefined, root: Scenario): readonly string[] {
    if (!node) return [];
    if (AstUtils.getContainerOfType(node, isUnitState)) return stateKeys(modelOf(root).ruleset);
    const action = AstUtils.getContainerOfType(node, isAction);
    return action ? vocabularyOf(root)?.facts[action.kind] ?? [] : [];
}

/**
 * The facts offered at `offset`: not those that exclude one already on the line (`flank` after
 * `rear`), by the rule set's groups; the fact being typed at the cursor does not count.
 */
function factsOffered(node: AstNode | undefined, root: Scenario, offset: number): readonly string[] {
    const facts = factsAt(node, root);
    const action = node && AstUtils.getContainerOfType(node, isAction);
    const line = node && AstUtils.getContainerOfType(node, (n): n is Facts | Relation => isFacts(n) || isRelation(n));
    if (!action || !line) return facts;
    const present = line.facts.filter(f => !f.$cstNode || offset < f.$cstNode.offset || offset > f.$cstNode.end).map(f => f.key);
    const excluded = excludedBy(vocabularyOf(root)?.exclusive, action.kind, present);
    return excluded.size === 0 ? facts : facts.filter(f => !excluded.has(f));
}

function unitDetail(unit: Unit): string {
    return [unit.arm, unit.grade?.$refText, unit.count].filter(Boolean).join(' ');
}
