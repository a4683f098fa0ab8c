/**
 * Cancellation: Langium cancels a running build on every keystroke; our linking and
 * validation must let it. A build of a large generated scenario, cancelled part-way, rejects with
 * OperationCancelled soon after the cancel, long before the build would have finished. The bound is
 * generous (a loaded machine): the point is "promptly", not a benchmark (npm run bench:limits measures).
 */
import { describe, expect, it } from 'vitest';
import { Cancellation, DocumentState, isOperationCancelled, TextDocument, URI, type LangiumDocument } from 'langium';
import { services as allServices } from '../support/services.js';

const { shared, Battle } = allServices;

/** A scenario of `forces` forces of 20 units, each fought in an engagement: about 27 lines a force. */
export function largeScenario(forces: number): string {
    const lines = ['scenario "Large"', 'rules scrud', 'grade Veteran +1', 'modifier Tired -1'];
    for (let f = 0; f < forces; f++) {
        lines.push(`force F${f} {`);
        for (let u = 0; u < 20; u++) lines.push(`  unit U${u} foot Veteran x2`);
        lines.push('}');
        if (f > 0) lines.push(`engagement E${f} {`, `  F${f - 1} attacks F${f}`, `  factor Tired on F${f}.U1#1`, `  seed ${f}`, '}');
    }
    return lines.join('\n') + '\n';
}

function open(name: string, text: string): LangiumDocument {
    const uri = URI.parse(`file:///cancel/${name}.battle`);
    if (shared.workspace.LangiumDocuments.hasDocument(uri)) shared.workspace.LangiumDocuments.deleteDocument(uri);
    const doc = shared.workspace.LangiumDocumentFactory.fromTextDocument(TextDocument.create(uri.toString(), 'battle', 1, text));
    shared.workspace.LangiumDocuments.addDocument(doc);
    return doc;
}

async function outcome(p: Promise<unknown>): Promise<{ cancelled: boolean, ms: number }> {
    const t0 = performance.now();
    try {
        await p;
        return { cancelled: false, ms: performance.now() - t0 };
    } catch (err) {
        if (!isOperationCancelled(err)) throw err;
        return { cancelled: true, ms: performance.now() - t0 };
    }
}

describe('a cancelled build returns promptly', () => {
    const text = largeScenario(150); // about 4,000 lines

    it('linking and validation stop soon after the cancel', async () => {
        // The full build, for comparison.
        const full = open('full', text);
        const t0 = performance.now();
        await shared.workspace.DocumentBuilder.build([full], { validation: true });
        const fullMs = performance.now() - t0;
        expect(full.state).toBe(DocumentState.Validated);
        expect(full.diagnostics?.filter(d => d.severity === 1)).toEqual([]);

        const doc = open('cancelled', text);
        const source = new Cancellation.CancellationTokenSource();
        const build = shared.workspace.DocumentBuilder.build([doc], { validation: true }, source.token);
        const started = performance.now();
        setTimeout(() => source.cancel(), 20);
        const result = await outcome(build);
        const afterCancel = performance.now() - started - 20;
        expect(result.cancelled).toBe(true);
        expect(doc.state).toBeLessThan(DocumentState.Validated);
        // Generous: a second, or half the full build, whichever is larger.
        expect(afterCancel).toBeLessThan(Math.max(1000, fullMs / 2));
    });

    it('validation alone honours a token cancelled before it starts', async () => {
        const doc = open('validate', text);
        await shared.workspace.DocumentBuilder.build([doc], { validation: false });
        const source = new Cancellation.CancellationTokenSource();
        source.cancel();
        const result = await outcome(Battle.validation.DocumentValidator.validateDocument(doc, {}, source.token));
        expect(result.cancelled).toBe(true);
    });

    it('a build cancelled by the next edit leaves the next build correct', async () => {
        const doc = open('edited', text);
        const source = new Cancellation.CancellationTokenSource();
        const first = shared.workspace.DocumentBuilder.build([doc], { validation: true }, source.token);
        source.cancel();
        expect((await outcome(first)).cancelled).toBe(true);
        const edited = open('edited', text.replace('grade Veteran +1', 'grade Veteran +9'));
        await shared.workspace.DocumentBuilder.build([edited], { validation: true });
        expect(edited.diagnostics?.map(d => d.code)).toEqual(['grade-value-range']);
    });
});
