/**
 * Every way the dice an action asks for can fall, each with its chance: a depth-first walk over the
 * requests a resolver makes of its dice source. The resolver is run once per leaf with a source that
 * answers from a fixed prefix of faces; when it asks for a die beyond the prefix, the walk branches on
 * that die's distinct faces (the average die has four). Conditional dice (saves for the hits thrown,
 * re-rolls of fives) are followed as the resolver asks for them, so nothing is counted that is not thrown.
 */
import type { DiceRequest, DiceSource } from './dice-source.js';
import { faceDistribution, type Die } from './dice.js';
import { coreKept } from './kept.js';

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

/** The most inputs `byInput` keeps for one action: past that, it works each new one out without keeping it. */
const MEMO_LIMIT = 1024;

const memos = coreKept.table<object, Map<string, unknown>>({
    name: 'campaign laws', keeps: 'an action\'s law (or odds) per engine input, at most 1,024 inputs an action',
    keyedBy: 'an action\'s node (or model), then everything the engine reads',
    againWhen: 'the node is new, or the engine reads another input'
});

/**
 * `work()` once for each input of an action's engine: a campaign reaches one action from many starts
 * (every way the fights before it fell), and most of them read the same units into the engine — a
 * state the engine does not read (a token it ignores, a unit that is not in this fight) makes another
 * start but the same input. `key` must hold everything `work` reads (the engine's input, its tables,
 * the budget, the unit ids its lines name), so equal keys give equal results. Kept per `owner` (the
 * action's node, which lives as long as its document), at most MEMO_LIMIT inputs each. The result is
 * shared: callers must not change it.
 */
export function byInput<T>(owner: object, key: string, work: () => T): T {
    let memo = memos.get(owner);
    if (!memo) memos.set(owner, memo = new Map());
    if (memo.has(key)) return memo.get(key) as T;
    const value = work();
    if (memo.size < MEMO_LIMIT) memo.set(key, value);
    return value;
}

/**
 * A key for `byInput` from plain data (an engine's input, its tables): JSON, with what JSON would blur
 * told apart — numbers that are not finite, and maps and sets by their entries.
 */
export function inputKey(...parts: unknown[]): string {
    return JSON.stringify(parts, (_, v: unknown) => (typeof v === 'number' && !Number.isFinite(v) ? `#${v}`
        : v instanceof Map ? { '#map': [...v] } : v instanceof Set ? { '#set': [...v] } : v));
}
