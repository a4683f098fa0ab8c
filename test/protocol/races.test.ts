/**
 * Races between edits and requests, against the bundled server over stdio:
 * - every answer belongs to the version it names: a burst of quick edits then a formatting request,
 *   at start-up and while editing; the edits returned, applied to the text the request was sent for,
 *   must give exactly the formatted text (computed here, in process, on that same text);
 * - semantic tokens requested for several documents at once, for the same one twice, and after a
 *   cancelled request, must equal the tokens of a quiet request.
 *
 * The trial counts are small in `npm test`; the figure (200 each) is a run of this file with
 * `UMPIRE_RACE_TRIALS=200 npx vitest run test/protocol/races.test.ts`.
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { DocumentState, EmptyFileSystem, OperationCancelled, URI } from 'langium';
import { AbstractFormatter } from 'langium/lsp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
    CancellationTokenSource, DocumentFormattingRequest, LSPErrorCodes, ResponseError, SemanticTokensRequest, type SemanticTokens, type TextEdit
} from 'vscode-languageserver-protocol/node';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { createBattleServices } from '../../src/language/battle-module.js';
import { ensureServerBundle, LspSession, repoRoot } from './lsp-harness.js';
import { seeded } from '../support/seeded.js';

const TRIALS = Number(process.env.UMPIRE_RACE_TRIALS ?? 0);
const { shared, Battle: services } = createBattleServices(EmptyFileSystem);

/** A scenario laid out badly on purpose, so that formatting it has many edits all over the file. */
function messyScenario(forces: number): string {
    const lines = ['scenario "Race"', 'rules scrud', 'grade Line 0', 'grade Elite   +1', 'modifier Tired -1'];
    for (let f = 0; f < forces; f++) {
        lines.push(`force F${f} {unit U0 foot Line x2`);
        for (let u = 1; u < 6; u++) lines.push(`      unit U${u}   foot Line x2 // unit ${u}`);
        lines.push('}');
    }
    lines.push('engagement E {', 'F0 attacks F1', '  factor Tired on F0.U1#2', 'seed 7 }');
    return lines.join('\n') + '\n';
}

/** A quick edit somewhere in the file that moves what follows it: lines added, removed, or a name changed. */
function mutate(text: string, random: () => number): string {
    const lines = text.split('\n');
    const at = 5 + Math.floor(random() * (lines.length - 10));
    const kind = Math.floor(random() * 3);
    if (kind === 0) lines.splice(at, 0, `  unit N${Math.floor(random() * 1e6)} horse Elite x3`);
    else if (kind === 1 && /^\s+unit /.test(lines[at])) lines.splice(at, 1);
    else lines[at] = lines[at].replace(/U(\d)/, (_, d: string) => `Renamed${d}_${Math.floor(random() * 100)}`);
    return lines.join('\n');
}

const FORMAT = { tabSize: 2, insertSpaces: true };

/** The formatted text, computed in process on exactly this text (parsed only: formatting needs no more). */
async function formattedInProcess(text: string): Promise<string> {
    const doc = shared.workspace.LangiumDocumentFactory.fromString(text, URI.parse('file:///in-process/expected.battle'));
    const edits = await services.lsp.Formatter!.formatDocument(doc, { textDocument: { uri: doc.uri.toString() }, options: FORMAT });
    return TextDocument.applyEdits(doc.textDocument, edits);
}

interface TrialResult { corrupted: number, refused: number, trials: number, firstProblem?: string }

/**
 * One trial: `burst` quick edits sent without waiting, then a formatting request; the answer is applied
 * to the text of the last version, as an editor applying format-on-save would.
 */
async function burstThenFormat(session: LspSession, uri: string, burst: number, random: () => number, result: TrialResult, spaced = true): Promise<void> {
    let text = session.document(uri).getText();
    for (let i = 0; i < burst; i++) {
        text = mutate(text, random);
        void session.change(uri, text);
        // Keystrokes a few milliseconds apart land in the middle of the server's builds.
        if (spaced && random() < 0.5) await new Promise(resolve => setTimeout(resolve, Math.floor(random() * 4)));
    }
    const sent = session.document(uri);
    result.trials++;
    let edits: TextEdit[] | null;
    try {
        edits = await session.answerWithin(`formatting version ${sent.version}`,
            session.connection.sendRequest(DocumentFormattingRequest.type, { textDocument: { uri }, options: FORMAT }));
    } catch (err) {
        // A request never answered, or a server gone, ends the test now with its reason.
        if (!(err instanceof ResponseError)) throw err;
        // Refusing is allowed (the client asks again); answering wrongly is not.
        result.refused++;
        result.firstProblem ??= `refused: ${String(err)}`;
        return;
    }
    const got = TextDocument.applyEdits(sent, edits ?? []);
    const expected = await formattedInProcess(sent.getText());
    if (got !== expected) {
        result.corrupted++;
        result.firstProblem ??= `version ${sent.version}: got\n${got.slice(0, 600)}\n…expected\n${expected.slice(0, 600)}`;
    }
}

describe('in process: a request in the window between an edit and its build', () => {
    const uri = URI.parse('file:///in-process/editor.battle');
    const before = messyScenario(8);
    const after = messyScenario(8).replace('force F2 {', 'force Inserted {unit A foot}\nforce F2 {').replace(/unit U3 {3}foot/g, 'unit Umbenannt3 foot');

    /** The editor holds version 1, built; then the editor's text becomes version 2, not yet built. */
    async function editedNotBuilt() {
        const editor = TextDocument.create(uri.toString(), 'battle', 1, before);
        shared.workspace.TextDocuments.set(editor);
        await shared.workspace.DocumentBuilder.update([uri], []);
        const document = shared.workspace.LangiumDocuments.getDocument(uri)!;
        expect(document.state).toBe(DocumentState.Validated);
        // In place, as the language server's text documents are updated on didChange.
        TextDocument.update(editor, [{ text: after }], 2);
        return { editor, document };
    }

    it('can fail: formatting the older tree against the newer text corrupts it', async () => {
        const { editor, document } = await editedNotBuilt();
        // Langium's own entry point, without the wait: the race the issue measured.
        const stale = AbstractFormatter.prototype.formatDocument.call(services.lsp.Formatter, document, { textDocument: { uri: uri.toString() }, options: FORMAT }) as TextEdit[];
        const applied = (() => { try { return TextDocument.applyEdits(editor, stale); } catch (err) { return String(err); } })();
        expect(applied).not.toBe(await formattedInProcess(after));
        await shared.workspace.DocumentBuilder.update([uri], []);
    });

    it('formatting, rename and code actions wait for the build of the current version, then answer for it', async () => {
        const { editor, document } = await editedNotBuilt();
        const settled: string[] = [];
        const formatting = Promise.resolve(services.lsp.Formatter!.formatDocument(document, { textDocument: { uri: uri.toString() }, options: FORMAT }))
            .then(edits => { settled.push('format'); return edits; });
        const at = editor.positionAt(after.indexOf('Umbenannt3'));
        const renaming = Promise.resolve(services.lsp.RenameProvider!.rename(document, { textDocument: { uri: uri.toString() }, position: at, newName: 'Neu' }))
            .then(edit => { settled.push('rename'); return edit; });
        const fixing = Promise.resolve(services.lsp.CodeActionProvider!.getCodeActions(document, { textDocument: { uri: uri.toString() }, range: { start: at, end: at }, context: { diagnostics: [] } }))
            .then(actions => { settled.push('actions'); return actions; });
        await new Promise(resolve => setTimeout(resolve, 50));
        expect(settled).toEqual([]);
        await shared.workspace.DocumentBuilder.update([uri], []);
        expect(TextDocument.applyEdits(editor, await formatting)).toBe(await formattedInProcess(after));
        const renamed = TextDocument.applyEdits(editor, (await renaming)?.changes?.[uri.toString()] ?? []);
        expect(renamed).toBe(after.replace('Umbenannt3', 'Neu')); // F0's unit only: units are named per force
        expect(await fixing).toEqual([]);
    });

    it('at start-up: a file read from disk, then opened in the editor with other text, is formatted only once that text is built', async () => {
        const disk = URI.parse('file:///in-process/from-disk.battle');
        const read = shared.workspace.LangiumDocumentFactory.fromString(before, disk);
        shared.workspace.LangiumDocuments.addDocument(read);
        await shared.workspace.DocumentBuilder.build([read]);
        // didOpen with unsaved text, not yet built: the tree is still the one read from disk.
        const editor = TextDocument.create(disk.toString(), 'battle', 7, after);
        shared.workspace.TextDocuments.set(editor);
        let settled = false;
        const formatting = Promise.resolve(services.lsp.Formatter!.formatDocument(read, { textDocument: { uri: disk.toString() }, options: FORMAT }))
            .then(edits => { settled = true; return edits; });
        await new Promise(resolve => setTimeout(resolve, 50));
        expect(settled).toBe(false);
        await shared.workspace.DocumentBuilder.update([disk], []);
        expect(TextDocument.applyEdits(editor, await formatting)).toBe(await formattedInProcess(after));
    });

    it('refuses with ContentModified when the editor moves on before its version is built, and stops when cancelled', async () => {
        const { editor, document } = await editedNotBuilt();
        const formatting = Promise.resolve(services.lsp.Formatter!.formatDocument(document, { textDocument: { uri: uri.toString() }, options: FORMAT }));
        TextDocument.update(editor, [{ text: after + '\n' }], 3);
        await shared.workspace.DocumentBuilder.update([uri], []);
        await expect(formatting).rejects.toMatchObject({ code: LSPErrorCodes.ContentModified });

        TextDocument.update(editor, [{ text: before }], 4);
        const cancel = new CancellationTokenSource();
        const cancelled = Promise.resolve(services.lsp.Formatter!.formatDocument(document, { textDocument: { uri: uri.toString() }, options: FORMAT }, cancel.token));
        cancel.cancel();
        await expect(cancelled).rejects.toBe(OperationCancelled);
        await shared.workspace.DocumentBuilder.update([uri], []);
    });
});

let workspace: string;

beforeAll(() => {
    ensureServerBundle();
    workspace = fs.mkdtempSync(path.join(os.tmpdir(), 'umpire-races-'));
    // A workspace with some files in it, as an umpire's campaign folder: the server reads them all at start-up.
    fs.cpSync(path.join(repoRoot, 'examples'), path.join(workspace, 'examples'), { recursive: true });
    fs.writeFileSync(path.join(workspace, 'race.battle'), messyScenario(60));
    fs.writeFileSync(path.join(workspace, 'other.battle'), messyScenario(12).replaceAll('F', 'Army'));
}, 120_000);

afterAll(() => {
    if (workspace) fs.rmSync(workspace, { recursive: true, force: true });
});

describe('formatting answers for the version it was asked about', () => {
    it(`right after start-up: a burst of edits then formatting, ${TRIALS ? Math.ceil(TRIALS / 10) : 3} fresh servers × 10 trials`, async () => {
        const result: TrialResult = { corrupted: 0, refused: 0, trials: 0 };
        const servers = TRIALS ? Math.ceil(TRIALS / 10) : 3;
        for (let s = 0; s < servers; s++) {
            const session = new LspSession(workspace);
            try {
                const random = seeded(1000 + s);
                // No waiting after `initialize`: the server is still reading the workspace when the edits arrive.
                await session.initialize();
                const uri = await session.open('race.battle');
                // The first burst arrives all at once while the server is still reading the workspace from disk.
                for (let t = 0; t < 10; t++) await burstThenFormat(session, uri, t === 0 ? 55 : 5 + Math.floor(random() * 20), random, result, t > 0);
                await session.shutdown();
            } finally {
                session.kill();
            }
        }
        console.log(`format after a burst at start-up: ${result.trials} trials, ${result.corrupted} corrupted, ${result.refused} refused`);
        expect(result.firstProblem).toBeUndefined();
        expect(result.corrupted).toBe(0);
    }, 600_000);

    it(`while editing: a burst of edits then formatting, ${TRIALS || 20} trials`, async () => {
        const result: TrialResult = { corrupted: 0, refused: 0, trials: 0 };
        const session = new LspSession(workspace);
        try {
            await session.initialize();
            const uri = await session.open('race.battle');
            await session.diagnosticsFor(uri);
            const random = seeded(7);
            for (let t = 0; t < (TRIALS || 20); t++) await burstThenFormat(session, uri, 1 + Math.floor(random() * 30), random, result);
            await session.shutdown();
        } finally {
            session.kill();
        }
        console.log(`format after a burst while editing: ${result.trials} trials, ${result.corrupted} corrupted, ${result.refused} refused`);
        expect(result.firstProblem).toBeUndefined();
    }, 600_000);
});

describe('semantic tokens requested concurrently', () => {
    let session: LspSession;
    let race: string, other: string;

    beforeAll(async () => {
        session = new LspSession(workspace);
        await session.initialize();
        race = await session.open('race.battle');
        other = await session.open('other.battle');
        await session.diagnosticsFor(race);
        await session.diagnosticsFor(other);
    }, 60_000);

    afterAll(() => session?.kill());

    function tokens(uri: string, token?: CancellationTokenSource): Promise<SemanticTokens | null> {
        return session.connection.sendRequest(SemanticTokensRequest.type, { textDocument: { uri } }, token?.token);
    }

    it(`are the same as a quiet request's: two documents at once, the same one twice, after a cancelled one (${TRIALS || 20} trials each)`, async () => {
        const quietRace = (await tokens(race))!.data;
        const quietOther = (await tokens(other))!.data;
        expect(quietRace.length).toBeGreaterThan(1000);
        expect(quietOther).not.toEqual(quietRace);
        let wrong = 0, answered = 0;
        for (let t = 0; t < (TRIALS || 20); t++) {
            const [a, b] = await Promise.all([tokens(race), tokens(other)]);
            const [c, d] = await Promise.all([tokens(race), tokens(race)]);
            const cancelled = new CancellationTokenSource();
            const first = tokens(race, cancelled).catch(() => null);
            setTimeout(() => cancelled.cancel(), 1);
            const e = await tokens(other);
            await first;
            for (const [got, want] of [[a, quietRace], [b, quietOther], [c, quietRace], [d, quietRace], [e, quietOther]] as const) {
                answered++;
                if (JSON.stringify(got?.data) !== JSON.stringify(want)) wrong++;
            }
        }
        console.log(`semantic tokens: ${answered} concurrent answers, ${wrong} wrong`);
        expect(wrong).toBe(0);
    }, 300_000);
});
