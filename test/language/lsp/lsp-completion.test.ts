import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { expectCompletion, parseHelper } from 'langium/test';
import { CompletionItemKind, type CompletionList } from 'vscode-languageserver';
import { scrudRuleset } from '../../../src/rulesets/scrud/scrud-ruleset.js';
import { ancientsRuleset } from '../../../src/rulesets/ancients/ancients-ruleset.js';
import { looseFilesRuleset } from '../../../src/rulesets/loose-files/loose-files-ruleset.js';
import { battle as services } from '../../support/services.js';

const complete = expectCompletion(services);

/** The labels offered at the `<|>` marker. */
async function labelsAt(text: string): Promise<string[]> {
    let list: CompletionList | undefined;
    await complete({ text, index: 0, assert: c => { list = c; }, disposeAfterCheck: true });
    return (list?.items ?? []).map(i => i.label);
}

const HEAD = `scenario "t"
rules scrud
grade Elite +2
grade Raw -1
modifier ForcedMarch -1
modifier Tired -2
force French {
  unit Line foot Elite x3
  unit Hussars horse
}
force Austrian {
  unit Grenz foot Raw
  unit Guns guns
}
`;

describe('completion', () => {
    it('offers the top-level keywords at the start of a declaration', async () => {
        const labels = await labelsAt(`${HEAD}<|>`);
        for (const k of ['grade', 'modifier', 'force', 'engagement', 'turn', 'state', 'ruling']) expect(labels).toContain(k);
        // The action kinds are the file's rule set's: SCRUD has engagements only, Loose Files its order of play.
        expect(labels).not.toContain('fire');
        const loose = await labelsAt(`${HEAD.replace('rules scrud', 'rules loose-files')}<|>`);
        for (const k of ['engagement', 'fire', 'move', 'morale', 'redress', 'command']) expect(loose).toContain(k);
        // Words that are only stat keys or values are not proposed as statements.
        expect(labels).not.toContain('front');
        expect(labels).not.toContain('loose-files');
    });

    it('offers the rule sets after rules', async () => {
        expect(await labelsAt('scenario "t"\nrules <|>')).toEqual(expect.arrayContaining(['scrud', 'ancients', 'loose-files']));
    });

    it('offers grade names after a unit\'s arm', async () => {
        const labels = await labelsAt(`${HEAD}force Prussian {\n  unit Jaeger foot <|>\n}`);
        expect(labels).toEqual(expect.arrayContaining(['Elite', 'Raw']));
        expect(labels).not.toContain('ForcedMarch');
        expect(labels).not.toContain('French');
    });

    it('offers the arms already used in the file, and the rule set\'s usual ones, for a new unit', async () => {
        const labels = await labelsAt(`${HEAD.replace('unit Guns guns', 'unit Guns artillery')}force Prussian {\n  unit Jaeger <|>\n}`);
        expect(labels).toEqual(expect.arrayContaining(['foot', 'horse', 'guns', 'artillery']));
        expect(labels).not.toContain('Elite');
    });

    it('offers modifier names after factor, and only them', async () => {
        const labels = await labelsAt(`${HEAD}engagement E {\n  French attacks Austrian\n  factor <|>\n}`);
        expect(labels.sort()).toEqual(['ForcedMarch', 'Tired']);
    });

    it('offers force names where a target starts', async () => {
        const labels = await labelsAt(`${HEAD}engagement E {\n  French attacks <|>\n}`);
        expect(labels).toEqual(expect.arrayContaining(['French', 'Austrian']));
        expect(labels).not.toContain('Elite');
    });

    it('offers the units of the force before the dot, with #k for counted units', async () => {
        const labels = await labelsAt(`${HEAD}engagement E {\n  French.<|> attacks Austrian\n}`);
        expect(labels).toEqual(['Line', 'Hussars', 'Line#1', 'Line#2', 'Line#3'].sort((a, b) => labels.indexOf(a) - labels.indexOf(b)));
        expect(new Set(labels)).toEqual(new Set(['Line', 'Line#1', 'Line#2', 'Line#3', 'Hussars']));
        const austrian = await labelsAt(`${HEAD}engagement E {\n  French attacks Austrian.<|>\n}`);
        expect(new Set(austrian)).toEqual(new Set(['Grenz', 'Guns']));
    });

    it('offers the numbers of a counted unit after #', async () => {
        expect(await labelsAt(`${HEAD}engagement E {\n  French.Line#<|> attacks Austrian\n}`)).toEqual(['1', '2', '3']);
        expect(await labelsAt(`${HEAD}engagement E {\n  French.Hussars#<|> attacks Austrian\n}`)).toEqual([]);
    });

    it('offers units in outcome lines and factor targets too', async () => {
        const inFactor = await labelsAt(`${HEAD}engagement E {\n  French attacks Austrian\n  factor Tired on Austrian.<|>\n}`);
        expect(new Set(inFactor)).toEqual(new Set(['Grenz', 'Guns']));
    });

    it('offers the stat keys of the scenario\'s rule set in braces', async () => {
        const scrud = await labelsAt(`${HEAD}grade Green { <|> }`);
        expect(scrud).toEqual(Object.keys(scrudRuleset.vocabulary.stats));
        const ancients = await labelsAt('scenario "a"\nrules ancients\ngrade Hoplite { size large, <|> }');
        expect(new Set(ancients)).toEqual(new Set(Object.keys(ancientsRuleset.vocabulary.stats)));
        const lf = await labelsAt('scenario "l"\nrules loose-files\nforce British {\n  unit Guards infantry { <|> }\n}');
        expect(lf).toEqual(expect.arrayContaining(['class', 'guns', 'formation', 'stands', 'dp', 'casualties', 'weapon', 'hessian', 'jaeger', 'militia', 'cp']));
    });

    it('offers the values of the stat being written', async () => {
        expect(await labelsAt(`${HEAD}grade Green { die <|> }`)).toEqual(['d4', 'd6', 'd8', 'average']);
        expect(await labelsAt('scenario "a"\nrules ancients\ngrade Hoplite { size large, weight <|> }')).toEqual(['heavy', 'medium', 'light']);
        expect(await labelsAt('scenario "a"\nrules ancients\ngrade Hoplite { formation <|> }')).toEqual(['formed', 'warband', 'skirmish']);
        expect(await labelsAt('scenario "l"\nrules loose-files\nforce B {\n  unit G infantry { formation <|> }\n}')).toEqual(['line', 'column', 'skirmish', 'limbered', 'unlimbered']);
        expect(await labelsAt('scenario "l"\nrules loose-files\nforce B {\n  unit G infantry { class <|> }\n}')).toEqual(['1', '2', '3', '4', '5']);
    });

    it('offers the facts the action kind reads after a unit and a colon, and campaign state on state lines', async () => {
        const lf = 'scenario "l"\nrules loose-files\nforce B {\n  unit G infantry\n}\nforce A {\n  unit M infantry\n}\n';
        expect(await labelsAt(`${lf}move Advance {\n  B.G: <|>\n}`)).toEqual([...looseFilesRuleset.vocabulary.facts.move]);
        // One list for completion and the check: what a re-dress reads, and the state facts any action may record.
        expect(await labelsAt(`${lf}redress Dress {\n  B.G: <|>\n}`)).toEqual(['stationary', 'moved', 'in-combat', 'shot-at', 'dp', 'casualties', 'deserted', 'reason', 'note']);
        expect(await labelsAt(`${lf}state B.G: <|>`)).toEqual(expect.arrayContaining(['dp', 'casualties', 'rallied', 'reason']));
        expect(await labelsAt('scenario "a"\nrules ancients\nforce G {\n  unit H infantry\n}\nengagement E {\n  G.H: <|>\n}')).toEqual(['charged', 'countercharged', 'follow-up']);
    });

    it('gives each kind of name its own item kind and what it stands for', async () => {
        await complete({
            text: `${HEAD}force Prussian {\n  unit Jaeger foot <|>\n}`, index: 0, disposeAfterCheck: true,
            assert: list => {
                const elite = list.items.find(i => i.label === 'Elite');
                expect(elite).toMatchObject({ kind: CompletionItemKind.Class, detail: 'grade +2' });
            }
        });
        await complete({
            text: `${HEAD}engagement E {\n  factor <|>\n}`, index: 0, disposeAfterCheck: true,
            assert: list => expect(list.items.find(i => i.label === 'Tired')).toMatchObject({ kind: CompletionItemKind.Constant, detail: 'modifier -2' })
        });
    });

    it('replaces the word being typed', async () => {
        await complete({
            text: `${HEAD}engagement E {\n  factor Forc<|>\n}`, index: 0, disposeAfterCheck: true,
            assert: list => {
                const item = list.items.find(i => i.label === 'ForcedMarch');
                expect(item?.textEdit).toBeDefined();
                const edit = item!.textEdit as { newText: string, range: { start: { character: number }, end: { character: number } } };
                expect(edit.newText).toBe('ForcedMarch');
                expect(edit.range.end.character - edit.range.start.character).toBe('Forc'.length);
            }
        });
    });
});

/** A snippet body with every placeholder at its default (the first choice; mirrors copy their placeholder). */
function expandSnippet(body: string[]): string {
    let text = body.join('\n');
    const defaults = new Map<string, string>();
    for (let changed = true; changed;) {
        changed = false;
        text = text.replace(/\$\{(\d+):([^{}$]*)\}|\$\{(\d+)\|([^|}]*)\|\}/g, (_m, n1: string, d: string, n2: string, choices: string) => {
            changed = true;
            const value = d ?? choices.split(',')[0];
            defaults.set(n1 ?? n2, value);
            return value;
        });
    }
    return text.replace(/\$\{(\d+)\}/g, (_m, n: string) => defaults.get(n) ?? '').replace(/\$\d+/g, '');
}

describe('snippets', () => {
    const snippets = JSON.parse(readFileSync('snippets/battle.json', 'utf8')) as Record<string, { prefix: string, body: string[] }>;
    const parse = parseHelper(services);
    const rulesFor = (name: string) => name.includes('Ancients') || name.includes('stats') ? 'ancients' : name.includes('Loose Files') ? 'loose-files' : 'scrud';
    const wrap = (name: string, text: string) => name.startsWith('New unit') ? `force F {\n  ${text}\n}\n` : text;

    it.each(Object.keys(snippets))('%s expands to text that parses', async (name) => {
        const body = wrap(name, expandSnippet(snippets[name].body));
        const doc = await parse(`scenario "s"\nrules ${rulesFor(name)}\n\n${body}\n`);
        expect(doc.parseResult.lexerErrors).toEqual([]);
        expect(doc.parseResult.parserErrors.map(e => e.message)).toEqual([]);
    });

    it('covers a force, unit, grade, engagement, melee, combat, fire, move and turn', () => {
        const prefixes = Object.values(snippets).map(s => s.prefix);
        expect(prefixes).toEqual(expect.arrayContaining(['force', 'unit', 'grade', 'modifier', 'engagement', 'melee', 'combat', 'fire', 'move', 'turn']));
    });

    it('is contributed by the extension and kept in the package', () => {
        const pkg = JSON.parse(readFileSync('package.json', 'utf8')) as { contributes: { snippets: Array<{ language: string, path: string }> } };
        expect(pkg.contributes.snippets).toContainEqual({ language: 'battle', path: './snippets/battle.json' });
        expect(readFileSync('.vscodeignore', 'utf8').split('\n')).toContain('!snippets/battle.json');
    });
});
