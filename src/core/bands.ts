/**
 * Bands of whole numbers, the keys of the rules' results tables ("a difference of 3 or 4: retreat",
 * "+4 or more: easy victory"). Pure: the engines read their tables through these (docs/house-rules.md).
 */

/** The whole numbers from `from` to `to`, both included; an open end is null (`5..`, `..-9`). */
export interface Band {
    readonly from: number | null;
    readonly to: number | null;
}

/** One row of a banded table. */
export interface BandRow<T> {
    readonly band: Band;
    readonly value: T;
}

export function inBand(band: Band, n: number): boolean {
    return (band.from === null || n >= band.from) && (band.to === null || n <= band.to);
}

/** The value of the first row whose band holds `n`, or undefined when none does. */
export function bandValue<T>(rows: readonly BandRow<T>[], n: number): T | undefined {
    for (const row of rows) if (inBand(row.band, n)) return row.value;
    return undefined;
}

/**
 * A band as an umpire writes it, one word with no spaces: `3..4`, `5..`, `..-9`, `-4..-2`, `+1..`.
 * A malformed one (`4...5`, `..`, `3..4..5`) or an empty one (`5..3`) gives the reason instead.
 */
export function parseBand(text: string): { band: Band } | { problem: string } {
    const m = /^([+-]?[0-9]+)?\.\.([+-]?[0-9]+)?$/.exec(text);
    if (!m) return { problem: `'${text}' is not a band: write two dots between the numbers, with no spaces: 3..4 (3 to 4), 5.. (5 or more), ..-9 (-9 or less).` };
    if (m[1] === undefined && m[2] === undefined) return { problem: `'${text}' is not a band: write a number on at least one side of the two dots: 5.. (5 or more), ..-9 (-9 or less).` };
    const from = m[1] === undefined ? null : Number(m[1]);
    const to = m[2] === undefined ? null : Number(m[2]);
    if (from !== null && to !== null && from > to) return { problem: `The band ${text} is empty: write the lower number first (${to}..${from}).` };
    return { band: { from, to } };
}

/** As an umpire writes it: `3`, `3..4`, `5..`, `..-9`. */
export function bandText(band: Band): string {
    if (band.from !== null && band.from === band.to) return String(band.from);
    return `${band.from ?? ''}..${band.to ?? ''}`;
}

/** Whether two bands share a number. */
function overlap(a: Band, b: Band): boolean {
    const lo = Math.max(a.from ?? -Infinity, b.from ?? -Infinity);
    const hi = Math.min(a.to ?? Infinity, b.to ?? Infinity);
    return lo <= hi;
}

/**
 * What is wrong with a set of bands meant to cover `covers` exactly once: pairs of rows that share
 * numbers, and the runs of numbers no row covers (bands outside `covers` are not this check's business).
 */
export function bandProblems(bands: readonly Band[], covers: Band): { overlaps: Array<[number, number]>, gaps: Band[] } {
    const overlaps: Array<[number, number]> = [];
    for (let i = 0; i < bands.length; i++) {
        for (let j = i + 1; j < bands.length; j++) if (overlap(bands[i], bands[j])) overlaps.push([i, j]);
    }
    const sorted = [...bands].sort((a, b) => (a.from ?? -Infinity) - (b.from ?? -Infinity));
    const gaps: Band[] = [];
    // `next` is the first number not yet covered, walking up from the bottom of `covers`.
    let next = covers.from ?? -Infinity;
    for (const b of sorted) {
        const from = b.from ?? -Infinity;
        if (from > next && (covers.to === null || next <= covers.to)) {
            gaps.push({ from: next === -Infinity ? null : next, to: Math.min(from - 1, covers.to ?? Infinity) });
        }
        next = Math.max(next, (b.to ?? Infinity) + 1);
    }
    if (next !== Infinity && (covers.to === null || next <= covers.to)) {
        gaps.push({ from: next === -Infinity ? null : next, to: covers.to });
    }
    return { overlaps, gaps };
}
