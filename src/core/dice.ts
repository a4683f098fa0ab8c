/**
 * Dice: which faces a die can show, and where thrown values come from (a seed, or the table).
 *
 * Seeded dice use pure-rand's xoroshiro128+ with its unbiased `uniformInt`, so the same seed gives
 * the same dice on every OS and Node version (a golden test pins the sequence).
 */
import { xoroshiro128plus } from 'pure-rand/generator/xoroshiro128plus';
import { uniformInt } from 'pure-rand/distribution/uniformInt';

export interface Die {
    /** `d6`, `average`, `d4`, … as written in a scenario. */
    readonly name: string;
    /** Every face, with repeats for the average die (2,3,3,4,4,5): each face is equally likely. */
    readonly faces: readonly number[];
    readonly min: number;
    readonly max: number;
}

function makeDie(name: string, faces: number[]): Die {
    return { name, faces, min: Math.min(...faces), max: Math.max(...faces) };
}

export const D6 = makeDie('d6', [1, 2, 3, 4, 5, 6]);
/** The average die of Loose Files & American Scramble. */
export const AVERAGE = makeDie('average', [2, 3, 3, 4, 4, 5]);

/** The largest dN a scenario may name. */
export const MAX_DIE_SIDES = 100;

/** The die a scenario names (`d6`, `d4`, `d10`, `average`), or undefined when there is no such die. */
export function dieNamed(name: string): Die | undefined {
    if (name === 'average') return AVERAGE;
    if (name === 'd6') return D6;
    const m = /^d([0-9]{1,3})$/.exec(name);
    if (!m) return undefined;
    const sides = Number(m[1]);
    if (sides < 2 || sides > MAX_DIE_SIDES) return undefined;
    return makeDie(name, Array.from({ length: sides }, (_, i) => i + 1));
}

/** Whether the die can show this face. */
export function canShow(die: Die, face: number): boolean {
    return die.faces.includes(face);
}

/** What an entered value the die cannot show is told: "An average die cannot show 6: its faces are 2, 3, 4, 5." */
export function cannotShowMessage(die: Die, face: number): string {
    return `${die.name === 'average' ? 'An average die' : `A ${die.name}`} cannot show ${face}: its faces are ${[...new Set(die.faces)].join(', ')}.`;
}

/** The distinct faces of a die with their probabilities (the average die has 4 faces, not 6). */
export function faceDistribution(die: Die): Array<{ face: number, p: number }> {
    const counts = new Map<number, number>();
    for (const f of die.faces) counts.set(f, (counts.get(f) ?? 0) + 1);
    return [...counts.entries()].sort((a, b) => a[0] - b[0]).map(([face, n]) => ({ face, p: n / die.faces.length }));
}

/** The largest seed: seeds are unsigned 32-bit integers, so they survive JSON and every platform. */
export const MAX_SEED = 0xffffffff;

/** A generator of thrown dice, reproducible from its seed. */
export class SeededDice {
    private readonly rng;
    constructor(readonly seed: number) {
        this.rng = xoroshiro128plus(seed | 0);
    }
    roll(die: Die): number {
        return die.faces[uniformInt(this.rng, 0, die.faces.length - 1)];
    }
    rollMany(die: Die, count: number): number[] {
        return Array.from({ length: count }, () => this.roll(die));
    }
}

/**
 * A fresh seed for an engagement that has neither entered dice nor a seed; it is always recorded, so
 * the dice stay reproducible from it. Drawn from Web Crypto (`globalThis.crypto`, in Node 20 and in
 * every browser) so that the same code runs in the language server's web worker. Like the earlier
 * `randomInt(0, MAX_SEED)`, a seed lies in [0, MAX_SEED - 1].
 */
export function newSeed(): number {
    const word = new Uint32Array(1);
    // Rejection keeps the draw uniform: the one 32-bit value that is out of range is drawn again.
    do globalThis.crypto.getRandomValues(word);
    while (word[0] >= MAX_SEED);
    return word[0];
}
