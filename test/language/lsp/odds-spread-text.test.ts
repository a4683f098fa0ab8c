/**
 * The hover's odds and the odds as Markdown show each count as mean ± sd, the figures of the odds
 * the CLI prints (docs/odds.md "Spread"), and the mean alone where the spread is not known.
 */
import * as fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { modelOf } from '../../../src/core/model-cache.js';
import { oddsForAction } from '../../../src/core/odds.js';
import { isUnresolvable } from '../../../src/core/resolve.js';
import { oddsSummary } from '../../../src/language/lsp/odds-request.js';
import { showOddsText } from '../../../src/language/lsp/odds-text-request.js';
import type { EditorSide } from '../../../src/language/lsp/outcome-requests.js';
import type { OddsAnswer, OddsReport } from '../../../src/protocol.js';
import { parse, services } from '../../support/services.js';

async function firstAction(file: string) {
    const doc = await parse(fs.readFileSync(file, 'utf8'), { validation: true });
    const model = modelOf(doc.parseResult.value);
    const action = model.actions[0];
    const report = oddsForAction(model, action);
    if (isUnresolvable(report)) throw new Error(report.problem);
    return { model, action, report };
}

async function markdownOf(report: OddsReport): Promise<string> {
    const told: string[] = [];
    const editor = { tell: (_kind: string, message: string) => told.push(message) } as unknown as EditorSide;
    const shown = await showOddsText(services.shared, editor, async () => report as OddsAnswer, { uri: 'file:///x.battle', action: report.name }, undefined, undefined);
    expect(told).toEqual([shown.markdown]);
    return shown.markdown;
}

describe('the odds in hovers and as Markdown: mean ± sd', () => {
    it('an Ancients engagement: each side\'s results and each unit\'s hits and tokens', async () => {
        const { model, action, report } = await firstAction('examples/ancients-flank.battle');
        const hover = oddsSummary(model, action)!;
        const markdown = await markdownOf(report);
        expect(report.sides.some(s => s.expected.destroyed >= 0.05)).toBe(true);
        for (const side of report.sides) {
            const d = side.expected.destroyed, sd = side.sd!.destroyed;
            // The hover leaves out a result expected of fewer than 0.05 units.
            const line = hover.split('\n').find(l => l.startsWith(`- **${side.force}** expects `))!;
            if (d >= 0.05) expect(line).toContain(`${d.toFixed(1)} ± ${sd.toFixed(1)} destroyed`);
            else expect(line).not.toMatch(/± \d\.\d destroyed/);
            expect(markdown).toContain(`${d.toFixed(2)} ± ${sd.toFixed(2)} destroyed`);
        }
        expect(markdown).toContain('| hits (mean ± sd) | tokens (mean ± sd) |');
        for (const u of report.units) {
            expect(markdown).toContain(`| ${(u.expectedHits as number).toFixed(2)} ± ${(u.sdHits as number).toFixed(2)} | ${(u.expectedTokens as number).toFixed(2)} ± ${(u.sdTokens as number).toFixed(2)} |`);
        }
    });

    it('a SCRUD engagement of whole lines: the means alone, and the note saying why', async () => {
        const { model, action, report } = await firstAction('examples/scrud-seed.battle');
        const hover = oddsSummary(model, action)!;
        expect(hover).toMatch(/- \*\*Attacker\*\* expects \d\.\d unpaired, /);
        expect(hover).not.toContain('±');
        expect(hover).toContain('the spread (sd) of the number of units with each result is left out');
        expect(await markdownOf(report)).not.toContain('±');
    });
});
