/**
 * The tree walks of the build steps (src/language/battle-build-steps.ts): the linker and the node
 * validator walk each element with their own loops over its properties, in place of Langium's stream
 * iterators (docs/performance.md). The order decides the order of the linking errors and the checks'
 * problems, so it must be Langium's: every node in `streamAst`'s order, every reference in the order
 * `streamReferences` gives them node by node, on every example, parsed clean and broken.
 */
import { describe, expect, it } from 'vitest';
import * as fs from 'node:fs';
import { AstUtils, type AstNode } from 'langium';
import { forEachReference, nodesOf } from '../../src/language/battle-build-steps.js';
import { parse } from '../support/services.js';

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
