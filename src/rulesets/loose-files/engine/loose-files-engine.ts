/**
 * Loose Files & American Scramble (docs/rules/loose-files.md, L1–L9): the pure engine.
 *
 * - units.ts     L1 unit data, strength, the house-rule options (L9), flee-losses
 * - combat.ts    L2 modifiers and totals, L3 rows, Corlears Hook (L9)
 * - fire.ts      L4 artillery fire, L5 infantry fire
 * - movement.ts  L6 movement, full-move (L9)
 * - morale.ts    L7 morale on seeing friends retreat or rout
 * - command.ts   L8 re-dressing, rallies, command points; the order of play
 *
 * Every function is pure (plain data in, plain data out) so that the odds engine can reuse them.
 */
export * from './loose-files-units.js';
export * from './loose-files-combat.js';
export * from './loose-files-fire.js';
export * from './loose-files-movement.js';
export * from './loose-files-morale.js';
export * from './loose-files-command.js';
