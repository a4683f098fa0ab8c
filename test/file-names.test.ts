/**
 * File names say what a file is, one pattern a folder. In the language server's `src/language/lsp/`:
 * lower-case words joined by hyphens, no `battle-` or `lsp-` prefix (the folder says it); a file the
 * execute-command handler hands one of the server's commands to is named `<what>-request.ts` (or
 * `-requests.ts`: the client's request for an answer or an edit), as `<what>-command.ts` is the command
 * line's (`src/cli/`). And no file name is used twice in `src/` but the entries' (`main.ts`,
 * `main-browser.ts`), so that the server's file for a command and the command line's are never
 * confused, and a rule set's files are unique in the tree (ARCHITECTURE.md).
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, expect, it } from 'vitest';

const LSP = 'src/language/lsp';
const ENTRIES = new Set(['main.ts', 'main-browser.ts']);

function filesUnder(dir: string): string[] {
    return fs.readdirSync(dir, { withFileTypes: true }).flatMap(e => {
        const full = path.join(dir, e.name);
        if (e.isDirectory()) return e.name === 'generated' ? [] : filesUnder(full);
        return e.name.endsWith('.ts') ? [full.split(path.sep).join('/')] : [];
    });
}

/** The modules `command-handler.ts` hands a command to: each `./x.js` import with a value named in an `accept(` line. */
function commandModules(): string[] {
    const source = fs.readFileSync(`${LSP}/command-handler.ts`, 'utf8');
    const accepted = source.split('\n').filter(l => /\baccept\(/.test(l)).join('\n');
    const modules: string[] = [];
    for (const m of source.matchAll(/^import \{([^}]*)\} from '\.\/([\w-]+)\.js';$/gm)) {
        const values = m[1].split(',').map(s => s.trim()).filter(s => s && !s.startsWith('type '));
        if (values.some(v => new RegExp(`\\b${v}\\b`).test(accepted))) modules.push(`${m[2]}.ts`);
    }
    return modules;
}

describe('file names', () => {
    it('in the language server: lower-case hyphenated words, no prefix the folder already says', () => {
        const names = fs.readdirSync(LSP).filter(f => f.endsWith('.ts'));
        expect(names.length).toBeGreaterThan(20);
        expect(names.filter(f => !/^[a-z]+(?:-[a-z]+)*\.ts$/.test(f) || /^(?:battle|lsp)-/.test(f))).toEqual([]);
    });

    it("a server command's file is named <what>-request, never the command line's <what>-command", () => {
        const modules = commandModules();
        // Resolve and the other outcome commands, odds text, campaign odds, status, report, the editor's requests.
        expect(modules.length).toBeGreaterThanOrEqual(6);
        expect(modules.filter(f => !/-requests?\.ts$/.test(f))).toEqual([]);
        expect(fs.readdirSync(LSP).filter(f => /-command\.ts$/.test(f))).toEqual([]);
        // The command line's commands keep theirs.
        expect(fs.readdirSync('src/cli').filter(f => /-command\.ts$/.test(f)).length).toBeGreaterThan(4);
    });

    it('no file name is used twice in src but the entries', () => {
        const byName = new Map<string, string[]>();
        for (const f of filesUnder('src')) {
            const name = path.basename(f);
            byName.set(name, [...(byName.get(name) ?? []), f]);
        }
        expect([...byName].filter(([name, files]) => files.length > 1 && !ENTRIES.has(name))).toEqual([]);
    });
});
