/**
 * Resolve all without checking the written file again: the outcomes are held in
 * the parse tree in memory (`outcomeNode`), and verified there. What must hold:
 * - `outcomeNode` is what the parser makes of the block `resolve --write` writes, for every field the
 *   model reads, on every example and a long chained campaign;
 * - the in-memory run writes the text the run that checks the written file writes, with no check
 *   beyond the one handed in, and goes the slow way when an outcome makes a later action wrong;
 * - a cancelled run throws, leaves the tree as it was, and returns nothing.
 */
import * as fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { loadText } from '../../src/cli/load.js';
import { modelOf } from '../../src/core/model-cache.js';
import { outcomeNode, resolveAll, ResolveAllCancelled, type CheckedText, type ResolveAllOptions } from '../../src/core/resolve-all.js';
import { outcomeStatus, replayOutcome, isUnresolvable } from '../../src/core/resolve.js';
import { factValue, unquote } from '../../src/core/scenario.js';
import type { Outcome, Target } from '../../src/language/generated/ast.js';
import { inMemoryChecks } from '../../src/language/resolve-all-checks.js';

// Not the broken ones, nor the season split over files (armies.battle has no action; the seasons import it).
const EXAMPLES = fs.readdirSync('examples').filter(f => f.endsWith('.battle') && !/^(broken-|season-|armies)/.test(f));

/**
 * `forces` forces; engagement k pits force k−1 against force k, so each reads the state the last one
 * left (their disruption), after a ruling that rallies any unit routed.
 */
function chain(forces: number): string {
    const lines = ['scenario "A chain"', 'rules scrud', 'grade Veteran +1', 'modifier Tired -1'];
    for (let f = 0; f < forces; f++) lines.push(`force F${f} {`, '  unit Foot foot Veteran x3', '  unit Horse horse', '}');
    for (let f = 1; f < forces; f++) {
        lines.push(`turn ${f} {`, `  ruling F${f - 1}: rallied, reason "fresh troops"`, `  ruling F${f}: rallied, reason "fresh troops"`,
            `  engagement E${f} {`, `    F${f - 1} attacks F${f}`, `    factor Tired on F${f}.Foot#1`, `    seed ${f + 3}`, '  }', '}');
    }
    return lines.join('\n') + '\n';
}

let checks = 0;
async function check(text: string): Promise<CheckedText> {
    checks++;
    const loaded = await loadText('in-memory.battle', text);
    return { root: loaded.document.parseResult.value, errors: loaded.diagnostics.filter(d => d.severity === 1).map(d => d.message as string) };
}

/** The run the server and the CLI make: the first check handed in, the outcomes verified in memory. */
async function inMemory(text: string, extra: Partial<ResolveAllOptions> = {}) {
    const first = await check(text);
    checks = 0;
    const result = await resolveAll(text, check, { newSeed: () => 1, checked: first, inMemory: inMemoryChecks(), ...extra });
    return { ...result, checks };
}

/** Each field the model reads from an outcome, as it reads it (names as written, strings unquoted). */
function read(outcome: Outcome) {
    const target = (t: Target | undefined) => t && { force: t.force?.$refText, unit: t.unit?.$refText, index: t.index };
    return {
        entered: Boolean(outcome.entered), seed: outcome.seed, check: outcome.check && unquote(outcome.check), summary: outcome.summary && unquote(outcome.summary),
        lines: outcome.lines.map(l => ({ unit: target(l.unit), opponent: target(l.opponent), result: l.result, facts: l.facts.map(f => [f.key, factValue(f)]) }))
    };
}

describe('outcomeNode reads as the parser reads the block written', () => {
    const cases = [...EXAMPLES.map(f => [f, fs.readFileSync(`examples/${f}`, 'utf8')]), ['a chain of 12 SCRUD engagements', chain(13)]];
    it.each(cases)('%s', async (_name, source) => {
        const written = (await resolveAll(source, check, { newSeed: () => 1 })).text;
        const parsed = await check(written);
        expect(parsed.errors).toEqual([]);
        const model = modelOf(parsed.root);
        let compared = 0;
        for (const action of model.actions) {
            const outcome = action.node.outcome;
            if (!outcome || outcomeStatus(model, action).kind !== 'current') continue;
            const again = replayOutcome(model, action);
            if (!again || isUnresolvable(again)) throw new Error(`${action.node.name} does not replay`);
            expect(read(outcomeNode(action.node, again.resolution, again.dice)), action.node.name).toEqual(read(outcome));
            compared++;
        }
        expect(compared).toBeGreaterThan(0);
    }, 60_000);
});

describe('resolve all in memory', () => {
    it('writes what checking the written file gives, on a chain and on every example, with no further check', async () => {
        for (const source of [chain(13), ...EXAMPLES.map(f => fs.readFileSync(`examples/${f}`, 'utf8').replace(/\n[ \t]*outcome [^{]*\{[^}]*\}/g, ''))]) {
            const checked = (await resolveAll(source, check, { newSeed: () => 1 })).text;
            const r = await inMemory(source);
            expect(r.text).toBe(checked);
            expect(r.checks).toBe(0);
        }
    }, 120_000);

    it('goes the slow way, and names the outcome, when one takes a unit out of a later fight', async () => {
        // The ridge has no seed yet: the one drawn (7) routs the French line, which is sent in again at the mill.
        const routs = 'scenario "Pozzo"\nrules scrud\ngrade Veteran +1\nforce French { unit Line foot Veteran x2 unit Hussars horse }\n' +
            'force Austrian { unit Grenz foot x2 unit Dragoons horse }\nturn 1 "Dawn" {\n  engagement Ridge { French attacks Austrian }\n}\n' +
            'turn 2 "Noon" {\n  engagement Mill { French.Line#1 attacks Austrian.Grenz#2\n    seed 11 }\n}\n';
        await expect(inMemory(routs, { newSeed: () => 7 })).rejects.toThrow(/after writing the outcome of 'Ridge', the file has errors/);
        expect(checks).toBeGreaterThan(0);
    }, 60_000);

    it('a cancelled run throws, returns nothing and leaves the tree as it was', async () => {
        const source = chain(13);
        const first = await check(source);
        let pauses = 0;
        const token = { isCancellationRequested: false };
        // Cancelled while the fifth engagement waits its turn: four outcomes are held in memory by then.
        const run = resolveAll(source, check, {
            newSeed: () => 1, checked: first, inMemory: inMemoryChecks(), token,
            pause: async () => { if (++pauses === 5) token.isCancellationRequested = true; }
        });
        await expect(run).rejects.toBeInstanceOf(ResolveAllCancelled);
        expect(pauses).toBe(5);
        expect(modelOf(first.root).actions.map(a => a.node.outcome)).toEqual(modelOf(first.root).actions.map(() => undefined));
    }, 60_000);
});
