/**
 * Every diagnostic the tool can report, with its stable code. The codes are part of the public
 * surface (CLI output, the editor's Problems, quick fixes): never rename one, only add.
 * Each rule set adds its own codes in its folder (`Ruleset.codes`). docs/diagnostics.md is the
 * umpire's list; a test checks both agree.
 */
export const Codes = {
    // The file itself
    syntaxError: 'syntax-error',
    unknownReference: 'unknown-reference',
    tooManyProblems: 'too-many-problems',
    fileLimit: 'file-limit',
    // Size limits (docs/limits.md, validation/limits.ts)
    unitsLimit: 'units-limit',
    actionTooLarge: 'action-too-large',
    diceLineTooLong: 'dice-line-too-long',
    rulesNotSupported: 'rules-not-supported',
    rulesDefault: 'rules-default',
    // Sealed dice (docs/campaigns.md#sealed-dice, validation/seal-checks.ts)
    sealMalformed: 'seal-malformed',
    // Imports (docs/campaigns.md#campaigns-across-files, validation/imports.ts)
    importMissing: 'import-missing',
    importUnreadable: 'import-unreadable',
    importCycle: 'import-cycle',
    importNameClash: 'import-name-clash',
    importRulesDiffer: 'import-rules-differ',
    // Declarations
    duplicateName: 'duplicate-name',
    gradeValueRange: 'grade-value-range',
    modifierValueRange: 'modifier-value-range',
    emptyForce: 'empty-force',
    countZero: 'count-zero',
    countTooLarge: 'count-too-large',
    unknownDie: 'unknown-die',
    unknownOption: 'unknown-option',
    gradeAsArm: 'grade-as-arm',
    // References in actions
    unitIndexRange: 'unit-index-range',
    // Engagements
    missingSides: 'missing-sides',
    sameForceBothSides: 'same-force-both-sides',
    unitOnBothSides: 'unit-on-both-sides',
    sideMixesForces: 'side-mixes-forces',
    actionNotInRules: 'action-not-in-rules',
    statementNotUsed: 'statement-not-used',
    fractionNotAllowed: 'fraction-not-allowed',
    factsExclusive: 'facts-exclusive',
    factorNotInEngagement: 'factor-not-in-engagement',
    factorRepeated: 'factor-repeated',
    diceCount: 'dice-count',
    dieFace: 'die-face',
    diceNotInEngagement: 'dice-not-in-engagement',
    diceLabel: 'dice-label',
    seedRange: 'seed-range',
    seedWithDice: 'seed-with-dice',
    seedNotUsed: 'seed-not-used',
    // Written outcomes
    outcomeStale: 'outcome-stale',
    outcomeUnresolvable: 'outcome-unresolvable',
    outcomeAltered: 'outcome-altered',
    // Campaigns (validation/campaign.ts)
    unitOutOfAction: 'unit-out-of-action',
    unitNotArrived: 'unit-not-arrived',
    forceDeclaredLater: 'force-declared-later',
    outcomeOutOfOrder: 'outcome-out-of-order',
    stateUnknownKey: 'state-unknown-key',
    stateValue: 'state-value',
    rulingWithoutReason: 'ruling-without-reason',
    // Each unit in one place (docs/campaigns.md#one-fight-a-turn, validation/one-fight.ts)
    unitNamedTwice: 'unit-named-twice',
    unitFightsTwice: 'unit-fights-twice',
    // House rules (docs/house-rules.md, validation/house-checks.ts)
    houseUnknownTable: 'house-unknown-table',
    houseKey: 'house-key',
    houseBand: 'house-band',
    houseValue: 'house-value',
    houseRepeatedKey: 'house-repeated-key',
    houseBandOverlap: 'house-band-overlap',
    houseBandGap: 'house-band-gap'
} as const;

