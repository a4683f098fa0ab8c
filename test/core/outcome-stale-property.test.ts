/**
 * A written outcome is stale as soon as anything it was worked out from changes:
 * its seed, its dice, its statements, the units, grades and stats of the units in it, the options.
 * Every example is written out as `umpire resolve --write` writes it, then one input of one resolved
 * action is changed at a time; the file must then say so (`outcome-stale`, or an error that stops
 * it being resolved at all).
 */
import { describe, expect, it } from 'vitest';
import * as fs from 'node:fs';
import fc from 'fast-check';
import { CstUtils, type AstNode, type CstNode } from 'langium';
import { loadText } from '../../src/cli/load.js';
import { resolveAll } from '../../src/core/resolve-all.js';
import { modelOf } from '../../src/core/model-cache.js';
import { targetText } from '../../src/core/scenario.js';
import { isUnresolvable, resolveAction } from '../../src/core/resolve.js';
import { participants } from '../../src/core/campaign-state.js';
import { isRuleOption, isSeed, isSides, type Action } from '../../src/language/generated/ast.js';

const EXAMPLES = ['ancients-flank', 'ancients-tokens', 'campaign', 'cowpens', 'scrud-ridge', 'scrud-seed'];

async function check(text: string) {
    const loaded = await loadText('stale.battle', text);
    return { root: loaded.document.parseResult.value, errors: loaded.diagnostics.filter(d => d.severity === 1).map(d => d.message as string), diagnostics: loaded.diagnostics };
}

async function written(text: string): Promise<string> {
    return (await resolveAll(text, check, { newSeed: () => 1 })).text;
}

/** One edit of the text: replace [from, to) by `by`. */
interface Mutation {
    what: string;
    action: string;
    from: number;
    to: number;
    by: string;
    /**
     * Always an input (a number of the action itself: its seed, dice, distances, splits, indexes), or
     * possibly not one (an option, a statement, a stat of a unit): such a change must be flagged when
     * it changes what the action resolves to, with the same dice.
     */
    always: boolean;
}

/** The whole numbers written in a node, comments and the written outcome left out. */
function numbersIn(node: CstNode | undefined, outcome?: CstNode): CstNode[] {
    if (!node) return [];
    return CstUtils.streamCst(node)
        .filter(n => !n.hidden && /^[+-]?[0-9]+$/.test(n.text) && !(outcome && n.offset >= outcome.offset && n.end <= outcome.end))
        .toArray();
}

/** One more, written as it was: `+2` becomes `+3`, `-1` becomes `+0`, `4` becomes `5`. */
function next(text: string): string {
    const value = Number(text) + 1;
    return /^[+-]/.test(text) ? (value < 0 ? String(value) : `+${value}`) : String(value);
}

function mutations(text: string, root: AstNode): Mutation[] {
    const model = modelOf(root as never);
    const out: Mutation[] = [];
    const bump = (what: string, action: string, n: CstNode, always: boolean) => out.push({ what, action, from: n.offset, to: n.end, by: next(n.text), always });
    for (const am of model.actions) {
        const action: Action = am.node;
        const outcome = action.outcome?.$cstNode;
        if (!outcome || action.outcome?.check === undefined) continue;
        for (const n of numbersIn(action.$cstNode, outcome)) bump(`number '${n.text}' in '${action.name}'`, action.name, n, true);
        for (const st of action.statements) {
            // Without its seed line an action is resolved from the seed its outcome recorded: the same dice.
            if (isSides(st) || isSeed(st) || !st.$cstNode) continue;
            out.push({ what: `statement '${st.$cstNode.text}' removed`, action: action.name, from: st.$cstNode.offset, to: st.$cstNode.end, by: '', always: false });
        }
        // The units the outcome names: the ones it was worked out for (a dice line's force names more).
        const named = new Set(action.outcome!.lines.map(l => targetText(l.unit)));
        const units = new Set(participants(model, action).map(p => p.unit).filter(u => named.has(u.id)));
        const declarations = new Set<AstNode>();
        for (const u of units) {
            declarations.add(u.node);
            if (u.node.grade?.ref) declarations.add(u.node.grade.ref);
        }
        for (const decl of declarations) {
            for (const n of numbersIn(decl.$cstNode)) {
                bump(`number '${n.text}' in '${decl.$cstNode!.text.split('\n')[0]}'`, action.name, n, false);
            }
        }
        for (const option of (root as { options?: AstNode[] }).options ?? []) {
            if (!isRuleOption(option) || !option.$cstNode) continue;
            out.push({ what: `option '${option.$cstNode.text}' removed`, action: action.name, from: option.$cstNode.offset, to: option.$cstNode.end, by: '', always: false });
        }
    }
    return out;
}

/** What the action resolves to with the dice it would use now, its fingerprint left out. */
function resultOf(root: AstNode, action: string): string {
    const model = modelOf(root as never);
    const am = model.actions.find(a => a.node.name === action);
    if (!am) return 'no such action';
    const r = resolveAction(model, am, { newSeed: () => 1 });
    if (isUnresolvable(r)) return r.problem;
    return JSON.stringify({ ...r.resolution.json, check: undefined, seed: undefined, name: undefined });
}

/** Whether the file says the action's outcome is no longer what it would be: flagged stale, or an error. */
function flagged(diagnostics: Awaited<ReturnType<typeof check>>['diagnostics'], outcomeLine: number): boolean {
    return diagnostics.some(d => d.severity === 1 || ((d.code === 'outcome-stale' || d.code === 'outcome-unresolvable') && d.range.start.line === outcomeLine));
}

describe('a written outcome and its inputs', () => {
    it('is flagged stale when the seed above it changes, and resolve --write writes the new seed', async () => {
        const text = await written(fs.readFileSync('examples/scrud-ridge.battle', 'utf8'));
        expect(text).toContain('outcome seed 1806');
        expect((await check(text)).diagnostics.filter(d => d.code === 'outcome-stale')).toEqual([]);
        const reseeded = text.replace('  seed 1806', '  seed 1807');
        const stale = (await check(reseeded)).diagnostics.filter(d => d.code === 'outcome-stale');
        expect(stale.map(d => d.message)).toEqual(["This outcome was thrown from seed 1806, but engagement 'Ridge' now says 'seed 1807': resolve it again."]);
        const again = await written(reseeded);
        expect(again).toContain('outcome seed 1807');
        expect(again).not.toContain('outcome seed 1806');
        expect((await check(again)).diagnostics.filter(d => d.code === 'outcome-stale')).toEqual([]);
        // Written and current: resolving again changes nothing.
        expect(await written(again)).toBe(again);
    });

    it('is flagged when any one input of a resolved action of any example changes', async () => {
        const cases: Array<{ text: string, mutation: Mutation, outcomeLine: number }> = [];
        for (const name of EXAMPLES) {
            const text = await written(fs.readFileSync(`examples/${name}.battle`, 'utf8'));
            const checked = await check(text);
            expect(checked.errors, name).toEqual([]);
            expect(checked.diagnostics.filter(d => d.code === 'outcome-stale'), name).toEqual([]);
            const model = modelOf(checked.root);
            const outcomeLines = new Map(model.actions.map(a => [a.node.name, a.node.outcome?.$cstNode?.range.start.line ?? -1]));
            for (const mutation of mutations(text, checked.root)) cases.push({ text, mutation, outcomeLine: outcomeLines.get(mutation.action)! });
        }
        // Every kind of input is among the cases: a seed, entered dice, statements, stats, grades.
        expect(cases.length).toBeGreaterThan(100);
        /** Why a case is wrong, or undefined when the file says what it should. */
        const wrong = async ({ text, mutation, outcomeLine }: typeof cases[number]): Promise<string | undefined> => {
            const before = mutation.always ? '' : resultOf((await check(text)).root, mutation.action);
            const changed = await check(text.slice(0, mutation.from) + mutation.by + text.slice(mutation.to));
            if (flagged(changed.diagnostics, outcomeLine)) return undefined;
            // Not an input in effect: the action resolves exactly as before (an unused option, a pairing it would make anyway).
            if (!mutation.always && resultOf(changed.root, mutation.action) === before) return undefined;
            return `not flagged: ${mutation.what} (action '${mutation.action}')`;
        };
        await fc.assert(fc.asyncProperty(fc.integer({ min: 0, max: cases.length - 1 }), async index => {
            const problem = await wrong(cases[index]);
            if (problem) throw new Error(problem);
        }), { numRuns: 150, seed: 13 });
    });
});

