/**
 * `umpire resolve --write` (in order, each action seeing the state written before it; atomic; a
 * second run changes nothing) and `umpire status`, on examples/campaign.battle and small fixtures.
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { nodeIo, replaceFileText, type WriteIo } from '../../src/cli/atomic-write.js';
import { CliError } from '../../src/cli/load.js';
import { resolveCommand } from '../../src/cli/resolve-command.js';
import { resolveWriteCommand } from '../../src/cli/resolve-write.js';
import { statusCommand } from '../../src/cli/status-command.js';

const EXAMPLE = fs.readFileSync('examples/campaign.battle', 'utf8');
/** The example as the umpire wrote it, before the tool wrote any outcome. */
const UNRESOLVED = EXAMPLE.replace(/\n[ \t]*outcome [^{]*\{[^}]*\}/g, '');

let dir: string;
beforeEach(() => { dir = fs.mkdtempSync(path.join(os.tmpdir(), 'umpire-campaign-')); });
afterEach(() => { fs.rmSync(dir, { recursive: true, force: true }); });

function file(name: string, text: string): string {
    const p = path.join(dir, name);
    fs.writeFileSync(p, text);
    return p;
}

async function run(command: (out: (line: string) => void) => Promise<number>): Promise<{ code: number, lines: string[] }> {
    const lines: string[] = [];
    const code = await command(line => lines.push(line));
    return { code, lines };
}

describe('resolve --write on the example campaign', () => {
    it('starts from a file with no outcome', () => {
        expect(UNRESOLVED).not.toMatch(/^\s*outcome /m);
        expect(EXAMPLE.match(/^\s*outcome seed/gm)).toHaveLength(3);
        expect(UNRESOLVED.match(/engagement \w+ \{/g)).toHaveLength(3);
    });

    it('writes the three outcomes exactly as the example holds them, and a second run changes nothing', async () => {
        const p = file('campaign.battle', UNRESOLVED);
        const first = await run(out => resolveWriteCommand(p, {}, out));
        expect(first.code).toBe(0);
        expect(first.lines[first.lines.length - 1]).toBe(`${p}: wrote 3 outcomes.`);
        expect(fs.readFileSync(p, 'utf8')).toBe(EXAMPLE);
        const before = fs.readFileSync(p);
        const second = await run(out => resolveWriteCommand(p, {}, out));
        expect(second.lines).toEqual([`${p}: every outcome is written and current; nothing changed.`]);
        expect(fs.readFileSync(p).equals(before)).toBe(true);
    });

    it('lets each engagement see the state the earlier outcomes leave (turn 2 reads turn 1), written or not', async () => {
        const p = file('campaign.battle', UNRESOLVED);
        // Resolved alone, before the ford is written, the pass already sees the token and break test
        // the ford's seed settles: the preview is what --write then writes.
        const alone = await run(out => resolveCommand(p, { engagement: 'Pass' }, out));
        const previewed = alone.lines.find(l => l.includes('break test') && l.includes('vs leadership 7'));
        expect(previewed).toContain('4+3 = 7 +1 winning side −1 damage tokens → 7 vs leadership 7: gives-ground');
        await run(out => resolveWriteCommand(p, {}, out));
        const after = await run(out => resolveCommand(p, { engagement: 'Pass' }, out));
        const carried = after.lines.find(l => l.includes('break test') && l.includes('vs leadership 7'));
        expect(carried).toContain('4+3 = 7 +1 winning side −1 damage tokens → 7 vs leadership 7: gives-ground');
        expect(fs.readFileSync(p, 'utf8')).toContain('Successors.Thureophoroi: gives-ground');
    });

    it('shows the carried state in the example\'s resolve output: turn 1 tests fresh, turn 2 with the token', async () => {
        const r = await run(out => resolveCommand('examples/campaign.battle', {}, out));
        const at = (name: string) => r.lines.slice(r.lines.findIndex(l => l.startsWith(`engagement ${name} `)));
        const thureoTest = (name: string) => {
            const lines = at(name);
            const unit = lines.findIndex(l => l.startsWith('  Successors.Thureophoroi:'));
            return lines.slice(unit).find(l => l.includes('break test'));
        };
        expect(thureoTest('Ford')).toContain('+1 first test');
        expect(thureoTest('Ford')).not.toContain('damage tokens');
        expect(thureoTest('Pass')).not.toContain('first test');
        expect(thureoTest('Pass')).toContain('−1 damage tokens');
        expect(thureoTest('Camp')).toContain('−2 damage tokens');
    });

    it('writes only the engagement asked for with --engagement', async () => {
        const p = file('campaign.battle', UNRESOLVED);
        await run(out => resolveWriteCommand(p, { engagement: 'Ford' }, out));
        const text = fs.readFileSync(p, 'utf8');
        expect(text.match(/outcome seed/g)).toHaveLength(1);
        expect(text).toContain('outcome seed 6 check');
    });
});

describe('resolve --write on a Loose Files campaign', () => {
    const TWO_CHARGES = `scenario "Two charges"
rules loose-files
force British { unit Guards infantry { class 2, stands 4 } }
force American { unit Line infantry { class 2, stands 4 } unit Reserve infantry { class 2, stands 4 } }
turn 1 {
  engagement First {
    British.Guards attacks American.Line
    dice British 2
    dice American 5
  }
}
turn 2 {
  engagement Second {
    British.Guards attacks American.Reserve
    dice British 4
    dice American 4
  }
}
`;

    it('lowers the turn 2 combat total by the DPs and casualty written in turn 1 (L2: -2 each)', async () => {
        const p = file('charges.battle', TWO_CHARGES);
        const attacker = (lines: string[]) => lines.slice(lines.findIndex(l => l.includes('Attacker British.Guards')), lines.findIndex(l => l.includes('Defender American.Reserve')));
        // First's dice are entered, so its outcome is settled before it is written: Second sees it already
        // (docs/campaigns.md#settled), and writing changes nothing of what Second is resolved from.
        const before = await run(out => resolveCommand(p, { engagement: 'Second' }, out));
        expect(attacker(before.lines).map(l => l.trim())).toEqual([
            'Attacker British.Guards (strength 3): average die 4', '-4 2 DP', '-2 1 casualty', '-1 outnumbered (4 v 3)', 'total -3'
        ]);
        expect(before.lines.join('\n')).toContain('attacker defeated');
        await run(out => resolveWriteCommand(p, {}, out));
        const written = fs.readFileSync(p, 'utf8');
        expect(written).toContain('British.Guards: driven-back, die 2, total 2, dp 2, casualties 1,');
        const after = await run(out => resolveCommand(p, { engagement: 'Second' }, out));
        const lines = attacker(after.lines).map(l => l.trim());
        expect(lines).toContain('-4 2 DP');
        expect(lines).toContain('-2 1 casualty');
        expect(lines[lines.length - 1]).toBe('total -3');
        expect(written).toContain('British.Guards: defeated, die 4, total -3, dp 2, casualties 2,');
        const status = await run(out => statusCommand(p, {}, out, () => undefined));
        expect(status.lines.find(l => l.includes(' Guards '))!.split(/\s{2,}/).slice(0, 7)).toEqual(['British', 'Guards', 'ready', 'defeated (Second, turn 2)', '4', '3', '1 of 4']);
    });
});

describe('resolve --write never leaves the file half-done', () => {
    const ROUTS = `scenario "Pozzo"
rules scrud
grade Veteran +1
force French { unit Line foot Veteran x2 unit Hussars horse }
force Austrian { unit Grenz foot x2 unit Dragoons horse }
turn 1 "Dawn" {
  engagement Ridge { French attacks Austrian
    seed 7 }
}
turn 2 "Noon" {
  engagement Mill { French.Line#1 attacks Austrian.Grenz#2
    seed 11 }
}
`;

    it('writes nothing when an outcome makes a later engagement wrong (a routed unit fighting again)', async () => {
        const p = file('pozzo.battle', ROUTS);
        const lines: string[] = [];
        const said: string[] = [];
        // The ridge's seed settles its outcome before it is written: the file's own check finds the rout.
        await expect(resolveWriteCommand(p, {}, l => lines.push(l), undefined, l => said.push(l))).rejects.toThrow(/the file has errors: fix them before resolving/);
        // Why nothing was written goes where errors go; no result was printed.
        expect(said.join('\n')).toContain('unit-out-of-action French.Line#1 routed in engagement Ridge (turn 1)');
        expect(lines).toEqual([]);
        expect(fs.readFileSync(p, 'utf8')).toBe(ROUTS);
    });

    it('resolves the same file once a ruling rallies the unit', async () => {
        const p = file('pozzo.battle', ROUTS.replace('turn 2 "Noon" {', 'turn 2 "Noon" {\n  ruling French.Line#1: rallied, reason "IMP: the colonel rallied them"'));
        const r = await run(out => resolveWriteCommand(p, {}, out));
        expect(r.lines[r.lines.length - 1]).toBe(`${p}: wrote 2 outcomes.`);
        expect(fs.readFileSync(p, 'utf8').match(/outcome seed (7|11) check/g)).toEqual(['outcome seed 7 check', 'outcome seed 11 check']);
    });

    it('refuses a file with errors before resolving anything', async () => {
        const p = file('bad.battle', ROUTS.replace('seed 11', 'seed 11\n    dice French 9'));
        await expect(resolveWriteCommand(p, {}, () => undefined)).rejects.toThrow(CliError);
        expect(fs.readFileSync(p, 'utf8')).toBe(ROUTS.replace('seed 11', 'seed 11\n    dice French 9'));
    });

    it('leaves the file unchanged and no backup behind when flushing to disk fails', async () => {
        const p = file('campaign.battle', UNRESOLVED);
        const failing: WriteIo = { ...nodeIo, fsyncSync: () => { throw Object.assign(new Error('EIO: i/o error, fsync'), { code: 'EIO' }); } };
        await expect(resolveWriteCommand(p, {}, () => undefined, failing)).rejects.toThrow(/could not be written \(.*EIO.*\): it is unchanged/);
        expect(fs.readFileSync(p, 'utf8')).toBe(UNRESOLVED);
        expect(fs.readdirSync(dir)).toEqual(['campaign.battle']);
    });

    it('leaves the file unchanged when the disk fills up halfway through the write', () => {
        const p = file('x.battle', 'old text\n');
        let calls = 0;
        const failing: WriteIo = {
            ...nodeIo,
            // The first call writes only 3 bytes (as a short write may); the second runs out of space.
            writeSync: (fd, data, offset) => {
                if (calls++ === 0) return fs.writeSync(fd, data, offset, 3);
                throw Object.assign(new Error('ENOSPC: no space left on device'), { code: 'ENOSPC' });
            }
        };
        expect(() => replaceFileText(p, 'a much longer new text\n', 'old text\n', failing)).toThrow(/ENOSPC.*it is unchanged/);
        expect(calls).toBe(2);
        expect(fs.readFileSync(p, 'utf8')).toBe('old text\n');
        expect(fs.readdirSync(dir)).toEqual(['x.battle']);
    });

    it('finishes a short write and keeps the file\'s permissions', () => {
        const p = file('x.battle', 'old\n');
        fs.chmodSync(p, 0o640);
        const short: WriteIo = { ...nodeIo, writeSync: (fd, data, offset) => fs.writeSync(fd, data, offset, Math.min(2, data.length - offset)) };
        replaceFileText(p, 'ünïcode text\n', 'old\n', short);
        expect(fs.readFileSync(p, 'utf8')).toBe('ünïcode text\n');
        expect(fs.statSync(p).mode & 0o777).toBe(0o640);
    });

    it('writes nothing when the file changed after it was read (an editor saved it)', () => {
        const p = file('x.battle', 'saved by the editor\n');
        expect(() => replaceFileText(p, 'new\n', 'what was read\n')).toThrow(/changed while it was being resolved/);
        expect(fs.readFileSync(p, 'utf8')).toBe('saved by the editor\n');
    });

    it('writes through a symbolic link to the real file', () => {
        const real = file('real.battle', 'old\n');
        const link = path.join(dir, 'link.battle');
        fs.symlinkSync(real, link);
        replaceFileText(link, 'new\n', 'old\n');
        expect(fs.lstatSync(link).isSymbolicLink()).toBe(true);
        expect(fs.readFileSync(real, 'utf8')).toBe('new\n');
    });
});

describe('umpire status', () => {
    it('prints every unit of the example campaign as a markdown table', async () => {
        const r = await run(out => statusCommand('examples/campaign.battle', { markdown: true }, out, () => undefined));
        const lines = r.lines.join('\n').split('\n');
        // The season's luck follows, after a blank line (test/cli/status-cli.test.ts).
        expect(lines[8]).toBe('');
        expect(lines[9]).toMatch(/^Luck over the season /);
        expect(lines.slice(0, 8)).toEqual([
            '### The Successor campaign — state at the end of the file',
            '',
            '| Force | Unit | Status | Last result | Tokens | Break test | Notes |',
            '| --- | --- | --- | --- | --- | --- | --- |',
            '| Successors | Phalanx | ready | untested (Camp, turn 3) | 0 | — |  |',
            '| Successors | Thureophoroi | ready | holds (Camp, turn 3) | 3 | taken |  |',
            '| Gauls | Warriors | ready | holds (Camp, turn 3) | 2 | taken | Ruling: IMP: the chieftain swore a fresh oath at the camp fire |',
            '| Gauls | Boii | **destroyed** | destroyed (Camp, turn 3) | 1 | taken | destroyed in engagement Camp (turn 3) |'
        ]);
    });

    it('prints the state at the end of a turn with --at, by number or name', async () => {
        const one = await run(out => statusCommand('examples/campaign.battle', { at: '1' }, out, () => undefined));
        expect(one.lines[0]).toBe('The Successor campaign: state after turn 1 "The ford"');
        const row = (lines: string[], unit: string) => lines.find(l => l.includes(` ${unit} `))!.split(/\s{2,}/);
        expect(row(one.lines, 'Thureophoroi')).toEqual(['Successors', 'Thureophoroi', 'ready', 'holds (Ford, turn 1)', '1', 'taken']);
        expect(row(one.lines, 'Boii')).toEqual(['Gauls', 'Boii', 'ready', '—', '0', '—']);
        const two = await run(out => statusCommand('examples/campaign.battle', { at: 'the pass' }, out, () => undefined));
        expect(row(two.lines, 'Thureophoroi')).toEqual(['Successors', 'Thureophoroi', 'ready', 'gives-ground (Pass, turn 2)', '2', 'taken']);
    });

    it('says which turns there are when --at names none', async () => {
        await expect(statusCommand('examples/campaign.battle', { at: '4' }, () => undefined, () => undefined))
            .rejects.toThrow("there is no turn '4' (turns: 1, 2, 3)");
    });

    it('shows Loose Files DPs, casualties and stands, and escapes pipes for markdown', async () => {
        const p = file('lf.battle', `scenario "Cowpens | 1781"
rules loose-files
force Br { unit Legion cavalry { class 2, stands 4 } }
force Am { unit Militia infantry { class 4, stands 6 } }
state Am.Militia: dp 2, casualties 1, stands 5, note "two | three"
`);
        const r = await run(out => statusCommand(p, { markdown: true }, out, () => undefined));
        expect(r.lines.join('\n').split('\n')).toEqual([
            '### Cowpens \\| 1781 — state at the end of the file',
            '',
            '| Force | Unit | Status | Last result | DP | Casualties | Stands | CP spent | Notes |',
            '| --- | --- | --- | --- | --- | --- | --- | --- | --- |',
            '| Br | Legion | ready | — | 0 | 0 | 4 of 4 | 0 |  |',
            // `stands 5` is 6 less 1 lost; the casualty is a stand too (L1.2): 4 stand, as the rules read them.
            '| Am | Militia | ready | — | 2 | 1 | 4 of 6 | 0 | State: two \\| three |',
            '',
            'Luck over the season: no written outcome has odds to measure luck against.'
        ]);
    });
});
