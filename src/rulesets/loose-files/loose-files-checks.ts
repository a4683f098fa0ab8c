/**
 * Loose Files & American Scramble checks (docs/rules/loose-files.md, L1–L9): unit stats where they are written, and
 * each action of a turn — who may fire at what and how far, moves the sheet allows, officers with
 * their units and within their command points, morale between friends, the order of play, and the
 * dice entered from the table, read exactly as resolving reads them. Every problem lands on the
 * value, fact or reference at fault.
 */
import type { AstNode, DiagnosticInfo, ValidationAcceptor } from 'langium';
import {
    isDice, isFactor, isFacts, isFlag, isGrade, isRelation, isSeed, isSides, isSplit,
    type Action, type Fact, type Grade, type Relation, type Target, type Unit
} from '../../language/generated/ast.js';
import {
    ARM_ALIASES, fightingUnits, firstUnit, has, lfType, lfUnitAt, moveInTurn, newFormationOf, officerIsWith, readCombat, readCommand, readFire, readMorale, readMoves,
    stepKind, turnKeyOf
} from './loose-files-reader.js';
import { isUnresolvable, replayOutcome } from '../../core/resolve.js';
import { settledOf } from '../../core/campaign-state.js';
import { eachStatOwner, outcomeOf, statValue, targetText, unitsOf, type ActionModel, type ScenarioModel, type UnitModel } from '../../core/scenario.js';
import { auditEnteredDice, DEFAULT_LABEL, throwsNoDice } from './loose-files-resolve.js';
import { canShow, cannotShowMessage } from '../../core/dice.js';
import { signed } from '../../core/signed.js';
import {
    COVERS, distanceProblem, FORMATIONS, GUNS, MAX_STANDS, WEAPONS, chargeTooFewDice, fireKind, moveDiceProblem, outOfOrder, ORDER_OF_PLAY,
    fireDice, phaseOf, presentStands, reachOf, rallyNeedsCommander, resolveRally
} from './engine/loose-files-engine.js';
import { Codes } from '../../core/codes.js';
import { onePairOfSides } from '../../core/sides-check.js';
import { lfTables } from './loose-files-house.js';
import { LooseFilesCodes } from './loose-files-codes.js';
import { CLASS_RANGE, DICE_LABELS, LF_RANGES, LF_STAT_TYPES, LF_STATS, LF_TYPE_WORDS, RELATION, UNIT_FACTS } from './loose-files-vocabulary.js';
import { closeSpellings, didYouMean } from '../../core/spelling.js';
import { checkOrdersAfterCombat } from './loose-files-orders.js';
import { checkTurnLimits } from './loose-files-turn-limits.js';
import { coreKept } from '../../core/kept.js';

/** Where a problem sits, when the node may be one of several kinds. */
type Where = { node: AstNode, property?: string, index?: number, code: string };
const at = (where: Where) => where as DiagnosticInfo<AstNode>;

// ─── Stats (once per file) ───────────────────────────────────────────────────────────────────────



export function checkLooseFilesScenario(model: ScenarioModel, accept: ValidationAcceptor): void {
    eachStatOwner(model.root, grade => checkStats(grade, accept), unit => {
        checkStats(unit, accept);
        checkUnitType(unit, accept);
        checkUnitStats(model, unit, accept);
    });
    checkOrdersAfterCombat(model, accept);
    checkTurnLimits(model, accept);
}

const WORD_STATS: Readonly<Record<string, readonly string[]>> = { guns: GUNS, formation: FORMATIONS, weapon: WEAPONS };

function checkStats(owner: Grade | Unit, accept: ValidationAcceptor): void {
    for (const stat of owner.stats) {
        const value = statValue(stat);
        const place = { node: stat, property: stat.value ? 'value' as const : 'key' as const };
        const range = LF_RANGES[stat.key];
        if (!(LF_STATS as readonly string[]).includes(stat.key)) {
            const close = closeSpellings(stat.key, LF_STATS);
            const hint = didYouMean(stat.key, LF_STATS, `the stats are ${LF_STATS.filter(k => k !== 'die' && k !== 'note').join(', ')}.`)
                + (close[0] === 'class' && readAsClassThree(owner) ? ` Until it reads 'class', '${owner.name}' is read as class 3 (L1).` : '');
            accept('warning', `Loose Files does not use '${stat.key}': ${hint}`, { node: stat, property: 'key', code: LooseFilesCodes.unknownStat });
        } else if (stat.key === 'class') {
            if (typeof value !== 'number' || value < CLASS_RANGE.min || value > CLASS_RANGE.max) {
                accept('error', `A class is a whole number from 1 (elite, veteran) to 5 (unmotivated), not '${value === true ? '' : value}' (L1).`, { ...place, code: LooseFilesCodes.classRange });
            }
        } else if (WORD_STATS[stat.key] && !(typeof value === 'string' && WORD_STATS[stat.key].includes(value))) {
            accept('error', `'${stat.key}' is one of ${WORD_STATS[stat.key].join(', ')}.`, { ...place, code: LooseFilesCodes.statValue });
        } else if (range && range.max === MAX_STANDS && typeof value === 'number' && value > MAX_STANDS) {
            accept('error', `A unit has at most ${MAX_STANDS} stands; only ${MAX_STANDS} are counted.`, { ...place, code: LooseFilesCodes.statValue });
        } else if (range && (typeof value !== 'number' || value < range.min || (range.max !== undefined && value > range.max))) {
            accept(range.severity, `'${stat.key}' is a whole number ${range.max === undefined ? `of at least ${range.min}` : `from ${range.min} to ${range.max}`}: ${range.why} (${range.rule.toUpperCase()}).`, { ...place, code: LooseFilesCodes.statValue });
        }
    }
}

/** A unit that, with no class of its own or from its grade, is read as class 3 (officers have none, L1). */
function readAsClassThree(owner: Grade | Unit): boolean {
    if (isGrade(owner)) return false;
    const type = lfType(owner.arm);
    return !!type && type !== 'officer' && type !== 'commander'
        && ![...owner.stats, ...owner.grade?.ref?.stats ?? []].some(s => s.key === 'class');
}

/**
 * A unit's stats together (its grade's and its own): stats its type does not have (`guns` on infantry,
 * `weapon` on guns), and more stands lost than it has (L1).
 */
function checkUnitStats(model: ScenarioModel, unit: Unit, accept: ValidationAcceptor): void {
    const type = lfType(unit.arm);
    if (!type) return;
    for (const [key, types] of Object.entries(LF_STAT_TYPES)) {
        if (types.includes(type)) continue;
        const own = unit.stats.find(s => s.key === key);
        if (own) {
            accept('error', `${unit.name} is ${unit.arm}: '${key}' belongs to ${types.join(' or ')} (${key === 'guns' ? '"heavy gun", "light gun", L4' : 'musket 8 inches, rifles 10 inches, L5'}).`,
                { node: own, property: 'key', code: LooseFilesCodes.statValue });
        }
    }
    const instance = model.forces.get(unit.$container.name)?.units.find(u => u.node === unit);
    if (!instance) return;
    const num = (key: string, fallback: number) => { const v = instance.stats.get(key); return typeof v === 'number' ? v : fallback; };
    const stands = num('stands', 1), lost = num('casualties', 0) + num('deserted', 0);
    // Stands out of their range are reported on the stat itself.
    if (stands < 1) return;
    if (lost > stands) {
        const at = unit.stats.find(s => s.key === 'casualties') ?? unit.stats.find(s => s.key === 'deserted') ?? unit.stats.find(s => s.key === 'stands');
        accept('error', `${unit.name} has ${stands} stand${stands === 1 ? '' : 's'} and cannot have lost ${lost}: a casualty is one stand (L1.3).`,
            at ? { node: at, property: at.value ? 'value' : 'key', code: LooseFilesCodes.statValue } : ({ node: unit, property: 'name', code: LooseFilesCodes.statValue } as DiagnosticInfo<AstNode>));
    } else if (lost === stands && type !== 'officer' && type !== 'commander') {
        accept('warning', `${unit.name} has lost all ${stands} of its stands: it is off the table (strength 0) and cannot fight or fire.`,
            { node: unit, property: 'name', code: LooseFilesCodes.statValue });
    }
}

/** The types a mistyped arm may have meant: close spellings, else every type (L1). */
function typesLike(arm: string | undefined): string[] {
    const close = closeSpellings(arm, [...LF_TYPE_WORDS, 'foot', 'horse', 'guns', 'general']);
    return close.length > 0 ? close : [...LF_TYPE_WORDS];
}


function checkUnitType(unit: Unit, accept: ValidationAcceptor): void {
    const type = lfType(unit.arm);
    if (!type) {
        accept('error', `'${unit.arm}' is not a Loose Files type: write ${Object.keys(ARM_ALIASES).join(', ')}.`,
            { node: unit, property: 'arm', code: LooseFilesCodes.unitType, data: { replacements: typesLike(unit.arm) } });
        return;
    }
    const stats = [...unit.stats, ...unit.grade?.ref?.stats ?? []];
    const hasClass = stats.some(s => s.key === 'class');
    // A misspelt class (`calss 2`) is one mistake: its did-you-mean says what this would say again.
    const misspelt = stats.some(s => !(LF_STATS as readonly string[]).includes(s.key) && closeSpellings(s.key, LF_STATS)[0] === 'class');
    if (!hasClass && !misspelt && type !== 'officer' && type !== 'commander') {
        accept('warning', `'${unit.name}' has no class: it is read as class 3. Give it 'class N' or a grade that has one (L1).`, { node: unit, property: 'name', code: LooseFilesCodes.classMissing });
    }
}

// ─── Actions ─────────────────────────────────────────────────────────────────────────────────────


export function checkLooseFilesAction(model: ScenarioModel, action: Action, accept: ValidationAcceptor): void {
    const am = model.actions.find(a => a.node === action);
    if (!am) return;
    checkStatements(action, accept);
    switch (action.kind) {
        case 'engagement': checkEngagement(model, am, accept); break;
        case 'fire': checkFire(model, am, accept); break;
        case 'move': checkMove(model, am, accept); break;
        case 'morale': checkMorale(model, am, accept); break;
        case 'redress': requireLine(action, action.statements.some(isFacts), `'Unit: stationary'`, accept); break;
        case 'command': checkCommand(model, am, accept); break;
    }
    checkTurnWide(model, action, accept);
    checkDice(model, am, accept);
    if (action.kind === 'engagement' || action.kind === 'fire') checkCasualtiesOverStands(model, am, accept);
}

/**
 * L1.3: a casualty is one stand, and a unit cannot lose more than it has left. When the sheet gives
 * more (two casualties on a one-stand unit), the outcome takes what is there and this says so; a
 * written outcome line that takes more is flagged on its `casualties`.
 */
function checkCasualtiesOverStands(model: ScenarioModel, am: ActionModel, accept: ValidationAcceptor): void {
    // Cheap first: combat takes at most 2 casualties (L3), fire at most one per die; most units have more.
    const combat = am.node.kind === 'engagement' ? readCombat(model, am, false) : undefined;
    const exposed = combat
        ? [combat.input.attacker.units[0], combat.input.defender.units[0]].some(u => presentStands(u) < 2)
        : readFire(model, am).some(r => presentStands(r.input.target) < fireDice(r.input, lfTables(model, am.node)).count);
    if (!exposed) return;
    const outcome = outcomeOf(model, am.node);
    for (const line of outcome?.lines ?? []) {
        const taken = line.facts.find(f => f.key === 'casualties');
        if (!line.unit || taken?.number === undefined) continue;
        for (const u of unitsOf(model, line.unit)) {
            const left = presentStands(lfUnitAt(model, u, am.node));
            if (taken.number > left) {
                accept('warning', `${u.id} has ${standsLeft(left)} left: it cannot lose ${taken.number} (a casualty is a stand, L1.3).`,
                    { node: taken, property: 'number', code: LooseFilesCodes.casualtiesOverStands });
            }
        }
    }
    const replay = outcome ? replayOutcome(model, am) : undefined;
    const resolution = outcome ? (replay && !isUnresolvable(replay) ? replay.resolution : undefined) : settledOf(model, am);
    for (const u of resolution?.json.units ?? []) {
        const over = typeof u.casualtiesOver === 'number' ? u.casualtiesOver : 0;
        // A unit declared with no stands left is reported once, on its stats (checkUnitStats).
        if (over === 0 || declaredWithoutStands(model, `${u.force}.${u.unit}`)) continue;
        const taken = typeof u.casualties === 'number' ? u.casualties : 0;
        accept('warning', `${u.force}.${u.unit} has ${standsLeft(taken)} left: the sheet gives ${taken + over} casualties, and it loses ${taken === 0 ? 'none' : `only ${taken}`} (a casualty is a stand, L1.3).`,
            { node: am.node, property: 'name', code: LooseFilesCodes.casualtiesOverStands });
    }
}

/** Whether the unit's own stats leave it no stand (casualties and deserters at least its stands). */
function declaredWithoutStands(model: ScenarioModel, id: string): boolean {
    const [force, name] = id.split('.');
    const unit = model.forces.get(force)?.units.find(u => u.id === id || u.name === name.replace(/#\d+$/, ''));
    if (!unit) return false;
    const num = (key: string, fallback: number) => { const v = unit.stats.get(key); return typeof v === 'number' ? v : fallback; };
    return num('casualties', 0) + num('deserted', 0) >= num('stands', 1);
}

const standsLeft = (n: number) => `${n === 0 ? 'no' : n} stand${n === 1 ? '' : 's'}`;

/** Statements the kind does not use, relations with another verb, and facts it does not read. */
function checkStatements(action: Action, accept: ValidationAcceptor): void {
    const relation = RELATION[action.kind];
    for (const st of action.statements) {
        if (isSplit(st) || isFactor(st) || isFlag(st)) {
            accept('warning', `Loose Files does not use this in a ${action.kind}.`, { node: st, code: Codes.statementNotUsed });
        } else if (isSides(st) && action.kind !== 'engagement') {
            accept('warning', `Sides belong to an engagement; a ${action.kind} does not use them.`, { node: st, code: Codes.statementNotUsed });
        } else if (isRelation(st) && (!relation || st.verb !== relation.verb)) {
            accept('warning', `A ${action.kind} does not use '${st.verb}'${relation ? `: write '${relation.verb}'` : ''}.`, { node: st, property: 'verb', code: Codes.statementNotUsed });
        } else if (isRelation(st)) {
            unknownFacts(st.facts, relation.facts, accept);
        } else if (isFacts(st)) {
            unknownFacts(st.facts, UNIT_FACTS[action.kind] ?? [], accept);
        }
    }
}

function unknownFacts(facts: readonly Fact[], known: readonly string[], accept: ValidationAcceptor): void {
    for (const f of facts) {
        if (!known.includes(f.key)) {
            const hint = didYouMean(f.key, known, `the facts read are ${known.filter(k => k !== 'note').join(', ')}.`);
            accept('warning', `'${f.key}' means nothing here: ${hint}`, { node: f, property: 'key', code: LooseFilesCodes.unknownFact });
        }
    }
}

function requireLine(action: Action, present: boolean, what: string, accept: ValidationAcceptor): boolean {
    if (!present) accept('error', `${action.kind} '${action.name}' needs ${what}.`, { node: action, property: 'name', code: LooseFilesCodes.actionEmpty });
    return present;
}

const isOfficer = (u: UnitModel) => { const t = lfType(u.arm); return t === 'officer' || t === 'commander'; };

function checkEngagement(model: ScenarioModel, am: ActionModel, accept: ValidationAcceptor): void {
    const action = am.node;
    const s = onePairOfSides(action, accept);
    if (!s) return;
    const attackers = fightingUnits(model, s.attackers), defenders = fightingUnits(model, s.defenders);
    for (const [list, property] of [[attackers, 'attackers'], [defenders, 'defenders']] as const) {
        if (list.length === 0 && s[property].every(t => unitsOf(model, t).length > 0)) {
            accept('error', 'This side has no fighting unit: officers and commanders do not fight (they inspire).', { node: s, property, code: Codes.missingSides });
        }
    }
    const attackerForces = new Set(attackers.map(u => u.force));
    s.defenders.forEach((t, i) => {
        if (unitsOf(model, t).some(u => attackerForces.has(u.force))) {
            accept('error', `'${t.force?.$refText}' cannot fight itself: it is on both sides.`, { node: s, property: 'defenders', index: i, code: Codes.sameForceBothSides });
        }
    });
    const inCombat = new Set([...attackers, ...defenders].map(u => u.id));
    for (const st of action.statements) {
        if (isRelation(st) && st.verb === 'inspires') checkOfficerUse(model, am, st, inCombat, accept);
        if (isFacts(st)) {
            const units = unitsOf(model, st.target);
            if (units.length > 0 && !units.some(u => inCombat.has(u.id))) {
                accept('warning', `These facts name units that are not in engagement '${action.name}': they change nothing.`, { node: st, property: 'target', code: LooseFilesCodes.notInAction });
            }
            const onAttacker = units.some(u => attackers.some(a => a.id === u.id));
            const onDefender = !onAttacker && units.some(u => defenders.some(d => d.id === u.id));
            st.facts.forEach(f => {
                if (onAttacker && (COVERS as readonly string[]).includes(f.key)) {
                    accept('warning', `Cover counts only for the side defending it (L2): the attacker's '${f.key}' changes nothing.`, { node: f, property: 'key', code: Codes.statementNotUsed });
                }
                if (onDefender && f.key === 'bayonet') {
                    // L2.6: the sheet's "+2 making bayonet attack" is the attacker's; a defender that
                    // counter-attacks with the bayonet is the umpire's ruling, so it is counted, and said.
                    accept('warning', `${targetText(st.target)} defends: "+2 making bayonet attack" is for the side that attacks (L2.6). It is counted as written; remove it unless the defenders charged out.`,
                        { node: f, property: 'key', code: LooseFilesCodes.defenderBayonet });
                }
            });
        }
    }
}

/** An officer who inspires or rallies: an officer, with the unit (L8 "in contact"), and (inspiring) with a unit in the combat. */
function checkOfficerUse(model: ScenarioModel, am: ActionModel, r: Relation, inAction: ReadonlySet<string> | undefined, accept: ValidationAcceptor): void {
    const officer = firstUnit(model, r.subject), unit = firstUnit(model, r.object);
    if (!officer || !unit) return;
    if (!isOfficer(officer)) {
        accept('error', `${officer.id} is ${officer.arm}, not an officer or commander: only they ${r.verb === 'inspires' ? 'inspire' : 'rally'} (L8).`, { node: r, property: 'subject', code: LooseFilesCodes.notOfficer });
        return;
    }
    if (inAction && !inAction.has(unit.id)) {
        accept('warning', `${unit.id} is not in engagement '${am.node.name}': inspiring it changes nothing here.`, { node: r, property: 'object', code: LooseFilesCodes.notInAction });
    }
    if (!officerIsWith(officer, unit, r.facts)) {
        const why = officer.force !== unit.force ? `${unit.id} is not of ${officer.force}` : `write '${unit.name} … { attached ${officer.name} }', or add ': contact' when the officer has ridden over`;
        accept('error', `${officer.id} is not with ${unit.id} (L8: the officer must be in contact): ${why}.`, { node: r, property: 'object', code: LooseFilesCodes.officerNotWith });
    }
    const rallied = lfUnitAt(model, unit, am.node);
    if (r.verb === 'rallies' && rallyNeedsCommander(lfUnitAt(model, officer, am.node), rallied, lfTables(model, am.node))) {
        accept('error', `${unit.id} is class ${rallied.class}: only the army commander removes its DPs (L8).`, { node: r, property: 'subject', code: LooseFilesCodes.needsCommander });
    }
}

const rangeOf = (r: Relation): number | undefined => r.facts.find(f => f.key === 'range')?.number;

function checkFire(model: ScenarioModel, am: ActionModel, accept: ValidationAcceptor): void {
    const action = am.node;
    if (!requireLine(action, action.statements.some(s => isRelation(s) && s.verb === 'fires'), `'Unit fires at Target: range N'`, accept)) return;
    for (const read of readFire(model, am)) {
        const r = read.relation;
        const firer = read.input.firer;
        if (!fireKind(firer)) {
            accept('error', `${read.firer.id} is ${firer.type}: only infantry (L5) and artillery (L4) fire.`, { node: r, property: 'subject', code: LooseFilesCodes.cannotFire });
            continue;
        }
        if (firer.type === 'artillery' && firer.formation === 'limbered') {
            accept('error', `${read.firer.id} is limbered: limbered guns are a target (+1, L4), not a battery; unlimber them first (formation-change, unlimbered, L6.11).`,
                { node: r, property: 'subject', code: LooseFilesCodes.cannotFire });
            continue;
        }
        if (isOfficer(read.target)) {
            accept('error', `${read.target.id} is ${read.target.arm}: officers take no DPs or casualties from fire (L8); fire at the unit it is with.`, { node: r, property: 'object', code: LooseFilesCodes.officerTarget });
        }
        const same = r.facts.find(f => f.key === 'same-target'), fresh = r.facts.find(f => f.key === 'new-target');
        if (same && fresh) {
            const second = r.facts.indexOf(same) > r.facts.indexOf(fresh) ? same : fresh;
            accept('error', `'same-target' and 'new-target' contradict each other: ${read.firer.id} either keeps last turn's target and range (L4.3) or takes a new one (L5).`, { node: second, property: 'key', code: LooseFilesCodes.contradictoryFacts });
        }
        const last = read.lastTurn;
        if (last && same && !fresh && (last.targetId !== read.target.id || last.range !== rangeOf(r))) {
            accept('warning', `'same-target' but ${read.firer.id} fired at ${last.targetId}${last.range !== undefined ? ` at ${last.range}"` : ''} last turn (fire '${last.action.node.name}', turn ${last.turn}): the ${signed(lfTables(model, am.node).artilleryModifiers['same-target'])} is for the same target and range (L4.3).`,
                { node: same, property: 'key', code: LooseFilesCodes.contradictoryFacts });
        }
        if (last && fresh && !same && last.targetId === read.target.id) {
            accept('warning', `'new-target' but ${read.firer.id} fired at ${last.targetId} last turn too (fire '${last.action.node.name}', turn ${last.turn}).`,
                { node: fresh, property: 'key', code: LooseFilesCodes.contradictoryFacts });
        }
        if (read.firer.force === read.target.force) {
            accept('error', `${read.firer.id} fires at its own side: ${read.target.id} is of ${read.target.force} too.`, { node: r, property: 'object', code: LooseFilesCodes.fireOwnSide });
        }
        const range = r.facts.find(f => f.key === 'range');
        if (!range || range.number === undefined) {
            accept('error', `Say how far ${read.firer.id} fires: add ': range N' (inches).`, at(range ? { node: range, property: 'key', code: LooseFilesCodes.missingFact } : { node: r, property: 'verb', code: LooseFilesCodes.missingFact }));
        } else if (distanceProblem(range.number)) {
            accept('error', `Range: ${distanceProblem(range.number)}.`, { node: range, property: 'number', code: LooseFilesCodes.range });
        } else if (range.number > reachOf(firer, lfTables(model, am.node))) {
            const reach = reachOf(firer, lfTables(model, am.node));
            const what = firer.type === 'artillery' ? `${firer.guns} guns reach ${reach}" (L4)` : `a ${firer.weapon} reaches ${reach}" (L5)`;
            accept('error', `${range.number}" is out of range: ${what}.`, { node: range, property: 'number', code: LooseFilesCodes.range });
        }
        const moveAction = read.input.moved ? undefined : moveInTurn(model, am, read.firer.id);
        if (moveAction && firer.type === 'infantry' && firer.formation !== 'skirmish') {
            accept('error', `${read.firer.id} moves this turn (move '${moveAction.node.name}') and is not in skirmish order: only skirmishers move and fire (L5).`, { node: r, property: 'subject', code: LooseFilesCodes.movedFire });
        }
        if (read.input.moved && firer.type === 'infantry' && firer.formation !== 'skirmish') {
            const moved = r.facts.find(f => f.key === 'moved')
                ?? action.statements.filter(isFacts).filter(f => unitsOf(model, f.target).some(u => u.id === read.firer.id)).flatMap(f => f.facts).find(f => f.key === 'moved');
            accept('error', `${read.firer.id} moved this turn and is not in skirmish order: only skirmishers move and fire (L5).`, at({ node: moved ?? r, property: moved ? 'key' : 'subject', code: LooseFilesCodes.movedFire }));
        }
    }
}

function checkMove(model: ScenarioModel, am: ActionModel, accept: ValidationAcceptor): void {
    if (!requireLine(am.node, am.node.statements.some(isFacts), `'Unit: average N, d6 N'`, accept)) return;
    checkFormationWords(model, am, accept);
    const reported = new Set<object>();
    for (const read of readMoves(model, am)) {
        if (reported.has(read.line)) continue;
        const f = read.line.facts;
        const diceFact = f.find(x => x.key === 'average') ?? f.find(x => x.key === 'd6');
        const tables = lfTables(model, am.node);
        const problem = moveDiceProblem(read.input, tables);
        if (!read.input.formationChange && read.input.average + read.input.d6 === 0) {
            accept('error', `Say which dice ${read.unit.id} moves with: 'average N', 'd6 N' (or 'formation-change').`, { node: read.line, property: 'target', code: LooseFilesCodes.moveDice });
            reported.add(read.line);
        } else if (problem) {
            accept('error', `${read.unit.id}: ${problem} (L6).`, at(diceFact ? { node: diceFact, code: LooseFilesCodes.moveDice } : { node: read.line, property: 'target', code: LooseFilesCodes.moveDice }));
            reported.add(read.line);
        }
        if (chargeTooFewDice(read.input, tables)) {
            const charging = f.find(x => x.key === 'charging')!;
            accept('error', `Charging cavalry throw at least ${tables.move['charge-dice']} dice (L6): ${read.unit.id} throws ${read.input.average + read.input.d6}.`, { node: charging, property: 'key', code: LooseFilesCodes.chargeDice });
            reported.add(read.line);
        }
    }
}

/** L6.11: a formation word names where a `formation-change` ends; guns limber and unlimber, foot and horse do not. */
function checkFormationWords(model: ScenarioModel, am: ActionModel, accept: ValidationAcceptor): void {
    for (const line of am.node.statements.filter(isFacts)) {
        const words = line.facts.filter(x => (FORMATIONS as readonly string[]).includes(x.key));
        if (words.length === 0) continue;
        if (!has(line.facts, 'formation-change')) {
            accept('warning', `'${words[0].key}' names the formation a change ends in: add 'formation-change' (L6.11), or it changes nothing.`, { node: words[0], property: 'key', code: LooseFilesCodes.formation });
            continue;
        }
        if (words.length > 1) {
            accept('error', `A formation change ends in one formation: '${words[0].key}' and '${words[1].key}' are both named.`, { node: words[1], property: 'key', code: LooseFilesCodes.formation });
            continue;
        }
        const to = newFormationOf(line.facts).newFormation;
        for (const u of unitsOf(model, line.target)) {
            const guns = lfType(u.arm) === 'artillery';
            if (to && guns !== (to === 'limbered' || to === 'unlimbered')) {
                accept('error', `${u.id} is ${u.arm}: ${guns ? 'guns are limbered or unlimbered' : 'only guns limber and unlimber; foot and horse take line, column or skirmish'} (L6.11).`, { node: words[0], property: 'key', code: LooseFilesCodes.formation });
                break;
            }
        }
    }
}

function checkMorale(model: ScenarioModel, am: ActionModel, accept: ValidationAcceptor): void {
    if (!requireLine(am.node, am.node.statements.some(s => isRelation(s) && s.verb === 'sees'), `'Unit sees Friend: routs' (or retreats)`, accept)) return;
    for (const read of readMorale(model, am)) {
        const r = read.relation;
        if (isOfficer(read.observer)) {
            accept('error', `${read.observer.id} is ${read.observer.arm}: officers take no DPs or desertions from morale (L8); name the unit that sees it.`, { node: r, property: 'subject', code: LooseFilesCodes.officerTarget });
        }
        if (read.observer.id === read.friend.id) {
            accept('error', `${read.observer.id} cannot see itself retreat or rout: name the friend it sees.`, { node: r, property: 'object', code: LooseFilesCodes.moraleNotFriend });
        } else if (read.observer.force !== read.friend.force) {
            accept('error', `${read.friend.id} is not a friend of ${read.observer.id}: morale (L7) is about friends retreating or routing.`, { node: r, property: 'object', code: LooseFilesCodes.moraleNotFriend });
        }
        if (!has(r.facts, 'routs') && !has(r.facts, 'retreats')) {
            accept('error', `Say what ${read.friend.id} did: ': routs' or ': retreats'.`, { node: r, property: 'verb', code: LooseFilesCodes.missingFact });
        }
        const distance = r.facts.find(f => f.key === 'distance');
        const problem = distance?.number === undefined ? undefined : distanceProblem(distance.number);
        if (distance && problem) accept('error', `Distance: ${problem}.`, { node: distance, property: 'number', code: LooseFilesCodes.range });
    }
}

function checkCommand(model: ScenarioModel, am: ActionModel, accept: ValidationAcceptor): void {
    if (!requireLine(am.node, readCommand(model, am).length > 0, `'Officer rallies Unit: dp N' or 'Officer: move'`, accept)) return;
    for (const use of readCommand(model, am)) {
        if (use.kind === 'rally') checkOfficerUse(model, am, use.relation, undefined, accept);
        else if (!isOfficer(use.officer)) {
            accept('error', `${use.officer.id} is ${use.officer.arm}: only officers and commanders move for command points (L8).`, { node: use.line, property: 'target', code: LooseFilesCodes.notOfficer });
        }
    }
}

// ─── Across a turn: command points and the order of play ─────────────────────────────────────────

interface TurnProblems {
    readonly overspent: Map<AstNode, string>;
    readonly outOfOrder: Map<Action, string>;
}

const turnProblems = coreKept.table<ScenarioModel, TurnProblems>({
    name: 'loose files turn problems', keeps: 'each turn\'s overspent and out-of-order actions',
    keyedBy: 'a model',
    againWhen: 'the model is new'
});

/** Computed once per model: each action's own check picks the problems that sit in it. */
function problemsOf(model: ScenarioModel): TurnProblems {
    let p = turnProblems.get(model);
    if (p) return p;
    p = { overspent: new Map(), outOfOrder: new Map() };
    const byTurn = new Map<object, ActionModel[]>();
    for (const a of model.actions) {
        const key = turnKeyOf(a);
        byTurn.set(key, [...(byTurn.get(key) ?? []), a]);
    }
    for (const actions of byTurn.values()) {
        collectSpends(model, actions, p.overspent);
        if (actions[0].turn) {
            for (const i of outOfOrder(actions.map(a => stepKind(a.node)))) {
                const a = actions[i].node;
                const phase = ORDER_OF_PLAY.find(x => x.phase === phaseOf(stepKind(a)));
                // The first action written above it that the order of play puts after it.
                const later = actions.slice(0, i).find(b => (phaseOf(stepKind(b.node)) ?? 0) > (phase?.phase ?? 0))?.node;
                p.outOfOrder.set(a, `${a.kind} '${a.name}' is written after ${later ? `${later.kind} '${later.name}'` : 'a later step'} but resolved before it: `
                    + `the order of play puts ${phase?.name ?? a.kind} (step ${phase?.phase}) earlier (L0). The file keeps your order.`);
            }
        }
    }
    turnProblems.set(model, p);
    return p;
}

/** L8: each officer's CP spent in a turn, use by use in file order; the use that passes its `cp` is marked. */
function collectSpends(model: ScenarioModel, actions: readonly ActionModel[], out: Map<AstNode, string>): void {
    const spent = new Map<string, number>();
    const spend = (officer: UnitModel, node: AstNode, cost: number, action: ActionModel, moves = false) => {
        if (cost === 0) return;
        const c = lfTables(model, action.node).command;
        const budget = lfUnitAt(model, officer, action.node).cp;
        const before = spent.get(officer.id) ?? 0, total = before + cost;
        spent.set(officer.id, total);
        if (total <= budget || out.has(node)) return;
        // L8.1: a commander's move is paid for like any other use, and one without the points does not move.
        out.set(node, moves
            ? `${officer.id} has ${Math.max(0, budget - before)} of its ${budget} CP left this turn: "Move own commander up to 1 die … = 1CP" costs ${c.move} (L8.1), so it cannot move.`
            : `${officer.id} has ${budget} CP a turn and this brings its spending to ${total} (L8: move ${c.move}, inspire ${c.inspire}, rally ${c['rally-dp']} a DP).`);
    };
    for (const a of actions) {
        if (a.node.kind === 'engagement') {
            for (const r of a.node.statements.filter(isRelation)) {
                const officer = r.verb === 'inspires' ? firstUnit(model, r.subject) : undefined;
                if (officer && isOfficer(officer)) spend(officer, r, lfTables(model, a.node).command.inspire, a);
            }
        } else if (a.node.kind === 'move') {
            // L8.1: an officer's move is its commander's move, whichever action it is written in.
            const cost = lfTables(model, a.node).command.move;
            for (const read of readMoves(model, a)) if (isOfficer(read.unit)) spend(read.unit, read.line, cost, a, true);
        } else if (a.node.kind === 'command') {
            const tables = lfTables(model, a.node);
            for (const use of readCommand(model, a)) {
                if (!isOfficer(use.officer)) continue;
                if (use.kind === 'move') spend(use.officer, use.line, tables.command.move, a, true);
                else spend(use.officer, use.relation, resolveRally({ officer: lfUnitAt(model, use.officer, a.node), unit: lfUnitAt(model, use.unit, a.node), dp: use.dp }, tables).cp, a);
            }
        }
    }
}

function checkTurnWide(model: ScenarioModel, action: Action, accept: ValidationAcceptor): void {
    const p = problemsOf(model);
    for (const st of action.statements) {
        const message = p.overspent.get(st);
        if (message) accept('error', message, at({ node: st, property: isRelation(st) ? 'subject' : 'target', code: LooseFilesCodes.cpOverspent }));
    }
    const order = p.outOfOrder.get(action);
    // Not a fault: the turn is resolved in the order of play whatever the file order (L0); this says so.
    if (order) accept('info', order, { node: action, property: 'kind', code: LooseFilesCodes.orderOfPlay });
}

// ─── Entered dice ────────────────────────────────────────────────────────────────────────────────

/** Labels the kind reads, faces each die can show, and exactly as many dice as resolving reads. */
function checkDice(model: ScenarioModel, am: ActionModel, accept: ValidationAcceptor): void {
    const lines = am.node.statements.filter(isDice);
    if (lines.length === 0) {
        // A formation change, morale, a re-dress or a rally throws no dice: a seed there throws nothing.
        if (throwsNoDice(model, am)) {
            for (const seed of am.node.statements.filter(isSeed)) {
                accept('warning', `This ${am.node.kind} throws no dice: seed ${seed.value} is not used, and its outcome is the same with any seed.`, { node: seed, code: Codes.seedNotUsed });
            }
        }
        return;
    }
    for (const seed of am.node.statements.filter(isSeed)) {
        accept('warning', 'The dice entered from the table are used; this seed is ignored.', { node: seed, code: Codes.seedWithDice });
    }
    const labels = DICE_LABELS[am.node.kind] ?? [];
    const audit = auditEnteredDice(model, am);
    // A firer that cannot fire (its range or its type already reported) throws no dice to count.
    const cannotThrow = am.node.kind === 'fire' ? firersThatCannotFire(model, am) : new Set<string>();
    const mislabelled = new Set<string>();
    // A line for a name that does not resolve (reported by the linker) was meant for some unit here:
    // its dice are not "unused", and no throw is short of dice beside it.
    let unresolved = false;
    // A side, firer, target or move line naming a unit that does not resolve (the linker says so, with
    // its did-you-mean): the dice of the forces it names were meant for it, so none of them is counted.
    const guessed = forcesOfUnresolved(am.node);
    for (const line of lines) {
        if (!line.target?.force?.ref || (line.target.unit && !line.target.unit.ref)) {
            unresolved = true;
            continue;
        }
        const counted = !guessed.all && !guessed.forces.has(line.target.force.$refText);
        if (!counted) unresolved = true;
        if (labels.length === 0) {
            accept('error', `A ${am.node.kind} throws no dice.`, { node: line, code: Codes.diceLabel });
            continue;
        }
        if (line.label !== undefined && !labels.includes(line.label)) {
            accept('error', `A ${am.node.kind} reads dice labelled ${labels.join(' or ')}, not '${line.label}'.`, { node: line, property: 'label', code: Codes.diceLabel });
            // Its dice are the ones meant for a throw: the label is the one mistake, not a throw short of dice too.
            for (const u of unitsOf(model, line.target)) mislabelled.add(u.id);
            continue;
        }
        if (unitsOf(model, line.target).some(u => cannotThrow.has(u.id))) continue;
        const reads = audit.reads.get(line);
        const unused = line.values.map((_v, i) => i).filter(i => reads?.get(i) === undefined);
        if (counted && unused.length > 0) {
            // One message for the line, with the true counts: the dice it throws and the dice entered.
            const label = line.label ?? DEFAULT_LABEL[am.node.kind], used = line.values.length - unused.length;
            const trailing = unused[0] === used;
            accept('error', `${unused.length === 1 ? 'This die is' : `These ${unused.length} dice are`} not used: ${targetText(line.target)} throws ${used === 0 ? `no ${label} dice` : diceWords(used, label)} here${unused.length > 1 || used !== 1 ? `, and ${line.values.length} ${line.values.length === 1 ? 'is' : 'are'} entered` : ''}.`,
                { node: line, property: 'values', index: unused[0], code: Codes.diceCount, data: trailing ? { expected: used } : undefined });
        }
        line.values.forEach((v, i) => {
            const die = reads?.get(i);
            if (die !== undefined && !canShow(die, v)) {
                accept('error', cannotShowMessage(die, v), { node: line, property: 'values', index: i, code: Codes.dieFace, data: { min: die.min, max: die.max } });
            }
        });
    }
    for (const { request: s, got } of unresolved ? [] : audit.shortages) {
        if (s.label === 'retreat' || s.who.some(id => cannotThrow.has(id) || mislabelled.has(id))) continue; // Corlears Hook retreat dice are optional: the order then says "one average die".
        const unitIds = s.who;
        const who = unitIds.join(', ');
        const naming = lines.filter(l => unitsOf(model, l.target).some(u => unitIds.includes(u.id)));
        // On the last value of a line of that label, else of any line for those units, else the action's name.
        const line = naming.filter(l => (l.label ?? DEFAULT_LABEL[am.node.kind]) === s.label).pop() ?? naming.pop();
        const what = s.label === s.die.name ? diceWords(s.count, s.die.name) : `${diceWords(s.count, s.die.name)} (${s.label})`;
        accept('error', `${who} throw${unitIds.length === 1 ? 's' : ''} ${what}, but ${got} ${got === 1 ? 'is' : 'are'} entered: add 'dice ${unitIds[0]} ${s.label} …'.`,
            at(line ? { node: line, property: 'values', index: line.values.length - 1, code: Codes.diceCount } : { node: am.node, property: 'name', code: Codes.diceCount }));
    }
}

const resolves = (t: Target) => t.force?.ref !== undefined && (!t.unit || t.unit.ref !== undefined);

/**
 * The names an action reads that do not resolve: in a relation (who fights, fires or sees whom) every
 * count of the action hangs on it (`all`); in a move's or a command's line (the line says what the
 * unit throws), the counts of its force's dice lines. Elsewhere a facts line does not decide who throws.
 */
function forcesOfUnresolved(action: Action): { all: boolean, forces: Set<string> } {
    const forces = new Set<string>();
    let all = false;
    const linesThrow = action.kind === 'move' || action.kind === 'command';
    for (const st of action.statements) {
        if (isRelation(st) && [st.subject, st.object].some(t => t && !resolves(t))) all = true;
        if (isSides(st) && [...st.attackers, ...st.defenders].some(t => !resolves(t))) all = true;
        if (linesThrow && isFacts(st) && st.target && !resolves(st.target)) {
            if (st.target.force?.ref) forces.add(st.target.force.$refText);
            else all = true;
        }
    }
    return { all, forces };
}

/** The firers whose fire is already an error that stops it (a type that does not fire, limbered guns, no range or out of range). */
function firersThatCannotFire(model: ScenarioModel, am: ActionModel): Set<string> {
    const out = new Set<string>();
    for (const read of readFire(model, am)) {
        const firer = read.input.firer;
        const range = rangeOf(read.relation);
        if (!fireKind(firer) || (firer.type === 'artillery' && firer.formation === 'limbered') || range === undefined
            || distanceProblem(range) || range > reachOf(firer, lfTables(model, am.node))) out.add(read.firer.id);
    }
    return out;
}

/** "1 average die", "3 average dice", "2 d6": a count of dice as an umpire says it. */
function diceWords(count: number, die: string): string {
    return /^d\d+$/.test(die) ? `${count} ${die}` : `${count} ${die} ${count === 1 ? 'die' : 'dice'}`;
}
