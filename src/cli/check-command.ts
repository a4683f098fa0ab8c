import { formatDiagnostic, hasErrors, loadFile } from './load.js';

/** `umpire check FILE…`: one located line per problem; exit 1 when any file has an error. */
export async function checkCommand(files: string[], out: (line: string) => void): Promise<number> {
    let failed = false;
    for (const file of files) {
        const loaded = await loadFile(file);
        const sorted = [...loaded.diagnostics].sort((a, b) => a.range.start.line - b.range.start.line || a.range.start.character - b.range.start.character);
        for (const d of sorted) out(formatDiagnostic(file, d));
        if (hasErrors(loaded.diagnostics)) failed = true;
    }
    return failed ? 1 : 0;
}
