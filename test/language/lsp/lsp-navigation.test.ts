import { describe, expect, it } from 'vitest';
import { expectFindReferences, expectFoldings, expectGoToDefinition, expectSemanticToken, expectSymbols, highlightHelper, parseHelper } from 'langium/test';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { SemanticTokenTypes, SymbolKind, type DocumentSymbol } from 'vscode-languageserver';
import { TOKEN_TYPES } from '../../../src/language/lsp/semantic-tokens.js';
import { battle as services } from '../../support/services.js';

const parse = parseHelper(services);

const FILE = `scenario "Ridge"
rules scrud

grade Elite +2
modifier Tired -1

force French {
  unit Line foot Elite x2
  unit Hussars horse
}

force Austrian {
  unit Grenz foot
}

engagement Ridge {
  French attacks Austrian
  factor Tired on French.Line#2, French.Hussars
  dice French foot 4 2
  dice French horse 3
  dice Austrian 5
  outcome entered check "abc" {
    summary "x"
    French.Line#1: won, die 4 vs Austrian.Grenz
    Austrian.Grenz: recoil vs French.Line#1
  }
}

turn 1 "Dawn" {
  state French.Line#2: dp 1
  engagement Later {
    French.Hussars attacks Austrian.Grenz
    seed 3
  }
}
`;

/** Renames the name at the first occurrence of `at` (offset `shift` into it) and returns the new text. */
async function rename(text: string, at: string, newName: string, shift = 0): Promise<string> {
    const doc = await parse(text);
    const position = doc.textDocument.positionAt(text.indexOf(at) + shift);
    const edit = await services.lsp.RenameProvider!.rename(doc, { textDocument: { uri: doc.uri.toString() }, position, newName });
    const edits = edit?.changes?.[doc.uri.toString()] ?? [];
    return TextDocument.applyEdits(doc.textDocument, edits);
}

describe('go to definition', () => {
    it('goes from a force, a unit with #k, a grade and a modifier to their declarations', async () => {
        const definition = expectGoToDefinition(services);
        const text = 'grade <|Elite|> +2\nmodifier <|Tired|> -1\nforce <|French|> {\n  unit <|Line|> foot Elite x2\n}\nforce Austrian {\n  unit Grenz foot\n}\n'
            + 'engagement E {\n  Fre<|>nch attacks Austrian\n  factor Ti<|>red on French.Li<|>ne#2\n}\nforce Prussian {\n  unit Jaeger foot El<|>ite\n}\n';
        await definition({ text, index: 0, rangeIndex: 2, disposeAfterCheck: true });
        await definition({ text, index: 1, rangeIndex: 1, disposeAfterCheck: true });
        await definition({ text, index: 2, rangeIndex: 3, disposeAfterCheck: true });
        await definition({ text, index: 3, rangeIndex: 0, disposeAfterCheck: true });
    });
});

describe('find references', () => {
    it('finds every use of a force, in sides, factors, dice, outcomes and states', async () => {
        await expectFindReferences(services)({
            text: 'force <|Fr<|>ench|> {\n  unit Line foot x2\n}\nforce Austrian {\n  unit Grenz foot\n}\nengagement E {\n  <|French|> attacks Austrian\n  factor T on <|French|>.Line#2\n  dice <|French|> 4 2\n  outcome entered {\n    <|French|>.Line#1: won\n  }\n}\nstate <|French|>.Line#1: dp 1\n',
            includeDeclaration: true, disposeAfterCheck: true
        });
    });

    it('finds every use of a unit, with or without #k, but not a same-named unit of another force', async () => {
        await expectFindReferences(services)({
            text: 'force French {\n  unit <|Li<|>ne|> foot x2\n}\nforce Austrian {\n  unit Line foot\n}\nengagement E {\n  French.<|Line|>#1 attacks Austrian.Line\n  dice French.<|Line|> 4 2\n}\nstate French.<|Line|>#2: dp 1\n',
            includeDeclaration: true, disposeAfterCheck: true
        });
    });
});

describe('rename', () => {
    it('renames a force everywhere it prefixes a target, outcome line or state', async () => {
        const renamed = await rename(FILE, 'force French', 'France', 'force '.length);
        expect(renamed).not.toMatch(/\bFrench\b/);
        expect(renamed).toBe(FILE.replace(/\bFrench\b/g, 'France'));
    });

    it('renames a force from one of its uses', async () => {
        const renamed = await rename(FILE, 'Austrian.Grenz: recoil', 'Habsburg');
        expect(renamed).toBe(FILE.replace(/\bAustrian\b/g, 'Habsburg'));
    });

    it('renames a unit in Force.Unit and Force.Unit#k, and nothing else', async () => {
        const renamed = await rename(FILE, 'unit Line', 'Fusiliers', 'unit '.length);
        expect(renamed).toBe(FILE.replace(/\bLine\b/g, 'Fusiliers'));
        expect(renamed).toContain('factor Tired on French.Fusiliers#2, French.Hussars');
        expect(renamed).toContain('French.Fusiliers#1: won, die 4 vs Austrian.Grenz');
        expect(renamed).toContain('state French.Fusiliers#2: dp 1');
    });

    it('renames a unit of one force without touching a same-named unit of another', async () => {
        const text = 'force A {\n  unit Line foot\n}\nforce B {\n  unit Line foot\n}\nengagement E {\n  A.Line attacks B.Line\n}\n';
        expect(await rename(text, 'A.Line', 'Guard', 2)).toBe(text.replace('unit Line', 'unit Guard').replace('A.Line', 'A.Guard'));
    });

    it('renames grades and modifiers', async () => {
        expect(await rename(FILE, 'grade Elite', 'Veteran', 'grade '.length)).toBe(FILE.replace(/\bElite\b/g, 'Veteran'));
        expect(await rename(FILE, 'factor Tired', 'Weary', 'factor '.length)).toBe(FILE.replace(/\bTired\b/g, 'Weary'));
    });
});

describe('rename refusals', () => {
    it('refuses a new name that is not a name, is a keyword, or is taken by the same kind', async () => {
        await expect(rename(FILE, 'force French', 'La France', 'force '.length)).rejects.toThrow(/not a name/);
        await expect(rename(FILE, 'force French', 'attacks', 'force '.length)).rejects.toThrow(/keyword/);
        await expect(rename(FILE, 'force French', 'Austrian', 'force '.length)).rejects.toThrow(/already a force named 'Austrian'/);
        await expect(rename(FILE, 'unit Line', 'Hussars', 'unit '.length)).rejects.toThrow(/already a unit in this force named 'Hussars'/);
        await expect(rename(FILE, 'engagement Ridge', 'Later', 'engagement '.length)).rejects.toThrow(/already an engagement or action named 'Later'/);
    });

    it('allows a name used by another kind of declaration or by a unit of another force', async () => {
        expect(await rename(FILE, 'unit Grenz', 'Line', 'unit '.length)).toBe(FILE.replace(/\bGrenz\b/g, 'Line'));
        expect(await rename(FILE, 'grade Elite', 'Tired2', 'grade '.length)).toBe(FILE.replace(/\bElite\b/g, 'Tired2'));
    });
});

const KIND: Record<number, string> = {
    [SymbolKind.File]: 'file', [SymbolKind.Class]: 'class', [SymbolKind.Constant]: 'constant', [SymbolKind.Namespace]: 'namespace',
    [SymbolKind.Field]: 'field', [SymbolKind.Event]: 'event', [SymbolKind.Module]: 'module', [SymbolKind.Function]: 'function'
};

describe('document symbols', () => {
    it('outlines the scenario: grades, modifiers, forces with units, engagements, turns', async () => {
        await expectSymbols(services)({
            text: FILE, disposeAfterCheck: true,
            assert: (symbols: DocumentSymbol[]) => {
                const show = (s: DocumentSymbol, depth = 0): string[] => [`${'  '.repeat(depth)}${s.name} [${s.detail}] ${KIND[s.kind] ?? s.kind}`, ...(s.children ?? []).flatMap(c => show(c, depth + 1))];
                expect(symbols.flatMap(s => show(s))).toEqual([
                    'Ridge [scrud] file',
                    '  Elite [+2] class',
                    '  Tired [-1] constant',
                    '  French [3 units] namespace',
                    '    Line [foot Elite x2] field',
                    '    Hussars [horse] field',
                    '  Austrian [1 unit] namespace',
                    '    Grenz [foot] field',
                    '  Ridge [engagement · resolved] event',
                    '  turn 1 [Dawn] module',
                    '    Later [engagement] event'
                ]);
                // Selecting a symbol selects its name.
                const french = symbols[0].children![2];
                expect(french.selectionRange).toEqual({ start: { line: 6, character: 6 }, end: { line: 6, character: 12 } });
            }
        });
    });
});

describe('workspace symbols', () => {
    it('gives forces, grades and modifiers the kinds of the outline', async () => {
        const doc = await parse(FILE.replace('scenario "Ridge"', 'scenario "Workspace"'));
        const symbols = await services.shared.lsp.WorkspaceSymbolProvider!.getSymbols({ query: '' });
        const mine = symbols.filter(s => s.location.uri === doc.uri.toString());
        expect(Object.fromEntries(mine.map(s => [s.name, KIND[s.kind]]))).toMatchObject({ French: 'namespace', Austrian: 'namespace', Elite: 'class', Tired: 'constant', Ridge: 'event' });
    });
});

describe('folding', () => {
    it('folds forces, engagements, outcomes, turns, multi-line braced stats and block comments, not a statement written over lines', async () => {
        await expectFoldings(services)({
            // A fold ends on the line before its closing brace (or the comment's last line), which stays visible.
            text: '<|/* a\n   b|>\n   c */\n<|grade G {\n  size large|>\n}\n<|force F {\n  unit U foot|>\n}\n<|turn 1 {\n  <|engagement E {\n    F attacks F\n    factor T on\n      F.U,\n      F.U\n    <|outcome seed 1 {\n      F.U: won|>\n    }|>\n  }|>\n}\n',
            disposeAfterCheck: true
        });
    });
});

describe('semantic tokens', () => {
    it('marks forces, units, grades, modifiers, result labels and numbers', async () => {
        const tokens = await highlightHelper(services)('grade <|Elite|> <|+2|>\nmodifier <|Tired|> -1\nforce <|French|> {\n  unit <|Line|> foot <|Elite|> <|x2|>\n}\n'
            + 'engagement E {\n  <|French|>.<|Line|>#<|1|> attacks French\n  factor <|Tired|> on French\n  dice French <|4|> 2\n  outcome entered {\n    French.Line: <|stand-off|>\n  }\n}\n');
        const expected: string[] = [TOKEN_TYPES.grade, TOKEN_TYPES.number, TOKEN_TYPES.modifier, TOKEN_TYPES.force, TOKEN_TYPES.unit, TOKEN_TYPES.grade, TOKEN_TYPES.number,
            TOKEN_TYPES.force, TOKEN_TYPES.unit, TOKEN_TYPES.number, TOKEN_TYPES.modifier, TOKEN_TYPES.number, TOKEN_TYPES.result];
        expected.forEach((tokenType, rangeIndex) => expectSemanticToken(tokens, { rangeIndex, tokenType: tokenType as SemanticTokenTypes }));
    });
});
