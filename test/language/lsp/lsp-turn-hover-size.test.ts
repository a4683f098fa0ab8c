/**
 * A turn's hover gives the campaign's odds only where they are quick to work out: past a number of
 * actions it points to the Odds view's Campaign tab (or the CLI) instead of working them out while
 * the pointer passes.
 */
import { describe, expect, it } from 'vitest';
import { isTurn, type Turn } from '../../../src/language/generated/ast.js';
import { modelOf } from '../../../src/core/model-cache.js';
import { HOVER_ACTIONS, turnOddsHover } from '../../../src/language/lsp/turn-odds-hover.js';
import { parse } from '../../support/services.js';

/** A SCRUD campaign of `n` seeded engagements, one a turn. */
function campaign(n: number): string {
    const turns = Array.from({ length: n }, (_, i) => `turn ${i + 1} {\n  engagement E${i + 1} {\n    A attacks B\n    seed ${i + 7}\n  }\n}`);
    return ['scenario "Long season"', 'rules scrud', 'force A {\n  unit Foot foot x2\n}', 'force B {\n  unit Foot foot x2\n}', ...turns].join('\n');
}

async function hoverOfFirstTurn(n: number, link?: { uri: string }): Promise<string> {
    const doc = await parse(campaign(n));
    const turn = doc.parseResult.value.elements.find(isTurn) as Turn;
    return turnOddsHover(modelOf(doc.parseResult.value), turn, link);
}

describe("a turn's hover and the size of the campaign", () => {
    it('gives the odds through the turn in a small campaign', async () => {
        const value = await hoverOfFirstTurn(3);
        expect(value).toContain('**Campaign odds at the end of this turn**');
        expect(value).toMatch(/\*\*B\*\*: at least one routed \d/);
    });

    it('leaves them to the Campaign tab past the hover\'s size, with the link to it', async () => {
        const value = await hoverOfFirstTurn(HOVER_ACTIONS + 1, { uri: 'file:///long.battle' });
        expect(value).not.toContain('Campaign odds at the end of this turn');
        expect(value).toContain(`This campaign has ${HOVER_ACTIONS + 1} actions: its odds are worked out on request.`);
        expect(value).toMatch(/\[Show the campaign's odds through turn 1\]\(command:umpire\.showOdds\?/);
    });

    it('names the command line where the editor has no Odds view', async () => {
        expect(await hoverOfFirstTurn(HOVER_ACTIONS + 1)).toContain('`umpire odds FILE --campaign --through 1`');
    });
});
