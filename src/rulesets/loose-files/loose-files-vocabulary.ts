/**
 * The words Loose Files gives meaning to (docs/rules/loose-files.md): unit stats, the facts of each
 * action kind, dice labels and unit types. The single source for its checks, completion and quick fixes.
 */
import { COVERS, FORMATIONS, MAX_STANDS } from './engine/loose-files-engine.js';
import type { ExclusiveFacts, StatRange, StatVocabulary } from '../../core/ruleset.js';

/** Every stat Loose Files reads (docs/rules/loose-files.md). */
export const LF_STATS = [
    'class', 'guns', 'formation', 'stands', 'dp', 'casualties', 'deserted', 'weapon', 'hessian', 'jaeger', 'militia',
    // 'enters N': the turn the unit arrives (docs/campaigns.md)
    'cp', 'attached', 'skirmish', 'rifle', 'die', 'note', 'enters'
] as const;

/** L1: the classes. */
export const CLASS_RANGE = { min: 1, max: 5 } as const;

/** The words a unit's arm may be (its type, L1), as completion offers them. */
export const LF_TYPE_WORDS = ['infantry', 'cavalry', 'artillery', 'officer', 'commander'] as const;

/** The facts each action kind reads, on `Unit:` lines and on its relation (docs/rules/loose-files.md). */
const STATE_FACTS = ['dp', 'casualties', 'deserted', 'reason', 'note'];
export const UNIT_FACTS: Readonly<Record<string, readonly string[]>> = {
    engagement: [...COVERS, 'bayonet', 'terrain', 'flank', 'rear', ...STATE_FACTS],
    fire: [...COVERS, 'moved', 'fled', ...STATE_FACTS],
    move: ['average', 'd6', 'plus', 'woods', 'uphill', 'charging', 'wheel', 'formation-change', ...FORMATIONS, 'retire', 'retreat', 'rout', 'under-fire', 'stop', 'obstacle', ...STATE_FACTS],
    morale: ['fled', ...STATE_FACTS],
    redress: ['stationary', 'moved', 'in-combat', 'shot-at', ...STATE_FACTS],
    command: ['move', 'average', 'd6', ...STATE_FACTS]
};
export const RELATION: Readonly<Record<string, { verb: string, facts: readonly string[] }>> = {
    engagement: { verb: 'inspires', facts: ['contact', 'reason', 'note'] },
    fire: { verb: 'fires', facts: ['range', 'same-target', 'new-target', 'moved', ...COVERS, 'reason', 'note'] },
    morale: { verb: 'sees', facts: ['routs', 'retreats', 'distance', 'fled', 'reason', 'note'] },
    command: { verb: 'rallies', facts: ['dp', 'contact', 'reason', 'note'] }
};

/** The verbs of those relations, as `Ruleset.verbs`. */
export const RELATION_VERBS: readonly string[] = ['fires', 'sees', 'inspires', 'rallies'];

export const DICE_LABELS: Readonly<Record<string, readonly string[]>> = {
    engagement: ['average', 'retreat'], fire: ['d6', 'reroll'], move: ['average', 'd6'], command: ['average', 'd6'], morale: [], redress: []
};

/** What each stat means, for completion and hovers. */
export const LF_STAT_DOCS: Readonly<Record<(typeof LF_STATS)[number], StatVocabulary>> = {
    class: { doc: '1 (elite) to 5 (unmotivated) (L1).', values: ['1', '2', '3', '4', '5'] },
    guns: { doc: 'Artillery weight (L4).', values: ['light', 'medium', 'heavy'] },
    formation: { doc: 'Skirmish order is a formation (L1, L2, L4, L5).', values: ['line', 'column', 'skirmish', 'limbered', 'unlimbered'] },
    stands: { doc: 'Stands: strength and dice (L1, L4, L5).' },
    dp: { doc: 'Disorder points (L1).' },
    casualties: { doc: 'Casualties (L1).' },
    deserted: { doc: 'Stands that deserted (L7).' },
    weapon: { doc: 'Musket 8", rifle 10" (L5).', values: ['musket', 'rifle'] },
    hessian: { doc: 'Hessian infantry movement (L6).' },
    jaeger: { doc: 'Jaegers move like other troops (L6).' },
    militia: { doc: 'Militia flee at 50% losses (L9).' },
    cp: { doc: 'Command points of an officer (L8).' },
    attached: { doc: 'The unit an officer is attached to (L8).' },
    skirmish: { doc: 'In skirmish order (L1, L2, L5).' },
    rifle: { doc: 'Armed with rifles: 10" range (L5).' },
    die: { doc: 'The die the unit throws.', values: ['average', 'd6'] },
    note: { doc: 'A note for the record.' },
    enters: { doc: 'The turn the unit arrives (docs/campaigns.md).' }
};

/** Facts offered on a `Unit:` line or a relation of each action kind: both lists of the checks. */
export function factsOf(kind: string): readonly string[] {
    return [...new Set([...(UNIT_FACTS[kind] ?? []), ...(RELATION[kind]?.facts ?? [])])];
}

/**
 * Facts of which one unit line may state one at most (docs/rules/loose-files.md#exclusive): the
 * checks (`facts-exclusive`), completion and the reference read this list.
 */
export const LF_EXCLUSIVE: readonly ExclusiveFacts[] = [
    { kinds: ['engagement', 'fire'], facts: ['fort', 'stone-building', 'fieldwork', 'wood-building'], severity: 'error', rule: 'l2.4',
        why: 'a unit defends one kind of works, "a fort or stone building" (+3) or "a fieldwork or wood building" (+2)' },
    { kinds: ['engagement'], facts: ['flank', 'rear'], severity: 'warning', rule: 'l2.10',
        why: '"attacked in flank/rear" is one −3 however it is attacked' },
    { kinds: ['move'], facts: ['charging', 'retire', 'retreat', 'rout'], severity: 'error', rule: 'l6',
        why: 'a move is a charge, a retire "facing enemy", a retreat or a rout ("run away"), not two of them' },
    { kinds: ['morale'], facts: ['routs', 'retreats'], severity: 'error', rule: 'l7',
        why: 'the friend was seen to "retreat" or to "rout", and the two rows differ' },
    { kinds: ['redress'], facts: ['stationary', 'moved'], severity: 'error', rule: 'l8',
        why: 'DPs come off "if stationary", and a unit that moved was not' }
];

/** The numbers each counted stat may take (docs/rules/loose-files.md#l1). */
export const LF_RANGES: Readonly<Record<string, StatRange>> = {
    class: { min: CLASS_RANGE.min, max: CLASS_RANGE.max, severity: 'error', rule: 'l1', why: '1st class (elite, veteran) to 5th class (unmotivated)' },
    stands: { min: 1, max: MAX_STANDS, severity: 'error', rule: 'l1', why: 'a unit has at least one stand' },
    dp: { min: 0, severity: 'error', rule: 'l1', why: 'disorder points are counted from 0' },
    casualties: { min: 0, severity: 'error', rule: 'l1', why: 'a casualty is one stand lost, and no more are lost than the unit has' },
    deserted: { min: 0, severity: 'error', rule: 'l7', why: 'stands that deserted, no more than the unit has' },
    cp: { min: 0, severity: 'error', rule: 'l8', why: 'command points to spend each turn' }
};

/** Stats that only units of some types have (L1, L4, L5): guns on artillery, a musket or rifle on infantry. */
export const LF_STAT_TYPES: Readonly<Record<string, readonly string[]>> = {
    guns: ['artillery'], weapon: ['infantry'], rifle: ['infantry']
};
