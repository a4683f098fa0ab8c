import { describe, expect, it } from 'vitest';
import * as fs from 'node:fs';
import { loadText } from '../../src/cli/load.js';
import { modelOf } from '../../src/core/model-cache.js';
import { oddsForAction } from '../../src/core/odds.js';

describe('odds refuse what a file cannot mean', () => {
    it('an Ancients split of 2147483648 dice is refused, not computed', async () => {
        // Found by the fuzzer: the odds sized their hit laws by the split's number and never returned.
        const text = fs.readFileSync('examples/broken-ancients.battle', 'utf8')
            .replace('split Greeks.Hoplites 6 on', 'split Greeks.Hoplites 2147483648 on');
        const loaded = await loadText('guards.battle', text);
        const model = modelOf(loaded.document.parseResult.value);
        const ford = model.actions.find(a => a.node.name === 'Ford')!;
        const odds = oddsForAction(model, ford);
        expect(odds).toHaveProperty('problem');
        expect((odds as { problem: string }).problem).toMatch(/split/i);
    });
});
