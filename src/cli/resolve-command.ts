import { modelOf } from '../core/model-cache.js';
import { isDice } from '../language/generated/ast.js';
import type { ActionModel, ScenarioModel } from '../core/scenario.js';
import { newSeed } from '../core/dice.js';
import type { Resolution, ResolutionJson } from '../core/resolution.js';
import { isUnresolvable, resolveAction } from '../core/resolve.js';
import { CliError, formatDiagnostic, hasErrors, loadFile, inFileOrder } from './load.js';

export interface ResolveCliOptions {
    engagement?: string;
    seed?: number;
    json?: boolean;
    /** Write missing and stale outcomes into the file (src/cli/resolve-write.ts). */
    write?: boolean;
}

/** The actions a command works on: all of them, or the one named by `--engagement`. */
export function selectActions(model: ScenarioModel, name: string | undefined, file: string): ActionModel[] {
    if (name === undefined) return [...model.actions];
    const picked = model.actions.filter(a => a.node.name === name);
    if (picked.length === 0) {
        const known = model.actions.map(a => a.node.name).join(', ') || 'none';
        throw new CliError(`${file}: no engagement named '${name}' (there are: ${known})`);
    }
    return picked;
}

/** `umpire resolve FILE`: each engagement's outcome, pair by pair, then the summary line. */
export async function resolveCommand(file: string, options: ResolveCliOptions, out: (line: string) => void): Promise<number> {
    const loaded = await loadFile(file);
    if (hasErrors(loaded.diagnostics)) {
        for (const d of inFileOrder(loaded.diagnostics).filter(x => (x.severity ?? 1) === 1)) out(formatDiagnostic(file, d));
        throw new CliError(`${file}: fix the errors above before resolving`, 1);
    }
    const model = modelOf(loaded.document.parseResult.value);
    const results: ResolutionJson[] = [];
    for (const action of selectActions(model, options.engagement, file)) {
        const r = resolveAction(model, action, { seed: options.seed, newSeed });
        if (isUnresolvable(r)) throw new CliError(`${file}: ${r.problem}`, 1);
        results.push(r.resolution.json);
        // The table's dice win over a seed: say so rather than let --seed look ignored.
        if (options.seed !== undefined && r.dice.kind === 'entered') {
            process.stderr.write(`umpire: ${action.node.name}: its dice were entered from the table; --seed ${options.seed} is not used for it.\n`);
        }
        if (!options.json) printResolution(r.resolution, out, r.dice.kind === 'entered' && !action.node.statements.some(isDice));
    }
    if (options.json) out(JSON.stringify({ file, rules: model.rules, engagements: results }, null, 2));
    return 0;
}

/** `noDice`: the action throws none (a formation change, morale, a re-dress), so no dice were entered either. */
export function printResolution(resolution: Resolution, out: (line: string) => void, noDice = false): void {
    const j = resolution.json;
    const turn = j.turn ? `turn ${j.turn} · ` : '';
    out(`${j.kind} ${j.name} (${turn}${j.seed === null ? (noDice ? 'no dice thrown' : 'dice entered') : `seed ${j.seed}`})`);
    for (const line of resolution.text) out(`  ${line}`);
    out(`  Result: ${j.summary}`);
    out('');
}
