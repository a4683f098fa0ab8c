/**
 * The rules references (docs/rules/*.md) are what the project cites for every rule decision: this
 * keeps them and the citations honest. Every anchor cited anywhere (a bare id such as the one for the
 * SCRUD sort, or a link `rules/loose-files.md#…`) must exist; every file, name and test the references
 * point to must exist; every sentence row must name its code and test or say plainly why it has none.
 * Pure file reads, so it runs in well under a second.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, expect, it } from 'vitest';

// Tests run from the repository root (as the other suites that read examples/ and docs/ do).
const ROOT = process.cwd();
const REFERENCES = { scrud: 'docs/rules/scrud.md', ancients: 'docs/rules/ancients.md', 'loose-files': 'docs/rules/loose-files.md' } as const;
type Ruleset = keyof typeof REFERENCES;
/** The letter each rule set's ids start with, as cited in comments. */
const BY_LETTER: Record<string, Ruleset> = { S: 'scrud', A: 'ancients', L: 'loose-files' };

const read = (file: string) => fs.readFileSync(path.join(ROOT, file), 'utf8');

/** Every file the citation scan reads: sources, tests, docs and examples (not build output or goldens). */
function citingFiles(): string[] {
    const out: string[] = ['README.md', 'ARCHITECTURE.md'];
    const walk = (dir: string) => {
        for (const entry of fs.readdirSync(path.join(ROOT, dir), { withFileTypes: true })) {
            const rel = `${dir}/${entry.name}`;
            if (entry.isDirectory()) {
                // Generated code and frozen CLI outputs cite nothing of their own.
                if (!['generated', 'goldens', 'node_modules'].includes(entry.name)) walk(rel);
            } else if (/\.(ts|mts|mjs|langium|md|battle)$/.test(entry.name)) {
                out.push(rel);
            }
        }
    };
    for (const dir of ['src', 'test', 'docs', 'examples', 'scripts']) walk(dir);
    return out;
}

/** The ids a reference defines with `<a id="…">`, with any defined twice. */
function idsOf(text: string): { ids: Set<string>, twice: string[] } {
    const ids = new Set<string>(), twice: string[] = [];
    for (const m of text.matchAll(/<a id="([^"]+)"><\/a>/g)) {
        if (ids.has(m[1])) twice.push(m[1]);
        ids.add(m[1]);
    }
    return { ids, twice };
}

const references = Object.fromEntries(Object.entries(REFERENCES).map(([id, file]) => [id, { file, text: read(file), ...idsOf(read(file)) }])) as
    Record<Ruleset, { file: string, text: string, ids: Set<string>, twice: string[] }>;

interface Citation { file: string, line: number, ruleset: Ruleset, id: string, text: string }

/** A bare id in prose or a comment: a rule-set letter, a number and perhaps a sub-number. */
const BARE = new RegExp('\\b([' + Object.keys(BY_LETTER).join('') + '])(\\d+(?:\\.\\d+)?)\\b', 'g');
/** A link into a reference, from anywhere: `rules/ancients.md#a7`, `loose-files.md#l6.3`. */
const LINK = /\b(scrud|ancients|loose-files)\.md#([\w.-]*[\w])/g;
/** A link within a reference to its own anchors: `](#s4)`. */
const OWN_LINK = /\]\(#([\w.-]+)\)/g;

function citationsIn(file: string, text: string): Citation[] {
    const out: Citation[] = [];
    const ownRuleset = (Object.entries(REFERENCES) as Array<[Ruleset, string]>).find(([, f]) => f === file)?.[0];
    text.split('\n').forEach((lineText, i) => {
        const at = { file, line: i + 1, text: lineText.trim() };
        for (const m of lineText.matchAll(BARE)) out.push({ ...at, ruleset: BY_LETTER[m[1]], id: `${m[1]}${m[2]}`.toLowerCase() });
        for (const m of lineText.matchAll(LINK)) out.push({ ...at, ruleset: m[1] as Ruleset, id: m[2] });
        if (ownRuleset) for (const m of lineText.matchAll(OWN_LINK)) out.push({ ...at, ruleset: ownRuleset, id: m[1] });
    });
    return out;
}

/** The rows of the "Every sentence" tables: one per sentence, starting with the row's own anchor. */
function sentenceRows(text: string): Array<{ id: string, cells: string[] }> {
    return text.split('\n').filter(l => l.startsWith('| <a id="')).map(l => ({
        id: /<a id="([^"]+)"/.exec(l)![1],
        // Cells split on pipes that are not escaped (`\|` inside a cell is text).
        cells: l.slice(1, -1).split(/(?<!\\)\|/).map(c => c.trim())
    }));
}

describe('rules references: anchors', () => {
    it('define each anchor once', () => {
        for (const r of Object.values(references)) expect(r.twice, r.file).toEqual([]);
    });

    it('every anchor cited in src, test, docs, examples and the README exists in its reference', () => {
        const missing: string[] = [];
        let count = 0;
        for (const file of citingFiles()) {
            for (const c of citationsIn(file, read(file))) {
                count++;
                if (!references[c.ruleset].ids.has(c.id)) missing.push(`${c.file}:${c.line} cites ${REFERENCES[c.ruleset]}#${c.id}: ${c.text}`);
            }
        }
        expect(missing).toEqual([]);
        // The scan really reads the citations: the code cites these ids in hundreds of places.
        expect(count).toBeGreaterThan(300);
    });

    it('the scan finds a bare id, a link and an own link, and would report one that does not exist', () => {
        // Built from parts, so that the citation scan of this very file does not read them.
        const found = citationsIn('docs/rules/scrud.md', `// ${'S'}4 and ${'S'}6.9; see rules/ancients.md#a7, loose-files.md#l6.3 and [it](#s-ex.1).`);
        expect(found.map(c => `${c.ruleset}#${c.id}`)).toEqual(['scrud#s4', 'scrud#s6.9', 'ancients#a7', 'loose-files#l6.3', 'scrud#s-ex.1']);
        expect(found.filter(c => !references[c.ruleset].ids.has(c.id)).map(c => c.id)).toEqual(['s6.9']);
    });
});

describe('rules references: every sentence', () => {
    it('each row has its anchor, the sentence, the reading, the code and the test', () => {
        for (const r of Object.values(references)) {
            const rows = sentenceRows(r.text);
            expect(rows.length, r.file).toBeGreaterThan(20);
            for (const row of rows) expect(row.cells.length, `${r.file}#${row.id}`).toBe(5);
        }
    });

    it('a row without code or test says why: left to the umpire, not yet implemented, or not a rule', () => {
        const silent: string[] = [];
        for (const r of Object.values(references)) {
            for (const { id, cells: [, , reading, code, test] } of sentenceRows(r.text)) {
                const why = /left to the umpire|not yet implemented|not yet offered|no rule|not a rule/i.test(reading);
                if ((code === '—' || test === '—') && !why) silent.push(`${r.file}#${id}`);
            }
        }
        expect(silent).toEqual([]);
    });

    it('every file named exists, and every name given beside a file is in it', () => {
        const problems: string[] = [];
        for (const r of Object.values(references)) {
            for (const m of r.text.matchAll(/`((?:src|test|examples|docs|scripts)\/[^`\s]+)`(?: \(((?:`\w+`(?:, )?)+)\))?/g)) {
                const file = path.join(ROOT, m[1]);
                if (!fs.existsSync(file)) {
                    problems.push(`${r.file}: ${m[1]} does not exist`);
                    continue;
                }
                const body = fs.statSync(file).isFile() ? fs.readFileSync(file, 'utf8') : '';
                for (const [, name] of (m[2] ?? '').matchAll(/`(\w+)`/g)) {
                    if (!new RegExp(`\\b${name}\\b`).test(body)) problems.push(`${r.file}: ${m[1]} has no ${name}`);
                }
            }
        }
        expect(problems).toEqual([]);
    });

    it('every test named exists, as an it, describe or case name in that file', () => {
        const problems: string[] = [];
        let count = 0;
        for (const r of Object.values(references)) {
            for (const m of r.text.matchAll(/`(test\/[^`]+\.ts)` › ((?:“[^”]+”(?:, )?)+)/g)) {
                const file = path.join(ROOT, m[1]);
                if (!fs.existsSync(file)) {
                    problems.push(`${r.file}: ${m[1]} does not exist`);
                    continue;
                }
                // As the title reads once the quote escapes of the source are undone.
                const body = fs.readFileSync(file, 'utf8').replace(/\\(['"`])/g, '$1');
                for (const [, title] of m[2].matchAll(/“([^”]+)”/g)) {
                    count++;
                    const plain = title.replace(/\\\|/g, '|');
                    const escaped = plain.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
                    const named = new RegExp(`(?:\\b(?:it|describe|test)(?:\\.each\\([^)]*\\))?\\(|\\bname: )\\s*(['"\`])${escaped}\\1`);
                    if (!named.test(body)) problems.push(`${r.file}: ${m[1]} has no test named “${plain}”`);
                }
            }
        }
        expect(problems).toEqual([]);
        expect(count).toBeGreaterThan(100);
    });
});

describe('docs, README and ARCHITECTURE: paths', () => {
    it('every source, test, example or doc path they name exists', () => {
        const missing: string[] = [];
        const files = ['README.md', 'ARCHITECTURE.md', ...citingFiles().filter(f => f.startsWith('docs/'))];
        for (const file of files) {
            read(file).split('\n').forEach((line, i) => {
                for (const m of line.matchAll(/(?<![\w/.-])((?:src|test|examples|docs|scripts|playground|syntaxes)\/[\w./*-]*[\w/*])/g)) {
                    // A glob (`test/fuzz-*.test.ts`) names a family of files, not one.
                    if (m[1].includes('*')) continue;
                    if (!fs.existsSync(path.join(ROOT, m[1]))) missing.push(`${file}:${i + 1} ${m[1]}`);
                }
            });
        }
        expect(missing).toEqual([]);
    });
});
