/**
 * What `npm run bench` measures, bundled by scripts/bench.mjs with esbuild (so the bench runs the
 * same TypeScript as the CLI, without a TypeScript loader).
 */
export { scrudOdds } from '../src/rules/odds/scrud.js';
export { resolveScrud, type ScrudInput, type ScrudUnit } from '../src/rules/scrud.js';
export { throwScrudDice } from '../src/report/scrud.js';
export { D6 } from '../src/rules/dice.js';
export { ancientsOdds } from '../src/rules/odds/ancients.js';
export { resolveAncients, type AncientsInput, type AncientsUnit } from '../src/rules/ancients.js';
export { seededAncientsDice } from '../src/report/ancients.js';
export { loadText } from '../src/cli/load.js';
export { modelOf } from '../src/model/cache.js';
export { oddsForAction } from '../src/report/odds.js';
