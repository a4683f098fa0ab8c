/**
 * Loose Files odds for the report layer: combats (L2, L3) and fire (L4, L5), read as the resolver
 * reads them and handed to the exact engine in src/rules/odds/loose-files.ts.
 */
import { readCombat, readFire, readMoves } from './loose-files-reader.js';
import type { ActionModel, ScenarioModel, UnitModel } from '../../core/scenario.js';
import { COMBAT_RESULTS } from './engine/loose-files-combat.js';
import { lfTables } from './loose-files-house.js';
import { combatOdds, fireOdds, moveOdds, type CombatSideOdds } from './engine/loose-files-odds.js';
import type { SideOdds, UnitOdds } from '../../protocol.js';
import type { OddsBody } from '../../core/ruleset.js';
import type { Unresolvable } from '../../core/resolution.js';
import { meanAndSd, sdOfCount, sdOfSum } from '../../core/distributions.js';

const shortName = (u: UnitModel) => u.id.slice(u.force.length + 1);
const mean = (law: readonly number[]) => law.reduce((s, p, k) => s + p * k, 0);
/** A side's expected total of a per-unit figure: the sum of its units' means. */
const total = (units: readonly UnitOdds[], key: 'expectedDp' | 'expectedCasualties') =>
    units.reduce((s, u) => s + (typeof u[key] === 'number' ? u[key] as number : 0), 0);
const sd = (law: readonly number[]) => meanAndSd(law).sd;
/** The spread of a side's total over units that throw their own dice: independent, so the variances add. */
const independentSd = (units: readonly UnitOdds[], key: 'sdDp' | 'sdCasualties') => sdOfSum(units.map(u => (typeof u[key] === 'number' ? u[key] as number : 0)));
/** The spread of the number of units with each label, when each unit's result is its own dice's. */
const independentCounts = (units: readonly UnitOdds[], labels: readonly string[]) =>
    Object.fromEntries(labels.map(l => [l, sdOfCount(units.map(u => u.probabilities[l] ?? 0))]));

/** L3's ladder read downwards: "driven-back" = driven back or worse. */
function combatAtLeast(p: Record<string, number>): Record<string, number> {
    const worse = ['driven-back', 'defeated', 'routed'];
    return Object.fromEntries(worse.map((l, i) => [l, worse.slice(i).reduce((s, x) => s + p[x], 0)]));
}

function engagementOdds(model: ScenarioModel, action: ActionModel): OddsBody | { problem: string } {
    const read = readCombat(model, action, false);
    if (!read) return { problem: `Engagement '${action.node.name}' needs two sides of fighting units: write 'A attacks B'.` };
    const odds = combatOdds(read.input, read.tables);
    const units: UnitOdds[] = [];
    const sides: SideOdds[] = [];
    const pairs: Array<[UnitModel[], CombatSideOdds, 'attacker' | 'defender']> = [[read.attackers, odds.attacker, 'attacker'], [read.defenders, odds.defender, 'defender']];
    for (const [members, o, role] of pairs) {
        members.forEach((u, i) => units.push({
            force: u.force, unit: shortName(u), id: u.id, side: role, leading: i === 0,
            probabilities: { ...o.probabilities }, atLeast: combatAtLeast(o.probabilities),
            // L3: every unit of the side takes the row's DPs; the leading unit takes its casualties.
            dp: o.dp, casualties: i === 0 ? o.casualties : [1], modifier: o.modifier
        }));
        // The whole side reads one row, so "at least one unit" of a row is the row's own chance.
        sides.push({
            force: [...new Set(members.map(u => u.force))].join('+'), side: role,
            expected: Object.fromEntries(COMBAT_RESULTS.map(r => [r, o.probabilities[r] * members.length])),
            // One row for all: the count of a label is every unit or none, n × a yes-or-no of chance p.
            sd: Object.fromEntries(COMBAT_RESULTS.map(r => [r, members.length * Math.sqrt(Math.max(0, o.probabilities[r] * (1 - o.probabilities[r])))])),
            // The side's totals: every unit takes the row's DPs (so the mean row DPs × units); the
            // casualties all fall on the leading unit (docs/json.md, "Odds").
            atLeastOne: { ...o.probabilities }, expectedDp: mean(o.dp) * members.length, expectedCasualties: mean(o.casualties),
            sdDp: sd(o.dp) * members.length, sdCasualties: sd(o.casualties)
        });
    }
    const notes = read.input.options.corlearsHook
        ? ['Corlears Hook retreat distances (L9) are not part of these odds; the rows, DPs and casualties are.'] : [];
    return { units, sides, notes };
}

function fireActionOdds(model: ScenarioModel, action: ActionModel): OddsBody | { problem: string } {
    const reads = readFire(model, action);
    if (reads.length === 0) return { problem: `Fire '${action.node.name}' needs a line 'A fires at B: range N'.` };
    const units: UnitOdds[] = reads.map(r => {
        const o = fireOdds(r.input, lfTables(model, action.node));
        return {
            force: r.target.force, unit: shortName(r.target), id: r.target.id, firer: r.firer.id, dice: o.dice,
            probabilities: { ...o.probabilities }, atLeast: { disordered: o.probabilities.disordered + o.probabilities.casualty, casualty: o.probabilities.casualty },
            dp: o.dp, casualties: o.casualties, expectedDp: o.expectedDp, expectedCasualties: o.expectedCasualties,
            sdDp: sd(o.dp), sdCasualties: sd(o.casualties)
        };
    });
    const forces = [...new Set(units.map(u => u.force))];
    const sides: SideOdds[] = forces.map(force => {
        const mine = units.filter(u => u.force === force);
        const none = (label: string) => mine.reduce((p, u) => p * (1 - (u.atLeast?.[label] ?? 0)), 1);
        return {
            force,
            expected: Object.fromEntries(['no-effect', 'disordered', 'casualty'].map(l => [l, mine.reduce((s, u) => s + u.probabilities[l], 0)])),
            // Each fire throws its own dice, so the fires on a force are independent.
            sd: independentCounts(mine, ['no-effect', 'disordered', 'casualty']),
            atLeastOne: { disordered: 1 - none('disordered'), casualty: 1 - none('casualty') },
            // The force's totals over every fire at it (a sum of means holds whether or not they are independent).
            expectedDp: total(mine, 'expectedDp'), expectedCasualties: total(mine, 'expectedCasualties'),
            sdDp: independentSd(mine, 'sdDp'), sdCasualties: independentSd(mine, 'sdCasualties')
        };
    });
    return { units, sides, notes: [] };
}

function moveActionOdds(model: ScenarioModel, action: ActionModel): OddsBody | { problem: string } {
    const reads = readMoves(model, action);
    if (reads.length === 0) return { problem: `Move '${action.node.name}' needs a line 'Unit: average N, d6 N'.` };
    const units: UnitOdds[] = reads.map(r => {
        const o = moveOdds(r.input, lfTables(model, action.node));
        return {
            force: r.unit.force, unit: shortName(r.unit), id: r.unit.id,
            probabilities: { [o.result]: 1 }, atLeast: { disordered: o.dp.reduce((s, p, k) => (k > 0 ? s + p : s), 0) },
            distance: o.distance, dp: o.dp, expectedDistance: o.expectedDistance, expectedDp: o.expectedDp,
            sdDistance: sd(o.distance), sdDp: sd(o.dp)
        };
    });
    const brigade = reads.some(r => r.input.options.brigadeMove);
    const forces = [...new Set(units.map(u => u.force))];
    const sides: SideOdds[] = forces.map(force => {
        const mine = units.filter(u => u.force === force);
        const expected: Record<string, number> = {};
        for (const u of mine) for (const [l, p] of Object.entries(u.probabilities)) expected[l] = (expected[l] ?? 0) + p;
        // Each unit throws its own dice, unless the brigade-move house rule (L9) makes one roll serve several.
        const atLeastOne: Record<string, number> = brigade ? {} : { disordered: 1 - mine.reduce((p, u) => p * (1 - (u.atLeast?.disordered ?? 0)), 1) };
        // A move's result is certain (no dice decide it), so the counts of results are exact either way.
        const counts = independentCounts(mine, Object.keys(expected));
        return { force, expected, sd: counts, atLeastOne, expectedDp: total(mine, 'expectedDp'), ...(brigade ? {} : { sdDp: independentSd(mine, 'sdDp') }) };
    });
    const notes = brigade ? ['brigade-move (L9): units share one movement roll, so the chance of at least one disordered unit and the spread of the force\'s DPs are left out.'] : [];
    return { units, sides, notes };
}

/** The exact odds of a Loose Files combat, fire or move (docs/odds.md). */
export function looseFilesOddsBody(model: ScenarioModel, action: ActionModel): OddsBody | Unresolvable {
    return action.node.kind === 'fire' ? fireActionOdds(model, action)
        : action.node.kind === 'move' ? moveActionOdds(model, action) : engagementOdds(model, action);
}
