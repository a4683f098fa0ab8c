/**
 * "Did you mean": close spellings of a word among the words known, for quick fixes and messages.
 */

/** Close spellings (at most two letters off, case ignored), closest first, at most three. */
export function closeSpellings(name: string | undefined, candidates: readonly string[]): string[] {
    // A half-typed line may not have the name yet.
    if (!name) return [];
    return candidates
        .filter(Boolean)
        .map(n => ({ n, d: editDistance(name.toLowerCase(), n.toLowerCase()) }))
        .filter(({ d }) => d <= Math.min(2, Math.floor(name.length / 2)))
        .sort((a, b) => a.d - b.d)
        .slice(0, 3)
        .map(({ n }) => n);
}

function editDistance(a: string, b: string): number {
    let row = Array.from({ length: b.length + 1 }, (_, j) => j);
    for (let i = 1; i <= a.length; i++) {
        const next = [i];
        for (let j = 1; j <= b.length; j++) {
            next[j] = Math.min(row[j] + 1, next[j - 1] + 1, row[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
        }
        row = next;
    }
    return row[b.length];
}

/** The possessive of a name as an umpire writes it: "Hoplites' rear", "Guard's flank". */
export function possessive(name: string): string {
    return /s$/i.test(name) ? `${name}'` : `${name}'s`;
}
