/**
 * What `npm run bench` measures, bundled by scripts/bench.mjs with esbuild (so the bench runs the
 * same TypeScript as the CLI, without a TypeScript loader).
 */
// Chevrotain (Langium's) calls Object.groupBy, which Node 20 lacks: as at each bundle entry.
import 'core-js/actual/object/group-by.js';
export { scrudOdds } from '../src/rulesets/scrud/engine/scrud-odds.js';
export { resolveScrud, type ScrudInput, type ScrudUnit } from '../src/rulesets/scrud/engine/scrud-engine.js';
export { throwScrudDice } from '../src/rulesets/scrud/scrud-resolve.js';
export { D6 } from '../src/core/dice.js';
export { ancientsOdds } from '../src/rulesets/ancients/engine/ancients-odds.js';
export { resolveAncients, type AncientsInput, type AncientsUnit } from '../src/rulesets/ancients/engine/ancients-engine.js';
export { seededAncientsDice } from '../src/rulesets/ancients/ancients-resolve.js';
export { loadText } from '../src/cli/load.js';
export { modelOf } from '../src/core/model-cache.js';
export { oddsForAction } from '../src/core/odds.js';
export { campaignOdds } from '../src/core/campaign-odds.js';
