import { describe, expect, it } from 'vitest';
import { loadText } from '../../src/cli/load.js';

async function messages(text: string): Promise<string[]> {
    const loaded = await loadText('syntax.battle', text);
    return loaded.diagnostics.filter(d => d.code === 'syntax-error').map(d => d.message);
}

describe('syntax errors in umpire words', () => {
    it('names what was expected in words, not token types', async () => {
        expect(await messages('rules scrud\ngrade 5\n')).toEqual(["Expected a name here, not '5'."]);
    });

    it('says which words start a line when a line starts with something else', async () => {
        const [first] = await messages('rules scrud\nhello world\n');
        expect(first).toMatch(/^'hello' cannot start a line here: a line starts with grade, modifier, force/);
    });

    it('lists the expected alternatives briefly', async () => {
        const text = 'rules scrud\nforce A { unit X foot }\nengagement E {\n  A attacks A\n  dice A\n}\n';
        expect(await messages(text)).toContain("Unexpected '}' here: expected a number.");
    });

    it('names a stray character by itself', async () => {
        expect(await messages('rules scrud\n$\n')).toContain("The character '$' is not part of the .battle language.");
    });
});
