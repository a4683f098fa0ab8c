/**
 * A campaign's odds carry each world's states from one action to the next when nothing stands between
 * them (`quietAfter`), and throw a sampled action through the rule set's sampler where it has one. Both
 * must give what reading every world's timeline and resolving every seed gives: the same campaign with a
 * `state … note` line (which changes no state) between every two actions is read world by world, and
 * its figures must be the same to the last digit; the SCRUD sampler's lines must be `resolve`'s.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from '../support/services.js';
import { modelOf } from '../../src/core/model-cache.js';
import { actionsThrough, campaignOdds } from '../../src/core/campaign-odds.js';
import { quietAfter } from '../../src/core/campaign-state.js';
import { isUnresolvable } from '../../src/core/resolve.js';
import type { ScenarioModel } from '../../src/core/scenario.js';
import { scrudSampler } from '../../src/rulesets/scrud/scrud-campaign-odds.js';
import { resolveScrudAction } from '../../src/rulesets/scrud/scrud-resolve.js';

async function modelFor(text: string): Promise<ScenarioModel> {
    return modelOf((await parse(text)).parseResult.value);
}

/** A SCRUD campaign of `n` engagements, one a turn, five units a side; `between(e)` is written after engagement e in its turn. */
function campaign(n: number, between: (e: number) => string[] = () => []): string {
    const lines = ['scenario "Carried"', 'rules scrud', 'grade Veteran +1', 'grade Raw -1', ''];
    for (const [force, grade] of [['A', 'Veteran'], ['B', 'Raw']]) lines.push(`force ${force} {`, ...Array.from({ length: 5 }, (_, i) => `  unit U${i} foot ${i % 2 ? grade : ''}`.trimEnd()), '}', '');
    for (let e = 0; e < n; e++) lines.push(`turn ${e + 1} {`, `  engagement E${e} {`, `    A.U${e % 5} attacks B.U${(e * 3) % 5}`, '  }', ...between(e), '}', '');
    return lines.join('\n');
}

/** A note on a unit: a `state` line that changes no state, but stands between two actions. */
const note = (e: number) => [`  state A.U${(e + 2) % 5}: note "seen at dusk"`];

describe('quietAfter', () => {
    it('says which actions have nothing between them and the next, or the end asked about', async () => {
        const model = await modelFor(campaign(4, e => (e === 1 ? note(e) : [])));
        const span = actionsThrough(model, undefined);
        if ('problem' in span) throw new Error(span.problem);
        // The note stands after E1 (in turn 2): E1 → E2 is not quiet; nothing follows E3.
        expect(quietAfter(model, span.actions, undefined)).toEqual([true, false, true, true]);
        const through2 = actionsThrough(model, '2');
        if ('problem' in through2) throw new Error(through2.problem);
        // Through turn 2, the note stands between E1 and the end of the turn.
        expect(quietAfter(model, through2.actions, through2.turn)).toEqual([true, false]);
        const through1 = actionsThrough(model, '1');
        if ('problem' in through1) throw new Error(through1.problem);
        expect(quietAfter(model, through1.actions, through1.turn)).toEqual([true]);
    });
});

describe('states carried from action to action', () => {
    const ways = [
        { method: 'exact' as const },
        { method: 'monte-carlo' as const, samples: 400, seed: 3 },
        { method: 'auto' as const, maxWorlds: 40 },
        { method: 'exact' as const, through: '4' },
        { method: 'monte-carlo' as const, samples: 300, seed: 11, through: '5' }
    ];
    for (const options of ways) {
        it(`give what every world's timeline gives (${JSON.stringify(options)})`, async () => {
            const quiet = await modelFor(campaign(7));
            const noted = await modelFor(campaign(7, note));
            const a = campaignOdds(quiet, options), b = campaignOdds(noted, options);
            expect(isUnresolvable(a)).toBe(false);
            expect(JSON.stringify(a)).toBe(JSON.stringify(b));
        });
    }

    it('give up the exact path at the same action, and sample the same figures', async () => {
        const options = { maxWorlds: 12, samples: 300 };
        const a = campaignOdds(await modelFor(campaign(9)), options), b = campaignOdds(await modelFor(campaign(9, note)), options);
        if (isUnresolvable(a) || isUnresolvable(b)) throw new Error('no odds');
        expect(a.method).toBe('monte-carlo');
        expect(a.notes[0]).toMatch(/^Sampled: more than 12 joint states of the units before engagement E\d\./);
        expect(JSON.stringify(a)).toBe(JSON.stringify(b));
    });
});

describe('the SCRUD sampler', () => {
    const root = path.join(__dirname, '..', '..');
    for (const name of ['scrud-seed', 'scrud-ridge', 'house-rules-scrud', 'scrud-large']) {
        it(`writes resolve's lines from every seed (examples/${name}.battle)`, async () => {
            const model = await modelFor(fs.readFileSync(path.join(root, 'examples', `${name}.battle`), 'utf8'));
            let compared = 0;
            for (const action of model.actions.filter(a => a.node.kind === 'engagement')) {
                const sampler = scrudSampler(model, action);
                if (!sampler) continue;
                for (let seed = 0; seed < 2000; seed += 37) {
                    const r = resolveScrudAction(model, action, { kind: 'seed', seed });
                    expect(sampler(seed)).toEqual(isUnresolvable(r) ? r : r.lines);
                    compared++;
                }
            }
            expect(compared).toBeGreaterThan(0);
        });
    }

    it('leaves an engagement under a pursuit rule to resolve', async () => {
        const text = (pursuit: string[]) => [
            'scenario "Pursuit"', 'rules scrud', 'force A {', '  unit H horse', '}', 'force B {', '  unit F horse', '}',
            'engagement E {', '  A attacks B', ...pursuit, '}'
        ].join('\n');
        const plain = await modelFor(text([]));
        expect(scrudSampler(plain, plain.actions[0])).toBeDefined();
        const pursued = await modelFor(text(['  A.H: pursuit']));
        expect(scrudSampler(pursued, pursued.actions[0])).toBeUndefined();
    });
});
