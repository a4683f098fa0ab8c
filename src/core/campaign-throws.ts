/**
 * Every way the dice an action asks for can fall, each with its chance: a depth-first walk over the
 * requests a resolver makes of its dice source. The resolver is run once per leaf with a source that
 * answers from a fixed prefix of faces; when it asks for a die beyond the prefix, the walk branches on
 * that die's distinct faces (the average die has four). Conditional dice (saves for the hits thrown,
 * re-rolls of fives) are followed as the resolver asks for them, so nothing is counted that is not thrown.
 */
import type { DiceRequest, DiceSource } from './dice-source.js';
import { faceDistribution, type Die } from './dice.js';

/** A source that answers from `prefix` and notes the first die it had to make up. */
function prefixSource(prefix: readonly number[]): { source: DiceSource, next: () => Die | undefined } {
    let used = 0;
    let wanted: Die | undefined;
    const taken: Array<{ request: DiceRequest, values: number[] }> = [];
    const source: DiceSource = {
        taken,
        take(request) {
            const values: number[] = [];
            for (let i = 0; i < request.count; i++) {
                if (used < prefix.length) values.push(prefix[used++]);
                else {
                    wanted ??= request.die;
                    values.push(request.die.faces[0]);
                }
            }
            taken.push({ request, values });
            return values;
        }
    };
    return { source, next: () => wanted };
}

/**
 * `run` for every complete throw, with its chance; undefined when there are more than `budget`
 * throws (the walk stops there). `run` must be a pure function of the dice it is given.
 */
export function everyThrow<T>(run: (source: DiceSource) => T, budget: number): Array<{ p: number, value: T }> | undefined {
    const out: Array<{ p: number, value: T }> = [];
    const walk = (prefix: number[], p: number): boolean => {
        const { source, next } = prefixSource(prefix);
        const value = run(source);
        const die = next();
        if (die) {
            for (const { face, p: q } of faceDistribution(die)) if (!walk([...prefix, face], p * q)) return false;
            return true;
        }
        if (out.length >= budget) return false;
        out.push({ p, value });
        return true;
    };
    return walk([], 1) ? out : undefined;
}
