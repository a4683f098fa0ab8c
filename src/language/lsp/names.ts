/**
 * What a name looks like, for the providers that read names out of raw text (completion after
 * `Force.`, rename's check of a new name). It is the grammar's ID terminal (battle.langium): letters
 * and digits of any script, combining marks, `_`, inner hyphens, starting with a letter or `_`;
 * test/language-unicode.test.ts keeps the two equal.
 */
export const NAME_SOURCE = '[_\\p{L}][\\p{L}\\p{N}\\p{M}_]*(?:-[\\p{L}\\p{N}\\p{M}_]+)*';

