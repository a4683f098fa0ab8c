/**
 * Names in the umpire's own language: forces, units, grades and modifiers may use the letters and
 * digits of any script. Checked in the language (lexer, linking, validation), completion, rename,
 * formatting, the CLI (check, resolve --json, resolve --write) and the bundled server over stdio.
 */
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { EmptyFileSystem, GrammarAST, GrammarUtils, isReference } from 'langium';
import { parseHelper } from 'langium/test';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RenameRequest, TextDocumentEdit, type TextEdit, type WorkspaceEdit } from 'vscode-languageserver-protocol/node';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { createBattleServices } from '../../src/language/battle-module.js';
import type { Scenario } from '../../src/language/generated/ast.js';
import { NAME_SOURCE } from '../../src/language/lsp/names.js';
import { ensureServerBundle, LspSession, repoRoot, type ResolveCommandResult } from '../protocol/lsp-harness.js';

const services = createBattleServices(EmptyFileSystem).Battle;
const parse = parseHelper<Scenario>(services);

const FILE = `scenario "Hohenbach"
rules scrud

grade Garde +2
grade Linie 0
modifier Müde -1

force Français {
  unit Jäger foot Garde x2
  unit Chasseurs-à-cheval horse Linie
}

force Preußen {
  unit Füsiliere foot Linie x2
  unit Husaren horse Linie
}

engagement Höhe {
  Français attacks Preußen
  factor Müde on Français.Jäger#2
  seed 1806
}
`;

async function problems(text: string): Promise<string[]> {
    const doc = await parse(text, { validation: true });
    return (doc.diagnostics ?? []).map(d => `${d.code} ${d.message}`);
}

function tokens(text: string): string[] {
    const lexed = services.parser.Lexer.tokenize(text);
    return [...lexed.tokens.map(t => `${t.tokenType.name}:${t.image}`), ...lexed.errors.map(e => `error:${e.message}`)];
}

describe('names in any script', () => {
    it('checks a scenario with French and German names clean, every reference linked', async () => {
        expect(await problems(FILE)).toEqual([]);
        const doc = await parse(FILE);
        const [engagement] = doc.parseResult.value.elements.filter(e => e.$type === 'Action');
        // A reference by its text (Langium's reference holds its node and linker).
        expect(JSON.stringify(engagement, (k, v: unknown) => k.startsWith('$') ? undefined : isReference(v) ? v.$refText : v)).toContain('Jäger');
    });

    it('reads letters of any script, digits of any script and combining marks as one name', () => {
        expect(tokens('Jäger Preußen Ωmega 名前 д2 Ja\u0308ger _x Chasseurs-à-cheval')).toEqual([
            'ID:Jäger', 'ID:Preußen', 'ID:Ωmega', 'ID:名前', 'ID:д2', 'ID:Ja\u0308ger', 'ID:_x', 'ID:Chasseurs-à-cheval'
        ]);
    });

    it('still reads counts, keywords, and names that start with a keyword', () => {
        expect(tokens('unit Linie foot x2')).toEqual(['unit:unit', 'ID:Linie', 'ID:foot', 'COUNT:x2']);
        // A name character right after the digits makes a name, not a count.
        expect(tokens('x2a x2é x12-3')).toEqual(['ID:x2a', 'ID:x2é', 'ID:x12-3']);
        // A keyword is not split off the front of a longer name (the `u` flag used to lose this).
        // Rule-set names are names, not keywords (the registry knows them, not the grammar).
        expect(tokens('turnip forcemarch unité scrud-ish loose-files turnout')).toEqual([
            'ID:turnip', 'ID:forcemarch', 'ID:unité', 'ID:scrud-ish', 'ID:loose-files', 'ID:turnout'
        ]);
    });

    it('links names that start with a keyword, with counts and #k', async () => {
        const text = 'rules scrud\ngrade turnip +1\nforce forcemarch {\n  unit unité foot turnip x2\n}\nforce Other {\n  unit Line foot\n}\n'
            + 'engagement E {\n  forcemarch.unité#2 attacks Other\n  seed 1\n}\n';
        expect(await problems(text)).toEqual([]);
    });

    it('names a character that is still not allowed, whole, even outside the Basic Multilingual Plane', async () => {
        expect(await problems('rules scrud\nforce A·B {\n}\n')).toContainEqual(expect.stringContaining("The character '·' is not part of the .battle language."));
        expect(await problems('rules scrud\nforce A😀 {\n}\n')).toContainEqual(expect.stringContaining("The character '😀' is not part of the .battle language."));
    });

    it('keeps the rename check, completion and the grammar in step: one name pattern', () => {
        const terminal = services.Grammar.rules.find((r): r is GrammarAST.TerminalRule => GrammarAST.isTerminalRule(r) && r.name === 'ID')!;
        const grammarName = new RegExp(`^(?:${GrammarUtils.terminalRegex(terminal).source})$`, 'u');
        const providerName = new RegExp(`^${NAME_SOURCE}$`, 'u');
        for (const s of ['Jäger', 'Preußen', 'a-b', 'a--b', '-a', 'a-', '2a', '_', 'x2', 'a·b', 'Ja\u0308ger', '\u0308a', 'д2', '名前', 'a b', '']) {
            expect(providerName.test(s), s).toBe(grammarName.test(s));
        }
    });
});

describe('rename and completion with such names', () => {
    async function rename(text: string, at: string, newName: string): Promise<string> {
        const doc = await parse(text);
        const position = doc.textDocument.positionAt(text.indexOf(at));
        const edit = await services.lsp.RenameProvider!.rename(doc, { textDocument: { uri: doc.uri.toString() }, position, newName });
        return TextDocument.applyEdits(doc.textDocument, edit?.changes?.[doc.uri.toString()] ?? []);
    }

    it('renames to and from names in any script', async () => {
        expect(await rename(FILE, 'Jäger foot', 'Voltigeurs')).toBe(FILE.replaceAll('Jäger', 'Voltigeurs'));
        expect(await rename(FILE, 'Preußen {', 'Österreich')).toBe(FILE.replaceAll('Preußen', 'Österreich'));
        expect(await rename(FILE, 'Müde -1', 'Erschöpft')).toBe(FILE.replaceAll('Müde', 'Erschöpft'));
    });

    it('refuses a new name the file could not read back as that name', async () => {
        await expect(rename(FILE, 'Jäger foot', 'Jä ger')).rejects.toThrow(/not a name/);
        await expect(rename(FILE, 'Jäger foot', 'Jäger·2')).rejects.toThrow(/not a name/);
        await expect(rename(FILE, 'Jäger foot', 'x3')).rejects.toThrow(/count/);
        await expect(rename(FILE, 'Jäger foot', 'unit')).rejects.toThrow(/keyword/);
        await expect(rename(FILE, 'Jäger foot', 'Chasseurs-à-cheval')).rejects.toThrow(/already a unit in this force/);
    });

    it('completes the units of a force with a non-ASCII name after the dot', async () => {
        const text = FILE.replace('factor Müde on Français.Jäger#2', 'factor Müde on Français.');
        const doc = await parse(text);
        const list = await services.lsp.CompletionProvider!.getCompletion(doc, {
            textDocument: { uri: doc.uri.toString() }, position: doc.textDocument.positionAt(text.indexOf('Français.\n') + 'Français.'.length)
        });
        expect(list?.items.map(i => i.label)).toEqual(expect.arrayContaining(['Jäger', 'Jäger#2', 'Chasseurs-à-cheval']));
    });

    it('formats such a file without touching a name', async () => {
        const messy = FILE.replace('unit Jäger foot Garde x2', 'unit   Jäger   foot Garde    x2').replace('Français.Jäger#2', 'Français . Jäger # 2');
        const doc = await parse(messy);
        const edits = await services.lsp.Formatter!.formatDocument(doc, { textDocument: { uri: doc.uri.toString() }, options: { tabSize: 2, insertSpaces: true } });
        expect(TextDocument.applyEdits(doc.textDocument, edits)).toBe(FILE);
    });
});

describe('the CLI and the bundled server with such names', () => {
    let dir: string;
    let session: LspSession | undefined;

    beforeAll(() => {
        ensureServerBundle();
        dir = fs.mkdtempSync(path.join(os.tmpdir(), 'umpire-unicode-'));
        fs.writeFileSync(path.join(dir, 'hohenbach.battle'), FILE);
    }, 120_000);

    afterAll(() => {
        session?.kill();
        fs.rmSync(dir, { recursive: true, force: true });
    });

    function umpire(...args: string[]) {
        const r = spawnSync(process.execPath, [path.join(repoRoot, 'bin', 'umpire.cjs'), ...args], { encoding: 'utf8' });
        return { code: r.status, stdout: r.stdout, stderr: r.stderr };
    }

    it('umpire check, resolve --json and resolve --write keep the names exactly', () => {
        const file = path.join(dir, 'hohenbach.battle');
        expect(umpire('check', file)).toEqual(expect.objectContaining({ code: 0, stdout: '0 problems in 1 file\n', stderr: '' }));
        const json = umpire('resolve', file, '--json');
        expect(json.code).toBe(0);
        const units = JSON.stringify(JSON.parse(json.stdout));
        for (const name of ['Français', 'Jäger#1', 'Jäger#2', 'Chasseurs-à-cheval', 'Preußen', 'Füsiliere#1']) expect(units).toContain(name);
        const written = path.join(dir, 'written.battle');
        fs.copyFileSync(file, written);
        expect(umpire('resolve', written, '--write').code).toBe(0);
        const text = fs.readFileSync(written, 'utf8');
        expect(text.startsWith(FILE.slice(0, FILE.indexOf('  seed 1806')))).toBe(true);
        expect(text).toMatch(/^ {4}Français\.Jäger#2: /m);
        expect(text).toMatch(/^ {4}Preußen\.Füsiliere#1: /m);
        // What was written reads back: clean, and the outcome is current.
        expect(umpire('check', written)).toEqual(expect.objectContaining({ code: 0, stdout: '0 problems in 1 file\n', stderr: '' }));
    });

    it('over LSP: no problems, Resolve writes the names, and rename renames them', async () => {
        session = new LspSession(dir);
        await session.initialize();
        const uri = await session.open('hohenbach.battle');
        expect(await session.diagnosticsFor(uri)).toEqual([]);
        const lens = (await session.codeLenses(uri))!.find(l => l.command?.title === 'Resolve')!;
        const result = await session.executeCommand(lens.command!.command, lens.command!.arguments) as ResolveCommandResult;
        expect(result.applied).toBe(true);
        const resolved = session.document(uri).getText();
        expect(resolved).toMatch(/^ {4}Français\.Jäger#1: /m);

        const at = session.document(uri).positionAt(resolved.indexOf('Jäger foot'));
        const edit: WorkspaceEdit | null = await session.connection.sendRequest(RenameRequest.type, { textDocument: { uri }, position: at, newName: 'Voltigeurs' });
        const edits = edit?.changes?.[uri] ?? (edit?.documentChanges ?? []).filter(TextDocumentEdit.is).flatMap(c => c.edits as TextEdit[]);
        const renamed = TextDocument.applyEdits(session.document(uri), edits);
        expect(renamed).toBe(resolved.replaceAll('Jäger', 'Voltigeurs'));
    }, 60_000);
});
