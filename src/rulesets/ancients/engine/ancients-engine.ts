/**
 * Ancients — the dice-pool melee of docs/rules/ancients.md (docs/rules/ancients.md, A1–A9).
 *
 * Every unit in contact throws a pool of d6 (A1), split over its opponents (A2), hitting on 3+/4+/5+
 * by the net Advantage of each pairing (A3, A4); every hit is saved on the target's weight (A5); a
 * unit that took its threshold in unsaved hits (A6) takes a break test (A7), gains damage tokens if it
 * survives (A8), and its opponents may follow up when it gives ground (A9).
 *
 * Pure: the dice come from an `AncientsDiceSource`, called in one fixed order (see `resolveAncients`),
 * so that seeded dice, dice entered from the table, and a test's enumerated roll vectors all go
 * through the same code. The stage functions are exported for the odds engine.
 *
 * Every number the seed prints (dice by size, to-hit by Advantage, saves, thresholds, steps, break-test
 * modifiers) comes from an `AncientsTables` (engine/ancients-tables.ts): the seed's by default, or the
 * file's house rules (docs/house-rules.md#ancients).
 */
import { D6 } from '../../../core/dice.js';
import type { DiceSource } from '../../../core/dice-source.js';
import { ANCIENTS_SEED_TABLES, movementShare, toHitAt, type AncientsTables } from './ancients-tables.js';

export type AncientsSize = 'huge' | 'large' | 'medium' | 'small';
export type AncientsWeight = 'heavy' | 'medium' | 'light';
export type AncientsType = 'cavalry' | 'infantry';
export type AncientsFormation = 'formed' | 'warband' | 'skirmish';
export type AncientsPosition = 'front' | 'flank' | 'rear';
export type AncientsSide = 'attacker' | 'defender';
export type AncientsResult = 'untested' | 'holds' | 'gives-ground' | 'destroyed';

export const ANCIENTS_SIZES: readonly AncientsSize[] = ['huge', 'large', 'medium', 'small'];
export const ANCIENTS_WEIGHTS: readonly AncientsWeight[] = ['heavy', 'medium', 'light'];
export const ANCIENTS_TYPES: readonly AncientsType[] = ['cavalry', 'infantry'];
export const ANCIENTS_FORMATIONS: readonly AncientsFormation[] = ['formed', 'warband', 'skirmish'];
/** The labels in the order an umpire reads them (docs/rules/ancients.md#labels). */
export const ANCIENTS_RESULTS: readonly AncientsResult[] = ['untested', 'holds', 'gives-ground', 'destroyed'];

/** One unit as the melee sees it: its stats (grade and own, merged) and this engagement's facts. */
export interface AncientsUnit {
    /** `Force.Unit` or `Force.Unit#k`. */
    readonly id: string;
    readonly force: string;
    /** The unit's name, with `#k` for one of several. */
    readonly unit: string;
    readonly side: AncientsSide;
    readonly size: AncientsSize;
    readonly skill: number;
    readonly weight: AncientsWeight;
    readonly type: AncientsType;
    readonly formation: AncientsFormation;
    /** A7: the break-test score needed. */
    readonly leadership: number;
    readonly shock: boolean;
    readonly defensive: boolean;
    /** Damage tokens carried from earlier combats (A7, A8). */
    readonly tokens: number;
    /** Whether it has already made a break test this game (A7's +1 is then lost). */
    readonly tested: boolean;
    /** Movement rate in inches (A9), when known. */
    readonly move: number | undefined;
    /** It charged or counter-charged this combat (A1's shock bonus). */
    readonly charged: boolean;
    /** The umpire chose to follow up should an opponent give ground (A9). */
    readonly followUp: boolean;
}

/** Two units in contact; each side's position is how it engages the other (`rear` = in its rear). */
export interface AncientsPairing {
    readonly a: string;
    readonly aPosition: AncientsPosition;
    readonly b: string;
    readonly bPosition: AncientsPosition;
}

/** A2: how a unit with several opponents shares its dice, in the order written. */
export interface AncientsSplit {
    readonly unit: string;
    readonly parts: ReadonlyArray<{ readonly target: string, readonly dice: number }>;
}

export interface AncientsInput {
    /** In engagement order: attackers, then defenders, each in force declaration order. */
    readonly units: readonly AncientsUnit[];
    readonly pairings: readonly AncientsPairing[];
    readonly splits: readonly AncientsSplit[];
    /** A1: the first turn of a new combat. */
    readonly firstTurn: boolean;
    /** A7: 2d6 by default; `option break-die d6` makes it 1. */
    readonly breakDice: 1 | 2;
}

export type AncientsThrow = 'hit' | 'save' | 'test';

/**
 * Where dice come from. The engine asks in a fixed order (see `resolveAncients`), `count` d6 at a
 * time; an answer must hold exactly `count` faces 1..6.
 */
export interface AncientsDiceSource {
    roll(kind: AncientsThrow, unitId: string, count: number): readonly number[];
}

/** One category's steps in a pairing (A3). */
export interface AdvantageStep {
    readonly category: 'skill' | 'weight' | 'type' | 'formation' | 'position';
    readonly mine: number;
    readonly theirs: number;
}

/** A directed pair: `attacker` throws `dice` at `target`, needing `toHit`. */
export interface AncientsAttack {
    readonly attacker: string;
    readonly target: string;
    readonly dice: number;
    /** The attacker's net Advantage over the target (A3). */
    readonly advantage: number;
    readonly steps: readonly AdvantageStep[];
    /** The score needed on each die (A4). */
    readonly toHit: number;
}

interface AttackResult extends AncientsAttack {
    readonly rolls: readonly number[];
    readonly hits: number;
}

export interface TestModifier {
    readonly reason: 'first-test' | 'winning-side' | 'extra-multiples' | 'damage-tokens';
    readonly value: number;
}

interface BreakTest {
    /** The dice thrown (2d6 or 1d6). */
    readonly dice: readonly number[];
    /** Their sum. */
    readonly roll: number;
    /** Only the modifiers that apply, in the seed's order. */
    readonly modifiers: readonly TestModifier[];
    readonly total: number;
    /** The unit's leadership. */
    readonly needed: number;
}

export interface FollowUp {
    /** Units giving ground that it was in contact with. */
    readonly from: readonly string[];
    /** A9: neither giving ground nor locked in combat with another unit. */
    readonly allowed: boolean;
    /** The umpire's recorded choice (`X: follow-up`). */
    readonly chosen: boolean;
    /** Whether it moves: allowed and chosen. */
    readonly moves: boolean;
    /** Half its movement, when its movement rate is known. */
    readonly distance: number | null;
    /** Why not, when not allowed. */
    readonly reason: string | null;
}

export interface AncientsUnitResult {
    readonly id: string;
    readonly force: string;
    readonly unit: string;
    readonly side: AncientsSide;
    /** A1: its whole pool this turn. */
    readonly dice: number;
    /** A2: its pool split over its targets, with to-hit numbers and rolls. */
    readonly attacks: readonly AttackResult[];
    /** Hits it scored on others, before their saves. */
    readonly hitsScored: number;
    /** Hits it received before saving. */
    readonly hitsReceived: number;
    /** A5: the save it needs. */
    readonly saveOn: number;
    readonly saveRolls: readonly number[];
    readonly saved: number;
    /** Unsaved hits taken. */
    readonly hits: number;
    readonly threshold: number;
    readonly tested: boolean;
    readonly test: BreakTest | null;
    readonly result: AncientsResult;
    /** A8. */
    readonly tokensGained: number;
    /** A9: half its movement, when it gives ground and its rate is known. */
    readonly givesGroundDistance: number | null;
    readonly followUp: FollowUp | null;
    readonly opponents: readonly string[];
}

export interface AncientsOutcome {
    readonly units: readonly AncientsUnitResult[];
    /** Total unsaved hits taken by each side (A7's winning side). */
    readonly sideHits: Readonly<Record<AncientsSide, number>>;
    /** The side that took fewer hits, or null on a tie. */
    readonly winner: AncientsSide | null;
    readonly summary: string;
}

/** A1: the pool of a unit. */
export function diceFor(unit: Pick<AncientsUnit, 'size' | 'shock' | 'defensive' | 'charged'>, firstTurn: boolean, tables: AncientsTables = ANCIENTS_SEED_TABLES): number {
    const shock = firstTurn && unit.shock && unit.charged;
    const defensive = firstTurn && unit.defensive && !unit.charged;
    return tables.dice[unit.size] + (shock ? tables.firstTurn.shock : defensive ? tables.firstTurn.defensive : 0);
}

/** The opponents of a unit, in the order the pairings are written. */
export function opponentsOf(input: Pick<AncientsInput, 'pairings'>, id: string): string[] {
    const out: string[] = [];
    for (const p of input.pairings) {
        const other = p.a === id ? p.b : p.b === id ? p.a : undefined;
        if (other !== undefined && !out.includes(other)) out.push(other);
    }
    return out;
}

/** How `unit` engages `other` (A3's position), from the pairing that joins them. */
function positionOf(input: Pick<AncientsInput, 'pairings'>, unit: string, other: string): AncientsPosition {
    for (const p of input.pairings) {
        if (p.a === unit && p.b === other) return p.aPosition;
        if (p.b === unit && p.a === other) return p.bPosition;
    }
    return 'front';
}

/**
 * A2: the dice a unit throws at each opponent — all at the only one, or as its split says (in the
 * split's order; opponents the split leaves out get none).
 */
export function diceSplit(input: AncientsInput, unit: AncientsUnit, tables: AncientsTables = ANCIENTS_SEED_TABLES): Array<{ target: string, dice: number }> {
    const opponents = opponentsOf(input, unit.id);
    const split = input.splits.find(s => s.unit === unit.id);
    if (split) return split.parts.map(p => ({ target: p.target, dice: p.dice }));
    if (opponents.length === 0) return [];
    return [{ target: opponents[0], dice: diceFor(unit, input.firstTurn, tables) }];
}

/** A3: each category's steps for `unit` against `target`, and the net (its steps − the target's). */
export function advantage(unit: AncientsUnit, target: AncientsUnit, unitPosition: AncientsPosition, targetPosition: AncientsPosition,
    tables: AncientsTables = ANCIENTS_SEED_TABLES): { net: number, steps: AdvantageStep[] } {
    const s = tables.steps;
    const steps: AdvantageStep[] = [
        { category: 'skill', mine: unit.skill, theirs: target.skill },
        { category: 'weight', mine: s.weight[unit.weight], theirs: s.weight[target.weight] },
        { category: 'type', mine: s.type[unit.type], theirs: s.type[target.type] },
        { category: 'formation', mine: s.formation[unit.formation], theirs: s.formation[target.formation] },
        { category: 'position', mine: s.position[unitPosition], theirs: s.position[targetPosition] }
    ];
    return { net: steps.reduce((sum, s) => sum + s.mine - s.theirs, 0), steps };
}

/**
 * A4: the score a unit needs to hit, given its net Advantage over the unit it throws at. The side
 * with one net point hits on 3+; with two or more it hits on 3+ and its opponent on 5+ (the seed's
 * `to-hit` table; a house rule may move its bands).
 */
export function toHitFor(net: number, tables: AncientsTables = ANCIENTS_SEED_TABLES): number {
    return toHitAt(tables, net);
}

/** A5. */
export function saveFor(weight: AncientsWeight, tables: AncientsTables = ANCIENTS_SEED_TABLES): number {
    return tables.save[weight];
}

/** A6. */
export function thresholdFor(size: AncientsSize, tables: AncientsTables = ANCIENTS_SEED_TABLES): number {
    return tables.threshold[size];
}

/** Every directed attack of the engagement, attackers' units first, each in its split's order. */
export function attackPlan(input: AncientsInput, tables: AncientsTables = ANCIENTS_SEED_TABLES): AncientsAttack[] {
    const byId = new Map(input.units.map(u => [u.id, u]));
    const plan: AncientsAttack[] = [];
    for (const unit of input.units) {
        for (const part of diceSplit(input, unit, tables)) {
            const target = byId.get(part.target);
            if (!target) continue;
            const adv = advantage(unit, target, positionOf(input, unit.id, target.id), positionOf(input, target.id, unit.id), tables);
            plan.push({ attacker: unit.id, target: target.id, dice: part.dice, advantage: adv.net, steps: adv.steps, toHit: toHitFor(adv.net, tables) });
        }
    }
    return plan;
}

/** The side that took fewer unsaved hits; a tie gives neither the +1 (A7). */
function winningSide(sideHits: Readonly<Record<AncientsSide, number>>): AncientsSide | null {
    if (sideHits.attacker < sideHits.defender) return 'attacker';
    if (sideHits.defender < sideHits.attacker) return 'defender';
    return null;
}

/** A7: the modifiers of a unit's break test, only those that apply (a house rule's 0 applies none). */
export function testModifiers(unit: Pick<AncientsUnit, 'tested' | 'tokens' | 'side'>, hits: number, threshold: number, winner: AncientsSide | null,
    tables: AncientsTables = ANCIENTS_SEED_TABLES): TestModifier[] {
    const per = tables.breakTest;
    const extra = Math.floor(hits / threshold) - 1;
    const mods: TestModifier[] = [
        { reason: 'first-test', value: unit.tested ? 0 : per['first-test'] },
        { reason: 'winning-side', value: winner === unit.side ? per['winning-side'] : 0 },
        { reason: 'extra-multiples', value: extra > 0 ? extra * per['extra-multiples'] : 0 },
        { reason: 'damage-tokens', value: unit.tokens > 0 ? unit.tokens * per['damage-tokens'] : 0 }
    ];
    // `+ 0` turns a −0 (no multiple at a negative rate) into 0.
    return mods.filter(m => m.value !== 0).map(m => ({ reason: m.reason, value: m.value + 0 }));
}

/** A7: below leadership destroyed, equal gives ground, above holds. */
export function testResult(total: number, leadership: number): AncientsResult {
    if (total < leadership) return 'destroyed';
    if (total === leadership) return 'gives-ground';
    return 'holds';
}

/** A8: survivors that reached their threshold gain one token per full multiple. */
export function tokensGainedFor(result: AncientsResult, hits: number, threshold: number): number {
    if (result === 'destroyed' || result === 'untested') return 0;
    return Math.floor(hits / threshold);
}

const countAtLeast = (rolls: readonly number[], score: number) => rolls.filter(r => r >= score).length;

/**
 * Resolves the melee. The dice source is asked, in this order (the documented order of seeded dice):
 * 1. hits: each unit in engagement order, each of its targets in split order, that part's dice;
 * 2. saves: each unit in engagement order, one die per hit received (hits in the order thrown above);
 * 3. break tests: each unit that reached its threshold, in engagement order, 2d6 (or 1d6).
 */
export function resolveAncients(input: AncientsInput, source: AncientsDiceSource, tables: AncientsTables = ANCIENTS_SEED_TABLES): AncientsOutcome {
    const attacks: AttackResult[] = attackPlan(input, tables).map(a => {
        const rolls = a.dice > 0 ? source.roll('hit', a.attacker, a.dice) : [];
        return { ...a, rolls, hits: countAtLeast(rolls, a.toHit) };
    });
    const received = new Map<string, number>();
    for (const a of attacks) received.set(a.target, (received.get(a.target) ?? 0) + a.hits);
    const saving = input.units.map(u => {
        const incoming = received.get(u.id) ?? 0;
        const saveOn = saveFor(u.weight, tables);
        const rolls = incoming > 0 ? source.roll('save', u.id, incoming) : [];
        const saved = countAtLeast(rolls, saveOn);
        return { unit: u, incoming, saveOn, rolls, saved, hits: incoming - saved };
    });
    const sideHits = { attacker: 0, defender: 0 };
    for (const s of saving) sideHits[s.unit.side] += s.hits;
    const winner = winningSide(sideHits);
    const tested = saving.map(s => {
        const threshold = thresholdFor(s.unit.size, tables);
        if (s.hits < threshold) return { ...s, threshold, test: null, result: 'untested' as AncientsResult };
        const dice = source.roll('test', s.unit.id, input.breakDice);
        const roll = dice.reduce((x, y) => x + y, 0);
        const modifiers = testModifiers(s.unit, s.hits, threshold, winner, tables);
        const total = roll + modifiers.reduce((x, m) => x + m.value, 0);
        const test: BreakTest = { dice, roll, modifiers, total, needed: s.unit.leadership };
        return { ...s, threshold, test, result: testResult(total, s.unit.leadership) };
    });
    const resultOf = new Map(tested.map(t => [t.unit.id, t.result]));
    const units = tested.map((t): AncientsUnitResult => {
        const u = t.unit;
        const own = attacks.filter(a => a.attacker === u.id);
        return {
            id: u.id, force: u.force, unit: u.unit, side: u.side,
            dice: diceFor(u, input.firstTurn, tables), attacks: own, hitsScored: own.reduce((x, a) => x + a.hits, 0),
            hitsReceived: t.incoming, saveOn: t.saveOn, saveRolls: t.rolls, saved: t.saved, hits: t.hits,
            threshold: t.threshold, tested: t.test !== null, test: t.test, result: t.result,
            tokensGained: tokensGainedFor(t.result, t.hits, t.threshold),
            givesGroundDistance: t.result === 'gives-ground' && u.move !== undefined ? movementShare(u.move, tables.movement['give-ground']) : null,
            followUp: followUpOf(input, u, resultOf, tables),
            opponents: opponentsOf(input, u.id)
        };
    });
    return { units, sideHits, winner, summary: summarize(input, units, sideHits) };
}

/**
 * A9: a unit whose opponent gives ground may follow up half its movement (the `movement` table's `follow-up`), unless it gives ground
 * itself or is locked in combat with another opponent that neither gave ground nor was destroyed.
 * The move is the umpire's choice, recorded as `X: follow-up`; null when no opponent gave ground.
 */
export function followUpOf(input: AncientsInput, unit: AncientsUnit, results: ReadonlyMap<string, AncientsResult>,
    tables: AncientsTables = ANCIENTS_SEED_TABLES): FollowUp | null {
    const opponents = opponentsOf(input, unit.id);
    const from = opponents.filter(o => results.get(o) === 'gives-ground');
    if (from.length === 0) return null;
    const own = results.get(unit.id);
    const locked = opponents.filter(o => !from.includes(o) && results.get(o) !== 'destroyed');
    const reason = own === 'gives-ground' ? 'it gives ground itself'
        : own === 'destroyed' ? 'it is destroyed'
            : locked.length > 0 ? `it is still locked in combat with ${locked.join(', ')}` : null;
    const allowed = reason === null;
    const moves = allowed && unit.followUp;
    return {
        from, allowed, chosen: unit.followUp, moves,
        distance: moves && unit.move !== undefined ? movementShare(unit.move, tables.movement['follow-up']) : null, reason
    };
}

/** "Greeks 3 hits, Persians 7 hits · Persians.Immortals gives-ground" — the sides, then who tested. */
function summarize(input: AncientsInput, units: readonly AncientsUnitResult[], sideHits: Readonly<Record<AncientsSide, number>>): string {
    const forces = (side: AncientsSide) => [...new Set(input.units.filter(u => u.side === side).map(u => u.force))].join('+') || side;
    const parts = [`${forces('attacker')} ${plural(sideHits.attacker, 'hit')}, ${forces('defender')} ${plural(sideHits.defender, 'hit')}`];
    const tested = units.filter(u => u.tested).map(u => `${u.id} ${u.result}`);
    parts.push(tested.length > 0 ? tested.join(', ') : 'no break tests');
    return parts.join(' · ');
}

function plural(n: number, word: string): string {
    return `${n} ${word}${n === 1 ? '' : 's'}`;
}

/**
 * The engine's throws from the one dice source (src/core/dice-source.ts), seeded or entered: each
 * throw is a request of `count` d6 by one unit, labelled with the throw (`hit`, `save`, `test`),
 * which is also the label of its `dice` line.
 */
export function throwsFrom(source: DiceSource): AncientsDiceSource {
    return { roll: (kind, unitId, count) => source.take({ who: [unitId], label: kind, die: D6, count }) };
}

/** Dice from one flat vector, taken in the engine's order: for tests and enumeration. */
export class SequenceDice implements AncientsDiceSource {
    private next = 0;
    constructor(private readonly values: readonly number[]) {}
    roll(_kind: AncientsThrow, _unitId: string, count: number): readonly number[] {
        const out = this.values.slice(this.next, this.next + count);
        this.next += count;
        return out;
    }
    /** How many values were taken. */
    get taken(): number {
        return this.next;
    }
}
