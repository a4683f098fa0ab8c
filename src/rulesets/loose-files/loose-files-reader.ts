/**
 * Reads a Loose Files & American Scramble scenario into the engine's input (docs/rules/loose-files.md, L1–L9).
 *
 * Unit stats come from the unit's merged `stats` (grade bundle first, the unit's own over it):
 * `class 1..5`, `guns light|medium|heavy`, `formation line|column|skirmish|limbered|unlimbered`,
 * `stands N`, `dp N`, `casualties N`, `deserted N`, `weapon musket|rifle`, `hessian`, `jaeger`,
 * `militia`, `cp N`, `attached Officer`. The type is the unit's arm (`infantry`, `cavalry`,
 * `artillery`, `officer`, `commander`; `foot`, `horse`, `guns`, `general` are read as these).
 *
 * A unit's state at an action is the campaign state carried to it (src/model/state.ts), then the
 * action's own `dp N`, `casualties N`, `deserted N` facts about it, which set those for that action.
 */
import {
    isFacts, isRelation, isSides, isTurn,
    type Action, type Fact, type Facts, type Relation, type Target
} from '../../language/generated/ast.js';
import {
    COVERS, FORMATIONS, GUNS, WEAPONS, HOUSE_RULE_OPTIONS, MAX_MOVE_DICE, MAX_STANDS,
    type CombatInput, type CombatSide, type Cover, type FireInput, type Formation, type Guns,
    type LfOptions, type LfType, type LfUnit, type MoraleEvent, type MoraleInput, type MoveInput, type RedressInput, type Weapon
} from './engine/loose-files-engine.js';
import { effectiveStats, unitStateAt } from '../../core/campaign-state.js';
import type { LfCombatTables } from './engine/loose-files-tables.js';
import { lfTables } from './loose-files-house.js';
import { factValue, turnLabel, unitsOf, type ActionModel, type ScenarioModel, type StatValue, type UnitModel } from '../../core/scenario.js';

/** Arm words read as Loose Files types. */
export const ARM_ALIASES: Readonly<Record<string, LfType>> = {
    infantry: 'infantry', foot: 'infantry', cavalry: 'cavalry', horse: 'cavalry', artillery: 'artillery', guns: 'artillery',
    officer: 'officer', commander: 'commander', general: 'commander'
};

export function lfType(arm: string): LfType | undefined {
    return ARM_ALIASES[arm];
}

/** L1: a unit without a class is read as class 3 (the validator warns). */
export const DEFAULT_CLASS = 3;

export function lfOptions(model: ScenarioModel): LfOptions {
    const on = (name: string) => {
        const v = model.options.get(name);
        return v !== undefined && v !== 0 && v !== 'off' && v !== 'false';
    };
    return {
        fullMove: on(HOUSE_RULE_OPTIONS.fullMove), brigadeMove: on(HOUSE_RULE_OPTIONS.brigadeMove),
        corlearsHook: on(HOUSE_RULE_OPTIONS.corlearsHook), fleeLosses: on(HOUSE_RULE_OPTIONS.fleeLosses),
        ...(on(HOUSE_RULE_OPTIONS.wheelAsUphill) ? { wheelAsUphill: true } : {}),
        ...(on(HOUSE_RULE_OPTIONS.averageDisorder) ? { averageDisorder: true } : {})
    } satisfies LfOptions;
}

;

const clamp = (n: number, lo: number, hi: number) => Math.min(hi, Math.max(lo, n));
const num = (v: StatValue | undefined, fallback: number) => (typeof v === 'number' ? v : fallback);
const word = <T extends string>(v: StatValue | undefined, allowed: readonly T[]): T | undefined =>
    typeof v === 'string' && (allowed as readonly string[]).includes(v) ? v as T : undefined;

/**
 * The unit from a set of stats (its declared stats, or those `effectiveStats` carries to an action).
 * `declaredStands` is what it started with; stands missing from `stats` were lost to desertion.
 */
function lfUnitOf(u: UnitModel, stats: ReadonlyMap<string, StatValue> = u.stats): LfUnit {
    const s = stats;
    const type = lfType(u.arm) ?? 'infantry';
    const formation = word<Formation>(s.get('formation'), FORMATIONS) ?? (s.get('skirmish') === true ? 'skirmish' : type === 'artillery' ? 'unlimbered' : 'line');
    // Clamped so that no file can ask for more dice than a table holds (the validator reports it).
    const declaredStands = clamp(num(u.stats.get('stands'), 1), 0, MAX_STANDS);
    const stands = clamp(num(s.get('stands'), declaredStands), 0, MAX_STANDS);
    return {
        id: u.id, force: u.force, unit: u.id.slice(u.force.length + 1), type,
        class: num(s.get('class'), DEFAULT_CLASS), formation,
        stands: declaredStands, dp: num(s.get('dp'), 0), casualties: num(s.get('casualties'), 0),
        deserted: Math.max(0, declaredStands - stands) + num(s.get('deserted'), 0),
        guns: type === 'artillery' ? word<Guns>(s.get('guns'), GUNS) ?? 'medium' : undefined,
        weapon: word<Weapon>(s.get('weapon'), WEAPONS) ?? (s.get('rifle') === true ? 'rifle' : 'musket'),
        hessian: s.get('hessian') === true, jaeger: s.get('jaeger') === true, militia: s.get('militia') === true,
        cp: num(s.get('cp'), 0),
        attached: typeof s.get('attached') === 'string' ? s.get('attached') as string : undefined
    };
}

/** Facts in an action that set a unit's state for that action only: `Unit: dp 2, casualties 1`. */
const STATE_FACTS = ['dp', 'casualties', 'deserted'] as const;

function withFacts(unit: LfUnit, facts: readonly Fact[]): LfUnit {
    let out = unit;
    for (const f of facts) {
        if ((STATE_FACTS as readonly string[]).includes(f.key) && f.number !== undefined) out = { ...out, [f.key]: f.number };
    }
    return out;
}

/**
 * A unit's state when an action starts: the campaign state carried to it (`effectiveStats`: declared
 * stats, earlier state lines, rulings and written outcomes), then the action's own facts about it.
 */
export function lfUnitAt(model: ScenarioModel, u: UnitModel, action: Action): LfUnit {
    const unit = lfUnitOf(u, effectiveStats(model, action, u));
    return withFacts(unit, factsFor(model, action, u.id));
}

/** Every fact the action's `Target: facts` lines give a unit (a line on its force counts). */
function factsFor(model: ScenarioModel, action: Action, unitId: string): Fact[] {
    return action.statements.filter(isFacts)
        .filter(f => unitsOf(model, f.target).some(u => u.id === unitId))
        .flatMap(f => f.facts);
}

export const has = (facts: readonly Fact[], key: string): boolean => facts.some(f => f.key === key);
const numberFact = (facts: readonly Fact[], key: string): number | undefined => {
    const f = facts.find(x => x.key === key);
    return f?.number;
};
const textFact = (facts: readonly Fact[], key: string): string | undefined => {
    const f = facts.find(x => x.key === key);
    if (!f) return undefined;
    const v = factValue(f);
    return typeof v === 'string' ? v : undefined;
};

/** The strongest cover a unit's facts name (fort, stone-building > fieldwork, wood-building > obstacle). */
function coverOf(facts: readonly Fact[]): Cover | undefined {
    const named = COVERS.filter(c => has(facts, c));
    return named[0];
}

/** Officers and commanders do not stand in a combat line. */
const fights = (u: UnitModel) => {
    const t = lfType(u.arm);
    return t !== 'officer' && t !== 'commander';
};

/** The fighting units a list of targets names, each once, in the order written (leading unit first). */
export function fightingUnits(model: ScenarioModel, targets: readonly Target[]): UnitModel[] {
    const seen = new Map<string, UnitModel>();
    for (const t of targets) for (const u of unitsOf(model, t)) if (fights(u) && !seen.has(u.id)) seen.set(u.id, u);
    return [...seen.values()];
}

/** The first unit a reference names (an officer, a firer, an observer). */
export function firstUnit(model: ScenarioModel, target: Target): UnitModel | undefined {
    return unitsOf(model, target)[0];
}

/**
 * Whether an officer is with a unit (L8 "in contact"): both in the same force, and either one is
 * `attached` to the other by name, or the relation says `contact`.
 */
export function officerIsWith(officer: UnitModel, unit: UnitModel, relationFacts: readonly Fact[]): boolean {
    if (officer.force !== unit.force) return false;
    if (has(relationFacts, 'contact')) return true;
    return unit.stats.get('attached') === officer.name || officer.stats.get('attached') === unit.name;
}

interface Inspiration {
    readonly relation: Relation;
    readonly officer: UnitModel;
    readonly unit: UnitModel;
}

export interface CombatRead {
    readonly input: CombatInput;
    /** L2, L3, L9: the tables in force (the sheet's, as house rules change them); kept out of `input`, whose fingerprint the house rules' own covers. */
    readonly tables: LfCombatTables;
    readonly attackers: UnitModel[];
    readonly defenders: UnitModel[];
    readonly inspirations: Inspiration[];
}

/** The inspirations an action writes: `O inspires U` relations naming an officer and a unit. */
function inspirationsIn(model: ScenarioModel, action: Action): Inspiration[] {
    const out: Inspiration[] = [];
    for (const r of action.statements.filter(isRelation)) {
        if (r.verb !== 'inspires') continue;
        const officer = firstUnit(model, r.subject), unit = firstUnit(model, r.object);
        if (officer && unit) out.push({ relation: r, officer, unit });
    }
    return out;
}

/** L2: reads an engagement's sides and their facts; undefined when a side is empty. */
export function readCombat(model: ScenarioModel, action: ActionModel, previousStandOff: boolean): CombatRead | undefined {
    const sides = action.node.statements.find(isSides);
    if (!sides) return undefined;
    const attackers = fightingUnits(model, sides.attackers), defenders = fightingUnits(model, sides.defenders);
    if (attackers.length === 0 || defenders.length === 0) return undefined;
    const inspirations = inspirationsIn(model, action.node);
    const side = (units: UnitModel[]): CombatSide => {
        const facts = units.flatMap(u => factsFor(model, action.node, u.id));
        const ids = new Set(units.map(u => u.id));
        return {
            units: units.map(u => lfUnitAt(model, u, action.node)),
            cover: coverOf(factsFor(model, action.node, units[0].id)),
            bayonet: has(facts, 'bayonet'), terrain: has(facts, 'terrain'),
            inspiredBy: [...new Set(inspirations.filter(i => ids.has(i.unit.id)).map(i => i.officer.id))],
            flankOrRear: has(facts, 'flank') || has(facts, 'rear')
        };
    };
    return {
        input: { attacker: side(attackers), defender: side(defenders), options: lfOptions(model), previousStandOff },
        attackers, defenders, inspirations, tables: lfTables(model, action.node)
    };
}

/** The engagement fought between the same units just before this one, if any (for Corlears Hook). */
export function previousCombat(model: ScenarioModel, action: ActionModel): ActionModel | undefined {
    const key = combatKey(model, action);
    if (!key) return undefined;
    const idx = model.actions.indexOf(action);
    for (let i = idx - 1; i >= 0; i--) {
        const other = model.actions[i];
        if (other.node.kind !== 'engagement') continue;
        const k = combatKey(model, other);
        if (k && (k.a === key.a || k.a === key.d) && (k.d === key.d || k.d === key.a) && k.a !== k.d) return other;
    }
    return undefined;
}

function combatKey(model: ScenarioModel, action: ActionModel): { a: string, d: string } | undefined {
    const sides = action.node.statements.find(isSides);
    if (!sides) return undefined;
    const ids = (t: readonly Target[]) => fightingUnits(model, t).map(u => u.id).sort().join(',');
    return { a: ids(sides.attackers), d: ids(sides.defenders) };
}

export interface FireRead {
    readonly relation: Relation;
    readonly firer: UnitModel;
    readonly target: UnitModel;
    readonly input: FireInput;
    /** The firer's fire of the turn before, when there is one (L4.3). */
    readonly lastTurn: LastTurnFire | undefined;
}

/** One `A fires at B: range N` of the turn before this action's turn. */
interface LastTurnFire {
    readonly action: ActionModel;
    readonly turn: string;
    readonly targetId: string;
    readonly range: number | undefined;
}

/**
 * L4.3: the firer's last fire in the turn written just before this action's turn (the last line that
 * names it; fires are one step of the order of play, so file order is their order). None outside
 * turns, in the first turn, or when the firer did not fire then: "last turn" is then the umpire's to say.
 * Read from the text alone, not the campaign timeline: a settled fire is resolved while that is built.
 */
function lastTurnFire(model: ScenarioModel, action: ActionModel, firerId: string): LastTurnFire | undefined {
    if (!action.turn) return undefined;
    const turns = model.root.elements.filter(isTurn);
    const previous = turns[turns.indexOf(action.turn) - 1];
    if (!previous) return undefined;
    let found: LastTurnFire | undefined;
    for (const other of model.actions) {
        if (other.turn !== previous || other.node.kind !== 'fire') continue;
        for (const r of other.node.statements.filter(isRelation)) {
            if (r.verb !== 'fires' || firstUnit(model, r.subject)?.id !== firerId) continue;
            const target = firstUnit(model, r.object);
            if (target) found = { action: other, turn: turnLabel(previous) ?? '', targetId: target.id, range: numberFact(r.facts, 'range') };
        }
    }
    return found;
}

/**
 * Same target and range as last turn (+1), or a new target (−1), L4.3/L4.4: as written (`same-target`,
 * `new-target`), else from the firer's fire of the turn before: the same target at the same range is
 * the same; another target is new; the same target at another range is neither.
 */
function targetAsLastTurn(facts: readonly Fact[], targetId: string, range: number, last: LastTurnFire | undefined):
    Pick<FireInput, 'sameTarget' | 'newTarget' | 'targetFrom'> {
    const sameTarget = has(facts, 'same-target'), newTarget = has(facts, 'new-target');
    if (sameTarget || newTarget || !last) return { sameTarget, newTarget };
    const from = `from fire '${last.action.node.name}', turn ${last.turn}`;
    if (last.targetId !== targetId) return { sameTarget: false, newTarget: true, targetFrom: `${from}: it fired at ${last.targetId}` };
    if (last.range === range) return { sameTarget: true, newTarget: false, targetFrom: from };
    return { sameTarget: false, newTarget: false };
}

/** L4/L5: every `A fires at B: range N` of a fire action. A missing range reads as 0 (the validator reports it). */
export function readFire(model: ScenarioModel, action: ActionModel): FireRead[] {
    const out: FireRead[] = [];
    for (const r of action.node.statements.filter(isRelation)) {
        if (r.verb !== 'fires') continue;
        const firer = firstUnit(model, r.subject), target = firstUnit(model, r.object);
        if (!firer || !target) continue;
        const own = factsFor(model, action.node, firer.id);
        const range = numberFact(r.facts, 'range') ?? 0;
        const lastTurn = lastTurnFire(model, action, firer.id);
        out.push({
            relation: r, firer, target, lastTurn,
            input: {
                firer: lfUnitAt(model, firer, action.node), target: lfUnitAt(model, target, action.node),
                range, ...targetAsLastTurn(r.facts, target.id, range, lastTurn),
                moved: has(r.facts, 'moved') || has(own, 'moved'),
                targetCover: coverOf([...factsFor(model, action.node, target.id), ...r.facts]),
                options: lfOptions(model)
            }
        });
    }
    return out;
}

export interface MoveRead {
    readonly line: Facts;
    readonly unit: UnitModel;
    readonly input: MoveInput;
}

/** L6: each `Unit: average N, d6 N, …` line of a move action, one per unit it names. */
export function readMoves(model: ScenarioModel, action: ActionModel): MoveRead[] {
    const out: MoveRead[] = [];
    const options = lfOptions(model);
    for (const line of action.node.statements.filter(isFacts)) {
        const f = line.facts;
        for (const u of unitsOf(model, line.target)) {
            out.push({
                line, unit: u,
                input: {
                    unit: lfUnitAt(model, u, action.node),
                    average: clamp(numberFact(f, 'average') ?? (has(f, 'average') ? 1 : 0), 0, MAX_MOVE_DICE),
                    d6: clamp(numberFact(f, 'd6') ?? (has(f, 'd6') ? 1 : 0), 0, MAX_MOVE_DICE),
                    plus: numberFact(f, 'plus') ?? 0,
                    woods: has(f, 'woods'), uphill: has(f, 'uphill'), charging: has(f, 'charging'), wheel: has(f, 'wheel'),
                    formationChange: has(f, 'formation-change'), ...newFormationOf(f), retire: has(f, 'retire'), underFire: has(f, 'under-fire') || firedAtBefore(model, action, u.id, f),
                    stop: textFact(f, 'stop'), ...(has(f, 'obstacle') ? { obstacle: true } : {}), options
                }
            });
        }
    }
    return out;
}

/**
 * L6.11, L6.13: "2 if under fire" without the fact written, as re-dressing reads "shot at" (L8.6): a unit
 * that changes formation or retires in step 5 after a fire of the same turn (step 3) aimed at it.
 */
function firedAtBefore(model: ScenarioModel, action: ActionModel, unitId: string, facts: readonly Fact[]): boolean {
    if (!has(facts, 'formation-change') && !has(facts, 'retire')) return false;
    return stepKind(action.node) === 'move' && turnActivity(model, action, unitId).shotAt;
}

/** L6.11: the formation a `formation-change` ends in, named by its word as a fact (`formation-change, column`). */
export function newFormationOf(facts: readonly Fact[]): { newFormation?: Formation } {
    const named = FORMATIONS.find(w => has(facts, w));
    return named && has(facts, 'formation-change') ? { newFormation: named } : {};
}

export interface MoraleRead {
    readonly relation: Relation;
    readonly observer: UnitModel;
    readonly friend: UnitModel;
    readonly input: MoraleInput;
}

/** L7: each `A sees B: routs` (or `retreats`) of a morale action. The friend fled if a fact or the campaign state says so. */
export function readMorale(model: ScenarioModel, action: ActionModel): MoraleRead[] {
    const out: MoraleRead[] = [];
    for (const r of action.node.statements.filter(isRelation)) {
        if (r.verb !== 'sees') continue;
        const observer = firstUnit(model, r.subject), friend = firstUnit(model, r.object);
        if (!observer || !friend) continue;
        const event: MoraleEvent = has(r.facts, 'routs') ? 'routs' : 'retreats';
        out.push({
            relation: r, observer, friend,
            input: {
                observer: lfUnitAt(model, observer, action.node), friend: lfUnitAt(model, friend, action.node), event,
                distance: numberFact(r.facts, 'distance'),
                friendFled: has(r.facts, 'fled') || has(factsFor(model, action.node, friend.id), 'fled') || unitStateAt(model, action, friend)?.status === 'fled',
                options: lfOptions(model)
            }
        });
    }
    return out;
}

export interface RedressRead {
    readonly line: Facts;
    readonly unit: UnitModel;
    readonly input: RedressInput;
}

/**
 * What a unit did earlier in the same turn, from the turn's own actions: it moved (a line in a
 * `move`), fought (a side of an `engagement`), or was shot at (the target of a `fire`).
 */
function turnActivity(model: ScenarioModel, action: ActionModel, unitId: string): { moved: boolean, inCombat: boolean, shotAt: boolean } {
    const done = { moved: false, inCombat: false, shotAt: false };
    if (!action.turn) return done;
    for (const other of model.actions) {
        if (other.turn !== action.turn || other === action) continue;
        const st = other.node.statements;
        if (other.node.kind === 'move' && st.some(x => isFacts(x) && unitsOf(model, x.target).some(u => u.id === unitId))) done.moved = true;
        if (other.node.kind === 'engagement' && st.some(x => isSides(x) && fightingUnits(model, [...x.attackers, ...x.defenders]).some(u => u.id === unitId))) done.inCombat = true;
        if (other.node.kind === 'fire' && st.some(x => isRelation(x) && x.verb === 'fires' && firstUnit(model, x.object)?.id === unitId)) done.shotAt = true;
    }
    return done;
}

/**
 * L5: the `move` action of the same turn in which the unit moves (throws movement dice; a change of
 * formation or facing is not a move), if any: "only skirmishing infantry can fire and move in the same turn".
 */
export function moveInTurn(model: ScenarioModel, action: ActionModel, unitId: string): ActionModel | undefined {
    if (!action.turn) return undefined;
    return model.actions.find(other => other.turn === action.turn && other !== action && other.node.kind === 'move'
        && other.node.statements.some(x => isFacts(x) && !has(x.facts, 'formation-change') && unitsOf(model, x.target).some(u => u.id === unitId)));
}

/**
 * L8: each `Unit: stationary` line of a redress action. Whether it moved, fought or was shot at comes
 * from its facts (`moved`, `in-combat`, `shot-at`) or from the other actions of the same turn.
 */
export function readRedress(model: ScenarioModel, action: ActionModel): RedressRead[] {
    const out: RedressRead[] = [];
    for (const line of action.node.statements.filter(isFacts)) {
        for (const u of unitsOf(model, line.target)) {
            const f = line.facts;
            const done = turnActivity(model, action, u.id);
            out.push({
                line, unit: u,
                input: {
                    unit: lfUnitAt(model, u, action.node),
                    moved: has(f, 'moved') || done.moved, inCombat: has(f, 'in-combat') || done.inCombat, shotAt: has(f, 'shot-at') || done.shotAt
                }
            });
        }
    }
    return out;
}

export type CommandUse =
    | { kind: 'rally', relation: Relation, officer: UnitModel, unit: UnitModel, dp: number }
    | { kind: 'move', line: Facts, officer: UnitModel, die: 'average' | 'd6' };

/** L8: each rally (`O rallies U: dp N`) and commander move (`O: move`, `O: move, d6`) of a command action. */
export function readCommand(model: ScenarioModel, action: ActionModel): CommandUse[] {
    const out: CommandUse[] = [];
    for (const st of action.node.statements) {
        if (isRelation(st) && st.verb === 'rallies') {
            const officer = firstUnit(model, st.subject), unit = firstUnit(model, st.object);
            if (officer && unit) out.push({ kind: 'rally', relation: st, officer, unit, dp: numberFact(st.facts, 'dp') ?? 1 });
        } else if (isFacts(st) && has(st.facts, 'move')) {
            for (const officer of unitsOf(model, st.target)) out.push({ kind: 'move', line: st, officer, die: has(st.facts, 'd6') ? 'd6' : 'average' });
        }
    }
    return out;
}

/**
 * The step of the order of play an action belongs to, as a kind (L0): its own kind, except that a
 * `move` whose every line is a compulsory `retreat` or `rout` from an earlier combat is step 1, 'retreat'.
 */
export function stepKind(action: Action): string {
    if (action.kind !== 'move') return action.kind;
    const lines = action.statements.filter(isFacts);
    return lines.length > 0 && lines.every(l => has(l.facts, 'retreat') || has(l.facts, 'rout')) ? 'retreat' : 'move';
}

/** The turn an action counts in for command points: its `turn`, or the file itself outside turns. */
export function turnKeyOf(action: ActionModel): object {
    return action.turn ?? action.node.$container;
}
