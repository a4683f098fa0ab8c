/**
 * A Loose Files turn played as the sheet orders it: the order of play whatever the file
 * order, formation as state, moving and firing in one turn, the orders a combat leaves for the next
 * turn, and dice judged from the state the actions before them leave — in the language services (what
 * the editor runs) and in the real CLI, `resolve --write` included.
 */
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Diagnostic } from 'vscode-languageserver';
import { modelOf } from '../../../src/core/model-cache.js';
import { resolutionOrder } from '../../../src/core/campaign-state.js';
import { isUnresolvable, resolveAction } from '../../../src/core/resolve.js';
import type { Resolution } from '../../../src/core/resolution.js';
import type { ScenarioModel } from '../../../src/core/scenario.js';
import { LooseFilesCodes } from '../../../src/rulesets/loose-files/loose-files-codes.js';
import { Codes } from '../../../src/core/codes.js';
import { ensureServerBundle } from '../../protocol/lsp-harness.js';
import { parse } from '../../support/services.js';

const FORCES = `rules loose-files
force A {
  unit Line infantry { class 2, stands 4 }
  unit Skirm infantry { class 2, stands 3, formation skirmish }
  unit Horse cavalry { class 2, stands 2 }
}
force B {
  unit Foot infantry { class 3, stands 4 }
  unit Guns artillery { class 2, stands 2, guns medium }
}
`;

async function load(text: string): Promise<{ model: ScenarioModel, diagnostics: Diagnostic[] }> {
    const doc = await parse(text, { validation: true });
    expect(doc.parseResult.parserErrors.map(e => e.message)).toEqual([]);
    return { model: modelOf(doc.parseResult.value), diagnostics: doc.diagnostics ?? [] };
}

function resolved(model: ScenarioModel, name: string): Resolution {
    const a = model.actions.find(x => x.node.name === name)!;
    const r = resolveAction(model, a, { newSeed: () => 1 });
    if (isUnresolvable(r)) throw new Error(r.problem);
    return r.resolution;
}

const codes = (ds: readonly Diagnostic[]) => ds.map(d => d.code);
const lineOf = (ds: readonly Diagnostic[], code: string) => ds.filter(d => d.code === code).map(d => d.range.start.line + 1);

const COMBAT = `  engagement Melee {
    A.Line attacks B.Foot
    dice A 4
    dice B 3
  }
`;
const FIRE = `  fire Volley {
    B.Guns fires at A.Line: range 6
    dice B.Guns d6 6 6
  }
`;
const totalOf = (r: Resolution, unit: string) => r.json.units.find(u => u.unit === unit && u.side)!.total;

describe('the order of play (L0)', () => {
    it('a fire written after a combat in the same turn counts in the combat: its DPs and casualties lower the total', async () => {
        const outOfOrder = await load(`${FORCES}turn 1 {\n${COMBAT}${FIRE}}\n`);
        const noFire = await load(`${FORCES}turn 1 {\n${COMBAT}}\n`);
        // Class 2 v 3: 4 + 3 = 7 with no fire; the guns' two 6s at 6" give 2 DPs and 2 casualties: 7 − 8 = −1 (less outnumbered −3).
        expect(totalOf(resolved(noFire.model, 'Melee'), 'Line')).toBe(7);
        const withFire = resolved(outOfOrder.model, 'Melee');
        expect(withFire.json.units.find(u => u.unit === 'Line')!.modifiers).toEqual(expect.arrayContaining([
            { reason: '2 DP', value: -4 }, { reason: '2 casualties', value: -4 }
        ]));
        expect(totalOf(withFire, 'Line')).toBe(-4);
        expect(resolutionOrder(outOfOrder.model).map(a => a.node.name)).toEqual(['Volley', 'Melee']);
        // The file keeps the umpire's order; the check says the fire is resolved first, as information.
        const note = outOfOrder.diagnostics.find(d => d.code === LooseFilesCodes.orderOfPlay)!;
        expect(note.severity).toBe(3);
        expect(note.message).toContain("fire 'Volley' is written after engagement 'Melee' but resolved before it");
    });

    it('within one step, file order stands; outside turns, file order is the order', async () => {
        const { model } = await load(`${FORCES}turn 1 {\n${COMBAT}  fire F1 { B.Guns fires at A.Line: range 6\n dice B.Guns d6 1 1 }\n${FIRE}}\n${COMBAT.replace('Melee', 'Later')}${FIRE.replace('Volley', 'Last')}`);
        expect(resolutionOrder(model).map(a => a.node.name)).toEqual(['F1', 'Volley', 'Melee', 'Later', 'Last']);
    });
});

describe('formation is state (L6.11, L4.3)', () => {
    it('a formation change to column is carried: the next artillery fire gets +1 target in column', async () => {
        const text = `${FORCES}turn 1 {\n  move Form { A.Line: formation-change, column }\n}\nturn 2 {\n${FIRE}}\n`;
        const { model, diagnostics } = await load(text);
        expect(diagnostics.filter(d => d.severity === 1)).toEqual([]);
        const move = resolved(model, 'Form');
        expect(move.lines[0].facts).toContainEqual(['formation', 'column']);
        expect(resolved(model, 'Volley').json.units[0].modifiers).toContainEqual({ reason: 'target in column', value: 1 });
        // A change of facing (no formation named) leaves the formation as it was.
        const facing = await load(text.replace('formation-change, column', 'formation-change'));
        expect(resolved(facing.model, 'Volley').json.units[0].modifiers).not.toContainEqual({ reason: 'target in column', value: 1 });
    });

    it("'state X: formation column' sets it by hand; a word that is no formation is an error", async () => {
        const { model } = await load(`${FORCES}state A.Line: formation column\n${FIRE.replace(/^ {2}/gm, '')}`);
        expect(resolved(model, 'Volley').json.units[0].modifiers).toContainEqual({ reason: 'target in column', value: 1 });
        const bad = await load(`${FORCES}state A.Line: formation colum\n`);
        expect(codes(bad.diagnostics)).toContain(Codes.stateValue);
    });

    it('lf-formation: a formation word without formation-change, or one that does not fit the arm', async () => {
        const { diagnostics } = await load(`${FORCES}move M {\n  A.Line: average 2, column\n  B.Guns: formation-change, limbered\n  B.Foot: formation-change, limbered\n}\n`);
        expect(lineOf(diagnostics, LooseFilesCodes.formation)).toEqual([12, 14]);
    });
});

describe('moving and firing in one turn (L5)', () => {
    const turn = (firer: string) => `${FORCES}turn 1 {\n  fire F { ${firer} fires at B.Foot: range 5 }\n  move M { ${firer}: average 2 }\n}\n`;

    it("formed infantry with a move and a fire in the same turn gets lf-moved-fire, from the turn's own move", async () => {
        const { diagnostics } = await load(turn('A.Line'));
        expect(diagnostics.find(d => d.code === LooseFilesCodes.movedFire)?.message).toContain("moves this turn (move 'M')");
    });

    it('skirmishers do not, nor a formed unit that only changed formation', async () => {
        expect(codes((await load(turn('A.Skirm'))).diagnostics)).not.toContain(LooseFilesCodes.movedFire);
        const changed = `${FORCES}turn 1 {\n  fire F { A.Line fires at B.Foot: range 5 }\n  move M { A.Line: formation-change }\n}\n`;
        expect(codes((await load(changed)).diagnostics)).not.toContain(LooseFilesCodes.movedFire);
    });
});

describe('the orders a combat leaves for the next turn (L0.1, L3, L6)', () => {
    const fight = (a: number, b: number) => `turn 1 {\n  engagement Melee {\n    A.Line attacks B.Foot\n    dice A ${a}\n    dice B ${b}\n  }\n}\n`;

    it('a unit ordered to halt that moves next turn is flagged; one that stays is not', async () => {
        // 2 + 3 (class 2 v 3) = 5 v 3: +2, A.Line successful (halt one turn), B.Foot driven back (retreats).
        const moved = await load(`${FORCES}${fight(2, 3)}turn 2 {\n  move M {\n    A.Line: average 2\n    B.Foot: average 2, retreat\n  }\n}\n`);
        expect(moved.diagnostics.filter(d => d.code === LooseFilesCodes.orderNotKept).map(d => [d.range.start.line + 1, d.message])).toEqual([
            [20, expect.stringContaining('A.Line must halt this turn: its combat \'Melee\' in turn 1 was successful')]
        ]);
        const stayed = await load(`${FORCES}${fight(2, 3)}turn 2 {\n  move M { B.Foot: average 2, retreat }\n}\n`);
        expect(codes(stayed.diagnostics)).not.toContain(LooseFilesCodes.orderNotKept);
    });

    it('a routed unit that does not retreat next turn is flagged; a retreat move (step 1) keeps the order', async () => {
        // 5 + 3 = 8 v 2: +6, B.Foot defeated: it must retreat.
        const none = await load(`${FORCES}${fight(5, 2)}turn 2 {\n  fire F { B.Guns fires at A.Line: range 6 }\n}\n`);
        expect(none.diagnostics.filter(d => d.code === LooseFilesCodes.orderNotKept).map(d => d.message)).toEqual([
            expect.stringContaining('B.Foot was defeated in \'Melee\' in turn 1: it must retreat')
        ]);
        const kept = await load(`${FORCES}${fight(5, 2)}turn 2 {\n  fire F { B.Guns fires at A.Line: range 6 }\n  move Back { B.Foot: average 2, retreat }\n}\n`);
        expect(codes(kept.diagnostics)).not.toContain(LooseFilesCodes.orderNotKept);
        // The retreat is step 1 of the order of play: resolved before the fire written above it.
        expect(resolutionOrder(kept.model).filter(a => a.turn).map(a => a.node.name)).toEqual(['Melee', 'Back', 'F']);
        // Nothing is checked after the last turn: its next turn is not played yet.
        expect(codes((await load(`${FORCES}${fight(5, 2)}`)).diagnostics)).not.toContain(LooseFilesCodes.orderNotKept);
    });

    it('a stand-off pair is expected to fight again next turn', async () => {
        // 2 + 3 = 5 v 4: +1, stand-off.
        const apart = await load(`${FORCES}${fight(2, 4)}turn 2 {\n  fire F { B.Guns fires at A.Line: range 6 }\n}\n`);
        expect(apart.diagnostics.filter(d => d.code === LooseFilesCodes.orderNotKept).map(d => d.message)).toEqual([
            expect.stringContaining('fought a stand-off in \'Melee\' in turn 1: the fight continues this turn')
        ]);
        const again = await load(`${FORCES}${fight(2, 4)}turn 2 {\n${COMBAT.replace('Melee', 'Again')}}\n`);
        expect(codes(again.diagnostics)).not.toContain(LooseFilesCodes.orderNotKept);
    });

    it('class 4–5 pursue after an easy victory; cavalry change speed by one die a turn', async () => {
        const green = `rules loose-files\nforce A { unit Skirm infantry { class 4, stands 3, formation skirmish } }\nforce B { unit Foot infantry { class 4, stands 6 } unit Guns artillery { class 2, stands 2 } }\n`;
        // 5 v 2 − 3 (skirmish) − 3 (outnumbered 2:1) = −4: +9, an easy victory for class 4, which pursues.
        const fightE = `turn 1 {\n  engagement E {\n    B.Foot attacks A.Skirm\n    dice B 5\n    dice A 2\n  }\n}\n`;
        const pursue = await load(`${green}${fightE}turn 2 {\n  fire F { B.Guns fires at A.Skirm: range 6 }\n}\n`);
        expect(pursue.diagnostics.filter(d => d.code === LooseFilesCodes.orderNotKept).map(d => d.message)).toContainEqual(
            expect.stringContaining('B.Foot (class 4, which pursues) won an easy victory'));
        const pursued = await load(`${green}${fightE}turn 2 {\n  move P { B.Foot: average 1 }\n}\n`);
        expect(pursued.diagnostics.filter(d => d.code === LooseFilesCodes.orderNotKept).map(d => d.message)).not.toContainEqual(
            expect.stringContaining('B.Foot (class 4, which pursues) won an easy victory'));
        const speed = (now: string) => `${FORCES}turn 1 {\n  move M { A.Horse: average 1 }\n}\nturn 2 {\n  move N { A.Horse: ${now} }\n}\n`;
        expect(lineOf((await load(speed('average 2, d6 1'))).diagnostics, LooseFilesCodes.cavalrySpeed)).toEqual([15]);
        expect(codes((await load(speed('average 2'))).diagnostics)).not.toContain(LooseFilesCodes.cavalrySpeed);
    });

    it('stop at an obstacle is a fact of the move: the order says it crosses next turn', async () => {
        const { model } = await load(`${FORCES}move M {\n  A.Line: average 2, obstacle\n  dice A.Line average 3 4\n}\n`);
        expect(resolved(model, 'M').json.units[0].order).toBe('stops at the fence or wall within 7 inches; crosses it next turn');
    });
});

const MELEE = `engagement Melee {\n  B.Foot attacks A.Line\n  dice B 3\n  dice A 2\n}\n`;

describe('dice judged from the state the actions before them leave', () => {
    // Melee drives B.Foot back (3 v 2 + 3: −2, 2 DPs, 1 casualty); its volley after throws 4 − 1 − 2 = 1 die (L5).
    const text = (volley: string) => `${FORCES}${MELEE}fire Volley {\n  B.Foot fires at A.Line: range 6\n  dice B.Foot d6 ${volley}\n}\n`;

    it('check takes the one die left, and refuses four', async () => {
        const one = await load(text('6'));
        expect(one.diagnostics.filter(d => d.severity === 1)).toEqual([]);
        expect(resolved(one.model, 'Volley').json.units[0].dice).toBe(1);
        const four = await load(text('6 6 6 6'));
        expect(codes(four.diagnostics)).toContain(Codes.diceCount);
    });
});

describe('smaller holes', () => {
    it("'same-target' with 'new-target' is a contradiction; an officer as a fire or morale target is refused", async () => {
        const text = `${FORCES.replace('force B {', 'force B {\n  unit Colonel officer { cp 2 }')}fire F {\n  B.Guns fires at A.Line: range 6, same-target, new-target\n  A.Line fires at B.Colonel: range 5\n}\nmorale M { B.Colonel sees B.Foot: routs }\n`;
        const { diagnostics } = await load(text);
        expect(lineOf(diagnostics, LooseFilesCodes.contradictoryFacts)).toEqual([13]);
        expect(lineOf(diagnostics, LooseFilesCodes.officerTarget)).toEqual([14, 16]);
        const lawful = await load(`${FORCES}fire F { B.Guns fires at A.Line: range 6, same-target }\n`);
        expect(codes(lawful.diagnostics)).not.toContain(LooseFilesCodes.contradictoryFacts);
    });

    it('umpire status counts stands net of casualties (a casualty is one stand, L1.2)', async () => {
        const file = fs.mkdtempSync(path.join(os.tmpdir(), 'lf-status-'));
        fs.writeFileSync(path.join(file, 's.battle'), `${FORCES}${MELEE}`);
        const r = spawnSync(process.execPath, ['bin/umpire.cjs', 'status', path.join(file, 's.battle')], { encoding: 'utf8' });
        // B.Foot driven back: 1 casualty, 3 of 4 stands.
        expect(r.stdout).toMatch(/B\s+Foot\s+ready\s+driven-back \(Melee, not written yet\)\s+2\s+1\s+3 of 4/);
    });
});

describe('wheeling, both readings (L6.10)', () => {
    const wheel = (option: string) => `${FORCES.replace('rules loose-files\n', `rules loose-files\n${option}`)}move M {\n  A.Line: average 2, wheel\n  dice A.Line average 3 4\n}\n`;

    it('reads 1 DP only by default; option wheel-as-uphill also takes 1" a die', async () => {
        const plain = resolved((await load(wheel(''))).model, 'M').json.units[0];
        expect([plain.inches, plain.dp]).toEqual([7, 1]);
        const { model, diagnostics } = await load(wheel('option wheel-as-uphill\n'));
        expect(codes(diagnostics)).not.toContain(Codes.unknownOption);
        const uphill = resolved(model, 'M').json.units[0];
        expect([uphill.inches, uphill.dp]).toEqual([5, 1]);
    });
});

describe('the CLI: order of play, dice after a combat, and resolve --write', () => {
    beforeAll(() => ensureServerBundle(), 120_000);
    const umpire = (...args: string[]) => spawnSync(process.execPath, ['bin/umpire.cjs', ...args], { encoding: 'utf8' });
    const scratch = (name: string, text: string) => {
        const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'lf-turns-')), name);
        fs.writeFileSync(file, text);
        return file;
    };

    it('resolves a turn written out of order as if in order of play, and --write is idempotent', () => {
        const file = scratch('order.battle', `${FORCES}turn 1 {\n${COMBAT}${FIRE}}\n`);
        const shown = umpire('resolve', file, '--engagement', 'Melee');
        expect(shown.status).toBe(0);
        expect(shown.stdout).toContain('-4 2 DP');
        expect(shown.stdout).toContain('total -4');
        const first = umpire('resolve', '--write', file);
        expect(first.status, first.stderr).toBe(0);
        const once = fs.readFileSync(file, 'utf8');
        // The file keeps its order: the combat's outcome block stays above the fire.
        expect(once.indexOf('engagement Melee')).toBeLessThan(once.indexOf('fire Volley'));
        expect(once).toMatch(/A\.Line: defeated, die 4, total -4/);
        const second = umpire('resolve', '--write', file);
        expect(second.status).toBe(0);
        expect(second.stdout).toContain('nothing changed');
        expect(fs.readFileSync(file, 'utf8')).toBe(once);
        expect(umpire('check', file).stdout).not.toMatch(/error|warning/);
    });

    it('a volley after a combat that drove its unit back: one die passes check, and --write writes it', () => {
        const file = scratch('dice.battle', `${FORCES}${MELEE}fire Volley {\n  B.Foot fires at A.Line: range 6\n  dice B.Foot d6 6\n}\n`);
        expect(umpire('check', file).stdout).toBe('0 problems in 1 file\n');
        const write = umpire('resolve', '--write', file);
        expect(write.status, write.stdout + write.stderr).toBe(0);
        expect(fs.readFileSync(file, 'utf8')).toMatch(/B\.Foot: fired, range 6, throws 1/);
        expect(umpire('check', file).stdout).toBe('0 problems in 1 file\n');
    });
});
