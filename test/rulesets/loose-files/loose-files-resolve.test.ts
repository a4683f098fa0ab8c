/**
 * The Loose Files plugin on scenario text: entered and seeded dice in the documented order, the JSON
 * and outcome lines (the fact keys the campaign reads back), the house rules on and off, and the CLI
 * on examples/cowpens.battle.
 */
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { ScenarioModel } from '../../../src/core/scenario.js';
import { modelOf } from '../../../src/core/model-cache.js';
import { unitStateAt } from '../../../src/core/campaign-state.js';
import { formatFact } from '../../../src/core/outcome-block.js';
import { actionOffsets, applyEdits, resolutionEdit } from '../../../src/core/outcome-edit.js';
import type { Resolution } from '../../../src/core/resolution.js';
import { isUnresolvable, resolveAction } from '../../../src/core/resolve.js';
import { AVERAGE, D6, SeededDice } from '../../../src/core/dice.js';
import { ensureServerBundle } from '../../protocol/lsp-harness.js';
import { parse } from '../../support/services.js';


const FORCES = `
grade Line { class 2 }
grade Green { class 3 }
grade Militia { class 4, militia }
force British {
  unit Tarleton commander { cp 6 }
  unit Foot infantry Line { stands 5 }
  unit Lights infantry Line { stands 4 }
  unit Legion cavalry Green { stands 2 }
  unit Guns artillery Line { stands 2, guns heavy }
}
force American {
  unit Pickens officer { cp 3, attached Militia }
  unit Militia infantry Militia { stands 4, dp 1 }
  unit Rifles infantry Green { stands 3, formation skirmish, weapon rifle }
  unit Line infantry Line { stands 4 }
}
`;

async function load(body: string, options = ''): Promise<{ text: string, model: ScenarioModel }> {
    const text = `scenario "t"\nrules loose-files\n${options}${FORCES}${body}`;
    const doc = await parse(text, { validation: true });
    expect(doc.parseResult.parserErrors.map(e => e.message)).toEqual([]);
    const errors = (doc.diagnostics ?? []).filter(d => d.severity === 1).map(d => `${d.code} ${d.message}`);
    expect(errors).toEqual([]);
    return { text, model: modelOf(doc.parseResult.value) };
}

function resolved(model: ScenarioModel, name: string, seed?: number): Resolution {
    const action = model.actions.find(a => a.node.name === name)!;
    const r = resolveAction(model, action, { seed, newSeed: () => 1 });
    if (isUnresolvable(r)) throw new Error(r.problem);
    return r.resolution;
}

const lineFacts = (r: Resolution, unit: string) => r.lines.filter(l => l.unit === unit).map(l => [l.result, ...l.facts.filter(f => f[0] !== 'order').map(formatFact)]);

describe('combat (L2, L3) from entered dice', () => {
    it('itemises every modifier and writes each side\'s row', async () => {
        const { model } = await load(`engagement Charge {
  British.Legion attacks American.Militia
  British.Legion: terrain
  British.Tarleton inspires British.Legion: contact
  American.Militia: fieldwork
  dice British 4
  dice American 3
}`);
        const r = resolved(model, 'Charge');
        const legion = r.json.units.find(u => u.unit === 'Legion')!;
        const militia = r.json.units.find(u => u.unit === 'Militia')!;
        // Legion: class 3 v 4 → +3, terrain +1, inspired +1; 6 v 4 strength: not outnumbered. 4 + 5 = 9.
        expect(legion.modifiers).toEqual([
            { reason: 'class 3 v class 4: 1 better', value: 3 }, { reason: 'terrain advantage', value: 1 },
            { reason: 'inspired by British.Tarleton (3 CP)', value: 1 }
        ]);
        // Militia: fieldwork +2, 1 DP −2, outnumbered 6 v 4 (3:2) −2. 3 − 2 = 1.
        expect(militia.modifiers).toEqual([
            { reason: 'defending a fieldwork', value: 2 }, { reason: '1 DP', value: -2 }, { reason: 'outnumbered 3:2 (6 v 4)', value: -2 }
        ]);
        expect([legion.total, militia.total, legion.result, militia.result]).toEqual([9, 1, 'easy-victory', 'defeated']);
        expect([militia.dp, militia.casualties, legion.dp, legion.casualties]).toEqual([2, 2, 1, 0]);
        expect(lineFacts(r, 'British.Legion')).toEqual([['easy-victory', 'die 4', 'total 9', 'dp 1']]);
        expect(lineFacts(r, 'American.Militia')).toEqual([['defeated', 'die 3', 'total 1', 'dp 2', 'casualties 2']]);
        expect(lineFacts(r, 'British.Tarleton')).toEqual([['inspired', 'cp 3']]);
        expect(r.text.join('\n')).toContain('+2 defending a fieldwork');
        expect(r.text.join('\n')).toContain('Defender -8: defeated, 2 DP, 2 casualties; retreat at full speed');
    });

    it('throws seeded dice attacker first, then defender, on the average die', async () => {
        const { model } = await load('engagement E { British.Lights attacks American.Line }');
        const r = resolved(model, 'E', 77);
        const dice = new SeededDice(77);
        const [a, d] = [dice.roll(AVERAGE), dice.roll(AVERAGE)];
        expect(r.json.units.map(u => u.die)).toEqual([a, d]);
        expect(r.json.seed).toBe(77);
        expect(resolved(model, 'E', 77).json).toEqual(r.json);
    });
});

describe('fire (L4, L5)', () => {
    it('artillery: each die with its modifiers, read on the close table', async () => {
        const { model } = await load(`fire Guns {
  British.Guns fires at American.Line: range 8, same-target
  dice British.Guns d6 5 1
}`);
        const r = resolved(model, 'Guns');
        const target = r.json.units.find(u => u.unit === 'Line')!;
        // heavy +1, same target +1: 5 → 7 (1 DP, 1 casualty), 1 → 3 (1 DP).
        expect(target.dice).toEqual([{ die: 5, modified: 7, dp: 1, casualties: 1 }, { die: 1, modified: 3, dp: 1, casualties: 0 }]);
        expect(lineFacts(r, 'American.Line')).toEqual([['casualty', 'dp 2', 'casualties 1']]);
        expect(lineFacts(r, 'British.Guns')).toEqual([['fired', 'range 8', 'throws 2']]);
    });
    it('skirmishers: fives re-rolled from the reroll line, seeded re-rolls after the d6', async () => {
        const { model } = await load(`fire Rifles {
  American.Rifles fires at British.Foot: range 10
  dice American.Rifles d6 5 6 2
  dice American.Rifles reroll 4
}
fire Seeded { American.Rifles fires at British.Foot: range 10 }`);
        const r = resolved(model, 'Rifles');
        expect(lineFacts(r, 'British.Foot')).toEqual([['disordered', 'dp 2']]);
        const s = resolved(model, 'Seeded', 5);
        const dice = new SeededDice(5);
        const d6 = dice.rollMany(D6, 3);
        const rerolls = dice.rollMany(D6, d6.filter(v => v === 5).length);
        const firer = s.json.units.find(u => u.unit === 'Rifles')!;
        expect([firer.thrown, firer.rerolls]).toEqual([d6, rerolls]);
    });
});

describe('movement (L6) and the movement house rules (L9)', () => {
    const body = `move March {
  British.Foot: average 2
  British.Lights: average 2
  dice British.Foot average 2 5
  dice British.Lights average 3 3
}
move Brigade {
  British.Foot: average 2
  British.Lights: average 2
  dice British.Foot average 2 5
}`;
    it('without brigade-move each unit throws its own dice', async () => {
        const { model } = await load(body.replace(/move Brigade[\s\S]*$/, ''));
        const r = resolved(model, 'March');
        expect(r.json.units.map(u => [u.unit, u.inches, u.brigadeRoll])).toEqual([['Foot', 7, false], ['Lights', 6, false]]);
        expect(r.json.units[0].order).toBe('may move up to 7 inches');
    });
    it('with brigade-move the first unit\'s roll moves the brigade', async () => {
        const { model } = await load(body.replace(/move March[\s\S]*?\n}\n/, ''), 'option brigade-move\n');
        const r = resolved(model, 'Brigade');
        expect(r.json.units.map(u => [u.unit, u.inches, u.brigadeRoll])).toEqual([['Foot', 7, false], ['Lights', 7, true]]);
    });
    it('with full-move the distance must be moved', async () => {
        const { model } = await load(body.replace(/move Brigade[\s\S]*$/, ''), 'option full-move\n');
        expect(resolved(model, 'March').json.units[0].order).toBe('must move the full 7 inches');
    });
    it('charging cavalry: DPs from low d6, seeded average dice before d6', async () => {
        const { model } = await load('move Charge { British.Legion: average 2, d6 1, charging }');
        const r = resolved(model, 'Charge', 9);
        const dice = new SeededDice(9);
        const average = dice.rollMany(AVERAGE, 2), d6 = dice.rollMany(D6, 1);
        const u = r.json.units[0];
        expect([u.result, u.average, u.d6, u.inches, u.dp]).toEqual(['charged', average, d6, [...average, ...d6].reduce((a, b) => a + b, 0), d6[0] <= 2 ? 1 : 0]);
    });
});

describe('Corlears Hook (L9): the second stand-off in a row', () => {
    const body = `engagement First {
  British.Lights attacks American.Line
  dice British 3
  dice American 3
}
engagement Second {
  British.Lights attacks American.Line
  dice British 4
  dice American 4
  dice British retreat 5
}`;
    it('makes both sides retreat one average die when on', async () => {
        const { model } = await load(body, 'option corlears-hook\n');
        const r = resolved(model, 'Second');
        expect(r.json.units.map(u => [u.result, u.retreat])).toEqual([['stand-off', 5], ['stand-off', null]]);
        expect(r.json.units[0].order).toMatch(/^retreat one average die/);
        expect(resolved(model, 'First').json.units[0].order).toBe('halt; the fight continues next turn');
    });
    it('changes nothing when off', async () => {
        const { model } = await load(body.replace('  dice British retreat 5\n', ''));
        expect(resolved(model, 'Second').json.units.map(u => u.retreat)).toEqual([null, null]);
    });
});

describe('flee-losses (L9) and the campaign reading the outcome back', () => {
    const body = `engagement Rout {
  British.Foot attacks American.Militia
  British.Foot: bayonet
  dice British 5
  dice American 2
}
morale Seen {
  American.Line sees American.Militia: routs, distance 4
}
command Rally {
  American.Pickens rallies American.Militia: dp 1
}`;
    it('militia routed at half losses flee; friends who see it lose nothing', async () => {
        const { model, text } = await load(body, 'option flee-losses\n');
        const r = resolved(model, 'Rout');
        // Foot: +6 (class 2 v 4) +2 bayonet; 5 + 8 = 13. Militia: −2 (1 DP), outnumbered 5 v 4 −1; 2 − 3 = −1. −14: routed.
        expect(lineFacts(r, 'American.Militia')).toEqual([['routed', 'die 2', 'total -1', 'dp 4', 'casualties 2', 'fled']]);
        // Write the outcome, and the campaign state carries it to the next actions.
        const action = model.actions[0];
        const written = applyEdits(text, [resolutionEdit(text, actionOffsets(action.node, text)!, r, { kind: 'entered' })]);
        const doc = await parse(written, { validation: true });
        expect((doc.diagnostics ?? []).map(d => d.code)).toEqual([]);
        const after = modelOf(doc.parseResult.value);
        const state = unitStateAt(after, after.actions[1], 'American.Militia')!;
        expect([state.counters.dp, state.counters.casualties, state.status]).toEqual([5, 2, 'fled']);
        expect(lineFacts(resolved(after, 'Seen'), 'American.Line')).toEqual([['unmoved', 'dp 0']]);
        expect(lineFacts(resolved(after, 'Rally'), 'American.Militia')).toEqual([['rallied', 'dp -1']]);
        expect(lineFacts(resolved(after, 'Rally'), 'American.Pickens')).toEqual([['rally', 'cp 2']]);
    });
    it('off, nobody flees and the friend takes the morale table', async () => {
        const { model } = await load(body);
        expect(lineFacts(resolved(model, 'Rout'), 'American.Militia')).toEqual([['routed', 'die 2', 'total -1', 'dp 4', 'casualties 2']]);
        // Line (class 2) sees the lower-grade Militia (class 4) rout: 1 DP.
        expect(lineFacts(resolved(model, 'Seen'), 'American.Line')).toEqual([['disordered', 'dp 1']]);
    });
});

describe('re-dressing (L8)', () => {
    it('removes DPs by class and writes them as a negative dp', async () => {
        const { model } = await load(`redress Dress {
  American.Militia: stationary
  British.Foot: stationary, dp 2
}`);
        const r = resolved(model, 'Dress');
        expect(r.lines.map(l => [l.unit, l.result, ...l.facts.map(formatFact)])).toEqual([
            ['American.Militia', 'no-redress', 'dp 0'], ['British.Foot', 'redressed', 'dp -1']
        ]);
        // No dice are thrown: the outcome needs no seed.
        expect(r.json.seed).toBeNull();
    });
    it('knows from the turn\'s own actions which units moved, fought or were shot at', async () => {
        const { model } = await load(`turn 1 {
  fire F { British.Guns fires at American.Rifles: range 20 }
  move M { British.Foot: average 1 }
  engagement E { British.Lights attacks American.Line }
  redress R {
    British.Foot: stationary, dp 1
    British.Lights: stationary, dp 1
    American.Rifles: stationary, dp 1
    British.Guns: stationary, dp 1
  }
}`);
        expect(resolved(model, 'R').json.units.map(u => [u.unit, u.result, u.reason])).toEqual([
            ['Foot', 'no-redress', 'it moved this turn'], ['Lights', 'no-redress', 'it is in combat'],
            ['Rifles', 'no-redress', 'class 3 removes none when shot at'], ['Guns', 'redressed', 'class 2 removes 1 DP']
        ]);
    });
});

// ─── The real CLI on the example ─────────────────────────────────────────────────────────────────


describe('umpire on examples/cowpens.battle', () => {
    beforeAll(() => ensureServerBundle(), 120_000);
    const umpire = (...args: string[]) => spawnSync(process.execPath, ['bin/umpire.cjs', ...args], { encoding: 'utf8' });

    it('checks clean', () => {
        const r = umpire('check', 'examples/cowpens.battle');
        expect([r.status, r.stdout.trim(), r.stderr.trim()]).toEqual([0, '0 problems in 1 file', '']);
    });

    it('resolves every action to JSON, with the combat labels and itemised modifiers', () => {
        const r = umpire('resolve', 'examples/cowpens.battle', '--json');
        expect(r.status).toBe(0);
        const out = JSON.parse(r.stdout) as { rules: string, engagements: Array<{ name: string, kind: string, turn: string, units: Array<Record<string, unknown>> }> };
        expect(out.rules).toBe('loose-files');
        expect(out.engagements.map(e => [e.turn, e.kind, e.name])).toEqual([
            ['1', 'fire', 'Rifles'], ['1', 'fire', 'Grasshoppers'], ['1', 'command', 'Orders'], ['1', 'move', 'Advance'], ['1', 'engagement', 'Charge'],
            ['2', 'move', 'Rout'], ['2', 'morale', 'Shaken'], ['2', 'fire', 'Volley'], ['2', 'command', 'Rally'], ['2', 'move', 'Countercharge'], ['2', 'engagement', 'Bayonets'],
            ['2', 'redress', 'Dress']
        ]);
        const charge = out.engagements.find(e => e.name === 'Charge')!;
        // Legion (class 3, 3 cavalry stands = 9) inspired: 4 + 1 = 5. Riflemen (3 stands): skirmish −3, 9 v 3 → −5; 3 − 8 = −5.
        expect(charge.units.filter(u => u.side).map(u => [u.unit, u.result, u.total, u.dp, u.casualties])).toEqual([
            ['Legion', 'easy-victory', 5, 1, 0], ['Riflemen', 'routed', -5, 4, 2]
        ]);
        expect(charge.units.find(u => u.unit === 'Riflemen')!.modifiers).toEqual([
            { reason: 'in skirmish order', value: -3 }, { reason: 'outnumbered 3:1 or worse (9 v 3)', value: -5 }
        ]);
        const grasshoppers = out.engagements.find(e => e.name === 'Grasshoppers')!;
        // Light guns at 12" (long) on skirmishers: −1 light, −2 skirmish; 5 → 2, 3 → 0: no effect.
        expect(grasshoppers.units.find(u => u.unit === 'Riflemen')!.result).toBe('no-effect');
        const bayonets = out.engagements.find(e => e.name === 'Bayonets')!;
        // The Volley before it in the same turn (its own seed, not yet written) left the Fusiliers 1 DP: 3 − 2 = 1.
        expect(bayonets.units.filter(u => u.side).map(u => [u.unit, u.result, u.total])).toEqual([
            ['Continentals', 'easy-victory', 9], ['Fusiliers', 'defeated', 1]
        ]);
    });

    it('writes every outcome (--write), which parses back clean, carries DPs on, and is written once', () => {
        const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'umpire-lf-'));
        try {
            const file = path.join(dir, 'cowpens.battle');
            fs.copyFileSync('examples/cowpens.battle', file);
            expect(umpire('resolve', file, '--write').status).toBe(0);
            const once = fs.readFileSync(file, 'utf8');
            expect(once.match(/outcome (seed \d+|entered) check/g)).toHaveLength(12);
            expect(once).toContain('American.Riflemen: routed, die 3, total -5, dp 4, casualties 2');
            expect(once).toContain('American.Pickens: rally, cp 2 vs American.Carolinians');
            const check = umpire('check', file);
            expect([check.status, check.stdout.trim()]).toEqual([0, '0 problems in 1 file']);
            // With the Volley's DP on the Fusiliers written, the bayonet fight sees it: 3 − 2 = 1.
            const json = JSON.parse(umpire('resolve', file, '--json', '--engagement', 'Bayonets').stdout) as { engagements: Array<{ units: Array<Record<string, unknown>> }> };
            const fusiliers = json.engagements[0].units.find(u => u.unit === 'Fusiliers')!;
            expect([fusiliers.total, fusiliers.modifiers]).toEqual([1, [{ reason: '1 DP', value: -2 }]]);
            expect(umpire('resolve', file, '--write').status).toBe(0);
            expect(fs.readFileSync(file, 'utf8')).toBe(once);
        } finally {
            fs.rmSync(dir, { recursive: true, force: true });
        }
    });

    it('prints one located diagnostic per mistake of examples/broken-loose-files.battle, as its comments say', () => {
        const file = 'examples/broken-loose-files.battle';
        const r = umpire('check', file);
        expect(r.status).toBe(1);
        const format = /^examples\/broken-loose-files\.battle:(\d+):(\d+) (error|warning|info) ([a-z-]+) (.+)$/;
        // Each problem, then the summary line under them.
        const found = r.stdout.trim().split('\n').slice(0, -1).map(line => {
            const m = format.exec(line);
            expect(m, line).not.toBeNull();
            return `${m![1]} ${m![4]}`;
        });
        // Each commented line names the code it must raise: `// lf-range: …`.
        const expected = fs.readFileSync(file, 'utf8').split('\n').flatMap((line, i) => {
            const m = /\/\/ ([a-z][a-z-]+):/.exec(line);
            return m && i > 1 ? [`${i + 1} ${m[1]}`] : [];
        });
        expect(found).toEqual(expected);
    });

    it('prints the dice, each modifier with its reason, and each result with DPs, casualties and movement', () => {
        const r = umpire('resolve', 'examples/cowpens.battle', '--engagement', 'Bayonets');
        expect(r.status).toBe(0);
        expect(r.stdout).toContain('Attacker American.Continentals (strength 5): average die 4');
        expect(r.stdout).toContain('+2 bayonet attack');
        expect(r.stdout).toContain('-1 outnumbered (6 v 5)');
        // The Volley's DP (seed 8, written or not) counts: −2.
        expect(r.stdout).toContain('-2 1 DP');
        expect(r.stdout).toContain('Defender -8: defeated, 2 DP, 2 casualties; retreat at full speed behind the next friendly line');
    });
});
