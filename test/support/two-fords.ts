/**
 * A campaign small enough to work its luck over the season by hand (test/cli/status-cli.test.ts shows
 * the working): two SCRUD fights of one foot unit against one, no grade or factor, dice entered. Ford:
 * 5 against 2 (French.A won, Austrian.C retreats); Mill: 3 against 3 (both stand off).
 */
export const TWO_FORDS = `scenario "Two fords"
rules scrud
force French {
  unit A foot
  unit B foot
}
force Austrian {
  unit C foot
  unit D foot
}
turn 1 {
  engagement Ford {
    French.A attacks Austrian.C
    dice French foot 5
    dice Austrian foot 2
  }
}
turn 2 {
  engagement Mill {
    French.B attacks Austrian.D
    dice French foot 3
    dice Austrian foot 3
  }
}
`;
