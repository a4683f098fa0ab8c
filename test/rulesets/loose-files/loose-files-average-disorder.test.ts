/**
 * `option average-disorder` (docs/rules/loose-files.md#average-disorder): "Formed troops get 1 DP for
 * each 1 or 2 rolled" for every movement die, the average die's 2 (and 3 in woods) included. By default
 * only a d6 disorders. The exact move odds equal every throw through the resolver.
 */
import { describe, expect, it } from 'vitest';
import { AVERAGE, D6, faceDistribution } from '../../../src/core/dice.js';
import { NO_HOUSE_RULES, type LfUnit } from '../../../src/rulesets/loose-files/engine/loose-files-units.js';
import { resolveMove, type MoveInput } from '../../../src/rulesets/loose-files/engine/loose-files-movement.js';
import { moveOdds } from '../../../src/rulesets/loose-files/engine/loose-files-odds.js';

const unit: LfUnit = {
    id: 'A.Line', force: 'A', unit: 'Line', type: 'infantry', class: 2, formation: 'line', stands: 4, dp: 0, casualties: 0,
    deserted: 0, guns: undefined, weapon: 'musket', hessian: false, jaeger: false, militia: false, cp: 0, attached: undefined
};
const move = (over: Partial<MoveInput>): MoveInput => ({
    unit, average: 2, d6: 0, plus: 0, woods: false, uphill: false, charging: false, wheel: false, formationChange: false,
    retire: false, underFire: false, stop: undefined, options: { ...NO_HOUSE_RULES, averageDisorder: true }, ...over
});

describe('option average-disorder (L6)', () => {
    it('an average die\'s 2 gives 1 DP with the option, none without; in woods a 3 too', () => {
        expect(resolveMove(move({}), { average: [2, 4], d6: [] }).dp).toBe(1);
        expect(resolveMove(move({ options: NO_HOUSE_RULES }), { average: [2, 4], d6: [] }).dp).toBe(0);
        expect(resolveMove(move({ woods: true }), { average: [2, 3], d6: [] })).toMatchObject({ dp: 2, dpReasons: [{ reason: 'formed troops: 2 dice showing 1–3 in woods', value: 2 }] });
    });

    for (const [name, over] of [['two average dice', {}], ['one average and one d6 in woods', { average: 1, d6: 1, woods: true }]] as const) {
        it(`exact odds equal every throw through the resolver: ${name}`, () => {
            const input = move(over);
            const dist: number[] = [], dp: number[] = [];
            const add = (a: number[], k: number, p: number) => { a[k] = (a[k] ?? 0) + p; };
            const walk = (avg: number[], d6: number[], p: number) => {
                if (avg.length < input.average) { for (const f of faceDistribution(AVERAGE)) walk([...avg, f.face], d6, p * f.p); return; }
                if (d6.length < input.d6) { for (const f of faceDistribution(D6)) walk(avg, [...d6, f.face], p * f.p); return; }
                const r = resolveMove(input, { average: avg, d6 });
                add(dist, r.inches, p); add(dp, r.dp, p);
            };
            walk([], [], 1);
            const odds = moveOdds(input);
            const close = (a: number[], b: number[]) => {
                for (let k = 0; k < Math.max(a.length, b.length); k++) expect(Math.abs((a[k] ?? 0) - (b[k] ?? 0))).toBeLessThan(1e-12);
            };
            close(odds.distance, dist);
            close(odds.dp, dp);
            expect(odds.expectedDp).toBeGreaterThan(moveOdds(move({ ...over, options: NO_HOUSE_RULES })).expectedDp);
        });
    }
});
