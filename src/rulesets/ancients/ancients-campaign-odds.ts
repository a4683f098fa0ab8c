/**
 * Ancients in a campaign's odds (docs/odds.md#campaign-odds): the exact joint law of what a melee
 * leaves behind — each unit's result, its break test (A7) and the damage tokens it gains (A8) — as it
 * starts from the tokens and tests that earlier fights left (read through `effectiveStats`).
 *
 * Each unit's unsaved hits are independent (the engine's hit laws, engine/ancients-odds.ts); what
 * couples the units is the side with fewer hits in all (A7's +1). A unit's test reads its hits only
 * through m = ⌊hits / threshold⌋ (0: untested; the extra multiples and the tokens gained are m − 1 and
 * m), so the hits are walked as (attacker hits − defender hits, each unit's m), a law of a few hundred
 * cells; each cell gives the winning side, and then the units' tests are independent 1d6 or 2d6 throws.
 */
import { effectiveStats } from '../../core/campaign-state.js';
import type { OutcomeLineText, Unresolvable } from '../../core/resolution.js';
import type { OutcomeLaw } from '../../core/ruleset.js';
import type { ActionModel, ScenarioModel } from '../../core/scenario.js';
import { buildAncientsInput, splitProblem } from './ancients-reader.js';
import { testModifiers, testResult, thresholdFor, tokensGainedFor, type AncientsSide, type AncientsUnit } from './engine/ancients-engine.js';
import { ancientsOdds } from './engine/ancients-odds.js';
import type { AncientsTables } from './engine/ancients-tables.js';

/** The law of the break test's roll: 1d6 or 2d6, as [total, chance]. */
function rollLaw(dice: 1 | 2): Array<[number, number]> {
    const one: Array<[number, number]> = [1, 2, 3, 4, 5, 6].map(f => [f, 1 / 6]);
    if (dice === 1) return one;
    const two = new Map<number, number>();
    for (const [a, p] of one) for (const [b, q] of one) two.set(a + b, (two.get(a + b) ?? 0) + p * q);
    return [...two];
}

/** A unit's ways to end, given its m and the winning side: its outcome line and the chance. */
function unitEnds(unit: AncientsUnit, m: number, winner: AncientsSide | null, roll: ReadonlyArray<[number, number]>, tables: AncientsTables): Array<[OutcomeLineText, number]> {
    if (m === 0) return [[{ unit: unit.id, result: 'untested', facts: [] }, 1]];
    const threshold = thresholdFor(unit.size, tables);
    const hits = m * threshold;
    const mod = testModifiers(unit, hits, threshold, winner, tables).reduce((s, x) => s + x.value, 0);
    const byResult = new Map<string, number>();
    for (const [total, p] of roll) {
        const result = testResult(total + mod, unit.leadership);
        byResult.set(result, (byResult.get(result) ?? 0) + p);
    }
    return [...byResult].map(([result, p]) => {
        const tokens = tokensGainedFor(result as never, hits, threshold);
        const facts: OutcomeLineText['facts'] = [['tested', true]];
        if (tokens > 0) facts.push(['tokens', tokens]);
        return [{ unit: unit.id, result, facts }, p];
    });
}

/** The exact joint law of a melee's outcome lines, as the campaign carries them. */
export function ancientsOutcomeLaw(model: ScenarioModel, action: ActionModel, budget: number): OutcomeLaw | Unresolvable | undefined {
    const reading = buildAncientsInput(model, action.node, u => effectiveStats(model, action.node, u));
    if ('problem' in reading) return reading;
    const badSplit = splitProblem(reading.input, reading.tables);
    if (badSplit) return { problem: badSplit };
    const { input, tables } = reading;
    const odds = ancientsOdds(input, tables);
    // (attacker hits − defender hits, each unit's m so far) → chance.
    let cells = new Map<string, { d: number, ms: number[], p: number }>([['0|', { d: 0, ms: [], p: 1 }]]);
    input.units.forEach((u, i) => {
        const hits = odds.units[i].hits;
        const threshold = thresholdFor(u.size, tables);
        const sign = u.side === 'attacker' ? 1 : -1;
        const next = new Map<string, { d: number, ms: number[], p: number }>();
        for (const cell of cells.values()) {
            hits.forEach((q, h) => {
                if (q === 0) return;
                const d = cell.d + sign * h, ms = [...cell.ms, Math.floor(h / threshold)];
                const key = `${d}|${ms.join(',')}`;
                const seen = next.get(key);
                if (seen) seen.p += cell.p * q; else next.set(key, { d, ms, p: cell.p * q });
            });
        }
        cells = next;
    });
    // The winning side reads only the sign of the difference (A7: fewer hits wins; a tie gives none).
    const byWinner = new Map<string, { winner: AncientsSide | null, ms: number[], p: number }>();
    for (const c of cells.values()) {
        const winner: AncientsSide | null = c.d < 0 ? 'attacker' : c.d > 0 ? 'defender' : null;
        const key = `${winner}|${c.ms.join(',')}`;
        const seen = byWinner.get(key);
        if (seen) seen.p += c.p; else byWinner.set(key, { winner, ms: c.ms, p: c.p });
    }
    const roll = rollLaw(input.breakDice);
    // Results that leave the same state (holds and gives ground, with the same tokens) are one way to fall:
    // the campaign carries a result only when it takes the unit out of the fight (A7 destroyed).
    const joint = new Map<string, { p: number, lines: OutcomeLineText[] }>();
    for (const { winner, ms, p } of byWinner.values()) {
        let ways: Array<{ key: string, p: number, lines: OutcomeLineText[] }> = [{ key: '', p, lines: [] }];
        input.units.forEach((u, i) => {
            const ends = carriedEnds(unitEnds(u, ms[i], winner, roll, tables));
            ways = ways.flatMap(j => ends.map(([key, line, q]) => ({ key: `${j.key}|${key}`, p: j.p * q, lines: [...j.lines, line] })));
        });
        for (const w of ways) {
            const seen = joint.get(w.key);
            if (seen) seen.p += w.p; else joint.set(w.key, { p: w.p, lines: w.lines });
        }
        if (joint.size > budget) return undefined;
    }
    return [...joint.values()];
}

/** A unit's ends merged by what the campaign carries of them: destroyed or not, tested, the tokens gained. */
function carriedEnds(ends: ReadonlyArray<[OutcomeLineText, number]>): Array<[string, OutcomeLineText, number]> {
    const byKey = new Map<string, [string, OutcomeLineText, number]>();
    for (const [line, p] of ends) {
        const key = `${line.result === 'destroyed' ? 'x' : ''}${JSON.stringify(line.facts)}`;
        const seen = byKey.get(key);
        if (seen) seen[2] += p; else byKey.set(key, [key, line, p]);
    }
    return [...byKey.values()];
}
