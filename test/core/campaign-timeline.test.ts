/**
 * One campaign timeline for every view: an action not written yet whose dice are in the file carries
 * its outcome to later actions in every rule set, so `check`, the `resolve` preview, hovers and
 * `resolve --write` judge a later action from the same state; an action whose start waits on one
 * without dice or seed says so, and names it (docs/campaigns.md#settled, #undecided).
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { checkCommand } from '../../src/cli/check-command.js';
import { resolveCommand } from '../../src/cli/resolve-command.js';
import { resolveWriteCommand } from '../../src/cli/resolve-write.js';
import { CliError } from '../../src/cli/load.js';
import { modelOf } from '../../src/core/model-cache.js';
import { unitStateAt, waitsOn } from '../../src/core/campaign-state.js';
import { causeText } from '../../src/core/status-words.js';
import { parse } from '../support/services.js';
import { UNDECIDED } from '../support/undecided-campaign.js';

let dir: string;
beforeEach(() => { dir = fs.mkdtempSync(path.join(os.tmpdir(), 'umpire-timeline-')); });
afterEach(() => { fs.rmSync(dir, { recursive: true, force: true }); });

function file(name: string, text: string): string {
    const p = path.join(dir, name);
    fs.writeFileSync(p, text);
    return p;
}

async function run(command: (out: (line: string) => void) => Promise<number>): Promise<{ code: number, lines: string[] }> {
    const lines: string[] = [];
    try {
        return { code: await command(line => lines.push(line)), lines };
    } catch (err) {
        if (err instanceof CliError) return { code: err.exitCode, lines: [...lines, err.message] };
        throw err;
    }
}

/** B.X routs in turn 1 (its dice entered, the outcome not written) and is sent in again in turn 2. */
const SCRUD_ROUT = `rules scrud
force A { unit Foot foot x2 }
force B { unit X foot unit Y foot }
turn 1 {
  engagement E1 {
    A.Foot#1 attacks B.X
    dice A.Foot#1 6
    dice B.X 1
  }
}
turn 2 {
  engagement E2 {
    A.Foot#2 attacks B.X
    dice A.Foot#2 3
    dice B.X 3
  }
}
`;

describe('an unwritten but settled outcome takes a unit out of every later fight', () => {
    it('SCRUD: check finds the routed unit before the rout is written, as it does after', async () => {
        const p = file('rout.battle', SCRUD_ROUT);
        const checked = await run(out => checkCommand([p], out, () => undefined));
        expect(checked.code).toBe(1);
        expect(checked.lines.join('\n')).toMatch(/rout\.battle:13:22 error unit-out-of-action B\.X routed in engagement E1 \(turn 1\)/);
        // resolve and --write refuse for the same reason, and write nothing.
        const preview = await run(out => resolveCommand(p, {}, out));
        expect(preview.code).toBe(1);
        const written = await run(out => resolveWriteCommand(p, {}, out, undefined, out));
        expect(written.code).toBe(1);
        expect(written.lines.join('\n')).toContain('unit-out-of-action B.X routed in engagement E1 (turn 1)');
        expect(fs.readFileSync(p, 'utf8')).toBe(SCRUD_ROUT);
        // Written by hand with E2 taken out, the outcome of E1 is the one its dice settled.
        const alone = file('alone.battle', SCRUD_ROUT.replace(/turn 2 \{[^]*$/, ''));
        const statuses = modelOf((await parse(SCRUD_ROUT)).parseResult.value);
        const x = unitStateAt(statuses, statuses.actions[1], 'B.X')!;
        expect([x.status, causeText(x.statusCause!)]).toEqual(['routed', 'routed in engagement E1 (turn 1)']);
        expect((await run(out => resolveWriteCommand(alone, {}, out))).code).toBe(0);
        expect(fs.readFileSync(alone, 'utf8')).toContain('B.X: rout, die 1');
    });

    it('Ancients: the second break test is previewed with the first one\'s token and test, as --write writes it', async () => {
        const unresolved = fs.readFileSync('examples/campaign.battle', 'utf8').replace(/\n[ \t]*outcome [^{]*\{[^}]*\}/g, '');
        const p = file('campaign.battle', unresolved);
        const preview = (await run(out => resolveCommand(p, {}, out))).lines;
        const tests = preview.filter(l => l.includes('break test'));
        expect(tests).toContain('    break test: 4+3 = 7 +1 winning side −1 damage tokens → 7 vs leadership 7: gives-ground; gains 1 token');
        expect(tests.join('\n')).not.toContain('4+3 = 7 +1 first test +1 winning side');
        const written = await run(out => resolveWriteCommand(p, {}, out, undefined, out));
        expect(written.code).toBe(0);
        // What --write prints of each outcome is what the preview printed.
        expect(written.lines.slice(0, -1)).toEqual(preview);
    });
});


describe('an action whose start waits on one without dice or seed', () => {
    it('is named by the timeline, directly and through another waiting action', async () => {
        const model = modelOf((await parse(UNDECIDED)).parseResult.value);
        const byName = (n: string) => model.actions.find(a => a.node.name === n)!;
        expect(waitsOn(model, byName('E1'))).toBeUndefined();
        expect(waitsOn(model, byName('E3'))).toBeUndefined();
        expect(waitsOn(model, byName('E2'))?.name).toBe('E1');
        // E4 shares A.Foot#2 with E2, which waits on E1: E4 waits on E1 too.
        expect(waitsOn(model, byName('E4'))?.name).toBe('E1');
    });

    it('waits only through the units its outcome writes: a unit it names only by a factor line does not wait', async () => {
        // E1 is undecided and names B.Z only in a factor line: its outcome writes no line for B.Z, so E5, where B.Z
        // fights, starts from B.Z's declared state and is settled; E2, where B.X (on E1's sides) fights again, waits.
        const text = UNDECIDED
            .replace('    A.Foot#1 attacks B.X\n', '    A.Foot#1 attacks B.X\n    factor Uphill on B.Z\n')
            .replace('force A {', 'modifier Uphill -1\nforce A {')
            .replace('unit Y foot', 'unit Y foot unit Z foot')
            .concat('turn 4 {\n  engagement E5 {\n    A.Horse attacks B.Z\n    seed 5\n  }\n}\n');
        const doc = await parse(text);
        expect(doc.parseResult.parserErrors).toEqual([]);
        const model = modelOf(doc.parseResult.value);
        const byName = (n: string) => model.actions.find(a => a.node.name === n)!;
        expect(waitsOn(model, byName('E2'))?.name).toBe('E1');
        expect(waitsOn(model, byName('E5'))).toBeUndefined();
        const p = file('factor-only.battle', text);
        const preview = (await run(out => resolveCommand(p, {}, out))).lines.join('\n');
        expect(preview).toContain('engagement E5 (turn 4 · seed 5)');
        expect(preview).toContain('engagement E2 (turn 2 · not decided)');
    });

    it('resolve says it is not decided and names the action it waits on; the others are previewed', async () => {
        const p = file('undecided.battle', UNDECIDED);
        const preview = await run(out => resolveCommand(p, {}, out));
        expect(preview.code).toBe(0);
        const text = preview.lines.join('\n');
        expect(text).toContain('engagement E1 (turn 1 · not decided)\n  Result: not decided until a seed is drawn');
        expect(text).toContain('engagement E2 (turn 2 · not decided)\n  Result: not decided until engagement \'E1\' is');
        expect(text).toContain('engagement E4 (turn 3 · not decided)\n  Result: not decided until engagement \'E1\' is');
        expect(text).toContain('engagement E3 (turn 1 · seed 3)');
        const json = JSON.parse((await run(out => resolveCommand(p, { json: true }, out))).lines.join('\n'));
        expect(json.engagements.map((e: { name: string }) => e.name)).toEqual(['E3']);
        expect(json.undecided.map((u: { name: string, waitsOn?: string }) => [u.name, u.waitsOn ?? null])).toEqual([['E1', null], ['E2', 'E1'], ['E4', 'E1']]);
    });

    it('once E1 is written, every later action is decided and previewed as --write then writes it', async () => {
        const p = file('undecided.battle', UNDECIDED.replace('    A.Foot#1 attacks B.X\n', '    A.Foot#1 attacks B.X\n    seed 2\n'));
        const preview = (await run(out => resolveCommand(p, {}, out))).lines;
        expect(preview.join('\n')).not.toContain('not decided');
        const written = await run(out => resolveWriteCommand(p, {}, out, undefined, out));
        if (written.code === 0) expect(written.lines.slice(0, -1)).toEqual(preview);
        else expect((await run(out => checkCommand([p], out, () => undefined))).code).toBe(1);
    });
});
