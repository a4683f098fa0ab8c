/**
 * An action whose result is not decided yet (docs/campaigns.md#undecided), as the editor shows it:
 * the hover says so, the header hint of one with dice names the action it waits on, Resolve on a waiting action is
 * refused with the reason, and Resolve all resolves them in order — after which every hint is
 * `written` and nothing waits. The same file (test/support/undecided-campaign.ts) is the CLI's case in test/core/campaign-timeline.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { TextDocument, type LangiumDocument } from 'langium';
import type { Hover, InlayHint, MarkupContent } from 'vscode-languageserver';
import { OutcomeCommands } from '../../../src/language/lsp/outcome-requests.js';
import { scratchChecker, services as allServices, openDocument } from '../../support/services.js';
import { UNDECIDED } from '../../support/undecided-campaign.js';

const { shared, Battle } = allServices;
const URI_TEXT = 'file:///campaign/undecided.battle';


async function hoverOn(doc: LangiumDocument, name: string): Promise<string> {
    const at = doc.textDocument.getText().indexOf(`engagement ${name}`);
    const hover = await Battle.lsp.HoverProvider!.getHoverContent(doc, { textDocument: { uri: URI_TEXT }, position: doc.textDocument.positionAt(at) }) as Hover | undefined;
    return (hover?.contents as MarkupContent | undefined)?.value ?? '';
}

/** Each action's header hint, by the action's name. */
async function headerHints(doc: LangiumDocument): Promise<Map<string, InlayHint>> {
    const hints = await Battle.lsp.InlayHintProvider!.getInlayHints(doc, {
        textDocument: { uri: URI_TEXT }, range: { start: { line: 0, character: 0 }, end: { line: doc.textDocument.lineCount, character: 0 } }
    }) ?? [];
    const out = new Map<string, InlayHint>();
    for (const h of hints) {
        const line = doc.textDocument.getText({ start: { line: h.position.line, character: 0 }, end: h.position });
        const name = /engagement (\w+) \{$/.exec(line.trim())?.[1];
        if (name) out.set(name, h);
    }
    return out;
}

function commandsOver(doc: { current: LangiumDocument }, told: string[]): OutcomeCommands {
    return new OutcomeCommands(shared, {
        applyEdit: async params => {
            const change = params.edit.documentChanges![0] as { edits: Parameters<typeof TextDocument.applyEdits>[1] };
            doc.current = await openDocument(URI_TEXT, TextDocument.applyEdits(doc.current.textDocument, change.edits), doc.current.textDocument.version + 1);
            return { applied: true };
        },
        tell: (_kind, message) => { told.push(message); },
        ask: async () => undefined
    }, scratchChecker(), () => 424242);
}

describe('an action whose result is not decided yet, in the editor', () => {
    it('the hover says why and names the action it waits on', async () => {
        const doc = await openDocument(URI_TEXT, UNDECIDED);
        expect(await hoverOn(doc, 'E1')).toContain('No dice or seed yet: not decided until **Resolve** draws a seed and writes the outcome.');
        const e2 = await hoverOn(doc, 'E2');
        expect(e2).toContain('Not decided until engagement **E1** is');
        // No preview of a result that Resolve would not write.
        expect(e2).not.toContain('**Result:**');
        expect(await hoverOn(doc, 'E4')).toContain('Not decided until engagement **E1** is');
        expect(await hoverOn(doc, 'E3')).toContain('**Result:**');
    });

    it('the header hint of an action with dice whose start waits says "not decided" and names what it waits on', async () => {
        const hints = await headerHints(await openDocument(URI_TEXT, UNDECIDED));
        // E1 has no dice of its own: no hint (its Resolve lens is what to do; the hover says why).
        expect(hints.has('E1')).toBe(false);
        expect(hints.get('E2')?.label).toBe('not decided — waits on E1');
        expect(hints.get('E4')?.label).toBe('not decided — waits on E1');
        expect((hints.get('E2')?.tooltip as MarkupContent).value).toContain('engagement **E1**, which has no dice or seed yet');
        expect(String(hints.get('E3')?.label)).toMatch(/^not written — /);
    });

    it('Resolve on a waiting action is refused with the reason, and writes nothing', async () => {
        const doc = { current: await openDocument(URI_TEXT, UNDECIDED) };
        const told: string[] = [];
        const result = await commandsOver(doc, told).resolve({ uri: URI_TEXT, version: 1, action: 'E2' }, false);
        expect(result.applied).toBe(false);
        expect(result.reason).toBe("'E2' was not resolved: it starts from the outcome of engagement 'E1', which has no dice or seed yet. Resolve 'E1' first, or Resolve all.");
        expect(doc.current.textDocument.getText()).toBe(UNDECIDED);
    });

    it('Resolve all resolves them in order: every hint is then "written" and no hover says "not decided"', async () => {
        const doc = { current: await openDocument(URI_TEXT, UNDECIDED) };
        const result = await commandsOver(doc, []).resolveAll({ uri: URI_TEXT, version: 1 });
        expect(result.applied).toBe(true);
        expect(result.resolved.map(r => r.action).sort()).toEqual(['E1', 'E2', 'E3', 'E4']);
        // E1 records the seed drawn for it; the others keep their own dice and seed.
        expect(result.resolved.find(r => r.action === 'E1')?.seed).toBe(424242);
        const hints = await headerHints(doc.current);
        for (const name of ['E1', 'E2', 'E3', 'E4']) expect(String(hints.get(name)?.label)).toMatch(/^written — /);
        for (const name of ['E1', 'E2', 'E4']) expect(await hoverOn(doc.current, name)).not.toMatch(/not decided/i);
    });
});
