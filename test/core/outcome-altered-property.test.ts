/**
 * Every written outcome is verified (docs/campaigns.md#altered): any single change of a number or a
 * word inside a written block's summary or unit lines is `outcome-altered`, at the line changed (or the
 * one before it, when the change moves a line), saying what the replay gives; the quick fix restores
 * the block byte for byte; and the campaign state builds on the dice, not on the edit.
 */
import { describe, expect, it } from 'vitest';
import * as fs from 'node:fs';
import fc from 'fast-check';
import { AstUtils, CstUtils, isLeafCstNode, type CstNode } from 'langium';
import { loadText } from '../../src/cli/load.js';
import { resolveAll } from '../../src/core/resolve-all.js';
import { modelOf } from '../../src/core/model-cache.js';
import { stateAtEnd } from '../../src/core/campaign-state.js';
import { isOutcome, type Scenario } from '../../src/language/generated/ast.js';
import { restoreOutcomeActions } from '../../src/language/lsp/stale-fix.js';
import { TextDocument } from 'vscode-languageserver-textdocument';

const EXAMPLES = ['ancients-flank', 'campaign', 'cowpens', 'loose-files-turn', 'scrud-ridge', 'scrud-seed'];

async function check(text: string) {
    const loaded = await loadText('altered.battle', text);
    return { root: loaded.document.parseResult.value, document: loaded.document, diagnostics: loaded.diagnostics };
}

async function written(text: string): Promise<string> {
    return (await resolveAll(text, async t => { const c = await check(t); return { root: c.root, errors: c.diagnostics.filter(d => d.severity === 1).map(d => d.message as string) }; }, { newSeed: () => 1 })).text;
}

/** One edit inside a written block: [from, to) replaced by `by`. */
interface Mutation { what: string, from: number, to: number, by: string }

/** The leaves of the summary and unit lines of every written block (its `outcome seed N check "…"` head left out). */
function recordLeaves(root: Scenario): CstNode[] {
    const out: CstNode[] = [];
    for (const outcome of AstUtils.streamAst(root).filter(isOutcome)) {
        const cst = outcome.$cstNode!;
        const open = cst.offset + cst.text.indexOf('{');
        for (const n of CstUtils.streamCst(cst)) if (isLeafCstNode(n) && !n.hidden && n.offset > open && n.end < cst.end) out.push(n);
    }
    return out;
}

/** Each number one more; each word another word; a summary's text with a word changed. */
function mutations(root: Scenario): Mutation[] {
    const out: Mutation[] = [];
    for (const n of recordLeaves(root)) {
        const t = n.text;
        if (/^[+-]?[0-9]+$/.test(t)) {
            const v = Number(t) + 1;
            out.push({ what: `number '${t}'`, from: n.offset, to: n.end, by: /^[+-]/.test(t) ? (v < 0 ? String(v) : `+${v}`) : String(v) });
        } else if (t.startsWith('"')) {
            // A word of a summary or a text fact: its first digit one more, else its first letter another.
            const digit = /[0-9]/.exec(t);
            const at = digit ? digit.index : /[a-z]/i.exec(t)?.index;
            if (at === undefined) continue;
            const by = digit ? String((Number(t[at]) + 1) % 10) : (t[at] === 'x' ? 'y' : 'x');
            out.push({ what: `text ${t}`, from: n.offset + at, to: n.offset + at + 1, by });
        } else if (/^[a-z][a-z-]*$/.test(t) && !['vs', 'summary'].includes(t)) {
            // A result or a fact's key: another word of the same shape.
            out.push({ what: `word '${t}'`, from: n.offset, to: n.end, by: t === 'holds' ? 'destroyed' : t === 'won' ? 'rout' : `${t}x` });
        }
    }
    return out;
}

describe('a written outcome edited by hand', () => {
    it('is outcome-altered, not stale, with the replay in the message, and the state builds on the dice', async () => {
        const text = await written(fs.readFileSync('examples/scrud-seed.battle', 'utf8'));
        const edited = text.replace('Defender.Dragoons#1: won, die 3, mod 0, adjusted 3', 'Defender.Dragoons#1: rout, die 3, mod 0, adjusted 3');
        expect(edited).not.toBe(text);
        const { diagnostics, root } = await check(edited);
        const found = diagnostics.filter(d => String(d.code).startsWith('outcome-'));
        expect(found.map(d => [d.code, d.severity, d.range.start.line + 1])).toEqual([['outcome-altered', 1, edited.split('\n').findIndex(l => l.includes('Dragoons#1: rout')) + 1]]);
        expect(found[0].message).toContain("This line says 'Defender.Dragoons#1: rout, die 3, mod 0, adjusted 3 vs Attacker.Hussars#1', but the dice of 'Example' give 'Defender.Dragoons#1: won, die 3, mod 0, adjusted 3 vs Attacker.Hussars#1'.");
        // The forged rout never reaches the campaign state.
        expect(stateAtEnd(modelOf(root)).get('Defender.Dragoons#1')).toMatchObject({ status: 'ready', lastResult: { result: 'won' } });
    });

    it('any single change of a number or word in a block is outcome-altered, and the quick fix restores the block byte for byte', async () => {
        const cases: Array<{ text: string, mutation: Mutation }> = [];
        for (const name of EXAMPLES) {
            const text = await written(fs.readFileSync(`examples/${name}.battle`, 'utf8'));
            const checked = await check(text);
            expect(checked.diagnostics.filter(d => d.severity === 1 || String(d.code).startsWith('outcome-')), name).toEqual([]);
            for (const mutation of mutations(checked.root)) cases.push({ text, mutation });
        }
        expect(cases.length).toBeGreaterThan(200);
        await fc.assert(fc.asyncProperty(fc.integer({ min: 0, max: cases.length - 1 }), async index => {
            const { text, mutation } = cases[index];
            const changed = text.slice(0, mutation.from) + mutation.by + text.slice(mutation.to);
            const { diagnostics, document } = await check(changed);
            const altered = diagnostics.filter(d => d.code === 'outcome-altered');
            const line = changed.slice(0, mutation.from).split('\n').length - 1;
            expect(altered, mutation.what).toHaveLength(1);
            // At the line changed; one mistake, one message: nothing else is said of the outcome.
            expect(altered[0].range.start.line, mutation.what).toBe(line);
            expect(diagnostics.filter(d => d.code === 'outcome-stale'), mutation.what).toEqual([]);
            const fix = restoreOutcomeActions(document, altered[0])[0];
            const edits = fix.edit!.changes![document.uri.toString()];
            const doc = TextDocument.create('file:///altered.battle', 'battle', 1, changed);
            expect(TextDocument.applyEdits(doc, edits), mutation.what).toBe(text);
        }), { numRuns: 120, seed: 30 });
    }, 300_000);
});
