/**
 * The Loose Files rule set's diagnostic codes (docs/rules/loose-files.md, L1–L9): stable, like every code (src/core/codes.ts).
 */
export const LooseFilesCodes = {
    classRange: 'lf-class-range',
    classMissing: 'lf-class-missing',
    statValue: 'lf-stat-value',
    unknownStat: 'lf-unknown-stat',
    unitType: 'lf-unit-type',
    unknownFact: 'lf-unknown-fact',
    actionEmpty: 'lf-action-empty',
    missingFact: 'lf-missing-fact',
    notInAction: 'lf-not-in-action',
    range: 'lf-range',
    movedFire: 'lf-moved-fire',
    cannotFire: 'lf-cannot-fire',
    fireOwnSide: 'lf-fire-own-side',
    moveDice: 'lf-move-dice',
    chargeDice: 'lf-charge-dice',
    notOfficer: 'lf-not-officer',
    officerNotWith: 'lf-officer-not-with',
    needsCommander: 'lf-needs-commander',
    cpOverspent: 'lf-cp-overspent',
    moraleNotFriend: 'lf-morale-not-friend',
    orderOfPlay: 'lf-order-of-play',
    formation: 'lf-formation',
    orderNotKept: 'lf-order-not-kept',
    cavalrySpeed: 'lf-cavalry-speed',
    officerTarget: 'lf-officer-target',
    contradictoryFacts: 'lf-contradictory-facts',
    casualtiesOverStands: 'lf-casualties-over-stands',
    defenderBayonet: 'lf-defender-bayonet'
} as const;
