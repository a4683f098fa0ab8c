/**
 * The limits that keep the server and the CLI responsive whatever a file says. Each one,
 * when hit, is reported as a diagnostic with its own code; docs/limits.md lists them with their
 * reasons and the `umpire.limits.*` setting that changes each. A setting can move a limit only
 * within its hard bounds: no setting lets a file allocate without bound.
 */

export interface LimitValues {
    /** Characters in one file: about 150,000 lines of scenario. Larger files are not parsed at all. */
    maxFileChars: number;
    /** `{` opened and not yet closed at once; the grammar nests three deep, so more is certainly broken. */
    maxBraceDepth: number;
    /** Units one `xN` may make; the rest are not built (`count-too-large`). */
    maxCount: number;
    /** Units one force may hold, counts included; the rest are not built (`units-limit`). */
    maxUnitsPerForce: number;
    /** Units in the whole file, counts included; the rest are not built (`units-limit`). */
    maxUnitsPerFile: number;
    /** Units on one side of an action, i.e. dice thrown by a side; larger actions are not resolved (`action-too-large`). */
    maxUnitsPerSide: number;
    /** Values on one `dice` line (`dice-line-too-long`). */
    maxDicePerLine: number;
    /** Units on one side for which exact odds are computed; beyond it the odds say they would take too long. */
    maxOddsUnitsPerSide: number;
}

/** The defaults, and the bounds a setting may move each limit within. */
export const LIMIT_DEFAULTS: Readonly<LimitValues> = {
    maxFileChars: 5_000_000,
    maxBraceDepth: 64,
    maxCount: 1000,
    maxUnitsPerForce: 5000,
    maxUnitsPerFile: 100_000,
    maxUnitsPerSide: 1000,
    maxDicePerLine: 1000,
    maxOddsUnitsPerSide: 500
};

export const LIMIT_BOUNDS: Readonly<Record<keyof LimitValues, readonly [number, number]>> = {
    maxFileChars: [1000, 50_000_000],
    maxBraceDepth: [4, 200],
    maxCount: [1, 10_000],
    maxUnitsPerForce: [1, 50_000],
    maxUnitsPerFile: [1, 1_000_000],
    maxUnitsPerSide: [1, 10_000],
    maxDicePerLine: [1, 10_000],
    maxOddsUnitsPerSide: [1, 2000]
};

/** The setting names under `umpire.limits.` (package.json), by limit. */
export const LIMIT_SETTINGS: Readonly<Record<keyof LimitValues, string>> = {
    maxFileChars: 'fileCharacters',
    maxBraceDepth: 'braceDepth',
    maxCount: 'unitsPerCount',
    maxUnitsPerForce: 'unitsPerForce',
    maxUnitsPerFile: 'unitsPerFile',
    maxUnitsPerSide: 'unitsPerSide',
    maxDicePerLine: 'dicePerLine',
    maxOddsUnitsPerSide: 'oddsUnitsPerSide'
};

/**
 * The limits the `umpire.limits` settings object asks for (`{ unitsPerForce: 2000, … }`): a missing
 * or non-numeric value keeps the default, a value out of bounds is clamped. A new value each time:
 * limits are passed down with each parse (src/core/model-cache.ts), never changed in place.
 */
export function limitsFromSettings(settings: unknown): LimitValues {
    const given = settings && typeof settings === 'object' ? settings as Record<string, unknown> : {};
    const limits = { ...LIMIT_DEFAULTS };
    for (const key of Object.keys(LIMIT_DEFAULTS) as Array<keyof LimitValues>) {
        const value = given[LIMIT_SETTINGS[key]];
        const [low, high] = LIMIT_BOUNDS[key];
        if (typeof value === 'number' && Number.isFinite(value)) limits[key] = Math.min(high, Math.max(low, Math.floor(value)));
    }
    return Object.freeze(limits);
}

/** The setting that moves a limit, for messages: `umpire.limits.unitsPerForce`. */
export function settingName(key: keyof LimitValues): string {
    return `umpire.limits.${LIMIT_SETTINGS[key]}`;
}
