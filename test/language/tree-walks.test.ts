/**
 * The tree walks of the build steps (src/language/battle-tree-walks.ts): the linker and the node
 * validator walk each element with their own loops over its properties, in place of Langium's stream
 * iterators (docs/performance.md). The order decides the order of the linking errors and the checks'
 * problems, so it must be Langium's: every node in `streamAst`'s order, every reference in the order
 * `streamReferences` gives them node by node, on every example, parsed clean and broken.
 */
import { describe, expect, it } from 'vitest';
import * as fs from 'node:fs';
import { AstUtils, URI, type AstNode } from 'langium';
import { forEachReference, nodesOf, walkOf } from '../../src/language/battle-tree-walks.js';
import { battle, openDocument, parse } from '../support/services.js';
import type { Scenario } from '../../src/language/generated/ast.js';

const folder = new URL('../../examples/', import.meta.url);
const examples = fs.readdirSync(folder).filter(f => f.endsWith('.battle')).map(f => fs.readFileSync(new URL(f, folder), 'utf8'));

/** Each reference as Langium's streams give it: the reference object, its container, property and index. */
function langiumReferences(root: AstNode): unknown[] {
    return AstUtils.streamAst(root).flatMap(node => AstUtils.streamReferences(node)).map(i => [i.reference, i.container, i.property, i.index]).toArray();
}

describe('the build steps walk a tree as Langium\'s streams do', () => {
    it('meets every node and every reference in the same order, in every example, whole and cut short', async () => {
        expect(examples.length).toBeGreaterThan(10);
        let references = 0;
        for (const text of examples) {
            // Cut at two places: half-typed elements and syntax errors give partial nodes.
            for (const source of [text, text.slice(0, Math.floor(text.length / 2)), text.slice(0, Math.floor(text.length / 3)) + '}\n}']) {
                const root = (await parse(source)).parseResult.value;
                expect(nodesOf(root, () => true)).toEqual(AstUtils.streamAst(root).toArray());
                const found: unknown[] = [];
                forEachReference(root, i => found.push([i.reference, i.container, i.property, i.index]));
                expect(found).toEqual(langiumReferences(root));
                references += found.length;
            }
        }
        expect(references).toBeGreaterThan(100);
    });

    it('reads, of each node type, only the properties the grammar gives references or child nodes, in the grammar\'s order', () => {
        expect(walkOf('Unit')).toEqual({ references: ['grade'], children: ['stats'] });
        expect(walkOf('Relation')).toEqual({ references: [], children: ['subject', 'object', 'facts'] });
        expect(walkOf('Factor')).toEqual({ references: ['modifiers'], children: ['targets'] });
        expect(walkOf('Target')).toEqual({ references: ['force', 'unit'], children: [] });
        // Values only (names, numbers, keywords): nothing to walk.
        expect(walkOf('Seed')).toEqual({ references: [], children: [] });
        // The root (its elements set anew by the parse in pieces) and a type the grammar does not name: walked by their keys.
        expect(walkOf('Scenario')).toBeUndefined();
        expect(walkOf('Element')).toBeUndefined();
        expect(walkOf('NoSuchType')).toBeUndefined();
    });

    it('meets the same nodes and references as Langium\'s streams in every example cut at twenty places (partial nodes of every kind)', async () => {
        let cuts = 0;
        for (const text of examples) {
            for (let k = 1; k < 20; k++) {
                const root = (await parse(text.slice(0, Math.floor(text.length * k / 20)))).parseResult.value;
                expect(nodesOf(root, () => true)).toEqual(AstUtils.streamAst(root).toArray());
                const found: unknown[] = [];
                forEachReference(root, i => found.push([i.reference, i.container, i.property, i.index]));
                expect(found).toEqual(langiumReferences(root));
                cuts++;
            }
        }
        expect(cuts).toBeGreaterThan(200);
    });

    it('walks a node of a type the grammar does not name by its keys, and of a grammar type only what the grammar assigns', async () => {
        const root = (await parse('rules scrud\nforce A {\n  unit Line foot\n}\nengagement E {\n  A attacks A\n}\n')).parseResult.value as Scenario;
        const action = root.elements[1] as unknown as Record<string, unknown>;
        const sides = (action.statements as AstNode[])[0];
        const force = (sides as unknown as { attackers: Array<{ force: unknown }> }).attackers[0].force;
        // A tool's own node (not one the parser makes) holding a node and a reference: walked as Langium's streams walk it.
        const odd = { $type: 'Odd', inner: sides, ref: force } as AstNode;
        expect(nodesOf(odd, () => true)).toEqual(AstUtils.streamAst(odd).toArray());
        const found: unknown[] = [];
        forEachReference(odd, i => found.push([i.reference, i.container, i.property, i.index]));
        expect(found).toEqual(langiumReferences(odd));
        expect(found.map(f => (f as unknown[])[2])).toEqual(['ref', 'force', 'force']);
        // The shortcut's edge: a property the grammar does not assign, put on a parsed node, is not walked (the parser never makes one).
        action.extra = odd;
        expect(AstUtils.streamAst(root).toArray()).toContain(odd);
        expect(nodesOf(root, () => true)).not.toContain(odd);
        delete action.extra;
    });

    it('leaves out the children of a node it is told not to enter, as a pruned stream does', async () => {
        const root = (await parse(examples.find(t => /\bturn \d/.test(t))!)).parseResult.value;
        const expected: AstNode[] = [];
        const nodes = AstUtils.streamAst(root).iterator();
        for (const node of nodes) {
            expected.push(node);
            if (node.$type === 'Turn' || node.$type === 'Force') nodes.prune();
        }
        expect(expected.some(n => n.$type === 'Turn')).toBe(true);
        expect(nodesOf(root, node => node.$type !== 'Turn' && node.$type !== 'Force')).toEqual(expected);
    });
});

describe('the linker\'s references (Langium\'s, as the linker here keeps and forgets them)', () => {
    it('read as Langium\'s: linked, unresolved, resolved when first read', async () => {
        const text = 'rules scrud\nforce A {\n  unit Line foot\n}\nforce B {\n  unit Line foot\n}\nengagement E {\n  A attacks B.Line, Nowhere\n}\n';
        const root = (await parse(text)).parseResult.value;
        const found: Array<{ $refText: string, ref?: AstNode, error?: unknown, $nodeDescription?: unknown }> = [];
        forEachReference(root, info => found.push(info.reference as never));
        expect(found.map(r => r.$refText)).toEqual(['A', 'B', 'Line', 'Nowhere']);
        expect(found.map(r => (r.ref as { name?: string } | undefined)?.name)).toEqual(['A', 'B', 'Line', undefined]);
        expect(found.map(r => r.error === undefined)).toEqual([true, true, true, false]);
        expect(found[0].$nodeDescription).toMatchObject({ name: 'A' });

        // Read before any link: resolved on the spot and noted among the document's references, as Langium's getter does.
        const early = battle.shared.workspace.LangiumDocumentFactory.fromString<Scenario>(text, URI.parse('memory:///early.battle'));
        const first: Array<{ ref?: AstNode }> = [];
        forEachReference(early.parseResult.value, info => first.push(info.reference as never));
        expect((first[0].ref as { name?: string } | undefined)?.name).toBe('A');
        expect(early.references).toContain(first[0]);
    });
});

describe('the index of a file\'s exports (LazyReferenceIndexManager)', () => {
    it('lists the top-level names of the tree of the last build, made when first read, as Langium\'s index does', async () => {
        const index = battle.shared.workspace.IndexManager;
        const uri = 'memory:///exports.battle';
        const only = new Set([URI.parse(uri).toString()]);
        await openDocument(uri, 'rules scrud\ngrade Line 0\nforce A {\n  unit Line foot\n}\nforce B {\n  unit Line foot\n}\nengagement E {\n  A attacks B\n}\n');
        expect(index.allElements(undefined, only).map(d => `${d.type} ${d.name} ${d.path}`).toArray())
            .toEqual(['Grade Line /elements@0', 'Force A /elements@1', 'Force B /elements@2', 'Action E /elements@3']);
        expect(index.allElements('Force', only).map(d => d.name).toArray()).toEqual(['A', 'B']);
        // Built again before its exports are read: the new tree's are listed.
        await openDocument(uri, 'rules scrud\nforce C {\n  unit Line foot\n}\n', 2);
        await openDocument(uri, 'rules scrud\nforce D {\n  unit Line foot\n}\nforce A {\n  unit Line foot\n}\n', 3);
        expect(index.allElements('Force', only).map(d => `${d.name} ${d.path}`).toArray()).toEqual(['D /elements@0', 'A /elements@1']);
        battle.shared.workspace.LangiumDocuments.deleteDocument(URI.parse(uri));
        index.remove(URI.parse(uri));
        expect(index.allElements(undefined, only).toArray()).toEqual([]);
    });
});
