/**
 * What-ifs (docs/reports.md#what-if): the changed set-up is the file's text edited, so the figures
 * must be those of `umpire odds` on the edited file itself, run separately, to 1e-12; and each kind
 * of change edits exactly the line it names.
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { oddsCommand, type OddsCliOptions } from '../../src/cli/odds-command.js';
import { modelOf } from '../../src/core/model-cache.js';
import { applyWhatIf, parseWhatIf } from '../../src/report/what-if.js';
import type { OddsReport } from '../../src/protocol.js';
import { parse } from '../support/services.js';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'umpire-what-if-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

async function run(file: string, options: OddsCliOptions): Promise<string> {
    const lines: string[] = [];
    await oddsCommand(file, options, l => lines.push(l));
    return lines.join('\n');
}

type Odds = { engagements: OddsReport[] };

/** `umpire odds FILE -e NAME --json` on its own, as a second run would give it. */
async function separately(file: string, engagement: string): Promise<OddsReport> {
    return (JSON.parse(await run(file, { engagement, json: true })) as Odds).engagements[0];
}

function expectDifference(diff: { units: Array<{ id: string, probabilities: Record<string, number>, atLeast: Record<string, number> }> }, before: OddsReport, after: OddsReport): void {
    expect(diff.units.map(u => u.id)).toEqual(before.units.map(u => u.id));
    let changed = 0;
    for (const [i, u] of diff.units.entries()) {
        for (const label of Object.keys(before.units[i].probabilities)) {
            const d = after.units[i].probabilities[label] - before.units[i].probabilities[label];
            expect(Math.abs(u.probabilities[label] - d)).toBeLessThanOrEqual(1e-12);
            if (Math.abs(d) > 1e-9) changed++;
        }
        for (const label of Object.keys(before.units[i].atLeast ?? {})) {
            expect(Math.abs(u.atLeast[label] - (after.units[i].atLeast![label] - before.units[i].atLeast![label]))).toBeLessThanOrEqual(1e-12);
        }
    }
    expect(changed).toBeGreaterThan(0);
}

describe('umpire odds --what-if', () => {
    it('"without Uphill" on the ridge: the difference is that of two separate runs on the two files, to 1e-12', async () => {
        const original = fs.readFileSync('examples/scrud-ridge.battle', 'utf8');
        // The example has the factor, once, in the Ridge engagement: the edited file is made here by hand.
        expect(original.match(/^ {2}factor Uphill on French\n/gm)).toHaveLength(1);
        const edited = path.join(dir, 'ridge-without-uphill.battle');
        fs.writeFileSync(edited, original.replace(/^ {2}factor Uphill on French\n/m, ''));
        const out = JSON.parse(await run('examples/scrud-ridge.battle', { engagement: 'Ridge', json: true, whatIf: ['without Uphill'] })) as {
            before: OddsReport, after: OddsReport, difference: Parameters<typeof expectDifference>[0]
        };
        const before = await separately('examples/scrud-ridge.battle', 'Ridge');
        const after = await separately(edited, 'Ridge');
        expect(out.before).toEqual(before);
        expect(out.after).toEqual(after);
        expectDifference(out.difference, before, after);
        // Without the slope, every French unit of the ridge is less likely to be beaten.
        for (const u of out.difference.units.filter(x => x.id.startsWith('French.') && !x.id.includes('Conscripts#2'))) expect(u.atLeast.recoil).toBeLessThan(0);
    });

    it('"grade Gauls.Boii Thureophoroi" on the campaign: the same as the edited file run separately', async () => {
        const original = fs.readFileSync('examples/campaign.battle', 'utf8');
        const edited = path.join(dir, 'campaign-graded.battle');
        fs.writeFileSync(edited, original.replace('unit Boii infantry Warband', 'unit Boii infantry Thureophoroi'));
        const out = JSON.parse(await run('examples/campaign.battle', { engagement: 'Pass', json: true, whatIf: ['grade Gauls.Boii Thureophoroi'] })) as {
            before: OddsReport, after: OddsReport, difference: Parameters<typeof expectDifference>[0]
        };
        expect(out.after).toEqual(await separately(edited, 'Pass'));
        expectDifference(out.difference, await separately('examples/campaign.battle', 'Pass'), out.after);
    });

    it('prints both set-ups and the difference in percentage points', async () => {
        const text = await run('examples/scrud-ridge.battle', { engagement: 'Ridge', whatIf: ['without Uphill'] });
        expect(text).toMatch(/^As written:\nengagement Ridge: exact odds/);
        expect(text).toContain('What if without Uphill:\nengagement Ridge: exact odds');
        expect(text).toMatch(/Difference \(what if without Uphill minus as written\), in percentage points:\n {2}unit +unpaired +stand-off/);
    });

    it('refuses a change it cannot make, in umpire words', async () => {
        await expect(run('examples/scrud-ridge.battle', { whatIf: ['without Uphill'] })).rejects.toThrow(/--what-if needs --engagement/);
        await expect(run('examples/scrud-ridge.battle', { engagement: 'Village', whatIf: ['without Uphill'] })).rejects.toThrow(/engagement Village has no factor Uphill/);
        await expect(run('examples/scrud-ridge.battle', { engagement: 'Ridge', whatIf: ['uphill please'] })).rejects.toThrow(/is not a what-if/);
        await expect(run('examples/scrud-ridge.battle', { engagement: 'Ridge', whatIf: ['with Mud on French'] })).rejects.toThrow(/there is no modifier Mud/);
        await expect(run('examples/scrud-ridge.battle', { engagement: 'Ridge', whatIf: ['with Woods on Austria'] })).rejects.toThrow(/has the errors above/);
    });
});

describe('the edit of each what-if', () => {
    const text = 'scenario "W"\nrules scrud\ngrade Veteran +1\ngrade Line 0\nmodifier Uphill -1\nmodifier Woods +1\n' +
        'force A {\n  unit Foot foot\n  unit Old foot Veteran x2\n}\nforce B {\n  unit Foot foot Line\n}\n' +
        'engagement E {\n  A attacks B\n  factor Uphill, Woods on A\n  factor Uphill on A.Foot\n  seed 3\n}\n';
    async function edit(change: string): Promise<string> {
        const model = modelOf((await parse(text)).parseResult.value);
        const parsed = parseWhatIf(change);
        if ('problem' in parsed) throw new Error(parsed.problem);
        const r = applyWhatIf(model, model.actions[0], parsed, text);
        if (typeof r !== 'string') throw new Error(r.problem);
        return r;
    }
    it('removes a factor from every line that names it, and the line when it named nothing else', async () => {
        expect(await edit('without Uphill')).toContain('  A attacks B\n  factor Woods on A\n  seed 3\n');
    });
    it('adds a factor line after the last statement, at its indent', async () => {
        expect(await edit('with Woods on B.Foot')).toContain('  seed 3\n  factor Woods on B.Foot\n}');
    });
    it('changes or adds a unit\'s grade', async () => {
        expect(await edit('grade A.Old Line')).toContain('  unit Old foot Line x2\n');
        expect(await edit('grade A.Foot Veteran')).toContain('  unit Foot foot Veteran\n');
    });
    it('sets and removes an option', async () => {
        const pooled = await edit('option pooled');
        expect(pooled).toContain('rules scrud\noption pooled\ngrade');
        const model = modelOf((await parse(pooled)).parseResult.value);
        const removed = applyWhatIf(model, model.actions[0], { kind: 'without-option', name: 'pooled' }, pooled);
        expect(removed).toBe(text);
    });
});
