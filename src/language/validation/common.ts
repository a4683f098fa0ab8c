/**
 * Checks that hold whatever the rule set: names, counts, grades and modifiers, references.
 */
import type { ValidationAcceptor } from 'langium';
import type {
    Element, Fact, Force, Grade, Modifier, RuleOption, Scenario, Seed, Target, TurnElement, Unit
} from '../generated/ast.js';
import { unitCount } from '../../core/scenario.js';
import { settingName } from '../../core/limits.js';
import { modelOf } from '../../core/model-cache.js';
import { dieNamed, MAX_SEED } from '../../core/dice.js';
import { Codes } from '../../core/codes.js';
import { signedValue as signed } from '../../core/signed.js';

export const GRADE_RANGE = { min: -6, max: 6 } as const;
export const MODIFIER_RANGE = { min: -10, max: 10 } as const;

export function checkUniqueNames(scenario: Scenario, accept: ValidationAcceptor): void {
    const byKind = new Map<string, Set<string>>();
    const note = (kind: string, node: Grade | Modifier | Force | { name: string, $type: string }) => {
        let names = byKind.get(kind);
        if (!names) byKind.set(kind, names = new Set<string>());
        if (!node.name) return;
        if (names.has(node.name)) {
            accept('error', `There is already ${/^[aeiou]/.test(kind) ? 'an' : 'a'} ${kind} named '${node.name}'.`, { node: node as Grade, property: 'name', code: Codes.duplicateName });
        } else names.add(node.name);
    };
    // By `$type` (no subtypes among the elements): every element is visited on every build.
    const visit = (el: Element | TurnElement) => {
        switch (el.$type) {
            case 'Grade': note('grade', el); break;
            case 'Modifier': note('modifier', el); break;
            case 'Force': note('force', el); break;
            case 'Action': note('engagement or action', el); break;
            case 'Turn': el.elements.forEach(visit); break;
        }
    };
    scenario.elements.forEach(visit);
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
            accept('error', `'${stat.value?.word ?? stat.value?.number ?? ''}' is not a die: write d6, d4, d8, d10, d12, d20 or average.`, { node: stat, code: Codes.unknownDie });
        }
    }
}

export function checkGrade(grade: Grade, accept: ValidationAcceptor): void {
    if (grade.value !== undefined && (grade.value < GRADE_RANGE.min || grade.value > GRADE_RANGE.max)) {
        accept('error', `A grade of ${signed(grade.value)} is outside the sensible range ${GRADE_RANGE.min} to +${GRADE_RANGE.max}: on a d6 it would decide every fight by itself.`,
            { node: grade, property: 'value', code: Codes.gradeValueRange });
    }
    for (const stat of grade.stats) {
        if (stat.key === 'die' && !dieNamed(stat.value?.word ?? '')) {
            accept('error', `'${stat.value?.word ?? stat.value?.number ?? ''}' is not a die: write d6, d4, d8, d10, d12, d20 or average.`, { node: stat, code: Codes.unknownDie });
        }
    }
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
        accept('error', `The ${model.rules} rules have no option '${option.name}': the options are ${known.join(', ')}.`, { node: option, property: 'name', code: Codes.unknownOption });
        return;
    }
    if (option.name === 'die' && !dieNamed(option.word ?? '')) {
        const written = option.word ?? option.number ?? option.text ?? '';
        accept('error', `'${written}' is not a die: write d6, d4, d8, d10, d12, d20 or average.`, { node: option, code: Codes.unknownDie });
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
