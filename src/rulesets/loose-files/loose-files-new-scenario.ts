/** The starting text of "Umpire: New scenario" for Loose Files: checks clean; Resolve draws and records a seed. */
export const LOOSE_FILES_NEW_SCENARIO = `scenario "New Loose Files scenario"
rules loose-files

force British {
  unit Guards infantry { class 2, stands 4 }
}

force American {
  unit Line infantry { class 3, stands 4 }
}

turn 1 "First turn" {
  engagement Assault {
    American.Line attacks British.Guards
    // Enter the table's dice (dice American 5 / dice British 2) or leave them out: Resolve then records a seed.
  }
}
`;
