/**
 * Luck over a season (docs/reports.md#season-luck) against brute force: every throw of every written
 * action of a small SCRUD campaign is entered as table dice and resolved by the real resolver, each from
 * the position the record gives it; each unit's percentile is counted over its action's throws, the
 * sides' sums taken over every combination of throws of all the actions, and the written season ranked
 * among them. The exact figure must equal the count; Monte Carlo must agree within four standard errors.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { modelOf } from '../../src/core/model-cache.js';
import { outcomeBlock } from '../../src/core/outcome-block.js';
import { isUnresolvable, resolveAction } from '../../src/core/resolve.js';
import type { ScenarioModel } from '../../src/core/scenario.js';
import { quickSeasonLuck, seasonLuck, seasonHeading, type SeasonLuck } from '../../src/report/season-luck.js';
import { parse } from '../support/services.js';

const LADDER = [['won'], ['stand-off', 'unpaired'], ['recoil'], ['retire'], ['retreat'], ['rout']];
const rank = (label: string) => LADDER.findIndex(g => g.includes(label));

interface Fight { name: string, setup: string, dice: Array<[string, number]>, written: number[] }

const HEAD = 'scenario "Season"\nrules scrud\ngrade Veteran +1\ngrade Raw -1\n' +
    'force French {\n  unit Line foot\n  unit Old foot Veteran\n}\nforce Austrian {\n  unit Line foot\n  unit New foot Raw\n}\n';

/** The campaign with the fights' dice (each `[label, count]` filled from `faces`) and, for those given, written outcomes. */
function text(fights: readonly Fight[], faces: ReadonlyArray<readonly number[]>, outcomes: ReadonlyArray<string | undefined>): string {
    return HEAD + fights.map((f, i) => {
        let k = 0;
        const dice = f.dice.map(([label, n]) => `    dice ${label} ${faces[i].slice(k, k += n).join(' ')}\n`).join('');
        return `turn ${i + 1} {\n  engagement ${f.name} {\n${f.setup}${dice}${outcomes[i] ?? ''}  }\n}\n`;
    }).join('');
}

async function modelOfText(t: string): Promise<ScenarioModel> {
    return modelOf((await parse(t)).parseResult.value);
}

/** Writes each fight's outcome in turn from its written dice, as Resolve would (dice entered at the table). */
async function written(fights: readonly Fight[]): Promise<string[]> {
    const outcomes: string[] = [];
    for (let i = 0; i < fights.length; i++) {
        const model = await modelOfText(text(fights, fights.map(f => f.written), outcomes));
        const r = resolveAction(model, model.actions[i], { newSeed: () => 0 });
        if (isUnresolvable(r)) throw new Error(r.problem);
        outcomes.push(`${outcomeBlock(r.resolution, { kind: 'entered' }, '    ')}\n`);
    }
    return outcomes;
}

/** Every throw of fight i from the written record before it: each unit's result, each throw as likely. */
async function throwsOf(fights: readonly Fight[], outcomes: readonly string[], i: number): Promise<Array<Map<string, { force: string, result: string }>>> {
    const n = fights[i].dice.reduce((a, [, c]) => a + c, 0);
    const all = [];
    for (let code = 0; code < 6 ** n; code++) {
        const faces = fights.map(f => f.written);
        faces[i] = Array.from({ length: n }, (_, d) => Math.floor(code / 6 ** d) % 6 + 1);
        const model = await modelOfText(text(fights, faces, outcomes));
        const r = resolveAction(model, model.actions[i], { newSeed: () => 0 });
        if (isUnresolvable(r)) throw new Error(r.problem);
        all.push(new Map(r.resolution.json.units.map(u => [`${u.force}.${u.unit}`, { force: u.force, result: u.result }])));
    }
    return all;
}

/** The season percentile and P(T' ≥ T) of each side, counted over every combination of every fight's throws. */
async function bruteForce(fights: readonly Fight[]): Promise<Map<string, { percentile: number, atLeastAsLucky: number, mean: number }>> {
    const outcomes = await written(fights);
    const writtenModel = await modelOfText(text(fights, fights.map(f => f.written), outcomes));
    // Per fight: each throw's sum of counted percentiles per side, and the written one's.
    const perFight: Array<Array<Map<string, number>>> = [];
    const observed = new Map<string, { t: number, n: number }>();
    for (let i = 0; i < fights.length; i++) {
        const throws = await throwsOf(fights, outcomes, i);
        const pctOf = (id: string, result: string) => {
            const worse = throws.filter(t => rank(t.get(id)!.result) > rank(result)).length;
            const same = throws.filter(t => rank(t.get(id)!.result) === rank(result)).length;
            return (worse + same / 2) / throws.length;
        };
        perFight.push(throws.map(t => {
            const sums = new Map<string, number>();
            for (const [id, u] of t) sums.set(u.force, (sums.get(u.force) ?? 0) + pctOf(id, u.result));
            return sums;
        }));
        for (const line of writtenModel.actions[i].node.outcome!.lines) {
            const id = line.unit.$cstNode!.text;
            const force = id.split('.')[0];
            const o = observed.get(force) ?? { t: 0, n: 0 };
            o.t += pctOf(id, line.result); o.n++;
            observed.set(force, o);
        }
    }
    const out = new Map<string, { percentile: number, atLeastAsLucky: number, mean: number }>();
    for (const [force, o] of observed) {
        let below = 0, tie = 0, total = 0;
        const walk = (i: number, t: number, p: number) => {
            if (i === perFight.length) {
                total += p;
                if (t < o.t - 1e-9) below += p; else if (t <= o.t + 1e-9) tie += p;
                return;
            }
            const q = p / perFight[i].length;
            for (const sums of perFight[i]) walk(i + 1, t + (sums.get(force) ?? 0), q);
        };
        walk(0, 0, 1);
        out.set(force, { percentile: (below + tie / 2) / total, atLeastAsLucky: 1 - below / total, mean: o.t / o.n });
    }
    return out;
}

const CAMPAIGN: Fight[] = [
    { name: 'Ford', setup: '    French.Line attacks Austrian.Line\n', dice: [['French foot', 1], ['Austrian foot', 1]], written: [5, 2] },
    { name: 'Hill', setup: '    French.Old attacks Austrian.New\n', dice: [['French foot', 1], ['Austrian foot', 1]], written: [1, 4] },
    { name: 'Bridge', setup: '    French.Line, French.Old attacks Austrian.New\n', dice: [['French foot', 2], ['Austrian foot', 1]], written: [3, 2, 6] }
];

async function writtenCampaign(fights: readonly Fight[]): Promise<ScenarioModel> {
    return modelOfText(text(fights, fights.map(f => f.written), await written(fights)));
}

function sideOf(luck: SeasonLuck | { problem: string }, force: string) {
    if ('problem' in luck) throw new Error(luck.problem);
    return luck.sides.find(s => s.force === force)!;
}

describe('luck over a season', () => {
    it('the exact season percentile equals brute force over every throw of every written action', async () => {
        for (const fights of [CAMPAIGN.slice(0, 2), CAMPAIGN]) {
            const expected = await bruteForce(fights);
            const model = await writtenCampaign(fights);
            const luck = seasonLuck(model, model.actions, { method: 'exact' });
            if ('problem' in luck) throw new Error(luck.problem);
            expect(luck.method).toBe('exact');
            expect(luck.actions).toBe(fights.length);
            for (const [force, e] of expected) {
                const s = sideOf(luck, force);
                expect(Math.abs(s.percentile! - e.percentile)).toBeLessThan(1e-12);
                expect(Math.abs(s.atLeastAsLucky! - e.atLeastAsLucky)).toBeLessThan(1e-12);
                expect(s.meanPercentile).toBeCloseTo(e.mean, 12);
                expect(s.se).toBeUndefined();
            }
        }
    }, 120_000);

    it('Monte Carlo agrees with the exact figures within four standard errors, and the same seed gives the same figures', async () => {
        const scrud = await writtenCampaign(CAMPAIGN);
        const ancients = modelOf((await parse(readFileSync('examples/campaign.battle', 'utf8'))).parseResult.value);
        // The Ancients example's first two turns: one unit a side each, whose law is its odds.
        for (const [model, actions] of [[scrud, scrud.actions], [ancients, ancients.actions.slice(0, 2)]] as const) {
            const exact = seasonLuck(model, actions, { method: 'exact' });
            const sampled = seasonLuck(model, actions, { method: 'monte-carlo', samples: 1500, seed: 7 });
            if ('problem' in exact || 'problem' in sampled) throw new Error('no season luck');
            expect(sampled.method).toBe('monte-carlo');
            expect(sampled.sides.some(s => s.units > 0)).toBe(true);
            for (const s of sampled.sides.filter(x => x.units > 0)) {
                const e = sideOf(exact, s.force);
                expect(s.se!.percentile).toBeGreaterThan(0);
                expect(Math.abs(s.percentile! - e.percentile!)).toBeLessThanOrEqual(4 * s.se!.percentile);
                expect(Math.abs(s.atLeastAsLucky! - e.atLeastAsLucky!)).toBeLessThanOrEqual(4 * Math.max(s.se!.atLeastAsLucky, 1 / 1500));
                // The observed statistic is not sampled: it is the same figure either way.
                expect(s.meanPercentile).toBeCloseTo(e.meanPercentile!, 12);
            }
            expect(seasonLuck(model, actions, { method: 'monte-carlo', samples: 1500, seed: 7 })).toEqual(sampled);
            expect(seasonLuck(model, actions, { method: 'monte-carlo', samples: 1500, seed: 8 })).not.toEqual(sampled);
        }
    }, 120_000);

    it('the quick figure of the editor: exact while cheap, else drawn from each side\'s law, agreeing with brute force within four standard errors', async () => {
        const expected = await bruteForce(CAMPAIGN);
        const model = await writtenCampaign(CAMPAIGN);
        const exact = quickSeasonLuck(model, model.actions);
        if ('problem' in exact) throw new Error(exact.problem);
        expect(exact.method).toBe('exact');
        // No room for the exact path: every action's law is known, so nothing is thrown again and all 2000 seasons are drawn.
        const drawn = quickSeasonLuck(model, model.actions, { maxWork: 0, throws: 0 });
        if ('problem' in drawn) throw new Error(drawn.problem);
        expect([drawn.method, drawn.samples, drawn.seed]).toEqual(['monte-carlo', 2000, 1]);
        expect(drawn.why).toMatch(/more than 0 sums/);
        for (const [force, e] of expected) {
            const s = sideOf(drawn, force);
            expect(Math.abs(s.percentile! - e.percentile)).toBeLessThanOrEqual(4 * s.se!.percentile);
            expect(Math.abs(s.atLeastAsLucky! - e.atLeastAsLucky)).toBeLessThanOrEqual(4 * Math.max(s.se!.atLeastAsLucky, 1 / 2000));
            expect(Math.abs(sideOf(exact, force).percentile! - e.percentile)).toBeLessThan(1e-12);
        }
        expect(quickSeasonLuck(model, model.actions, { maxWork: 0, throws: 0 })).toEqual(drawn);
    }, 120_000);

    it('the quick figure throws again only the actions without a law, within its budget of throws, or gives none', async () => {
        const ancients = modelOf((await parse(readFileSync('examples/campaign.battle', 'utf8'))).parseResult.value);
        const full = seasonLuck(ancients, ancients.actions);
        const quick = quickSeasonLuck(ancients, ancients.actions, { throws: 400 });
        if ('problem' in full || 'problem' in quick) throw new Error('no season luck');
        // Camp alone is thrown again (its joint law does not tell a unit's results apart): 400 throws, 400 seasons.
        expect([quick.method, quick.samples]).toEqual(['monte-carlo', 400]);
        for (const s of quick.sides) {
            const f = sideOf(full, s.force);
            expect(Math.abs(s.percentile! - f.percentile!)).toBeLessThanOrEqual(4 * Math.hypot(s.se!.percentile, f.se!.percentile));
        }
        expect(quickSeasonLuck(ancients, ancients.actions, { throws: 50 })).toEqual({ problem: '1 action would be thrown again: more than 50 throws for 100 seasons' });
    }, 120_000);

    it('samples when the exact law grows past its bound, and says why', async () => {
        const model = await writtenCampaign(CAMPAIGN);
        const luck = seasonLuck(model, model.actions, { maxPoints: 2, samples: 200 });
        if ('problem' in luck) throw new Error(luck.problem);
        expect(luck.method).toBe('monte-carlo');
        expect(luck.why).toMatch(/takes more than 2 values/);
        expect(seasonHeading(luck)).toMatch(/^Luck over the season \(Monte Carlo over 200 seasons from seed 1/);
        expect(seasonLuck(model, model.actions, { method: 'exact', maxPoints: 2 })).toEqual({ problem: expect.stringMatching(/^no exact season luck: /) });
    });

    it('a campaign with no written outcome has no figure, not 50%', async () => {
        const model = await modelOfText(text(CAMPAIGN, CAMPAIGN.map(f => f.written), []));
        const luck = seasonLuck(model, model.actions);
        expect(luck).toEqual({ method: 'none', actions: 0, sides: ['French', 'Austrian'].map(force => ({ force, units: 0, actions: 0, meanPercentile: null, percentile: null, atLeastAsLucky: null })) });
        expect(seasonHeading(luck)).toBe('Luck over the season: no written outcome has odds to measure luck against.');
    });

    it('a side with no written result of its own gets no figure while the other side has one', async () => {
        const model = await writtenCampaign(CAMPAIGN.slice(0, 1));
        const luck = seasonLuck(model, model.actions);
        if ('problem' in luck) throw new Error(luck.problem);
        // Only the Ford is written; both sides fought in it.
        expect(luck.sides.map(s => [s.force, s.units, s.actions])).toEqual([['French', 1, 1], ['Austrian', 1, 1]]);
        // One fight: the season percentile of a side of one unit is that unit's own percentile.
        expect(luck.sides[0].percentile).toBeCloseTo(luck.sides[0].meanPercentile!, 12);
    });
});
