/**
 * The tree walks the build steps share: each node's references and children read by the properties the grammar
 * assigns them, and the elements (top-level ones, and a turn's own) whose links and checks are kept from one
 * build to the next.
 */
import { AstUtils, GrammarAST, GrammarUtils, isAstNode, isMultiReference, isReference, type AstNode, type ReferenceInfo } from 'langium';
import { BattleGrammar } from './generated/grammar.js';
import type { Turn } from './generated/ast.js';
import type { ElementsChanged } from './battle-document-factory.js';

/**
 * For each unit of a tree, its index among the units of an earlier tree of the same document when it is
 * the same node, else -1, and the nodes of each that are not in the other, read from the parse's record
 * of the edits between the two (battle-document-factory.ts `elementsChangedSince`), not by comparing the
 * trees: the units of the top-level elements before the replaced ones and after the added ones are the
 * same nodes, in the same order; among the replaced and the added (a turn an edit was spliced into is
 * one: its kept elements are the old turn's), each is looked up. `tops` (and `oldTops`): the index in the
 * units of each top-level element's first unit, and the units' count after the last. Undefined when the
 * record does not fit the two trees (then every unit is new).
 */
export function keptUnits(oldUnits: readonly AstNode[], oldTops: Int32Array, units: readonly AstNode[], tops: Int32Array, changed: ElementsChanged): { oldIndex: Int32Array, added: AstNode[], removed: AstNode[] } | undefined {
    const { first, replaced, added: addedCount } = changed;
    const oldCount = oldTops.length - 1, count = tops.length - 1;
    if (first < 0 || first + replaced > oldCount || first + addedCount > count || oldCount - replaced !== count - addedCount) return undefined;
    const oldFrom = oldTops[first], oldTo = oldTops[first + replaced];
    const from = tops[first], to = tops[first + addedCount];
    if (oldFrom !== from || oldUnits.length - oldTo !== units.length - to) return undefined;
    const oldIndex = new Int32Array(units.length);
    for (let k = 0; k < from; k++) oldIndex[k] = k;
    for (let k = to, j = oldTo; k < units.length; k++, j++) oldIndex[k] = j;
    const added: AstNode[] = [], removed: AstNode[] = [];
    const middle = new Map<AstNode, number>();
    for (let j = oldFrom; j < oldTo; j++) middle.set(oldUnits[j], j);
    for (let k = from; k < to; k++) {
        const j = middle.get(units[k]);
        if (j === undefined) {
            oldIndex[k] = -1;
            added.push(units[k]);
        } else {
            oldIndex[k] = j;
            middle.delete(units[k]);
        }
    }
    for (const node of middle.keys()) removed.push(node);
    return { oldIndex, added, removed };
}

/**
 * Langium's `streamAst` and `streamReferences` in one walk, in their order (each node's references in the
 * order of its properties, then its children's): their stream iterators, and `Object.keys` of every node
 * twice, were most of the linking of a cold check. Only the properties the grammar assigns a reference or
 * a node to are read (`walkOf`), not every property of every node.
 */
export function forEachReference(node: AstNode, found: (info: ReferenceInfo) => void): void {
    const walk = walkOf(node.$type);
    if (!walk) {
        forEachReferenceByKeys(node, found);
        return;
    }
    const n = node as unknown as Record<string, unknown>;
    for (const property of walk.references) {
        const value = n[property];
        if (value === undefined) continue;
        referencesIn(value, node, property, found);
    }
    for (const property of walk.children) {
        const value = n[property];
        if (value === undefined) continue;
        if (Array.isArray(value)) {
            for (let index = 0; index < value.length; index++) {
                const item: unknown = value[index];
                if (isAstNode(item)) forEachReference(item, found);
            }
        } else if (isAstNode(value)) forEachReference(value, found);
    }
}

/** The references a property's value holds (one, a multi-reference, or a list of them), in order. */
function referencesIn(value: unknown, node: AstNode, property: string, found: (info: ReferenceInfo) => void): void {
    if (isReference(value) || isMultiReference(value)) found({ reference: value, container: node, property });
    else if (Array.isArray(value)) {
        for (let index = 0; index < value.length; index++) {
            const item: unknown = value[index];
            if (isReference(item)) found({ reference: item, container: node, property, index });
        }
    }
}

/** `forEachReference` for a node whose type the grammar does not name: every own enumerable property, as `Object.keys` gives them; `$` properties are Langium's own. */
function forEachReferenceByKeys(node: AstNode, found: (info: ReferenceInfo) => void): void {
    const n = node as unknown as Record<string, unknown>;
    for (const property in n) {
        if (property.charCodeAt(0) === 36) continue;
        const value = n[property];
        referencesIn(value, node, property, found);
    }
    for (const property in n) {
        if (property.charCodeAt(0) === 36) continue;
        const value = n[property];
        if (isAstNode(value)) forEachReference(value, found);
        else if (Array.isArray(value)) for (const item of value) if (isAstNode(item)) forEachReference(item, found);
    }
}

/** The nodes of a tree in `streamAst`'s order, the children of a node only when `descend` says so. */
export function nodesOf(node: AstNode, descend: (node: AstNode) => boolean, out: AstNode[] = []): AstNode[] {
    out.push(node);
    if (!descend(node)) return out;
    const n = node as unknown as Record<string, unknown>;
    const walk = walkOf(node.$type);
    if (!walk) {
        for (const property in n) {
            if (property.charCodeAt(0) === 36) continue;
            const value = n[property];
            if (isAstNode(value)) nodesOf(value, descend, out);
            else if (Array.isArray(value)) for (const item of value) if (isAstNode(item)) nodesOf(item, descend, out);
        }
        return out;
    }
    for (const property of walk.children) {
        const value = n[property];
        if (value === undefined) continue;
        if (Array.isArray(value)) {
            for (let index = 0; index < value.length; index++) {
                const item: unknown = value[index];
                if (isAstNode(item)) nodesOf(item, descend, out);
            }
        } else if (isAstNode(value)) nodesOf(value, descend, out);
    }
    return out;
}

/** What a walk reads of a node of one type: the properties holding references, and those holding child nodes, each in the grammar's order. */
interface TypeWalk {
    readonly references: readonly string[];
    readonly children: readonly string[];
}

let walks: Map<string, TypeWalk | undefined> | undefined;

/**
 * The properties of a node type that can hold references or child nodes, read from the grammar once:
 * every other property holds a value (a name, a number, a keyword) that a walk skips. The parser
 * assigns a rule's properties in the grammar's order, so `Object.keys` lists the ones that hold
 * something in that order too (a property the parser adds afterwards, `assignMandatoryProperties`,
 * is an empty array or false: it holds nothing). A type with a property on which its rules disagree
 * about the order (a type made by two rules), the root (whose elements the parse in pieces sets
 * anew), and a type the grammar does not name are walked by their keys, as Langium walks them.
 * test/language/tree-walks.test.ts compares both walks on every example.
 */
export function walkOf(type: string): TypeWalk | undefined {
    walks ??= typeWalks(BattleGrammar());
    return walks.get(type);
}

function typeWalks(grammar: GrammarAST.Grammar): Map<string, TypeWalk | undefined> {
    const byType = new Map<string, Array<{ references: string[], children: string[] }>>();
    for (const rule of grammar.rules) {
        if (!GrammarAST.isParserRule(rule) || GrammarUtils.isDataTypeRule(rule) || rule.entry) continue;
        const references: string[] = [], children: string[] = [];
        let assigns = false;
        for (const element of AstUtils.streamAllContents(rule.definition)) {
            if (!GrammarAST.isAssignment(element)) continue;
            assigns = true;
            const holds = AstUtils.streamAst(element.terminal).toArray();
            const list = holds.some(GrammarAST.isCrossReference) ? references
                : holds.some(t => GrammarAST.isRuleCall(t) && GrammarAST.isParserRule(t.rule.ref) && !GrammarUtils.isDataTypeRule(t.rule.ref)) ? children : undefined;
            if (list && !list.includes(element.feature)) list.push(element.feature);
        }
        // A rule that only calls others (`Element: Grade | Modifier | …`) makes no node of its own type.
        if (!assigns) continue;
        const type = GrammarUtils.getTypeName(rule);
        let rules = byType.get(type);
        if (!rules) byType.set(type, rules = []);
        rules.push({ references, children });
    }
    const result = new Map<string, TypeWalk | undefined>();
    for (const [type, rules] of byType) {
        const same = rules.every(r => sameItems(r.references, rules[0].references) && sameItems(r.children, rules[0].children));
        result.set(type, same ? rules[0] : undefined);
    }
    return result;
}

export function sameItems(a: readonly unknown[], b: readonly unknown[]): boolean {
    return a.length === b.length && a.every((x, i) => x === b[i]);
}

/**
 * The nodes whose links and checks are kept: the top-level ones, and a turn's own elements in place
 * of the turn (the parse in pieces splices an edit inside a turn among them and makes a new turn node);
 * with `withTurns`, each turn too, before its elements (its own node only: it has no references).
 */
export function elementsOf<T extends AstNode>(nodes: readonly T[], withTurns = false): T[] {
    const units: T[] = [];
    for (const node of nodes) {
        if (node.$type !== 'Turn') units.push(node);
        else {
            if (withTurns) units.push(node);
            for (const inner of (node as AstNode as Turn).elements) units.push(inner as AstNode as T);
        }
    }
    return units;
}
