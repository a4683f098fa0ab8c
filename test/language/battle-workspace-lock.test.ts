/**
 * The workspace lock's queue under edits that come faster than the builds: every queued build is
 * cancelled by the next edit, however many edits come, and only the newest one runs. (A build queued
 * behind a running one was once cancelled a second time by the third edit and threw, which failed
 * the workspace's first build in the browser worker: "Workspace initialization failed".)
 */
import { describe, expect, it } from 'vitest';
import type { CancellationToken } from 'vscode-languageserver';
import { BattleWorkspaceLock } from '../../src/language/battle-workspace-lock.js';

describe('the workspace lock', () => {
    it('lets edits queued behind a running build cancel each other, and runs only the newest', async () => {
        // Patience 0: the running build is never cancelled, so the others wait in the queue.
        const lock = new BattleWorkspaceLock(0);
        let release!: () => void;
        const running = new Promise<void>(resolve => { release = resolve; });
        const ran: string[] = [];
        const build = (name: string) => async (token: CancellationToken) => {
            if (token.isCancellationRequested) return;
            ran.push(name);
            if (name === 'first') await running;
        };
        const first = lock.write(build('first'));
        // Let the first build start before the others queue up.
        await new Promise(resolve => setTimeout(resolve, 10));
        const queued = ['second', 'third', 'fourth'].map(name => lock.write(build(name)));
        release();
        await expect(Promise.all([first, ...queued])).resolves.toBeDefined();
        expect(ran).toEqual(['first', 'fourth']);
    });
});
