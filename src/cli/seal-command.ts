/**
 * Sealed dice on the command line (docs/campaigns.md#sealed-dice): `umpire seal --secret-file F`
 * prints the seal line for a secret (making a new secret when F does not exist yet), `umpire verify
 * FILE` recomputes every seed from the published secret and replays every outcome, and
 * `resolve --write --secret-file F` draws sealed seeds. The secret is read from its own file and never
 * written into the scenario.
 */
import * as fs from 'node:fs';
import { modelOf } from '../core/model-cache.js';
import type { ActionModel, ScenarioModel } from '../core/scenario.js';
import { commitmentOf, newSecret, revealOf, sealedSeedSource, sealOf, secretProblem, secretText, verifySeal } from '../core/seal.js';
import { CliError, formatDiagnostic, hasErrors, inFileOrder, loadFile } from './load.js';

/** The secret in `secretFile`; a CliError when it cannot be read or is empty. */
function readSecret(secretFile: string): string {
    let raw: string;
    try {
        raw = fs.readFileSync(secretFile, 'utf8');
    } catch (err) {
        const code = (err as NodeJS.ErrnoException).code;
        throw new CliError(`${secretFile}: ${code === 'ENOENT' ? 'no such secret file' : `the secret file cannot be read (${code ?? err})`}`, 2);
    }
    if (secretText(raw) === '') throw new CliError(`${secretFile}: the secret file is empty`, 1);
    return secretText(raw);
}

/**
 * Where a resolve that writes gets its new seeds from: for a sealed file, the seal (the secret must
 * open it); for one that is not sealed, `fallback`. A sealed file without its secret may still be
 * resolved where no new seed is needed; one that needs a seed says how to give the secret.
 */
export async function seedSourceFor(file: string, model: ScenarioModel, secretFile: string | undefined, fallback: () => number): Promise<(action: ActionModel, reroll: number) => number> {
    if (sealOf(model) === undefined) {
        if (secretFile !== undefined) throw new CliError(`${file} is not sealed: --secret-file is only for a file with a seal "sha256:…" line (docs/campaigns.md#sealed-dice)`, 1);
        return fallback;
    }
    if (secretFile === undefined) {
        return action => {
            throw new CliError(`${file} is sealed: '${action.node.name}' needs a new seed, which only the seal's secret gives. Run again with --secret-file FILE (docs/campaigns.md#sealed-dice).`, 1);
        };
    }
    const secret = readSecret(secretFile);
    const problem = await secretProblem(model, secret);
    if (problem) throw new CliError(`${file}: ${secretFile}: ${problem}`, 1);
    return sealedSeedSource(secret, model);
}

/** `umpire seal --secret-file F`: the line that seals a campaign to the secret in F. */
export async function sealCommand(options: { secretFile?: string }, out: (line: string) => void, err: (line: string) => void = line => process.stderr.write(line + '\n')): Promise<number> {
    if (options.secretFile === undefined) throw new CliError('umpire seal needs --secret-file FILE: the file that holds (or will hold) the secret', 1);
    if (!fs.existsSync(options.secretFile)) {
        fs.writeFileSync(options.secretFile, newSecret() + '\n', { mode: 0o600, flag: 'wx' });
        err(`umpire: made a new secret in ${options.secretFile}: keep it, away from the players and out of the scenario, until the campaign is over.`);
    }
    out(`seal "${await commitmentOf(readSecret(options.secretFile))}"`);
    return 0;
}

/** `umpire verify FILE [--secret-file F]`: every action verified, altered or not sealed; exit 1 on any failure. */
export async function verifyCommand(file: string, options: { secretFile?: string }, out: (line: string) => void): Promise<number> {
    const loaded = await loadFile(file);
    const parse = loaded.document.parseResult;
    if (parse.lexerErrors.length > 0 || parse.parserErrors.length > 0) {
        for (const d of inFileOrder(loaded.diagnostics).filter(x => (x.severity ?? 1) === 1)) out(formatDiagnostic(file, d));
        throw new CliError(`${file}: fix the syntax errors above before verifying`, 1);
    }
    // Other errors (an outcome edited by hand, say) do not stop the verdicts: they are what a player looks for.
    if (hasErrors(loaded.diagnostics)) process.stderr.write(`umpire: ${file} has errors ('umpire check ${file}' lists them); each action is verified as the file stands.
`);
    const model = modelOf(parse.value);
    if (sealOf(model) === undefined) throw new CliError(`${file} is not sealed: it has no seal "sha256:…" line, so its seeds cannot be verified`, 1);
    const secret = options.secretFile !== undefined ? readSecret(options.secretFile) : revealOf(model);
    if (secret === undefined) throw new CliError(`${file}: the secret is not published: give it with --secret-file FILE, or the umpire adds reveal "…" under the seal`, 1);
    const result = await verifySeal(model, secret);
    if ('problem' in result) throw new CliError(`${file}: ${result.problem}`, 1);
    const counts = { verified: 0, altered: 0, 'not sealed': 0 };
    for (const v of result.verdicts) {
        counts[v.verdict]++;
        out(v.verdict === 'verified' ? `${v.action}: verified`
            : v.verdict === 'altered' ? `${v.action}: altered: ${v.detail}`
            : `${v.action}: not sealed (${v.detail})`);
    }
    out(`${file}: ${counts.verified} verified, ${counts.altered} altered, ${counts['not sealed']} not sealed.`);
    return counts.altered > 0 ? 1 : 0;
}
