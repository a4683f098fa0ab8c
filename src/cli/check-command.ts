import { formatDiagnostic, hasErrors, inFileOrder, loadFile } from './load.js';

/**
 * `umpire check FILE…`: one located line per problem (what a problem matcher reads), then one line
 * that says how it went, also when nothing is wrong: `0 problems in 1 file`. All on stdout, in that
 * order, however the output is captured. Exit 1 when any file has an error.
 */
export async function checkCommand(files: string[], out: (line: string) => void, tell: (line: string) => void = out): Promise<number> {
    let failed = false;
    const counts = { error: 0, warning: 0, info: 0 };
    for (const file of files) {
        // Checked once: nothing is kept for a next build (src/cli/load.ts).
        const loaded = await loadFile(file, { once: true });
        for (const d of inFileOrder(loaded.diagnostics)) {
            out(formatDiagnostic(file, d));
            const severity = d.severity === 2 ? 'warning' : d.severity === 1 || d.severity === undefined ? 'error' : 'info';
            counts[severity]++;
        }
        if (hasErrors(loaded.diagnostics)) failed = true;
    }
    tell(summary(counts, files.length));
    return failed ? 1 : 0;
}

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

function summary(counts: { error: number, warning: number, info: number }, files: number): string {
    const total = counts.error + counts.warning + counts.info;
    const parts = (['error', 'warning', 'info'] as const).filter(k => counts[k] > 0).map(k => k === 'info' ? `${counts.info} info` : plural(counts[k], k));
    return `${plural(total, 'problem')}${total > 0 ? ` (${parts.join(', ')})` : ''} in ${plural(files, 'file')}`;
}
