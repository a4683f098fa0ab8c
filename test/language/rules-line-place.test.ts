/**
 * A `rules` line written below the top of the file (after a force, say) is still read: the file is
 * checked under the rule set it names, and the one error is the syntax error that says where the line
 * goes, not "No 'rules' line" and a rule set's worth of errors of another one.
 */
import { describe, expect, it } from 'vitest';
import { modelOf } from '../../src/core/model-cache.js';
import { parse } from '../support/services.js';

const BELOW = `force A {
  unit Line infantry { class 2 }
}
rules loose-files
force B {
  unit Foot infantry { class 2 }
}
fire Volley {
  A.Line fires at B.Foot: range 4
  dice A.Line d6 6
}
`;

describe('the rules line wherever it is', () => {
    it('a rules line below a force is read, and its one error says where it goes', async () => {
        const doc = await parse(BELOW, { validation: true });
        expect(modelOf(doc.parseResult.value).rules).toBe('loose-files');
        const problems = (doc.diagnostics ?? []).filter(d => (d.severity ?? 1) <= 2);
        expect(problems.map(d => [d.code, d.range.start.line + 1, d.message])).toEqual([
            ['syntax-error', 4, "'rules' goes at the top of the file: the 'scenario' title first, then 'rules', then options, above every grade, force, action and turn. Move this line up."]
        ]);
        expect((doc.diagnostics ?? []).some(d => d.code === 'rules-default')).toBe(false);
    });

    it('moved to the top, the same file is clean; without any rules line it is read as the default, and said', async () => {
        const top = await parse(`rules loose-files\n${BELOW.replace('rules loose-files\n', '')}`, { validation: true });
        expect((top.diagnostics ?? []).filter(d => (d.severity ?? 1) <= 2)).toEqual([]);
        const none = await parse(BELOW.replace('rules loose-files\n', ''), { validation: true });
        expect(modelOf(none.parseResult.value).rules).toBe('scrud');
        expect((none.diagnostics ?? []).some(d => d.code === 'rules-default')).toBe(true);
    });

    it('a comment or a word inside a line that says rules is not a rules line', async () => {
        const doc = await parse(`// rules ancients would be read above\nforce A {\n  unit Line infantry { note "rules loose-files" }\n}\n`, { validation: true });
        expect(modelOf(doc.parseResult.value).rules).toBe('scrud');
    });
});
