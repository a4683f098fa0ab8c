/**
 * Exact SCRUD odds (docs/rules/scrud.md, S1–S6), by dynamic programming over order statistics — never by
 * listing every roll and never by simulation.
 *
 * Within one arm (or all arms pooled, S3) a unit's place in its side's sorted line is
 * 1 + the number of its side's other units that beat it (S4: a unit declared earlier beats it on an
 * equal die, a later one only on a higher die). Given the unit's adjusted die v those "beats" are
 * independent trials, so its rank follows a Poisson-binomial law. The die it meets is the same-rank
 * order statistic of the other side, which is independent of its own side. Forward (earlier units)
 * and backward (later units) passes give every unit's rank law for a die v in O(n · r) each, so a
 * line of n units against r opponents costs O(faces · n · min(n, r) · labels).
 */
import { faceDistribution } from '../../../core/dice.js';
import { adjust, armsOf, resultFor, SCRUD_RESULTS, type ScrudInput, type ScrudResult, type ScrudUnit, type SideRole } from './scrud-engine.js';
import { countDistribution, tailOf } from '../../../core/distributions.js';
import { noRoutChance } from './scrud-rout-odds.js';
import { routsFrom, SCRUD_SEED_TABLES, type ScrudTables } from './scrud-tables.js';

export type ScrudLabelOdds = Record<ScrudResult, number>;

interface ScrudUnitOdds {
    readonly id: string;
    readonly force: string;
    readonly unit: string;
    readonly side: SideRole;
    readonly arm: string;
    /** P(result) for every result label (docs/rules/scrud.md#labels); they sum to 1. */
    readonly probabilities: ScrudLabelOdds;
}

interface ScrudSideOdds {
    readonly force: string;
    readonly side: SideRole;
    /** Expected number of the side's units with each result. */
    readonly expected: ScrudLabelOdds;
    /** P(at least one of the side's units routs); null only past the work budget of `scrud-rout.ts`. */
    readonly atLeastOneRout: number | null;
}

export interface ScrudOdds {
    /** Attacker units then defender units, each in declaration order (as `resolveScrud` lists them). */
    readonly units: readonly ScrudUnitOdds[];
    readonly sides: readonly [ScrudSideOdds, ScrudSideOdds];
}

const LABELS = SCRUD_RESULTS.length;
const UNPAIRED = SCRUD_RESULTS.indexOf('unpaired');

/** Every adjusted value any unit of the group can show, ascending. */
function valueGrid(units: readonly ScrudUnit[], tables: ScrudTables): number[] {
    const values = new Set<number>();
    for (const u of units) for (const f of u.die.faces) values.add(adjust(f, u.modifier, u.die, tables));
    return [...values].sort((a, b) => a - b);
}

/** P(adjusted die = grid[x]) for one unit (S2: turned and clamped). */
function adjustedDistribution(u: ScrudUnit, grid: readonly number[], tables: ScrudTables): Float64Array {
    const dist = new Float64Array(grid.length);
    for (const { face, p } of faceDistribution(u.die)) dist[grid.indexOf(adjust(face, u.modifier, u.die, tables))] += p;
    return dist;
}

/** P(X ≥ grid[x]) for x = 0..G (the last is 0). */
function atLeastTable(dist: Float64Array): Float64Array {
    const ge = new Float64Array(dist.length + 1);
    for (let x = dist.length - 1; x >= 0; x--) ge[x] = ge[x + 1] + dist[x];
    return ge;
}

/**
 * opp[r·G + x] = P(the (r+1)-th highest die of the line is grid[x]) for r < ranks. The r-th highest
 * is at least v exactly when at least r dice are at least v: a Poisson-binomial tail per value.
 */
function orderStatistics(line: readonly Float64Array[], ranks: number): Float64Array {
    const G = line[0]?.length ?? 0;
    const tails: Float64Array[] = [];
    const ges = line.map(atLeastTable);
    for (let x = 0; x < G; x++) tails.push(tailOf(countDistribution(ges.map(ge => ge[x]), ranks)));
    const opp = new Float64Array(ranks * G);
    for (let r = 0; r < ranks; r++) {
        for (let x = 0; x < G; x++) {
            const above = x + 1 < G ? tails[x + 1][r + 1] : 0;
            opp[r * G + x] = Math.max(0, tails[x][r + 1] - above);
        }
    }
    return opp;
}

/**
 * Each unit's chance of every label, for a line (`own`, in declaration order) against the other
 * side's line in the same arm. Returns one array of LABELS probabilities per unit.
 */
function lineOdds(own: readonly Float64Array[], other: readonly Float64Array[], grid: readonly number[], tables: ScrudTables): Float64Array[] {
    const n = own.length, m = other.length, G = grid.length;
    const out = own.map(() => new Float64Array(LABELS));
    if (n === 0) return out;
    if (m === 0) {
        for (const o of out) o[UNPAIRED] = 1;
        return out;
    }
    const R = Math.min(n, m);
    const width = R + 1; // counts 0..R−1 give ranks 1..R; R means "beaten by R or more": unpaired (S5)
    const opp = orderStatistics(other, R);
    const ges = own.map(atLeastTable);
    const fwd = new Float64Array(n * width);
    const g = new Float64Array(width * LABELS);
    const back = new Float64Array(width * LABELS);
    // S6 read from the unit's own side of a pair, for every difference of two grid values.
    const labelIndex = (mine: number) => SCRUD_RESULTS.indexOf(resultFor(mine, tables));
    for (let v = 0; v < G; v++) {
        if (!own.some(d => d[v] > 0)) continue;
        // g[r] = the label law of a die grid[v] meeting the opponent ranked r+1.
        g.fill(0);
        for (let r = 0; r < R; r++) {
            for (let x = 0; x < G; x++) {
                const p = opp[r * G + x];
                if (p > 0) g[r * LABELS + labelIndex(grid[v] - grid[x])] += p;
            }
        }
        g[R * LABELS + UNPAIRED] = 1;
        // Forward: fwd[i] = law of how many units declared before unit i beat it (≥ v, S4).
        fwd.fill(0, 0, width);
        fwd[0] = 1;
        for (let i = 0; i + 1 < n; i++) foldBeat(fwd, i * width, (i + 1) * width, width, ges[i][v]);
        // Backward: back[a] = label law given `a` beats so far, once the later units (> v) are folded in.
        back.set(g);
        for (let i = n - 1; i >= 0; i--) {
            const w = own[i][v];
            if (w > 0) accumulate(out[i], fwd, i * width, back, width, w);
            if (i > 0) foldLater(back, width, ges[i][v + 1]);
        }
    }
    return out;
}

/** fwd[to..] = fwd[from..] with one more trial of success p, lumped at the last cell. */
function foldBeat(fwd: Float64Array, from: number, to: number, width: number, p: number): void {
    const q = 1 - p;
    fwd[to] = fwd[from] * q;
    for (let c = 1; c < width - 1; c++) fwd[to + c] = fwd[from + c] * q + fwd[from + c - 1] * p;
    if (width > 1) fwd[to + width - 1] = fwd[from + width - 1] + fwd[from + width - 2] * p;
}

/** back(a) ← (1−p)·back(a) + p·back(a+1): one more unit that may beat (p), in place. */
function foldLater(back: Float64Array, width: number, p: number): void {
    if (p === 0) return;
    const q = 1 - p;
    for (let a = 0; a < width - 1; a++) {
        for (let l = 0; l < LABELS; l++) back[a * LABELS + l] = back[a * LABELS + l] * q + back[(a + 1) * LABELS + l] * p;
    }
}

function accumulate(out: Float64Array, fwd: Float64Array, at: number, back: Float64Array, width: number, w: number): void {
    for (let a = 0; a < width; a++) {
        const f = fwd[at + a] * w;
        if (f === 0) continue;
        for (let l = 0; l < LABELS; l++) out[l] += f * back[a * LABELS + l];
    }
}

function record(values: ArrayLike<number>): ScrudLabelOdds {
    return Object.fromEntries(SCRUD_RESULTS.map((l, i) => [l, values[i]])) as ScrudLabelOdds;
}

/** Exact per-unit and per-side odds of a SCRUD engagement. */
export function scrudOdds(input: ScrudInput, tables: ScrudTables = SCRUD_SEED_TABLES): ScrudOdds {
    const routFrom = routsFrom(tables);
    const byId = new Map<string, Float64Array>();
    let attNoRout: number | null = 1, defNoRout: number | null = 1;
    for (const arm of armsOf(input)) {
        const inArm = (u: ScrudUnit) => input.pooled || u.arm === arm;
        const att = input.attacker.units.filter(inArm), def = input.defender.units.filter(inArm);
        const grid = valueGrid([...att, ...def], tables);
        const attD = att.map(u => adjustedDistribution(u, grid, tables)), defD = def.map(u => adjustedDistribution(u, grid, tables));
        lineOdds(attD, defD, grid, tables).forEach((p, i) => byId.set(att[i].id, p));
        lineOdds(defD, attD, grid, tables).forEach((p, i) => byId.set(def[i].id, p));
        // Arms are thrown independently, so "no rout anywhere" multiplies across arms. A house table
        // whose routs are not "this difference or more" has no exact method here: unknown (null).
        const noRout = (own: Float64Array[], other: Float64Array[]) =>
            routFrom === 'none' ? 1 : routFrom === undefined || routFrom < 1 ? null : noRoutChance(own, other, grid, routFrom);
        const a = noRout(attD, defD), d = noRout(defD, attD);
        attNoRout = attNoRout === null || a === null ? null : attNoRout * a;
        defNoRout = defNoRout === null || d === null ? null : defNoRout * d;
    }
    const unitsOf = (side: SideRole, units: readonly ScrudUnit[]) => units.map((u): ScrudUnitOdds => ({
        id: u.id, force: u.force, unit: u.unit, side, arm: u.arm, probabilities: record(byId.get(u.id)!)
    }));
    const units = [...unitsOf('attacker', input.attacker.units), ...unitsOf('defender', input.defender.units)];
    const side = (role: SideRole, force: string, noRout: number | null): ScrudSideOdds => {
        const sum = new Float64Array(LABELS);
        for (const u of units) if (u.side === role) SCRUD_RESULTS.forEach((l, i) => { sum[i] += u.probabilities[l]; });
        return { force, side: role, expected: record(sum), atLeastOneRout: noRout === null ? null : 1 - noRout };
    };
    return { units, sides: [side('attacker', input.attacker.force, attNoRout), side('defender', input.defender.force, defNoRout)] };
}
