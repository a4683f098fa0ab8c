/**
 * Checks a text that is not the umpire's document: resolve-all writes each outcome into a copy of
 * the file and checks the copy before going on. The copies live in a workspace of their own, made
 * on first use with the same rule sets, so that no diagnostic of a copy ever reaches the editor.
 */
import { URI, type LangiumDocument, type LangiumSharedCoreServices } from 'langium';
import type { Scenario } from './generated/ast.js';
import type { CheckedText } from '../core/resolve-all.js';

export class TextChecker {
    private services?: LangiumSharedCoreServices;
    private count = 0;

    /** `makeWorkspace` makes the private workspace (the language module passes its own factory). */
    constructor(private readonly makeWorkspace: () => LangiumSharedCoreServices) {}

    /**
     * The parse of `text` and its errors as `line N: message`. A file that imports others
     * (docs/campaigns.md#campaigns-across-files) is checked at its own address, beside copies of the
     * files it imports as the editor holds them, so that its imports resolve as in the editor.
     */
    async check(text: string, original?: { uri: URI, imported: readonly LangiumDocument[] }): Promise<CheckedText> {
        this.services ??= this.makeWorkspace();
        const workspace = this.services.workspace;
        const uri = original && original.imported.length > 0 ? original.uri : URI.parse(`memory:///resolve-all/${++this.count}.battle`);
        const document = workspace.LangiumDocumentFactory.fromString<Scenario>(text, uri);
        const copies = (original?.imported ?? []).map(d => workspace.LangiumDocumentFactory.fromString(d.textDocument.getText(), d.uri));
        for (const d of [document, ...copies]) workspace.LangiumDocuments.addDocument(d);
        try {
            await workspace.DocumentBuilder.build([document, ...copies], { validation: true });
            const placed = (document.diagnostics ?? []).filter(d => d.severity === 1).map(d => ({ ...d.range.start, message: typeof d.message === 'string' ? d.message : d.message.value }));
            return { root: document.parseResult.value, errors: placed.map(d => `line ${d.line + 1}: ${d.message}`), placed };
        } finally {
            for (const d of [document, ...copies]) {
                workspace.LangiumDocuments.deleteDocument(d.uri);
                workspace.IndexManager.remove(d.uri);
            }
        }
    }
}
