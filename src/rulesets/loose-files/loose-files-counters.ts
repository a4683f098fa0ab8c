/**
 * What a Loose Files unit's campaign state counts (docs/rules/loose-files.md, docs/campaigns.md):
 * disorder points (L2, L8), casualties (L2, L3), stands lost to desertion (L7) and command points
 * spent (L8), with the words `umpire status` and hovers show them in.
 */
import { countColumn, countOf, type CampaignCounter, type Counters, type StateColumn } from '../../core/campaign-counters.js';
import type { UnitModel } from '../../core/scenario.js';

export const LOOSE_FILES_COUNTERS: readonly CampaignCounter[] = [
    // `dp N` adds disorder points (a negative number removes them, as a re-dress or rally writes).
    { name: 'dp', kind: 'count', start: 'dp', facts: ['dp'], keys: ['dp'], stat: { name: 'dp', as: 'total' } },
    { name: 'casualties', kind: 'count', start: 'casualties', facts: ['casualties'], keys: ['casualties'], stat: { name: 'casualties', as: 'total' } },
    // `deserted N` stands lost; `state X: stands 3` says how many are left of those declared.
    { name: 'standsLost', kind: 'count', facts: ['deserted'], leftKeys: ['stands'], stat: { name: 'stands', as: 'less' } },
    // Command points are only spent, for the record: nothing reads them back.
    { name: 'cp', kind: 'count', facts: ['cp'], signed: true }
];

/** The stands lost: to desertion, and a casualty is one stand lost too (L2). */
function lost(c: Counters): number {
    return countOf(c, 'standsLost') + countOf(c, 'casualties');
}

/** The stands a unit has left: "3 of 4", or "—" when it has no `stands` stat. */
function standsText(c: Counters, unit: UnitModel): string {
    const stands = unit.stats.get('stands');
    const n = lost(c);
    return typeof stands === 'number' ? `${Math.max(0, stands - n)} of ${stands}` : (n > 0 ? `−${n}` : '—');
}

const stands: StateColumn = {
    name: 'stands', kind: 'count', header: 'Stands',
    value: (c, unit) => {
        const declared = unit.stats.get('stands');
        return Math.max(0, (typeof declared === 'number' ? declared : 0) - lost(c));
    },
    cell: standsText,
    hover: (c, unit) => `stands ${standsText(c, unit)}`
};

const cp = countColumn('cp', 'CP spent', 'CP spent');

export const LOOSE_FILES_COLUMNS: readonly StateColumn[] = [
    countColumn('dp', 'DP', 'DP'),
    countColumn('casualties', 'Casualties', 'casualties'),
    stands,
    // In the hover only once some are spent.
    { ...cp, hover: (c, unit) => (countOf(c, 'cp') > 0 ? cp.hover(c, unit) : undefined) }
];
