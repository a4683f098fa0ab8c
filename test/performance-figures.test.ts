/**
 * docs/performance.md is one page whose figures the benchmark writes: its table has one row per figure
 * of scripts/bench-figures.mjs, in order, with the target the benchmark enforces and a value in the
 * form the benchmark writes; the targets its prose states are those targets; and every citation of the
 * page from the code names a heading it has. Pure file reads.
 */
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import { describe, expect, it } from 'vitest';
// @ts-expect-error: a plain ES module of the benchmarks, without types
import { END, FIGURES, START, figuresTable, formatTarget, formatValue, missedTargets, readFigures, withFigures } from '../scripts/bench-figures.mjs';

interface Figure { id: string, what: string, unit: string, target?: number }
interface Row { what: string, target: string, measured: string, met: string }
const figures = FIGURES as Figure[];
const page = fs.readFileSync('docs/performance.md', 'utf8');
const read = readFigures as (page: string) => Row[];

/** A value in the form `formatValue` writes it, back to a number. */
function valueOf(unit: string, shown: string): number {
    const m = (unit === 's' ? /^(\d+\.\d\d) s$/ : new RegExp(`^(\\d+) ${unit}$`)).exec(shown);
    expect(m, `'${shown}' is a value in ${unit}`).not.toBeNull();
    return Number(m![1]);
}

/** GitHub's anchor of a heading. */
const anchorOf = (heading: string) => heading.toLowerCase().replace(/[^\w\- ]/g, '').replace(/ /g, '-');

describe('docs/performance.md: the figures table', () => {
    const rows = read(page);

    it('has one row per figure the benchmark measures, in its order, with the target it enforces', () => {
        expect(rows.map(r => r.what)).toEqual(figures.map(f => f.what));
        expect(rows.map(r => r.target)).toEqual(figures.map(f => formatTarget(f)));
    });

    it('shows each value as the benchmark writes it, and "met" as the value against its target', () => {
        rows.forEach((row, i) => {
            const f = figures[i];
            const value = valueOf(f.unit, row.measured);
            expect(row.met, f.what).toBe(f.target === undefined ? '—' : value <= f.target ? 'yes' : '**no**');
        });
    });

    it('says when, how and on what it was measured', () => {
        const after = page.slice(page.indexOf(START), page.indexOf(END)).trim().split('\n').at(-1)!;
        expect(after).toMatch(/^Measured \d{4}-\d\d-\d\d \d\d:\d\d UTC by `npm run bench:lsp -- --write-figures` \(.+\), Node v\d+/);
    });

    it('is what the writer writes for those values, and the writer refuses a figure not measured', () => {
        const values = new Map(figures.map((f, i) => [f.id, valueOf(f.unit, rows[i].measured)]));
        const measuredOn = page.slice(page.indexOf(START), page.indexOf(END)).trim().split('\n').at(-1)!;
        expect(withFigures(page, values, measuredOn)).toBe(page);
        expect(figuresTable(values, measuredOn).join('\n')).toContain(`| ${figures[0].what} |`);
        values.delete(figures[0].id);
        expect(() => withFigures(page, values, measuredOn)).toThrow(figures[0].what);
    });

    it('the benchmark reports a target missed, and only those', () => {
        const withTarget = figures.filter(f => f.target !== undefined);
        const values = new Map(withTarget.map(f => [f.id, f.target!]));
        expect(missedTargets(values)).toEqual([]);
        values.set(withTarget[0].id, withTarget[0].target! + 1);
        expect(missedTargets(values)).toEqual([`${withTarget[0].what}: ${formatValue(withTarget[0].unit, withTarget[0].target! + 1)}, target ${formatTarget(withTarget[0])}`]);
    });
});

describe('docs/performance.md: one page', () => {
    it('states in its Targets section exactly the targets the benchmark enforces', () => {
        const section = /\n## Targets\n([\s\S]*?)\n## /.exec(page)![1];
        const stated = new Set([...section.matchAll(/\b(\d+(?:,\d{3})*) (ms|s|MB)\b/g)].map(m => `${m[1]} ${m[2]}`));
        const enforced = new Set(figures.filter(f => f.target !== undefined).map(f => formatTarget(f)));
        expect([...stated].sort()).toEqual([...enforced].sort());
    });

    it('every citation of the page names one of its headings', () => {
        const headings = [...page.matchAll(/^#{2,3} (.+)$/gm)].map(m => m[1]);
        const anchors = new Set(headings.map(anchorOf));
        const files = execFileSync('git', ['ls-files', 'src', 'test', 'scripts', 'docs', 'ARCHITECTURE.md', 'CONTRIBUTING.md', 'README.md'], { encoding: 'utf8' })
            .split('\n').filter(f => /\.(ts|mjs|md)$/.test(f) && fs.existsSync(f));
        const wrong: string[] = [];
        let count = 0;
        for (const file of files) {
            // A comment may wrap between the file name and its heading: lines joined.
            const text = fs.readFileSync(file, 'utf8').replace(/\n\s*(\*|\/\/)?\s*/g, ' ');
            for (const m of text.matchAll(/performance\.md(?:#([\w-]+)|,? "([^"]+)")/g)) {
                count++;
                if (m[1] !== undefined && !anchors.has(m[1])) wrong.push(`${file}: #${m[1]}`);
                if (m[2] !== undefined && !headings.some(h => h === m[2] || h.startsWith(m[2]))) wrong.push(`${file}: "${m[2]}"`);
            }
        }
        expect(wrong).toEqual([]);
        expect(count).toBeGreaterThan(10);
    });
});
