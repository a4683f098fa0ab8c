import { describe, expect, it } from 'vitest';
import type { ScenarioModel } from '../../src/core/scenario.js';
import type { OutcomeLine } from '../../src/language/generated/ast.js';
import { modelOf } from '../../src/core/model-cache.js';
import { effectiveStats, stateAfterTurn, stateAt, stateAtEnd, unitStateAfter, unitStateAt } from '../../src/core/campaign-state.js';
import { eachRole, roles } from '../../src/core/action-roles.js';
import { stateHoverMarkdown } from '../../src/language/lsp/state-hover.js';
import { causeText } from '../../src/core/status-words.js';
import type { UnitCampaignState } from '../../src/core/unit-campaign-state.js';
import { parse } from '../support/services.js';
import * as fs from 'node:fs';
import { AstUtils } from 'langium';


async function model(text: string): Promise<ScenarioModel> {
    const doc = await parse(text);
    expect(doc.parseResult.parserErrors.map(e => e.message)).toEqual([]);
    return modelOf(doc.parseResult.value);
}

const action = (m: ScenarioModel, name: string) => m.actions.find(a => a.node.name === name)!;
const unit = (m: ScenarioModel, id: string) => [...m.forces.values()].flatMap(f => f.units).find(u => u.id === id)!;

describe('campaign state: SCRUD results', () => {
    const text = `
rules scrud
force A { unit Foot foot x2 unit Horse horse }
force B { unit Foot foot x2 unit Horse horse }
turn 1 "Dawn" {
  engagement Ridge {
    A attacks B
    outcome seed 1 check "x" {
      summary "s"
      A.Foot#1: won, die 6, mod 0, adjusted 6 vs B.Foot#1
      B.Foot#1: rout, die 1, mod 0, adjusted 1 vs A.Foot#1
      A.Foot#2: retreat, die 2, mod 0, adjusted 2 vs B.Foot#2
      B.Foot#2: won, die 5, mod 0, adjusted 5 vs A.Foot#2
      A.Horse: stand-off, die 3, mod 0, adjusted 3 vs B.Horse
      B.Horse: stand-off, die 3, mod 0, adjusted 3 vs A.Horse
    }
  }
}
turn 2 "Noon" {
  engagement River { A.Horse attacks B.Horse }
}`;

    it('reads each result label, and a rout leaves the unit routed', async () => {
        const m = await model(text);
        const before = stateAt(m, action(m, 'Ridge'));
        expect([...before.values()].every(s => s.status === 'ready' && s.lastResult === undefined)).toBe(true);
        const after = stateAt(m, action(m, 'River'));
        expect(flat(after.get('B.Foot#1'))).toMatchObject({ status: 'routed', statusSource: 'routed in engagement Ridge (turn 1)', lastResult: { result: 'rout', action: 'Ridge', turn: '1' } });
        expect(after.get('A.Foot#2')).toMatchObject({ status: 'ready', lastResult: { result: 'retreat' } });
        expect(after.get('A.Foot#1')).toMatchObject({ status: 'ready', lastResult: { result: 'won' } });
        expect(after.get('A.Horse')!.lastResult!.result).toBe('stand-off');
        // The action sees the state before its own outcome; after it, the outcome's.
        expect(unitStateAt(m, action(m, 'Ridge'), 'B.Foot#1')!.status).toBe('ready');
        expect(unitStateAfter(m, action(m, 'Ridge'), 'B.Foot#1')!.status).toBe('routed');
        expect(stateAfterTurn(m, '1')!.states.get('B.Foot#1')!.status).toBe('routed');
        expect(stateAfterTurn(m, 'Noon')!.states.get('B.Foot#1')!.status).toBe('routed');
        expect(stateAfterTurn(m, '3')).toBeUndefined();
    });

    it('shows the state in a hover', async () => {
        const m = await model(text);
        const md = stateHoverMarkdown(m, unit(m, 'B.Foot#1'), action(m, 'River'));
        expect(md).toContain('Campaign state before **River**: **routed** — routed in engagement Ridge (turn 1)');
        expect(md).toContain('last result rout (Ridge, turn 1)');
    });
});

describe('campaign state: Ancients tokens, break tests, destroyed', () => {
    const text = `
rules ancients
force G { unit Hoplites infantry { size large, tokens 1 } unit Peltasts infantry { size small } }
force P { unit Immortals infantry { size large } }
engagement One {
  G attacks P
  outcome seed 1 check "x" {
    summary "s"
    G.Hoplites: holds, hits 8, tokens 2, tested vs P.Immortals
    G.Peltasts: destroyed, hits 3, tested vs P.Immortals
    P.Immortals: untested, hits 1 vs G.Hoplites
  }
}
engagement Two { G.Hoplites attacks P.Immortals }`;

    it('adds tokens to the declared ones, records the break test, removes the destroyed', async () => {
        const m = await model(text);
        expect(flat(unitStateAt(m, action(m, 'One'), 'G.Hoplites'))).toMatchObject({ tokens: 1, tested: false });
        const two = stateAt(m, action(m, 'Two'));
        expect(flat(two.get('G.Hoplites'))).toMatchObject({ tokens: 3, tested: true, status: 'ready' });
        expect(flat(two.get('G.Peltasts'))).toMatchObject({ status: 'destroyed', tested: true });
        expect(flat(two.get('P.Immortals'))).toMatchObject({ tokens: 0, tested: false, lastResult: { result: 'untested' } });
    });

    it('lays the state over the declared stats for the rules to read', async () => {
        const m = await model(text);
        const first = effectiveStats(m, action(m, 'One'), unit(m, 'G.Hoplites'));
        expect(first.get('tokens')).toBe(1);
        expect(first.has('tested')).toBe(false);
        const second = effectiveStats(m, action(m, 'Two'), unit(m, 'G.Hoplites'));
        expect(second.get('tokens')).toBe(3);
        expect(second.get('tested')).toBe(true);
        expect(second.get('size')).toBe('large');
        // Declared stats are not changed by reading through the state.
        expect(unit(m, 'G.Hoplites').stats.get('tokens')).toBe(1);
        expect(stateHoverMarkdown(m, unit(m, 'G.Hoplites'))).toContain('damage tokens 3 · has made a break test');
    });
});

describe('campaign state: Loose Files DPs, casualties, deserters, flight', () => {
    const text = `
rules loose-files
force Br { unit Guards infantry { class 1, stands 4, dp 1 } unit Militia infantry { class 4, stands 6 } }
force Am { unit Line infantry { class 2, stands 4 } }
turn 1 {
  engagement Fight {
    Br.Guards attacks Am.Line
    outcome seed 1 check "x" {
      summary "s"
      Br.Guards: driven-back, dp 2, casualties 1 vs Am.Line
      Am.Line: successful, dp 1 vs Br.Guards
    }
  }
  morale Panic {
    Br.Militia sees Br.Guards
    outcome seed 1 check "x" {
      summary "s"
      Br.Militia: shaken, dp 2, deserted 1
    }
  }
}
turn 2 {
  command Rally {
    Br.Guards: rallied
    outcome seed 1 check "x" {
      summary "s"
      Br.Guards: rallied, dp -2, cp 4
    }
  }
  engagement Again {
    Br.Militia attacks Am.Line
    outcome seed 1 check "x" {
      summary "s"
      Br.Militia: routed, dp 4, casualties 2, fled vs Am.Line
      Am.Line: easy-victory, dp 1 vs Br.Militia
    }
  }
  engagement Last { Br.Guards attacks Am.Line }
}`;

    it('adds DPs (negative removes them), casualties, deserted stands, CP, and flight', async () => {
        const m = await model(text);
        const s = stateAt(m, action(m, 'Last'));
        expect(flat(s.get('Br.Guards'))).toMatchObject({ dp: 1, casualties: 1, standsLost: 0, cp: 4, status: 'ready', lastResult: { result: 'rallied' } });
        // The rally removed DPs from a unit that was never out of the fight: its status is untouched.
        expect(s.get('Br.Guards')!.statusCause).toBeUndefined();
        expect(flat(s.get('Br.Militia'))).toMatchObject({ dp: 6, casualties: 2, standsLost: 1, status: 'fled', statusSource: 'fled in engagement Again (turn 2)' });
        expect(flat(s.get('Am.Line'))).toMatchObject({ dp: 2, casualties: 0 });
        const g = effectiveStats(m, action(m, 'Again'), unit(m, 'Br.Militia'));
        expect(g.get('stands')).toBe(5);
        expect(g.get('dp')).toBe(2);
        expect(effectiveStats(m, action(m, 'Fight'), unit(m, 'Br.Guards')).get('dp')).toBe(1);
        expect(effectiveStats(m, action(m, 'Rally'), unit(m, 'Br.Guards')).get('dp')).toBe(3);
        expect(stateAtEnd(m).get('Am.Line')!.counters.dp).toBe(2);
        // A Loose Files casualty is one stand (L1.2): 6 − 1 deserted − 2 casualties.
        expect(stateHoverMarkdown(m, unit(m, 'Br.Militia'))).toContain('DP 6 · casualties 2 · stands 3 of 6');
    });
});

describe('campaign state: hand-set state and rulings', () => {
    const text = `
rules loose-files
force Br { unit Guards infantry { stands 4 } }
force Am { unit Line infantry }
state Br.Guards: dp 2, casualties 1, note "came from a forced march"
engagement One {
  Br.Guards attacks Am.Line
  outcome seed 1 check "x" {
    summary "s"
    Br.Guards: routed, dp 4, casualties 2 vs Am.Line
    Am.Line: easy-victory, dp 1 vs Br.Guards
  }
}
ruling Br.Guards: rallied, dp 3, stands 3, reason "IMP: the colonel's example"
engagement Two { Br.Guards attacks Am.Line }`;

    it('sets values outright, rallies, and keeps the reasons', async () => {
        const m = await model(text);
        expect(flat(unitStateAt(m, action(m, 'One'), 'Br.Guards'))).toMatchObject({ dp: 2, casualties: 1, notes: ['State: came from a forced march'] });
        expect(flat(unitStateAfter(m, action(m, 'One'), 'Br.Guards'))).toMatchObject({ dp: 6, casualties: 3, status: 'routed' });
        const two = unitStateAt(m, action(m, 'Two'), 'Br.Guards')!;
        expect(flat(two)).toMatchObject({ dp: 3, casualties: 3, standsLost: 1, status: 'ready', statusSource: 'rallied by ruling' });
        expect(two.notes).toEqual(['State: came from a forced march', "Ruling: IMP: the colonel's example"]);
        expect(effectiveStats(m, action(m, 'Two'), unit(m, 'Br.Guards')).get('stands')).toBe(3);
    });
});

describe('campaign state: an officer\'s rally of a routed unit', () => {
    it('brings the unit back into the fight', async () => {
        const m = await model(`
rules loose-files
force Br { unit Col officer unit Guards infantry }
force Am { unit Line infantry }
engagement One {
  Br.Guards attacks Am.Line
  outcome seed 1 check "x" { summary "s" Br.Guards: routed, dp 4 vs Am.Line Am.Line: easy-victory vs Br.Guards }
}
command Steady {
  Br.Col rallies Br.Guards
  outcome seed 1 check "x" { summary "s" Br.Col: rally, cp 2 vs Br.Guards Br.Guards: rallied, dp -1 vs Br.Col }
}
engagement Two { Br.Guards attacks Am.Line }`);
        expect(unitStateAt(m, action(m, 'Steady'), 'Br.Guards')!.status).toBe('routed');
        expect(flat(unitStateAt(m, action(m, 'Two'), 'Br.Guards'))).toMatchObject({ status: 'ready', statusSource: 'rallied in command Steady', dp: 3 });
        expect(flat(unitStateAt(m, action(m, 'Two'), 'Br.Col'))).toMatchObject({ cp: 2, status: 'ready' });
    });
});

describe('the references of an action with their roles', () => {
    it('are met by `eachRole` in the order `roles` lists them, in every action of every example, whole and cut short', async () => {
        const folder = new URL('../../examples/', import.meta.url);
        let met = 0;
        for (const file of fs.readdirSync(folder).filter(f => f.endsWith('.battle'))) {
            const text = fs.readFileSync(new URL(file, folder), 'utf8');
            // Cut short: half-typed statements leave references out.
            for (const source of [text, text.slice(0, Math.floor(text.length / 2)), text.slice(0, Math.floor(text.length / 3))]) {
                for (const action of modelOf((await parse(source)).parseResult.value).actions) {
                    const each: unknown[] = [];
                    eachRole(action.node, (target, role) => each.push({ target, role }));
                    expect(each).toEqual(roles(action.node));
                    // Every reference of the statements, in the order they are written.
                    const written = action.node.statements.flatMap(st => AstUtils.streamAst(st).filter(n => n.$type === 'Target').toArray());
                    expect(each.map(e => (e as { target: unknown }).target)).toEqual(written);
                    met += each.length;
                }
            }
        }
        expect(met).toBeGreaterThan(100);
    });

    it('of a written outcome are its lines\' units and opponents, and no other, in every example', async () => {
        const folder = new URL('../../examples/', import.meta.url);
        let lines = 0;
        for (const file of fs.readdirSync(folder).filter(f => f.endsWith('.battle'))) {
            const root = (await parse(fs.readFileSync(new URL(file, folder), 'utf8'))).parseResult.value;
            for (const line of AstUtils.streamAst(root).filter(n => n.$type === 'OutcomeLine').toArray() as OutcomeLine[]) {
                expect(AstUtils.streamAst(line).filter(n => n.$type === 'Target').toArray()).toEqual([line.unit, line.opponent].filter(t => t !== undefined));
                lines++;
            }
        }
        expect(lines).toBeGreaterThan(20);
    });
});

/** A state as the views read it: the rule set's counters beside the core's fields, and what set its status in words. */
function flat(state: UnitCampaignState | undefined): Record<string, unknown> {
    if (!state) return {};
    return { ...state, ...state.counters, statusSource: state.statusCause && causeText(state.statusCause) };
}
