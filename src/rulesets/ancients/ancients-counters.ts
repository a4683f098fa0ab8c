/**
 * What an Ancients unit's campaign state counts (docs/rules/ancients.md, docs/campaigns.md): its
 * permanent damage tokens (A8) and whether it has made its first break test (A7), with the words
 * `umpire status` and hovers show them in.
 */
import { countColumn, type CampaignCounter, type StateColumn } from '../../core/campaign-counters.js';

export const ANCIENTS_COUNTERS: readonly CampaignCounter[] = [
    { name: 'tokens', kind: 'count', start: 'tokens', facts: ['tokens'], keys: ['tokens'], stat: { name: 'tokens', as: 'total' } },
    // The `tested` stat is read only while a test has been made: the first test's +1 goes with it.
    { name: 'tested', kind: 'flag', start: 'tested', facts: ['tested'], keys: ['tested'], clearKeys: ['untested'], stat: { name: 'tested', as: 'total' } }
];

export const ANCIENTS_COLUMNS: readonly StateColumn[] = [
    countColumn('tokens', 'Tokens', 'damage tokens'),
    {
        name: 'tested', kind: 'flag', header: 'Break test',
        value: c => c.tested === true,
        cell: c => (c.tested === true ? 'taken' : '—'),
        hover: c => (c.tested === true ? 'has made a break test' : 'no break test yet (+1)')
    }
];
