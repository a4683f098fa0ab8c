/**
 * Each case of what the rule sheets allow in a turn, what they make contradictory, and the messages an
 * umpire reads, written as a file (test/fixtures/sheet/<rules>/NAME.battle) and checked as `umpire check`
 * checks it: the problem is reported on its line, with its code and the sheet's words (or the words that
 * name the mistake), and, for a file of one mistake, as the one problem of the file. The files with no
 * expectation are readings the sheet allows (after a Corlears Hook retreat no halt or continued fight
 * is asked, a unit that fled gets no order, a formation change under fire is resolved with its 2 DPs):
 * they check clean.
 */
import * as path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadFile } from '../../src/cli/load.js';

const ROOT = path.join(__dirname, '..', 'fixtures', 'sheet');

interface Expected { line: number, code: string, words: string, alone?: false }

const CASES: ReadonlyArray<readonly [string, Expected | undefined]> = [
    ['ancients/charged-countercharged', { line: 16, code: 'facts-exclusive', words: 'if it Charged or Counter-Charged' }],
    ['ancients/grade-weight-misspelt', { line: 4, code: 'ancients-stat-unknown', words: 'A unit of grade \'Hoplite\' needs weight to fight' }],
    ['ancients/first-turn-twice', { line: 16, code: 'statement-not-used', words: '\'first turn\' is written twice' }],
    ['ancients/four-rounds', { line: 20, code: 'dice-count', words: 'throws 8 hit dice (its pool), but 9 are entered', alone: false }],
    ['ancients/hit-face', { line: 15, code: 'die-face', words: 'A d6 cannot show 7' }],
    ['ancients/skill-range', { line: 11, code: 'ancients-stat-range', words: 'the difference in skill levels is the total Advantage', alone: false }],
    ['ancients/swap-name', { line: 14, code: 'unknown-reference', words: 'did you mean \'Hoplites\'' }],
    ['ancients/weight-misspelt', { line: 5, code: 'ancients-stat-unknown', words: '\'Peltasts\' needs weight to fight' }],
    ['loose-files/above-scenario', { line: 4, code: 'syntax-error', words: '\'scenario\' goes at the top of the file' }],
    ['loose-files/average-face', { line: 19, code: 'die-face', words: 'An average die cannot show 6' }],
    ['loose-files/casualties-over-stands', { line: 5, code: 'lf-stat-value', words: 'a casualty is one stand' }],
    ['loose-files/class-misspelt', { line: 5, code: 'lf-unknown-stat', words: 'did you mean \'class\'? Until it reads \'class\', \'Line\' is read as class 3' }],
    ['loose-files/corlears-hook-orders', undefined],
    ['loose-files/defender-bayonet', { line: 19, code: 'lf-defender-bayonet', words: '+2 making bayonet attack' }],
    ['loose-files/dice-three-for-one', { line: 19, code: 'dice-count', words: 'A.Guns throws 2 d6 here, and 4 are entered' }],
    ['loose-files/flank-rear', { line: 19, code: 'facts-exclusive', words: 'attacked in flank/rear' }],
    ['loose-files/fled-moves', { line: 20, code: 'lf-fled-moves', words: 'flee the field, remove from table' }],
    ['loose-files/fled-no-order', undefined],
    ['loose-files/formation-then-move', { line: 21, code: 'lf-moves-twice', words: 'Change formation or facing takes 1 turn' }],
    ['loose-files/guns-on-infantry', { line: 14, code: 'lf-stat-value', words: '\'guns\' belongs to artillery' }],
    ['loose-files/limbered-fire', { line: 18, code: 'lf-cannot-fire', words: 'limbered guns are a target' }],
    ['loose-files/morale-easy-victory', { line: 25, code: 'lf-morale-record', words: 'seeing friends retreat/rout within 6 inches', alone: false }],
    ['loose-files/morale-routs-retreats', { line: 18, code: 'facts-exclusive', words: 'cannot both be true of A.Obs sees A.Win' }],
    ['loose-files/morale-seed', { line: 19, code: 'seed-not-used', words: 'seed 5 is not used' }],
    ['loose-files/officer-move-paid', { line: 22, code: 'lf-cp-overspent', words: 'Move own commander up to 1 die … = 1CP', alone: false }],
    ['loose-files/officer-no-cp', { line: 22, code: 'lf-cp-overspent', words: 'Move own commander up to 1 die … = 1CP' }],
    ['loose-files/rally-seed', { line: 20, code: 'seed-not-used', words: 'seed 5 is not used' }],
    ['loose-files/range-40', { line: 18, code: 'lf-range', words: 'light guns reach 30' }],
    ['loose-files/redress-seed', { line: 20, code: 'seed-not-used', words: 'seed 5 is not used' }],
    ['loose-files/redress-stationary-moved', { line: 19, code: 'facts-exclusive', words: 'if stationary' }],
    ['loose-files/redress-twice', { line: 22, code: 'lf-redress-twice', words: 'class 2 removes 1 DP a turn' }],
    ['loose-files/retire-charging', { line: 18, code: 'facts-exclusive', words: 'facing enemy' }],
    ['loose-files/retreat-defeated', { line: 25, code: 'lf-retreat-speed', words: 'Retreat at maximum speed behind next line of friendly troops' }],
    ['loose-files/retreat-driven-back', { line: 25, code: 'lf-retreat-speed', words: 'Retreat one move at maximum speed' }],
    ['loose-files/retreat-never-fought', { line: 18, code: 'lf-retreat-not-compulsory', words: 'the file records no combat of it before this move' }],
    ['loose-files/retreat-rout', { line: 25, code: 'facts-exclusive', words: 'facing enemy' }],
    ['loose-files/rout-short', { line: 26, code: 'lf-retreat-speed', words: 'run away at maximum speed' }],
    ['loose-files/rules-line-below', { line: 11, code: 'syntax-error', words: '\'rules\' goes at the top of the file' }],
    ['loose-files/seed-no-dice', { line: 19, code: 'seed-not-used', words: 'seed 5 is not used' }],
    ['loose-files/swap-name', { line: 18, code: 'unknown-reference', words: 'did you mean \'Raw\'' }],
    ['loose-files/two-moves', { line: 22, code: 'lf-moves-twice', words: 'a unit moves once a turn' }],
    ['loose-files/under-fire', undefined],
    ['loose-files/uphil', { line: 18, code: 'lf-unknown-fact', words: 'did you mean \'uphill\'' }],
    ['loose-files/weapon-on-guns', { line: 9, code: 'lf-stat-value', words: '\'weapon\' belongs to infantry' }],
    ['loose-files/works', { line: 19, code: 'facts-exclusive', words: 'a fort or stone building' }],
    ['scrud/average-face', { line: 12, code: 'die-face', words: 'An average die cannot show 6' }],
    ['scrud/fact-misspelt', { line: 12, code: 'scrud-unknown-fact', words: 'did you mean \'pursuit\'' }],
    ['scrud/rules-line-below', { line: 6, code: 'syntax-error', words: '\'rules\' goes at the top of the file' }],
    ['scrud/stat-misspelt', { line: 5, code: 'scrud-unknown-stat', words: 'did you mean \'die\'' }],
    ['scrud/swap-name', { line: 13, code: 'unknown-reference', words: 'did you mean \'Horse\'' }],
    ['scrud/swap-option', { line: 4, code: 'unknown-option', words: 'did you mean \'pooled\'' }],
    ['scrud/unknown-die', { line: 5, code: 'unknown-die', words: 'dN for N from 2 to 100' }],
];

describe('each case of the sheets, as a file', () => {
    it.each(CASES)('%s', async (name, expected) => {
        const { diagnostics } = await loadFile(path.join(ROOT, `${name}.battle`), { once: true });
        const problems = diagnostics.filter(d => d.severity === 1 || d.severity === 2);
        if (!expected) {
            expect(problems.map(d => d.message)).toEqual([]);
            return;
        }
        const found = diagnostics.filter(d => d.range.start.line + 1 === expected.line && d.code === expected.code);
        expect(found.map(d => d.message).join('\n'), diagnostics.map(d => `${d.range.start.line + 1} ${String(d.code)} ${d.message}`).join('\n')).toContain(expected.words);
        if (expected.alone !== false) expect(problems).toHaveLength(1);
    });
});
