import { describe, expect, it } from 'vitest';
import { loadText } from '../../src/cli/load.js';
import { describeSyntaxError, syntaxErrorStart, type ParserErrorLike } from '../../src/language/syntax-messages.js';
import { parse } from '../support/services.js';
import { builtInRulesets } from '../../src/rulesets/registry.js';

/** The syntax errors of a text: line:column and message, in the order the tool reports them. */
async function syntaxErrors(text: string): Promise<string[]> {
    const loaded = await loadText('syntax.battle', text);
    return loaded.diagnostics.filter(d => d.code === 'syntax-error').map(d => `${d.range.start.line + 1}:${d.range.start.character + 1} ${d.message}`);
}

async function messages(text: string): Promise<string[]> {
    return (await syntaxErrors(text)).map(m => m.replace(/^\d+:\d+ /, ''));
}

const HEAD = 'rules scrud\ngrade Line 0\nmodifier Up -1\nforce Blue { unit Foot foot Line }\nforce Red { unit Foot foot Line }\n';
const engagement = (...lines: string[]) => `${HEAD}engagement E {\n${lines.map(l => `  ${l}\n`).join('')}}\n`;

describe('syntax errors in umpire words', () => {
    it('names what was expected in words, not token types, with the shape of the line', async () => {
        expect(await messages('rules scrud\ngrade 5\n')).toEqual(["Expected a name here, not '5': a grade is 'grade Veteran +1' or 'grade Hoplite { size large }'."]);
    });

    it('says which words start a line when a line starts with something else', async () => {
        const [first] = await messages('rules scrud\nhello world\n');
        expect(first).toMatch(/^'hello' cannot start a line here: a line starts with grade, modifier, force/);
    });

    it('names a stray character by itself', async () => {
        expect(await messages('rules scrud\n$\n')).toContain("The character '$' is not part of the .battle language.");
    });

    it('never leaks grammar token lists: a misspelt verb is named, with what was meant', async () => {
        // Before: "Unexpected 'Blue' here: expected 'ID,' or 'factor' or 'dice' or 'seed'." and a second error on the same word.
        expect(await syntaxErrors(engagement('Blue attack Red'))).toEqual(["7:8 'attack' is not a word of .battle: did you mean 'attacks'?"]);
    });

    it('suggests the keyword a line was meant to start with', async () => {
        expect(await syntaxErrors(`${HEAD}engagment E {\n  Blue attacks Red\n}\n`)).toEqual(["6:1 'engagment' cannot start a line here: did you mean 'engagement'?"]);
    });

    it('says which block is not closed, and where it opened', async () => {
        const text = 'rules scrud\ngrade Line 0\nforce Blue {\n  unit Foot foot Line\nforce Red {\n  unit Foot foot Line\n}\n';
        expect(await syntaxErrors(text)).toEqual(["5:1 The force 'Blue' (line 3) is not closed: add '}' before this line."]);
        const open = `${HEAD}engagement E {\n  Blue attacks Red\n  seed 3\nengagement F {\n  Blue attacks Red\n}\n`;
        expect(await syntaxErrors(open)).toEqual(["9:1 The engagement 'E' (line 6) is not closed: add '}' before this line."]);
        expect(await syntaxErrors(`${HEAD}turn 1 {\n  engagement E {\n    Blue attacks Red\n  }\n`))
            .toEqual(["9:4 The turn '1' (line 6) is not closed: add '}' at the end of the file."]);
    });

    it("says a '}' closes nothing", async () => {
        expect(await syntaxErrors(`${engagement('Blue attacks Red')}}\n`)).toEqual(["9:1 This '}' closes nothing: remove it, or look above for a block whose '{' is missing."]);
    });

    it('says what a force holds when a line in it is not a unit', async () => {
        expect(await messages('rules scrud\ngrade Line 0\nforce Blue {\n  unit Foot foot Line\n  front\n}\n')).toEqual([
            "'front' does not belong in a force: a force holds unit lines only, as in 'unit Foot foot Line'; or is a '}' missing before it?"
        ]);
    });

    it('points at a comma that ends a line when the list has ended', async () => {
        expect(await syntaxErrors(engagement('Blue attacks Red,', 'seed 4'))).toEqual([
            "8:3 Expected a name after the ',' that ends the line above, not 'seed': a ',' continues a list; remove it if the list has ended."
        ]);
    });

    it('gives one error for one mistake (the parser recovering does not report it again)', async () => {
        // Before: three errors on the 'x' (a number expected, no statement starts with 'x', '}' expected).
        expect(await syntaxErrors(engagement('Blue attacks Red', 'seed x'))).toEqual(["8:8 Expected a number here, not 'x': a seed is a whole number: 'seed 4'."]);
        // An unclosed quote is one error, not a stray '"' and then an unexpected word.
        expect(await messages('scenario "Open\nrules scrud\n')).toEqual(["This quoted text is not closed: add '\"' where it ends, on the same line."]);
    });

    it('reports independent mistakes on different lines', async () => {
        expect(await syntaxErrors(engagement('Blue attacks Red', 'factor Up Blue', 'seed x'))).toEqual([
            "8:13 Expected 'on' here, not 'Blue': a factor line is 'factor Uphill on Blue.Foot'.",
            "9:8 Expected a number here, not 'x': a seed is a whole number: 'seed 4'."
        ]);
    });

    it('explains a unit without its arm, the sides without a defender, a dice line without its thrower', async () => {
        expect(await messages('rules scrud\ngrade Line 0\nforce Blue {\n  unit Foot\n}\n')).toEqual([
            "Unexpected '}' here: expected a word (a unit line is 'unit Foot foot Line x2': its name, its arm, then its grade and count if any)."
        ]);
        expect(await messages(engagement('Blue attacks'))).toEqual([
            "Expected a name after 'attacks' here, not '}': the sides are 'Blue attacks Red' (forces or units, several separated by commas)."
        ]);
        expect(await messages(engagement('Blue attacks Red', 'dice 1 2 3'))).toEqual([
            "Expected a name here, not '1': a dice line names who threw, then the dice: 'dice Blue foot 4 2 6'."
        ]);
    });

    it('says that only a distance takes a fraction', async () => {
        expect(await messages(engagement('Blue attacks Red', 'seed 4.5'))).toEqual([
            "Expected a number here, not '4.5': a seed is a whole number: 'seed 4'. Only a distance fact (such as `range 9.5`) takes a fraction; dice, counts and stats are whole numbers."
        ]);
    });

    it('no message names a grammar rule or token type', async () => {
        const broken = [
            engagement('Blue attack Red'), engagement('Blue attacks Red', 'seed x'), engagement('Blue attacks'), engagement('1 2 3'),
            engagement('Blue.Foot: charged,'), 'rules scrud\nforce {\n}\n', 'rules\nforce A { unit X foot }\n', 'rules scrud\nturn {\n}\n',
            'rules scrud\nmodifier Up\n', 'rules scrud\nforce A { unit X foot x }\n', 'rules scrud\nhouse { result }\n',
            engagement('Blue attacks Red', 'seed 3..4'), 'rules scrud\nhouse { result 1..2 }\n', 'rules scrud\ngrade 1..2\n'
        ];
        for (const text of broken) {
            for (const m of await messages(text)) {
                expect(m).not.toMatch(/\b(ID|INT|STRING|EOF|DECIMAL|COUNT|BAND)\b|Token|token of type|Expecting|\u200B|'[A-Za-z]+,'/);
            }
        }
    });
});

describe('syntax errors past the ones listed', () => {
    it('are placed where they would be listed, without their words (to count one a line)', async () => {
        let x = 99;
        const random = () => ((x = (x * 1103515245 + 12345) % 2147483648) / 2147483648);
        const pieces = ['Blue attack Red', 'Blue attaks Red', 'Blue.Foot: charged,', 'seed x', '}', '{', 'force', 'engagment E {', 'Blue', '1 2', '4.5',
            'unit Foot foot Line x', 'factor on Blue', '"open', 'turn {', 'dice Blue foot', '\n', '\n', '\n'];
        const texts = [engagement('Blue attack Red'), engagement('Blue attacks Red', 'seed x'), `${HEAD}engagment E {\n}\nforce {\n`,
            ...Array.from({ length: 40 }, () => HEAD + Array.from({ length: 30 }, () => pieces[Math.floor(random() * pieces.length)]).join(' '))];
        const words = builtInRulesets();
        let seen = 0;
        for (const text of texts) {
            const document = await parse(text);
            for (const error of document.parseResult.parserErrors as ParserErrorLike[]) {
                expect(syntaxErrorStart(error, text, words)).toBe(describeSyntaxError(error, text, () => [], words).start);
                seen++;
            }
        }
        // Misspelt verbs (the one error placed after its token) among them.
        expect(seen).toBeGreaterThan(200);
    });
});
