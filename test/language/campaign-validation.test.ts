import * as fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parse } from '../support/services.js';


const CAMPAIGN_CODES = ['unit-out-of-action', 'unit-not-arrived', 'force-declared-later', 'outcome-out-of-order', 'state-unknown-key', 'state-value', 'ruling-without-reason'];

/** The campaign diagnostics of a file: `line:col severity code`, 1-based, with the text under the range. */
async function campaignProblems(text: string): Promise<Array<{ at: string, severity: number, code: string, message: string, text: string }>> {
    const doc = await parse(text, { validation: true });
    expect(doc.parseResult.parserErrors.map(e => e.message)).toEqual([]);
    const lines = text.split('\n');
    return (doc.diagnostics ?? []).filter(d => CAMPAIGN_CODES.includes(String(d.code))).map(d => ({
        at: `${d.range.start.line + 1}:${d.range.start.character + 1}`,
        severity: d.severity ?? 1, code: String(d.code), message: d.message as string,
        text: d.range.start.line === d.range.end.line ? lines[d.range.start.line].slice(d.range.start.character, d.range.end.character) : ''
    }));
}

const ROUTED = `rules scrud
force A { unit Foot foot x2 }
force B { unit Foot foot x2 }
engagement Ridge {
  A attacks B
  outcome seed 1 check "x" {
    summary "s"
    A.Foot#1: won, die 6, mod 0, adjusted 6 vs B.Foot#1
    B.Foot#1: rout, die 1, mod 0, adjusted 1 vs A.Foot#1
    A.Foot#2: stand-off, die 3, mod 0, adjusted 3 vs B.Foot#2
    B.Foot#2: stand-off, die 3, mod 0, adjusted 3 vs A.Foot#2
  }
}
`;

describe('a routed, destroyed or fled unit cannot fight again', () => {
    it('flags a routed SCRUD unit named in a later engagement, at its reference', async () => {
        const p = await campaignProblems(ROUTED + 'engagement River { A.Foot#1 attacks B.Foot#1 }\n');
        expect(p).toHaveLength(1);
        expect(p[0]).toMatchObject({ at: '14:37', severity: 1, code: 'unit-out-of-action', text: 'B.Foot#1' });
        expect(p[0].message).toContain('B.Foot#1 routed in engagement Ridge');
        expect(p[0].message).toContain('ruling B.Foot#1: rallied');
    });

    it('flags a whole force that still holds a routed unit, and says to name the units', async () => {
        const p = await campaignProblems(ROUTED + 'engagement River { A attacks B }\n');
        expect(p.map(x => [x.code, x.text])).toEqual([['unit-out-of-action', 'B']]);
        expect(p[0].message).toContain("Name the units that fight instead of 'B'");
    });

    it('accepts the unit once a ruling or a state line rallies it', async () => {
        expect(await campaignProblems(ROUTED + 'ruling B.Foot#1: rallied, reason "IMP: the Grenz reform"\nengagement River { A attacks B }\n')).toEqual([]);
        expect(await campaignProblems(ROUTED + 'state B.Foot#1: rallied\nengagement River { A attacks B }\n')).toEqual([]);
    });

    it('lets the units that did not rout fight on', async () => {
        expect(await campaignProblems(ROUTED + 'engagement River { A attacks B.Foot#2 }\n')).toEqual([]);
    });

    it('flags a destroyed Ancients unit in a melee pairing, and a fled Loose Files unit shot at', async () => {
        const anc = await campaignProblems(`rules ancients
force G { unit H infantry { size large } }
force P { unit I infantry { size large } }
engagement One { G.H attacks P.I
  outcome seed 1 check "x" { summary "s" G.H: destroyed, hits 9, tested vs P.I P.I: holds, hits 4 vs G.H } }
engagement Two { G.H attacks P.I
  G.H front vs P.I front }
`);
        expect(anc.map(x => [x.at, x.code, x.text])).toEqual([['6:18', 'unit-out-of-action', 'G.H'], ['7:3', 'unit-out-of-action', 'G.H']]);
        const lf = await campaignProblems(`rules loose-files
force Br { unit Gun artillery unit Mil infantry }
force Am { unit Line infantry }
engagement One { Am.Line attacks Br.Mil
  outcome seed 1 check "x" { summary "s" Br.Mil: routed, fled vs Am.Line Am.Line: easy-victory vs Br.Mil } }
fire Shot { Am.Line fires at Br.Mil: range 5 }
morale Look { Br.Gun sees Br.Mil }
`);
        expect(lf.map(x => [x.at, x.code, x.text])).toEqual([['6:30', 'unit-out-of-action', 'Br.Mil']]);
        expect(lf[0].message).toContain('fled in engagement One');
    });

    it('lets a routed unit be shot at, seen and rallied', async () => {
        const p = await campaignProblems(`rules loose-files
force Br { unit Col infantry unit Mil infantry }
force Am { unit Line infantry }
engagement One { Am.Line attacks Br.Mil
  outcome seed 1 check "x" { summary "s" Br.Mil: routed, dp 4 vs Am.Line Am.Line: easy-victory vs Br.Mil } }
fire Shot { Am.Line fires at Br.Mil: range 5 }
morale Look { Br.Col sees Br.Mil }
command Steady { Br.Col rallies Br.Mil }
`);
        expect(p).toEqual([]);
    });
});

describe('a unit cannot be used before it exists', () => {
    it('flags a unit used before the turn it enters', async () => {
        const p = await campaignProblems(`rules scrud
force A { unit Foot foot unit Late foot { enters 2 } }
force B { unit Foot foot }
turn 1 { engagement E1 { A.Late attacks B } }
turn 2 { engagement E2 { A.Late attacks B } }
`);
        expect(p.map(x => [x.at, x.code, x.text])).toEqual([['4:26', 'unit-not-arrived', 'A.Late']]);
        expect(p[0].message).toBe("A.Late enters in turn 2 ('enters 2'): it cannot be used in turn 1.");
    });

    it('reads `enters` naming a turn, and counts a named turn by its place', async () => {
        const p = await campaignProblems(`rules scrud
force A { unit Foot foot unit Late foot { enters Dusk } }
force B { unit Foot foot }
turn Dawn { engagement E1 { A attacks B.Foot } }
turn Dusk { engagement E2 { A attacks B.Foot } }
`);
        expect(p.map(x => [x.at, x.code, x.text])).toEqual([['4:29', 'unit-not-arrived', 'A']]);
        expect(p[0].message).toBe("A.Late enters in turn 2 ('enters Dusk'): it cannot be used in turn 1.");
    });

    it('flags a force used above its declaration; a force declared between turns arrives there', async () => {
        const p = await campaignProblems(`rules scrud
force A { unit Foot foot }
force B { unit Foot foot }
turn 1 { engagement E1 { A attacks C } }
force C { unit Foot foot }
turn 2 { engagement E2 { A attacks C } }
state C.Foot: note "held the mill"
`);
        expect(p.map(x => [x.at, x.code, x.text])).toEqual([['4:36', 'force-declared-later', 'C']]);
    });
});

describe('outcomes out of order', () => {
    it('warns on an outcome written while an earlier action has none', async () => {
        const p = await campaignProblems(`rules scrud
force A { unit Foot foot }
force B { unit Foot foot }
turn 1 { engagement E1 { A attacks B } }
turn 2 { engagement E2 { A attacks B
  outcome seed 1 check "x" { summary "s" A.Foot: won, die 5, mod 0, adjusted 5 vs B.Foot B.Foot: recoil, die 4, mod 0, adjusted 4 vs A.Foot } } }
`);
        expect(p.map(x => [x.at, x.severity, x.code, x.text])).toEqual([['6:3', 2, 'outcome-out-of-order', 'outcome']]);
        expect(p[0].message).toContain("earlier engagement 'E1' (turn 1)");
    });

    it('is quiet when outcomes follow the file order', async () => {
        expect(await campaignProblems(ROUTED + 'engagement River { A.Foot#1 attacks B.Foot#2 }\n')).toEqual([]);
    });
});

describe('state and ruling lines', () => {
    it('warns on unknown keys, rejects missing counts, and asks a ruling for its reason', async () => {
        const p = await campaignProblems(`rules loose-files
force Br { unit Guards infantry }
state Br.Guards: dp 2, morale 3, casualties
ruling Br.Guards: rallied
`);
        expect(p.map(x => [x.at, x.severity, x.code])).toEqual([
            ['3:24', 2, 'state-unknown-key'], ['3:34', 1, 'state-value'], ['4:1', 3, 'ruling-without-reason']
        ]);
    });
});

describe('examples/broken-campaign.battle', () => {
    it('raises one diagnostic per mistake, on the line whose comment names its code', async () => {
        const text = fs.readFileSync('examples/broken-campaign.battle', 'utf8');
        const doc = await parse(text, { validation: true });
        const found = (doc.diagnostics ?? []).map(d => `${d.range.start.line + 1} ${String(d.code)}`);
        const expected = text.split('\n').flatMap((line, i) => {
            const m = /\/\/ ([a-z][a-z-]+):/.exec(line);
            return m ? [`${i + 1} ${m[1]}`] : [];
        });
        expect(expected).toHaveLength(CAMPAIGN_CODES.length);
        const byLine = (a: string, b: string) => parseInt(a) - parseInt(b);
        expect(found.sort(byLine)).toEqual(expected);
    });
});
