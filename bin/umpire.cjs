#!/usr/bin/env node
// The CLI is bundled by `npm run build` (run on install) into out/cli/main.cjs.
require('../out/cli/main.cjs');
