/**
 * Sealed dice through the shipped language server: a sealed campaign resolved in the editor (the
 * secret read from the file `umpire.seal.secretFile` names) gets the same seeds as the CLI, and the
 * CLI's `umpire verify` verifies it; changing any outcome, any seed, or re-rolling without it being
 * recorded makes `umpire verify` fail and name the action. Without the secret, or with a wrong one,
 * nothing is resolved and the umpire is told why.
 */
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureServerBundle, LspSession, repoRoot, type ResolveAllResult, type ResolveCommandResult } from './lsp-harness.js';
import type { VerifyAnswer } from '../../src/protocol.js';

const FIXTURE = path.join(repoRoot, 'test', 'fixtures', 'seal', 'unresolved.battle');
const SECRET = fs.readFileSync(path.join(repoRoot, 'examples', 'sealed.secret'), 'utf8');

let workspace: string;
let session: LspSession;
let uri: string;

function cli(...args: string[]) {
    const r = spawnSync(process.execPath, [path.join(repoRoot, 'bin', 'umpire.cjs'), ...args], { encoding: 'utf8', cwd: workspace });
    return { code: r.status, out: r.stdout, err: r.stderr };
}

/** Saves the editor's text, changed by `edit`, as a copy, and verifies it with the CLI. */
function verifyCopy(edit: (text: string) => string) {
    const copy = path.join(workspace, 'copy.battle');
    fs.writeFileSync(copy, edit(session.document(uri).getText()));
    return cli('verify', 'copy.battle', '--secret-file', 'campaign.secret');
}

const resolveAll = async () => await session.executeCommand('umpire.resolveAll', [{ uri, version: session.document(uri).version }]) as ResolveAllResult;

beforeAll(async () => {
    ensureServerBundle();
    workspace = fs.mkdtempSync(path.join(os.tmpdir(), 'umpire-sealed-'));
    fs.copyFileSync(FIXTURE, path.join(workspace, 'campaign.battle'));
    fs.copyFileSync(FIXTURE, path.join(workspace, 'no-secret.battle'));
    fs.writeFileSync(path.join(workspace, 'campaign.secret'), SECRET);
    fs.writeFileSync(path.join(workspace, 'wrong.secret'), 'not the secret\n');
    session = new LspSession(workspace, { settings: { seal: { secretFile: 'campaign.secret' } } });
    await session.initialize();
    uri = await session.open('campaign.battle');
    expect(await session.diagnosticsFor(uri)).toEqual([]);
}, 60000);

afterAll(() => {
    session?.kill();
    if (workspace) fs.rmSync(workspace, { recursive: true, force: true });
});

describe('a sealed campaign in the editor', () => {
    it('Resolve all draws the seal\'s seeds: the same outcomes as the CLI writes, and umpire verify verifies them', async () => {
        const all = await resolveAll();
        expect(all.applied).toBe(true);
        expect(all.resolved.map(r => r.action).sort()).toEqual(['Ford', 'Mill', 'Orchard']);
        const text = session.document(uri).getText();
        expect(await session.diagnosticsFor(uri)).toEqual([]);
        // The CLI with the same secret writes the very same file.
        fs.copyFileSync(FIXTURE, path.join(workspace, 'by-cli.battle'));
        expect(cli('resolve', 'by-cli.battle', '--write', '--secret-file', 'campaign.secret').code).toBe(0);
        expect(fs.readFileSync(path.join(workspace, 'by-cli.battle'), 'utf8')).toBe(text);
        // And the outcomes are those of the published example.
        const example = fs.readFileSync(path.join(repoRoot, 'examples', 'sealed.battle'), 'utf8');
        for (const seed of text.match(/outcome seed [0-9]+/g)!) expect(example).toContain(seed);
        const verified = verifyCopy(t => t);
        expect(verified.out).toBe('Ford: verified\nMill: verified\nOrchard: not sealed (its dice were entered at the table)\ncopy.battle: 2 verified, 0 altered, 1 not sealed.\n');
        expect(verified.code).toBe(0);
    });

    it('Re-roll draws the seal\'s seed for one more re-roll, which the outcome records, and it still verifies', async () => {
        const lens = (await session.codeLenses(uri))!.find(l => l.command?.title === 'Re-roll' && (l.command.arguments![0] as { action: string }).action === 'Ford')!;
        const result = await session.executeCommand(lens.command!.command, lens.command!.arguments) as ResolveCommandResult;
        expect(result.applied).toBe(true);
        expect(session.document(uri).getText()).toContain(`outcome seed ${result.seed} reroll 1 check`);
        const verified = verifyCopy(t => t);
        expect(verified.out).toContain('Ford: verified\n');
        expect(verified.code).toBe(0);
        // The editor answers the same verdicts (the playground asks it so).
        const answer = await session.executeCommand('umpire.verify', [{ uri, secret: SECRET }]) as VerifyAnswer;
        expect(answer).toEqual({ verdicts: [
            { action: 'Ford', verdict: 'verified', detail: '' },
            { action: 'Mill', verdict: 'verified', detail: '' },
            { action: 'Orchard', verdict: 'not sealed', detail: 'its dice were entered at the table' }
        ] });
    });

    it('a re-roll not recorded, a changed seed, or a changed outcome fails umpire verify, which names the action', () => {
        const unrecorded = verifyCopy(t => t.replace(/ reroll 1 check/, ' check'));
        expect(unrecorded.code).toBe(1);
        expect(unrecorded.out).toMatch(/^Ford: altered: seed [0-9]+ is the seal's seed for re-roll 1, but the outcome records its first throw: a re-roll that was not recorded$/m);
        const seed = /outcome seed ([0-9]+) check/.exec(session.document(uri).getText())!;
        const otherSeed = verifyCopy(t => t.replace(seed[0], `outcome seed ${Number(seed[1]) + 1} check`));
        expect(otherSeed.code).toBe(1);
        expect(otherSeed.out).toMatch(/^Mill: altered: seed [0-9]+ is not the seal's seed for its first throw \(the seal gives [0-9]+\)$/m);
        const line = /Austrian\.Grenz#2: rout, die 1/;
        expect(session.document(uri).getText()).toMatch(line);
        const outcome = verifyCopy(t => t.replace(line, 'Austrian.Grenz#2: retire, die 1'));
        expect(outcome.code).toBe(1);
        expect(outcome.out).toMatch(/^Mill: altered: the outcome reads "Austrian\.Grenz#2: retire, die 1, .*" where its dice give "Austrian\.Grenz#2: rout, die 1, .*"$/m);
        // A secret that does not open the seal is an error, not a verdict.
        const wrong = cli('verify', 'copy.battle', '--secret-file', 'wrong.secret');
        expect(wrong.code).toBe(1);
        expect(wrong.err).toMatch(/the secret does not match the seal: its commitment is sha256:[0-9a-f]{64}, the file's seal is sha256:de3205d3/);
    });

    it('without the secret, Resolve refuses and says how to give it', async () => {
        const bare = new LspSession(workspace);
        try {
            await bare.initialize();
            const other = await bare.open('no-secret.battle');
            await bare.diagnosticsFor(other);
            const result = await bare.executeCommand('umpire.resolve', [{ uri: other, version: 1, action: 'Ford' }]) as ResolveCommandResult & { reason?: string };
            expect(result.applied).toBe(false);
            expect(result.reason).toMatch(/^This campaign is sealed: .*Set umpire\.seal\.secretFile to the file that holds it/);
            expect(bare.document(other).getText()).toBe(fs.readFileSync(FIXTURE, 'utf8'));
        } finally {
            bare.kill();
        }
    });
});
