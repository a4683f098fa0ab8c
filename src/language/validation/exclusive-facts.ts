/**
 * Facts that cannot all hold of one unit in one action (`flank, rear`; `routs, retreats`), read from
 * the rule set's own list (`RulesetVocabulary.exclusive`), which completion and the rules reference
 * read too. One message a group and a unit, on the first fact that contradicts an earlier one; its
 * quick fix keeps one of them (`data.facts`).
 */
import type { ValidationAcceptor } from 'langium';
import { isFacts, isRelation, type Action, type Fact } from '../generated/ast.js';
import type { ExclusiveFacts } from '../../core/ruleset.js';
import { targetText, type ScenarioModel } from '../../core/scenario.js';
import { Codes } from '../../core/codes.js';

/** The groups that apply in an action of this kind. */
function exclusiveGroups(groups: readonly ExclusiveFacts[] | undefined, kind: string): ExclusiveFacts[] {
    return (groups ?? []).filter(g => g.kinds.includes(kind));
}

/** The facts a line may no longer take, given the facts it already states (for completion). */
export function excludedBy(groups: readonly ExclusiveFacts[] | undefined, kind: string, present: readonly string[]): Set<string> {
    const out = new Set<string>();
    for (const g of exclusiveGroups(groups, kind)) {
        if (!present.some(p => g.facts.includes(p))) continue;
        for (const f of g.facts) if (!present.includes(f)) out.add(f);
    }
    return out;
}

/** "'a' and 'b'", "'a', 'b' and 'c'". */
function listed(words: readonly string[]): string {
    const q = words.map(w => `'${w}'`);
    return q.length <= 1 ? q.join('') : `${q.slice(0, -1).join(', ')} and ${q[q.length - 1]}`;
}

export function checkExclusiveFacts(model: ScenarioModel, action: Action, accept: ValidationAcceptor): void {
    const groups = exclusiveGroups(model.ruleset?.vocabulary.exclusive, action.kind);
    if (groups.length === 0) return;
    // A unit's facts over all its lines in the action; a relation's facts are its own.
    const byUnit = new Map<string, Fact[]>();
    const lists: Array<{ who: string, facts: Fact[] }> = [];
    for (const st of action.statements) {
        if (isFacts(st)) {
            const who = targetText(st.target);
            const list = byUnit.get(who);
            if (list) list.push(...st.facts);
            else { const facts = [...st.facts]; byUnit.set(who, facts); lists.push({ who, facts }); }
        } else if (isRelation(st) && st.facts.length > 0) {
            lists.push({ who: `${targetText(st.subject)} ${st.verb} ${targetText(st.object)}`, facts: [...st.facts] });
        }
    }
    for (const { who, facts } of lists) {
        for (const g of groups) checkGroup(g, who, facts, accept);
    }
}

function checkGroup(group: ExclusiveFacts, who: string, facts: readonly Fact[], accept: ValidationAcceptor): void {
    const first = new Map<string, Fact>();
    for (const f of facts) if (group.facts.includes(f.key) && !first.has(f.key)) first.set(f.key, f);
    if (first.size < 2) return;
    const words = [...first.keys()];
    const at = [...first.values()][1];
    accept(group.severity, `${listed(words)} cannot ${words.length === 2 ? 'both' : 'all'} be true of ${who}: ${group.why} (${group.rule.toUpperCase()}). Keep one.`,
        { node: at, property: 'key', code: Codes.factsExclusive, data: { facts: words } });
}
