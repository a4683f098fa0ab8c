/**
 * Reads an Ancients melee into the engine's input (docs/rules/ancients.md, A1–A9): each unit's stats from its
 * grade bundle and its own braces, the engagement's pairings, positions, charges, splits and the
 * follow-up choices, and the dice entered from the table.
 *
 * Nothing here throws on a broken file: a stat that cannot be read makes the unit unreadable, and
 * `buildAncientsInput` says what is missing; the validator (validation/ancients.ts) says where.
 */
import { isDice, isFacts, isFlag, isRelation, isSplit, type Action, type Dice, type Relation, type Split, type Target } from '../../language/generated/ast.js';
import {
    ANCIENTS_FORMATIONS, ANCIENTS_SIZES, ANCIENTS_TYPES, ANCIENTS_WEIGHTS, attackPlan, diceFor, opponentsOf, saveFor, thresholdFor,
    type AncientsFormation, type AncientsInput, type AncientsPairing, type AncientsPosition, type AncientsSide,
    type AncientsSize, type AncientsSplit, type AncientsThrow, type AncientsType, type AncientsUnit, type AncientsWeight
} from './engine/ancients-engine.js';
import { factValue, unitsOf, type ScenarioModel, type StatValue, type UnitModel } from '../../core/scenario.js';
import { sideUnits } from '../../core/scenario.js';
import { D6 } from '../../core/dice.js';
import type { ExclusiveFacts, StatRange } from '../../core/ruleset.js';
import type { DiceRequest, EnteredValues } from '../../core/dice-source.js';
import { fixedDice, type ConditionalDice, type DicePlan } from '../../core/dice-plan.js';
import { tablesFor, tablesInTurn, type TablesInForce } from '../../core/house-rules.js';
import type { AncientsTables } from './engine/ancients-tables.js';

/** Every stat the Ancients rules read from a unit (grade bundle and its own braces). */
export const ANCIENTS_STATS = ['size', 'skill', 'weight', 'type', 'formation', 'leadership', 'shock', 'defensive', 'tokens', 'tested', 'move', 'enters'] as const;
/** The stats a unit cannot fight without (`type` may come from its arm). */
/** The stats a unit needs to fight (A1), from its grade bundle or its braces. */
export const REQUIRED_STATS = ['size', 'skill', 'weight', 'type', 'formation', 'leadership'] as const;
/** The facts an Ancients engagement reads about its units. */
export const ANCIENTS_FACTS = ['charged', 'countercharged', 'follow-up'] as const;
export const DICE_LABELS: readonly AncientsThrow[] = ['hit', 'save', 'test'];

/**
 * Facts of which one unit may state one at most (docs/rules/ancients.md#exclusive): the checks
 * (`facts-exclusive`), completion and the reference read this list.
 */
export const ANCIENTS_EXCLUSIVE: readonly ExclusiveFacts[] = [
    { kinds: ['engagement'], facts: ['charged', 'countercharged'], severity: 'error', rule: 'a1',
        why: 'the seed tells "if it Charged or Counter-Charged" apart: a unit charged, or it met the charge with one of its own' }
];

/**
 * A1.6 with `option defensive-countercharge`: the seed's "a Defensive Unit generates extra dice … if it
 * has not Charged", read as written, where Charged and Counter-Charged are two things. A defensive unit
 * that counter-charged keeps its extra dice; without the option it loses them, as one that charged.
 */
export const DEFENSIVE_COUNTERCHARGE = 'defensive-countercharge';

/** Whether the unit counts as having charged for A1's first-turn dice. */
function chargedFor(model: ScenarioModel, action: Action, u: UnitModel, defensive: boolean): boolean {
    if (hasFact(model, action, u, 'charged')) return true;
    const counter = hasFact(model, action, u, 'countercharged');
    return counter && !(defensive && model.options.has(DEFENSIVE_COUNTERCHARGE));
}

/** The numbers a stat may take (docs/rules/ancients.md#a3). */
export const ANCIENTS_RANGES: Readonly<Record<string, StatRange>> = {
    skill: { min: 0, max: 5, severity: 'warning', rule: 'a3',
        why: '"the difference in skill levels is the total Advantage", and a net Advantage beyond 5 counts as 5 (A4)' }
};

/** A unit's stats as read; `undefined` where a stat is missing or cannot be read. */
interface AncientsStats {
    size: AncientsSize;
    skill: number;
    weight: AncientsWeight;
    type: AncientsType;
    formation: AncientsFormation;
    leadership: number;
    shock: boolean;
    defensive: boolean;
    tokens: number;
    tested: boolean;
    move: number | undefined;
}

/**
 * A7: how many d6 a break test throws: a house rule's `break d6`, else 1 with `option break-die d6`,
 * else the seed's 2.
 */
function breakDiceOf(model: ScenarioModel, tables: TablesInForce): 1 | 2 {
    const entry = tables.entryFor('break', BREAK_DICE);
    if (entry?.node && (entry.value === 1 || entry.value === 2)) return entry.value;
    if (model.options.get('break-die') === 'd6') return 1;
    return entry?.value === 1 ? 1 : 2;
}

/** The key of the house `break` table that says how many d6 a break test throws (`dice` is a word of the language). */
const BREAK_DICE = 'd6';

/** The keys of the house `advantage` table by category (A3.3–A3.6). */
export const STEP_KEYS = {
    weight: ANCIENTS_WEIGHTS, type: ANCIENTS_TYPES, formation: ANCIENTS_FORMATIONS, position: ['front', 'flank', 'rear'] as const
} as const;

/** Ancients' engine tables in force for an action (or the file's, with none): the seed's, as the house rules change them. */
export function ancientsTables(tables: TablesInForce): AncientsTables {
    const num = (table: string, key: string) => tables.word<number>(table, key)!;
    const byKey = <K extends string>(table: string, keys: readonly K[]) => Object.fromEntries(keys.map(k => [k, num(table, k)])) as Record<K, number>;
    return {
        dice: byKey('pool', ANCIENTS_SIZES),
        firstTurn: byKey('first-turn', ['shock', 'defensive']),
        toHit: tables.bands<number>('to-hit'),
        save: byKey('save', ANCIENTS_WEIGHTS),
        threshold: byKey('threshold', ANCIENTS_SIZES),
        steps: {
            weight: byKey('advantage', STEP_KEYS.weight), type: byKey('advantage', STEP_KEYS.type),
            formation: byKey('advantage', STEP_KEYS.formation), position: byKey('advantage', STEP_KEYS.position)
        },
        breakTest: byKey('break', ['first-test', 'winning-side', 'extra-multiples', 'damage-tokens']),
        movement: byKey('movement', ['give-ground', 'follow-up'])
    };
}

/** The leadership scores a break test can meet (A7.1): what its dice roll, with its own modifiers. */
export interface LeadershipRange {
    /** How many d6 the test throws. */
    readonly dice: 1 | 2;
    /** The lowest roll: a leadership below it is met by every throw before any modifier. */
    readonly min: number;
    /** The highest roll plus +1 for a first test (A7.2) and +1 for the winning side (A7.3). */
    readonly max: number;
    /** Those two bonuses, as the file's house rules set them (a negative one counts 0). */
    readonly bonuses: readonly [firstTest: number, winningSide: number];
}

/**
 * A7.1: the range of leadership a test can meet: 2d6 (or 1d6 with `option break-die d6`) +1 +1, under
 * the file's house rules (a turn's own do not move it).
 */
export function leadershipRange(model: ScenarioModel): LeadershipRange {
    const tables = tablesInTurn(model, undefined);
    const dice = breakDiceOf(model, tables);
    const bonus = (key: string) => Math.max(0, tables.word<number>('break', key) ?? 0);
    const bonuses = [bonus('first-test'), bonus('winning-side')] as const;
    return { dice, min: dice, max: 6 * dice + bonuses[0] + bonuses[1], bonuses };
}

function leadershipProblem(value: number, range: LeadershipRange): string {
    const roll = range.dice === 1 ? `a d6 rolls 1–6` : `2d6 roll 2–12`;
    const why = value > range.max
        ? `${roll}, and with +${range.bonuses[0]} for a first test and +${range.bonuses[1]} for the winning side the test scores at most ${range.max}`
        : `${roll}, so no test can score below ${range.min} before its modifiers`;
    return `A leadership of ${value} cannot be tested: ${why} (A7); write ${range.min} to ${range.max}.`;
}

const oneOf = <T extends string>(list: readonly T[], v: StatValue | undefined): T | undefined =>
    (typeof v === 'string' && (list as readonly string[]).includes(v) ? v as T : undefined);

/** What is wrong with a stat: a value of the wrong kind, or a leadership or token count out of range. */
export interface StatProblem {
    kind: 'value' | 'leadership' | 'tokens';
    message: string;
}

/**
 * What is wrong with one stat's value, or undefined when it is fine. Used on each stat where it is
 * written (grade or unit), so the message lands on the value itself.
 */
export function statValueProblem(key: string, value: StatValue, range: LeadershipRange): StatProblem | undefined {
    const bad = (message: string): StatProblem => ({ kind: 'value', message });
    const words: Record<string, readonly string[]> = { size: ANCIENTS_SIZES, weight: ANCIENTS_WEIGHTS, type: ANCIENTS_TYPES, formation: ANCIENTS_FORMATIONS };
    if (key in words) {
        return oneOf(words[key], value) ? undefined : bad(`'${value === true ? '' : value}' is not a ${key}: write ${words[key].join(', ')}.`);
    }
    if (key === 'skill') return typeof value === 'number' ? undefined : bad('skill is a number: write e.g. skill 2.');
    if (key === 'leadership') {
        if (typeof value !== 'number') return bad(`leadership is the break-test score needed: a number from ${range.min} to ${range.max}.`);
        if (value < range.min || value > range.max) return { kind: 'leadership', message: leadershipProblem(value, range) };
        return undefined;
    }
    if (key === 'tokens') {
        if (typeof value !== 'number') return bad('tokens is the number of damage tokens carried: write e.g. tokens 1.');
        return value < 0 ? { kind: 'tokens', message: `A unit cannot carry ${value} damage tokens: write 0 or more.` } : undefined;
    }
    if (key === 'move') return typeof value === 'number' && value > 0 ? undefined : bad('move is the movement rate in inches: a number above 0.');
    if (key === 'shock' || key === 'defensive' || key === 'tested') return value === true ? undefined : bad(`${key} is a flag: write it without a value.`);
    return undefined;
}

/** The stat's value as the engine reads it, or undefined when it is missing or unreadable. */
function readAncientsStats(unit: UnitModel, range: LeadershipRange, stats: ReadonlyMap<string, StatValue> = unit.stats): Partial<AncientsStats> {
    const get = (key: string) => {
        const v = stats.get(key);
        return v !== undefined && statValueProblem(key, v, range) === undefined ? v : undefined;
    };
    const num = (key: string) => { const v = get(key); return typeof v === 'number' ? v : undefined; };
    return {
        size: oneOf(ANCIENTS_SIZES, get('size')),
        skill: num('skill'),
        weight: oneOf(ANCIENTS_WEIGHTS, get('weight')),
        type: stats.has('type') ? oneOf(ANCIENTS_TYPES, get('type')) : oneOf(ANCIENTS_TYPES, unit.arm),
        formation: oneOf(ANCIENTS_FORMATIONS, get('formation')),
        leadership: num('leadership'),
        shock: get('shock') === true,
        defensive: get('defensive') === true,
        tokens: stats.has('tokens') ? num('tokens') : 0,
        tested: get('tested') === true,
        move: num('move')
    };
}

/** The required stats a unit lacks (neither its grade nor its braces give them; `type` not from its arm). */
export function missingStats(unit: UnitModel): string[] {
    return REQUIRED_STATS.filter(k => !unit.stats.has(k) && !(k === 'type' && oneOf(ANCIENTS_TYPES, unit.arm)));
}

function completeStats(s: Partial<AncientsStats>): s is AncientsStats {
    return s.size !== undefined && s.skill !== undefined && s.weight !== undefined && s.type !== undefined
        && s.formation !== undefined && s.leadership !== undefined && s.tokens !== undefined && !(s.shock && s.defensive);
}

/** The single unit a reference names, or undefined when it names none or several. */
export function oneUnit(model: ScenarioModel, target: Target): UnitModel | undefined {
    const units = unitsOf(model, target);
    return units.length === 1 ? units[0] : undefined;
}

/** The `vs` relations of an engagement (other verbs belong to Loose Files). */
export function pairingStatements(action: Action): Relation[] {
    return action.statements.filter(isRelation).filter(r => r.verb === 'vs');
}

/**
 * The pairings of an engagement. Without any `vs` line, a one-against-one engagement pairs its two
 * units front to front; otherwise units are in contact only as written.
 */
function readPairings(model: ScenarioModel, action: Action, sides: { attackers: UnitModel[], defenders: UnitModel[] }): AncientsPairing[] {
    const written = pairingStatements(action);
    if (written.length === 0) {
        if (sides.attackers.length === 1 && sides.defenders.length === 1) {
            return [{ a: sides.attackers[0].id, aPosition: 'front', b: sides.defenders[0].id, bPosition: 'front' }];
        }
        return [];
    }
    const pairings: AncientsPairing[] = [];
    for (const r of written) {
        const a = oneUnit(model, r.subject), b = oneUnit(model, r.object);
        if (!a || !b || a.id === b.id) continue;
        if (pairings.some(p => (p.a === a.id && p.b === b.id) || (p.a === b.id && p.b === a.id))) continue;
        pairings.push({
            a: a.id, aPosition: (r.subjectPosition ?? 'front') as AncientsPosition,
            b: b.id, bPosition: (r.objectPosition ?? 'front') as AncientsPosition
        });
    }
    return pairings;
}

function readSplits(model: ScenarioModel, action: Action): AncientsSplit[] {
    const out: AncientsSplit[] = [];
    for (const s of action.statements.filter(isSplit)) {
        const unit = oneUnit(model, s.unit);
        if (!unit || out.some(o => o.unit === unit.id)) continue;
        out.push({ unit: unit.id, parts: splitParts(model, s) });
    }
    return out;
}

function splitParts(model: ScenarioModel, split: Split): Array<{ target: string, dice: number }> {
    return split.parts.flatMap(p => {
        const t = oneUnit(model, p.target);
        return t ? [{ target: t.id, dice: p.dice }] : [];
    });
}

/** Whether a fact with this key is written for the unit (on it, its unit name, or its force). */
function hasFact(model: ScenarioModel, action: Action, unit: UnitModel, key: string): boolean {
    return action.statements.filter(isFacts).some(f =>
        f.facts.some(x => x.key === key && factValue(x) === true) && unitsOf(model, f.target).some(u => u.id === unit.id));
}

/**
 * A unit's stats as an action sees them. By default its declared stats; a campaign passes the
 * stats with the state carried from earlier fights laid over them (tokens, tested: model/state.ts).
 */
export type StatsAt = (unit: UnitModel) => ReadonlyMap<string, StatValue>;

export interface AncientsReading {
    input: AncientsInput;
    /** The tables in force for the action (the seed's, or as its house rules change them). */
    tables: AncientsTables;
    /** The same, with where each entry comes from (for the breakdown's house notes). */
    inForce: TablesInForce;
    /** Units of the sides that are paired with nobody: they take no part. */
    idle: UnitModel[];
}

/**
 * A2: the reason a split cannot be resolved — it does not add up to the unit's dice, or names a unit
 * that is not its opponent — or undefined. Checked before any dice are thrown, so that a mistyped
 * `split X 1000000 on Y` never throws a million dice.
 */
export function splitProblem(input: AncientsInput, tables: AncientsTables): string | undefined {
    for (const split of input.splits) {
        const unit = input.units.find(u => u.id === split.unit);
        const opponents = opponentsOf(input, split.unit);
        if (!unit || split.parts.some(p => !opponents.includes(p.target))
            || split.parts.reduce((x, p) => x + p.dice, 0) !== diceFor(unit, input.firstTurn, tables)) {
            return `The split of ${split.unit} does not match its dice or its opponents: run 'umpire check'.`;
        }
    }
    return undefined;
}

/** The engine's input, or the reason there is none (splits are checked by `splitProblem`). */
export function buildAncientsInput(model: ScenarioModel, action: Action, statsAt: StatsAt = u => u.stats): AncientsReading | { problem: string } {
    const sides = sideUnits(model, action);
    if (!sides || sides.attackers.length === 0 || sides.defenders.length === 0) {
        return { problem: `Engagement '${action.name}' needs two sides: write 'A attacks B'.` };
    }
    const pairings = readPairings(model, action, sides);
    if (pairings.length === 0) return { problem: `Engagement '${action.name}' has no units in contact: write 'A vs B' for each pair.` };
    const paired = new Set(pairings.flatMap(p => [p.a, p.b]));
    const range = leadershipRange(model);
    const units: AncientsUnit[] = [];
    const idle: UnitModel[] = [];
    const sideOf: Array<[AncientsSide, UnitModel[]]> = [['attacker', sides.attackers], ['defender', sides.defenders]];
    const placed = new Set<string>();
    for (const [side, list] of sideOf) {
        for (const u of list) {
            if (placed.has(u.id)) continue;
            placed.add(u.id);
            if (!paired.has(u.id)) { idle.push(u); continue; }
            const stats = readAncientsStats(u, range, statsAt(u));
            if (!completeStats(stats)) return { problem: `${u.id} is missing stats or has stats that cannot be read: run 'umpire check'.` };
            units.push({
                id: u.id, force: u.force, unit: u.id.slice(u.force.length + 1), side, ...stats,
                charged: chargedFor(model, action, u, stats.defensive === true),
                followUp: hasFact(model, action, u, 'follow-up')
            });
        }
    }
    const sideOfUnit = new Map(units.map(u => [u.id, u.side]));
    if (pairings.some(p => !sideOfUnit.has(p.a) || !sideOfUnit.has(p.b))) {
        return { problem: `Engagement '${action.name}' pairs a unit that is on neither side: run 'umpire check'.` };
    }
    if (pairings.some(p => sideOfUnit.get(p.a) === sideOfUnit.get(p.b))) {
        return { problem: `Engagement '${action.name}' pairs two units of one side: run 'umpire check'.` };
    }
    const tables = tablesFor(model, action);
    const input: AncientsInput = {
        units, pairings, splits: readSplits(model, action),
        firstTurn: action.statements.some(s => isFlag(s) && s.name === 'first'),
        breakDice: breakDiceOf(model, tables)
    };
    return { input, idle, tables: ancientsTables(tables), inForce: tables };
}

/** The throw a dice line feeds (`hit`, `save`, `test`), or undefined for a label that is none of them. */
export function diceThrow(line: Dice): AncientsThrow | undefined {
    return DICE_LABELS.find(l => l === line.label);
}

export function hasEnteredAncientsDice(action: Action): boolean {
    return action.statements.some(isDice);
}

/**
 * The values of the action's `dice` lines, for the one entered dice source: a line feeds its one
 * unit's throw of its label; only the first line of each throw and unit counts (the validator flags repeats).
 */
export function ancientsEnteredValues(model: ScenarioModel, action: Action): Array<EnteredValues<Dice>> {
    const seen = new Set<string>();
    const entries: Array<EnteredValues<Dice>> = [];
    for (const line of action.statements.filter(isDice)) {
        const kind = diceThrow(line);
        const unit = oneUnit(model, line.target);
        if (!kind || !unit || seen.has(`${kind} ${unit.id}`)) continue;
        seen.add(`${kind} ${unit.id}`);
        entries.push({ origin: line, who: [unit.id], label: kind, values: line.values });
    }
    return entries;
}

/** The dice plan of an engagement as read with these stats, or undefined when it cannot be resolved as written. */
export function ancientsActionDicePlan(model: ScenarioModel, action: Action, statsAt?: StatsAt): DicePlan | undefined {
    const reading = buildAncientsInput(model, action, statsAt);
    if ('problem' in reading || splitProblem(reading.input, reading.tables)) return undefined;
    return ancientsDicePlan(reading.input, reading.tables);
}

/** A throw of `count` d6 by one unit. */
const d6By = (unitId: string, label: AncientsThrow, count: number): DiceRequest => ({ who: [unitId], label, die: D6, count });

/**
 * The dice of a melee, in the order the engine takes them (docs/rules/ancients.md#dice-plan): the
 * hit dice are fixed by the pools and splits (A1, A2); the saves, one per hit received (A5), and the
 * break tests, for a unit whose unsaved hits reach its threshold (A6, A7), follow from the dice before them.
 */
export function ancientsDicePlan(input: AncientsInput, tables: AncientsTables): DicePlan {
    const attacks = attackPlan(input, tables).filter(a => a.dice > 0);
    const aimedAt = (id: string) => attacks.filter(a => a.target === id).reduce((n, a) => n + a.dice, 0);
    const received = (earlier: ReadonlyArray<readonly number[]>) => {
        const hits = new Map<string, number>();
        attacks.forEach((a, i) => hits.set(a.target, (hits.get(a.target) ?? 0) + (earlier[i] ?? []).filter(v => v >= a.toHit).length));
        return input.units.map(u => ({ unit: u, incoming: hits.get(u.id) ?? 0 }));
    };
    const saves: ConditionalDice = {
        kind: 'conditional', reason: 'one save die for each hit received (A5)',
        upTo: input.units.reduce((n, u) => n + aimedAt(u.id), 0),
        requests: earlier => received(earlier).filter(r => r.incoming > 0).map(r => d6By(r.unit.id, 'save', r.incoming))
    };
    const tests: ConditionalDice = {
        kind: 'conditional', reason: `a unit whose unsaved hits reach its threshold takes a break test of ${input.breakDice}d6 (A6, A7)`,
        upTo: input.units.filter(u => aimedAt(u.id) >= thresholdFor(u.size, tables)).length * input.breakDice,
        requests(earlier) {
            const saving = received(earlier).filter(r => r.incoming > 0);
            const saved = new Map(saving.map((r, i) => [r.unit.id, (earlier[attacks.length + i] ?? []).filter(v => v >= saveFor(r.unit.weight, tables)).length]));
            return received(earlier)
                .filter(r => r.incoming - (saved.get(r.unit.id) ?? 0) >= thresholdFor(r.unit.size, tables))
                .map(r => d6By(r.unit.id, 'test', input.breakDice));
        }
    };
    return { steps: [...attacks.map(a => fixedDice(d6By(a.attacker, 'hit', a.dice))), saves, tests] };
}
