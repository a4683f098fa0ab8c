/**
 * The preview is the record (docs/campaigns.md#settled, #undecided): over generated campaigns of every
 * rule set — chains of engagements sharing units across turns, some written, some not, some without
 * dice or seed — the `resolve` preview of every action equals what `resolve --write` then writes (or
 * says the action is not decided yet), and `check` before writing reports what `check` after reports.
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { loadText } from '../../src/cli/load.js';
import { resolveAll, needsOutcome, ResolveAllError } from '../../src/core/resolve-all.js';
import { modelOf } from '../../src/core/model-cache.js';
import { isUnresolvable, needsNewSeed, resolveAction } from '../../src/core/resolve.js';
import { waitsOn } from '../../src/core/campaign-state.js';

const HEADERS: Record<string, string> = {
    scrud: 'rules scrud\ngrade Vet +1\nforce A { unit U foot Vet x3 }\nforce B { unit U foot x3 }\n',
    ancients: 'rules ancients\ngrade G { size medium, weight medium, formation formed, skill 1, leadership 7 }\nforce A { unit U infantry G x3 }\nforce B { unit U infantry G x3 }\n',
    'loose-files': 'rules loose-files\ngrade G { class 3, stands 4 }\nforce A { unit U infantry G x3 }\nforce B { unit U infantry G x3 }\n'
};

interface Fight { a: number, b: number, seed: number | undefined, written: boolean }

function campaign(rules: string, turns: Fight[][]): string {
    let text = HEADERS[rules];
    let n = 0;
    turns.forEach((fights, t) => {
        text += `turn ${t + 1} {\n`;
        for (const f of fights) {
            const pairing = rules === 'ancients' ? `\n    A.U#${f.a} vs B.U#${f.b}` : '';
            text += `  engagement E${++n} {\n    A.U#${f.a} attacks B.U#${f.b}${pairing}\n${f.seed === undefined ? '' : `    seed ${f.seed}\n`}  }\n`;
        }
        text += '}\n';
    });
    return text;
}

async function check(text: string) {
    const l = await loadText('campaign.battle', text);
    return { root: l.document.parseResult.value, diagnostics: l.diagnostics, errors: l.diagnostics.filter(d => d.severity === 1).map(d => d.message as string) };
}

/** What `check` says, without places (writing moves the lines). */
const said = (d: Awaited<ReturnType<typeof check>>['diagnostics']) => d.map(x => `${x.severity} ${x.code}: ${x.message}`).sort();

/** A turn's fights: each unit of a side in one of them (one fight a turn). */
const turnArb = fc.uniqueArray(fc.integer({ min: 1, max: 3 }), { minLength: 1, maxLength: 3 }).chain(as =>
    fc.tuple(fc.shuffledSubarray([1, 2, 3], { minLength: as.length, maxLength: as.length }),
        fc.array(fc.option(fc.integer({ min: 1, max: 9999 }), { freq: 8 }), { minLength: as.length, maxLength: as.length }),
        fc.array(fc.boolean(), { minLength: as.length, maxLength: as.length }))
        .map(([bs, seeds, written]) => as.map((a, i) => ({ a, b: bs[i], seed: seeds[i] ?? undefined, written: written[i] && seeds[i] !== null }))));

describe.each(Object.keys(HEADERS))('the preview is the record in %s', rules => {
    it('every preview equals what --write writes, and check says the same before and after', async () => {
        let compared = 0, checked = 0;
        await fc.assert(fc.asyncProperty(fc.array(turnArb, { minLength: 2, maxLength: 3 }), fc.integer({ min: 1, max: 9999 }), async (turns, drawn) => {
            let text = campaign(rules, turns);
            // Some outcomes written first, each as the tool writes it.
            const fights = turns.flat();
            for (let i = 0; i < fights.length; i++) {
                if (!fights[i].written) continue;
                try {
                    text = (await resolveAll(text, check, { only: `E${i + 1}`, newSeed: () => drawn })).text;
                } catch (err) {
                    if (!(err instanceof ResolveAllError)) throw err;
                }
            }
            const before = await check(text);
            const model = modelOf(before.root);
            const previews = new Map<string, string>();
            for (const action of model.actions) {
                if (!needsOutcome(model, action)) continue;
                if (needsNewSeed(model, action) || waitsOn(model, action)) continue;
                const r = resolveAction(model, action, { newSeed: () => drawn });
                if (!isUnresolvable(r)) previews.set(action.node.name, JSON.stringify(r.resolution.json));
            }
            let result;
            try {
                result = await resolveAll(text, check, { newSeed: () => drawn });
            } catch (err) {
                if (!(err instanceof ResolveAllError)) throw err;
                // Refused: the file has errors as it stands, or a seed drawn for an undecided action makes one.
                const undecided = model.actions.some(a => needsOutcome(model, a) && needsNewSeed(model, a));
                expect(before.errors.length > 0 || undecided, err.message).toBe(true);
                return;
            }
            expect(before.errors).toEqual([]);
            const written = new Map(result.written.map(w => [w.action, JSON.stringify(w.resolution.json)]));
            for (const [name, preview] of previews) expect(written.get(name), name).toBe(preview);
            compared += previews.size;
            // A result not decided until a seed is drawn is not known to the check before writing: what it
            // leads to (a stand-off's order to fight on, a rout) is found once it is drawn. With every
            // action decided, the check says the same before and after, to the word.
            if (model.actions.some(a => needsOutcome(model, a) && needsNewSeed(model, a))) return;
            checked++;
            const after = await check(result.text);
            // Writing in order is what `outcome-out-of-order` asks for (a written outcome below an undecided
            // action): that warning, and only it, goes once the file is written.
            const beforeSaid = said(before.diagnostics).filter(d => !d.includes(' outcome-out-of-order: '));
            expect(said(after.diagnostics)).toEqual(beforeSaid);
        }), { numRuns: 30, seed: 30 });
        // Many runs write: the previews compared and the checks compared are many, not a few lucky ones.
        expect(compared).toBeGreaterThan(10);
        expect(checked).toBeGreaterThan(4);
    }, 600_000);
});
