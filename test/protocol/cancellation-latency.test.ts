/**
 * A cancelled odds or Resolve all request answers at once: the bundled server, over stdio,
 * is asked for the odds of every engagement of a 199-engagement file, or to resolve every engagement of
 * a 159-engagement file, and the request is cancelled part-way through; the answer must be RequestCancelled, soon after the
 * cancellation, and a cancelled Resolve all writes nothing. One engagement's odds or resolution is not
 * interruptible, so the bound is one engagement plus the server's turn-around; the figures are
 * printed (`npm run bench:resolve-all` measures Resolve all's on a quiet machine). (A hover on one of
 * these engagements answers in under 20 ms, before any cancellation could arrive, so it is not timed here.)
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CancellationTokenSource, ExecuteCommandRequest, LSPErrorCodes } from 'vscode-languageserver-protocol/node';
import { type LspSession, startScratchSession, stopScratchSession } from './lsp-harness.js';

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

beforeAll(async () => {
    ({ workspace, session } = await startScratchSession('umpire-cancel-'));
}, 120_000);

afterAll(() => stopScratchSession(workspace, session));

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
        // 199 engagements: their odds take 350–400 ms here, many times the 20 ms before the cancel, so a
        // cancel sent late by a busy test process still arrives part-way (with 39 the whole answer once came first).
        fs.writeFileSync(path.join(workspace, 'odds.battle'), campaign(200));
        const oddsUri = await session.open('odds.battle');
        expect(await session.diagnosticsFor(oddsUri, 60_000)).toEqual([]);
        const odds = (source?: CancellationTokenSource) => session.connection.sendRequest(ExecuteCommandRequest.type,
            { command: 'umpire.odds', arguments: [{ uri: oddsUri }] }, source?.token);
        expect((await odds() as { actions: unknown[] }).actions).toHaveLength(199);
        // Timed once warm (the first run compiles the engines).
        const t0 = performance.now();
        await odds();
        const fullMs = performance.now() - t0;
        // The premise: the cancel at 20 ms comes well before the end.
        expect(fullMs).toBeGreaterThan(100);

        const latencies: number[] = [];
        for (let i = 0; i < 5; i++) {
            const { latencyMs, code } = await cancelledAfter(20, odds);
            expect(code).toBe(LSPErrorCodes.RequestCancelled);
            latencies.push(latencyMs);
        }
        console.log(`umpire.odds of 199 engagements: ${fullMs.toFixed(0)} ms in full; answered ${latencies.map(l => l.toFixed(0)).join(', ')} ms after the cancel (median ${median(latencies).toFixed(0)} ms)`);
        // One engagement's odds plus the server's turn-around.
        expect(median(latencies)).toBeLessThan(100);
    }, 120_000);

    it('umpire.resolveAll of chained engagements, cancelled part-way, writes nothing', async () => {
        // Resolve all of 39 engagements can have sent its edit before a cancellation 20 ms later
        // arrives: its work is timed on a copy first (cold: the later runs are quicker, hence the
        // first quarter of it), and each cancellation is sent part-way through that time, on a file
        // long enough that the part-way point is tens of milliseconds in.
        fs.writeFileSync(path.join(workspace, 'long.battle'), campaign(160));
        fs.writeFileSync(path.join(workspace, 'long-copy.battle'), campaign(160));
        const longUri = await session.open('long.battle');
        const copyUri = await session.open('long-copy.battle');
        expect(await session.diagnosticsFor(longUri, 60_000)).toEqual([]);
        expect(await session.diagnosticsFor(copyUri, 60_000)).toEqual([]);
        const resolveAll = (target: string, source?: CancellationTokenSource) => session.connection.sendRequest(ExecuteCommandRequest.type,
            { command: 'umpire.resolveAll', arguments: [{ uri: target, version: session.document(target).version }] }, source?.token);
        // The time it works before it sends its edit (the edit, once sent, is the client's to apply).
        const editsBefore = session.appliedEdits.length;
        const t0 = performance.now();
        const answer = resolveAll(copyUri);
        while (session.appliedEdits.length === editsBefore) await new Promise(resolve => setTimeout(resolve, 1));
        const workMs = performance.now() - t0;
        const done = await answer as { applied: boolean, resolved: unknown[] };
        expect(done.applied).toBe(true);
        expect(done.resolved).toHaveLength(159);
        // The copy's edit is built before the timed requests start (a build is not theirs to cancel).
        expect(await session.diagnosticsFor(copyUri, 60_000)).toEqual([]);

        const before = session.document(longUri).getText();
        const latencies: number[] = [];
        for (let i = 0; i < 5; i++) {
            const { latencyMs, code } = await cancelledAfter(workMs * (0.05 + 0.05 * i), source => resolveAll(longUri, source));
            expect(code).toBe(LSPErrorCodes.RequestCancelled);
            latencies.push(latencyMs);
        }
        expect(session.appliedEdits).toHaveLength(editsBefore + 1);
        expect(session.document(longUri).getText()).toBe(before);
        console.log(`umpire.resolveAll of 159 engagements: ${workMs.toFixed(0)} ms before its edit; answered ${latencies.map(l => l.toFixed(0)).join(', ')} ms after the cancel (median ${median(latencies).toFixed(0)} ms)`);
        expect(median(latencies)).toBeLessThan(100);
    }, 180_000);
});
