import { modelOf } from '../core/model-cache.js';
import { isDice } from '../language/generated/ast.js';
import { turnLabel, type ActionModel, type ScenarioModel } from '../core/scenario.js';
import { newSeed } from '../core/dice.js';
import type { Resolution, ResolutionJson } from '../core/resolution.js';
import { isUnresolvable, needsNewSeed, resolveAction } from '../core/resolve.js';
import { waitsOn } from '../core/campaign-state.js';
import { CliError, formatDiagnostic, hasErrors, loadFile, inFileOrder, toStderr } from './load.js';

export interface ResolveCliOptions {
    engagement?: string;
    seed?: number;
    json?: boolean;
    /** Write missing and stale outcomes into the file (src/cli/resolve-write.ts). */
    write?: boolean;
    /** The secret of a sealed campaign, for the seeds `--write` draws (docs/campaigns.md#sealed-dice). */
    secretFile?: string;
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
export async function resolveCommand(file: string, options: ResolveCliOptions, out: (line: string) => void, err: (line: string) => void = toStderr): Promise<number> {
    const loaded = await loadFile(file);
    if (hasErrors(loaded.diagnostics)) {
        for (const d of inFileOrder(loaded.diagnostics).filter(x => (x.severity ?? 1) === 1)) err(formatDiagnostic(file, d));
        throw new CliError(`${file}: fix the errors above before resolving`, 1);
    }
    const model = modelOf(loaded.document.parseResult.value);
    const results: ResolutionJson[] = [];
    const undecided: Undecided[] = [];
    for (const action of selectActions(model, options.engagement, file)) {
        // The preview is the record: what it shows is what `--write` writes, or it says it is not decided yet.
        const open = undecidedOf(model, action, options.seed);
        if (open) {
            undecided.push(open);
            if (!options.json) printUndecided(open, out);
            continue;
        }
        const r = resolveAction(model, action, { seed: options.seed, newSeed });
        if (isUnresolvable(r)) throw new CliError(`${file}: ${r.problem}`, 1);
        results.push(r.resolution.json);
        // The table's dice win over a seed: say so rather than let --seed look ignored (under the
        // action's heading in the text, in order; on stderr beside JSON, which must stay JSON).
        const seedUnused = options.seed !== undefined && r.dice.kind === 'entered' ? `its dice were entered from the table; --seed ${options.seed} is not used for it.` : undefined;
        if (options.json) {
            if (seedUnused) err(`umpire: ${action.node.name}: ${seedUnused}`);
        } else printResolution(r.resolution, out, r.dice.kind === 'entered' && !action.node.statements.some(isDice), seedUnused);
    }
    if (options.json) out(JSON.stringify({ file, rules: model.rules, engagements: results, ...(undecided.length > 0 ? { undecided } : {}) }, null, 2));
    return 0;
}

/**
 * `noDice`: the action throws none (a formation change, morale, a re-dress), so no dice were entered either;
 * `note`: a line under the heading (a `--seed` the table's dice left unused).
 */
export function printResolution(resolution: Resolution, out: (line: string) => void, noDice = false, note?: string): void {
    const j = resolution.json;
    const turn = j.turn ? `turn ${j.turn} · ` : '';
    out(`${j.kind} ${j.name} (${turn}${j.seed === null ? (noDice ? 'no dice thrown' : 'dice entered') : `seed ${j.seed}`})`);
    if (note) out(`  (${note})`);
    for (const line of resolution.text) out(`  ${line}`);
    out(`  Result: ${j.summary}`);
    out('');
}

/** An action whose result is not decided yet (docs/campaigns.md#undecided), as `resolve --json` lists it. */
interface Undecided {
    kind: string;
    name: string;
    turn: string | null;
    /** The earlier action it waits on; absent when it is itself the one without dice or seed. */
    waitsOn?: string;
    reason: string;
}

/**
 * Whether the action's result is not decided yet: it has no dice or seed (a seed is drawn only when
 * the outcome is written), or its start waits on an earlier action that has none.
 */
function undecidedOf(model: ScenarioModel, action: ActionModel, seed: number | undefined): Undecided | undefined {
    const base = { kind: action.node.kind, name: action.node.name, turn: turnLabel(action.turn) ?? null };
    if (needsNewSeed(model, action, { seed })) {
        return { ...base, reason: `not decided until a seed is drawn: it has no dice or seed yet. \`umpire resolve --write\` draws one and writes the outcome; or give it a \`seed\` line, or run with --seed N.` };
    }
    const first = waitsOn(model, action);
    if (!first) return undefined;
    return { ...base, waitsOn: first.name, reason: `not decided until ${first.kind} '${first.name}' is: it has no dice or seed yet, and its outcome changes the state this ${action.node.kind} starts from. \`umpire resolve --write\` resolves them in order.` };
}

function printUndecided(u: Undecided, out: (line: string) => void): void {
    out(`${u.kind} ${u.name} (${u.turn ? `turn ${u.turn} · ` : ''}not decided)`);
    out(`  Result: ${u.reason}`);
    out('');
}
