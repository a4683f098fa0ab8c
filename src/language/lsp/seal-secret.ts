/**
 * Sealed dice in the editor (docs/campaigns.md#sealed-dice): Resolve, Re-roll and Resolve all on a
 * sealed file draw their seeds from the umpire's secret, read from the file the setting
 * `umpire.seal.secretFile` names (relative to the scenario's folder); without it, or with a secret
 * that does not open the seal, nothing is resolved and the umpire is told why. `umpire.verify`
 * answers every action's verdict, from a secret given with the request, the file's `reveal`, or the
 * setting's file (the playground gives it with the request).
 */
import { URI, UriUtils } from 'langium';
import type { LangiumSharedServices } from 'langium/lsp';
import type { ActionModel, ScenarioModel } from '../../core/scenario.js';
import { revealOf, sealedSeedSource, sealOf, secretProblem, secretText, verifySeal, type ActionVerdict } from '../../core/seal.js';
import { umpireSetting } from './settings.js';

type Draw = (action: ActionModel, reroll: number) => number;

/** `C:\…`, `\\server\…` or `/…`: a path that does not depend on the scenario's folder. */
function isAbsolutePath(file: string): boolean {
    return file.startsWith('/') || /^[A-Za-z]:[\\/]/.test(file) || file.startsWith('\\\\');
}

/** The secret in the file `umpire.seal.secretFile` names, or why there is none. */
async function secretFromSetting(shared: LangiumSharedServices, uri: string): Promise<string | { problem: string }> {
    const file = await umpireSetting(shared, 'seal.secretFile', '');
    if (file === '') {
        return { problem: 'This campaign is sealed: its new seeds come from the umpire\'s secret, which the editor does not have. Set umpire.seal.secretFile to the file that holds it (docs/campaigns.md#sealed-dice).' };
    }
    const target = isAbsolutePath(file) ? URI.file(file) : UriUtils.resolvePath(UriUtils.dirname(URI.parse(uri)), file);
    try {
        const secret = secretText(await shared.workspace.FileSystemProvider.readFile(target));
        return secret === '' ? { problem: `The secret file ${file} (umpire.seal.secretFile) is empty.` } : secret;
    } catch (err) {
        return { problem: `The secret file ${file} (umpire.seal.secretFile) cannot be read: ${err instanceof Error ? err.message : String(err)}` };
    }
}

/**
 * How new seeds are drawn for `model`: undefined when it is not sealed (the usual random seeds),
 * the sealed seeds when the secret opens its seal, or why it cannot be resolved.
 */
export async function sealedDraw(shared: LangiumSharedServices, uri: string, model: ScenarioModel): Promise<{ draw: Draw } | { problem: string } | undefined> {
    if (sealOf(model) === undefined) return undefined;
    const secret = await secretFromSetting(shared, uri);
    if (typeof secret !== 'string') return secret;
    const problem = await secretProblem(model, secret);
    if (problem) return { problem: `This campaign is sealed, but ${problem} (umpire.seal.secretFile): nothing was resolved.` };
    return { draw: await sealedSeedSource(secret, model) };
}

/** `umpire.verify`: every action's verdict under the secret given, the file's reveal, or the setting's file. */
export async function verifyVerdicts(shared: LangiumSharedServices, uri: string, model: ScenarioModel, given: string | undefined): Promise<{ problem: string } | { verdicts: ActionVerdict[] }> {
    if (sealOf(model) === undefined) return { problem: 'This file is not sealed: it has no seal "sha256:…" line.' };
    let secret = given !== undefined && secretText(given) !== '' ? given : revealOf(model);
    if (secret === undefined) {
        const fromSetting = await secretFromSetting(shared, uri);
        if (typeof fromSetting !== 'string') return { problem: 'The secret is not published (no reveal "…" line): give it to verify the seeds.' };
        secret = fromSetting;
    }
    return verifySeal(model, secret);
}
