/**
 * SCRUD checks on an engagement: two distinct sides, factors and dice that belong to it, and entered
 * dice that match the units of each side and arm, face by face.
 */
import type { ValidationAcceptor } from 'langium';
import { isDice, isFactor, isFacts, isFlag, isRelation, isSeed, isSplit, type Action, type Dice, type Flag, type Grade, type Sides, type Target, type Unit } from '../../language/generated/ast.js';
import { sideUnits, targetText, unitsOf, type ScenarioModel, type UnitModel } from '../../core/scenario.js';
import { buildScrudInput, diceLinesFor, factorRepeats, PURSUIT, pursuitRuleOf, scrudDicePlan, scrudEnteredValues, unitsFedBy } from './scrud-reader.js';
import { canShow, cannotShowMessage, D6 } from '../../core/dice.js';
import type { ScrudInput, ScrudSide } from './engine/scrud-engine.js';
import { enteredDiceSource } from '../../core/dice-source.js';
import { walkDicePlan } from '../../core/dice-plan.js';
import { Codes } from '../../core/codes.js';
import { onePairOfSides } from '../../core/sides-check.js';
import { closeSpellings } from '../../core/spelling.js';

/**
 * Run on every engagement of every build, and most report nothing: the statements are read once by
 * `$type` (no subtypes among them), and what reports (rare) sits in functions of its own, so that this
 * one stays small and is compiled once (as one function it took ~90 + 50 ms of optimizing compiles in a
 * cold check of 50,000 lines, after a deopt; docs/performance.md).
 */
export function checkScrudAction(model: ScenarioModel, action: Action, accept: ValidationAcceptor): void {
    let notScrud = false, factorsOrDice = false, dice = false;
    for (const st of action.statements) {
        switch (st.$type) {
            case 'Relation': case 'Split': case 'Facts': notScrud = true; break;
            case 'Flag': if ((st as Flag).name === 'first') notScrud = true; break;
            case 'Factor': factorsOrDice = true; break;
            case 'Dice': factorsOrDice = true; dice = true; break;
        }
    }
    if (notScrud) checkNotScrud(action, accept);
    const s = onePairOfSides(action, accept);
    if (!s) return;
    if (s.attackers.length !== 1 || s.defenders.length !== 1 || sameForce(s.attackers[0], s.defenders[0])) checkSideForces(s, accept);
    // The units in the engagement are the sides' (`buildScrudInput` has none when a side is empty);
    // each unit's die and modifier are worked out below only when dice are entered to check.
    const sides = sideUnits(model, action);
    if (!sides || sides.attackers.length === 0 || sides.defenders.length === 0) return;
    if (factorsOrDice) checkInEngagement(model, action, s, sides, accept);
    for (const r of factorRepeats(model, action)) {
        accept('warning', r.message, { node: r.factor, property: r.property, index: r.index, code: Codes.factorRepeated, data: { removable: r.removable } });
    }
    if (dice) checkEnteredDice(model, action, accept);
}

/** Statements of the other rule sets: said once each (a `Facts` line only for its keys but the pursuit throw). */
function checkNotScrud(action: Action, accept: ValidationAcceptor): void {
    for (const st of action.statements) {
        if (isRelation(st) || isSplit(st) || (isFlag(st) && st.name === 'first')) {
            accept('warning', 'SCRUD does not use this; it belongs to the Ancients rules.', { node: st, code: Codes.statementNotUsed });
        } else if (isFacts(st)) {
            // S2: in SCRUD everything that changes a die is a named factor, so that it is summed and shown.
            // The one fact it reads is S-ex.6's pursuit throw.
            st.facts.forEach((f, i) => {
                if (f.key === PURSUIT) return;
                // A misspelt pursuit is one edit from the word read: say so, with the fix.
                if (closeSpellings(f.key, [PURSUIT]).length > 0) {
                    accept('warning', `SCRUD does not read '${f.key}': did you mean '${PURSUIT}'? (the pursuit throw, S-ex.6)`,
                        { node: st, property: 'facts', index: i, code: ScrudCodes.unknownFact });
                    return;
                }
                accept('warning', `SCRUD reads only '${PURSUIT}' on a unit: for what changes a die, declare a modifier and write 'factor Name on ${targetText(st.target)}'.`,
                    { node: st, property: 'facts', index: i, code: Codes.statementNotUsed });
            });
        }
    }
}

/** Whether two references name the same force (a named one: an unnamed reference is reported by the parser). */
function sameForce(a: Target, b: Target): boolean {
    const name = a.force?.$refText;
    return !!name && b.force?.$refText === name;
}

/** A side is one force, and no force is on both sides (one target a side, of two forces: nothing to say). */
function checkSideForces(s: Sides, accept: ValidationAcceptor): void {
    const att = new Set(s.attackers.map(t => t.force?.$refText).filter(Boolean));
    for (const property of ['attackers', 'defenders'] as const) {
        // Reported on the first unit that is not from the side's first force, so the umpire sees which one.
        const targets = s[property];
        const first = targets[0]?.force?.$refText;
        const stray = targets.findIndex(t => t.force?.$refText && t.force.$refText !== first);
        if (stray >= 0) {
            accept('error', `A SCRUD side is one force: '${targetText(targets[stray])}' is not from ${first}.`, { node: s, property, index: stray, code: Codes.sideMixesForces });
        }
    }
    s.defenders.forEach((t, i) => {
        if (att.has(t.force?.$refText)) {
            accept('error', `'${t.force.$refText}' cannot fight itself: it is on both sides.`, { node: s, property: 'defenders', index: i, code: Codes.sameForceBothSides });
        }
    });
}

/** Whether a side names this force whole: then every unit of the force is in the engagement. */
function namedWhole(s: Sides, force: string | undefined): boolean {
    if (!force) return false;
    for (const t of s.attackers) if (!t.unit && t.force?.$refText === force) return true;
    for (const t of s.defenders) if (!t.unit && t.force?.$refText === force) return true;
    return false;
}

/** Factors and dice name units of the engagement. */
function checkInEngagement(model: ScenarioModel, action: Action, s: Sides, sides: { attackers: readonly UnitModel[], defenders: readonly UnitModel[] }, accept: ValidationAcceptor): void {
    let inEngagement: Set<string> | undefined;
    // A target of a force a side names whole names units of the engagement, or none (then nothing is said):
    // the common `factor Uphill on F1` needs no look at the units.
    const outside = (t: Target | undefined): boolean => {
        if (t && namedWhole(s, t.force?.$refText)) return false;
        const units = unitsOf(model, t);
        if (units.length === 0) return false;
        if (!inEngagement) {
            inEngagement = new Set<string>();
            for (const u of sides.attackers) inEngagement.add(u.id);
            for (const u of sides.defenders) inEngagement.add(u.id);
        }
        const ids = inEngagement;
        return !units.some(u => ids.has(u.id));
    };
    for (const st of action.statements) {
        if (isFactor(st)) {
            st.targets.forEach((t, i) => {
                if (outside(t)) {
                    accept('warning', `Factor on units that are not in engagement '${action.name}': it changes nothing.`, { node: st, property: 'targets', index: i, code: Codes.factorNotInEngagement });
                }
            });
        }
        if (isDice(st)) {
            if (outside(st.target)) {
                accept('error', `Dice for units that are not in engagement '${action.name}'.`, { node: st, property: 'target', code: Codes.diceNotInEngagement });
            }
        }
    }
}

/** Dice entered from the table: the seed is ignored, and each side's dice and the pursuit throws must fit. */
function checkEnteredDice(model: ScenarioModel, action: Action, accept: ValidationAcceptor): void {
    for (const seed of action.statements.filter(isSeed)) {
        accept('warning', 'The dice entered from the table are used; this seed is ignored.', { node: seed, code: Codes.seedWithDice });
    }
    const input = buildScrudInput(model, action)!;
    checkSideDice(model, action, input.attacker, accept);
    checkSideDice(model, action, input.defender, accept);
    checkPursuitDice(model, action, input, accept);
}

/** SCRUD's own codes (docs/diagnostics.md). */
export const ScrudCodes = {
    pursuitOption: 'scrud-pursuit-option',
    unknownStat: 'scrud-unknown-stat',
    unknownFact: 'scrud-unknown-fact'
} as const;

/** The stats SCRUD reads: a unit's die (S1) and the turn it arrives (docs/campaigns.md). */
const SCRUD_STATS = ['die', 'enters'] as const;

/**
 * A stat SCRUD does not read is said where it is written, with the stat it was likely meant to be: read from
 * the grade's or unit's own node only (the rule set's `checkStatOwner`, kept with the node).
 */
export function checkScrudStats(owner: Grade | Unit, accept: ValidationAcceptor): void {
    for (const stat of owner.stats) {
        if ((SCRUD_STATS as readonly string[]).includes(stat.key)) continue;
        const close = closeSpellings(stat.key, SCRUD_STATS);
        const hint = close.length > 0 ? `did you mean ${close.map(k => `'${k}'`).join(' or ')}?`
            : `it reads only 'die' (the die a unit throws, S1) and 'enters' (the turn it arrives); grades and factors are its modifiers (S2).`;
        accept('warning', `SCRUD does not use '${stat.key}': ${hint}`, { node: stat, property: 'key', code: ScrudCodes.unknownStat });
    }
}

/** Once per file: `option pursuit N` naming the least d6 throw that pursues (S-ex.6). */
export function checkScrudScenario(model: ScenarioModel, accept: ValidationAcceptor): void {
    for (const option of model.root.options) {
        if (option.name !== PURSUIT) continue;
        if (option.number === undefined || option.number < 1 || option.number > 6) {
            accept('error', `'option ${PURSUIT}' takes the least d6 throw that pursues, 1 to 6 (S-ex.6): e.g. 'option ${PURSUIT} 4'.`,
                { node: option, property: option.number !== undefined ? 'number' : 'name', code: ScrudCodes.pursuitOption });
        }
    }
}

/**
 * S-ex.6 with entered dice: one pursuit throw for each unit given one that won its pair (the
 * variant's 1s and 6s throw none), read in order from `dice X pursuit N` lines, each a d6 face.
 */
function checkPursuitDice(model: ScenarioModel, action: Action, input: ScrudInput, accept: ValidationAcceptor): void {
    const lines = action.statements.filter(isDice).filter(d => d.label === PURSUIT);
    const rule = pursuitRuleOf(model, action);
    if (!rule) {
        for (const line of lines) accept('error', `No unit here is given a pursuit throw: write 'X: ${PURSUIT}' for the unit, or remove this line.`, { node: line, property: 'label', code: Codes.diceCount });
        return;
    }
    // The plan decides who throws for pursuit from the combat dice entered; no resolve.
    const source = enteredDiceSource(scrudEnteredValues(model, action, input));
    const taken = walkDicePlan(scrudDicePlan(model, action, input), source);
    const combat = input.attacker.units.length + input.defender.units.length;
    // A unit without its combat die is reported by the side's check; who wins is then unknown.
    if (taken.slice(0, combat).some(t => t.values.length !== 1)) return;
    const pursuit = taken.slice(combat);
    const throwers = pursuit.map(t => t.request.who[0]);
    const read = new Map<Dice, number>();
    for (const from of source.readFrom.slice(combat)) for (const r of from) read.set(r.origin, (read.get(r.origin) ?? 0) + 1);
    const extra = lines.filter(line => line.values.length > (read.get(line) ?? 0));
    for (const line of lines) {
        line.values.forEach((v, i) => {
            if (!canShow(D6, v)) accept('error', `A d6 cannot show ${v}: its faces are 1 to 6 (a pursuit throw is a d6).`, { node: line, property: 'values', index: i, code: Codes.dieFace, data: { min: 1, max: 6 } });
        });
    }
    for (const line of extra) {
        accept('error', `More pursuit throws than units that won and throw for pursuit (${throwers.join(', ') || 'none'}).`, { node: line, property: 'values', code: Codes.diceCount });
    }
    const missing = pursuit.filter(t => t.values.length === 0).map(t => t.request.who[0]);
    if (missing.length > 0) {
        accept('error', `${missing.join(', ')} won and ${missing.length === 1 ? 'throws' : 'throw'} for pursuit (S-ex.6): add 'dice ${missing[0]} ${PURSUIT} N'.`, { node: action, property: 'name', code: Codes.diceCount });
    }
}

/** Each unit of a side needs exactly one die, from lines that follow its arm; every face must exist. */
function checkSideDice(model: ScenarioModel, action: Action, side: ScrudSide, accept: ValidationAcceptor): void {
    const lines = diceLinesFor(model, action, side.units);
    const fedCount = new Map<string, number>();
    const arms = new Set(side.units.map(u => u.arm));
    // A line whose label names no arm of the side was meant for some of its units: one error, on the label.
    let mislabelled = false;
    for (const line of lines) {
        if (line.label !== undefined && !arms.has(line.label)) {
            mislabelled = true;
            accept('error', `${side.force} has no ${line.label}: its arms are ${[...arms].join(', ')}.`, { node: line, property: 'label', code: Codes.diceLabel });
            continue;
        }
        const fed = unitsFedBy(model, line, side.units);
        const again = fed.filter(u => fedCount.has(u.id));
        fed.forEach(u => fedCount.set(u.id, (fedCount.get(u.id) ?? 0) + 1));
        if (again.length > 0) {
            // Each unit throws one die (S1): a second line for the same units would silently replace the first.
            accept('error', `${again.map(u => u.id).join(', ')} already ${again.length === 1 ? 'has its die' : 'have their dice'} from an earlier dice line.`, { node: line, property: 'target', code: Codes.diceCount });
            continue;
        }
        if (line.values.length !== fed.length) {
            accept('error', diceCountMessage(line, fed.length), { node: line, property: 'values', index: Math.min(line.values.length, fed.length), code: Codes.diceCount, data: { expected: fed.length } });
        }
        line.values.forEach((v, i) => {
            // A die beyond the units fed is read as the line's last unit's die: its face is checked too.
            const die = fed[Math.min(i, fed.length - 1)]?.die;
            if (die && !canShow(die, v)) {
                accept('error', cannotShowMessage(die, v), { node: line, property: 'values', index: i, code: Codes.dieFace, data: { min: die.min, max: die.max } });
            }
        });
    }
    const missing = side.units.filter(u => !fedCount.has(u.id));
    if (mislabelled) return;
    if (missing.length > 0 && lines.length > 0) {
        const byArm = new Map<string, number>();
        for (const u of missing) byArm.set(u.arm, (byArm.get(u.arm) ?? 0) + 1);
        const what = [...byArm.entries()].map(([arm, n]) => `${n} ${arm}`).join(', ');
        accept('error', `${side.force} has no dice entered for ${what}: add 'dice ${side.force} ${[...byArm.keys()][0]} …'.`, { node: lines[0], property: 'target', code: Codes.diceCount });
    } else if (missing.length > 0) {
        accept('error', `Dice were entered for the other side, but none for ${side.force}: add 'dice ${side.force} …' or remove the dice and use a seed.`,
            { node: action, property: 'name', code: Codes.diceCount });
    }
}

function diceCountMessage(line: Dice, expected: number): string {
    const what = line.label ? `${line.target.force?.$refText} ${line.label}` : line.target.force?.$refText;
    return `${what} has ${expected} unit${expected === 1 ? '' : 's'} to throw for, but ${line.values.length} ${line.values.length === 1 ? 'die is' : 'dice are'} entered.`;
}
