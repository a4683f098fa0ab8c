/**
 * The size limits (docs/limits.md): each one, when crossed, gives its diagnostic at the line
 * that crosses it, the model builds no more than the limit, resolve and odds refuse with a reason,
 * and the `umpire.limits.*` settings move each limit within its bounds.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { build } from '../fuzz-support.js';
import { services } from '../fuzz-support.js';
import { limitsFromSettings, LIMIT_BOUNDS, LIMIT_DEFAULTS } from '../../src/core/limits.js';
import type { BattleDocumentFactory } from '../../src/language/battle-document-factory.js';
import { Codes } from '../../src/core/codes.js';
import type { Scenario } from '../../src/language/generated/ast.js';
import { modelOf } from '../../src/core/model-cache.js';
import { isUnresolvable, resolveAction } from '../../src/core/resolve.js';
import { oddsForAction } from '../../src/core/odds.js';

const factory = () => services.shared.workspace.LangiumDocumentFactory as BattleDocumentFactory;
/** What the `umpire.limits` settings do: the limits of every parse from now on. */
const applyLimitSettings = (settings: unknown) => factory().setLimits(limitsFromSettings(settings));

afterEach(() => { applyLimitSettings(undefined); });

async function check(text: string) {
    const doc = await build(text, 'limits');
    const model = modelOf(doc.parseResult.value);
    const coded = (code: string) => (doc.diagnostics ?? []).filter(d => d.code === code);
    return { doc, model, coded };
}

const lineOf = (text: string, needle: string) => text.split('\n').findIndex(l => l.includes(needle));

describe('counts, forces and files build no more units than the limits', () => {
    it('x1000000000 makes 1000 units and says so on the count', async () => {
        const text = 'force A {\n  unit Horde foot x1000000000\n}\nforce B {\n  unit Line foot x99999999999999999999\n}\n';
        const { model, coded } = await check(text);
        expect(model.forces.get('A')!.units).toHaveLength(1000);
        expect(model.forces.get('B')!.units).toHaveLength(1000);
        expect(coded(Codes.countTooLarge).map(d => d.range.start.line)).toEqual([1, 4]);
    });

    it('a force past 5000 units stops at 5000, flagged on the line that passes it', async () => {
        const lines = Array.from({ length: 7 }, (_, i) => `  unit L${i} foot x1000`);
        const text = `force A {\n${lines.join('\n')}\n}\nforce B {\n  unit X foot\n}\n`;
        const { model, coded } = await check(text);
        expect(model.forces.get('A')!.units).toHaveLength(LIMIT_DEFAULTS.maxUnitsPerForce);
        expect(model.forces.get('B')!.units).toHaveLength(1);
        const flagged = coded(Codes.unitsLimit);
        expect(flagged).toHaveLength(1);
        expect(flagged[0].range.start.line).toBe(lineOf(text, 'unit L5 '));
        expect(flagged[0].message).toContain('umpire.limits.unitsPerForce');
    });

    it('the file limit counts across forces', async () => {
        applyLimitSettings({ unitsPerFile: 12 });
        const text = 'force A {\n  unit X foot x10\n}\nforce B {\n  unit Y foot x2\n  unit Z foot x3\n}\nforce C {\n  unit W foot\n}\n';
        const { model, coded } = await check(text);
        expect([...model.forces.values()].map(f => f.units.length)).toEqual([10, 2, 0]);
        expect(coded(Codes.unitsLimit).map(d => d.range.start.line)).toEqual([lineOf(text, 'unit Z'), lineOf(text, 'unit W')]);
    });
});

describe('actions, dice lines and odds have their limits', () => {
    const engagement = (n: number, dice = '') => `rules scrud\nforce A {\n  unit X foot x${n}\n}\nforce B {\n  unit Y foot x${n}\n}\nengagement E {\n  A attacks B\n${dice}  seed 1\n}\n`;

    it('a side larger than unitsPerSide is flagged and not resolved', async () => {
        applyLimitSettings({ unitsPerSide: 3 });
        const { model, coded } = await check(engagement(4));
        expect(coded(Codes.actionTooLarge)).toHaveLength(1);
        const r = resolveAction(model, model.actions[0], { newSeed: () => 1 });
        expect(isUnresolvable(r) && r.problem).toMatch(/side of 4 units.*at most 3/);
    });

    it('at the limit the action resolves', async () => {
        applyLimitSettings({ unitsPerSide: 4 });
        const { model, coded } = await check(engagement(4));
        expect(coded(Codes.actionTooLarge)).toHaveLength(0);
        expect(isUnresolvable(resolveAction(model, model.actions[0], { newSeed: () => 1 }))).toBe(false);
    });

    it('a dice line longer than dicePerLine is flagged at the first value past it', async () => {
        applyLimitSettings({ dicePerLine: 3 });
        const text = engagement(2, '  dice A foot 1 2 3 4 5\n');
        const { coded } = await check(text);
        const d = coded(Codes.diceLineTooLong);
        expect(d).toHaveLength(1);
        expect(d[0].range.start).toEqual({ line: lineOf(text, 'dice A'), character: '  dice A foot 1 2 3 '.length });
    });

    it('odds past the time budget say so instead of computing', async () => {
        applyLimitSettings({ oddsUnitsPerSide: 3 });
        const { model } = await check(engagement(4));
        const odds = oddsForAction(model, model.actions[0]);
        expect('problem' in odds && odds.problem).toMatch(/would take too long.*umpire\.limits\.oddsUnitsPerSide/);
        // A model keeps the limits it was parsed with; the next parse has the new ones.
        expect('problem' in oddsForAction(model, model.actions[0])).toBe(true);
        applyLimitSettings(undefined);
        const again = (await check(engagement(4))).model;
        expect('problem' in oddsForAction(again, again.actions[0])).toBe(false);
    });
});

describe('file size and nesting', () => {
    it('a file over the size limit is not parsed, with one file-limit diagnostic', async () => {
        applyLimitSettings({ fileCharacters: 1000 });
        const text = `force A {\n${'  unit X foot\n'.repeat(100)}}\n`;
        const { doc, coded } = await check(text);
        expect(coded(Codes.fileLimit)).toHaveLength(1);
        expect(doc.parseResult.value.elements).toHaveLength(0);
    });

    it('braces nested past braceDepth are not parsed', async () => {
        const { coded } = await check(`force A ${'{'.repeat(LIMIT_DEFAULTS.maxBraceDepth + 1)}`);
        expect(coded(Codes.fileLimit)).toHaveLength(1);
        expect((await check(`force A ${'{'.repeat(LIMIT_DEFAULTS.maxBraceDepth)}`)).coded(Codes.fileLimit)).toHaveLength(0);
    });
});

describe('the language server\'s asynchronous parse is guarded too', () => {
    it('a file nested past braceDepth never reaches the parser on the server\'s path', async () => {
        const { Cancellation, TextDocument, URI } = await import('langium');
        const text = `force A ${'{'.repeat(LIMIT_DEFAULTS.maxBraceDepth + 1)}\n`;
        const uri = URI.parse('file:///limits/async.battle');
        // With a cancellation token the factory parses asynchronously, as the server does on open and change.
        const doc = await services.shared.workspace.LangiumDocumentFactory.fromTextDocument<Scenario>(
            TextDocument.create(uri.toString(), 'battle', 1, text), uri, Cancellation.CancellationToken.None);
        expect(doc.parseResult.lexerErrors.map(e => e.message)).toEqual([expect.stringMatching(/Braces nest more than 64/)]);
        expect(doc.parseResult.value.elements).toHaveLength(0);
    });
});

describe('umpire.limits.* settings', () => {
    it('the configuration provider applies them, clamped to their bounds; a missing one is the default', () => {
        services.shared.workspace.ConfigurationProvider.updateConfiguration({
            settings: { umpire: { limits: { unitsPerForce: 10, unitsPerCount: 1e12, dicePerLine: 'many' } } }
        });
        expect(factory().limitsInForce.maxUnitsPerForce).toBe(10);
        expect(factory().limitsInForce.maxCount).toBe(LIMIT_BOUNDS.maxCount[1]);
        expect(factory().limitsInForce.maxDicePerLine).toBe(LIMIT_DEFAULTS.maxDicePerLine);
        services.shared.workspace.ConfigurationProvider.updateConfiguration({ settings: { umpire: {} } });
        expect(factory().limitsInForce).toEqual(LIMIT_DEFAULTS);
    });

    it('every limit has a setting in package.json and a row in docs/limits.md', async () => {
        const fs = await import('node:fs');
        const { LIMIT_SETTINGS } = await import('../../src/core/limits.js');
        const pkg = JSON.parse(fs.readFileSync('package.json', 'utf8'));
        const doc = fs.readFileSync('docs/limits.md', 'utf8');
        for (const [key, name] of Object.entries(LIMIT_SETTINGS)) {
            const setting = pkg.contributes.configuration.properties[`umpire.limits.${name}`];
            expect(setting, name).toBeDefined();
            expect(setting.default, name).toBe(LIMIT_DEFAULTS[key as keyof typeof LIMIT_DEFAULTS]);
            expect(doc, name).toContain(`umpire.limits.${name}`);
        }
    });
});
