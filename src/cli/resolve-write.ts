/**
 * `umpire resolve FILE --write`: resolves every action without a current outcome, in file order,
 * each seeing the state the earlier outcomes leave (src/core/resolve-all.ts), and writes the file
 * once, in place, only if it still holds the text resolved (src/cli/atomic-write.ts). Running it again
 * on a fully resolved file changes nothing, byte for byte. Exit codes: docs/campaigns.md.
 */
import { newSeed } from '../core/dice.js';
import { modelOf } from '../core/model-cache.js';
import { seedSourceFor } from './seal-command.js';
import { isDice } from '../language/generated/ast.js';
import { resolveAll, ResolveAllError } from '../core/resolve-all.js';
import { checkLeftoverBackups, EXIT_CODES, replaceFileText, WriteError, type WriteIo, nodeIo } from './atomic-write.js';
import { inMemoryChecks } from '../language/resolve-all-checks.js';
import { CliError, formatDiagnostic, loadFile, loadText, type LoadedFile, inFileOrder, toStderr } from './load.js';
import { printResolution, type ResolveCliOptions } from './resolve-command.js';

export async function resolveWriteCommand(file: string, options: ResolveCliOptions, out: (line: string) => void, io: WriteIo = nodeIo, err: (line: string) => void = toStderr): Promise<number> {
    try {
        // A run killed while writing may have left the file half-written: find that out before reading it.
        checkLeftoverBackups(file, io);
    } catch (err) {
        if (err instanceof WriteError) throw new CliError(err.message, EXIT_CODES[err.kind]);
        throw err;
    }
    io.pause?.('before-read');
    const loaded = await loadFile(file);
    io.pause?.('after-read');
    const original = loaded.text;
    const errorsOf = (l: LoadedFile) => inFileOrder(l.diagnostics).filter(d => (d.severity ?? 1) === 1).map(d => formatDiagnostic(file, d));
    let result;
    try {
        // The file as read is already checked; the outcomes are verified in memory (the file is
        // checked again only if that fails, after each batch of outcomes, to name the one at fault).
        const checkedText = (l: LoadedFile) => ({ root: l.document.parseResult.value, errors: errorsOf(l) });
        const seeds = await seedSourceFor(file, modelOf(loaded.document.parseResult.value), options.secretFile, newSeed);
        result = await resolveAll(original, async text => checkedText(text === original ? loaded : await loadText(file, text)), {
            only: options.engagement, seed: options.seed, newSeed: seeds, checked: checkedText(loaded), inMemory: inMemoryChecks()
        });
    } catch (failure) {
        if (!(failure instanceof ResolveAllError)) throw failure;
        for (const line of failure.errors) err(line);
        throw new CliError(`${file}: ${failure.message}`, 1);
    }
    const changed = result.text !== original;
    if (changed) write(file, result.text, original, loaded.bytes, io);
    // Printed after the write, so that what is said is what is on disk.
    if (options.json) {
        out(JSON.stringify({ file, written: changed, engagements: result.written.map(w => w.resolution.json) }, null, 2));
        return 0;
    }
    const actions = modelOf(loaded.document.parseResult.value).actions;
    for (const w of result.written) {
        const node = actions.find(a => a.node.name === w.action)?.node;
        printResolution(w.resolution, out, w.dice.kind === 'entered' && node !== undefined && !node.statements.some(isDice));
    }
    out(changed
        ? `${file}: wrote ${result.written.length} outcome${result.written.length === 1 ? '' : 's'}.`
        : `${file}: every outcome is written and current; nothing changed.`);
    return 0;
}

function write(file: string, text: string, original: string, read: Buffer | undefined, io: WriteIo): void {
    const bytes = read ?? Buffer.from(original, 'utf8');
    if (!Buffer.from(original, 'utf8').equals(bytes)) {
        // Text that is not UTF-8 would come back with its odd bytes replaced, outside the outcomes too.
        throw new CliError(`${file} is not valid UTF-8 text: writing would change bytes outside the outcomes, so nothing was written.`, EXIT_CODES.refused);
    }
    try {
        replaceFileText(file, text, bytes, io);
    } catch (err) {
        if (err instanceof WriteError) throw new CliError(err.message, EXIT_CODES[err.kind]);
        throw err;
    }
}
