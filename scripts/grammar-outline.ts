/**
 * The grammar's outline (src/language/grammar-outline.ts) as the language's token builder and Langium's walk of
 * the grammar find it: bundled and run by esbuild.mjs when the bundles are built, which write it into each bundle.
 */
// Chevrotain (Langium's) calls Object.groupBy, which Node 20 lacks: as at each bundle entry.
import 'core-js/actual/object/group-by.js';
import { BattleGrammar } from '../src/language/generated/grammar.js';
import { BattleTokenBuilder } from '../src/language/battle-token-builder.js';
import { outlineOf } from '../src/language/grammar-outline.js';
import { builtInRulesets } from '../src/rulesets/registry.js';

const grammar = BattleGrammar();
export const outline = outlineOf(grammar, new BattleTokenBuilder(builtInRulesets(), undefined).buildTokens(grammar, { caseInsensitive: false }));
