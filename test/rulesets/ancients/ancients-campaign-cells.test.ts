/**
 * Ancients' campaign law walks the units' hits as cells (the difference of the sides' hits, each unit's
 * multiples of its threshold): in arrays of every cell a melee can reach, or, past a size, in a map of the
 * cells it does reach. Both must give the same cells in the same order with the same chances to the last
 * digit, and the chances must be those of brute force over every unit's hits.
 */
import { describe, expect, it } from 'vitest';
import { winnerCells } from '../../../src/rulesets/ancients/ancients-campaign-odds.js';
import { thresholdFor, type AncientsUnit } from '../../../src/rulesets/ancients/engine/ancients-engine.js';
import { ANCIENTS_SEED_TABLES } from '../../../src/rulesets/ancients/engine/ancients-tables.js';

/** A small generator of its own (mulberry32), so that every run draws the same melees. */
function random(seed: number): () => number {
    let a = seed >>> 0;
    return () => {
        a = (a + 0x6D2B79F5) >>> 0;
        let t = a;
        t = Math.imul(t ^ (t >>> 15), t | 1);
        t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
        return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
    };
}

const sizes = ['small', 'medium', 'large'] as const;

function melee(rand: () => number): { units: AncientsUnit[], hits: number[][] } {
    const n = 2 + Math.floor(rand() * 3);
    const units = Array.from({ length: n }, (_, i) => ({
        id: `F${i % 2}.U${i}`, side: i % 2 === 0 ? 'attacker' : 'defender', size: sizes[Math.floor(rand() * 3)]
    }) as unknown as AncientsUnit);
    const hits = units.map(() => {
        const raw = Array.from({ length: 1 + Math.floor(rand() * 9) }, () => (rand() < 0.15 ? 0 : rand()));
        raw[0] += 0.01;
        const sum = raw.reduce((s, x) => s + x, 0);
        return raw.map(x => x / sum);
    });
    return { units, hits };
}

describe('Ancients campaign cells', () => {
    it('are the same in arrays and in a map, to the last digit', () => {
        const rand = random(7);
        for (let k = 0; k < 200; k++) {
            const { units, hits } = melee(rand);
            const dense = winnerCells(units, hits, ANCIENTS_SEED_TABLES);
            const byMap = winnerCells(units, hits, ANCIENTS_SEED_TABLES, 0);
            expect(dense).toEqual(byMap);
        }
    });

    it('give the chance of each winner and multiples that brute force over every unit\'s hits gives', () => {
        const rand = random(11);
        for (let k = 0; k < 50; k++) {
            const { units, hits } = melee(rand);
            const brute = new Map<string, number>();
            const walk = (i: number, d: number, ms: number[], p: number): void => {
                if (i === units.length) {
                    const key = `${d < 0 ? 'attacker' : d > 0 ? 'defender' : null}|${ms.join(',')}`;
                    brute.set(key, (brute.get(key) ?? 0) + p);
                    return;
                }
                hits[i].forEach((q, h) => {
                    if (q > 0) walk(i + 1, d + (units[i].side === 'attacker' ? h : -h), [...ms, Math.floor(h / thresholdFor(units[i].size, ANCIENTS_SEED_TABLES))], p * q);
                });
            };
            walk(0, 0, [], 1);
            const cells = winnerCells(units, hits, ANCIENTS_SEED_TABLES);
            expect(cells.length).toBe(brute.size);
            for (const c of cells) expect(c.p).toBeCloseTo(brute.get(`${c.winner}|${c.ms.join(',')}`)!, 12);
        }
    });
});
