/** The starting text of "Umpire: New scenario" for Ancients: checks clean; Resolve draws and records a seed. */
export const ANCIENTS_NEW_SCENARIO = `scenario "New Ancients scenario"
rules ancients

grade Hoplite { size large, weight heavy, formation formed, skill 2, leadership 7, defensive, move 4 }
grade Immortal { size large, weight medium, formation formed, skill 2, leadership 7, move 4 }

force Greeks {
  unit Hoplites infantry Hoplite
}

force Persians {
  unit Immortals infantry Immortal
}

engagement Ford {
  Greeks attacks Persians
  first turn
  Greeks.Hoplites front vs Persians.Immortals front
  // Enter the table's dice (dice Greeks.Hoplites hit 6 5 3 …) or leave them out: Resolve then records a seed.
}
`;
