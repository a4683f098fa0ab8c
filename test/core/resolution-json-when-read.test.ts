/**
 * A resolution's JSON is made when first read (src/core/resolution.ts, `withJsonWhenRead`): a campaign's
 * check settles engagements for their outcome lines alone. Once read it is the same object, and it is the
 * JSON the resolution gives when written or shown.
 */
import { describe, expect, it } from 'vitest';
import { withJsonWhenRead, type ResolutionJson } from '../../src/core/resolution.js';
import { modelOf } from '../../src/core/model-cache.js';
import { settledOf } from '../../src/core/campaign-state.js';
import { isUnresolvable, resolveAction } from '../../src/core/resolve.js';
import type { Scenario } from '../../src/language/generated/ast.js';
import { parse } from '../support/services.js';

describe('a resolution\'s JSON made when read', () => {
    it('is made once, at the first read, and is then the same object, listed and written like any field', () => {
        let made = 0;
        const json: ResolutionJson = { name: 'E1', kind: 'engagement', rules: 'scrud', turn: null, seed: 7, summary: 'All arms: no pairs', units: [], check: 'x' };
        const resolution = withJsonWhenRead({ lines: [], text: ['All arms:'] }, () => (made++, { ...json }));
        expect(made).toBe(0);
        expect(Object.keys(resolution)).toEqual(['lines', 'text', 'json']);
        const first = resolution.json;
        expect(made).toBe(1);
        expect(resolution.json).toBe(first);
        expect(JSON.parse(JSON.stringify(resolution))).toEqual({ lines: [], text: ['All arms:'], json });
        expect(made).toBe(1);
    });

    it('gives a settled SCRUD engagement the JSON its resolution gives, the summary and fingerprint included', async () => {
        const text = [
            'rules scrud', 'grade Veteran +1', 'force A {', '  unit Guard foot Veteran', '  unit Line foot x2', '}',
            'force B {', '  unit Line foot x2', '  unit Horse horse', '}',
            'engagement E1 {', '  A attacks B', '  seed 11', '}',
            'engagement E2 {', '  A.Line attacks B.Horse', '  seed 12', '}'
        ].join('\n');
        const doc = await parse(text);
        const model = modelOf(doc.parseResult.value as Scenario);
        for (const action of model.actions) {
            const settled = settledOf(model, action);
            const resolved = resolveAction(model, action, { newSeed: () => 1 });
            if (!settled || isUnresolvable(resolved)) throw new Error(`${action.node.name} does not resolve`);
            expect(settled.json).toEqual(resolved.resolution.json);
            expect(settled.json.summary.length).toBeGreaterThan(0);
            expect(settled.json.check).toBe(resolved.resolution.json.check);
        }
    });
});
