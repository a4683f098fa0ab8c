/**
 * `umpire resolve FILE --write`: resolves every action without a current outcome, in file order,
 * each seeing the state the earlier outcomes leave (src/report/resolve-all.ts), and writes the file
 * once, atomically. Running it again on a fully resolved file changes nothing, byte for byte.
 */
import { newSeed } from '../core/dice.js';
import { resolveAll, ResolveAllError } from '../core/resolve-all.js';
import { writeFileAtomic, WriteError, type WriteIo, nodeIo } from './atomic-write.js';
import { CliError, formatDiagnostic, loadFile, loadText } from './load.js';
import { printResolution, type ResolveCliOptions } from './resolve.js';

export async function resolveWriteCommand(file: string, options: ResolveCliOptions, out: (line: string) => void, io: WriteIo = nodeIo): Promise<number> {
    const original = (await loadFile(file)).text;
    let result;
    try {
        result = await resolveAll(original, async text => {
            const loaded = await loadText(file, text);
            const errors = loaded.diagnostics.filter(d => (d.severity ?? 1) === 1).map(d => formatDiagnostic(file, d));
            return { root: loaded.document.parseResult.value, errors };
        }, { only: options.engagement, seed: options.seed, newSeed });
    } catch (err) {
        if (!(err instanceof ResolveAllError)) throw err;
        for (const line of err.errors) out(line);
        throw new CliError(`${file}: ${err.message}`, 1);
    }
    if (options.json) {
        out(JSON.stringify({ file, written: result.text !== original, engagements: result.written.map(w => w.resolution.json) }, null, 2));
    } else {
        for (const w of result.written) printResolution(w.resolution, out);
    }
    if (result.text === original) {
        if (!options.json) out(`${file}: every outcome is written and current; nothing changed.`);
        return 0;
    }
    try {
        writeFileAtomic(file, result.text, original, io);
    } catch (err) {
        if (err instanceof WriteError) throw new CliError(err.message, 1);
        throw err;
    }
    if (!options.json) out(`${file}: wrote ${result.written.length} outcome${result.written.length === 1 ? '' : 's'}.`);
    return 0;
}
