/**
 * The campaign timeline works out a settled result (an unwritten action whose dice are known) only
 * when something reads it (docs/performance.md#settled-results-worked-out-when-read). Whatever is read
 * first (a late unit, an early one, the status at the end, a preview of the last engagement), every
 * state, every settled outcome and every check must come out as when everything is worked out at once,
 * also after an edit that continues the previous timeline, and for the previous model read after it.
 */
import * as fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { URI, type LangiumDocument } from 'langium';
import { TextDocument as EditorDocument } from 'vscode-languageserver-textdocument';
import { modelOf } from '../../src/core/model-cache.js';
import { resolutionOrder, settledOf, settledWatch, stateAfterTurn, stateAtEnd, turnsOf, unitStateAfter, unitStateAt, effectiveStats, waitsOn } from '../../src/core/campaign-state.js';
import { turnLabel, unitsOf, type ScenarioModel } from '../../src/core/scenario.js';
import type { Scenario, Target } from '../../src/language/generated/ast.js';
import { parse, services } from '../support/services.js';

/** An example with its written outcomes taken out, each left as the seed it was thrown from: every action settled. */
function unwritten(text: string): string {
    return text.replace(/outcome (seed \d+)[^{\n]*\{[^}]*\}/g, '$1').replace(/outcome entered[^{\n]*\{[^}]*\}/g, '');
}

const EXAMPLES = ['campaign', 'season-1', 'cowpens', 'loose-files-turn', 'ancients-flank', 'scrud-ridge', 'broken-campaign', 'house-rules-scrud', 'house-rules-loose-files']
    .map(name => fs.readFileSync(new URL(`../../examples/${name}.battle`, import.meta.url), 'utf8'));
const TEXTS = [...EXAMPLES, ...EXAMPLES.map(unwritten)];

/** A SCRUD season: units sent in again and again (routed ones too), factors on whole forces, rallies, some engagements without dice. */
const season = fc.record({
    engagements: fc.array(fc.record({
        attackers: fc.uniqueArray(fc.integer({ min: 1, max: 5 }), { minLength: 1, maxLength: 2 }),
        defenders: fc.uniqueArray(fc.integer({ min: 1, max: 5 }), { minLength: 1, maxLength: 2 }),
        factorOn: fc.constantFrom(undefined, 'A', 'B'),
        seed: fc.option(fc.integer({ min: 1, max: 999 }), { freq: 8 }),
        rally: fc.option(fc.integer({ min: 1, max: 5 }), { freq: 4 }),
        turn: fc.boolean()
    }), { minLength: 2, maxLength: 12 })
}).map(({ engagements }) => {
    let text = 'rules scrud\nmodifier Uphill -1\nforce A { unit Foot foot x5 }\nforce B { unit Foot foot x5 }\n';
    engagements.forEach((e, i) => {
        const body = [
            `  ${e.attackers.map(n => `A.Foot#${n}`).join(', ')} attacks ${e.defenders.map(n => `B.Foot#${n}`).join(', ')}`,
            ...(e.factorOn ? [`  factor Uphill on ${e.factorOn}`] : []),
            ...(e.seed !== null ? [`  seed ${e.seed}`] : [])
        ].join('\n');
        const engagement = `engagement E${i + 1} {\n${body}\n}\n`;
        text += e.turn ? `turn ${i + 1} {\n${engagement}}\n` : engagement;
        if (e.rally !== null) text += `ruling B.Foot#${e.rally}: rallied, reason "a fresh officer"\n`;
    });
    return text;
});

type Read = readonly [kind: 'at' | 'after' | 'stats', action: number, unit: string] | readonly [kind: 'settled' | 'waits', action: number] | readonly ['end'] | readonly ['turn', label: string];

/** Every read a view can make of the timeline, as one list. */
function readsOf(model: ScenarioModel): Read[] {
    const actions = resolutionOrder(model);
    const units = [...model.forces.values()].flatMap(f => f.units.map(u => u.id));
    const out: Read[] = [['end'], ...turnsOf(model).map(t => ['turn', turnLabel(t) ?? ''] as const)];
    actions.forEach((_, i) => {
        out.push(['settled', i], ['waits', i]);
        for (const u of units) out.push(['at', i, u], ['after', i, u], ['stats', i, u]);
    });
    return out;
}

/** What one read gives, as plain data under a key of its own. */
function read(model: ScenarioModel, r: Read): [string, unknown] {
    const actions = resolutionOrder(model);
    const unitOf = (id: string) => [...model.forces.values()].flatMap(f => f.units).find(u => u.id === id)!;
    switch (r[0]) {
        case 'end': return ['end', [...stateAtEnd(model)]];
        case 'turn': return [`turn ${r[1]}`, [...stateAfterTurn(model, r[1])!.states]];
        case 'settled': return [`settled ${r[1]}`, settledOf(model, actions[r[1]])?.json ?? null];
        case 'waits': return [`waits ${r[1]}`, waitsOn(model, actions[r[1]])?.name ?? null];
        case 'at': return [`at ${r[1]} ${r[2]}`, unitStateAt(model, actions[r[1]], r[2]) ?? null];
        case 'after': return [`after ${r[1]} ${r[2]}`, unitStateAfter(model, actions[r[1]], r[2]) ?? null];
        case 'stats': return [`stats ${r[1]} ${r[2]}`, [...effectiveStats(model, actions[r[1]], unitOf(r[2]))]];
    }
}

/** The reads made in this order, as one record (the same record whatever the order, if the order changes nothing). */
function readInOrder(model: ScenarioModel, order: (reads: Read[]) => Read[]): Record<string, unknown> {
    const out: Record<string, unknown> = {};
    for (const r of order(readsOf(model))) {
        const [key, value] = read(model, r);
        out[key] = value;
    }
    return out;
}

async function modelOfText(text: string): Promise<ScenarioModel> {
    return modelOf((await parse(text)).parseResult.value);
}

/** Everything worked out before anything else is read: the status at the end first (each unit's last state settles all before it). */
const endFirst = (reads: Read[]) => reads;
const lastActionFirst = (reads: Read[]) => [...reads].reverse();
const earlyFirst = (reads: Read[]) => [...reads.filter(r => r[0] !== 'end' && r[0] !== 'turn'), ...reads.filter(r => r[0] === 'end' || r[0] === 'turn')];
const settledFirst = (reads: Read[]) => [...reads.filter(r => r[0] === 'settled').reverse(), ...reads.filter(r => r[0] !== 'settled')];
function shuffled(seed: number): (reads: Read[]) => Read[] {
    return reads => {
        const out = [...reads];
        let s = seed;
        for (let i = out.length - 1; i > 0; i--) {
            s = (s * 1103515245 + 12345) % 2147483648;
            const j = s % (i + 1);
            [out[i], out[j]] = [out[j], out[i]];
        }
        return out;
    };
}

async function sameInEveryOrder(text: string, seed: number): Promise<void> {
    const reference = readInOrder(await modelOfText(text), endFirst);
    for (const order of [lastActionFirst, earlyFirst, settledFirst, shuffled(seed)]) {
        expect(readInOrder(await modelOfText(text), order)).toEqual(reference);
    }
}

describe('a settled result is worked out when read, and reads in any order agree', () => {
    it('on the examples of every rule set, written and with their outcomes taken out', async () => {
        let settled = 0;
        for (const [i, text] of TEXTS.entries()) {
            await sameInEveryOrder(text, i + 1);
            const model = await modelOfText(text);
            settled += model.actions.filter(a => settledOf(model, a)).length;
        }
        // The examples with their outcomes taken out hold settled chains in every rule set.
        expect(settled).toBeGreaterThan(10);
    }, 120_000);

    it('on generated SCRUD seasons where units fight again, routed or rallied', async () => {
        await fc.assert(fc.asyncProperty(season, fc.integer({ min: 1, max: 1000 }), async (text, seed) => {
            await sameInEveryOrder(text, seed);
        }), { numRuns: 40, seed: 20261202 });
    }, 120_000);

    it('a settled outcome writes lines only for the units its sides, relations, splits and facts lines name', async () => {
        // What lets a unit named only by a `factor` or `dice` line wait on no pending result (campaign-state.ts, `lineUnits`).
        let lines = 0;
        for (const text of TEXTS) {
            const model = await modelOfText(text);
            for (const action of model.actions) {
                const named = new Set(action.node.statements
                    .filter(st => st.$type !== 'Factor' && st.$type !== 'Dice')
                    .flatMap(st => targetsOf(st).flatMap(t => unitsOf(model, t).map(u => u.id))));
                for (const line of settledOf(model, action)?.lines ?? []) {
                    expect(named, `${action.node.name}: ${line.unit}`).toContain(line.unit);
                    lines++;
                }
            }
        }
        expect(lines).toBeGreaterThan(20);
    });

    it('the checks say the same whether a view read the status first or not', async () => {
        await fc.assert(fc.asyncProperty(season, async text => {
            const plain = await checked(text, false);
            expect(await checked(text, true)).toEqual(plain);
        }), { numRuns: 25, seed: 7 });
    }, 120_000);
});

/** The references a statement makes, whatever its kind (a side's units, a relation's two, a split's, a facts line's). */
function targetsOf(st: object): Target[] {
    const s = st as Record<string, unknown>;
    const out: Target[] = [];
    for (const key of ['attackers', 'defenders']) if (Array.isArray(s[key])) out.push(...(s[key] as never[]));
    for (const key of ['subject', 'object', 'unit', 'target']) if (s[key] && typeof s[key] === 'object') out.push(s[key] as never);
    if (Array.isArray(s.parts)) for (const p of s.parts as Array<{ target?: never }>) if (p.target) out.push(p.target);
    return out;
}

/** The problems of a check of the text; with `statusFirst`, after the status at the end was read from the same model. */
async function checked(text: string, statusFirst: boolean): Promise<unknown> {
    const doc = await parse(text);
    if (statusFirst) stateAtEnd(modelOf(doc.parseResult.value));
    const diagnostics = await services.Battle.validation.DocumentValidator.validateDocument(doc);
    return diagnostics.map(d => ({ message: d.message, code: d.code, range: d.range }));
}

/** Files as the editor holds them, built as the server builds a change (the parse in pieces, the timeline continued). */
async function editorBuild(uri: string, text: string, version: number): Promise<LangiumDocument> {
    services.shared.workspace.TextDocuments!.set(EditorDocument.create(uri, 'battle', version, text));
    await services.shared.workspace.DocumentBuilder.update([URI.parse(uri)], []);
    return services.shared.workspace.LangiumDocuments.getDocument(URI.parse(uri))!;
}

describe('after an edit, the continued timeline and the one before it', () => {
    it('keep their own histories: a result settled in the one before the edit is not seen in the one after', async () => {
        // A.Foot#1 fights in E1 and again in E3; E3's seed is then taken out, so after the edit E3 is undecided.
        const text = 'rules scrud\nforce A { unit Foot foot x3 }\nforce B { unit Foot foot x3 }\n'
            + 'engagement E1 {\n  A.Foot#1 attacks B.Foot#1\n  seed 3\n}\nengagement E2 {\n  A.Foot#2 attacks B.Foot#2\n  seed 4\n}\n'
            + 'engagement E3 {\n  A.Foot#1 attacks B.Foot#3\n  seed 5\n}\n';
        const uri = 'file:///settle-on-read/shared.battle';
        const before = modelOf((await editorBuild(uri, text, 1)).parseResult.value as Scenario);
        const after = modelOf((await editorBuild(uri, text.replace('  seed 5\n', ''), 2)).parseResult.value as Scenario);
        const settledBefore = stateAtEnd(before).get('A.Foot#1')!;
        expect(settledBefore.lastResult).toMatchObject({ action: 'E3', settled: true });
        expect(stateAtEnd(after).get('A.Foot#1')!.lastResult).toMatchObject({ action: 'E1', settled: true });
        expect(waitsOn(after, after.actions[2])).toBeUndefined();
        expect(settledOf(after, after.actions[2])).toBeUndefined();
    });

    it('give what a cold build gives, whichever is read first', async () => {
        let compared = 0;
        await fc.assert(fc.asyncProperty(season, fc.double({ min: 0, max: 1, noNaN: true }), fc.integer({ min: 1, max: 1000 }), fc.boolean(), fc.boolean(), fc.boolean(),
            async (text, where, seed, readBefore, oldFirst, dropSeed) => {
                const uri = `file:///settle-on-read/season-${compared}.battle`;
                const first = await editorBuild(uri, text, 1);
                const before = modelOf(first.parseResult.value as Scenario);
                // Some of the first timeline read before the edit (its early part), or none of it.
                if (readBefore) readInOrder(before, reads => reads.filter(r => r[0] !== 'end' && r[0] !== 'turn').slice(0, 20));
                // A seed after the chosen place changed (everything after it may settle another way), or taken
                // out (that engagement is undecided from now on: what it settled before is no longer there).
                const at = text.indexOf('seed ', Math.floor(where * text.length));
                if (at < 0) return;
                const edited = dropSeed ? text.slice(0, at) + text.slice(text.indexOf('\n', at)) : `${text.slice(0, at + 5)}4${text.slice(at + 5)}`;
                const second = await editorBuild(uri, edited, 2);
                const after = modelOf(second.parseResult.value as Scenario);
                expect(after).not.toBe(before);
                const coldAfter = readInOrder(await modelOfText(edited), endFirst), coldBefore = readInOrder(await modelOfText(text), endFirst);
                // The two timelines share the histories before the edit: whichever settles its results first
                // must leave the other's as they were (the one before the edit is still read by a late request).
                if (oldFirst) expect(readInOrder(before, lastActionFirst)).toEqual(coldBefore);
                expect(readInOrder(after, shuffled(seed))).toEqual(coldAfter);
                if (!oldFirst) expect(readInOrder(before, lastActionFirst)).toEqual(coldBefore);
                compared++;
            }), { numRuns: 40, seed: 11 });
        expect(compared).toBeGreaterThan(10);
    }, 120_000);
});

describe('an action called settled while its result is pending', () => {
    it('is known to have been called so wrongly once its result cannot be worked out (settledWatch)', async () => {
        // Dice entered for one side only: pending (its dice are in the file), and not resolvable when worked out.
        const text = 'rules scrud\nforce A { unit Foot foot }\nforce B { unit Foot foot }\nengagement Short {\n  A attacks B\n  dice A 3\n}\n';
        const model = modelOf((await parse(text)).parseResult.value);
        const action = model.actions[0];
        const watch = settledWatch(model);
        expect(watch.isSettled(action)).toBe(true);
        expect(watch.changed()).toBe(false);
        expect(settledOf(model, action)).toBeUndefined();
        expect(watch.changed()).toBe(true);
        // Asked now, the answer is the one the walk should have had.
        expect(settledWatch(model).isSettled(action)).toBe(false);
    });
});
