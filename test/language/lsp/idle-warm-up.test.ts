/**
 * What the server does in its idle time (src/language/lsp/idle-warm-up.ts): it asks one completion and
 * runs the odds of each rule set's new scenario, puts nothing in the workspace, changes no answer, waits
 * while the client sends messages and stops when told.
 */
import * as fs from 'node:fs';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { IdleWarmUp } from '../../../src/language/lsp/idle-warm-up.js';
import { oddsCommand } from '../../../src/language/lsp/odds-request.js';
import { modelOf } from '../../../src/core/model-cache.js';
import { builtInRulesets } from '../../../src/rulesets/registry.js';
import type { Scenario } from '../../../src/language/generated/ast.js';
import { openDocument, services } from '../../support/services.js';

const example = (name: string) => fs.readFileSync(new URL(`../../../examples/${name}`, import.meta.url), 'utf8');
const FILES = {
    'file:///warm-up/scrud-seed.battle': example('scrud-seed.battle'),
    'file:///warm-up/ancients-flank.battle': example('ancients-flank.battle'),
    'file:///warm-up/loose-files-turn.battle': example('loose-files-turn.battle')
};

/** The odds of every action of each open file, as `umpire.odds` gives them. */
async function oddsOfFiles(): Promise<unknown[]> {
    const answers: unknown[] = [];
    for (const uri of Object.keys(FILES)) {
        const document = services.shared.workspace.LangiumDocuments.all.find(d => d.uri.toString() === uri)!;
        answers.push(await oddsCommand(modelOf(document.parseResult.value as Scenario), undefined));
    }
    return answers;
}

/** What the warm-up did for each built-in rule set, each of whose new scenarios has one action the engine gives odds for. */
const eachRuleset = (runs: number) => ['scrud', 'ancients', 'loose-files'].map(ruleset => ({ ruleset, runs, answered: runs }));

afterEach(() => {
    vi.useRealTimers();
});

describe('the idle warm-up', () => {
    it("runs each rule set's odds on its new scenario, outside the workspace, and the open files' odds are the same after it", async () => {
        for (const [uri, text] of Object.entries(FILES)) await openDocument(uri, text);
        const before = await oddsOfFiles();
        const documentsBefore = services.shared.workspace.LangiumDocuments.all.map(d => d.uri.toString()).toArray();
        const warmUp = new IdleWarmUp(services.Battle, builtInRulesets(), { quietMs: 0, runs: 3 });
        warmUp.start();
        const warmed = await warmUp.done;
        // The first completion was asked and gave the items of a real completion list.
        await vi.waitFor(() => expect(warmUp.completion.asked).toBe(1));
        expect(warmUp.completion.items).toBeGreaterThan(0);
        // Every built-in rule set has a new scenario with one action the engine gives odds for.
        expect(warmed).toEqual(eachRuleset(3));
        expect(services.shared.workspace.LangiumDocuments.all.map(d => d.uri.toString()).toArray()).toEqual(documentsBefore);
        const indexed = services.shared.workspace.IndexManager.allElements().map(e => e.documentUri.toString()).filter(u => u.startsWith('memory:///idle-warm-up/'));
        expect(indexed.toArray()).toEqual([]);
        const after = await oddsOfFiles();
        expect(after).toEqual(before);
        // The answers are real odds, not refusals.
        for (const answer of after as Array<{ actions: Array<Record<string, unknown>> }>) {
            expect(answer.actions.length).toBeGreaterThan(0);
            for (const a of answer.actions) expect(a.available).toBeUndefined();
        }
    });

    it('runs no step while the client speaks, and goes on once it has been quiet', async () => {
        vi.useFakeTimers();
        const warmUp = new IdleWarmUp(services.Battle, builtInRulesets(), { quietMs: 100, runs: 2 });
        warmUp.start();
        await vi.advanceTimersByTimeAsync(90);
        warmUp.heardFromClient();
        await vi.advanceTimersByTimeAsync(60);
        // The first tick came 10 ms after a message: it waited again, and nothing ran.
        expect(warmUp.warmed).toEqual([]);
        await vi.advanceTimersByTimeAsync(100);
        expect(warmUp.warmed.length).toBe(3);
        const ran = () => warmUp.warmed.reduce((n, w) => n + w.runs, 0);
        await vi.advanceTimersByTimeAsync(0);
        await vi.advanceTimersByTimeAsync(0);
        const soFar = ran();
        warmUp.heardFromClient();
        // At most the step already scheduled runs; then nothing until the client is quiet again.
        await vi.advanceTimersByTimeAsync(1);
        const afterMessage = ran();
        expect(afterMessage - soFar).toBeLessThanOrEqual(1);
        await vi.advanceTimersByTimeAsync(50);
        expect(ran()).toBe(afterMessage);
        await vi.advanceTimersByTimeAsync(1000);
        expect(await warmUp.done).toEqual(eachRuleset(2));
    });

    it('primes each rule set at once, with no timer, and the idle steps go on from there', async () => {
        vi.useFakeTimers();
        const warmUp = new IdleWarmUp(services.Battle, builtInRulesets(), { quietMs: 100, runs: 2 });
        const documentsBefore = services.shared.workspace.LangiumDocuments.all.map(d => d.uri.toString()).toArray();
        // No timer is advanced: the prime runs as soon as it is called (the server calls it at `initialized`).
        await warmUp.prime();
        expect(warmUp.warmed).toEqual(eachRuleset(1));
        expect(services.shared.workspace.LangiumDocuments.all.map(d => d.uri.toString()).toArray()).toEqual(documentsBefore);
        warmUp.start();
        await vi.advanceTimersByTimeAsync(1000);
        expect(await warmUp.done).toEqual(eachRuleset(3));
    });

    it('primes nothing once stopped', async () => {
        const warmUp = new IdleWarmUp(services.Battle, builtInRulesets());
        warmUp.stop();
        await warmUp.prime();
        expect(warmUp.warmed).toEqual([]);
    });

    it('runs nothing once stopped', async () => {
        vi.useFakeTimers();
        const warmUp = new IdleWarmUp(services.Battle, builtInRulesets(), { quietMs: 10 });
        warmUp.start();
        warmUp.stop();
        await vi.advanceTimersByTimeAsync(1000);
        expect(await warmUp.done).toEqual([]);
        expect(warmUp.completion.asked).toBe(0);
    });

    it('asks the first completion as its first step, once the client has been quiet, before any odds', async () => {
        vi.useFakeTimers();
        const warmUp = new IdleWarmUp(services.Battle, builtInRulesets(), { quietMs: 100, runs: 2 });
        const ran = () => warmUp.warmed.reduce((n, w) => n + w.runs, 0);
        const provider = services.Battle.lsp.CompletionProvider!;
        const complete = provider.getCompletion.bind(provider);
        let runsWhenAsked: number | undefined;
        const asked = vi.spyOn(provider, 'getCompletion').mockImplementation((...args) => {
            runsWhenAsked = ran();
            return complete(...args);
        });
        try {
            warmUp.start();
            await vi.advanceTimersByTimeAsync(90);
            warmUp.heardFromClient();
            await vi.advanceTimersByTimeAsync(60);
            // A message came: nothing yet, not even the completion (a request sent as the diagnostics arrive never waits behind it).
            expect(warmUp.completion.asked).toBe(0);
            await vi.advanceTimersByTimeAsync(1000);
            await warmUp.done;
            expect(warmUp.completion.asked).toBe(1);
            expect(warmUp.completion.items).toBeGreaterThan(0);
            expect(asked).toHaveBeenCalledTimes(1);
            expect(runsWhenAsked).toBe(0);
            expect(ran()).toBe(6);
        } finally {
            asked.mockRestore();
        }
    });

    it('asks the first completion after the first edit, quiet or not, and never again as its step', async () => {
        vi.useFakeTimers();
        const warmUp = new IdleWarmUp(services.Battle, builtInRulesets(), { quietMs: 100, runs: 1 });
        const provider = services.Battle.lsp.CompletionProvider!;
        const asked = vi.spyOn(provider, 'getCompletion');
        try {
            // Before the first diagnostics the warm-up has not started: an edit then asks nothing.
            warmUp.edited();
            await vi.advanceTimersByTimeAsync(0);
            expect(asked).not.toHaveBeenCalled();
            warmUp.start();
            warmUp.heardFromClient();
            warmUp.edited();
            // No quiet came (no timer ran to its end), and the completion was asked.
            await vi.waitFor(() => expect(warmUp.completion.asked).toBe(1));
            expect(warmUp.completion.items).toBeGreaterThan(0);
            expect(warmUp.warmed).toEqual([]);
            warmUp.edited();
            await vi.advanceTimersByTimeAsync(1000);
            expect(await warmUp.done).toEqual(eachRuleset(1));
            expect(asked).toHaveBeenCalledTimes(1);
            expect(warmUp.completion.asked).toBe(1);
        } finally {
            asked.mockRestore();
        }
    });
});
