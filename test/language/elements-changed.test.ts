/**
 * One record of each edit (battle-document-factory.ts `ParsedFrom.elements`): which top-level elements a
 * parse in pieces kept, replaced and added, composed over the edits between two trees
 * (`elementsChangedSince`), and the build steps reading it: the linker (a kept element keeps its links as the
 * same objects, a replaced one is linked anew, whether the trees between were linked or not), the node
 * validator (a kept element's checks are kept, a replaced one's run again) and the editor's answers kept per
 * element (a kept element's outline entry and lens place are the same objects, a replaced one's are made
 * again); each does the whole work when the record does not reach back to the tree it last worked on, or
 * after the cache service's dropAll.
 */
import { describe, expect, it } from 'vitest';
import { Cancellation, EmptyFileSystem, URI, type LangiumDocument, type Reference } from 'langium';
import { TextDocument as EditorDocument } from 'vscode-languageserver-textdocument';
import { createBattleServices } from '../../src/language/battle-module.js';
import { elementsChangedSince, parsedFrom } from '../../src/language/battle-document-factory.js';
import type { BattleLinker } from '../../src/language/battle-linker.js';
import type { BattleNodeValidator } from '../../src/language/battle-node-validator.js';
import type { DocumentSymbol } from 'vscode-languageserver';
import { isAction, isSides, type Action, type Scenario } from '../../src/language/generated/ast.js';
import { stateAtEnd, timelineCounts } from '../../src/core/campaign-state.js';
import { modelOf } from '../../src/core/model-cache.js';

const HEADER = `scenario "Record"
rules ancients

grade Warband { size large, weight light, formation warband, skill 1, leadership 6, shock, move 6 }
grade Pikes { size large, weight heavy, formation formed, skill 2, leadership 7, move 4 }

force Successors {
  unit Phalanx infantry Pikes
}

force Gauls {
  unit Warriors infantry Warband
}
`;
const engagement = (n: number, extra = '') => `\nengagement E${n} {\n  Gauls.Warriors attacks Successors.Phalanx\n  seed ${n}${extra}\n}\n`;
const turn = (extra = '') => `\nturn 1 {\n  engagement T1 {\n    Gauls.Warriors attacks Successors.Phalanx\n  }\n  engagement T2 {\n    Gauls.Warriors attacks Successors.Phalanx${extra}\n  }\n  engagement T3 {\n    Gauls.Warriors attacks Successors.Phalanx\n  }\n}\n`;
/** Four top-level elements of the header (two grades, two forces), then `count` engagements, then a turn. */
const text = (count: number, edits: Record<number, string> = {}, inTurn = '') =>
    HEADER + Array.from({ length: count }, (_, n) => engagement(n, edits[n])).join('') + turn(inTurn);

function server() {
    const services = createBattleServices(EmptyFileSystem);
    const { shared, Battle } = services;
    const uri = 'file:///record/edits.battle';
    let version = 0;
    const set = (t: string) => shared.workspace.TextDocuments!.set(EditorDocument.create(uri, 'battle', ++version, t));
    const doc = () => shared.workspace.LangiumDocuments.getDocument(URI.parse(uri))!;
    return {
        Battle, shared, linker: Battle.references.Linker as BattleLinker, validator: Battle.validation.DocumentValidator as BattleNodeValidator,
        /** A whole build of the text. */
        build: async (t: string): Promise<LangiumDocument> => {
            set(t);
            await shared.workspace.DocumentBuilder.update([URI.parse(uri)], []);
            return doc();
        },
        /** The text parsed into the document, and nothing else of a build (as when the next edit cancels the build). */
        parseOnly: async (t: string): Promise<LangiumDocument> => {
            set(t);
            return shared.workspace.LangiumDocumentFactory.update(doc(), Cancellation.CancellationToken.None);
        }
    };
}

const actions = (doc: LangiumDocument): Action[] => (doc.parseResult.value as Scenario).elements.filter(isAction);
/** An engagement's references: its sides' forces and units. */
const referencesOf = (action: Action): Reference[] => action.statements.filter(isSides).flatMap(st => [...st.attackers, ...st.defenders]).flatMap(t => [t.force, t.unit!]);

describe('the record of each edit', () => {
    it('names the elements an edit replaced, and composes the edits between two trees into one span', async () => {
        const s = server();
        const first = await s.build(text(10));
        const since = parsedFrom(first)!.elements;
        const firstElements = [...(first.parseResult.value as Scenario).elements];
        expect(since.edits).toEqual([]);
        expect(since.count).toBe(4 + 10 + 1);
        // An edit inside engagement 3 (the element at 4 + 3) replaces it alone.
        const second = await s.parseOnly(text(10, { 3: '\n  first turn' }));
        expect(parsedFrom(second)!.spliced).toBeDefined();
        expect(elementsChangedSince(second, since)).toEqual({ first: 7, replaced: 1, added: 1, header: false });
        const middle = parsedFrom(second)!.elements;
        // A second edit, in engagement 8: since the first tree, one span from engagement 3 to engagement 8.
        const third = await s.parseOnly(text(10, { 3: '\n  first turn', 8: '\n  first turn' }));
        expect(elementsChangedSince(third, middle)).toEqual({ first: 12, replaced: 1, added: 1, header: false });
        expect(elementsChangedSince(third, since)).toEqual({ first: 7, replaced: 6, added: 6, header: false });
        // An engagement added after engagement 0: wherever the parse put the piece, every element outside the composed span is the first tree's own, in place.
        const added = text(10, { 3: '\n  first turn', 8: '\n  first turn' });
        const at = HEADER.length + engagement(0).length;
        const fourth = await s.parseOnly(`${added.slice(0, at)}${engagement(99)}${added.slice(at)}`);
        const composed = elementsChangedSince(fourth, since)!;
        expect(composed.first).toBeLessThanOrEqual(5);
        expect(composed.added - composed.replaced).toBe(1);
        const now = (fourth.parseResult.value as Scenario).elements;
        expect(now).toHaveLength(4 + 11 + 1);
        for (let k = 0; k < composed.first; k++) expect(now[k]).toBe(firstElements[k]);
        for (let k = composed.first + composed.added; k < now.length; k++) expect(now[k]).toBe(firstElements[k - composed.added + composed.replaced]);
        // Inside the span, the engagements the edits did not touch are found again among the replaced ones (E5, E6, E7 at least).
        for (const name of ['E5', 'E6', 'E7']) expect(now.find(e => isAction(e) && e.name === name)).toBe(firstElements.find(e => isAction(e) && e.name === name));
        // The record is frozen: no consumer can change what another reads.
        expect(Object.isFrozen(parsedFrom(fourth))).toBe(true);
        expect(Object.isFrozen(parsedFrom(fourth)!.elements.edits)).toBe(true);
    });

    it('answers nothing for a tree parsed whole since, or more edits ago than a record holds', async () => {
        const s = server();
        const since = parsedFrom(await s.build(text(6)))!.elements;
        // An unclosed comment makes the whole file parse again.
        const whole = await s.parseOnly(`${text(6)}/* open`);
        expect(parsedFrom(whole)!.spliced).toBeUndefined();
        expect(elementsChangedSince(whole, since)).toBeUndefined();
        const s2 = server();
        const old = parsedFrom(await s2.build(text(6)))!.elements;
        let last: LangiumDocument | undefined;
        for (let n = 1; n <= 17; n++) last = await s2.parseOnly(text(6, { [n % 6]: `\n  // ${n}` }));
        expect(parsedFrom(last!)!.elements.edits).toHaveLength(16);
        expect(elementsChangedSince(last!, old)).toBeUndefined();
    });

    it('is what the linker reads: the kept elements keep their links as the same objects, the replaced are linked anew', async () => {
        const s = server();
        const first = await s.build(text(12));
        const refs = actions(first).map(referencesOf);
        expect(refs.every(r => r.length === 4 && r.every(ref => ref.ref !== undefined))).toBe(true);
        const counts = { ...s.linker.counts };
        // Two edits parsed without a link between them (the next edit cancelled the build), then one linked build.
        await s.parseOnly(text(12, { 2: '\n  first turn' }));
        const last = await s.build(text(12, { 2: '\n  first turn', 9: '\n  first turn' }));
        const now = actions(last).map(referencesOf);
        for (let n = 0; n < 12; n++) {
            if (n === 2 || n === 9) expect(now[n][0], `E${n}`).not.toBe(refs[n][0]);
            else expect(now[n][0], `E${n}`).toBe(refs[n][0]);
            expect(now[n][0].ref, `E${n}`).toBe(now[0][0].ref);
        }
        // Linked again: the two replaced engagements' references alone (four each: each side's force and unit).
        expect(s.linker.counts.linked - counts.linked).toBe(8);
        // The ten kept engagements' and the turn's three, and the two units' grades.
        expect(s.linker.counts.kept - counts.kept).toBe(4 * 10 + 4 * 3 + 2);
    });

    it("keeps a turn's own elements' links when an edit inside the turn replaces the turn", async () => {
        const s = server();
        const first = await s.build(text(3));
        const since = parsedFrom(first)!.elements;
        const turnActions = (doc: LangiumDocument) => ((doc.parseResult.value as Scenario).elements.at(-1) as unknown as { elements: Action[] }).elements;
        const before = turnActions(first).map(referencesOf);
        const counts = { ...s.linker.counts };
        const last = await s.build(text(3, {}, '\n    first turn'));
        const after = turnActions(last).map(referencesOf);
        expect(elementsChangedSince(last, since)).toEqual({ first: 7, replaced: 1, added: 1, header: false });
        expect(after[0][0]).toBe(before[0][0]);
        expect(after[1][0]).not.toBe(before[1][0]);
        expect(after[2][0]).toBe(before[2][0]);
        expect(s.linker.counts.linked - counts.linked).toBe(4);
    });

    it('is what the node validator reads: the kept elements keep their checks, the replaced one is checked again, as a cold check', async () => {
        const s = server();
        await s.build(text(12));
        const counts = { ...s.validator.counts };
        // Two edits parsed without a check between them, then one checked build: engagements 2 and 9 replaced.
        await s.parseOnly(text(12, { 2: ' ' }));
        const edited = text(12, { 2: ' ', 9: ' ' });
        const warm = await s.build(edited);
        // The 2 grades, 2 forces, 10 engagements, the turn and its 3 engagements: every unit but the two replaced.
        expect(s.validator.counts.kept - counts.kept).toBe(4 + 10 + 1 + 3);
        // The two replaced engagements' nodes alone are walked (each: the action, its sides, its two targets and its seed).
        const walked = s.validator.counts.walked - counts.walked;
        expect(walked).toBeGreaterThan(0);
        expect(walked).toBeLessThan(20);
        const seen = (doc: LangiumDocument) => (doc.diagnostics ?? []).map(d => ({ range: d.range, message: d.message, code: d.code }));
        expect(seen(warm)).toEqual(seen(await server().build(edited)));
    });

    it('makes the node validator check every element when the record does not reach back to its last check, or after dropAll', async () => {
        const s = server();
        const first = await s.build(text(6));
        const grade = (doc: LangiumDocument) => (doc.parseResult.value as Scenario).elements[0];
        let counts = { ...s.validator.counts };
        // Seventeen edits of engagement 5 parsed without a check: more than a record holds.
        let last: LangiumDocument | undefined;
        for (let n = 1; n <= 17; n++) last = await s.parseOnly(text(6, { 5: ' '.repeat(n) }));
        last = await s.build(text(6, { 5: ' '.repeat(18) }));
        // The grade is still the node checked last (a match by identity would keep it), but the record cannot say so.
        expect(grade(last)).toBe(grade(first));
        expect(s.validator.counts.kept - counts.kept).toBe(0);
        // One edit the record covers: the other units' checks are kept again …
        counts = { ...s.validator.counts };
        await s.build(text(6, { 5: ' '.repeat(19) }));
        expect(s.validator.counts.kept - counts.kept).toBe(4 + 5 + 1 + 3);
        // … and none after the cache service drops what it keeps.
        s.Battle.caches.Caches.dropAll();
        counts = { ...s.validator.counts };
        await s.build(text(6, { 5: ' '.repeat(20) }));
        expect(s.validator.counts.kept - counts.kept).toBe(0);
    });

    it("is what the editor's answers kept per element read: a kept element's outline entry and lens place are the same objects, a replaced one's are made again", async () => {
        const s = server();
        const id = (doc: LangiumDocument) => ({ textDocument: { uri: doc.uri.toString() } });
        /** The outline entry of each engagement outside the turn, and the range of each engagement's lenses, by name. */
        const answers = async (doc: LangiumDocument) => {
            const outline = await s.Battle.lsp.DocumentSymbolProvider!.getSymbols(doc, id(doc));
            const entries = new Map((outline[0].children ?? []).map((e: DocumentSymbol) => [e.name, e] as const));
            const lenses = await s.Battle.lsp.CodeLensProvider!.provideCodeLens(doc, { textDocument: id(doc).textDocument });
            const ranges = new Map(actions(doc).map(a => [a.name, (lenses ?? []).find(l => l.range.start.line === a.$cstNode!.range.start.line)?.range] as const));
            return { entries, ranges };
        };
        const before = await answers(await s.build(text(8)));
        expect(before.entries.get('E0')).toBeDefined();
        expect(before.ranges.get('E0')).toBeDefined();
        // Two edits that move no line, one answered in between: engagements 2 and 6 replaced since the first answer.
        await s.build(text(8, { 2: ' ' }));
        const after = await answers(await s.build(text(8, { 2: ' ', 6: ' ' })));
        for (let n = 0; n < 8; n++) {
            const name = `E${n}`;
            if (n === 2 || n === 6) {
                expect(after.entries.get(name), name).not.toBe(before.entries.get(name));
                expect(after.ranges.get(name), name).not.toBe(before.ranges.get(name));
            } else {
                expect(after.entries.get(name), name).toBe(before.entries.get(name));
                expect(after.ranges.get(name), name).toBe(before.ranges.get(name));
            }
            expect(after.entries.get(name), name).toEqual(before.entries.get(name));
        }
        // Seventeen edits of engagement 6 not answered: the record does not reach back to the last answer, so every
        // entry is made again (engagement 0 is still the same node, at the same place).
        for (let n = 1; n <= 17; n++) await s.parseOnly(text(8, { 2: ' ', 6: ' '.repeat(n + 1) }));
        const broken = await answers(await s.build(text(8, { 2: ' ', 6: ' '.repeat(19) })));
        expect(broken.entries.get('E0')).not.toBe(after.entries.get('E0'));
        expect(broken.ranges.get('E0')).not.toBe(after.ranges.get('E0'));
        expect(broken.entries.get('E0')).toEqual(after.entries.get('E0'));
        // Kept again after an edit the record covers, and made again after dropAll.
        const again = await answers(await s.build(text(8, { 2: ' ', 6: ' '.repeat(20) })));
        expect(again.entries.get('E0')).toBe(broken.entries.get('E0'));
        expect(again.ranges.get('E0')).toBe(broken.ranges.get('E0'));
        s.Battle.caches.Caches.dropAll();
        const dropped = await answers(await s.build(text(8, { 2: ' ', 6: ' '.repeat(21) })));
        expect(dropped.entries.get('E0')).not.toBe(again.entries.get('E0'));
        expect(dropped.ranges.get('E0')).not.toBe(again.ranges.get('E0'));
    });

    it('is what the file\'s scopes, its exports and its duplicate names read: kept for an edit the record covers, made again when it does not reach back', async () => {
        const s = server();
        /** The file's scope of forces (as a reference to a force is linked) and the description of force Successors it exports. */
        const read = (doc: LangiumDocument) => {
            const target = actions(doc)[0].statements.filter(isSides)[0].attackers[0];
            const scope = s.Battle.references.ScopeProvider.getScope({ reference: target.force, container: target, property: 'force' });
            const exported = s.shared.workspace.IndexManager.allElements('Force').find(d => d.name === 'Successors');
            return { scope, exported };
        };
        const before = read(await s.build(text(8)));
        expect(before.exported).toBeDefined();
        // Engagement 5 edited: no force declared or removed, the scope and the description are kept.
        const kept = read(await s.build(text(8, { 5: ' ' })));
        expect(kept.scope).toBe(before.scope);
        expect(kept.exported).toBe(before.exported);
        // Seventeen edits parsed without a build: the record does not reach back, both are made again (the force is the same node).
        for (let n = 1; n <= 17; n++) await s.parseOnly(text(8, { 5: ' '.repeat(n + 1) }));
        const broken = read(await s.build(text(8, { 5: ' '.repeat(19) })));
        expect(broken.scope).not.toBe(kept.scope);
        expect(broken.exported).not.toBe(kept.exported);
        expect(broken.exported!.node).toBe(kept.exported!.node);
        // Engagement 5 named as engagement 3, after another broken chain: the duplicate is found as a cold check finds it.
        for (let n = 1; n <= 17; n++) await s.parseOnly(text(8, { 5: ' '.repeat(n + 20) }));
        const renamed = text(8, { 5: ' '.repeat(40) }).replace('engagement E5 {', 'engagement E3 {');
        const warm = await s.build(renamed);
        const seen = (doc: LangiumDocument) => (doc.diagnostics ?? []).map(d => ({ range: d.range, message: d.message, code: d.code }));
        expect(seen(warm).some(d => String(d.message).includes("named 'E3'"))).toBe(true);
        expect(seen(warm)).toEqual(seen(await server().build(renamed)));
        // And after an edit the record covers, the duplicate goes when the name does.
        const mended = await s.build(text(8, { 5: ' '.repeat(40) }));
        expect(seen(mended)).toEqual(seen(await server().build(text(8, { 5: ' '.repeat(40) }))));
        expect(seen(mended).some(d => String(d.message).includes("named 'E3'"))).toBe(false);
    });

    it('is what the campaign timeline reads: it continues the last one past the elements the record kept without comparing them, and answers as a cold build', async () => {
        const s = server();
        await s.build(text(12));
        const before = timelineCounts.fromRecord;
        const edited = text(12, { 9: '\n  first turn' });
        const warm = await s.build(edited);
        // The four declarations and engagements 0 to 8 are the last tree's: taken from the record.
        expect(timelineCounts.fromRecord - before).toBe(4 + 9);
        const cold = await server().build(edited);
        const seen = (doc: LangiumDocument) => (doc.diagnostics ?? []).map(d => ({ range: d.range, message: d.message, code: d.code }));
        expect(seen(warm)).toEqual(seen(cold));
        expect(seen(warm).length).toBeGreaterThan(0);
    });

    it('is what the campaign timeline reads after the edited span: the kept elements after it are the last timeline\'s steps, taken without comparing them, and every state is a cold build\'s', async () => {
        const s = server();
        await s.build(text(12));
        const before = timelineCounts.tailKept;
        // White space typed into engagement 5: a new node that reads as the old one did, then engagements 6 to 11 and the turn as they were.
        const edited = text(12, { 5: ' ' });
        const warm = await s.build(edited);
        expect(timelineCounts.tailKept - before).toBe(6 + 1);
        const cold = await server().build(edited);
        const states = (doc: LangiumDocument) => [...stateAtEnd(modelOf(doc.parseResult.value)).values()];
        expect(states(warm)).toEqual(states(cold));
        expect(states(warm).some(st => st.lastResult !== undefined)).toBe(true);
        // An engagement added: the steps after it are not the same steps, and nothing after the span is taken so.
        const added = await s.build(text(13, { 5: ' ' }));
        expect(timelineCounts.tailKept - before).toBe(6 + 1);
        expect(states(added)).toEqual(states(await server().build(text(13, { 5: ' ' }))));
    });
});
