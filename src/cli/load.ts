/**
 * Loads .battle files the way the language server does: parse, link and validate with the same
 * services, so that the CLI reports exactly what the editor shows.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { URI, type LangiumDocument } from 'langium';
import { NodeFileSystem } from 'langium/node';
import type { Diagnostic } from 'vscode-languageserver';
// The language's services without the editor's providers: a command loads no LSP code (battle-core-module.ts).
import { createBattleCoreServices, type BattleCoreServices } from '../language/battle-core-module.js';
import type { Scenario } from '../language/generated/ast.js';

let services: BattleCoreServices | undefined;
let oneShotServices: BattleCoreServices | undefined;

/**
 * `once`: the file is checked and never edited in this process (`umpire check`), so the services
 * keep nothing for a next build of it. The commands that check edited texts again (`resolve
 * --write`, `odds` of an engagement) share the others, which keep each action's problems.
 */
function battleServices(once = false): BattleCoreServices {
    if (once) {
        oneShotServices ??= createBattleCoreServices({ ...NodeFileSystem, oneShot: true }).Battle;
        return oneShotServices;
    }
    services ??= createBattleCoreServices(NodeFileSystem).Battle;
    return services;
}

export interface LoadedFile {
    file: string;
    text: string;
    /** The bytes read, when the text came from disk (`resolve --write` checks them again before writing). */
    bytes?: Buffer;
    document: LangiumDocument<Scenario>;
    diagnostics: Diagnostic[];
}

export class CliError extends Error {
    constructor(message: string, readonly exitCode = 2) {
        super(message);
    }
}

/** Reads, parses and validates one file. A file that cannot be read is a CliError, not a stack trace. */
export async function loadFile(file: string, options: { once?: boolean } = {}): Promise<LoadedFile> {
    let bytes: Buffer;
    try {
        bytes = fs.readFileSync(file);
    } catch (err) {
        const code = (err as NodeJS.ErrnoException).code;
        throw new CliError(code === 'ENOENT' ? `${file}: no such file` : code === 'EISDIR' ? `${file}: is a folder, not a .battle file` : `${file}: cannot be read (${code ?? err})`);
    }
    return { ...await loadText(file, bytes.toString('utf8'), options), bytes };
}

export async function loadText(file: string, text: string, options: { once?: boolean } = {}): Promise<LoadedFile> {
    const svc = battleServices(options.once);
    // Langium picks the language by the file's extension: a scenario kept as `notes.txt` (or read
    // from /dev/stdin) is checked as .battle, and its problems still name the file as given.
    const resolved = path.resolve(file);
    const uri = URI.file(resolved.endsWith('.battle') ? resolved : `${resolved}.battle`);
    const documents = svc.shared.workspace.LangiumDocuments;
    if (documents.hasDocument(uri)) documents.deleteDocument(uri);
    const document = svc.shared.workspace.LangiumDocumentFactory.fromString<Scenario>(text, uri);
    documents.addDocument(document);
    await svc.shared.workspace.DocumentBuilder.build([document], { validation: true });
    return { file, text, document, diagnostics: document.diagnostics ?? [] };
}

const SEVERITY = ['', 'error', 'warning', 'info', 'hint'];

/** `file:line:col severity code message`, 1-based as editors and compilers print them. */
/**
 * Where a command says why it stopped, and warns of anything about the run: stderr. Its results
 * (tables, outcomes, reports, what it wrote) go to stdout, in order, so that a pipe or a file gets
 * them whole and alone.
 */
export const toStderr = (line: string): void => void process.stderr.write(line + '\n');

export function formatDiagnostic(file: string, d: Diagnostic): string {
    const severity = SEVERITY[d.severity ?? 1] ?? 'error';
    return `${file}:${d.range.start.line + 1}:${d.range.start.character + 1} ${severity} ${d.code ?? 'problem'} ${d.message}`;
}

/** Problems in the order of the file, as `check` and `resolve` both print them. */
export function inFileOrder(diagnostics: readonly Diagnostic[]): Diagnostic[] {
    return [...diagnostics].sort((a, b) => a.range.start.line - b.range.start.line || a.range.start.character - b.range.start.character);
}

export function hasErrors(diagnostics: readonly Diagnostic[]): boolean {
    return diagnostics.some(d => (d.severity ?? 1) === 1);
}
