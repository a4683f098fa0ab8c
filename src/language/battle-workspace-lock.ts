import { Cancellation, Deferred, isOperationCancelled, startCancelableOperation, type WorkspaceLock } from 'langium';
import type { CancellationToken } from 'vscode-languageserver';

type MaybePromise<T> = T | Promise<T>;

interface Entry {
    action: (token: CancellationToken) => MaybePromise<unknown>;
    deferred: Deferred<unknown>;
    source?: Cancellation.AbstractCancellationTokenSource;
}

/**
 * Langium's workspace lock (one build at a time, reads in between), with one change: a new edit
 * cancels the build in progress only while the editor has had fresh diagnostics recently.
 *
 * Langium cancels the running build on every edit. Typing at a person's pace (a keystroke every
 * 160 ms) into a file whose build takes longer than that then cancels every build: a measurement
 * saw two diagnostics in 13 minutes of typing. Here a build that runs while nothing has finished for
 * `patience` ms is left to finish (and publish), so diagnostics keep coming while the umpire types;
 * the edits that arrive meanwhile are merged into the one build that follows (every write still
 * waiting is cancelled by the next, so only the newest text is built). A queued write is always superseded.
 */
export class BattleWorkspaceLock implements WorkspaceLock {
    private readonly writeQueue: Entry[] = [];
    private readonly readQueue: Entry[] = [];
    private running: Cancellation.AbstractCancellationTokenSource | undefined;
    private done = true;
    /** When a write last ran to its end (or the lock was made). */
    private lastFinished = performance.now();

    constructor(private readonly patience = 1000) {}

    write(action: (token: CancellationToken) => MaybePromise<void>): Promise<void> {
        this.cancelWrite();
        const source = startCancelableOperation();
        return this.enqueue(this.writeQueue, action, source) as Promise<void>;
    }

    read<T>(action: () => MaybePromise<T>): Promise<T> {
        return this.enqueue(this.readQueue, action) as Promise<T>;
    }

    cancelWrite(): void {
        // A queued write stays queued once cancelled (it resolves when its turn comes), so the next edit
        // finds it again: a source cancelled before its token was read has no token to cancel twice.
        for (const entry of this.writeQueue) if (entry.source && !entry.source.token.isCancellationRequested) entry.source.cancel();
        if (this.running && performance.now() - this.lastFinished < this.patience) this.running.cancel();
    }

    private enqueue(queue: Entry[], action: Entry['action'], source?: Cancellation.AbstractCancellationTokenSource): Promise<unknown> {
        const deferred = new Deferred<unknown>();
        queue.push({ action, deferred, source });
        void this.performNextOperation();
        return deferred.promise;
    }

    private async performNextOperation(): Promise<void> {
        if (!this.done) return;
        const entries: Entry[] = [];
        if (this.writeQueue.length > 0) entries.push(this.writeQueue.shift()!);
        else if (this.readQueue.length > 0) entries.push(...this.readQueue.splice(0, this.readQueue.length));
        else return;
        this.done = false;
        await Promise.all(entries.map(async ({ action, deferred, source }) => {
            const token = source?.token ?? Cancellation.CancellationToken.None;
            if (source) this.running = source;
            try {
                // The next event-loop turn, as Langium's lock does.
                const result = await Promise.resolve().then(() => action(token));
                if (source && !token.isCancellationRequested) this.lastFinished = performance.now();
                deferred.resolve(result);
            } catch (err) {
                if (isOperationCancelled(err)) deferred.resolve(undefined);
                else deferred.reject(err);
            } finally {
                if (source && this.running === source) this.running = undefined;
            }
        }));
        this.done = true;
        void this.performNextOperation();
    }
}
