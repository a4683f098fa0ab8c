/**
 * Checks that hold whatever the rule set: names, counts, grades and modifiers, references.
 */
import type { ValidationAcceptor } from 'langium';
import type {
    Action, Element, Fact, Force, Grade, Modifier, RuleOption, Scenario, Seed, Target, Turn, Unit
} from '../generated/ast.js';
import { unitCount } from '../../core/scenario.js';
import { settingName } from '../../core/limits.js';
import { modelOf } from '../../core/model-cache.js';
import { dieNamed, MAX_DIE_SIDES, MAX_SEED } from '../../core/dice.js';
import { closeSpellings, didYouMean } from '../../core/spelling.js';
import { Codes } from '../../core/codes.js';
import { signedValue as signed } from '../../core/signed.js';
import type { BattleCaches, LastBuild } from '../battle-caches.js';
import { elementsChangedSince, parsedFrom, type ParseElements } from '../battle-document-factory.js';

export const GRADE_RANGE = { min: -6, max: 6 } as const;
export const MODIFIER_RANGE = { min: -10, max: 10 } as const;

/**
 * Two grades, modifiers, forces or actions of one name: the second and later are reported, in file order.
 * The names of a document's elements are kept from one build to the next (`names`, a table of
 * `namesSeenIn`, by the CST root, which the parse in pieces keeps): a build takes out the names of the
 * elements an edit replaced and adds those of the new ones, so an edit costs the elements it changed. Which
 * were replaced is read from the parse's record of the edits since the elements were read
 * (`elementsChangedSince`); when it does not reach back that far, every element's names are read again.
 */
export function checkUniqueNames(scenario: Scenario, accept: ValidationAcceptor, namesSeen: LastBuild<object, NamesSeen>): void {
    const docKey = scenario.$cstNode ?? scenario;
    let seen = namesSeen.get(docKey);
    const now = scenario.elements;
    const document = scenario.$document;
    const parse = document?.parseResult.value === scenario ? parsedFrom(document)?.elements : undefined;
    const changed = seen?.parse && parse ? elementsChangedSince(document!, seen.parse) : undefined;
    const old = seen?.elements ?? [];
    const fits = changed && changed.first + changed.replaced <= old.length && old.length - changed.replaced === now.length - changed.added;
    if (!seen || !fits) namesSeen.set(docKey, seen = { elements: [], parse, byType: new Map() });
    const first = fits ? changed.first : 0, tail = fits ? now.length - changed.first - changed.added : 0;
    for (let i = first; i < seen.elements.length - tail; i++) namedIn(seen.elements[i], node => forget(seen, node));
    for (let i = first; i < now.length - tail; i++) namedIn(now[i], node => note(seen, node));
    seen.elements = now.slice();
    seen.parse = parse;
    const again: Named[] = [];
    for (const byName of seen.byType.values()) {
        for (const nodes of byName.values()) {
            if (!Array.isArray(nodes)) continue;
            const inOrder = [...nodes].sort(byPlace);
            again.push(...inOrder.slice(1));
        }
    }
    for (const node of again.sort(byPlace)) {
        const kind = KINDS[node.$type];
        accept('error', `There is already ${/^[aeiou]/.test(kind) ? 'an' : 'a'} ${kind} named '${node.name}'.`, { node: node as Grade, property: 'name', code: Codes.duplicateName });
    }
}

type Named = Grade | Modifier | Force | Action;
const KINDS: Record<string, string> = { Grade: 'grade', Modifier: 'modifier', Force: 'force', Action: 'engagement or action' };

/** The elements of a document by type and name (a name held twice or more: its nodes, in no order), and the element list they were read from. */
interface NamesSeen {
    elements: readonly Element[];
    /** The parse's record of the tree the elements are of (`ParsedFrom.elements`). */
    parse: ParseElements | undefined;
    readonly byType: Map<string, Map<string, Named | Named[]>>;
}

/** The table `checkUniqueNames` keeps the names of each document's elements in. */
export function namesSeenIn(caches: BattleCaches): LastBuild<object, NamesSeen> {
    return caches.lastBuild({
        name: 'names', keeps: "the names of each element's grades, modifiers, forces and actions, with the elements they were read from",
        keyedBy: "the document's CST root (the parse in pieces keeps it)", againWhen: 'the element was replaced, or the parse\'s record does not reach back to the tree the names were read from'
    });
}

/** The named elements a top-level element holds: itself, or a turn's actions. By `$type` (no subtypes among the elements). */
function namedIn(el: Element, each: (node: Named) => void): void {
    if (el.$type === 'Turn') {
        for (const inner of (el as Turn).elements) if (inner.$type === 'Action' && (inner as Action).name) each(inner as Action);
    } else if (Object.hasOwn(KINDS, el.$type) && (el as Named).name) each(el as Named);
}

function note(seen: NamesSeen, node: Named): void {
    let byName = seen.byType.get(node.$type);
    if (!byName) seen.byType.set(node.$type, byName = new Map());
    const held = byName.get(node.name);
    if (held === undefined) byName.set(node.name, node);
    else if (Array.isArray(held)) held.push(node);
    else byName.set(node.name, [held, node]);
}

function forget(seen: NamesSeen, node: Named): void {
    const byName = seen.byType.get(node.$type);
    const held = byName?.get(node.name);
    if (held === undefined) return;
    if (!Array.isArray(held)) {
        if (held === node) byName!.delete(node.name);
        return;
    }
    const rest = held.filter(n => n !== node);
    byName!.set(node.name, rest.length === 1 ? rest[0] : rest);
}

/** File order: a top-level element's place, and a turn's action's place in its turn after it. */
function byPlace(a: Named, b: Named): number {
    const top = (n: Named) => (n.$container?.$type === 'Turn' ? n.$container.$containerIndex! : n.$containerIndex!);
    const inner = (n: Named) => (n.$container?.$type === 'Turn' ? n.$containerIndex! : -1);
    return top(a) - top(b) || inner(a) - inner(b);
}

export function checkForce(force: Force, accept: ValidationAcceptor): void {
    if (force.units.length === 0) {
        accept('error', `Force '${force.name}' has no units: add at least one 'unit Name arm'.`, { node: force, property: 'name', code: Codes.emptyForce });
    }
    const seen = new Set<string>();
    for (const unit of force.units) {
        if (seen.has(unit.name)) {
            accept('error', `Force '${force.name}' already has a unit named '${unit.name}'.`, { node: unit, property: 'name', code: Codes.duplicateName });
        }
        seen.add(unit.name);
    }
}

export function checkUnit(unit: Unit, accept: ValidationAcceptor): void {
    const model = modelOf(unit);
    const limits = model.limits;
    // `unit F Veteran`: the grade written where the arm goes reads as an arm named Veteran.
    if (unit.arm && !unit.grade && model.grades.has(unit.arm)) {
        const arms = model.ruleset?.vocabulary.arms ?? [];
        accept('warning', `'${unit.arm}' is a grade, written where the unit's arm goes: a unit line is 'unit Name arm [grade]', e.g. 'unit ${unit.name} ${arms[0] ?? 'foot'} ${unit.arm}'.`,
            { node: unit, property: 'arm', code: Codes.gradeAsArm, data: { replacements: arms.map(arm => `${arm} ${unit.arm}`) } });
    }
    if (unit.count !== undefined) {
        const n = unitCount(unit);
        if (n === 0) {
            accept('error', `A count of 0 makes no units: remove '${unit.count}' or give at least x1.`, { node: unit, property: 'count', code: Codes.countZero });
        } else if (n > limits.maxCount) {
            accept('error', `${unit.count} is more units than one line may make (at most x${limits.maxCount}, setting ${settingName('maxCount')}); only the first ${limits.maxCount} are used.`, { node: unit, property: 'count', code: Codes.countTooLarge });
        }
    }
    for (const stat of unit.stats) {
        if (stat.key === 'die' && !dieNamed(stat.value?.word ?? '')) {
            accept('error', notADie(stat.value?.word ?? stat.value?.number ?? ''), { node: stat, code: Codes.unknownDie });
        }
    }
    model.ruleset?.checkStatOwner?.(unit, accept);
}

/** What a die may be: d2 to d100 (any number of faces in between), or the average die (faces 2, 3, 3, 4, 4, 5). */
function notADie(written: string | number): string {
    return `'${written}' is not a die: write d6, or dN for N from 2 to ${MAX_DIE_SIDES} (d4, d8, d10, d12, d20 …), or average.`;
}

export function checkGrade(grade: Grade, accept: ValidationAcceptor): void {
    if (grade.value !== undefined && (grade.value < GRADE_RANGE.min || grade.value > GRADE_RANGE.max)) {
        accept('error', `A grade of ${signed(grade.value)} is outside the sensible range ${GRADE_RANGE.min} to +${GRADE_RANGE.max}: on a d6 it would decide every fight by itself.`,
            { node: grade, property: 'value', code: Codes.gradeValueRange });
    }
    for (const stat of grade.stats) {
        if (stat.key === 'die' && !dieNamed(stat.value?.word ?? '')) {
            accept('error', notADie(stat.value?.word ?? stat.value?.number ?? ''), { node: stat, code: Codes.unknownDie });
        }
    }
    modelOf(grade).ruleset?.checkStatOwner?.(grade, accept);
}

export function checkModifier(modifier: Modifier, accept: ValidationAcceptor): void {
    if (modifier.value < MODIFIER_RANGE.min || modifier.value > MODIFIER_RANGE.max) {
        accept('error', `A modifier of ${signed(modifier.value)} is outside the sensible range ${MODIFIER_RANGE.min} to +${MODIFIER_RANGE.max}.`,
            { node: modifier, property: 'value', code: Codes.modifierValueRange });
    }
}

/** `French.Line#3` when French has only two Lines, or `#2` on a unit declared without a count. */
export function checkTarget(target: Target, accept: ValidationAcceptor): void {
    const unit = target.unit?.ref;
    if (!unit || target.index === undefined) return;
    const count = Math.min(unitCount(unit), modelOf(target).limits.maxCount);
    if (!unit.count) {
        accept('error', `'${unit.name}' is a single unit: write '${target.force.$refText}.${unit.name}' without '#${target.index}'.`, { node: target, property: 'index', code: Codes.unitIndexRange });
    } else if (target.index < 1 || target.index > count) {
        accept('error', `'${unit.name}' has units #1 to #${count}; there is no #${target.index}.`, { node: target, property: 'index', code: Codes.unitIndexRange });
    }
}

export function checkSeed(seed: Seed, accept: ValidationAcceptor): void {
    if (seed.value > MAX_SEED) {
        accept('error', `A seed is a whole number from 0 to ${MAX_SEED}.`, { node: seed, property: 'value', code: Codes.seedRange });
    }
}

/** `option pooled`, `option die d4`: a name the file's rule set knows, and a die that exists. */
export function checkOption(option: RuleOption, accept: ValidationAcceptor): void {
    const model = modelOf(option);
    const known = model.ruleset?.vocabulary.options;
    if (!known) return;
    if (!known.includes(option.name)) {
        const hint = didYouMean(option.name, known, `the options are ${known.join(', ')}.`);
        accept('error', `The ${model.rules} rules have no option '${option.name}': ${hint}`, { node: option, property: 'name', code: Codes.unknownOption, data: { replacements: closeSpellings(option.name, known) } });
        return;
    }
    if (option.name === 'die' && !dieNamed(option.word ?? '')) {
        const written = option.word ?? option.number ?? option.text ?? '';
        accept('error', notADie(written), { node: option, code: Codes.unknownDie });
    }
}


/**
 * A fraction (`9.5`) only where the rule set measures a distance (`fractionalFacts`): a count of
 * DPs, dice or stands is whole, and a fraction there would be read as something it is not.
 */
export function checkFraction(fact: Fact, accept: ValidationAcceptor): void {
    if (fact.number === undefined || Number.isInteger(fact.number)) return;
    const allowed = modelOf(fact).ruleset?.vocabulary.fractionalFacts ?? [];
    if (allowed.includes(fact.key)) return;
    const where = allowed.length ? ` (fractions are for distances: ${allowed.join(', ')})` : '';
    accept('error', `'${fact.key}' takes a whole number, not ${fact.number}${where}.`, { node: fact, property: 'number', code: Codes.fractionNotAllowed });
}
