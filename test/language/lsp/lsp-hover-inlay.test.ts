/**
 * Hovers and inlay hints through the server's providers, on documents built and validated as the
 * language server builds them.
 */
import * as fs from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { TextDocument, type LangiumDocument } from 'langium';
import { InlayHintKind, type Hover, type InlayHint, type MarkupContent } from 'vscode-languageserver';
import { OutcomeCommands } from '../../../src/language/lsp/outcome-requests.js';
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

    it('name the unit before each entered die, and put the state first at the header', async () => {
        const doc = await open(TEXT);
        const all = await hints(doc);
        expect(all.map(h => labelAt(doc, h))).toEqual([
            'engagement E { ⟨not written — Foot: 1 stand-off · A horse: 1 retire⟩',
            'dice A foot ⟨Guard:⟩',
            'dice A horse ⟨Horse:⟩',
            'dice B foot ⟨Line:⟩',
            'dice B horse ⟨Lancers:⟩'
        ]);
        // A die's hint sits right before its value, as an editor names a call's parameters.
        const guard = all[1];
        expect(doc.textDocument.getText({ start: guard.position, end: { line: guard.position.line, character: guard.position.character + 1 } })).toBe('4');
        expect(guard).toMatchObject({ paddingRight: true, kind: InlayHintKind.Parameter });
        // The details are in the tooltips: the die's modifier, adjusted die and result; the header's breakdown.
        expect(guard.tooltip).toBe('A.Guard: die 4, mod +1, adjusted 5 → stand-off vs B.Line');
        const header = (all[0].tooltip as MarkupContent).value;
        expect(header).toContain('**not written**: Foot: 1 stand-off · A horse: 1 retire');
        expect(header).toMatch(/```text\n[\s\S]*A\.Guard 4\+1=5[\s\S]*```/);
    });

    it('keep the state word within the editor\'s cut of 43 characters when the result is long', async () => {
        const doc = await open(fs.readFileSync('examples/scrud-large.battle', 'utf8'));
        const [header] = await hints(doc);
        expect((header.label as string).length).toBeGreaterThan(43);
        expect((header.label as string).slice(0, 43)).toMatch(/^not written — French foot: /);
    });

    it('number a unit\'s later instances on a long dice line by their number only', async () => {
        const doc = await open(fs.readFileSync('examples/scrud-seed.battle', 'utf8'));
        const all = await hints(doc);
        const line = (n: number) => all.filter(h => h.position.line === n).map(h => `${h.label as string} ${doc.textDocument.getText({ start: h.position, end: { line: n, character: h.position.character + 1 } })}`).join(' ');
        const at = (prefix: string) => doc.textDocument.getText().split('\n').findIndex(l => l.startsWith(prefix));
        expect(line(at('  dice Attacker foot'))).toBe('Guard: 4 Line#1: 4 #2: 2 Fusiliers#1: 6 #2: 1 #3: 2 #4: 1 Conscripts: 2');
        expect(line(at('  dice Defender foot'))).toBe('Grenz#1: 5 #2: 3 #3: 1 Infantry#1: 2 #2: 1 #3: 3');
        const fusiliers4 = all.find(h => h.position.line === at('  dice Attacker foot') && h.label === '#4:')!;
        expect(fusiliers4.tooltip).toBe('Attacker.Fusiliers#4: die 1, mod ±0, adjusted 1 → unpaired');
    });

    it('show the written summary, each outcome line\'s opponent figure, and flag a stale outcome', async () => {
        const doc = await resolved(TEXT, 'E');
        const written = await hints(doc);
        const labels = written.map(h => labelAt(doc, h));
        expect(labels[0]).toBe('engagement E { ⟨written — Foot: 1 stand-off · A horse: 1 retire⟩');
        expect((written[0].tooltip as MarkupContent).value).toContain('The outcome written below.');
        expect(labels).toContain('A.Horse: retire, die 3, mod +1, adjusted 4 vs B.Lancers ⟨(adjusted 6)⟩');
        const stale = await open(doc.textDocument.getText().replace('dice B horse 6', 'dice B horse 2'), 3);
        const staleHints = await hints(stale);
        expect(labelAt(stale, staleHints[0])).toBe('engagement E { ⟨stale — Foot: 1 stand-off · A horse: 1 retire⟩');
        // Horse 3 + 1 = 4 now beats Lancers 2 + 0 = 2: the tooltip says what resolving again gives.
        expect((staleHints[0].tooltip as MarkupContent).value).toContain('Resolving again gives: Foot: 1 stand-off · B horse: 1 retire');
    });

    it('state and result of a multi-unit Ancients action and a multi-unit Loose Files action', async () => {
        const ancients = await open(fs.readFileSync('examples/ancients-tokens.battle', 'utf8'));
        expect((await hints(ancients)).map(h => labelAt(ancients, h))).toEqual([
            'engagement Pass { ⟨not written — Gauls 6 hits, Successors 12 hits · Gauls.Warriors holds, Successors.Thureophoroi gives-ground, Successors.Thracians destroyed⟩'
        ]);
        const looseFiles = await open(fs.readFileSync('examples/cowpens.battle', 'utf8'));
        const advance = (await hints(looseFiles)).map(h => labelAt(looseFiles, h)).filter(l => l.startsWith('move Advance'));
        expect(advance).toEqual(['move Advance { ⟨not written — British.Fusiliers moved 5 inches · British.Legion charged 14 inches⟩']);
    });

    it('name the units when the dice do not resolve yet (the header says it cannot resolve), and nothing for a seedless engagement', async () => {
        const short = await open(TEXT.replace('  dice B horse 6\n', ''));
        expect((await hints(short)).map(h => h.label)).toEqual(['cannot resolve: 1 error', 'Guard:', 'Horse:', 'Line:']);
        const bare = await open(TEXT.replace(/ {2}dice .*\n/g, ''));
        expect(await hints(bare)).toEqual([]);
    });

    it('are off when umpire.inlayHints.enabled is false', async () => {
        shared.workspace.ConfigurationProvider.updateConfiguration({ settings: { umpire: { inlayHints: { enabled: false } } } });
        expect(await hints(await open(TEXT))).toEqual([]);
    });
});
