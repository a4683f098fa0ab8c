/**
 * The layers of ARCHITECTURE.md are held by dependency-cruiser (.dependency-cruiser.cjs): the real
 * tree passes, and a tree with one wrong import of each kind (test/fixtures/layers/) fails on each.
 */
import { spawnSync } from 'node:child_process';
import * as path from 'node:path';
import { describe, expect, it } from 'vitest';

const root = path.resolve('.');
const depcruise = path.join(root, 'node_modules', 'dependency-cruiser', 'bin', 'dependency-cruise.mjs');

const run = (cwd: string, output: string) =>
    spawnSync(process.execPath, [depcruise, 'src', '--config', path.join(root, '.dependency-cruiser.cjs'), '--output-type', output], { cwd, encoding: 'utf8', maxBuffer: 64 << 20 });

/** The violations found (from the JSON report), and the exit code of the check as `npm test` runs it. */
function cruise(cwd: string): { status: number | null, violations: Array<{ rule: string, from: string, to: string }> } {
    const report = JSON.parse(run(cwd, 'json').stdout) as { summary: { violations: Array<{ rule: { name: string }, from: string, to: string }> } };
    return { status: run(cwd, 'err').status, violations: report.summary.violations.map(v => ({ rule: v.rule.name, from: v.from, to: v.to })) };
}

describe('the import checker', () => {
    it('passes on the tree, with no cycle', () => {
        const r = cruise(root);
        expect(r.violations).toEqual([]);
        expect(r.status).toBe(0);
    }, 120_000);

    it('fails on each wrong import of the fixture tree', () => {
        const r = cruise(path.join(root, 'test', 'fixtures', 'layers'));
        expect(r.status).not.toBe(0);
        const found = r.violations.map(v => `${v.rule}: ${v.from} → ${v.to}`);
        expect(found).toEqual(expect.arrayContaining([
            'core-names-no-rule-set: src/core/bad-core.ts → src/language/lsp/fixture-hover.ts',
            'pure-engines: src/rulesets/scrud/engine/bad-engine.ts → src/core/bad-core.ts',
            'thin-client: src/extension/bad-client.ts → src/rulesets/scrud/engine/bad-engine.ts',
            'rule-sets-only-through-the-registry: src/extension/bad-client.ts → src/rulesets/scrud/engine/bad-engine.ts',
            'report-names-no-rule-set: src/report/bad-report.ts → src/rulesets/scrud/engine/bad-engine.ts'
        ]));
        expect(found.some(f => f.startsWith('no-circular: src/core/loop-'))).toBe(true);
    }, 120_000);
});
