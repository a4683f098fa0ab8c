/**
 * An action that errors stop from being resolved shows "cannot resolve: N errors" in its header hint
 * in place of a result, and no Resolve lens; an action the errors do not touch keeps both
 * (src/language/lsp/action-errors.ts).
 */
import { describe, expect, it } from 'vitest';
import type { LangiumDocument } from 'langium';
import type { CodeLens, InlayHint } from 'vscode-languageserver';
import { services as allServices, openDocument } from '../../support/services.js';

const { Battle } = allServices;
const URI_TEXT = 'file:///campaign/cannot-resolve.battle';

const TEXT = `rules loose-files
force A {
  unit Line infantry { class 2, stands 4 }
  unit Win infantry { class 2, stands 4 }
}
force B {
  unit Foot infantry { class 3, stands 4 }
}
engagement Broken {
  A.Line attacks B.Foot
  A.Line: flank, rear
  B.Foot: fort, fieldwork
  dice A 7
  dice B 3
}
engagement Clean {
  A.Win attacks B.Foot
  dice A 3
  dice B 3
}
`;

async function hints(doc: LangiumDocument): Promise<InlayHint[]> {
    return (await Battle.lsp.InlayHintProvider!.getInlayHints(doc, {
        textDocument: { uri: URI_TEXT }, range: { start: { line: 0, character: 0 }, end: { line: doc.textDocument.lineCount, character: 0 } }
    })) ?? [];
}

describe('an action errors stop from resolving', () => {
    it('says "cannot resolve: N errors" in its header, counting its own errors, and has no Resolve lens', async () => {
        const doc = await openDocument(URI_TEXT, TEXT);
        const errors = (doc.diagnostics ?? []).filter(d => d.severity === 1);
        // The fort and fieldwork (one error) and the 7 on an average die; flank with rear is a warning.
        expect(errors.map(e => e.code).sort()).toEqual(['die-face', 'facts-exclusive']);
        const headers = (await hints(doc)).filter(h => typeof h.label === 'string' && h.position.character > 0 && /engagement/.test(doc.textDocument.getText({ start: { line: h.position.line, character: 0 }, end: h.position })));
        expect(headers.map(h => h.label)).toEqual(['cannot resolve: 2 errors', expect.stringMatching(/^not written — /)]);
        const lenses = await Battle.lsp.CodeLensProvider!.provideCodeLens(doc, { textDocument: { uri: URI_TEXT } }) as CodeLens[];
        const lines = (title: string) => lenses.filter(l => l.command?.title === title).map(l => l.range.start.line + 1);
        expect(lines('Resolve')).toEqual([16]);
        // The odds stay: they do not write anything.
        expect(lines('Odds')).toEqual([9, 16]);
    });

    it('an error outside every action (a declaration) stops them all', async () => {
        const doc = await openDocument(URI_TEXT, TEXT.replace(/engagement Broken \{[\s\S]*?\n\}\n/, '').replace('class 2, stands 4 }\n}', 'class 2, stands 4 }\n  unit Bad infantry { class 9 }\n}'));
        const headers = (await hints(doc)).filter(h => typeof h.label === 'string' && h.label.startsWith('cannot resolve'));
        expect(headers.map(h => h.label)).toEqual(['cannot resolve: 1 error']);
        const lenses = await Battle.lsp.CodeLensProvider!.provideCodeLens(doc, { textDocument: { uri: URI_TEXT } }) as CodeLens[];
        expect(lenses.filter(l => l.command?.title === 'Resolve')).toEqual([]);
    });
});
