/**
 * Each unit in one place (docs/campaigns.md#one-fight-a-turn): in every rule set, a unit in two
 * engagements of one turn is an error naming the first; a unit named twice on one side, or on both
 * sides, is an error.
 */
import { describe, expect, it } from 'vitest';
import { validate } from '../support/services.js';

async function problems(text: string, codes: readonly string[]): Promise<Array<{ line: number, code: string, message: string }>> {
    const { diagnostics, document } = await validate(text);
    expect(document.parseResult.parserErrors.map(e => e.message)).toEqual([]);
    return diagnostics.filter(d => codes.includes(String(d.code)))
        .map(d => ({ line: d.range.start.line + 1, code: String(d.code), message: d.message as string }));
}

const HEADERS: Record<string, string> = {
    scrud: `rules scrud
force A { unit Foot foot x2 unit Horse horse }
force B { unit Foot foot x2 unit Horse horse }`,
    ancients: `rules ancients
grade Hoplites { size medium, weight heavy, formation formed, skill 2, leadership 7 }
force A { unit Foot infantry Hoplites x2 unit Horse infantry Hoplites }
force B { unit Foot infantry Hoplites x2 unit Horse infantry Hoplites }`,
    'loose-files': `rules loose-files
grade Line { class 3, stands 4 }
force A { unit Foot infantry Line x2 unit Horse cavalry Line }
force B { unit Foot infantry Line x2 unit Horse cavalry Line }`
};

/** A one-on-one engagement as each rule set writes it (Ancients pairs its units). */
function engagement(rules: string, name: string, attacker: string, defender: string): string {
    const pairing = rules === 'ancients' ? `\n    ${attacker} vs ${defender}` : '';
    return `  engagement ${name} {\n    ${attacker} attacks ${defender}${pairing}\n    seed 5\n  }\n`;
}

describe.each(Object.keys(HEADERS))('one fight a turn in %s', rules => {
    it('a unit in two engagements of one turn is an error at the second, naming the first', async () => {
        const text = `${HEADERS[rules]}\nturn 1 {\n${engagement(rules, 'First', 'A.Foot#1', 'B.Foot#1')}${engagement(rules, 'Second', 'A.Foot#1', 'B.Foot#2')}}\n`;
        const found = await problems(text, ['unit-fights-twice']);
        expect(found).toHaveLength(1);
        expect(found[0].message).toMatch(/^A\.Foot#1 already fights in engagement 'First' this turn \(turn 1\)/);
        // The line of the second engagement's sides.
        expect(text.split('\n')[found[0].line - 1]).toContain('A.Foot#1 attacks B.Foot#2');
    });

    it('the same unit in engagements of two turns, or outside turns, is no error', async () => {
        const twoTurns = `${HEADERS[rules]}\nturn 1 {\n${engagement(rules, 'First', 'A.Foot#1', 'B.Foot#1')}}\nturn 2 {\n${engagement(rules, 'Second', 'A.Foot#1', 'B.Foot#2')}}\n`;
        expect(await problems(twoTurns, ['unit-fights-twice'])).toEqual([]);
        const noTurns = `${HEADERS[rules]}\n${engagement(rules, 'First', 'A.Foot#1', 'B.Foot#1')}${engagement(rules, 'Second', 'A.Foot#1', 'B.Foot#2')}`;
        expect(await problems(noTurns, ['unit-fights-twice'])).toEqual([]);
    });

    it('a unit named twice on one side is an error at the second name', async () => {
        const text = `${HEADERS[rules]}\n  engagement Twice {\n    A.Foot#1, A.Foot#1 attacks B.Foot#1\n    seed 5\n  }\n`;
        const found = await problems(text, ['unit-named-twice']);
        expect(found).toEqual([{ line: text.split('\n').findIndex(l => l.includes('A.Foot#1, A.Foot#1')) + 1, code: 'unit-named-twice', message: 'A.Foot#1 is already on this side (as \'A.Foot#1\'): name each unit once.' }]);
        const inForce = `${HEADERS[rules]}\n  engagement Whole {\n    A, A.Horse attacks B\n    seed 5\n  }\n`;
        expect((await problems(inForce, ['unit-named-twice'])).map(p => p.message)).toEqual(['A.Horse is already on this side (as \'A\'): name each unit once.']);
    });

    it('references written differently that name one unit are an error; references of other units, or other instances, are none', async () => {
        const side = (attackers: string) => `${HEADERS[rules]}\n  engagement Side {\n    ${attackers} attacks B.Foot#1\n    seed 5\n  }\n`;
        const named = async (attackers: string) => (await problems(side(attackers), ['unit-named-twice'])).map(p => p.message);
        expect(await named('A.Foot, A.Foot#2')).toEqual(['A.Foot#2 is already on this side (as \'A.Foot\'): name each unit once.']);
        // A unit without a count is its own first instance.
        expect(await named('A.Horse, A.Horse#1')).toEqual(['A.Horse is already on this side (as \'A.Horse\'): name each unit once.']);
        expect(await named('A.Foot#1, A.Foot#2, A.Horse')).toEqual([]);
        expect(await named('A.Foot#1, B.Foot#2')).toEqual([]);
    });

    it('a unit on both sides is an error', async () => {
        const text = `${HEADERS[rules]}\n  engagement Both {\n    A.Foot#1 attacks A.Foot#1\n    seed 5\n  }\n`;
        const found = await problems(text, ['unit-on-both-sides', 'same-force-both-sides']);
        expect(found.length).toBeGreaterThan(0);
        expect(found.every(p => p.code === 'unit-on-both-sides' || p.code === 'same-force-both-sides')).toBe(true);
    });
});
