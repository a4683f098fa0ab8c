/**
 * Quick fixes: one per diagnostic that has an obvious repair, keyed by the diagnostic's stable code
 * (src/core/codes.ts); a rule set names, for its own codes, which generic fix applies (`Ruleset.fixes`). A fix never guesses a game fact: a missing die is not invented (the fix is to
 * drop the entered dice and draw a seed instead), and a missing stat is left to the umpire.
 */
import { AstUtils, CstUtils, DocumentState, GrammarUtils, type AstNode, type CstNode, type LangiumDocument } from 'langium';
import type { CodeActionProvider } from 'langium/lsp';
import { CodeActionKind, type CancellationToken, type CodeAction, type CodeActionParams, type Diagnostic, type TextEdit } from 'vscode-languageserver';
import {
    isAction, isDice, isFactor, isFacts, isForce, isGrade, isModifier, isRelation, isScenario, isSeed, isStat, isTarget, isTurn, isUnit, isUnitState,
    type Facts, type Relation, type Scenario, type Stat, type Target, type Unit
} from '../generated/ast.js';
import { modelOf } from '../../core/model-cache.js';
import { targetText } from '../../core/scenario.js';
import type { FixKind, RulesetVocabulary } from '../../core/ruleset.js';
import { closeSpellings } from '../../core/spelling.js';
import { newSeed } from '../../core/dice.js';
import { Codes } from '../../core/codes.js';
import { GRADE_RANGE, MODIFIER_RANGE } from '../validation/common.js';
import { signedValue as signed } from '../../core/signed.js';
import { factsAt } from './completion.js';
import { restoreOutcomeActions, staleOutcomeActions } from './stale-fix.js';
import { whenCurrent } from './current-version.js';
import { actionCommands } from './action-commands.js';
import { clientSupport, documentEdit, type ClientSupport } from './client-support.js';
import type { LangiumSharedServices } from 'langium/lsp';

/** What a fix needs: the file, the diagnostic, and the AST node the diagnostic starts on. */
interface FixContext {
    readonly document: LangiumDocument;
    readonly root: Scenario;
    readonly diagnostic: Diagnostic;
    readonly node: AstNode | undefined;
    readonly text: string;
    /** How the client takes edits (versioned documentChanges or plain changes). */
    readonly support: ClientSupport;
}

type Fix = (c: FixContext) => CodeAction[];

export class BattleCodeActionProvider implements CodeActionProvider {
    constructor(private readonly shared?: LangiumSharedServices) {}

    /**
     * Fixes are edits at offsets of one version: they are computed on the tree of the editor's current
     * text. After them, at an action the rule set resolves, its commands (Resolve, Re-roll, Resolve all,
     * Show odds), for editors that show no code lenses (action-commands.ts).
     */
    async getCodeActions(document: LangiumDocument, params: CodeActionParams, cancelToken?: CancellationToken): Promise<CodeAction[]> {
        await whenCurrent(document, DocumentState.Validated, cancelToken);
        const support = clientSupport(this.shared);
        return [...this.actionsFor(document, params, support), ...actionCommands(document, params, support)];
    }

    private actionsFor(document: LangiumDocument, params: CodeActionParams, support: ClientSupport): CodeAction[] {
        const root = document.parseResult.value as Scenario;
        if (!isScenario(root) || !root.$cstNode) return [];
        const text = document.textDocument.getText();
        const actions: CodeAction[] = [];
        for (const diagnostic of params.context.diagnostics) {
            const fix = FIXES[String(diagnostic.code)] ?? rulesetFix(root, String(diagnostic.code));
            if (!fix) continue;
            const offset = document.textDocument.offsetAt(diagnostic.range.start);
            const node = CstUtils.findLeafNodeAtOffset(root.$cstNode, offset)?.astNode;
            actions.push(...fix({ document, root, diagnostic, node, text, support }));
        }
        return actions;
    }
}

/** The fixes, by diagnostic code. Other rule sets' codes are added here as they gain obvious fixes. */
export const FIXES: Record<string, Fix> = {
    [Codes.unknownReference]: fixUnknownReference,
    [Codes.diceCount]: c => [...removeExtraDice(c), ...useSeedInstead(c)],
    [Codes.dieFace]: clampFace,
    [Codes.duplicateName]: renameDuplicate,
    [Codes.countZero]: c => withNode(c, isUnit, unit => removeCount(c, unit)),
    [Codes.countTooLarge]: c => withNode(c, isUnit, unit => {
        const count = GrammarUtils.findNodeForProperty(unit.$cstNode, 'count');
        const max = modelOf(unit).limits.maxCount;
        return count ? [quickFix(c, `Make it x${max}, the most one line may make`, [replace(c, count, `x${max}`)])] : [];
    }),
    [Codes.seedWithDice]: c => withNode(c, isSeed, seed => [quickFix(c, 'Remove the seed (the entered dice are used)', [deleteStatement(c, seed)])]),
    [Codes.seedNotUsed]: c => withNode(c, isSeed, seed => [quickFix(c, 'Remove the seed (no dice are thrown)', [deleteStatement(c, seed)], true)]),
    [Codes.outcomeStale]: c => staleOutcomeActions(c.document, c.diagnostic),
    [Codes.outcomeAltered]: c => restoreOutcomeActions(c.document, c.diagnostic),
    [Codes.unitIndexRange]: removeIndexOfSingleUnit,
    [Codes.gradeValueRange]: c => withNode(c, isGrade, g => clampValue(c, g, g.value ?? 0, GRADE_RANGE)),
    [Codes.modifierValueRange]: c => withNode(c, isModifier, m => clampValue(c, m, m.value, MODIFIER_RANGE)),
    [Codes.unknownDie]: c => withNode(c, isStat, stat => setStatValue(c, stat, ['d6'])),
    [Codes.statementNotUsed]: c => {
        const statement = AstUtils.getContainerOfType(c.node, (n): n is AstNode => isAction(n.$container));
        return statement ? [quickFix(c, 'Remove this statement', [deleteStatement(c, statement)])] : [];
    },
    [Codes.stateUnknownKey]: c => respell(c, factsAt(c.node, c.root)),
    [Codes.diceLabel]: c => withNode(c, isDice, line => {
        const label = GrammarUtils.findNodeForProperty(line.$cstNode, 'label');
        if (!label || line.label === undefined) return [];
        const labels = vocabularyOf(c.root)?.diceLabels(modelOf(line), line) ?? [];
        return labels.filter(l => l !== line.label).map(l => quickFix(c, `Change to '${l}'`, [replace(c, label, l)]));
    }),
    [Codes.rulesNotSupported]: replacementsFix,
    [Codes.unknownOption]: replacementsFix,
    [Codes.rulesDefault]: addRulesLine,
    [Codes.syntaxError]: fixSyntax,
    [Codes.gradeAsArm]: replacementsFix,
    [Codes.houseUnknownTable]: replacementsFix,
    [Codes.houseKey]: replacementsFix,
    [Codes.houseBand]: replacementsFix,
    [Codes.houseValue]: replacementsFix,
    [Codes.factorRepeated]: removeRepeatedFactor,
    [Codes.factsExclusive]: keepOneFact,
    [Codes.rulingWithoutReason]: c => withNode(c, isUnitState, line => {
        const last = line.facts[line.facts.length - 1]?.$cstNode;
        return last ? [quickFix(c, 'Add a reason', [insertAt(c, last.end, ', reason "…"')], true)] : [];
    })
};

/**
 * A factor named again where it already applies (the check says whether removing it changes
 * nothing): drop the repeated name from the line, or the repeated target, or the line if that was its only target.
 */
function removeRepeatedFactor(c: FixContext): CodeAction[] {
    const data = c.diagnostic.data as { removable?: boolean } | undefined;
    if (!data?.removable) return [];
    return withNode(c, isFactor, factor => {
        const at = c.document.textDocument.offsetAt(c.diagnostic.range.start);
        for (const property of ['modifiers', 'targets'] as const) {
            const parts = GrammarUtils.findNodesForProperty(factor.$cstNode, property);
            const index = parts.findIndex(p => p.offset === at);
            if (index < 0) continue;
            if (parts.length === 1) return [quickFix(c, 'Remove the repeated factor', [deleteStatement(c, factor)], true)];
            // With the comma before it, or after it when it is the first of the list.
            const [from, to] = index > 0 ? [parts[index - 1].end, parts[index].end] : [parts[0].offset, parts[1].offset];
            return [quickFix(c, `Remove the repeated '${c.text.slice(parts[index].offset, parts[index].end)}'`, [{ range: rangeOf(c, from, to), newText: '' }], true)];
        }
        return [];
    });
}

/**
 * Facts that exclude each other (`facts-exclusive`): one fix per fact kept, which takes the others
 * of the group (`data.facts`) off the unit's lines in the action, and a line left with none.
 */
function keepOneFact(c: FixContext): CodeAction[] {
    const data = c.diagnostic.data as { facts?: unknown } | undefined;
    const group = Array.isArray(data?.facts) ? data.facts.filter((f): f is string => typeof f === 'string') : [];
    const line = AstUtils.getContainerOfType(c.node, (n): n is Facts | Relation => isFacts(n) || isRelation(n));
    const action = line && AstUtils.getContainerOfType(line, isAction);
    if (!line || !action || group.length < 2) return [];
    const who = isFacts(line) ? targetText(line.target) : undefined;
    const lines = who === undefined ? [line] : action.statements.filter(isFacts).filter(l => targetText(l.target) === who);
    return group.map(keep => quickFix(c, `Keep '${keep}'`, lines.flatMap(l => {
        const kept = l.facts.filter(f => !group.includes(f.key) || f.key === keep);
        if (kept.length === l.facts.length) return [];
        if (kept.length === 0 && isFacts(l)) return [deleteStatement(c, l)];
        const first = l.facts[0].$cstNode!, last = l.facts[l.facts.length - 1].$cstNode!;
        const text = kept.map(f => c.text.slice(f.$cstNode!.offset, f.$cstNode!.end)).join(', ');
        // A relation with no fact left loses its colon too.
        const from = kept.length === 0 ? skipBack(c.text, c.text.lastIndexOf(':', first.offset)) : first.offset;
        return [{ range: rangeOf(c, from, last.end), newText: text }];
    })));
}

/** An unknown word (stat key, fact) replaced by the close spellings the rule set knows. */
function respell(c: FixContext, known: readonly string[]): CodeAction[] {
    const word = c.document.textDocument.getText(c.diagnostic.range);
    return closeSpellings(word, [...known]).map(k => quickFix(c, `Change to '${k}'`, [{ range: c.diagnostic.range, newText: k }]));
}

/** The words of the file's rule set, or undefined when the file names an unknown one. */
function vocabularyOf(root: Scenario): RulesetVocabulary | undefined {
    return modelOf(root).ruleset?.vocabulary;
}

/** The generic fix a rule set names for one of its own codes. */
function rulesetFix(root: Scenario, code: string): Fix | undefined {
    const kind = modelOf(root).ruleset?.fixes?.[code];
    return kind ? RULESET_FIXES[kind] : undefined;
}

const RULESET_FIXES: Record<FixKind, Fix> = {
    'stat-value': fixStatFromVocabulary,
    'respell-stat': c => respell(c, Object.keys(vocabularyOf(c.root)?.stats ?? {})),
    'respell-fact': c => respell(c, factsAt(c.node, c.root)),
    'replacements': replacementsFix,
    'stat-replacements': c => withNode(c, isStat, stat => setStatValue(c, stat, replacementsOf(c)))
};

/** The replacements a check attached to its diagnostic (`data.replacements`). */
function replacementsOf(c: FixContext): string[] {
    const data = c.diagnostic.data as { replacements?: unknown } | undefined;
    return Array.isArray(data?.replacements) ? data.replacements.filter((r): r is string => typeof r === 'string') : [];
}

/** "Add `rules <id>`", one per registered rule set, the one the file is checked as first and preferred. */
function addRulesLine(c: FixContext): CodeAction[] {
    const data = c.diagnostic.data as { rulesets?: unknown, insertAt?: unknown, after?: unknown } | undefined;
    if (!Array.isArray(data?.rulesets) || typeof data.insertAt !== 'number') return [];
    return data.rulesets.filter((id): id is string => typeof id === 'string').map((id, i) =>
        quickFix(c, `Add 'rules ${id}'`, [insertAt(c, data.insertAt as number, data.after ? `\nrules ${id}` : `rules ${id}\n`)], i === 0));
}

/** Each replacement the check offered, in place of the flagged text. */
function replacementsFix(c: FixContext): CodeAction[] {
    return replacementsOf(c).map(r => quickFix(c, `Change to '${r}'`, [{ range: c.diagnostic.range, newText: r }]));
}

/** A syntax error's obvious repair (src/language/syntax-messages.ts): a keyword respelt, a '}' added or removed. */
function fixSyntax(c: FixContext): CodeAction[] {
    const data = c.diagnostic.data as { insert?: unknown, remove?: unknown } | undefined;
    const at = c.document.textDocument.offsetAt(c.diagnostic.range.start);
    if (typeof data?.insert === 'string') return [quickFix(c, `Add '${data.insert.trim()}' here`, [insertAt(c, at, data.insert)], true)];
    if (data?.remove === true) return [quickFix(c, `Remove this '${c.document.textDocument.getText(c.diagnostic.range)}'`, [{ range: c.diagnostic.range, newText: '' }], true)];
    return replacementsFix(c);
}

// ─── Unknown names ───────────────────────────────────────────────────────────────────────────────

function fixUnknownReference(c: FixContext): CodeAction[] {
    const data = c.diagnostic.data as { property?: string, refText?: string, replacements?: string[] } | undefined;
    const name = data?.refText;
    if (!name) return [];
    const actions: CodeAction[] = [];
    if (data.property === 'grade') actions.push(quickFix(c, `Declare grade '${name}'`, [declare(c, `grade ${name} 0`, isGrade)], true));
    if (data.property === 'modifiers') actions.push(quickFix(c, `Declare modifier '${name}'`, [declare(c, `modifier ${name} -1`, isModifier, isGrade)], true));
    // The validator names the close spellings in scope (imports included); a diagnostic from an older server may not.
    for (const candidate of data.replacements ?? closeSpellings(name, candidatesFor(c, data.property))) {
        actions.push(quickFix(c, `Change to '${candidate}'`, [{ range: c.diagnostic.range, newText: candidate }]));
    }
    return actions;
}

/** Names the reference could have meant: the same kind of declaration, in scope. */
function candidatesFor(c: FixContext, property: string | undefined): string[] {
    const top = c.root.elements;
    switch (property) {
        case 'grade': return top.filter(isGrade).map(g => g.name);
        case 'modifiers': return top.filter(isModifier).map(m => m.name);
        case 'force': return top.filter(isForce).map(f => f.name);
        case 'unit': {
            const target = AstUtils.getContainerOfType(c.node, isTarget);
            return target?.force?.ref?.units.map(u => u.name) ?? [];
        }
        default: return [];
    }
}

/**
 * A new top-level declaration after the last one of its kind (or of the kind named next), else after
 * the header (`scenario`, `rules`, options), else at the top of the file.
 */
function declare(c: FixContext, line: string, ...after: Array<(n: unknown) => boolean>): TextEdit {
    for (const is of after) {
        const last = c.root.elements.filter(e => is(e)).pop();
        if (last?.$cstNode) return insertAt(c, last.$cstNode.end, `\n${line}`);
    }
    const header = [
        ...c.root.options.map(o => o.$cstNode),
        GrammarUtils.findNodeForProperty(c.root.$cstNode, 'rules'),
        GrammarUtils.findNodeForProperty(c.root.$cstNode, 'title')
    ].find(Boolean);
    if (header) return insertAt(c, header.end, `\n\n${line}`);
    return insertAt(c, 0, `${line}\n\n`);
}

// ─── Dice ────────────────────────────────────────────────────────────────────────────────────────

/** More dice than units on a line: drop the ones past the last unit. */
function removeExtraDice(c: FixContext): CodeAction[] {
    const line = AstUtils.getContainerOfType(c.node, isDice);
    const expected = (c.diagnostic.data as { expected?: number } | undefined)?.expected;
    if (!line || expected === undefined || line.values.length <= expected) return [];
    const values = GrammarUtils.findNodesForProperty(line.$cstNode, 'values');
    const extra = line.values.length - expected;
    const title = `Remove the ${extra} extra ${extra === 1 ? 'die' : 'dice'}`;
    if (expected === 0) return [quickFix(c, title, [deleteStatement(c, line)], true)];
    const from = values[expected - 1].end, to = values[values.length - 1].end;
    return [quickFix(c, title, [{ range: rangeOf(c, from, to), newText: '' }], true)];
}

/** Dice cannot be made up: the other repair is to drop the entered dice and let a seed throw them. */
function useSeedInstead(c: FixContext): CodeAction[] {
    const action = AstUtils.getContainerOfType(c.node, isAction);
    const lines = action?.statements.filter(isDice) ?? [];
    if (!action || lines.length === 0) return [];
    const seed = action.statements.find(isSeed);
    const edits = lines.map(l => deleteStatement(c, l));
    if (seed) return [quickFix(c, `Remove the entered dice and use seed ${seed.value}`, edits)];
    const value = newSeed();
    edits[0] = replace(c, lines[0].$cstNode!, `seed ${value}`);
    return [quickFix(c, `Remove the entered dice and use a new seed (${value})`, edits)];
}

/** A face the die cannot show becomes the nearest face it can. */
function clampFace(c: FixContext): CodeAction[] {
    const line = AstUtils.getContainerOfType(c.node, isDice);
    const data = c.diagnostic.data as { min?: number, max?: number } | undefined;
    if (!line || data?.min === undefined || data.max === undefined) return [];
    const start = c.document.textDocument.offsetAt(c.diagnostic.range.start);
    const values = GrammarUtils.findNodesForProperty(line.$cstNode, 'values');
    const index = values.findIndex(v => v.offset === start);
    if (index < 0) return [];
    const face = line.values[index];
    const nearest = Math.min(Math.max(face, data.min), data.max);
    if (nearest === face) return [];
    return [quickFix(c, `Change ${face} to ${nearest}, the nearest face`, [replace(c, values[index], String(nearest))], true)];
}

// ─── Declarations ────────────────────────────────────────────────────────────────────────────────

function renameDuplicate(c: FixContext): CodeAction[] {
    const name = c.document.textDocument.getText(c.diagnostic.range);
    if (!name) return [];
    const taken = allNames(c.root);
    let k = 2;
    while (taken.has(`${name}${k}`)) k++;
    return [quickFix(c, `Rename to '${name}${k}'`, [{ range: c.diagnostic.range, newText: `${name}${k}` }], true)];
}

function allNames(root: Scenario): Set<string> {
    const names = new Set<string>();
    const visit = (el: AstNode) => {
        if (isGrade(el) || isModifier(el) || isAction(el)) names.add(el.name);
        else if (isForce(el)) { names.add(el.name); el.units.forEach(u => names.add(u.name)); }
        else if (isTurn(el)) el.elements.forEach(visit);
    };
    root.elements.forEach(visit);
    return names;
}

function removeCount(c: FixContext, unit: Unit): CodeAction[] {
    const count = GrammarUtils.findNodeForProperty(unit.$cstNode, 'count');
    if (!count) return [];
    const from = skipBack(c.text, count.offset);
    return [quickFix(c, `Remove '${unit.count}' (one unit)`, [{ range: rangeOf(c, from, count.end), newText: '' }], true)];
}

/** `#k` on a unit declared without a count names nothing: drop it. */
function removeIndexOfSingleUnit(c: FixContext): CodeAction[] {
    const target = AstUtils.getContainerOfType(c.node, isTarget) as Target | undefined;
    if (!target || target.unit?.ref?.count) return [];
    const hash = GrammarUtils.findNodeForKeyword(target.$cstNode, '#');
    const index = GrammarUtils.findNodeForProperty(target.$cstNode, 'index');
    if (!hash || !index) return [];
    return [quickFix(c, `Remove '#${target.index}'`, [{ range: rangeOf(c, hash.offset, index.end), newText: '' }], true)];
}

function clampValue(c: FixContext, node: AstNode, value: number, range: { min: number, max: number }): CodeAction[] {
    const cst = GrammarUtils.findNodeForProperty(node.$cstNode, 'value');
    if (!cst) return [];
    const clamped = Math.min(Math.max(value, range.min), range.max);
    return [quickFix(c, `Change to ${signed(clamped)}`, [replace(c, cst, signed(clamped))], true)];
}

/** A stat's value replaced by each word the rule set accepts for it (STAT_VOCABULARY). */
function fixStatFromVocabulary(c: FixContext): CodeAction[] {
    const stat = AstUtils.getContainerOfType(c.node, isStat);
    if (!stat) return [];
    const values = vocabularyOf(c.root)?.stats[stat.key]?.values ?? [];
    return setStatValue(c, stat, values);
}

function setStatValue(c: FixContext, stat: Stat, values: readonly string[]): CodeAction[] {
    const key = GrammarUtils.findNodeForProperty(stat.$cstNode, 'key');
    const value = GrammarUtils.findNodeForProperty(stat.$cstNode, 'value');
    if (!key) return [];
    return values.map(v => quickFix(c, `Change to '${stat.key} ${v}'`,
        [value ? replace(c, value, v) : insertAt(c, key.end, ` ${v}`)], values.length === 1));
}

// ─── Edits ───────────────────────────────────────────────────────────────────────────────────────

function withNode<T extends AstNode>(c: FixContext, is: (n: unknown) => n is T, fix: (node: T) => CodeAction[]): CodeAction[] {
    const node = AstUtils.getContainerOfType(c.node, is);
    return node ? fix(node) : [];
}

function quickFix(c: FixContext, title: string, edits: TextEdit[], isPreferred = false): CodeAction {
    return {
        title, kind: CodeActionKind.QuickFix, diagnostics: [c.diagnostic], isPreferred: isPreferred || undefined,
        // Versioned, so that the client refuses the edit if the file changed since (docs/limits.md#versioned-edits).
        edit: documentEdit(c.support, c.document.uri.toString(), c.document.textDocument.version, edits)
    };
}

function rangeOf(c: FixContext, from: number, to: number) {
    return { start: c.document.textDocument.positionAt(from), end: c.document.textDocument.positionAt(to) };
}

function replace(c: FixContext, node: CstNode, newText: string): TextEdit {
    return { range: rangeOf(c, node.offset, node.end), newText };
}

function insertAt(c: FixContext, offset: number, newText: string): TextEdit {
    return { range: rangeOf(c, offset, offset), newText };
}

/** Spaces and tabs before an offset (not line breaks). */
function skipBack(text: string, offset: number): number {
    let i = offset;
    while (i > 0 && (text[i - 1] === ' ' || text[i - 1] === '\t')) i--;
    return i;
}

/** A statement removed with its line when it stands alone on it, else with the spaces before it. */
function deleteStatement(c: FixContext, node: AstNode): TextEdit {
    const cst = node.$cstNode!;
    const lineStart = skipBack(c.text, cst.offset);
    let lineEnd = cst.end;
    while (lineEnd < c.text.length && (c.text[lineEnd] === ' ' || c.text[lineEnd] === '\t')) lineEnd++;
    const alone = (lineStart === 0 || c.text[lineStart - 1] === '\n') && (lineEnd === c.text.length || c.text[lineEnd] === '\n' || c.text[lineEnd] === '\r');
    if (!alone) return { range: rangeOf(c, lineStart, cst.end), newText: '' };
    const next = c.text.indexOf('\n', lineEnd);
    return { range: rangeOf(c, lineStart, next < 0 ? c.text.length : next + 1), newText: '' };
}

