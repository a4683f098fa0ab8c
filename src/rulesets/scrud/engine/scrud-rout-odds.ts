/**
 * P(no unit of a side routs) in one arm of a SCRUD engagement, exactly.
 *
 * A rout (S6) is a pair whose own die is at least R below the opponent's (R = 4 in the seed; a house
 * table may move it). With both lines sorted, "no pair routs" for the first k = min(n, m) ranks is the
 * same as: for every value t,
 *   min(#own ≥ t − R + 1, k) ≥ min(#other ≥ t, k)
 * (take t = the other side's r-th die to see it). Only the values t where the other side can reach
 * t and one of our dice can fall below t − R + 1 can fail (two of them on a d6: t = 5 and 6). The counts
 * of dice reaching those thresholds are nested, so each side's joint count law is a DP over its
 * units on monotone count vectors, and the event is the sum over the other side's vectors of our
 * joint survival function. Cost O((n + m) · C(k + T, T)) for T thresholds: O(n³/6) on d6 (T ≤ 2).
 */

/** Beyond this many count vectors (or this much work) the chance is reported as unknown (null). */
const MAX_STATES = 2_000_000;
const MAX_WORK = 2e9;

export function noRoutChance(own: readonly Float64Array[], other: readonly Float64Array[], grid: readonly number[], routFrom = 4): number | null {
    const n = own.length, m = other.length;
    if (n === 0 || m === 0) return 1;
    const k = Math.min(n, m);
    const canFall = (t: number) => own.some(d => grid.some((v, x) => v <= t - routFrom && d[x] > 0));
    const canReach = (t: number) => other.some(d => grid.some((v, x) => v >= t && d[x] > 0));
    const thresholds = grid.filter(t => canFall(t) && canReach(t));
    const T = thresholds.length;
    if (T === 0) return 1;
    if (T <= 2) {
        if ((n ** 3 + m ** 3) / 6 > MAX_WORK) return null;
        const ownLaw = nestedCounts(own.map(d => categories(d, grid, thresholds.map(t => t - routFrom + 1))), T);
        const otherLaw = nestedCounts(other.map(d => categories(d, grid, thresholds)), T);
        return clamp01(expectedSurvival(ownLaw, n, otherLaw, m, k, T));
    }
    const space = countSpace(k, T);
    if (space === null || space.states.length / T * (n + m) > MAX_WORK) return null;
    const ownLaw = jointCounts(own.map(d => categories(d, grid, thresholds.map(t => t - routFrom + 1))), space);
    const otherLaw = jointCounts(other.map(d => categories(d, grid, thresholds)), space);
    const survival = survivalOf(ownLaw, space);
    let total = 0;
    for (let s = 0; s < space.index.length; s++) total += otherLaw[space.index[s]] * survival[space.index[s]];
    return clamp01(total);
}

const clamp01 = (p: number) => Math.min(1, Math.max(0, p));

/** π[c] = P(the die reaches exactly the c lowest of the ascending `levels`). */
function categories(dist: Float64Array, grid: readonly number[], levels: readonly number[]): Float64Array {
    const atLeast = levels.map(u => grid.reduce((s, v, x) => (v >= u ? s + dist[x] : s), 0));
    const pi = new Float64Array(levels.length + 1);
    pi[0] = 1 - atLeast[0];
    for (let c = 1; c <= levels.length; c++) pi[c] = atLeast[c - 1] - (c < levels.length ? atLeast[c] : 0);
    return pi;
}

interface CountSpace {
    readonly k: number;
    readonly T: number;
    /** Strides of the (k+1)^T box, dimension j (the j-th lowest level) first. */
    readonly stride: readonly number[];
    /** Monotone vectors x1 ≥ x2 ≥ … ≥ xT (each ≤ k), flattened, sorted by x1. */
    readonly states: Int32Array;
    /** Box index of each monotone vector. */
    readonly index: Int32Array;
    /** firstAbove[c] = how many vectors have x1 ≤ c. */
    readonly upTo: Int32Array;
    readonly box: number;
}

function countSpace(k: number, T: number): CountSpace | null {
    const box = (k + 1) ** T;
    let count = 1;
    for (let j = 1; j <= T; j++) count = count * (k + j) / j; // C(k + T, T)
    if (box > 4 * MAX_STATES || count > MAX_STATES) return null;
    const stride = Array.from({ length: T }, (_, j) => (k + 1) ** j);
    const states = new Int32Array(Math.round(count) * T);
    const index = new Int32Array(Math.round(count));
    const upTo = new Int32Array(k + 1);
    let s = 0;
    const vec = new Array<number>(T).fill(0);
    const fill = (j: number, max: number) => {
        if (j === T) {
            let idx = 0;
            for (let d = 0; d < T; d++) { states[s * T + d] = vec[d]; idx += vec[d] * stride[d]; }
            index[s++] = idx;
            return;
        }
        for (let x = 0; x <= max; x++) { vec[j] = x; fill(j + 1, x); }
    };
    for (let x1 = 0; x1 <= k; x1++) { vec[0] = x1; fill(1, x1); upTo[x1] = s; }
    return { k, T, stride, states, index, upTo, box };
}

/** The joint law of the nested counts, unit by unit; counts are capped at k (more cannot matter). */
function jointCounts(units: readonly Float64Array[], space: CountSpace): Float64Array {
    const { k, T, stride, states, index, upTo } = space;
    let cur = new Float64Array(space.box), next = new Float64Array(space.box);
    cur[0] = 1;
    for (let i = 0; i < units.length; i++) {
        const pi = units[i];
        const reach = upTo[Math.min(i, k)], after = upTo[Math.min(i + 1, k)];
        for (let s = 0; s < after; s++) next[index[s]] = 0;
        for (let s = 0; s < reach; s++) {
            const w = cur[index[s]];
            if (w === 0) continue;
            let target = index[s];
            next[target] += w * pi[0];
            for (let c = 1; c <= T; c++) {
                if (states[s * T + c - 1] < k) target += stride[c - 1];
                next[target] += w * pi[c];
            }
        }
        const swap = cur;
        cur = next;
        next = swap;
    }
    return cur;
}

/** survival[x] = P(counts ≥ x in every dimension), by suffix sums along each dimension of the box. */
function survivalOf(law: Float64Array, space: CountSpace): Float64Array {
    const { k, T, stride, box } = space;
    const sv = Float64Array.from(law);
    for (let j = 0; j < T; j++) {
        for (let idx = box - 1; idx >= 0; idx--) {
            const xj = Math.floor(idx / stride[j]) % (k + 1);
            if (xj < k) sv[idx] += sv[idx + stride[j]];
        }
    }
    return sv;
}

/**
 * Cells below this are dropped from the edges of the joint law as it grows (their mass is counted);
 * if everything dropped ever reaches DROP_BUDGET the law is computed again without dropping, so the
 * answer is always within 1e-13 of the exact one. Laws of many dice are narrow bells, so this turns
 * O(n³) into about O(n² · width).
 */
const NEGLIGIBLE = 1e-22;
const DROP_BUDGET = 5e-14;

/**
 * The joint law of one or two nested counts (T ≤ 2, every d6 engagement), in place and uncapped:
 * law[x1·(n+1) + x2] = P(x1 dice reach the lower level and x2 of them the higher). Row by row from
 * the top, each unit costs at most O(i²/2) for the i units already folded.
 */
function nestedCounts(units: readonly Float64Array[], T: number): Float64Array {
    const pruned = nestedCountsWithin(units, T, NEGLIGIBLE);
    return pruned.dropped < DROP_BUDGET ? pruned.law : nestedCountsWithin(units, T, 0).law;
}

export function nestedCountsWithin(units: readonly Float64Array[], T: number, eps: number): { law: Float64Array, dropped: number } {
    const n = units.length, W = n + 1, rows = T === 1 ? 1 : W;
    const law = new Float64Array(rows * W);
    // Active cells: rows lo1..hi1, and in row x1 the columns rlo[x1]..rhi[x1]; all else is 0.
    const rlo = new Int32Array(W + 1).fill(1), rhi = new Int32Array(W + 1).fill(0);
    let lo1 = 0, hi1 = 0, dropped = 0;
    law[0] = 1;
    rlo[0] = 0;
    rhi[0] = 0;
    const trim = (row: number, x1: number) => {
        while (rlo[x1] <= rhi[x1] && law[row + rlo[x1]] < eps) { dropped += law[row + rlo[x1]]; law[row + rlo[x1]] = 0; rlo[x1]++; }
        while (rhi[x1] >= rlo[x1] && law[row + rhi[x1]] < eps) { dropped += law[row + rhi[x1]]; law[row + rhi[x1]] = 0; rhi[x1]--; }
    };
    for (let i = 0; i < n; i++) {
        const [p0, p1, p2] = units[i];
        if (T === 1) {
            // One count: row 0 holds it, x in rlo[0]..rhi[0].
            const top = Math.min(rhi[0] + 1, n);
            for (let x = top; x >= rlo[0]; x--) law[x] = law[x] * p0 + (x > 0 ? law[x - 1] * p1 : 0);
            rhi[0] = top;
            trim(0, 0);
            continue;
        }
        const top = Math.min(hi1 + 1, n);
        for (let x1 = top; x1 >= lo1; x1--) {
            const row = x1 * W, prev = row - W;
            const hasOwn = x1 <= hi1 && rlo[x1] <= rhi[x1];
            const hasPrev = x1 - 1 >= lo1 && x1 - 1 <= hi1 && rlo[x1 - 1] <= rhi[x1 - 1];
            if (!hasOwn && !hasPrev) { rlo[x1] = 1; rhi[x1] = 0; continue; }
            const from = Math.min(hasOwn ? rlo[x1] : W, hasPrev ? rlo[x1 - 1] : W);
            const to = Math.max(hasOwn ? rhi[x1] : -1, hasPrev ? rhi[x1 - 1] + 1 : -1);
            for (let x2 = to; x2 >= from; x2--) {
                let v = law[row + x2] * p0;
                if (x1 > 0) v += law[prev + x2] * p1 + (x2 > 0 ? law[prev + x2 - 1] * p2 : 0);
                law[row + x2] = v;
            }
            rlo[x1] = from;
            rhi[x1] = to;
            trim(row, x1);
        }
        hi1 = top;
        while (hi1 > lo1 && rlo[hi1] > rhi[hi1]) hi1--;
        while (lo1 < hi1 && rlo[lo1] > rhi[lo1]) lo1++;
    }
    return { law, dropped };
}

/** Σ over the other side's counts y of P(y) · P(own counts ≥ min(y, k) in every level). */
function expectedSurvival(own: Float64Array, n: number, other: Float64Array, m: number, k: number, T: number): number {
    const W = n + 1, V = m + 1;
    const sv = Float64Array.from(own);
    if (T === 1) {
        for (let x = n - 1; x >= 0; x--) sv[x] += sv[x + 1];
        let total = 0;
        for (let y = 0; y <= m; y++) total += other[y] * sv[Math.min(y, k)];
        return total;
    }
    for (let x1 = n; x1 >= 0; x1--) for (let x2 = n - 1; x2 >= 0; x2--) sv[x1 * W + x2] += sv[x1 * W + x2 + 1];
    for (let x1 = n - 1; x1 >= 0; x1--) for (let x2 = 0; x2 <= n; x2++) sv[x1 * W + x2] += sv[(x1 + 1) * W + x2];
    let total = 0;
    for (let y1 = 0; y1 <= m; y1++) {
        for (let y2 = 0; y2 <= y1; y2++) {
            const p = other[y1 * V + y2];
            if (p !== 0) total += p * sv[Math.min(y1, k) * W + Math.min(y2, k)];
        }
    }
    return total;
}
