/**
 * A campaign under two set-ups (docs/odds.md#campaign-what-if): the odds of the whole campaign as
 * written and with what-ifs made (./what-if.ts) or with the house rules of another file in place of
 * this one's, and their difference. Both set-ups are texts checked and walked by the same services,
 * so the difference is as exact as the two campaigns' figures; a sampled campaign's difference has the
 * standard error of two independent estimates, √(se₁² + se₂²).
 */
import { AstUtils, GrammarUtils } from 'langium';
import type { CampaignOddsReport } from '../core/campaign-odds.js';
import type { ScenarioModel } from '../core/scenario.js';
import { applyEdits, lineOf, type Edit, type WhatIfStep } from './what-if.js';

type Figures = Record<string, number>;

interface CampaignUnitDifference {
    id: string;
    /** After minus before: the chance of each end state, each counter's mean, each flag's chance. */
    status: Figures;
    counters: Figures;
    flags: Figures;
    se?: { status: Figures, counters: Figures, flags: Figures };
}

interface CampaignSideDifference {
    force: string;
    atLeastOne: Figures;
    /** The mean number of units out in each way. */
    losses: Figures;
    se?: { atLeastOne: Figures, losses: Figures };
}

export interface CampaignDifference {
    /** The chance each action is fought as written. */
    actions: Array<{ name: string, kind: string, fought: number }>;
    units: CampaignUnitDifference[];
    sides: CampaignSideDifference[];
}

/** The other file's file-wide house rules in place of this file's own (its turns' house blocks stay). */
export interface HouseSwap {
    step: WhatIfStep;
    text: string;
    /** House rules this file imports: they still apply, before those put in. */
    imported: string[];
}

/**
 * The text of `model`'s file with its own top-level house blocks taken out and the file-wide house
 * rules of `other` (imported ones first, as they apply) put where the first of them stood, or after the
 * options when the file has none; or why it cannot be done.
 */
export function swapHouseRules(model: ScenarioModel, text: string, other: ScenarioModel, otherName: string): HouseSwap | { problem: string } {
    if (other.rules !== model.rules) return { problem: `${otherName} is written for the ${other.rules} rules, this file for ${model.rules}` };
    const theirs = other.houses.filter(h => h.turn === undefined).map(h => h.node.$cstNode?.text).filter((t): t is string => t !== undefined);
    const ours = model.houses.filter(h => h.turn === undefined);
    const own = ours.filter(h => h.node.$container === model.root && h.node.$cstNode).map(h => h.node.$cstNode!);
    const imported = [...new Set(ours.filter(h => h.node.$container !== model.root).map(h => AstUtils.findRootNode(h.node).$document?.uri.path.split('/').pop() ?? 'an imported file'))];
    const eol = text.includes('\r\n') ? '\r\n' : '\n';
    const edits: Edit[] = own.map(cst => lineOf(text, cst.offset, cst.end));
    const block = theirs.map(t => t.replace(/\r?\n/g, eol)).join(eol);
    if (own.length > 0) {
        if (block) edits[0] = { ...edits[0], text: block + eol };
    } else if (block) {
        // After the options, or the `rules` line (both come before everything else).
        const at = model.root.options.at(-1)?.$cstNode ?? GrammarUtils.findNodeForProperty(model.root.$cstNode, 'rules');
        const end = at ? text.indexOf('\n', at.end) : -1;
        const offset = end < 0 ? (at ? text.length : 0) : end + 1;
        edits.push({ offset, end: offset, text: `${eol}${block}${eol}` });
    }
    const step: WhatIfStep = { change: `the house rules of ${otherName}`, before: text, edits };
    return { step, text: applyEdits(text, edits), imported };
}

/** After minus before, per action, unit (matched by id) and side (by force). */
export function campaignDifference(before: CampaignOddsReport, after: CampaignOddsReport): CampaignDifference {
    const sampled = before.method === 'monte-carlo' || after.method === 'monte-carlo';
    const afterActions = new Map(after.actions.map(a => [`${a.kind} ${a.name}`, a]));
    const afterUnits = new Map(after.units.map(u => [u.id, u]));
    const afterSides = new Map(after.sides.map(s => [s.force, s]));
    const units = before.units.filter(u => afterUnits.has(u.id)).map((u): CampaignUnitDifference => {
        const v = afterUnits.get(u.id)!;
        const counters = keysOf(u.counters, v.counters);
        const flags = keysOf(flagsOf(u), flagsOf(v));
        const mean = (r: typeof u, c: string) => r.counters[c]?.mean ?? 0;
        const meanSe = (r: typeof u, c: string) => r.counters[c]?.se?.mean ?? 0;
        const flagSe = (r: typeof u, f: string) => Number(r.se?.[f] ?? 0);
        return {
            id: u.id,
            status: minus(u.status, v.status),
            counters: Object.fromEntries(counters.map(c => [c, mean(v, c) - mean(u, c)])),
            flags: Object.fromEntries(flags.map(f => [f, Number(v[f] ?? 0) - Number(u[f] ?? 0)])),
            ...(sampled ? {
                se: {
                    status: combined(u.se?.status, v.se?.status),
                    counters: Object.fromEntries(counters.map(c => [c, Math.hypot(meanSe(u, c), meanSe(v, c))])),
                    flags: Object.fromEntries(flags.map(f => [f, Math.hypot(flagSe(u, f), flagSe(v, f))]))
                }
            } : {})
        };
    });
    const sides = before.sides.filter(s => afterSides.has(s.force)).map((s): CampaignSideDifference => {
        const t = afterSides.get(s.force)!;
        const means = (r: typeof s) => Object.fromEntries(Object.entries(r.losses).map(([k, l]) => [k, l.mean]));
        return {
            force: s.force, atLeastOne: minus(s.atLeastOne, t.atLeastOne), losses: minus(means(s), means(t)),
            ...(sampled ? { se: { atLeastOne: combined(s.se?.atLeastOne, t.se?.atLeastOne), losses: combined(s.se?.losses, t.se?.losses) } } : {})
        };
    });
    const actions = before.actions.filter(a => afterActions.has(`${a.kind} ${a.name}`))
        .map(a => ({ name: a.name, kind: a.kind, fought: afterActions.get(`${a.kind} ${a.name}`)!.fought - a.fought }));
    return { actions, units, sides };
}

function keysOf(a: object, b: object): string[] {
    return [...new Set([...Object.keys(a), ...Object.keys(b)])];
}

function minus(a: Figures = {}, b: Figures = {}): Figures {
    return Object.fromEntries(keysOf(a, b).map(k => [k, (b[k] ?? 0) - (a[k] ?? 0)]));
}

function combined(a: Figures = {}, b: Figures = {}): Figures {
    return Object.fromEntries(keysOf(a, b).map(k => [k, Math.hypot(a[k] ?? 0, b[k] ?? 0)]));
}

/** A unit's flag columns (a break test taken): its own numeric fields beside status and counters. */
function flagsOf(unit: CampaignOddsReport['units'][number]): Figures {
    return Object.fromEntries(Object.entries(unit).filter((e): e is [string, number] => typeof e[1] === 'number'));
}
