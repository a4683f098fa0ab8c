/**
 * The limits that keep the server and the CLI responsive whatever a file says. Each one, when hit,
 * is reported as a diagnostic with its own code (docs/limits.md lists them with their reasons).
 */
export const Limits = {
    /** Characters in one file: about 150,000 lines of scenario. Larger files are not parsed at all. */
    maxFileChars: 5_000_000,
    /** `{` opened and not yet closed at once; the grammar nests three deep, so more is certainly broken. */
    maxBraceDepth: 64,
} as const;
