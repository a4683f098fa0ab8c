/**
 * Resolve all works on models of its own and never changes the parse tree it is given (often the
 * editor's document, whose nodes the caches of every later build are kept by). What must hold:
 * - every action node of the tree is the same object with the same own properties (its `outcome`
 *   the same object, reading the same) before, during and after a run: at every new seed drawn and
 *   at every in-memory check, where the new outcomes are being worked on;
 * - the same when the run fails halfway: an error thrown by the dice, by the in-memory checks, a
 *   file that goes the slow way and fails there, a cancelled run;
 * - what the caches kept by the tree's nodes answer (the campaign timeline, the outcomes' status,
 *   the actions' input keys, the status table) is what they answered before the run, and what a
 *   cold parse of the same text answers.
 */
import * as fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { loadText } from '../../src/cli/load.js';
import { actionInputsKey, modelOf } from '../../src/core/model-cache.js';
import { needsOutcome, resolveAll, ResolveAllCancelled, type CheckedText, type InMemoryChecks, type ResolveAllOptions } from '../../src/core/resolve-all.js';
import { outcomeStatus } from '../../src/core/resolve.js';
import { resolutionOrder, settledOf, stateAt, waitsOn } from '../../src/core/campaign-state.js';
import { statusTable } from '../../src/core/status-table.js';
import { campaignOdds } from '../../src/core/campaign-odds.js';
import { factValue, unquote, type ScenarioModel } from '../../src/core/scenario.js';
import { isAction, isTurn, type Action, type Outcome, type Scenario, type Target } from '../../src/language/generated/ast.js';
import { inMemoryChecks } from '../../src/language/resolve-all-checks.js';

const EXAMPLES = fs.readdirSync('examples').filter(f => f.endsWith('.battle') && !/^(broken-|season-|armies)/.test(f));

/** Engagement k pits force k−1 against force k; with `seeds`, each has its own seed (settled), else each waits on the one before. */
function chain(forces: number, seeds: boolean): string {
    const lines = ['scenario "A chain"', 'rules scrud', 'grade Veteran +1', 'modifier Tired -1'];
    for (let f = 0; f < forces; f++) lines.push(`force F${f} {`, '  unit Foot foot Veteran x3', '  unit Horse horse', '}');
    for (let f = 1; f < forces; f++) {
        lines.push(`turn ${f} {`, `  ruling F${f - 1}: rallied, reason "fresh troops"`, `  ruling F${f}: rallied, reason "fresh troops"`,
            `  engagement E${f} {`, `    F${f - 1} attacks F${f}`, `    factor Tired on F${f}.Foot#1`, ...(seeds ? [`    seed ${f + 3}`] : []), '  }', '}');
    }
    return lines.join('\n') + '\n';
}

/** The first engagement written, the rest not: what the run keeps, and what it adds. */
function halfWritten(): Promise<string> {
    const source = chain(8, false);
    return resolveAll(source, check, { newSeed: () => 5, only: 'E1' }).then(r => r.text);
}

async function check(text: string): Promise<CheckedText> {
    const loaded = await loadText('live-tree.battle', text);
    return { root: loaded.document.parseResult.value, errors: loaded.diagnostics.filter(d => d.severity === 1).map(d => d.message as string) };
}

function readTarget(t: Target | undefined) {
    return t && { force: t.force?.$refText, unit: t.unit?.$refText, index: t.index };
}

/** Each field the model reads from an outcome. */
function read(outcome: Outcome | undefined) {
    return outcome && {
        entered: Boolean(outcome.entered), seed: outcome.seed, reroll: outcome.reroll, check: outcome.check && unquote(outcome.check),
        summary: outcome.summary && unquote(outcome.summary),
        lines: outcome.lines.map(l => ({ unit: readTarget(l.unit), opponent: readTarget(l.opponent), result: l.result, facts: l.facts.map(f => [f.key, factValue(f)]) }))
    };
}

function actionsOf(root: Scenario): Action[] {
    return root.elements.flatMap(el => (isAction(el) ? [el] : isTurn(el) ? el.elements.filter(isAction) : []));
}

/** The tree as it stands: its element arrays, each action node, its own properties (by identity), and its outcome as read. */
function snapshot(root: Scenario) {
    return {
        elements: root.elements, items: [...root.elements],
        turns: root.elements.filter(isTurn).map(t => ({ turn: t, elements: t.elements, items: [...t.elements] })),
        actions: actionsOf(root).map(node => ({ node, own: Object.entries(node), outcome: node.outcome, read: read(node.outcome) }))
    };
}

/** Throws unless the tree is as `before` found it: the same objects, the same own properties, the same outcomes. */
function expectSameTree(root: Scenario, before: ReturnType<typeof snapshot>, when: string): void {
    const now = snapshot(root);
    expect(now.elements, when).toBe(before.elements);
    expect(now.items.length, when).toBe(before.items.length);
    now.items.forEach((el, i) => expect(el, when).toBe(before.items[i]));
    expect(now.turns.length, when).toBe(before.turns.length);
    now.turns.forEach((t, i) => {
        expect(t.turn, when).toBe(before.turns[i].turn);
        expect(t.elements, when).toBe(before.turns[i].elements);
        t.items.forEach((el, j) => expect(el, when).toBe(before.turns[i].items[j]));
    });
    expect(now.actions.length, when).toBe(before.actions.length);
    now.actions.forEach((a, i) => {
        const was = before.actions[i];
        expect(a.node, when).toBe(was.node);
        expect(a.outcome, `${when}: ${a.node.name}'s outcome`).toBe(was.outcome);
        expect(a.read, `${when}: ${a.node.name}'s outcome as read`).toEqual(was.read);
        expect(a.own.map(([k]) => k), when).toEqual(was.own.map(([k]) => k));
        a.own.forEach(([k, v], j) => expect(v, `${when}: ${a.node.name}.${k}`).toBe(was.own[j][1]));
    });
}

/** A run on the checked tree that asserts, at every seed drawn and every in-memory check, that the tree is untouched. */
function watched(root: Scenario, extra: Partial<ResolveAllOptions> & { failAtSeed?: number, failInChecks?: boolean } = {}) {
    const before = snapshot(root);
    let seeds = 0, looks = 0;
    const checks = inMemoryChecks();
    const inMemory: InMemoryChecks = {
        errorsWith(model) {
            expectSameTree(root, before, 'during the in-memory checks');
            looks++;
            if (extra.failInChecks) throw new Error('injected: the in-memory checks failed');
            return checks.errorsWith(model);
        }
    };
    const options: ResolveAllOptions = {
        checked: { root, errors: [] }, inMemory, ...extra,
        newSeed: () => {
            expectSameTree(root, before, `at seed ${seeds + 1}`);
            looks++;
            if (++seeds === extra.failAtSeed) throw new Error('injected: no dice');
            return 1 + seeds;
        },
        pause: async () => { expectSameTree(root, before, 'between engagements'); looks++; await extra.pause?.(); }
    };
    return { before, options, looks: () => looks, seeds: () => seeds };
}

const stateText = (m: ReadonlyMap<string, unknown>) => JSON.stringify([...m], (_k, v) => (v instanceof Map ? [...v] : v));

/** What the caches kept by the tree's nodes answer about every action. */
function answers(model: ScenarioModel) {
    const table = statusTable(model);
    return {
        order: resolutionOrder(model).map(a => a.node.name),
        table: 'problem' in table ? table.problem : JSON.stringify(table.rows),
        actions: model.actions.map(a => ({
            name: a.node.name, status: outcomeStatus(model, a).kind, needs: needsOutcome(model, a), waits: waitsOn(model, a)?.name,
            settled: settledOf(model, a)?.text.join('\n'), state: stateText(stateAt(model, a)), key: actionInputsKey(model, a.node)
        }))
    };
}

/** The tree of `source` as checked, its model, and what its caches answer before any run. */
async function liveTree(source: string) {
    const { root } = await check(source);
    const live = modelOf(root);
    return { root, live, was: answers(live) };
}

/** The model the editor holds and a next model of the same tree (the caches it carries) answer as before the run. */
function expectSameAnswers(live: ScenarioModel, was: ReturnType<typeof answers>): void {
    expect(answers(live)).toEqual(was);
    expect(answers({ ...live })).toEqual(was);
}

describe('Resolve all leaves the live tree as it was', () => {
    const sources: Array<[string, () => string | Promise<string>]> = [
        ['a chain with its seeds', () => chain(10, true)],
        ['a chain that draws every seed', () => chain(10, false)],
        ['a chain with its first outcome written', halfWritten],
        ...EXAMPLES.map((f): [string, () => string] => [f, () => fs.readFileSync(`examples/${f}`, 'utf8').replace(/\n[ \t]*outcome [^{]*\{[^}]*\}/g, '')])
    ];

    it.each(sources)('%s: the same nodes and outcomes before, during and after, and the caches answer as before', async (_name, make) => {
        const source = await make();
        const { root, live, was } = await liveTree(source);
        const run = watched(root);
        const result = await resolveAll(source, () => Promise.reject(new Error('no check of the written text: the run verifies in memory')), run.options);
        expect(result.text).not.toBe(source);
        expect(run.looks()).toBeGreaterThan(0);
        expectSameTree(root, run.before, 'after the run');
        // The model the editor holds, a next model of the same tree (carried caches), and a cold parse all answer as before.
        expectSameAnswers(live, was);
        expect(answers(modelOf((await check(source)).root))).toEqual(was);
        // And the text written reads as resolved: nothing left to write.
        const after = modelOf((await check(result.text)).root);
        expect(after.actions.filter(a => needsOutcome(after, a)).map(a => a.node.name)).toEqual([]);
    }, 60_000);
});

describe('Resolve all that fails halfway leaves the live tree as it was', () => {
    it('an error thrown at the third seed drawn', async () => {
        const source = chain(10, false);
        const { root, live, was } = await liveTree(source);
        const run = watched(root, { failAtSeed: 3 });
        await expect(resolveAll(source, check, run.options)).rejects.toThrow(/injected: no dice/);
        expect(run.seeds()).toBe(3);
        expectSameTree(root, run.before, 'after the failed run');
        expectSameAnswers(live, was);
    }, 60_000);

    it('an error thrown by the in-memory checks, every outcome already worked out', async () => {
        const source = chain(10, true);
        const { root, live, was } = await liveTree(source);
        const run = watched(root, { failInChecks: true });
        await expect(resolveAll(source, check, run.options)).rejects.toThrow(/injected: the in-memory checks failed/);
        expectSameTree(root, run.before, 'after the failed run');
        expectSameAnswers(live, was);
    }, 60_000);

    it('a file whose second pass has errors: the in-memory check finds them, the slow way fails', async () => {
        // The ridge has no seed yet: the one drawn (2) routs the French line, which is sent in again at the mill.
        const routs = 'scenario "Pozzo"\nrules scrud\ngrade Veteran +1\nforce French { unit Line foot Veteran x2 unit Hussars horse }\n' +
            'force Austrian { unit Grenz foot x2 unit Dragoons horse }\nturn 1 "Dawn" {\n  engagement Ridge { French attacks Austrian }\n}\n' +
            'turn 2 "Noon" {\n  engagement Mill { French.Line#1 attacks Austrian.Grenz#2\n    seed 11 }\n}\n';
        const { root, live, was } = await liveTree(routs);
        const run = watched(root);
        const drawn = { ...run.options, newSeed: (a: Parameters<ResolveAllOptions['newSeed']>[0], r: number) => (run.options.newSeed(a, r), 7) };
        await expect(resolveAll(routs, check, drawn)).rejects.toThrow(/after writing the outcome of 'Ridge', the file has errors/);
        expect(run.seeds()).toBeGreaterThan(0);
        expectSameTree(root, run.before, 'after the failed run');
        expectSameAnswers(live, was);
    }, 60_000);

    it('a run cancelled at the fifth engagement', async () => {
        const source = chain(10, false);
        const { root, live, was } = await liveTree(source);
        const token = { isCancellationRequested: false };
        let pauses = 0;
        const run = watched(root, { token, pause: async () => { if (++pauses === 5) token.isCancellationRequested = true; } });
        await expect(resolveAll(source, check, run.options)).rejects.toBeInstanceOf(ResolveAllCancelled);
        expect(run.seeds()).toBe(4);
        expectSameTree(root, run.before, 'after the cancelled run');
        expectSameAnswers(live, was);
    }, 60_000);
});

describe('The campaign odds leave the live tree as they found it', () => {
    it('every world laid over the tree, none written into it', async () => {
        const source = chain(5, false);
        const { root, live, was } = await liveTree(source);
        const before = snapshot(root);
        const report = campaignOdds(live);
        if ('problem' in report) throw new Error(report.problem);
        // Four open engagements, each fought in every world the ones before it leave.
        expect(report.actions.map(a => a.name)).toEqual(['E1', 'E2', 'E3', 'E4']);
        expectSameTree(root, before, 'after the campaign odds');
        expectSameAnswers(live, was);
    }, 60_000);
});
