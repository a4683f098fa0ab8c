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
import { byInput, inputKey } from '../../core/campaign-throws.js';
import { ancientsOddsOf } from './ancients-odds-report.js';
import { buildAncientsInput, splitProblem } from './ancients-reader.js';
import { testModifiers, testResult, thresholdFor, tokensGainedFor, type AncientsInput, type AncientsSide, type AncientsUnit } from './engine/ancients-engine.js';
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

/**
 * (the winning side, each unit's m) → chance, from each unit's law of unsaved hits. The hits are walked
 * as (attacker hits − defender hits, the units' m so far), each cell numbered: the difference, and the
 * m's in mixed radix (each unit's m is at most its most hits over its threshold).
 */
export function winnerCells(units: readonly AncientsUnit[], hitLaws: ReadonlyArray<readonly number[]>, tables: AncientsTables,
    denseCells = DENSE_CELLS): Array<{ winner: AncientsSide | null, ms: number[], p: number }> {
    const thresholds = units.map(u => thresholdFor(u.size, tables));
    const span = hitLaws.reduce((s, h) => s + h.length, 0);
    // Each unit's m is below its base; a cell's number is below the bases' product times the differences' width.
    const bases = hitLaws.map((hits, i) => Math.floor((hits.length - 1) / thresholds[i]) + 1);
    const cellsAtMost = bases.reduce((s, b) => s * b, 1) * (2 * span + 1);
    if (cellsAtMost > denseCells) return winnerCellsByMap(units, hitLaws, thresholds, span);
    return winnerCellsDense(units, hitLaws, thresholds, span, bases, cellsAtMost);
}

/** Past this many cells a law is walked in a map of the cells it reaches, not in arrays of every cell it could. */
const DENSE_CELLS = 1 << 18;

/**
 * `winnerCells` in arrays indexed by the cell's number: the same cells, reached in the same order, each
 * chance added in the same order as in a map of them (the same sums to the last digit), without the map.
 */
function winnerCellsDense(units: readonly AncientsUnit[], hitLaws: ReadonlyArray<readonly number[]>, thresholds: readonly number[], span: number,
    bases: readonly number[], size: number): Array<{ winner: AncientsSide | null, ms: number[], p: number }> {
    const width = 2 * span + 1;
    let order = [span];
    let p = new Float64Array(size);
    p[span] = 1;
    let radix = 1;
    units.forEach((u, i) => {
        const hits = hitLaws[i], threshold = thresholds[i];
        const sign = u.side === 'attacker' ? 1 : -1;
        const next = new Float64Array(size);
        const reached = new Uint8Array(size);
        const nextOrder: number[] = [];
        for (const code of order) {
            const codeMs = Math.floor(code / width), d0 = code - codeMs * width - span, cp = p[code];
            for (let h = 0; h < hits.length; h++) {
                const q = hits[h];
                if (q === 0) continue;
                const key = (codeMs + Math.floor(h / threshold) * radix) * width + d0 + sign * h + span;
                if (reached[key]) next[key] += cp * q;
                else { reached[key] = 1; next[key] = cp * q; nextOrder.push(key); }
            }
        }
        radix *= bases[i];
        order = nextOrder;
        p = next;
    });
    const byWinner = new Map<number, { winner: AncientsSide | null, ms: number[], p: number }>();
    for (const code of order) {
        const codeMs = Math.floor(code / width), d = code - codeMs * width - span;
        const winner: AncientsSide | null = d < 0 ? 'attacker' : d > 0 ? 'defender' : null;
        const key = codeMs * 3 + (d < 0 ? 0 : d > 0 ? 1 : 2);
        const seen = byWinner.get(key);
        if (seen) seen.p += p[code];
        else {
            const ms: number[] = [];
            let rest = codeMs;
            for (const b of bases) { ms.push(rest % b); rest = Math.floor(rest / b); }
            byWinner.set(key, { winner, ms, p: p[code] });
        }
    }
    return [...byWinner.values()];
}

/** `winnerCells` in a map of the cells reached, for a melee of many units. */
function winnerCellsByMap(units: readonly AncientsUnit[], hitLaws: ReadonlyArray<readonly number[]>, thresholds: readonly number[], span: number): Array<{ winner: AncientsSide | null, ms: number[], p: number }> {
    let cells = new Map<number, { d: number, ms: number[], p: number }>([[0, { d: 0, ms: [], p: 1 }]]);
    let radix = 1;
    units.forEach((u, i) => {
        const hits = hitLaws[i], threshold = thresholds[i];
        const sign = u.side === 'attacker' ? 1 : -1;
        const next = new Map<number, { d: number, ms: number[], p: number }>();
        for (const [code, cell] of cells) {
            const codeMs = Math.floor(code / (2 * span + 1));
            hits.forEach((q, h) => {
                if (q === 0) return;
                const d = cell.d + sign * h, m = Math.floor(h / threshold);
                const key = (codeMs + m * radix) * (2 * span + 1) + d + span;
                const seen = next.get(key);
                if (seen) seen.p += cell.p * q; else next.set(key, { d, ms: [...cell.ms, m], p: cell.p * q });
            });
        }
        radix *= Math.floor((hits.length - 1) / threshold) + 1;
        cells = next;
    });
    // The winning side reads only the sign of the difference (A7: fewer hits wins; a tie gives none),
    // numbered beside the m's: the m's number times three, and the side.
    const byWinner = new Map<number, { winner: AncientsSide | null, ms: number[], p: number }>();
    for (const [code, c] of cells) {
        const winner: AncientsSide | null = c.d < 0 ? 'attacker' : c.d > 0 ? 'defender' : null;
        const key = Math.floor(code / (2 * span + 1)) * 3 + (c.d < 0 ? 0 : c.d > 0 ? 1 : 2);
        const seen = byWinner.get(key);
        if (seen) seen.p += c.p; else byWinner.set(key, { winner, ms: c.ms, p: c.p });
    }
    return [...byWinner.values()];
}

/** The exact joint law of a melee's outcome lines, as the campaign carries them. */
export function ancientsOutcomeLaw(model: ScenarioModel, action: ActionModel, budget: number): OutcomeLaw | Unresolvable | undefined {
    const reading = buildAncientsInput(model, action.node, u => effectiveStats(model, action.node, u));
    if ('problem' in reading) return reading;
    const badSplit = splitProblem(reading.input, reading.tables);
    if (badSplit) return { problem: badSplit };
    const { input, tables } = reading;
    return byInput(action.node, inputKey('law', input, tables, budget), () => lawOf(action, input, tables, budget));
}

function lawOf(action: ActionModel, input: AncientsInput, tables: AncientsTables, budget: number): OutcomeLaw | undefined {
    const odds = ancientsOddsOf(action.node, input, tables);
    const byWinner = winnerCells(input.units, odds.units.map(u => u.hits), tables);
    const roll = rollLaw(input.breakDice);
    // Results that leave the same state (holds and gives ground, with the same tokens) are one way to fall:
    // the campaign carries a result only when it takes the unit out of the fight (A7 destroyed). Each
    // unit's ends are numbered once, and a joint way is the list of its units' numbers.
    const numbered = input.units.map(() => ({ index: new Map<string, number>(), lines: [] as OutcomeLineText[] }));
    const endsOf = new Map<string, Array<[number, number]>>();
    const unitLaw = (i: number, m: number, winner: AncientsSide | null): Array<[number, number]> => {
        const key = `${i}|${m}|${winner}`;
        let law = endsOf.get(key);
        if (!law) {
            const own = numbered[i];
            law = carriedEnds(unitEnds(input.units[i], m, winner, roll, tables)).map(([k, line, q]): [number, number] => {
                let n = own.index.get(k);
                if (n === undefined) { own.index.set(k, n = own.lines.length); own.lines.push(line); }
                return [n, q];
            });
            endsOf.set(key, law);
        }
        return law;
    };
    // Every unit's ends are numbered first (in the order the cells ask for them, as the walk would), so
    // that a joint way can be numbered too: its units' numbers in mixed radix, while that stays exact.
    const cellLaws = byWinner.map(({ winner, ms }) => input.units.map((_, i) => unitLaw(i, ms[i], winner)));
    const radices = numbered.map(u => Math.max(1, u.lines.length));
    const exact = radices.reduce((s, r) => s * r, 1) <= Number.MAX_SAFE_INTEGER;
    const joint = new Map<number | string, { p: number, ends: number[] }>();
    for (const [c, { p }] of byWinner.entries()) {
        const laws = cellLaws[c];
        const ends: number[] = [];
        const walk = (i: number, q: number, code: number): void => {
            if (i === laws.length) {
                const key = exact ? code : ends.join(',');
                const seen = joint.get(key);
                if (seen) seen.p += q; else joint.set(key, { p: q, ends: [...ends] });
                return;
            }
            for (const [n, r] of laws[i]) { ends.push(n); walk(i + 1, q * r, code * radices[i] + n); ends.pop(); }
        };
        walk(0, p, 0);
        if (joint.size > budget) return undefined;
    }
    return [...joint.values()].map(({ p, ends }) => ({ p, lines: ends.map((n, i) => numbered[i].lines[n]) }));
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
