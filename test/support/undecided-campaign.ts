/**
 * A SCRUD campaign whose actions wait on one without dice or seed (docs/campaigns.md#undecided), shared by
 * the CLI's tests (test/core/campaign-timeline.test.ts) and the editor's (test/language/lsp/lsp-undecided.test.ts).
 * E1 has neither dice nor seed; E2 sends B.X in again after it (turn 2, its own dice); E4 shares A.Foot#2
 * with E2, so it waits on E1 through E2; E3 has its own seed and shares no unit with E1.
 */
export const UNDECIDED = `rules scrud
force A { unit Foot foot x2 unit Horse horse }
force B { unit X foot unit Y foot unit Horse horse }
turn 1 {
  engagement E1 {
    A.Foot#1 attacks B.X
  }
  engagement E3 {
    A.Horse attacks B.Horse
    seed 3
  }
}
turn 2 {
  engagement E2 {
    A.Foot#2 attacks B.X
    dice A.Foot#2 3
    dice B.X 3
  }
}
turn 3 {
  engagement E4 {
    A.Foot#2 attacks B.Y
    seed 9
  }
}
`;
