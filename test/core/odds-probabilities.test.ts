/**
 * Odds are probabilities: every chance in [0, 1], each unit's results and each
 * law summing to 1 within 1e-12, expected counts never negative, on every example and every rule set.
 */
import { describe, expect, it } from 'vitest';
import * as fs from 'node:fs';
import { loadText } from '../../src/cli/load.js';
import { modelOf } from '../../src/core/model-cache.js';
import { asProbabilities, hasOdds, oddsForAction } from '../../src/core/odds.js';
import type { OddsReport } from '../../src/protocol.js';

/** Every way a report can fail to be probabilities, as readable lines (empty when it is right). */
function problems(report: OddsReport): string[] {
    const out: string[] = [];
    const chance = (where: string, p: number) => { if (!(p >= 0 && p <= 1)) out.push(`${where} = ${p}`); };
    const sumsToOne = (where: string, figures: number[]) => {
        const sum = figures.reduce((s, p) => s + p, 0);
        if (Math.abs(sum - 1) > 1e-12) out.push(`${where} sums to ${sum}`);
    };
    for (const u of report.units) {
        const where = `${report.name} ${u.id}`;
        Object.entries(u.probabilities).forEach(([k, p]) => chance(`${where} ${k}`, p));
        sumsToOne(`${where} probabilities`, Object.values(u.probabilities));
        Object.entries(u.atLeast ?? {}).forEach(([k, p]) => chance(`${where} atLeast ${k}`, p));
        for (const [k, v] of Object.entries(u)) {
            if (Array.isArray(v) && v.every(x => typeof x === 'number')) {
                v.forEach((p, i) => chance(`${where} ${k}[${i}]`, p));
                sumsToOne(`${where} ${k}`, v);
            }
            if (typeof v === 'number' && k.startsWith('expected') && v < 0) out.push(`${where} ${k} = ${v}`);
        }
    }
    for (const s of report.sides) {
        Object.entries(s.atLeastOne).forEach(([k, p]) => chance(`${report.name} ${s.force} atLeastOne ${k}`, p));
        Object.entries(s.expected).forEach(([k, v]) => { if (v < 0) out.push(`${report.name} ${s.force} expected ${k} = ${v}`); });
        if (typeof s.wins === 'number') chance(`${report.name} ${s.force} wins`, s.wins);
    }
    return out;
}

describe('odds are probabilities', () => {
    it('on every action of every example', async () => {
        let reports = 0;
        for (const file of fs.readdirSync('examples').filter(f => f.endsWith('.battle'))) {
            const loaded = await loadText(file, fs.readFileSync(`examples/${file}`, 'utf8'));
            const model = modelOf(loaded.document.parseResult.value);
            for (const action of model.actions.filter(a => hasOdds(model, a))) {
                const odds = oddsForAction(model, action);
                if ('problem' in odds) continue;
                reports++;
                expect(problems(odds), `${file} ${action.node.name}`).toEqual([]);
            }
        }
        // Every rule set's examples give odds: SCRUD, Ancients and Loose Files, engagements, fire and moves.
        expect(reports).toBeGreaterThan(15);
    });

    it('rounding noise outside [0, 1] is clamped, and a law whose sum drifts is scaled back to 1', () => {
        const report: OddsReport = {
            name: 'E', kind: 'engagement', rules: 'x', turn: null, notes: [],
            units: [{
                force: 'A', unit: 'Foot', id: 'A.Foot',
                probabilities: { hold: 1.0000000000000007, rout: -6.5e-16 }, atLeast: { rout: -6.5e-16 },
                hits: [0.5, 0.5000001, -1e-17], expectedHits: -6.5e-16
            }],
            sides: [{ force: 'A', expected: { rout: -6.5e-16 }, atLeastOne: { rout: 1.0000000000000007 }, wins: -1e-17 }]
        };
        expect(problems(report).length).toBeGreaterThan(0);
        const fixed = asProbabilities(report);
        expect(problems(fixed)).toEqual([]);
        expect(fixed.units[0].probabilities).toEqual({ hold: 1, rout: 0 });
        // Scaled back, in proportion: 0.5 / 1.0000001 and 0.5000001 / 1.0000001.
        expect(fixed.units[0].hits![0]).toBeCloseTo(0.5 / 1.0000001, 15);
        expect(fixed.units[0].hits![2]).toBe(0);
        expect(fixed.sides[0]).toMatchObject({ expected: { rout: 0 }, atLeastOne: { rout: 1 }, wins: 0 });
    });
});
