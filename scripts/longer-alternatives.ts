/**
 * Each keyword's longer alternatives, worked out from the grammar as the language's token builder works them
 * out: bundled and run by esbuild.mjs when the bundles are built, which write the table into each bundle
 * (src/language/battle-token-builder.ts, `BUILT_ALTERNATIVES`).
 */
// Chevrotain (Langium's) calls Object.groupBy, which Node 20 lacks: as at each bundle entry.
import 'core-js/actual/object/group-by.js';
import { BattleGrammar } from '../src/language/generated/grammar.js';
import { BattleTokenBuilder, longerAlternativesOf } from '../src/language/battle-token-builder.js';
import { builtInRulesets } from '../src/rulesets/registry.js';

export const table = longerAlternativesOf(new BattleTokenBuilder(builtInRulesets(), undefined).buildTokens(BattleGrammar(), { caseInsensitive: false }));
