/**
 * The grammar's vocabulary outline (its terminals, keywords and each keyword's longer alternatives), as the
 * language's token builder finds it by walking the grammar: bundled and run by esbuild.mjs when the bundles are
 * built, which write it into each bundle (src/language/battle-token-builder.ts, `BUILT_OUTLINE`).
 */
// Chevrotain (Langium's) calls Object.groupBy, which Node 20 lacks: as at each bundle entry.
import 'core-js/actual/object/group-by.js';
import { BattleGrammar } from '../src/language/generated/grammar.js';
import { BattleTokenBuilder, outlineOf } from '../src/language/battle-token-builder.js';
import { builtInRulesets } from '../src/rulesets/registry.js';

export const outline = outlineOf(new BattleTokenBuilder(builtInRulesets(), undefined).buildTokens(BattleGrammar(), { caseInsensitive: false }));
