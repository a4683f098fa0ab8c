/**
 * One scale of severities for every rule set's results (src/core/severity.ts): what the Odds view
 * and the report's charts colour by, so that the worst result of any rule set is never shown as a
 * good one, and the same severity is the same colour in SCRUD, Ancients and Loose Files.
 */
import { describe, expect, it } from 'vitest';
import { resultRanks } from '../../src/core/severity.js';
import type { Ruleset } from '../../src/core/ruleset.js';
import { RESULT_SEVERITIES, SEVERITY_COLOURS } from '../../src/protocol.js';
import { builtInRulesets } from '../../src/rulesets/registry.js';

const rulesets = builtInRulesets().all();
const rank = (s: string) => RESULT_SEVERITIES.indexOf(s as never);

describe('the severities of each rule set\'s results', () => {
    it('rank every result on each rule set\'s ladder, best first and worst last, and every result its outcomes write', () => {
        expect(rulesets.map(r => r.id)).toEqual(['scrud', 'ancients', 'loose-files']);
        for (const ruleset of rulesets) {
            const ladder = ruleset.vocabulary.resultLadder!.flat();
            const ranks = resultRanks(ruleset, ladder);
            expect(ranks.map(r => r.label), ruleset.id).toEqual(ladder);
            expect(ranks[0].severity, ruleset.id).toBe('best');
            expect(resultRanks(ruleset, ruleset.vocabulary.results).map(r => r.label).sort(), ruleset.id).toEqual([...ruleset.vocabulary.results].sort());
        }
    });

    it('make the worst of each kind of action worst or next to it, and never good', () => {
        const worst: Record<string, string[]> = { 'scrud': ['rout'], 'ancients': ['destroyed'], 'loose-files': ['routed', 'casualty', 'stand-deserts'] };
        for (const ruleset of rulesets) {
            for (const label of worst[ruleset.id]) {
                const [r] = resultRanks(ruleset, [label]);
                expect(rank(r.severity), `${ruleset.id} ${label}`).toBeGreaterThanOrEqual(rank('worse'));
            }
        }
    });

    it('never get milder down a ladder of one kind of action', () => {
        const fights: Record<string, string[]> = {
            'scrud': ['won', 'stand-off', 'recoil', 'retire', 'retreat', 'rout'],
            'ancients': ['untested', 'holds', 'gives-ground', 'destroyed'],
            'loose-files': ['easy-victory', 'successful', 'stand-off', 'driven-back', 'defeated', 'routed']
        };
        for (const ruleset of rulesets) {
            const severities = resultRanks(ruleset, fights[ruleset.id]).map(r => rank(r.severity));
            expect(severities, ruleset.id).toEqual([...severities].sort((a, b) => a - b));
        }
        const fire = resultRanks(rulesets[2], ['no-effect', 'disordered', 'casualty']).map(r => r.severity);
        expect(fire).toEqual(['none', 'setback', 'worse']);
    });

    it('spread the ladder of a rule set that maps none over the scale, and leave out what it does not rank', () => {
        const bare = { vocabulary: { resultLadder: [['won'], ['tie'], ['lost']] } } as unknown as Ruleset;
        expect(resultRanks(bare, ['lost', 'odd', 'won', 'tie'])).toEqual([
            { label: 'won', severity: 'best' }, { label: 'tie', severity: 'setback' }, { label: 'lost', severity: 'worst' }
        ]);
        expect(resultRanks(undefined, ['won'])).toEqual([]);
    });
});

describe('the colours of the severities', () => {
    /** WCAG's contrast ratio of two `#rrggbb` colours. */
    const contrast = (a: string, b: string) => {
        const lum = (h: string) => {
            const [r, g, bl] = [1, 3, 5].map(i => parseInt(h.slice(i, i + 2), 16) / 255).map(x => (x <= 0.03928 ? x / 12.92 : ((x + 0.055) / 1.055) ** 2.4));
            return 0.2126 * r + 0.7152 * g + 0.0722 * bl;
        };
        const [hi, lo] = [lum(a), lum(b)].sort((x, y) => y - x);
        return (hi + 0.05) / (lo + 0.05);
    };

    it('are all different, green only for the good results, with text that reads on them (WCAG AA, 4.5:1)', () => {
        const fills = RESULT_SEVERITIES.map(s => SEVERITY_COLOURS[s].fill);
        expect(new Set(fills).size).toBe(fills.length);
        const greenest = (h: string) => parseInt(h.slice(3, 5), 16) > parseInt(h.slice(1, 3), 16) + 20;
        expect(RESULT_SEVERITIES.filter(s => greenest(SEVERITY_COLOURS[s].fill))).toEqual(['best', 'good']);
        for (const s of RESULT_SEVERITIES) expect(contrast(SEVERITY_COLOURS[s].fill, SEVERITY_COLOURS[s].text), s).toBeGreaterThanOrEqual(4.5);
    });
});
