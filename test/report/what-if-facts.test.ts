/**
 * What-ifs on facts written on units (docs/reports.md#what-if): `without fact charged on
 * Greeks.Companions` and `with fact charged on Greeks.Hoplites` edit the engagement's `Unit: fact`
 * lines; the odds with the change are those of the edited file run separately, to 1e-12.
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { oddsCommand } from '../../src/cli/odds-command.js';
import { modelOf } from '../../src/core/model-cache.js';
import { applyWhatIf, parseWhatIf } from '../../src/report/what-if.js';
import type { OddsReport } from '../../src/protocol.js';
import { parse } from '../support/services.js';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'umpire-what-if-facts-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

// The ford without its entered dice: the odds are before the dice, and a charge changes how many are thrown.
const ford = fs.readFileSync('examples/ancients-flank.battle', 'utf8').replace(/^ {2}dice .*\n/gm, '');

async function odds(file: string, whatIf?: string[]): Promise<{ engagements?: OddsReport[], after?: OddsReport, difference?: { units: Array<{ id: string, probabilities: Record<string, number> }> } }> {
    const lines: string[] = [];
    await oddsCommand(file, { engagement: 'Ford', json: true, whatIf }, l => lines.push(l));
    return JSON.parse(lines.join('\n'));
}

describe('what-ifs on facts', () => {
    it('"without fact charged on Greeks.Companions": the odds of the file with that line removed, run separately, to 1e-12', async () => {
        expect(ford.match(/^ {2}Greeks\.Companions: charged\n/gm)).toHaveLength(1);
        const original = path.join(dir, 'ford.battle');
        const edited = path.join(dir, 'ford-no-charge.battle');
        fs.writeFileSync(original, ford);
        fs.writeFileSync(edited, ford.replace(/^ {2}Greeks\.Companions: charged\n/m, ''));
        const out = await odds(original, ['without fact charged on Greeks.Companions']);
        const before = (await odds(original)).engagements![0];
        const after = (await odds(edited)).engagements![0];
        expect(out.after).toEqual(after);
        let changed = 0;
        for (const [i, u] of out.difference!.units.entries()) {
            for (const label of Object.keys(before.units[i].probabilities)) {
                const d = after.units[i].probabilities[label] - before.units[i].probabilities[label];
                expect(Math.abs(u.probabilities[label] - d)).toBeLessThanOrEqual(1e-12);
                if (Math.abs(d) > 1e-9) changed++;
            }
        }
        // The charge counts (A-rules): without it the fight's chances move.
        expect(changed).toBeGreaterThan(0);
    });

    const text = ford.replace('  Greeks.Companions: charged\n  Greeks.Companions: follow-up\n', '  Greeks.Companions: charged, follow-up\n');
    async function edit(change: string, source = text): Promise<string | { problem: string }> {
        const model = modelOf((await parse(source)).parseResult.value);
        const parsed = parseWhatIf(change);
        if ('problem' in parsed) return parsed;
        return applyWhatIf(model, model.actions[0], parsed, source);
    }

    it('takes one fact out of a line that has others, and the whole line when it was the only one', async () => {
        expect(await edit('without fact charged on Greeks.Companions')).toContain('  first turn\n  Greeks.Companions: follow-up\n  Greeks.Hoplites front');
        expect(await edit('without fact charged on Greeks.Companions', ford)).toContain('  first turn\n  Greeks.Companions: follow-up\n  Greeks.Hoplites front');
    });

    it('adds a fact line after the last statement, with its value if any', async () => {
        expect(await edit('with fact charged on Greeks.Hoplites')).toMatch(/ {2}split [^\n]*\n {2}Greeks\.Hoplites: charged\n\}/);
        expect(await edit('with fact dp 2 on Greeks.Hoplites')).toMatch(/\n {2}Greeks\.Hoplites: dp 2\n\}/);
    });

    it('refuses a fact that is not there, or already is, saying so', async () => {
        expect(await edit('without fact charged on Greeks.Hoplites')).toEqual({ problem: 'engagement Ford has no fact charged on Greeks.Hoplites' });
        expect(await edit('with fact charged on Greeks.Companions')).toEqual({ problem: 'engagement Ford already has the fact charged on Greeks.Companions' });
        expect(await edit('without fact charged')).toMatchObject({ problem: expect.stringMatching(/is not a what-if: .*'with fact FACT on UNIT'/) });
    });
});
