/**
 * The server's Resolve all reads the editor's validated document and never changes it: the document
 * keeps its parse result, and every node of that tree is the same object with the same own
 * properties (each action's outcome the same object) after the command as before, whether the edit
 * is applied or refused. What it writes is what the command line's `resolve --write` writes from the
 * same text and seeds (src/core/resolve-all.ts on a fresh load of the text), outcome for outcome.
 */
import * as fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { TextDocument, URI, type AstNode, type LangiumDocument } from 'langium';
import { OutcomeCommands } from '../../../src/language/lsp/outcome-requests.js';
import { resolveAll } from '../../../src/core/resolve-all.js';
import { loadText } from '../../../src/cli/load.js';
import { scratchChecker, services, openDocument } from '../../support/services.js';
import { UNDECIDED } from '../../support/undecided-campaign.js';
import type { ActionModel } from '../../../src/core/scenario.js';

const URI_TEXT = 'file:///campaign/resolve-all-document.battle';

/** The same seed for an action wherever it is drawn: the order of drawing plays no part. */
const seedOf = (action: ActionModel, reroll: number) => 1000 + [...action.node.name].reduce((h, c) => (h * 31 + c.charCodeAt(0)) % 100_000, 7) + reroll;

/** Every node of the tree with its own properties, as they are now (values by identity). */
function nodesOf(root: AstNode): Array<{ node: AstNode, own: Array<[string, unknown]>, arrays: Array<[string, unknown[]]> }> {
    const out: Array<{ node: AstNode, own: Array<[string, unknown]>, arrays: Array<[string, unknown[]]> }> = [];
    const visit = (node: AstNode) => {
        const own = Object.entries(node);
        out.push({ node, own, arrays: own.filter((e): e is [string, unknown[]] => Array.isArray(e[1])).map(([k, v]) => [k, [...v]]) });
        for (const [k, v] of own) {
            if (k.startsWith('$')) continue;
            for (const child of Array.isArray(v) ? v : [v]) if (child && typeof child === 'object' && '$type' in child) visit(child as AstNode);
        }
    };
    visit(root);
    return out;
}

function expectUnchanged(before: ReturnType<typeof nodesOf>, root: AstNode): void {
    const now = nodesOf(root);
    expect(now.length).toBe(before.length);
    now.forEach((n, i) => {
        const was = before[i];
        expect(n.node).toBe(was.node);
        expect(n.own.map(([k]) => k)).toEqual(was.own.map(([k]) => k));
        n.own.forEach(([k, v], j) => expect(v, `${n.node.$type}.${k}`).toBe(was.own[j][1]));
        n.arrays.forEach(([k, items], j) => {
            expect(items.length, `${n.node.$type}.${k}`).toBe(was.arrays[j][1].length);
            items.forEach((item, m) => expect(item, `${n.node.$type}.${k}[${m}]`).toBe(was.arrays[j][1][m]));
        });
    });
}

/** Commands whose edits are recorded (the text they would make), applied or refused as asked; the document is never replaced. */
function commands(apply: boolean, edited: string[]): OutcomeCommands {
    return new OutcomeCommands(services.shared, {
        applyEdit: async params => {
            const change = params.edit.documentChanges![0] as { edits: Parameters<typeof TextDocument.applyEdits>[1] };
            const document = services.shared.workspace.LangiumDocuments.getDocument(URI.parse(URI_TEXT))!;
            edited.push(TextDocument.applyEdits(document.textDocument, change.edits));
            return { applied: apply };
        },
        tell: () => undefined,
        ask: async () => undefined
    }, scratchChecker(), seedOf);
}

async function cliText(text: string): Promise<string> {
    const check = async (t: string) => {
        const loaded = await loadText('resolve-all-document.battle', t);
        return { root: loaded.document.parseResult.value, errors: loaded.diagnostics.filter(d => d.severity === 1).map(d => d.message as string) };
    };
    return (await resolveAll(text, check, { newSeed: seedOf })).text;
}

const unwritten = (f: string) => fs.readFileSync(`examples/${f}`, 'utf8').replace(/\n[ \t]*outcome [^{]*\{[^}]*\}/g, '');

describe("the server's Resolve all leaves the editor's document as it was", () => {
    const sources: Array<[string, string]> = [
        ['a campaign whose actions wait on each other', UNDECIDED],
        ...['campaign.battle', 'scrud-seed.battle', 'loose-files-turn.battle', 'ancients-flank.battle'].map((f): [string, string] => [f, unwritten(f)])
    ];

    it.each(sources)('%s: the same parse result and nodes after the command, and the text the command line writes', async (_name, source) => {
        for (const apply of [true, false]) {
            const document: LangiumDocument = await openDocument(URI_TEXT, source);
            const result = document.parseResult;
            const before = nodesOf(result.value);
            const edited: string[] = [];
            const answer = await commands(apply, edited).resolveAll({ uri: URI_TEXT, version: 1 });
            expect(answer.applied).toBe(apply);
            expect(answer.resolved.length > 0).toBe(apply);
            expect(edited).toHaveLength(1);
            expect(edited[0]).not.toBe(source);
            expect(document.parseResult).toBe(result);
            expect(document.textDocument.getText()).toBe(source);
            expectUnchanged(before, result.value);
            expect(edited[0]).toBe(await cliText(source));
        }
    }, 60_000);
});
