/**
 * The Ancients rule set's diagnostic codes (docs/rules/ancients.md, A1–A9): stable, like every code (src/core/codes.ts).
 */
export const AncientsCodes = {
    statMissing: 'ancients-stat-missing',
    statValue: 'ancients-stat-value',
    statUnknown: 'ancients-stat-unknown',
    leadershipRange: 'ancients-leadership-range',
    tokensRange: 'ancients-tokens-range',
    breakDie: 'ancients-break-die',
    notOneUnit: 'ancients-not-one-unit',
    notInEngagement: 'ancients-not-in-engagement',
    ownSide: 'ancients-own-side',
    pairDuplicate: 'ancients-pair-duplicate',
    positionConflict: 'ancients-position-conflict',
    noOpponent: 'ancients-no-opponent',
    splitTotal: 'ancients-split-total',
    splitTarget: 'ancients-split-target',
    splitMissing: 'ancients-split-missing',
    splitDuplicate: 'ancients-split-duplicate',
    chargeNotFirstTurn: 'ancients-charge-not-first-turn',
    statRange: 'ancients-stat-range'
} as const;
