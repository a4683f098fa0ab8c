/**
 * Every diagnostic the tool can report, with its stable code. The codes are part of the public
 * surface (CLI output, the editor's Problems, quick fixes): never rename one, only add.
 * docs/diagnostics.md is the umpire's list; a test checks both agree.
 */
export const Codes = {
    // The file itself
    syntaxError: 'syntax-error',
    unknownReference: 'unknown-reference',
    tooManyProblems: 'too-many-problems',
    fileLimit: 'file-limit',
    // Size limits (issue 9, docs/limits.md, validation/limits.ts)
    unitsLimit: 'units-limit',
    actionTooLarge: 'action-too-large',
    diceLineTooLong: 'dice-line-too-long',
    rulesNotSupported: 'rules-not-supported',
    // Declarations
    duplicateName: 'duplicate-name',
    gradeValueRange: 'grade-value-range',
    modifierValueRange: 'modifier-value-range',
    emptyForce: 'empty-force',
    countZero: 'count-zero',
    countTooLarge: 'count-too-large',
    unknownDie: 'unknown-die',
    unknownOption: 'unknown-option',
    // References in actions
    unitIndexRange: 'unit-index-range',
    // Engagements
    missingSides: 'missing-sides',
    sameForceBothSides: 'same-force-both-sides',
    unitOnBothSides: 'unit-on-both-sides',
    sideMixesForces: 'side-mixes-forces',
    actionNotInRules: 'action-not-in-rules',
    statementNotUsed: 'statement-not-used',
    factorNotInEngagement: 'factor-not-in-engagement',
    diceCount: 'dice-count',
    dieFace: 'die-face',
    diceNotInEngagement: 'dice-not-in-engagement',
    diceLabel: 'dice-label',
    seedRange: 'seed-range',
    seedWithDice: 'seed-with-dice',
    // Loose Files & American Scramble (RULES.md L1–L9, validation/loose-files.ts)
    lfClassRange: 'lf-class-range',
    lfClassMissing: 'lf-class-missing',
    lfStatValue: 'lf-stat-value',
    lfUnknownStat: 'lf-unknown-stat',
    lfUnitType: 'lf-unit-type',
    lfUnknownFact: 'lf-unknown-fact',
    lfActionEmpty: 'lf-action-empty',
    lfMissingFact: 'lf-missing-fact',
    lfNotInAction: 'lf-not-in-action',
    lfRange: 'lf-range',
    lfMovedFire: 'lf-moved-fire',
    lfCannotFire: 'lf-cannot-fire',
    lfFireOwnSide: 'lf-fire-own-side',
    lfMoveDice: 'lf-move-dice',
    lfChargeDice: 'lf-charge-dice',
    lfNotOfficer: 'lf-not-officer',
    lfOfficerNotWith: 'lf-officer-not-with',
    lfNeedsCommander: 'lf-needs-commander',
    lfCpOverspent: 'lf-cp-overspent',
    lfMoraleNotFriend: 'lf-morale-not-friend',
    lfOrderOfPlay: 'lf-order-of-play',
    // Written outcomes
    outcomeStale: 'outcome-stale',
    outcomeUnresolvable: 'outcome-unresolvable',
    // Campaigns (issue 8, validation/campaign.ts)
    unitOutOfAction: 'unit-out-of-action',
    unitNotArrived: 'unit-not-arrived',
    forceDeclaredLater: 'force-declared-later',
    outcomeOutOfOrder: 'outcome-out-of-order',
    stateUnknownKey: 'state-unknown-key',
    stateValue: 'state-value',
    rulingWithoutReason: 'ruling-without-reason',
    // Ancients (RULES.md A1–A9, validation/ancients.ts)
    ancientsStatMissing: 'ancients-stat-missing',
    ancientsStatValue: 'ancients-stat-value',
    ancientsStatUnknown: 'ancients-stat-unknown',
    ancientsLeadershipRange: 'ancients-leadership-range',
    ancientsTokensRange: 'ancients-tokens-range',
    ancientsBreakDie: 'ancients-break-die',
    ancientsNotOneUnit: 'ancients-not-one-unit',
    ancientsNotInEngagement: 'ancients-not-in-engagement',
    ancientsOwnSide: 'ancients-own-side',
    ancientsPairDuplicate: 'ancients-pair-duplicate',
    ancientsPositionConflict: 'ancients-position-conflict',
    ancientsNoOpponent: 'ancients-no-opponent',
    ancientsSplitTotal: 'ancients-split-total',
    ancientsSplitTarget: 'ancients-split-target',
    ancientsSplitMissing: 'ancients-split-missing',
    ancientsSplitDuplicate: 'ancients-split-duplicate'
} as const;

export type Code = typeof Codes[keyof typeof Codes];
