/**
 * SCRUD odds for the report layer: reads the engagement as the resolver does and hands it to the
 * exact engine in src/rules/odds/scrud.ts.
 */
import { buildScrudInput, pursuitRuleOf, RUNS_AND_PURSUES, scrudTables } from './scrud-reader.js';
import { scrudOdds, type ScrudLabelOdds } from './engine/scrud-odds.js';
import { SCRUD_LOSSES } from './engine/scrud-engine.js';
import { routsFrom } from './engine/scrud-tables.js';
import type { SideOdds } from '../../protocol.js';
import type { OddsBody } from '../../core/ruleset.js';
import type { ActionModel, ScenarioModel } from '../../core/scenario.js';
import type { Unresolvable } from '../../core/resolution.js';
import { sdOfCount } from '../../core/distributions.js';

/** atLeast[label] = P(this loss or a worse one): recoil ⊂ retire ⊂ retreat ⊂ rout, read upwards. */
function scrudAtLeast(p: ScrudLabelOdds): Record<string, number> {
    const out: Record<string, number> = {};
    let sum = 0;
    for (const label of [...SCRUD_LOSSES].reverse()) {
        sum += p[label];
        out[label] = sum;
    }
    return Object.fromEntries(SCRUD_LOSSES.map(l => [l, out[l]]));
}

/** The exact odds of a SCRUD engagement, per unit and per side (docs/odds.md). */
export function scrudOddsBody(model: ScenarioModel, action: ActionModel): OddsBody | Unresolvable {
    const input = buildScrudInput(model, action.node);
    if (!input) return { problem: `Engagement '${action.node.name}' needs two sides: write 'A attacks B'.` };
    const tables = scrudTables(model, action.node);
    const odds = scrudOdds(input, tables);
    const notes: string[] = [];
    const routShapeUnknown = routsFrom(tables) === undefined;
    const unspread: string[] = [];
    const sides = odds.sides.map((s): SideOdds => {
        const own = odds.units.filter(u => u.side === s.side);
        // S3: arms are thrown apart, so a side with at most one unit in each line has independent results
        // and the spread of its counts is exact. Two in one line share its sorting (S4): no joint law is kept.
        const lines = input.pooled ? [own.length] : [...new Set(own.map(u => u.arm))].map(arm => own.filter(u => u.arm === arm).length);
        const sd = lines.every(n => n <= 1) ? Object.fromEntries(Object.keys(s.expected).map(l => [l, sdOfCount(own.map(u => u.probabilities[l as keyof typeof u.probabilities]))])) : undefined;
        if (!sd) unspread.push(s.force);
        if (s.atLeastOneRout === null && routShapeUnknown) notes.push(`${s.force}: the chance of at least one rout is left out: the house rules' routs are not "this difference or more", which its exact method needs.`);
        else if (s.atLeastOneRout === null) notes.push(`${s.force}: the chance of at least one rout is too costly to compute exactly here and is left out.`);
        return { force: s.force, side: s.side, expected: { ...s.expected }, ...(sd ? { sd } : {}), atLeastOne: s.atLeastOneRout === null ? {} as Record<string, number> : { rout: s.atLeastOneRout } };
    });
    if (unspread.length > 0) notes.push(`${unspread.join(', ')}: the spread (sd) of the number of units with each result is left out: units in one line are sorted together (S4), and the exact odds keep no joint law of their results.`);
    const rule = pursuitRuleOf(model, action.node);
    if (rule?.runsAndPursues) {
        notes.push(`The results are the pairs' before '${RUNS_AND_PURSUES}' (S1.3): a unit whose die shows a ${rule.runsOn} runs away, one whose die shows a ${rule.pursuesOn} pursues; pursuit chances are left out.`);
    }
    // S-ex.6: the pursuit throw is its own d6, independent of the pairs: P(pursues) = P(won) × P(throw ≥ N).
    const pursues = (id: string, won: number) => (rule && !rule.runsAndPursues && rule.marked.has(id) ? { pursues: won * (7 - rule.from) / 6 } : {});
    return {
        pooled: input.pooled,
        units: odds.units.map(u => ({
            force: u.force, unit: u.unit, id: u.id, side: u.side, arm: u.arm,
            probabilities: { ...u.probabilities }, atLeast: scrudAtLeast(u.probabilities), ...pursues(u.id, u.probabilities.won)
        })),
        sides, notes
    };
}
