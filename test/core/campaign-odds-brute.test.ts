/**
 * The odds of a campaign against brute force: every die of every action enumerated, each throw written
 * into the file as entered dice (`dice UNIT LABEL values`), the file read again so that the campaign
 * timeline settles each action from its entered dice through the rule set's own resolver, and the end
 * states tallied with each throw's chance. Nothing of src/core/campaign-odds.ts is used: the throws
 * come from the action's dice plan, walked die by die. Throws that leave the units in the same state
 * are followed once (their chances added), which changes no sum; so are throws that the rule set's own
 * engine resolves alike, where a chain has too many throws to read the file again for each.
 */
import { describe, expect, it } from 'vitest';
import { parse } from '../support/services.js';
import { modelOf } from '../../src/core/model-cache.js';
import { campaignOdds, type CampaignOddsReport } from '../../src/core/campaign-odds.js';
import { participants, stateAtEnd, unitStateAt } from '../../src/core/campaign-state.js';
import { faceDistribution } from '../../src/core/dice.js';
import { walkDicePlan } from '../../src/core/dice-plan.js';
import type { DiceRequest, DiceSource } from '../../src/core/dice-source.js';
import type { ScenarioModel } from '../../src/core/scenario.js';
import { effectiveStats } from '../../src/core/campaign-state.js';
import { buildAncientsInput } from '../../src/rulesets/ancients/ancients-reader.js';
import { resolveAncients } from '../../src/rulesets/ancients/engine/ancients-engine.js';

async function modelFor(text: string): Promise<ScenarioModel> {
    return modelOf((await parse(text)).parseResult.value);
}

/** Every throw of the action's dice plan, with its chance: a depth-first walk over a prefix of faces. */
type Taken = Array<{ request: DiceRequest, values: readonly number[] }>;

/** What a throw of the action comes to, as a key: throws with the same key leave the same outcome. */
type ThrowKey = (model: ScenarioModel, actionIndex: number, taken: Taken) => string;

function throwsOf(model: ScenarioModel, actionIndex: number): Array<{ p: number, taken: Taken }> {
    const plan = model.ruleset!.dicePlan!(model, model.actions[actionIndex])!;
    const out: Array<{ p: number, taken: Array<{ request: DiceRequest, values: readonly number[] }> }> = [];
    const walk = (prefix: number[], p: number) => {
        let used = 0;
        let more: DiceRequest | undefined;
        const source: DiceSource = {
            taken: [],
            take(request) {
                return Array.from({ length: request.count }, () => {
                    if (used < prefix.length) return prefix[used++];
                    more ??= request;
                    return request.die.faces[0];
                });
            }
        };
        const taken = walkDicePlan(plan, source);
        if (more) { for (const { face, p: q } of faceDistribution(more.die)) walk([...prefix, face], p * q); return; }
        out.push({ p, taken });
    };
    walk([], 1);
    return out;
}

/** The dice lines of one throw: one line per unit and label, its values in the order taken. */
function diceLines(taken: ReadonlyArray<{ request: DiceRequest, values: readonly number[] }>): string {
    const lines = new Map<string, number[]>();
    for (const t of taken) {
        const key = `${t.request.who[0]} ${t.request.label}`;
        lines.set(key, [...(lines.get(key) ?? []), ...t.values]);
    }
    return [...lines].filter(([, v]) => v.length > 0).map(([k, v]) => `    dice ${k} ${v.join(' ')}`).join('\n');
}

/** The throws with the same key as one, the first standing for all, their chances added. */
function collapsed(throws: ReadonlyArray<{ p: number, taken: Taken }>, key: (taken: Taken) => string): Array<{ p: number, taken: Taken }> {
    const byKey = new Map<string, { p: number, taken: Taken }>();
    for (const t of throws) {
        const k = key(t.taken);
        const seen = byKey.get(k);
        if (seen) seen.p += t.p; else byKey.set(k, { ...t });
    }
    return [...byKey.values()];
}

/** An Ancients melee thrown with these dice through the engine: each unit's result, whether it tested, the tokens it gained (A7, A8). */
const ancientsThrow: ThrowKey = (model, i, taken) => {
    const action = model.actions[i];
    const reading = buildAncientsInput(model, action.node, u => effectiveStats(model, action.node, u));
    if ('problem' in reading) throw new Error(reading.problem);
    const queues = new Map<string, number[]>();
    for (const t of taken) queues.set(`${t.request.label} ${t.request.who[0]}`, [...(queues.get(`${t.request.label} ${t.request.who[0]}`) ?? []), ...t.values]);
    const source = { roll: (kind: string, unit: string, count: number) => queues.get(`${kind} ${unit}`)!.splice(0, count) };
    const o = resolveAncients(reading.input, source, reading.tables);
    return JSON.stringify(o.units.map(u => [u.id, u.result, u.tested, u.tokensGained]));
};

interface Tally {
    status: Map<string, Record<string, number>>;
    counters: Map<string, Map<string, number[]>>;
    atLeastOne: Map<string, Record<string, number>>;
}

/**
 * Brute force over a chain: `template` holds `{{k}}` in the k-th action's block, where its dice go.
 * An action one of whose fighting units is out of the fight gets no dice (it is not fought).
 */
async function bruteForce(template: (dice: readonly string[]) => string, actions: number, columns: readonly string[], alike?: ThrowKey): Promise<Tally> {
    let worlds: Array<{ p: number, dice: string[] }> = [{ p: 1, dice: [] }];
    for (let i = 0; i < actions; i++) {
        const byState = new Map<string, { p: number, dice: string[] }>();
        for (const w of worlds) {
            const model = await modelFor(template([...w.dice, ...Array(actions - w.dice.length).fill('')]));
            const action = model.actions[i];
            const key = JSON.stringify([...model.forces.values()].flatMap(f => f.units.map(u => unitStateAt(model, action, u)))
                .map(s => s && [s.status, s.counters, s.formation]));
            const seen = byState.get(key);
            if (seen) seen.p += w.p; else byState.set(key, { ...w });
        }
        const next: Array<{ p: number, dice: string[] }> = [];
        for (const w of byState.values()) {
            const model = await modelFor(template([...w.dice, ...Array(actions - w.dice.length).fill('')]));
            const action = model.actions[i];
            const out = participants(model, action.node).some(p => p.role === 'fights' && unitStateAt(model, action, p.unit)?.status !== 'ready');
            if (out) { next.push({ p: w.p, dice: [...w.dice, ''] }); continue; }
            for (const t of alike ? collapsed(throwsOf(model, i), t => alike(model, i, t)) : throwsOf(model, i)) next.push({ p: w.p * t.p, dice: [...w.dice, diceLines(t.taken)] });
        }
        worlds = next;
    }
    const tally: Tally = { status: new Map(), counters: new Map(), atLeastOne: new Map() };
    for (const w of worlds) {
        const model = await modelFor(template(w.dice));
        const lost = new Map<string, Set<string>>();
        for (const [id, s] of stateAtEnd(model)) {
            const status = tally.status.get(id) ?? { ready: 0, routed: 0, destroyed: 0, fled: 0 };
            status[s.status] += w.p;
            tally.status.set(id, status);
            const counters = tally.counters.get(id) ?? new Map(columns.map(c => [c, [] as number[]]));
            for (const c of columns) {
                const v = c === 'dp' || c === 'casualties' || c === 'tokens' ? s.counters[c] as number : 0;
                const law = counters.get(c)!;
                while (law.length <= v) law.push(0);
                law[v] += w.p;
            }
            tally.counters.set(id, counters);
            const force = id.slice(0, id.indexOf('.'));
            if (s.status !== 'ready') lost.set(force, new Set([...(lost.get(force) ?? []), s.status]));
        }
        for (const [force, kinds] of lost) {
            const one = tally.atLeastOne.get(force) ?? {};
            for (const k of kinds) one[k] = (one[k] ?? 0) + w.p;
            tally.atLeastOne.set(force, one);
        }
    }
    return tally;
}

function expectSame(report: CampaignOddsReport, tally: Tally, columns: readonly string[]): void {
    expect(report.method).toBe('exact');
    // Not a campaign whose end is sure: some unit may end out of the fight, and some action may not be fought.
    expect(report.units.some(u => u.status.ready > 0 && u.status.ready < 1)).toBe(true);
    expect(report.actions.some(a => a.fought < 1)).toBe(true);
    for (const u of report.units) {
        const status = tally.status.get(u.id)!;
        for (const s of ['ready', 'routed', 'destroyed', 'fled']) expect(u.status[s], `${u.id} ${s}`).toBeCloseTo(status[s], 12);
        for (const c of columns) {
            const law = tally.counters.get(u.id)!.get(c)!;
            const mine = u.counters[c].law;
            for (let k = 0; k < Math.max(law.length, mine.length); k++) expect(mine[k] ?? 0, `${u.id} ${c} ${k}`).toBeCloseTo(law[k] ?? 0, 12);
        }
    }
    for (const s of report.sides) {
        for (const [k, p] of Object.entries(s.atLeastOne)) expect(p, `${s.force} ${k}`).toBeCloseTo(tally.atLeastOne.get(s.force)?.[k] ?? 0, 12);
    }
}

async function exact(template: (dice: readonly string[]) => string, actions: number): Promise<CampaignOddsReport> {
    const report = campaignOdds(await modelFor(template(Array(actions).fill(''))), { method: 'exact' });
    if ('problem' in report) throw new Error(report.problem);
    return report;
}

describe('campaign odds equal brute force over every die of every action', () => {
    it('SCRUD: a routed unit cannot fight again, two and three engagements', async () => {
        const chain = (d: readonly string[]) => `scenario "Chain"
rules scrud
grade Veteran +1
grade Raw -1
force A {
  unit X foot Veteran
  unit W foot
}
force B {
  unit Y foot Raw
  unit Z foot
}
turn 1 {
  engagement E1 {
    A.X attacks B.Y
${d[0]}
  }
}
turn 2 {
  engagement E2 {
    A.X, A.W attacks B.Z
${d[1]}
  }
}
turn 3 {
  engagement E3 {
    B.Y attacks A.W
${d[2] ?? ''}
  }
}
`;
        expectSame(await exact(chain, 3), await bruteForce(chain, 3, []), []);
    }, 120_000);

    it('Loose Files: DPs and casualties of a combat and a fire change the next combat', async () => {
        const chain = (d: readonly string[]) => `scenario "Chain"
rules loose-files
force British {
  unit Guards infantry { class 2, stands 4 }
}
force American {
  unit Line infantry { class 4, stands 4 }
  unit Battery artillery { class 3, stands 2, guns light }
}
turn 1 {
  engagement Assault {
    American.Line attacks British.Guards
${d[0]}
  }
}
turn 2 {
  fire Cannonade {
    American.Battery fires at British.Guards: range 10
${d[1]}
  }
}
turn 3 {
  engagement Again {
    British.Guards attacks American.Line
${d[2]}
  }
}
`;
        expectSame(await exact(chain, 3), await bruteForce(chain, 3, ['dp', 'casualties']), ['dp', 'casualties']);
    }, 120_000);

    // Small units (one die, a threshold of one hit, a 1d6 test) so that every fight can test and destroy.
    const ancientsChain = (fights: ReadonlyArray<1 | 2>) => (d: readonly string[]) => `scenario "Chain"
rules ancients
house {
  pool small 1
  threshold small 1
  break d6 1
}
grade Levy { size small, weight light, formation formed, skill 1, leadership 4, move 4 }
force A {
  unit X infantry Levy
  unit W infantry Levy
}
force B {
  unit Y infantry Levy
}
${fights.map((f, i) => (f === 1 ? `turn 1 {\n  engagement E1 {\n    A.X attacks B.Y\n${d[i]}\n  }\n}` : `turn 2 {\n  engagement E2 {\n    B.Y attacks A.W\n${d[i]}\n  }\n}`)).join('\n')}
`;

    it('Ancients: the tokens and the break test of a first fight change the second (A7, A8)', async () => {
        const chain = ancientsChain([1, 2]);
        const report = await exact(chain, 2);
        expectSame(report, await bruteForce(chain, 2, ['tokens'], ancientsThrow), ['tokens']);
        // The Boii of the example in small: Y carries its token and its test into the second fight.
        const y = report.units.find(u => u.id === 'B.Y')!;
        expect(y.counters.tokens.law[2]).toBeGreaterThan(0.01);
        // Were the state dropped, Y would meet W fresh: destroyed in the first fight, or else fresh in the second.
        const first = (await exact(ancientsChain([1]), 1)).units.find(u => u.id === 'B.Y')!.status.destroyed;
        const fresh = (await exact(ancientsChain([2]), 1)).units.find(u => u.id === 'B.Y')!.status.destroyed;
        expect(Math.abs(y.status.destroyed - (first + (1 - first) * fresh))).toBeGreaterThan(0.01);
    }, 120_000);
});
