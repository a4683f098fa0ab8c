/**
 * The seed's "For the Math Geeks" table (docs/rules/ancients.md, A4, A5): the expected number of
 * unsaved hits from a pool of d6, by the score needed to hit (rows 6+ … 2+) and the target's save
 * (columns none, 6+ … 2+).
 *
 * Computed exactly, in whole numbers: each die is an unsaved hit on (7 − toHit) · (save − 1) of the
 * 36 equally likely (hit die, save die) pairs (all 36 · (7 − toHit) … with no save), so the number of
 * unsaved hits from n dice is binomial, and its distribution is held as BigInt numerators over 36^n.
 * The mean is taken from that distribution (Σ k · P(k)) and reduced, then printed the way the seed's
 * spreadsheet printed it (see `formatLikeSeed`).
 */
import { ANCIENTS_SEED_TABLES, poolSizes } from './ancients-tables.js';

/** A fraction in lowest terms (den > 0). BigInt so that 36^n never loses a digit. */
export interface Rational {
    readonly num: bigint;
    readonly den: bigint;
}

/** The table's rows: the score needed to hit, as the seed lists them. */
export const TO_HIT_ROWS: readonly number[] = [6, 5, 4, 3, 2];
/** The table's columns: no save (null), then the save needed. */
export const SAVE_COLUMNS: ReadonlyArray<number | null> = [null, 6, 5, 4, 3, 2];
/** The dice counts the seed prints: A1's pools, with and without the first-turn bonus (14, 12, 10, 8, 6). */
export const SEED_DICE: readonly number[] = poolSizes(ANCIENTS_SEED_TABLES);
/** The largest pool the table command accepts: 36^n stays a manageable BigInt. */
export const MAX_TABLE_DICE = 200;

function gcd(a: bigint, b: bigint): bigint {
    let x = a < 0n ? -a : a, y = b < 0n ? -b : b;
    while (y !== 0n) [x, y] = [y, x % y];
    return x;
}

export function rational(num: bigint, den: bigint): Rational {
    const g = gcd(num, den) || 1n;
    return { num: num / g, den: den / g };
}

/** Of the 36 (hit die, save die) pairs, how many make an unsaved hit. */
function unsavedPairs(toHit: number, save: number | null): number {
    const hitFaces = 7 - toHit;
    const failFaces = save === null ? 6 : save - 1;
    return hitFaces * failFaces;
}

function binomial(n: number, k: number): bigint {
    let c = 1n;
    for (let i = 0; i < k; i++) c = (c * BigInt(n - i)) / BigInt(i + 1);
    return c;
}

/**
 * The distribution of unsaved hits from `dice` d6: `weights[k]` out of `total` (= 36^dice) is the
 * chance of exactly k.
 */
export function unsavedHitsDistribution(dice: number, toHit: number, save: number | null): { weights: bigint[], total: bigint } {
    const a = BigInt(unsavedPairs(toHit, save));
    const b = 36n - a;
    const weights = Array.from({ length: dice + 1 }, (_, k) => binomial(dice, k) * a ** BigInt(k) * b ** BigInt(dice - k));
    return { weights, total: 36n ** BigInt(dice) };
}

/** The exact expected number of unsaved hits: the mean of the distribution above. */
export function expectedHits(dice: number, toHit: number, save: number | null): Rational {
    const { weights, total } = unsavedHitsDistribution(dice, toHit, save);
    const sum = weights.reduce((acc, w, k) => acc + BigInt(k) * w, 0n);
    return rational(sum, total);
}

/** `p/q` rounded half up to `places` decimals, as a decimal string with all its places. */
function toFixedExact(r: Rational, places: number): string {
    const scale = 10n ** BigInt(places);
    const scaled = (r.num * scale * 2n + r.den) / (2n * r.den);
    const int = scaled / scale, frac = scaled % scale;
    return places === 0 ? `${int}` : `${int}.${frac.toString().padStart(places, '0')}`;
}

/**
 * As the seed's spreadsheet shows a number in an 8-character cell ("General" format): whole numbers
 * as they are (7); others rounded to as many decimals as fit in 8 characters (2.333333, 11.66667,
 * 0.388889), trailing zeros dropped (3.5). Non-negative values only, as in the table.
 */
export function formatLikeSeed(r: Rational): string {
    if (r.num % r.den === 0n) return `${r.num / r.den}`;
    const intDigits = `${r.num / r.den}`.length;
    const places = Math.max(0, 8 - intDigits - 1);
    let text = toFixedExact(r, places);
    if (text.includes('.')) text = text.replace(/0+$/, '').replace(/\.$/, '');
    return text;
}

interface TableCell {
    readonly save: number | null;
    readonly value: Rational;
    readonly text: string;
}

export interface ExpectedHitsTable {
    readonly dice: number;
    readonly rows: ReadonlyArray<{ readonly toHit: number, readonly cells: readonly TableCell[] }>;
}

/** One block of the seed's table, for a pool of `dice`. */
export function expectedHitsTable(dice: number): ExpectedHitsTable {
    return {
        dice,
        rows: TO_HIT_ROWS.map(toHit => ({
            toHit,
            cells: SAVE_COLUMNS.map(save => {
                const value = expectedHits(dice, toHit, save);
                return { save, value, text: formatLikeSeed(value) };
            })
        }))
    };
}

/** The block as the seed prints it: `14 - 6+ 5+ 4+ 3+ 2+`, then one line per to-hit score. */
export function tableLines(table: ExpectedHitsTable): string[] {
    const head = [`${table.dice}`, ...SAVE_COLUMNS.map(s => (s === null ? '-' : `${s}+`))].join(' ');
    return [head, ...table.rows.map(r => [`${r.toHit}+`, ...r.cells.map(c => c.text)].join(' '))];
}
