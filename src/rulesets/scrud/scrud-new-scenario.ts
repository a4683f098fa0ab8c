/** The starting text of "Umpire: New scenario" for SCRUD: checks clean; Resolve draws and records a seed. */
export const SCRUD_NEW_SCENARIO = `scenario "New SCRUD scenario"
rules scrud

// Grades add to each die (S1); each unit throws one die.
grade Veteran +1
grade Experienced 0

force Blue {
  unit Guard foot Veteran
  unit Line foot Experienced x2
}

force Red {
  unit Grenadiers foot Experienced x2
  unit Hussars horse Experienced
}

engagement First {
  Blue attacks Red
  // Enter the table's dice (dice Blue foot 4 2 5) or leave them out: Resolve then records a seed.
}
`;
