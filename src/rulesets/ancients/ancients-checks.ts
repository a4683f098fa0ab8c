/**
 * Ancients checks (docs/rules/ancients.md, A1–A9): every unit's stats where they are written, the break-die option,
 * and each melee — pairings, positions, splits, facts, and the dice entered from the table, count by
 * count and face by face. Every problem lands on the exact value, reference or number at fault.
 */
import type { ValidationAcceptor } from 'langium';
import {
    isDice, isFactor, isFacts, isFlag, isGrade, isRelation, isSeed, isSplit,
    type Action, type Dice, type Grade, type Relation, type Sides, type Split, type Stat, type Target, type Unit
} from '../../language/generated/ast.js';
import {
    ANCIENTS_FACTS, ANCIENTS_RANGES, ANCIENTS_STATS, DICE_LABELS, ancientsTables, buildAncientsInput, diceThrow, ancientsDicePlan, ancientsEnteredValues, leadershipRange, missingStats,
    oneUnit, pairingStatements, REQUIRED_STATS, statValueProblem, type LeadershipRange
} from './ancients-reader.js';
import { eachStatOwner, statValue, unitsOf, type ScenarioModel, type UnitModel } from '../../core/scenario.js';
import { sideUnits } from '../../core/scenario.js';
import { attackPlan, diceFor, diceSplit, opponentsOf, type AncientsInput, type AncientsPosition, type AncientsThrow } from './engine/ancients-engine.js';
import { enteredDiceSource } from '../../core/dice-source.js';
import { walkDicePlan } from '../../core/dice-plan.js';
import { Codes } from '../../core/codes.js';
import { tablesFor } from '../../core/house-rules.js';
import { onePairOfSides } from '../../core/sides-check.js';
import { AncientsCodes } from './ancients-codes.js';
import { closeSpellings, didYouMean, possessive } from '../../core/spelling.js';

// ─── Stats and options (once per file) ───────────────────────────────────────────────────────────

/** The scenario-wide checks of an Ancients file: the break-die option, and every grade's and unit's stats. */
export function checkAncientsScenario(model: ScenarioModel, accept: ValidationAcceptor): void {
    const scenario = model.root;
    for (const option of scenario.options) {
        if (option.name === 'break-die' && option.word !== 'd6') {
            accept('error', `The break test is 2d6, or 1d6 with 'option break-die d6' (A7): write d6 or remove the option.`,
                { node: option, property: option.word !== undefined ? 'word' : 'name', code: AncientsCodes.breakDie });
        }
    }
    const range = leadershipRange(model);
    eachStatOwner(scenario, grade => checkStats(grade, range, accept), unit => {
        checkStats(unit, range, accept);
        checkUnitStats(model, unit, accept);
    });
}

/** Each stat where it is written: a known key, and a value the rules can read. */
function checkStats(owner: Grade | Unit, range: LeadershipRange, accept: ValidationAcceptor): void {
    for (const stat of owner.stats) {
        // `die` is checked for every rule set (common.ts), `enters` by the campaign (campaign.ts).
        if (stat.key === 'die' || stat.key === 'enters') continue;
        if (!(ANCIENTS_STATS as readonly string[]).includes(stat.key)) {
            const needed = neededStatMisspelt(owner, stat.key);
            const hint = didYouMean(stat.key, ANCIENTS_STATS, `the stats are ${ANCIENTS_STATS.join(', ')}.`);
            // A misspelt stat a unit needs is the one error: the unit cannot fight until it is put right.
            accept(needed ? 'error' : 'warning', `The Ancients rules do not use '${stat.key}': ${hint}${needed ? ` ${needer(owner)} needs ${needed} to fight (A1).` : ''}`,
                { node: stat, property: 'key', code: AncientsCodes.statUnknown });
            continue;
        }
        const problem = statValueProblem(stat.key, statValue(stat), range);
        if (!problem) { checkRange(stat, accept); continue; }
        const code = problem.kind === 'leadership' ? AncientsCodes.leadershipRange : problem.kind === 'tokens' ? AncientsCodes.tokensRange : AncientsCodes.statValue;
        accept('error', problem.message, { node: stat, property: stat.value ? 'value' : 'key', code, data: { replacements: replacementsFor(problem.kind, stat.value?.number, range) } });
    }
}

/** The stat a unit needs that `key` misspells, when its owner does not also give it rightly spelt. */
function neededStatMisspelt(owner: Grade | Unit, key: string): string | undefined {
    const meant = closeSpellings(key, ANCIENTS_STATS)[0];
    if (!meant || !(REQUIRED_STATS as readonly string[]).includes(meant)) return undefined;
    return owner.stats.some(s => s.key === meant) ? undefined : meant;
}

/** Who needs a stat a grade or unit misspells, as the message names it. */
function needer(owner: Grade | Unit): string {
    return isGrade(owner) ? `A unit of grade '${owner.name}'` : `'${owner.name}'`;
}

/** A number outside what the rules read (`ANCIENTS_RANGES`), with its nearest end as the fix. */
function checkRange(stat: Stat, accept: ValidationAcceptor): void {
    const bounds = ANCIENTS_RANGES[stat.key], value = statValue(stat);
    if (!bounds || typeof value !== 'number') return;
    const max = bounds.max ?? Infinity;
    if (value >= bounds.min && value <= max) return;
    const near = Math.min(Math.max(value, bounds.min), max);
    accept(bounds.severity, `${stat.key} ${value} is outside ${bounds.min} to ${bounds.max}: ${bounds.why}. It is read as written.`,
        { node: stat, property: 'value', code: AncientsCodes.statRange, data: { replacements: [String(near)] } });
}

/** The value a quick fix offers: no tokens, or the leadership the break test can reach (A7). */
function replacementsFor(kind: string, value: number | undefined, range: LeadershipRange): string[] {
    if (kind === 'tokens') return ['0'];
    if (kind === 'leadership' && value !== undefined) return [String(Math.min(Math.max(value, range.min), range.max))];
    return [];
}

/** After the grade bundle is merged: nothing required missing, and not both shock and defensive. */
function checkUnitStats(model: ScenarioModel, unit: Unit, accept: ValidationAcceptor): void {
    const instance = model.forces.get((unit.$container).name)?.units.find(u => u.node === unit);
    if (!instance) return;
    // A stat misspelt in its braces or its grade is reported there, once (checkStats).
    const misspelt = new Set([...unit.stats, ...unit.grade?.ref?.stats ?? []].map(s => closeSpellings(s.key, ANCIENTS_STATS)[0]));
    const missing = missingStats(instance).filter(k => !misspelt.has(k));
    if (missing.length > 0) {
        const typeHint = missing.includes('type') ? ` (type: write 'type cavalry' or 'type infantry', or make its arm cavalry or infantry)` : '';
        const where = unit.grade ? `its grade '${unit.grade.$refText}' or its braces` : 'a grade bundle or its braces';
        accept('error', `'${unit.name}' needs ${missing.join(', ')} to fight: add ${missing.length === 1 ? 'it' : 'them'} in ${where}${typeHint}.`,
            { node: unit, property: 'name', code: AncientsCodes.statMissing, data: { missing } });
    }
    if (instance.stats.get('shock') === true && instance.stats.get('defensive') === true) {
        const own = unit.stats.find(s => s.key === 'defensive' || s.key === 'shock');
        const message = `'${unit.name}' is both shock and defensive: the seed makes a unit one or the other (A1).`;
        if (own) accept('error', message, { node: own, property: 'key', code: AncientsCodes.statValue });
        else accept('error', message, { node: unit, property: 'name', code: AncientsCodes.statValue });
    }
}

// ─── One melee ───────────────────────────────────────────────────────────────────────────────────

export function checkAncientsAction(model: ScenarioModel, action: Action, accept: ValidationAcceptor): void {
    for (const st of action.statements) {
        if (isFactor(st) || (isFlag(st) && st.name === 'pooled') || (isRelation(st) && st.verb !== 'vs')) {
            accept('warning', 'The Ancients rules do not use this: it belongs to another rule set.', { node: st, code: Codes.statementNotUsed });
        }
    }
    const pair = onePairOfSides(action, accept);
    if (!pair) return;
    const sides = checkSides(model, pair, accept);
    if (!sides) return;
    const sideOf = new Map<string, 'attacker' | 'defender'>();
    sides.attackers.forEach(u => sideOf.set(u.id, 'attacker'));
    sides.defenders.forEach(u => { if (!sideOf.has(u.id)) sideOf.set(u.id, 'defender'); });
    checkPairings(model, action, sideOf, accept);
    checkFacts(model, action, sideOf, accept);
    const reading = buildAncientsInput(model, action);
    const input = 'problem' in reading ? undefined : reading.input;
    checkIdle(model, action, pair, sideOf, accept);
    checkSplits(model, action, sideOf, input, accept);
    checkDice(model, action, input, accept);
}

/** A unit on both sides, or a force on both sides, cannot fight itself. */
function checkSides(model: ScenarioModel, sides: Sides, accept: ValidationAcceptor): { attackers: UnitModel[], defenders: UnitModel[] } | undefined {
    const units = sideUnits(model, sides.$container as Action);
    if (!units) return undefined;
    const attackerForces = new Set(sides.attackers.filter(t => !t.unit).map(t => t.force?.$refText));
    const attackerIds = new Set(units.attackers.map(u => u.id));
    sides.defenders.forEach((t, i) => {
        if (!t.unit && attackerForces.has(t.force?.$refText)) {
            accept('error', `'${t.force.$refText}' cannot fight itself: it is on both sides.`, { node: sides, property: 'defenders', index: i, code: Codes.sameForceBothSides });
        } else if (unitsOf(model, t).some(u => attackerIds.has(u.id))) {
            accept('error', `${targetLabel(t)} is on both sides.`, { node: sides, property: 'defenders', index: i, code: Codes.unitOnBothSides });
        }
    });
    return units;
}

const POSITION_STEPS_TEXT = 'one of the two must be in contact with the other\'s front';

/**
 * Pairings: each side one unit of the engagement, opponents from different forces and sides, each
 * pair once, and positions that can both be true. Two units touch along one edge each, and one of
 * them must be fighting with its front: front/front, flank/front and rear/front are possible;
 * flank/flank, flank/rear and rear/rear (both in each other's rear) are not.
 */
function checkPairings(model: ScenarioModel, action: Action, sideOf: ReadonlyMap<string, string>, accept: ValidationAcceptor): void {
    const seen = new Set<string>();
    for (const r of pairingStatements(action)) {
        r.facts.forEach((_f, i) => accept('warning', `The Ancients rules read nothing after a pairing: write facts on their own line ('X: charged').`,
            { node: r, property: 'facts', index: i, code: Codes.statementNotUsed }));
        const a = checkOneUnitInEngagement(model, r, 'subject', sideOf, accept);
        const b = checkOneUnitInEngagement(model, r, 'object', sideOf, accept);
        if (!a || !b) continue;
        if (a.id === b.id) {
            accept('error', `${a.id} cannot fight itself.`, { node: r, property: 'object', code: AncientsCodes.ownSide });
            continue;
        }
        if (a.force === b.force || sideOf.get(a.id) === sideOf.get(b.id)) {
            const why = a.force === b.force ? `both belong to ${a.force}` : 'both are on the same side';
            accept('error', `${a.id} cannot fight ${b.id}: ${why}.`, { node: r, property: 'object', code: AncientsCodes.ownSide });
            continue;
        }
        const key = [a.id, b.id].sort().join(' ');
        if (seen.has(key)) {
            accept('error', `${a.id} and ${b.id} are already paired: write each pair once, with both positions.`, { node: r, code: AncientsCodes.pairDuplicate });
            continue;
        }
        seen.add(key);
        const pa = (r.subjectPosition ?? 'front') as AncientsPosition, pb = (r.objectPosition ?? 'front') as AncientsPosition;
        if (pa !== 'front' && pb !== 'front') {
            accept('error', `${a.id} in ${possessive(b.id)} ${pa} and ${b.id} in ${possessive(a.id)} ${pb} cannot both be true: ${POSITION_STEPS_TEXT}.`,
                { node: r, property: 'objectPosition', code: AncientsCodes.positionConflict });
        }
    }
}

/** The one unit a pairing names on one side, when it is a single unit of the engagement. */
function checkOneUnitInEngagement(model: ScenarioModel, r: Relation, property: 'subject' | 'object', sideOf: ReadonlyMap<string, string>, accept: ValidationAcceptor): UnitModel | undefined {
    const target = r[property];
    if (!target.force?.ref || (target.unit && !target.unit.ref)) return undefined;
    const unit = oneUnit(model, target);
    if (!unit) {
        accept('error', `${targetLabel(target)} is ${unitsOf(model, target).length} units: a pairing joins two single units (write e.g. ${targetLabel(target)}#1).`,
            { node: r, property, code: AncientsCodes.notOneUnit });
        return undefined;
    }
    if (!sideOf.has(unit.id)) {
        accept('error', `${unit.id} is on neither side of engagement '${(r.$container as Action).name}': add it to the sides.`, { node: r, property, code: AncientsCodes.notInEngagement });
        return undefined;
    }
    return unit;
}

/** Facts the rules read (`charged`, `countercharged`, `follow-up`) on units of the engagement. */
function checkFacts(model: ScenarioModel, action: Action, sideOf: ReadonlyMap<string, string>, accept: ValidationAcceptor): void {
    const firstTurn = action.statements.some(s => isFlag(s) && s.name === 'first');
    action.statements.filter(s => isFlag(s) && s.name === 'first').slice(1).forEach(again => {
        accept('warning', `'first turn' is written twice in engagement '${action.name}': once says it (A1).`, { node: again, code: Codes.statementNotUsed });
    });
    for (const st of action.statements.filter(isFacts)) {
        const units = unitsOf(model, st.target);
        if (units.length > 0 && !units.some(u => sideOf.has(u.id))) {
            accept('error', `${targetLabel(st.target)} is not in engagement '${action.name}'.`, { node: st, property: 'target', code: AncientsCodes.notInEngagement });
        }
        st.facts.forEach((f, i) => {
            if (!(ANCIENTS_FACTS as readonly string[]).includes(f.key)) {
                accept('warning', `The Ancients rules do not read '${f.key}': ${didYouMean(f.key, ANCIENTS_FACTS, `the facts are ${ANCIENTS_FACTS.join(', ')}.`)}`, { node: st, property: 'facts', index: i, code: Codes.statementNotUsed });
            }
            // A1.5: a shock unit's charge adds dice on the first turn of a combat only; later it changes nothing.
            const shock = units.filter(u => u.stats.get('shock') === true);
            if ((f.key === 'charged' || f.key === 'countercharged') && !firstTurn && shock.length > 0) {
                accept('warning', `${shock.map(u => u.id).join(', ')} ${f.key}, but engagement '${action.name}' is not marked 'first turn': a shock unit's charge adds 2 dice on the first turn of a combat only (A1.5), so it changes nothing here. Write 'first turn' if this combat is new.`,
                    { node: st, property: 'facts', index: i, code: AncientsCodes.chargeNotFirstTurn });
            }
        });
    }
}

/** A unit on a side that is paired with nobody takes no part; with no pairs at all nothing fights. */
function checkIdle(model: ScenarioModel, action: Action, sides: Sides, sideOf: ReadonlyMap<string, string>, accept: ValidationAcceptor): void {
    const all = [...sideOf.keys()];
    const units = sideUnits(model, action)!;
    const written = pairingStatements(action);
    if (written.length === 0) {
        // A side naming a unit that does not resolve is the linker's one error: the unit meant may make it one against one.
        if ([...sides.attackers, ...sides.defenders].some(t => !t.force?.ref || (t.unit && !t.unit.ref))) return;
        if (units.attackers.length !== 1 || units.defenders.length !== 1) {
            accept('error', `Engagement '${action.name}' has ${all.length} ${all.length === 1 ? 'unit' : 'units'} but no pairs: write 'A vs B' (with positions) for each pair in contact.`,
                { node: action, property: 'name', code: AncientsCodes.noOpponent });
        }
        return;
    }
    const paired = new Set<string>();
    for (const r of written) {
        const a = oneUnit(model, r.subject), b = oneUnit(model, r.object);
        if (a && b && a.id !== b.id) { paired.add(a.id); paired.add(b.id); }
    }
    const list = (prop: 'attackers' | 'defenders') => sides[prop].forEach((t, i) => {
        const idle = unitsOf(model, t).filter(u => sideOf.has(u.id) && !paired.has(u.id));
        if (idle.length === 0) return;
        accept('warning', `${idle.map(u => u.id).join(', ')} ${idle.length === 1 ? 'has' : 'have'} no opponent here and take${idle.length === 1 ? 's' : ''} no part: pair ${idle.length === 1 ? 'it' : 'them'} with 'vs' or leave ${idle.length === 1 ? 'it' : 'them'} out of the sides.`,
            { node: sides, property: prop, index: i, code: AncientsCodes.noOpponent });
    });
    list('attackers');
    list('defenders');
}

/** A2: a split names the unit's opponents and adds up to its dice; several opponents need one. */
function checkSplits(model: ScenarioModel, action: Action, sideOf: ReadonlyMap<string, string>, input: AncientsInput | undefined, accept: ValidationAcceptor): void {
    const pairings = input?.pairings ?? [];
    const tables = ancientsTables(tablesFor(model, action));
    const splitOf = new Map<string, Split>();
    for (const s of action.statements.filter(isSplit)) {
        const unit = oneUnit(model, s.unit);
        if (!unit) {
            if (s.unit.force?.ref && (!s.unit.unit || s.unit.unit.ref)) {
                accept('error', `${targetLabel(s.unit)} is not one unit: a split is for a single unit.`, { node: s, property: 'unit', code: AncientsCodes.notOneUnit });
            }
            continue;
        }
        if (!sideOf.has(unit.id)) {
            accept('error', `${unit.id} is not in engagement '${action.name}'.`, { node: s, property: 'unit', code: AncientsCodes.notInEngagement });
            continue;
        }
        if (splitOf.has(unit.id)) {
            accept('error', `${unit.id} already has a split in this engagement.`, { node: s, property: 'unit', code: AncientsCodes.splitDuplicate });
            continue;
        }
        splitOf.set(unit.id, s);
        const opponents = opponentsOf({ pairings }, unit.id);
        const named = new Set<string>();
        for (const part of s.parts) {
            const t = oneUnit(model, part.target);
            if (!t) {
                if (part.target?.force?.ref && (!part.target.unit || part.target.unit.ref)) {
                    accept('error', `${targetLabel(part.target)} is not one unit.`, { node: part, property: 'target', code: AncientsCodes.notOneUnit });
                }
                continue;
            }
            if (input && !opponents.includes(t.id)) {
                const them = opponents.length > 0 ? `its opponents are ${opponents.join(', ')}` : 'it has no opponent';
                accept('error', `${t.id} is not an opponent of ${unit.id}: ${them}.`, { node: part, property: 'target', code: AncientsCodes.splitTarget });
            } else if (named.has(t.id)) {
                accept('error', `${t.id} is named twice in this split.`, { node: part, property: 'target', code: AncientsCodes.splitTarget });
            }
            named.add(t.id);
        }
        const fighter = input?.units.find(u => u.id === unit.id);
        if (fighter) {
            const pool = diceFor(fighter, input!.firstTurn, tables);
            const total = s.parts.reduce((x, p) => x + p.dice, 0);
            if (total !== pool) {
                accept('error', `${unit.id} throws ${pool} dice (A1), but this split gives ${total}: make the parts add up to ${pool}.`,
                    { node: s, property: 'unit', code: AncientsCodes.splitTotal, data: { expected: pool, total } });
            }
        }
    }
    if (!input) return;
    for (const u of input.units) {
        const opponents = opponentsOf(input, u.id);
        if (opponents.length < 2 || splitOf.has(u.id)) continue;
        const second = pairingStatements(action).filter(r => [oneUnit(model, r.subject)?.id, oneUnit(model, r.object)?.id].includes(u.id))[1];
        if (!second) continue;
        accept('error', `${u.id} fights ${opponents.join(' and ')}: write how it splits its ${diceFor(u, input.firstTurn, tables)} dice, e.g. 'split ${u.id} ${Math.ceil(diceFor(u, input.firstTurn, tables) / 2)} on ${opponents[0]}, ${Math.floor(diceFor(u, input.firstTurn, tables) / 2)} on ${opponents[1]}' (A2).`,
            { node: second, property: oneUnit(model, second.subject)?.id === u.id ? 'subject' : 'object', code: AncientsCodes.splitMissing });
    }
}

// ─── Entered dice ────────────────────────────────────────────────────────────────────────────────

/**
 * Dice entered from the table: `dice U hit …` (its whole pool, in split order), `dice U save …`
 * (one per hit received), `dice U test …` (2 or 1 per break test). How many saves and tests are due
 * depends on the dice before them, so the counts are checked by walking the dice plan over the dice
 * entered (docs/rules/ancients.md#one-round). Each unit's throw is judged on its own: a wrong hit line
 * or split leaves in doubt only the saves of the units those dice were thrown at, and a wrong save line
 * only that unit's break test, so every other count is reported in the same check.
 */
function checkDice(model: ScenarioModel, action: Action, input: AncientsInput | undefined, accept: ValidationAcceptor): void {
    const lines = action.statements.filter(isDice);
    if (lines.length === 0) return;
    for (const seed of action.statements.filter(isSeed)) {
        accept('warning', 'The dice entered from the table are used; this seed is ignored.', { node: seed, code: Codes.seedWithDice });
    }
    const read = readDiceLines(model, action, lines, input, accept);
    if (!input) return;
    const tables = ancientsTables(tablesFor(model, action));
    const check = (kind: AncientsThrow, unitId: string, expected: number) => {
        const key = `${kind} ${unitId}`;
        const line = read.byKey.get(key);
        if (!line && (expected === 0 || read.unread.has(kind))) return expected === 0;
        if (!line) {
            accept('error', `No ${kind} dice entered for ${unitId}: add 'dice ${unitId} ${kind}' with ${expected} ${expected === 1 ? 'die' : 'dice'}.`,
                { node: action, property: 'name', code: Codes.diceCount, data: { expected } });
            return false;
        }
        if (line.values.length !== expected) {
            accept('error', countMessage(kind, unitId, expected, line.values.length), { node: line, property: 'values', index: Math.min(line.values.length, expected), code: Codes.diceCount, data: { expected } });
            return false;
        }
        return !read.badFaces.has(key);
    };
    // Attackers whose hit dice do not settle the hits they land: a wrong split, count or face.
    const doubtfulHits = new Set<string>();
    for (const u of input.units) {
        const split = diceSplit(input, u, tables).reduce((x, p) => x + p.dice, 0);
        const pool = diceFor(u, input.firstTurn, tables);
        // A split that does not add up to the pool is reported on the split (ancients-split-total): the
        // dice entered are counted against the pool, so the two messages never contradict each other.
        const splitWrong = input.splits.some(sp => sp.unit === u.id) && split !== pool;
        if (!check('hit', u.id, splitWrong ? pool : split) || splitWrong) doubtfulHits.add(u.id);
    }
    // The dice plan says which saves and tests are due from the dice before them (no resolve); a face
    // no d6 shows is read as a 1, which hits nothing, so it makes no save due.
    const taken = walkDicePlan(ancientsDicePlan(input, tables), enteredDiceSource(ancientsEnteredValues(model, action), { audit: true }));
    const dueOf = (kind: AncientsThrow, unitId: string) => taken.find(t => t.request.label === kind && t.request.who[0] === unitId)?.request.count ?? 0;
    const attacks = attackPlan(input, tables).filter(a => a.dice > 0);
    for (const u of input.units) {
        const doubt = attacks.filter(a => a.target === u.id && doubtfulHits.has(a.attacker)).map(a => a.attacker);
        if (doubt.length === 0) {
            if (check('save', u.id, dueOf('save', u.id))) check('test', u.id, dueOf('test', u.id));
        } else if (dueOf('save', u.id) > 0 && !read.byKey.has(`save ${u.id}`) && !read.unread.has('save')) {
            // The hits it took hang on dice to be put right first: that saves are due is known, not how many.
            accept('error', `No save dice entered for ${u.id}: add 'dice ${u.id} save' with one die for each hit it received (A5), counted once the dice of ${[...new Set(doubt)].join(', ')} are right.`,
                { node: action, property: 'name', code: Codes.diceCount });
        }
    }
}

/** The dice lines of a melee by throw and unit, each line's own mistakes reported on it. */
interface DiceLinesRead {
    readonly byKey: Map<string, Dice>;
    /** Throws with a line that could not be read for a unit of the melee: a line missing may be that one. */
    readonly unread: Set<AncientsThrow | undefined>;
    /** Lines with a face no d6 shows. */
    readonly badFaces: Set<string>;
}

function readDiceLines(model: ScenarioModel, action: Action, lines: readonly Dice[], input: AncientsInput | undefined, accept: ValidationAcceptor): DiceLinesRead {
    const inMelee = new Set(input?.units.map(u => u.id) ?? []);
    const read: DiceLinesRead = { byKey: new Map(), unread: new Set(), badFaces: new Set() };
    for (const line of lines) {
        const kind = diceThrow(line);
        if (!kind) {
            DICE_LABELS.forEach(k => read.unread.add(k));
            accept('error', `Say which throw these dice are: 'dice ${targetLabel(line.target)} hit …', 'save …' or 'test …'.`,
                line.label !== undefined ? { node: line, property: 'label', code: Codes.diceLabel } : { node: line, property: 'target', code: Codes.diceLabel });
            continue;
        }
        const unit = oneUnit(model, line.target);
        if (!unit) {
            read.unread.add(kind);
            if (line.target.force?.ref && (!line.target.unit || line.target.unit.ref)) {
                accept('error', `${targetLabel(line.target)} is not one unit: enter each unit's dice on its own line.`, { node: line, property: 'target', code: AncientsCodes.notOneUnit });
            }
            continue;
        }
        if (input && !inMelee.has(unit.id)) {
            accept('error', `Dice for ${unit.id}, which does not fight in engagement '${action.name}'.`, { node: line, property: 'target', code: Codes.diceNotInEngagement });
            continue;
        }
        const key = `${kind} ${unit.id}`;
        if (read.byKey.has(key)) {
            accept('error', `${unit.id} already has a '${kind}' line: enter each throw once.`, { node: line, property: 'label', code: Codes.diceCount });
            continue;
        }
        read.byKey.set(key, line);
        line.values.forEach((v, i) => {
            if (v >= 1 && v <= 6) return;
            read.badFaces.add(key);
            accept('error', `A d6 cannot show ${v}: its faces are 1 to 6.`, { node: line, property: 'values', index: i, code: Codes.dieFace, data: { min: 1, max: 6 } });
        });
    }
    return read;
}

function countMessage(kind: string, unitId: string, expected: number, got: number): string {
    const why = kind === 'hit' ? 'its pool' : kind === 'save' ? 'one per hit it received' : expected === 0 ? 'it took no break test' : 'its break test';
    return `${unitId} throws ${expected} ${kind} ${expected === 1 ? 'die' : 'dice'} (${why}), but ${got} ${got === 1 ? 'is' : 'are'} entered.`;
}

function targetLabel(t: Target | undefined): string {
    // A half-typed line (`dice` with nothing after it) has no target yet.
    if (!t) return '?';
    let s = t.force?.$refText ?? '?';
    if (t.unit) s += `.${t.unit.$refText}`;
    if (t.index !== undefined) s += `#${t.index}`;
    return s;
}
