/**
 * A SCRUD resolution kept with its JSON not read yet (a settled result, kept across builds: docs/campaigns.md#settled)
 * holds plain data only: not the model it was resolved from, so not the tree of that build either.
 */
import * as v8 from 'node:v8';
import * as vm from 'node:vm';
import { describe, expect, it } from 'vitest';
import { parse, services } from '../../support/services.js';
import { modelOf } from '../../../src/core/model-cache.js';
import type { Resolution } from '../../../src/core/resolution.js';
import { resolveScrudAction } from '../../../src/rulesets/scrud/scrud-resolve.js';

const text = (i: number) => `scenario "Held ${i}"
rules scrud
grade Veteran +1
force French {
  unit Line foot Veteran x2
  unit Hussars horse
}
force Austrian {
  unit Grenz foot x2
  unit Dragoons horse
}
engagement Ridge${i} {
  French attacks Austrian
  seed ${i + 1}
}
`;

/** Resolves the one engagement of a fresh document, then takes the document out of the workspace. */
async function resolvedAndDropped(i: number): Promise<{ resolution: Resolution, model: WeakRef<object>, root: WeakRef<object> }> {
    const doc = await parse(text(i));
    const model = modelOf(doc.parseResult.value);
    const resolution = resolveScrudAction(model, model.actions[0], { kind: 'seed', seed: i + 1 }) as Resolution;
    services.shared.workspace.LangiumDocuments.deleteDocument(doc.uri);
    services.shared.workspace.IndexManager.remove(doc.uri);
    return { resolution, model: new WeakRef(model), root: new WeakRef(doc.parseResult.value) };
}

describe('a SCRUD resolution whose JSON is not read yet', () => {
    it('holds neither the model nor the tree it was resolved from, and its JSON reads as at once', async () => {
        v8.setFlagsFromString('--expose-gc');
        const gc = vm.runInNewContext('gc') as () => void;
        const held = [];
        for (let i = 0; i < 6; i++) held.push(await resolvedAndDropped(i));
        // Past the builder's own pending work, which may still hold the last document.
        await new Promise(resolve => setTimeout(resolve, 20));
        gc();
        const alive = held.filter(h => h.model.deref() !== undefined || h.root.deref() !== undefined).length;
        // The last document may still be held by the workspace's caches of "the latest" build; the earlier ones are not.
        expect(alive).toBeLessThanOrEqual(1);
        for (const [i, h] of held.entries()) {
            const doc = await parse(text(i));
            const model = modelOf(doc.parseResult.value);
            const fresh = resolveScrudAction(model, model.actions[0], { kind: 'seed', seed: i + 1 }) as Resolution;
            expect(h.resolution.json).toEqual(fresh.json);
            expect(h.resolution.lines).toEqual(fresh.lines);
        }
    });
});
