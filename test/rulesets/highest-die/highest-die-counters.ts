/**
 * What the "highest die wins" rule set keeps of each unit between fights: its scars, one for every
 * fight it lost. Declared here, beside the rule set and nowhere else, to prove that the campaign
 * state carries a rule set's counters by their declaration alone: the core knows no such name.
 */
import { countColumn, type CampaignCounter, type StateColumn } from '../../../src/core/campaign-counters.js';

export const HIGHEST_DIE_COUNTERS: readonly CampaignCounter[] = [
    { name: 'scars', kind: 'count', start: 'scars', facts: ['scars'], keys: ['scars'], stat: { name: 'scars', as: 'total' } }
];

export const HIGHEST_DIE_COLUMNS: readonly StateColumn[] = [countColumn('scars', 'Scars', 'scars')];
