/**
 * A cancelled odds or Resolve all request answers at once (issue 19): the bundled server, over stdio,
 * is asked for the odds of every engagement of a 39-engagement file, or to resolve them all, and the
 * request is cancelled part-way through; the answer must be RequestCancelled, soon after the
 * cancellation, and a cancelled Resolve all writes nothing. One engagement's odds or resolution is not
 * interruptible, so the bound is one engagement plus the server's turn-around; the figures are
 * printed (`npm run bench:resolve-all` measures Resolve all's on a quiet machine). (A hover on one of
 * these engagements answers in under 20 ms, before any cancellation could arrive, so it is not timed here.)
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CancellationTokenSource, ExecuteCommandRequest, LSPErrorCodes } from 'vscode-languageserver-protocol/node.js';
import { ensureServerBundle, LspSession } from './lsp-harness.js';

/** `forces` forces of 20 units ×2, each fighting the next: forces − 1 engagements with seeds. */
function campaign(forces: number): string {
    const lines = ['scenario "Long campaign"', 'rules scrud', 'grade Veteran +1', 'modifier Tired -1'];
    for (let f = 0; f < forces; f++) {
        lines.push(`force F${f} {`);
        for (let u = 0; u < 20; u++) lines.push(`  unit U${u} foot Veteran x2`);
        lines.push('}');
        if (f > 0) lines.push(`engagement E${f} {`, `  F${f - 1} attacks F${f}`, `  factor Tired on F${f}.U1#1`, `  seed ${f}`, '}');
    }
    return lines.join('\n') + '\n';
}

let workspace: string;
let session: LspSession;
let uri: string;

beforeAll(async () => {
    ensureServerBundle();
    workspace = fs.mkdtempSync(path.join(os.tmpdir(), 'umpire-cancel-'));
    fs.writeFileSync(path.join(workspace, 'campaign.battle'), campaign(40));
    session = new LspSession(workspace);
    await session.initialize();
    uri = await session.open('campaign.battle');
    expect(await session.diagnosticsFor(uri, 60_000)).toEqual([]);
}, 120_000);

afterAll(() => {
    session?.kill();
    if (workspace) fs.rmSync(workspace, { recursive: true, force: true });
});

/** Sends a request, cancels it after `afterMs`, and returns how long the answer took after the cancel. */
async function cancelledAfter<T>(afterMs: number, send: (source: CancellationTokenSource) => Promise<T>): Promise<{ latencyMs: number, code?: number }> {
    const source = new CancellationTokenSource();
    let cancelledAt = 0;
    const answered = send(source).then(() => ({ code: undefined }), (err: { code?: number }) => ({ code: err.code }));
    await new Promise(resolve => setTimeout(resolve, afterMs));
    cancelledAt = performance.now();
    source.cancel();
    const { code } = await answered;
    return { latencyMs: performance.now() - cancelledAt, code };
}

function median(values: number[]): number {
    const sorted = [...values].sort((a, b) => a - b);
    return sorted[Math.floor(sorted.length / 2)];
}

describe('cancelled requests answer at once', () => {
    it('umpire.odds of every engagement, cancelled part-way', async () => {
        const odds = (source?: CancellationTokenSource) => session.connection.sendRequest(ExecuteCommandRequest.type,
            { command: 'umpire.odds', arguments: [{ uri }] }, source?.token);
        expect((await odds() as { actions: unknown[] }).actions).toHaveLength(39);
        // Timed once warm (the first run compiles the engines).
        const t0 = performance.now();
        await odds();
        const fullMs = performance.now() - t0;

        const latencies: number[] = [];
        for (let i = 0; i < 5; i++) {
            const { latencyMs, code } = await cancelledAfter(20, odds);
            expect(code).toBe(LSPErrorCodes.RequestCancelled);
            latencies.push(latencyMs);
        }
        console.log(`umpire.odds of 39 engagements: ${fullMs.toFixed(0)} ms in full; answered ${latencies.map(l => l.toFixed(0)).join(', ')} ms after the cancel (median ${median(latencies).toFixed(0)} ms)`);
        // One engagement's odds plus the server's turn-around.
        expect(median(latencies)).toBeLessThan(100);
    }, 120_000);

    it('umpire.resolveAll of 39 chained engagements, cancelled part-way, writes nothing', async () => {
        const before = session.document(uri).getText();
        const resolveAll = (source?: CancellationTokenSource) => session.connection.sendRequest(ExecuteCommandRequest.type,
            { command: 'umpire.resolveAll', arguments: [{ uri, version: session.document(uri).version }] }, source?.token);
        const latencies: number[] = [];
        for (let i = 0; i < 5; i++) {
            const { latencyMs, code } = await cancelledAfter(20 + 10 * i, resolveAll);
            expect(code).toBe(LSPErrorCodes.RequestCancelled);
            latencies.push(latencyMs);
        }
        expect(session.appliedEdits).toHaveLength(0);
        expect(session.document(uri).getText()).toBe(before);
        // Not cancelled, the same request writes every outcome (so the cancelled ones had work to stop).
        const t0 = performance.now();
        const done = await resolveAll() as { applied: boolean, resolved: unknown[] };
        const fullMs = performance.now() - t0;
        expect(done.applied).toBe(true);
        expect(done.resolved).toHaveLength(39);
        console.log(`umpire.resolveAll of 39 engagements: ${fullMs.toFixed(0)} ms in full; answered ${latencies.map(l => l.toFixed(0)).join(', ')} ms after the cancel (median ${median(latencies).toFixed(0)} ms)`);
        expect(median(latencies)).toBeLessThan(100);
    }, 120_000);
});
