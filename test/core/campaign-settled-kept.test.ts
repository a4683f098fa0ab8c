/**
 * A settled result (an unwritten action whose dice are known) is kept from one build to the next by the
 * action's key of inputs (`actionInputsKey`; docs/performance.md#settled-results-worked-out-when-read):
 * an edit that changes nothing it reads leaves it as it was, without resolving it again, and an edit of
 * any of its inputs (a unit's grade, a modifier, a factor or fact line, an earlier outcome written or
 * changed, a seed, a ruling, house rules, an imported file) makes it what a cold build makes. Each edit
 * below keeps the later actions as the same nodes (the parse in pieces), so a kept result under a key that
 * missed the input would be found and read, and it changes at least one of their results, so the
 * comparison with a cold build can fail.
 */
import * as fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { URI, type LangiumDocument } from 'langium';
import { TextDocument as EditorDocument } from 'vscode-languageserver-textdocument';
import { modelOf, settledInputsKey } from '../../src/core/model-cache.js';
import { coreKept } from '../../src/core/kept.js';
import { resolveAction, isUnresolvable } from '../../src/core/resolve.js';
import { outcomeBlock } from '../../src/core/outcome-block.js';
import { settledOf, stateAtEnd } from '../../src/core/campaign-state.js';
import type { ScenarioModel } from '../../src/core/scenario.js';
import type { Action, Scenario } from '../../src/language/generated/ast.js';
import { parse, services } from '../support/services.js';

/** Three engagements in a chain: E2 fights E1's units, E3 E2's; a file-wide house rule, a grade on each side. */
const BASE = `scenario "Kept results"
rules scrud
house {
  result 0 stand-off, 1 recoil, 2 retire, 3.. rout
}
grade Veteran +1
grade Raw -1
modifier Uphill -1
force A { unit Foot foot Veteran x3 }
force B { unit Foot foot Raw x3 }
engagement E1 {
  A.Foot#1, A.Foot#2 attacks B.Foot#1, B.Foot#2
  seed 3
}
engagement E2 {
  A.Foot#1, A.Foot#3 attacks B.Foot#1, B.Foot#2
  seed 5
}
engagement E3 {
  A.Foot#2, A.Foot#3 attacks B.Foot#1, B.Foot#3
  factor Uphill on A
  seed 9
}
`;

/** The Ancients campaign of the examples with its written outcomes taken out, each left as the seed it was thrown from. */
const ANCIENTS = fs.readFileSync(new URL('../../examples/campaign.battle', import.meta.url), 'utf8').replace(/ *outcome seed \d+[^{\n]*\{[^}]*\}\n/g, '');

let files = 0;

/** Files as the editor holds them, built as the server builds a change (the parse in pieces, the timeline continued). */
async function editorBuild(uri: string, text: string, version: number): Promise<LangiumDocument<Scenario>> {
    services.shared.workspace.TextDocuments!.set(EditorDocument.create(uri, 'battle', version, text));
    await services.shared.workspace.DocumentBuilder.update([URI.parse(uri)], []);
    return services.shared.workspace.LangiumDocuments.getDocument(URI.parse(uri)) as LangiumDocument<Scenario>;
}

/** Every action's settled result and the state at the end, as plain data (what a view reads). */
function readAll(model: ScenarioModel): { settled: Record<string, unknown>, end: unknown } {
    const settled: Record<string, unknown> = {};
    for (const a of model.actions) settled[a.node.name] = settledOf(model, a)?.json ?? null;
    return { settled, end: [...stateAtEnd(model)] };
}

async function cold(text: string): Promise<ScenarioModel> {
    return modelOf((await parse(text)).parseResult.value);
}

/** The Ford's outcome written as if thrown from `seed` (its own `seed 6` taken out), as Resolve writes it. */
async function withFordWritten(text: string, seed: number): Promise<string> {
    const model = await cold(text.replace('    seed 6\n', ''));
    const ford = model.actions.find(a => a.node.name === 'Ford')!;
    const resolved = resolveAction(model, ford, { seed, newSeed: () => seed });
    if (isUnresolvable(resolved)) throw new Error(resolved.problem);
    return text.replace('    seed 6\n', `${outcomeBlock(resolved.resolution, resolved.dice, '  ')}\n`);
}

/**
 * Builds `before` then `after` as two edits of one file, everything of the first read (so every result is
 * kept), and holds the second to a cold build of its text; returns how many kept nodes read another result.
 */
async function editMatchesCold(before: string, after: string, uri = `file:///settled-kept/file-${++files}.battle`): Promise<number> {
    return (await changedKept(before, after, uri)).length;
}

/** As `editMatchesCold`, the names of the kept nodes that read another result. */
async function changedKept(before: string, after: string, uri = `file:///settled-kept/file-${++files}.battle`): Promise<string[]> {
    const first = modelOf((await editorBuild(uri, before, 1)).parseResult.value);
    const was = readAll(first);
    const second = modelOf((await editorBuild(uri, after, 2)).parseResult.value);
    expect(second).not.toBe(first);
    const now = readAll(second);
    expect(now).toEqual(readAll(await cold(after)));
    const oldNodes = new Set<Action>(first.actions.map(a => a.node));
    const kept = second.actions.filter(a => oldNodes.has(a.node));
    // The later actions are the nodes the first build kept a result for: a key that missed the input would find it.
    expect(kept.length).toBeGreaterThan(0);
    return kept.filter(a => JSON.stringify(now.settled[a.node.name]) !== JSON.stringify(was.settled[a.node.name])).map(a => a.node.name);
}

describe('a settled result kept across builds', () => {
    it('is read again, not worked out again, after an edit that changes none of its inputs', async () => {
        const uri = `file:///settled-kept/file-${++files}.battle`;
        const first = modelOf((await editorBuild(uri, BASE, 1)).parseResult.value);
        const results = first.actions.map(a => settledOf(first, a));
        expect(results.every(r => r !== undefined)).toBe(true);
        // The title, and white space typed into a force (its node is new: the timeline is built again from the top).
        const edited = BASE.replace('Kept results', 'Kept results, retitled').replace('force B { unit Foot', 'force B {  unit Foot');
        const second = modelOf((await editorBuild(uri, edited, 2)).parseResult.value);
        expect(second).not.toBe(first);
        second.actions.forEach((a, i) => expect(settledOf(second, a)).toBe(results[i]));
        expect(readAll(second)).toEqual(readAll(await cold(edited)));
    });

    it('is the cold build\'s after a grade of its units changed', async () => {
        expect(await editMatchesCold(BASE, BASE.replace('grade Raw -1', 'grade Raw +2'))).toBeGreaterThan(0);
    });

    // The key of a settled result covers, of the forces, those its engagement and the earlier writers of its units name.
    it('is the cold build\'s after the force of its own units changed: a grade, a stand count, a die, a name', async () => {
        const own = (from: string, to: string) => BASE.replace(`force B { unit Foot foot Raw x3 }`, `force B { ${from.replace('unit Foot foot Raw x3', to)} }`);
        const forceB = 'unit Foot foot Raw x3';
        expect(await editMatchesCold(BASE, own(forceB, 'unit Foot foot Veteran x3'))).toBeGreaterThan(0);
        expect(await editMatchesCold(BASE, own(forceB, 'unit Foot foot Raw x2'))).toBeGreaterThan(0);
        expect(await editMatchesCold(BASE, own(forceB, 'unit Foot foot Raw x3 { die d12 }'))).toBeGreaterThan(0);
        expect(await editMatchesCold(BASE, own(forceB, 'unit Feet foot Raw x3'))).toBeGreaterThan(0);
        // The force renamed, and another force given its name.
        expect(await editMatchesCold(BASE, BASE.replace('force B {', 'force Bee {'))).toBeGreaterThan(0);
    });

    it('is the cold build\'s after the force of a unit an earlier engagement fought changed', async () => {
        // E1 fights C's unit as well; E2 fights only A and B, whose states E1 wrote.
        const chained = BASE.replace('force B {', 'force C { unit Foot foot Raw x3 }\nforce B {').replace('attacks B.Foot#1, B.Foot#2\n  seed 3', 'attacks B.Foot#1, C.Foot#1\n  seed 3');
        const edited = chained.replace('force C { unit Foot foot Raw x3 }', 'force C { unit Foot foot Veteran x3 { die d100 } }');
        const uri = `file:///settled-kept/file-${++files}.battle`;
        const first = modelOf((await editorBuild(uri, chained, 1)).parseResult.value);
        const keys = first.actions.map(a => settledInputsKey(first, a.node));
        const changed = await changedKept(chained, edited, uri);
        // E1's own result changed (A.Foot#1 routs); SCRUD's later results read no state it leaves, so the
        // keys tell that E2 and E3, whose units E1 wrote, are worked out again too.
        expect(changed).toEqual(['E1']);
        const second = modelOf((await editorBuild(uri, edited, 3)).parseResult.value);
        second.actions.forEach((a, i) => expect(settledInputsKey(second, a.node)).not.toBe(keys[i]));
    });

    it('is the same result, not worked out again, after an edit of a force no engagement before it names', async () => {
        const uri = `file:///settled-kept/file-${++files}.battle`;
        const withOthers = `${BASE}force C { unit Foot foot Raw x3 }\nforce D { unit Foot foot Veteran x2 }\nengagement E4 {\n  C.Foot#1 attacks D.Foot#1\n  seed 4\n}\n`;
        const first = modelOf((await editorBuild(uri, withOthers, 1)).parseResult.value);
        const results = first.actions.map(a => settledOf(first, a));
        expect(results.every(r => r !== undefined)).toBe(true);
        for (const [version, edited] of [
            withOthers.replace('force C { unit Foot foot Raw x3 }', 'force C { unit Foot foot Veteran x3 { die d12 } }'),
            withOthers.replace('force C { unit Foot foot Raw x3 }', 'force C { unit Foot foot Raw x5 }\nforce E { unit Foot foot Raw x1 }'),
            withOthers.replace('force D { unit Foot', 'force D { unit Horse foot Raw x1\n unit Foot')
        ].entries()) {
            const second = modelOf((await editorBuild(uri, edited, version + 2)).parseResult.value);
            expect(second).not.toBe(first);
            const now = second.actions.map(a => settledOf(second, a));
            // E1–E3 name neither C nor D: the very results the first build worked out.
            for (let i = 0; i < 3; i++) expect(now[i]).toBe(results[i]);
            expect(now[3]).not.toBe(results[3]);
            expect(readAll(second)).toEqual(readAll(await cold(edited)));
        }
    });

    it('is the cold build\'s after a modifier it reads changed', async () => {
        expect(await editMatchesCold(BASE, BASE.replace('modifier Uphill -1', 'modifier Uphill -3'))).toBeGreaterThan(0);
    });

    // Ancients carries what a fight leaves (its break tests, its tokens) into the next one's result: the
    // edits of earlier steps below change the later results through the units' states.
    it('is the cold build\'s after a fact line of an earlier engagement changed', async () => {
        expect(await editMatchesCold(ANCIENTS, ANCIENTS.replace('    Gauls.Boii: charged\n', ''))).toBeGreaterThan(0);
    });

    it('is the cold build\'s after a ruling or a state line was put in before it', async () => {
        // At the end of the first turn: the later turns stay the same nodes.
        const atFirstTurnEnd = (line: string) => ANCIENTS.replace('  }\n}\n\nturn 2', `  }\n  ${line}\n}\n\nturn 2`);
        expect(await editMatchesCold(ANCIENTS, atFirstTurnEnd('ruling Successors.Thureophoroi: untested, reason "IMP"'))).toBeGreaterThan(0);
        expect(await editMatchesCold(ANCIENTS, atFirstTurnEnd('state Gauls.Warriors: tokens 2'))).toBeGreaterThan(0);
    });

    it('is the cold build\'s after an earlier seed changed', async () => {
        expect(await editMatchesCold(ANCIENTS, ANCIENTS.replace('    seed 6\n', '    seed 2\n'))).toBeGreaterThan(0);
    });

    it('is the cold build\'s after an earlier outcome was written with other dice, and then changed', async () => {
        const written = await withFordWritten(ANCIENTS, 2);
        expect(await editMatchesCold(ANCIENTS, written)).toBeGreaterThan(0);
        expect(await editMatchesCold(written, await withFordWritten(ANCIENTS, 6))).toBeGreaterThan(0);
    });

    it('is the cold build\'s after the house rules changed', async () => {
        expect(await editMatchesCold(BASE, BASE.replace('3.. rout', '3 retreat, 4.. rout'))).toBeGreaterThan(0);
    });

    it('is the cold build\'s after the file it imports changed', async () => {
        const folder = `file:///settled-kept/campaign-${++files}/`;
        const armies = BASE.slice(BASE.indexOf('grade'), BASE.indexOf('engagement E1'));
        const season = BASE.replace(armies, 'import "armies.battle"\n');
        services.shared.workspace.TextDocuments!.set(EditorDocument.create(`${folder}armies.battle`, 'battle', 1, `scenario "Armies"\nrules scrud\n${armies}`));
        const doc = await editorBuild(`${folder}season.battle`, season, 1);
        await services.shared.workspace.DocumentBuilder.update([URI.parse(`${folder}armies.battle`)], []);
        const first = modelOf(doc.parseResult.value);
        const was = readAll(first);
        expect(Object.values(was.settled).every(r => r !== null)).toBe(true);
        services.shared.workspace.TextDocuments!.set(EditorDocument.create(`${folder}armies.battle`, 'battle', 2, `scenario "Armies"\nrules scrud\n${armies.replace('grade Raw -1', 'grade Raw +2')}`));
        await services.shared.workspace.DocumentBuilder.update([URI.parse(`${folder}armies.battle`)], []);
        const second = modelOf(doc.parseResult.value);
        // The season's own text did not change: the same nodes, a new model of the imported file's new parse.
        expect(second).not.toBe(first);
        expect(second.actions.map(a => a.node)).toEqual(first.actions.map(a => a.node));
        const now = readAll(second);
        expect(now.settled).not.toEqual(was.settled);
        // A cold build of the two files as they are now.
        const coldFolder = `file:///settled-kept/campaign-${++files}/`;
        services.shared.workspace.TextDocuments!.set(EditorDocument.create(`${coldFolder}armies.battle`, 'battle', 1, `scenario "Armies"\nrules scrud\n${armies.replace('grade Raw -1', 'grade Raw +2')}`));
        const coldDoc = await editorBuild(`${coldFolder}season.battle`, season, 1);
        await services.shared.workspace.DocumentBuilder.update([URI.parse(`${coldFolder}armies.battle`)], []);
        expect(now).toEqual(readAll(modelOf(coldDoc.parseResult.value)));
    });

    it('is emptied by dropAll: the next build works every result out as a first build does', async () => {
        const uri = `file:///settled-kept/file-${++files}.battle`;
        const first = modelOf((await editorBuild(uri, BASE, 1)).parseResult.value);
        const table = coreKept.named('settled results')!;
        const e2 = first.actions.find(a => a.node.name === 'E2')!;
        const result = settledOf(first, e2);
        expect(result).toBeDefined();
        expect(table.has(e2.node)).toBe(true);
        coreKept.dropAll();
        expect(table.has(e2.node)).toBe(false);
        const again = settledOf(first, e2);
        expect(again).not.toBe(result);
        expect(again).toEqual(result);
        expect(table.has(e2.node)).toBe(true);
    });
});
