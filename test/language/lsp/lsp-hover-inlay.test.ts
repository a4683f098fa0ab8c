/**
 * Hovers and inlay hints through the server's providers, on documents built and validated as the
 * language server builds them.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { TextDocument, type LangiumDocument } from 'langium';
import type { Hover, InlayHint, MarkupContent } from 'vscode-languageserver';
import { OutcomeCommands } from '../../../src/language/lsp/outcome-commands.js';
import { scratchChecker, services as allServices, openDocument } from '../../support/services.js';

const { shared, Battle } = allServices;
const URI_TEXT = 'file:///campaign/hover.battle';

const open = (text: string, version = 1): Promise<LangiumDocument> => openDocument(URI_TEXT, text, version);

/** Resolves `action` through the command, as the lens does, and returns the new document. */
async function resolved(text: string, action: string): Promise<LangiumDocument> {
    let doc = await open(text);
    const commands = new OutcomeCommands(shared, {
        applyEdit: async params => {
            const change = params.edit.documentChanges![0] as { edits: Parameters<typeof TextDocument.applyEdits>[1] };
            doc = await open(TextDocument.applyEdits(doc.textDocument, change.edits), 2);
            return { applied: true };
        },
        tell: () => undefined,
        ask: async () => undefined
    }, scratchChecker(), () => 9);
    expect((await commands.resolve({ uri: URI_TEXT, version: 1, action }, false)).applied).toBe(true);
    return doc;
}

/** The hover at the start of the `nth` occurrence of `needle`. */
async function hoverAt(doc: LangiumDocument, needle: string, nth = 0): Promise<string> {
    const text = doc.textDocument.getText();
    let at = -1;
    for (let i = 0; i <= nth; i++) at = text.indexOf(needle, at + 1);
    expect(at).toBeGreaterThanOrEqual(0);
    const hover = await Battle.lsp.HoverProvider!.getHoverContent(doc, { textDocument: { uri: URI_TEXT }, position: doc.textDocument.positionAt(at) }) as Hover | undefined;
    return (hover?.contents as MarkupContent | undefined)?.value ?? '';
}

async function hints(doc: LangiumDocument): Promise<InlayHint[]> {
    const lines = doc.textDocument.lineCount;
    return (await Battle.lsp.InlayHintProvider!.getInlayHints(doc, {
        textDocument: { uri: URI_TEXT }, range: { start: { line: 0, character: 0 }, end: { line: lines, character: 0 } }
    })) ?? [];
}

const labelAt = (doc: LangiumDocument, h: InlayHint) => `${doc.textDocument.getText({ start: { line: h.position.line, character: 0 }, end: h.position }).trim()} ⟨${h.label as string}⟩`;

// Hand-worked (S2, S6): Guard 4 + 2 - 1 = 5 against Line 5 + 0 = 5: stand-off; Horse 3 + 1 = 4 against
// Lancers 6 + 0 = 6: Horse two short, retires.
const TEXT = `rules scrud
grade Elite +2
grade Veteran +1
modifier Tired -1
force A {
  unit Guard foot Elite { die d6 }
  unit Horse horse Veteran
}
force B {
  unit Line foot
  unit Lancers horse
}
engagement E {
  A attacks B
  factor Tired on A.Guard
  dice A foot 4
  dice A horse 3
  dice B foot 5
  dice B horse 6
}
`;

describe('hover', () => {
    it('on a unit declaration: arm, grade and stats', async () => {
        const value = await hoverAt(await open(TEXT), 'Guard');
        expect(value).toContain('**A.Guard** — foot · grade **Elite** (+2)');
        expect(value).toContain('Stats: die d6');
    });

    it('on a unit in an engagement: the modifiers there, and no result before one is written', async () => {
        const value = await hoverAt(await open(TEXT), 'Guard', 1);
        expect(value).toContain('Modifiers in **E**: Tired −1 (total +1)');
        expect(value).toContain('No outcome written yet.');
        const horse = await hoverAt(await open(TEXT), 'Horse', 0);
        expect(horse).toContain('grade **Veteran** (+1)');
    });

    it('on a unit after Resolve: its written result', async () => {
        const doc = await resolved(TEXT, 'E');
        const value = await hoverAt(doc, 'Guard', 1);
        expect(value).toContain('Result: `A.Guard: stand-off, die 4, mod +1, adjusted 5 vs B.Line`');
        const decl = await hoverAt(doc, 'Lancers');
        expect(decl).toContain('Written results:');
        expect(decl).toContain('E: `B.Lancers: won, die 6, mod 0, adjusted 6 vs A.Horse`');
    });

    it('on an engagement: the pair-by-pair breakdown, the result and the odds', async () => {
        const before = await hoverAt(await open(TEXT), 'E {');
        expect(before).toContain('**engagement E** — scrud');
        expect(before).toContain('Not written yet; Resolve will write (dice entered from the table):');
        expect(before).toMatch(/```text\n[\s\S]*A\.Guard 4\+1=5[\s\S]*B\.Line 5±0=5[\s\S]*A\.Horse 3\+1=4[\s\S]*B\.Lancers 6±0=6[\s\S]*```/);
        expect(before).toContain('**Result:** Foot: 1 stand-off · A horse: 1 retire');
        expect(before).toContain('**Odds** (exact, before the dice):');
        expect(before).toMatch(/- \*\*A\*\* expects .*stand-off/);
        const after = await hoverAt(await resolved(TEXT, 'E'), 'E {');
        expect(after).toContain('Written outcome (dice entered from the table):');
    });

    it('on a force, a grade reference and a modifier reference', async () => {
        const doc = await open(TEXT);
        expect(await hoverAt(doc, 'B {')).toBe('**force B** — 2 units: Line, Lancers');
        expect(await hoverAt(doc, 'Elite {')).toBe('**grade Elite** +2');
        expect(await hoverAt(doc, 'Tired on')).toBe('**modifier Tired** −1');
    });
});

describe('inlay hints', () => {
    afterEach(() => shared.workspace.ConfigurationProvider.updateConfiguration({ settings: { umpire: {} } }));

    it('name the unit each entered die feeds, with its adjusted die and result, and the result at the header', async () => {
        const doc = await open(TEXT);
        expect((await hints(doc)).map(h => labelAt(doc, h))).toEqual([
            'engagement E { ⟨→ Foot: 1 stand-off · A horse: 1 retire (not written)⟩',
            'dice A foot 4 ⟨Guard=5 stand-off⟩',
            'dice A horse 3 ⟨Horse=4 retire⟩',
            'dice B foot 5 ⟨Line=5 stand-off⟩',
            'dice B horse 6 ⟨Lancers=6 won⟩'
        ]);
    });

    it('show the written summary, each outcome line\'s opponent figure, and flag a stale outcome', async () => {
        const doc = await resolved(TEXT, 'E');
        const labels = (await hints(doc)).map(h => labelAt(doc, h));
        expect(labels[0]).toBe('engagement E { ⟨→ Foot: 1 stand-off · A horse: 1 retire⟩');
        expect(labels).toContain('A.Horse: retire, die 3, mod +1, adjusted 4 vs B.Lancers ⟨(adjusted 6)⟩');
        const stale = await open(doc.textDocument.getText().replace('dice B horse 6', 'dice B horse 2'), 3);
        expect((await hints(stale)).map(h => labelAt(stale, h))[0]).toBe('engagement E { ⟨→ Foot: 1 stand-off · A horse: 1 retire (stale)⟩');
    });

    it('name the units when the dice do not resolve yet, and nothing for a seedless engagement', async () => {
        const short = await open(TEXT.replace('  dice B horse 6\n', ''));
        expect((await hints(short)).map(h => h.label)).toEqual(['Guard', 'Horse', 'Line']);
        const bare = await open(TEXT.replace(/ {2}dice .*\n/g, ''));
        expect(await hints(bare)).toEqual([]);
    });

    it('are off when umpire.inlayHints.enabled is false', async () => {
        shared.workspace.ConfigurationProvider.updateConfiguration({ settings: { umpire: { inlayHints: { enabled: false } } } });
        expect(await hints(await open(TEXT))).toEqual([]);
    });
});
