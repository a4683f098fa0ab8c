/**
 * Luck (docs/reports.md#luck) against exact enumeration: every throw of small SCRUD engagements is
 * entered as table dice and resolved by the real resolver, giving each unit's law by counting; the
 * figures computed from the exact odds (`oddsForAction`) must agree with the counts for every throw.
 */
import { describe, expect, it } from 'vitest';
import { modelOf } from '../../src/core/model-cache.js';
import { oddsForAction } from '../../src/core/odds.js';
import { isUnresolvable, resolveAction } from '../../src/core/resolve.js';
import { actionReport } from '../../src/report/battle-report.js';
import { sideLuck, unitLuck } from '../../src/report/luck.js';
import { parse } from '../support/services.js';

const LADDER = [['won'], ['stand-off', 'unpaired'], ['recoil'], ['retire'], ['retreat'], ['rout']];

function scenario(french: string[], austrian: string[], dice: string): string {
    return `scenario "Luck"\nrules scrud\ngrade Veteran +1\ngrade Raw -1\nforce French {\n${french.join('\n')}\n}\nforce Austrian {\n${austrian.join('\n')}\n}\n` +
        `engagement E {\n  French attacks Austrian\n${dice}}\n`;
}

/** Every throw of the given numbers of d6 per side, each as a list of [force, result] per unit id. */
async function enumerate(french: string[], austrian: string[], nFrench: number, nAustrian: number): Promise<Array<Map<string, string>>> {
    const throws: Array<Map<string, string>> = [];
    const total = nFrench + nAustrian;
    for (let code = 0; code < 6 ** total; code++) {
        const faces = Array.from({ length: total }, (_, i) => Math.floor(code / 6 ** i) % 6 + 1);
        const dice = `  dice French foot ${faces.slice(0, nFrench).join(' ')}\n  dice Austrian foot ${faces.slice(nFrench).join(' ')}\n`;
        const model = modelOf((await parse(scenario(french, austrian, dice))).parseResult.value);
        const r = resolveAction(model, model.actions[0], { newSeed: () => 0 });
        if (isUnresolvable(r)) throw new Error(r.problem);
        throws.push(new Map(r.resolution.json.units.map(u => [`${u.force}.${u.unit}`, u.result])));
    }
    return throws;
}

const rank = (label: string) => LADDER.findIndex(g => g.includes(label));

describe('luck against exact enumeration', () => {
    const cases: Array<[string, string[], string[], number, number]> = [
        ['one against one, d6 each', ['unit Line foot'], ['unit Line foot'], 1, 1],
        ['a veteran and a raw unit against one', ['unit Old foot Veteran', 'unit New foot Raw'], ['unit Line foot'], 2, 1],
        ['two against two', ['unit Line foot x2'], ['unit Old foot Veteran', 'unit New foot'], 2, 2]
    ];
    for (const [title, french, austrian, nf, na] of cases) {
        it(`${title}: P(this or better) and the percentile are the counted chances, for every throw`, async () => {
            const throws = await enumerate(french, austrian, nf, na);
            const model = modelOf((await parse(scenario(french, austrian, ''))).parseResult.value);
            const odds = oddsForAction(model, model.actions[0]);
            if (isUnresolvable(odds)) throw new Error(odds.problem);
            const n = throws.length;
            let sideSum = 0;
            for (const t of throws) {
                const lucks = [];
                for (const u of odds.units) {
                    const got = t.get(u.id)!;
                    const l = unitLuck(LADDER, u.probabilities, got)!;
                    // Counted over every throw: results as good or better, and the mid-rank percentile.
                    const asGood = throws.filter(o => rank(o.get(u.id)!) <= rank(got)).length / n;
                    const worse = throws.filter(o => rank(o.get(u.id)!) > rank(got)).length / n;
                    const same = throws.filter(o => rank(o.get(u.id)!) === rank(got)).length / n;
                    expect(l.atLeastAsGood).toBeCloseTo(asGood, 12);
                    expect(l.percentile).toBeCloseTo(worse + same / 2, 12);
                    lucks.push({ id: u.id, force: u.force, result: got, ...l, probabilities: u.probabilities });
                }
                sideSum += sideLuck(lucks).find(s => s.force === 'French')!.meanPercentile;
            }
            // A side's mean percentile is 50% on average over every throw, exactly.
            expect(sideSum / n).toBeCloseTo(0.5, 12);
        }, 60_000);
    }

    it('gives no figure for a result off the ladder, or one the odds gave no chance', () => {
        expect(unitLuck(LADDER, { won: 0.5, rout: 0.5 }, 'moved')).toBeUndefined();
        expect(unitLuck(LADDER, { won: 0.5, moved: 0.5 }, 'won')).toBeUndefined();
        expect(unitLuck(LADDER, { won: 1 }, 'rout')).toBeUndefined();
        expect(unitLuck(LADDER, { won: 0.25, 'stand-off': 0.25, rout: 0.5 }, 'unpaired')).toEqual({ atLeastAsGood: 0.5, percentile: 0.625 });
    });

    it('reads the written outcome of an engagement in the report, unit by unit', async () => {
        const text = scenario(['unit Line foot'], ['unit Line foot'], '  dice French foot 6\n  dice Austrian foot 1\n') .replace(/}\n$/, '  outcome entered {\n    French.Line: won vs Austrian.Line\n    Austrian.Line: rout vs French.Line\n  }\n}\n');
        const model = modelOf((await parse(text)).parseResult.value);
        const r = actionReport(model, model.actions[0]);
        // d6 v d6: a win 15/36 of the time (P(won) = 15/36: the luckiest result), a rout 3/36 (the worst).
        expect(r.luck.map(l => [l.id, l.result, l.atLeastAsGood])).toEqual([['French.Line', 'won', expect.closeTo(15 / 36, 12)], ['Austrian.Line', 'rout', 1]]);
        expect(r.luck[1].percentile).toBeCloseTo(3 / 36 / 2, 12);
        expect(r.sides.map(s => s.force)).toEqual(['French', 'Austrian']);
    });
});
