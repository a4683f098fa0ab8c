/**
 * Signed numbers as umpires write them: `+2`, `−1`, `±0`. One function, used by every report,
 * hover and message, so that the CLI, the editor and the written record agree.
 */
export function signedTypeset(n: number): string {
    return n > 0 ? `+${n}` : n < 0 ? `−${-n}` : '±0';
}

/** The same with an ASCII minus, for text an umpire may type back into a file (`mod -1`). */
export function signed(n: number): string {
    return n > 0 ? `+${n}` : n < 0 ? `${n}` : '±0';
}

/** A value as written in a `.battle` file (`grade Raw -1`, `grade Line 0`). */
export function signedValue(n: number): string {
    return n > 0 ? `+${n}` : `${n}`;
}
