/**
 * Counting successes among independent, unequal trials (the Poisson-binomial distribution), by
 * dynamic programming: each trial is folded in once, so n trials cost O(n · cap), never 2^n.
 */

/**
 * Folds one more trial with success probability `p` into `dist` (in place). `dist[c]` is the
 * chance of exactly c successes; the last cell holds "cap or more", so counts past it are lumped.
 */
function addTrial(dist: Float64Array, p: number): void {
    const cap = dist.length - 1;
    if (p === 0 || cap === 0) return;
    const q = 1 - p;
    dist[cap] += dist[cap - 1] * p;
    for (let c = cap - 1; c >= 1; c--) dist[c] = dist[c] * q + dist[c - 1] * p;
    dist[0] *= q;
}

/** The number of successes among trials with probabilities `ps`, lumped at `cap` ("cap or more"). */
export function countDistribution(ps: ArrayLike<number>, cap: number): Float64Array {
    const dist = new Float64Array(cap + 1);
    dist[0] = 1;
    if (cap === 0) return dist;
    for (let i = 0; i < ps.length; i++) addTrial(dist, ps[i]);
    return dist;
}

/** tail[r] = P(count ≥ r) for r = 0..cap, from a distribution lumped at cap. */
export function tailOf(dist: Float64Array): Float64Array {
    const tail = new Float64Array(dist.length + 1);
    for (let r = dist.length - 1; r >= 0; r--) tail[r] = tail[r + 1] + dist[r];
    return tail;
}

/**
 * The mean and standard deviation of a count from its law (`law[k]` = P(count = k)), the figures the
 * odds print as "mean ± sd". The variance is Σ p (k − mean)², not E[k²] − mean², which would lose
 * every digit to cancellation on a count that hardly varies.
 */
export function meanAndSd(law: ArrayLike<number>): { mean: number, sd: number } {
    let mean = 0, variance = 0;
    for (let k = 0; k < law.length; k++) mean += k * law[k];
    for (let k = 0; k < law.length; k++) variance += law[k] * (k - mean) ** 2;
    return { mean, sd: Math.sqrt(variance) };
}

/** The standard deviation of a sum of independent counts, from each one's. */
export function sdOfSum(sds: readonly number[]): number {
    return Math.sqrt(sds.reduce((s, d) => s + d * d, 0));
}

/** The standard deviation of a count of independent events, each of chance p: √Σ p(1 − p). */
export function sdOfCount(ps: readonly number[]): number {
    return Math.sqrt(ps.reduce((s, p) => s + Math.max(0, p * (1 - p)), 0));
}
