/**
 * "Did you mean": close spellings of a word among the words known, for quick fixes and messages.
 */

/**
 * Close spellings (at most two letters off, case ignored), closest first, at most three. A name is
 * compared letter by letter only with candidates of about its length, and the comparison stops as
 * soon as it is too far off: a file's forces can number thousands.
 */
export function closeSpellings(name: string | undefined, candidates: Iterable<string>): string[] {
    // A half-typed line may not have the name yet.
    if (!name) return [];
    const word = name.toLowerCase();
    const limit = Math.min(2, Math.floor(name.length / 2));
    const close: Array<{ n: string, d: number }> = [];
    for (const n of candidates) {
        if (!n) continue;
        const other = n.toLowerCase();
        if (Math.abs(other.length - word.length) > limit) continue;
        const d = editDistance(word, other, limit);
        if (d <= limit) close.push({ n, d });
    }
    // A stable sort: of equally close names, the first given comes first.
    return close.sort((a, b) => a.d - b.d).slice(0, 3).map(({ n }) => n);
}

/**
 * The optimal string alignment distance of `a` and `b` (Damerau's: a swap of two neighbouring letters,
 * `Rwa` for `Raw`, is one edit), or any number above `limit` once it is sure to be above it.
 */
function editDistance(a: string, b: string, limit: number): number {
    let before: number[] = [];
    let row = Array.from({ length: b.length + 1 }, (_, j) => j);
    for (let i = 1; i <= a.length; i++) {
        const next = [i];
        let best = i;
        for (let j = 1; j <= b.length; j++) {
            next[j] = Math.min(row[j] + 1, next[j - 1] + 1, row[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
            if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) next[j] = Math.min(next[j], before[j - 2] + 1);
            if (next[j] < best) best = next[j];
        }
        // Every row after the next is at least the smallest of this one (a swap reaches one row back).
        if (best > limit && Math.min(...row) > limit) return limit + 1;
        before = row;
        row = next;
    }
    return row[b.length];
}

/** "did you mean 'uphill'?" when a known word is close, else the whole list as `otherwise` says it. */
export function didYouMean(word: string, known: readonly string[], otherwise: string): string {
    const close = closeSpellings(word, known);
    return close.length > 0 ? `did you mean ${close.map(k => `'${k}'`).join(' or ')}?` : otherwise;
}

/** The possessive of a name as an umpire writes it: "Hoplites' rear", "Guard's flank". */
export function possessive(name: string): string {
    return /s$/i.test(name) ? `${name}'` : `${name}'s`;
}
