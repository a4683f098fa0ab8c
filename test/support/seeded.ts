/**
 * Random numbers for tests that edit texts at random (races, kept answers): seeded, so that a failing
 * sequence can be repeated with its seed, from the generator the dice use (pure-rand's xoroshiro128+).
 */
import { xoroshiro128plus } from 'pure-rand/generator/xoroshiro128plus';
import { uniformFloat64 } from 'pure-rand/distribution/uniformFloat64';

/** A function giving numbers in [0, 1), the same sequence for the same seed. */
export function seeded(seed: number): () => number {
    const rng = xoroshiro128plus(seed);
    return () => uniformFloat64(rng);
}
