/**
 * SCRUD — Simple Combat Resolution Using Dice (docs/rules/scrud.md, S1–S6).
 *
 * Each unit throws one die, turned by its modifier and clamped to the die's faces; within each arm
 * (or all arms pooled) both sides' dice are sorted high to low and met pair by pair.
 */
import type { Die } from '../../../core/dice.js';
import { pairResult, SCRUD_SEED_TABLES, type ScrudTables } from './scrud-tables.js';

export type ScrudResult = 'unpaired' | 'stand-off' | 'won' | 'recoil' | 'retire' | 'retreat' | 'rout';
/** The labels in the order an umpire reads them. */
export const SCRUD_RESULTS: readonly ScrudResult[] = ['unpaired', 'stand-off', 'won', 'recoil', 'retire', 'retreat', 'rout'];
/** Results that mean the unit lost its pair. */
export const SCRUD_LOSSES: readonly ScrudResult[] = ['recoil', 'retire', 'retreat', 'rout'];

export type SideRole = 'attacker' | 'defender';

export interface ScrudUnit {
    /** `Force.Unit` or `Force.Unit#k`. */
    readonly id: string;
    readonly force: string;
    readonly unit: string;
    readonly arm: string;
    readonly die: Die;
    /** Grade plus every factor that applies (S2). */
    readonly modifier: number;
}

export interface ScrudSide {
    readonly force: string;
    /** In declaration order: the order that breaks ties (S4) and that entered dice follow. */
    readonly units: readonly ScrudUnit[];
}

export interface ScrudInput {
    readonly attacker: ScrudSide;
    readonly defender: ScrudSide;
    /** S3: compare all arms together instead of arm against arm. */
    readonly pooled: boolean;
}

export interface ScrudUnitResult {
    readonly id: string;
    readonly force: string;
    readonly unit: string;
    readonly side: SideRole;
    readonly arm: string;
    readonly die: string;
    readonly thrown: number;
    readonly modifier: number;
    readonly adjusted: number;
    /** 1-based place in its side's sorted line (S4). */
    readonly rank: number;
    readonly result: ScrudResult;
    readonly opponent: string | null;
}

interface ScrudPair {
    readonly attacker: ScrudUnitResult | null;
    readonly defender: ScrudUnitResult | null;
    /** Attacker's adjusted die minus the defender's, when both are present. */
    readonly difference: number | null;
}

interface ScrudGroup {
    /** The arm compared, or `all` when pooled. */
    readonly arm: string;
    readonly pairs: readonly ScrudPair[];
}

export interface ScrudOutcome {
    readonly units: readonly ScrudUnitResult[];
    readonly groups: readonly ScrudGroup[];
    readonly summary: string;
}

/** S2: the modifier turns the die, which cannot go past its own lowest and highest face (unless a house rule lets it; 1 and 6 with `option clamp-six`). */
export function adjust(thrown: number, modifier: number, die: Die, tables: ScrudTables = SCRUD_SEED_TABLES): number {
    const turned = thrown + modifier;
    const [min, max] = tables.clampSix ? [1, 6] : [die.min, die.max];
    const low = tables.clampLow ? Math.max(min, turned) : turned;
    return tables.clampHigh ? Math.min(max, low) : low;
}

/**
 * S6 from one unit's side of its pair: `mine` is its adjusted die minus its opponent's. The table
 * gives what the lower die's unit suffers; a `stand-off` there (and any result at 0) is both units'.
 */
export function resultFor(mine: number, tables: ScrudTables = SCRUD_SEED_TABLES): ScrudResult {
    const result = pairResult(tables, Math.abs(mine));
    if (mine === 0 || result === 'stand-off') return result;
    return mine > 0 ? 'won' : result;
}

/** The arms of an engagement in the order they first appear (attacker first). */
export function armsOf(input: ScrudInput): string[] {
    if (input.pooled) return ['all'];
    const arms: string[] = [];
    for (const u of [...input.attacker.units, ...input.defender.units]) {
        if (!arms.includes(u.arm)) arms.push(u.arm);
    }
    return arms;
}

interface Ranked { unit: ScrudUnit, thrown: number, adjusted: number, order: number }

/** S4: high to low; equal dice keep declaration order. */
function rankLine(units: readonly ScrudUnit[], thrown: readonly number[], tables: ScrudTables): Ranked[] {
    return units
        .map((unit, order) => ({ unit, thrown: thrown[order], adjusted: adjust(thrown[order], unit.modifier, unit.die, tables), order }))
        .sort((a, b) => b.adjusted - a.adjusted || a.order - b.order);
}

/**
 * Resolves an engagement from the dice thrown by each unit, given in declaration order per side
 * (`thrown.attacker[i]` belongs to `input.attacker.units[i]`).
 */
export function resolveScrud(input: ScrudInput, thrown: { attacker: readonly number[], defender: readonly number[] }, tables: ScrudTables = SCRUD_SEED_TABLES): ScrudOutcome {
    const results = new Map<string, ScrudUnitResult>();
    const groups: ScrudGroup[] = [];
    const inArm = (arm: string) => (u: ScrudUnit) => input.pooled || u.arm === arm;
    for (const arm of armsOf(input)) {
        const pick = (side: ScrudSide, dice: readonly number[]) => {
            const idx = side.units.map((u, i) => (inArm(arm)(u) ? i : -1)).filter(i => i >= 0);
            return rankLine(idx.map(i => side.units[i]), idx.map(i => dice[i]), tables);
        };
        const att = pick(input.attacker, thrown.attacker);
        const def = pick(input.defender, thrown.defender);
        const pairs: ScrudPair[] = [];
        for (let i = 0; i < Math.max(att.length, def.length); i++) {
            const a = att[i], d = def[i];
            const diff = a && d ? a.adjusted - d.adjusted : null;
            const ra = a ? record(a, 'attacker', i + 1, diff === null ? 'unpaired' : resultFor(diff, tables), d?.unit.id ?? null) : null;
            const rd = d ? record(d, 'defender', i + 1, diff === null ? 'unpaired' : resultFor(-diff, tables), a?.unit.id ?? null) : null;
            if (ra) results.set(ra.id, ra);
            if (rd) results.set(rd.id, rd);
            pairs.push({ attacker: ra, defender: rd, difference: diff });
        }
        groups.push({ arm, pairs });
    }
    const units = [...input.attacker.units, ...input.defender.units].map(u => results.get(u.id)!);
    return withSummaryWhenRead(units, groups, input);
}

/**
 * The outcome with its summary worked out when first read: a campaign's check settles every engagement a
 * later one reads (docs/campaigns.md#settled) for the units' results alone, and the summary, which only a
 * written outcome, the JSON and a view show, was a sixth of that. It reads the sides' force names and the
 * groups: plain data, no parse tree kept.
 */
function withSummaryWhenRead(units: readonly ScrudUnitResult[], groups: readonly ScrudGroup[], input: ScrudInput): ScrudOutcome {
    const forces = { attacker: { force: input.attacker.force }, defender: { force: input.defender.force } };
    let summary: string | undefined;
    return {
        units, groups,
        get summary() {
            return summary ??= summarize(forces, groups);
        }
    };
}

function record(r: Ranked, side: SideRole, rank: number, result: ScrudResult, opponent: string | null): ScrudUnitResult {
    const u = r.unit;
    return {
        id: u.id, force: u.force, unit: u.unit, side, arm: u.arm, die: u.die.name,
        thrown: r.thrown, modifier: u.modifier, adjusted: r.adjusted, rank, result, opponent
    };
}

/**
 * The seed's way of telling it: for each arm, the side that lost pairs with its stand-offs and losses,
 * e.g. "Defender foot: 3 stand-off, 1 recoil, 2 retire · Attacker horse: 1 recoil, 1 retire".
 */
function summarize(input: { readonly attacker: { readonly force: string }, readonly defender: { readonly force: string } }, groups: readonly ScrudGroup[]): string {
    const parts: string[] = [];
    for (const g of groups) {
        const armName = g.arm === 'all' ? '' : ` ${g.arm}`;
        const sides: Array<[string, Array<ScrudUnitResult | null>]> = [
            [input.attacker.force, g.pairs.map(p => p.attacker)],
            [input.defender.force, g.pairs.map(p => p.defender)]
        ];
        let anyLoss = false;
        for (const [force, line] of sides) {
            const paired = line.filter((r): r is ScrudUnitResult => r !== null && r.result !== 'unpaired');
            if (!paired.some(r => SCRUD_LOSSES.includes(r.result))) continue;
            anyLoss = true;
            parts.push(`${force}${armName}: ${countResults(paired, ['stand-off', ...SCRUD_LOSSES])}`);
        }
        if (!anyLoss) {
            const standOffs = g.pairs.filter(p => p.difference === 0).length;
            const label = g.arm === 'all' ? 'All arms' : g.arm[0].toUpperCase() + g.arm.slice(1);
            parts.push(standOffs > 0 ? `${label}: ${standOffs} stand-off` : `${label}: no pairs`);
        }
    }
    return parts.join(' · ');
}

function countResults(results: readonly ScrudUnitResult[], order: readonly ScrudResult[]): string {
    return order
        .map(label => [label, results.filter(r => r.result === label).length] as const)
        .filter(([, n]) => n > 0)
        .map(([label, n]) => `${n} ${label}`)
        .join(', ');
}

/**
 * After the combat (docs/rules/scrud.md S-ex.6, S1.3): which units pursue. The worked example's
 * "further dice throw" is a pursuit throw for a winning unit given one (`X: pursuit`), a d6 that
 * pursues on `from` or more (`option pursuit N`, default 4). The comment's variant
 * (`option runs-and-pursues`): a unit whose own die shows a 1 runs away (retreats) whatever its
 * pair gave, one whose die shows a 6 pursues if it did not lose, without a pursuit throw.
 */
export interface PursuitRule {
    /** A pursuit throw of this or more pursues (S-ex.6). */
    readonly from: number;
    /** S1.3: a 1 runs away, a 6 pursues. */
    readonly runsAndPursues: boolean;
    /** S1.3's faces (the house table `runs-and-pursues`): the die a unit runs away on, and the one it pursues on. */
    readonly runsOn: number;
    readonly pursuesOn: number;
    /** Units given a pursuit throw, if they win. */
    readonly marked: ReadonlySet<string>;
}

export type PursuitDecision =
    | { readonly id: string, readonly kind: 'throw', readonly throw: number, readonly pursues: boolean }
    | { readonly id: string, readonly kind: 'six', readonly face: number }
    | { readonly id: string, readonly kind: 'runs', readonly face: number };

/** S-ex.6: the units that throw for pursuit, in the order their throws are read: winners given one, attacker side first. */
export function pursuitThrowers(outcome: ScrudOutcome, rule: PursuitRule): string[] {
    return outcome.units
        .filter(u => rule.marked.has(u.id) && u.result === 'won' && !(rule.runsAndPursues && (u.thrown === rule.runsOn || u.thrown === rule.pursuesOn)))
        .map(u => u.id);
}

/** What happens after the pairs: the variant's runs and pursuits, and each pursuit throw against its rule. */
export function decidePursuit(outcome: ScrudOutcome, rule: PursuitRule, throws: ReadonlyMap<string, number>): PursuitDecision[] {
    const decisions: PursuitDecision[] = [];
    const throwers = new Set(pursuitThrowers(outcome, rule));
    for (const u of outcome.units) {
        if (rule.runsAndPursues && u.thrown === rule.runsOn) decisions.push({ id: u.id, kind: 'runs', face: u.thrown });
        else if (rule.runsAndPursues && u.thrown === rule.pursuesOn && !SCRUD_LOSSES.includes(u.result)) decisions.push({ id: u.id, kind: 'six', face: u.thrown });
        else if (throwers.has(u.id) && throws.has(u.id)) {
            const t = throws.get(u.id)!;
            decisions.push({ id: u.id, kind: 'throw', throw: t, pursues: t >= rule.from });
        }
    }
    return decisions;
}
