/**
 * The parsers' lookahead decisions (src/language/known-lookahead.ts), bundled and run by esbuild.mjs when the
 * bundles are built, which write them into each.
 */
// Chevrotain (Langium's) calls Object.groupBy, which Node 20 lacks: as at each bundle entry.
import 'core-js/actual/object/group-by.js';
import { recordLookahead } from '../src/language/lookahead-record.js';

export const record = recordLookahead();
