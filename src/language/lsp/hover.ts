/**
 * Hovers an umpire reads at the table: on a unit, its stats, grade, the modifiers and facts of the
 * engagement it is in, and its written result; on an engagement, the pair-by-pair breakdown and
 * the result; on forces, grades and modifiers, what they were declared as.
 */
import { AstUtils, CstUtils, GrammarUtils, interruptAndCheck, type AstNode, type CstNode, type LangiumDocument } from 'langium';
import type { HoverProvider, LangiumSharedServices } from 'langium/lsp';
import { CancellationToken, type Hover, type HoverParams } from 'vscode-languageserver';
import {
    isAction, isFacts, isFactor, isForce, isGrade, isHouseEntry, isHouseRow, isModifier, isOutcomeLine, isTarget, isTurn, isUnit,
    type Action, type Grade, type HouseEntry, type HouseRow, type Scenario, type Target
} from '../generated/ast.js';
import type { Band } from '../../core/bands.js';
import { entryKey, houseLines, keyText, seedText, tablesFor } from '../../core/house-rules.js';
import { Codes } from '../../core/codes.js';
import { modelOf } from '../../core/model-cache.js';
import { factValue, targetText, turnLabel, unitsOf, unquote, type ActionModel, type ScenarioModel, type StatValue, type UnitModel } from '../../core/scenario.js';
import { waitsOn } from '../../core/campaign-state.js';
import { stateHoverMarkdown } from './state-hover.js';
import { diceText, formatFact } from '../../core/outcome-block.js';
import type { DiceChoice, Resolution } from '../../core/resolution.js';
import { isUnresolvable, needsNewSeed, outcomeStatus, replayOutcome, resolveAction, resolverOf } from '../../core/resolve.js';
import { signedTypeset as signed } from '../../core/signed.js';
import { oddsSummary } from './odds-request.js';
import { turnOddsHover } from './turn-odds-hover.js';
import { clientSupport } from './client-support.js';
import { UmpireCommands } from '../../protocol.js';

export class BattleHoverProvider implements HoverProvider {
    constructor(private readonly shared?: LangiumSharedServices) {}

    async getHoverContent(document: LangiumDocument, params: HoverParams, cancelToken: CancellationToken = CancellationToken.None): Promise<Hover | undefined> {
        const root = document.parseResult.value as Scenario;
        if (!root.$cstNode) return undefined;
        const leaf = CstUtils.findLeafNodeAtOffset(root.$cstNode, document.textDocument.offsetAt(params.position));
        if (!leaf) return undefined;
        const turn = AstUtils.getContainerOfType(leaf.astNode, isTurn);
        // On a turn's own line (its keyword, number, name or title): the campaign's odds through it.
        const markdown = turn && leaf.astNode === turn && leaf.range.start.line === turn.$cstNode?.range.start.line
            ? turnOddsHover(modelOf(root), turn, clientSupport(this.shared).commands.has(UmpireCommands.showOdds) ? { uri: document.uri.toString() } : undefined)
            : await hoverMarkdown(document, modelOf(root), leaf, cancelToken);
        return markdown ? { contents: { kind: 'markdown', value: markdown }, range: leaf.range } : undefined;
    }
}

async function hoverMarkdown(document: LangiumDocument, model: ScenarioModel, leaf: CstNode, cancelToken: CancellationToken): Promise<string | undefined> {
    const node = leaf.astNode;
    const target = AstUtils.getContainerOfType(node, isTarget);
    if (target) return targetHover(model, target, leaf);
    const onName = (n: AstNode) => GrammarUtils.findNodeForProperty(n.$cstNode, 'name') === leaf;
    if (isUnit(node) && onName(node)) return unitHover(model, model.forces.get(node.$container.name)?.units.filter(u => u.node === node) ?? [], undefined);
    if (isAction(node) && (onName(node) || leaf.text === node.kind)) return actionHover(document, model, node, cancelToken);
    if (isForce(node) && onName(node)) return forceHover(model, node.name);
    if (isGrade(node) && onName(node)) return gradeHover(node);
    if (isModifier(node) && onName(node)) return `**modifier ${node.name}** ${signed(node.value)}`;
    if (isFactor(node)) {
        const modifier = node.modifiers.find(m => m.$refNode === leaf)?.ref;
        if (modifier) return `**modifier ${modifier.name}** ${signed(modifier.value)}`;
    }
    if (isUnit(node) && node.grade?.$refNode === leaf && node.grade.ref) return gradeHover(node.grade.ref);
    const row = AstUtils.getContainerOfType(node, isHouseRow);
    if (row) return houseHover(model, row, AstUtils.getContainerOfType(node, isHouseEntry));
    return undefined;
}

/** On a house row: the table it changes and the seed's values; on one entry, the seed's value it replaces. */
function houseHover(model: ScenarioModel, row: HouseRow, entry: HouseEntry | undefined): string | undefined {
    const schema = model.ruleset?.tables?.[row.table];
    if (!schema) return undefined;
    const out = [`**house rule: ${row.table}** — ${schema.doc} ([${schema.reference.replace(/^docs\//, '')}](${schema.reference}))`, `Keys: ${schema.keys.doc}. The seed: ${seedText(schema)}.`];
    const key = entry ? entryKey(entry) : undefined;
    if (key) {
        const seed = schema.seed.filter(e => ('band' in key && 'band' in e.key) ? overlapsBand(e.key.band, key.band) : keyText(e.key) === keyText(key));
        out.push(seed.length > 0
            ? `This entry replaces the seed's ${seed.map(e => `\`${keyText(e.key)} ${e.value}\``).join(', ')}.`
            : 'The seed has no entry for this key: this adds one.');
    }
    return out.join('\n\n');
}

function overlapsBand(a: Band, b: Band): boolean {
    return Math.max(a.from ?? -Infinity, b.from ?? -Infinity) <= Math.min(a.to ?? Infinity, b.to ?? Infinity);
}

function targetHover(model: ScenarioModel, target: Target, leaf: CstNode): string | undefined {
    const unitRef = target.unit?.$refNode;
    // On the force part of `Force.Unit`: the force; on the rest: the unit(s).
    if (!unitRef || leaf.offset < unitRef.offset) return forceHover(model, target.force?.$refText ?? '');
    const action = AstUtils.getContainerOfType(target, isAction);
    return unitHover(model, unitsOf(model, target), action, targetText(target));
}

function unitHover(model: ScenarioModel, units: readonly UnitModel[], action: Action | undefined, label?: string): string | undefined {
    const first = units[0];
    if (!first) return undefined;
    const decl = first.node;
    const title = label ?? (units.length > 1 ? `${first.force}.${first.name}` : first.id);
    const out: string[] = [];
    const grade = first.grade ? ` · grade **${first.grade.name}**${first.grade.value !== undefined ? ` (${signed(first.grade.value)})` : ''}` : '';
    out.push(`**${title}**${units.length > 1 ? ` ×${units.length}` : ''} — ${decl.arm}${grade}`);
    if (first.stats.size > 0) out.push(`Stats: ${[...first.stats.entries()].map(statText).join(', ')}`);
    const ids = new Set(units.map(u => u.id));
    if (action) {
        const here = modifiersHere(model, action, ids);
        const line = model.ruleset?.modifierHover
            ? model.ruleset.modifierHover(action.name, first.gradeValue, here)
            : here.length > 0 ? `Modifiers in **${action.name}**: ${here.map(m => `${m.name} ${signed(m.value)}`).join(', ')}` : undefined;
        if (line) out.push(line);
        const facts = factsHere(model, action, ids);
        if (facts.length > 0) out.push(`Facts in **${action.name}**: ${facts.join(', ')}`);
        const results = writtenResults(model, action, ids);
        out.push(results.length > 0 ? `Result: ${results.map(r => `\`${r}\``).join('  \n')}` : 'No outcome written yet.');
    } else {
        const results = model.actions.flatMap(a => writtenResults(model, a.node, ids).map(r => `${a.node.name}: \`${r}\``));
        if (results.length > 0) out.push(`Written results:  \n${results.slice(0, 8).join('  \n')}${results.length > 8 ? `  \n… and ${results.length - 8} more` : ''}`);
    }
    // The campaign state at this point (before the action; on a declaration, at the end of the file).
    if (units.length === 1) out.push(stateHoverMarkdown(model, first, action));
    return out.join('\n\n');
}

function statText([key, value]: [string, StatValue]): string {
    return value === true ? key : `${key} ${value}`;
}

function modifiersHere(model: ScenarioModel, action: Action, ids: ReadonlySet<string>): Array<{ name: string, value: number }> {
    const out: Array<{ name: string, value: number }> = [];
    for (const st of action.statements) {
        if (!isFactor(st) || !st.targets.some(t => unitsOf(model, t).some(u => ids.has(u.id)))) continue;
        for (const m of st.modifiers) if (m.ref) out.push({ name: m.ref.name, value: m.ref.value });
    }
    return out;
}

function factsHere(model: ScenarioModel, action: Action, ids: ReadonlySet<string>): string[] {
    return action.statements
        .filter(isFacts)
        .filter(st => unitsOf(model, st.target).some(u => ids.has(u.id)))
        .flatMap(st => st.facts.map(f => formatFact([f.key, factValue(f)])));
}

/** The outcome lines of an action about these units, as written. */
function writtenResults(model: ScenarioModel, action: Action, ids: ReadonlySet<string>): string[] {
    return (action.outcome?.lines ?? [])
        .filter(line => isOutcomeLine(line) && unitsOf(model, line.unit).some(u => ids.has(u.id)))
        .map(line => line.$cstNode?.text.replace(/\s+/g, ' ') ?? '');
}

function forceHover(model: ScenarioModel, name: string): string | undefined {
    const force = model.forces.get(name);
    if (!force) return undefined;
    const counts = new Map<string, number>();
    for (const u of force.units) counts.set(u.name, (counts.get(u.name) ?? 0) + 1);
    const list = [...counts.entries()].map(([n, k]) => (k > 1 ? `${n} ×${k}` : n)).join(', ');
    return `**force ${name}** — ${force.units.length} unit${force.units.length === 1 ? '' : 's'}: ${list}`;
}

function gradeHover(grade: Grade): string {
    const value = grade.value !== undefined ? ` ${signed(grade.value)}` : '';
    const stats = grade.stats.length > 0 ? `\n\nStats: ${grade.stats.map(s => s.$cstNode?.text ?? s.key).join(', ')}` : '';
    return `**grade ${grade.name}**${value}${stats}`;
}

/**
 * The engagement's breakdown and odds: the two costly parts of a hover. A cancelled hover (the pointer
 * moved on) stops before each of them instead of computing an answer nobody reads.
 */
async function actionHover(document: LangiumDocument, model: ScenarioModel, node: Action, cancelToken: CancellationToken): Promise<string> {
    const action = model.actions.find(a => a.node === node);
    const turn = turnLabel(action?.turn);
    const out = [`**${node.kind} ${node.name}** — ${model.rules}${turn ? `, turn ${turn}` : ''}`];
    await interruptAndCheck(cancelToken);
    const preview = action ? previewAction(document, model, action) : undefined;
    if (preview) {
        const how = diceText(preview.dice, 'dice entered from the table');
        out.push(`${preview.note} (${how}):`);
        out.push(['```text', ...preview.resolution.text, '```'].join('\n'));
        out.push(`**Result:** ${preview.resolution.json.summary}`);
    } else if (node.outcome?.summary) {
        out.push(`**Written result:** ${unquote(node.outcome.summary)}`);
    } else if (action && needsNewSeed(model, action)) {
        out.push('No dice or seed yet: not decided until **Resolve** draws a seed and writes the outcome.');
    } else {
        const first = action ? waitsOn(model, action) : undefined;
        if (first) out.push(`Not decided until ${first.kind} **${first.name}** is: it has no dice or seed yet, and its outcome changes the state this ${node.kind} starts from. **Resolve all** resolves them in order.`);
    }
    const house = action ? houseLines(tablesFor(model, action)) : [];
    if (house.length > 0) out.push(`**House rules in force** (docs/house-rules.md): ${house.map(l => `\`${l}\``).join(' · ')}`);
    await interruptAndCheck(cancelToken);
    const odds = action ? oddsSummary(model, action) : undefined;
    if (odds) out.push(odds);
    return out.join('\n\n');
}

export interface Preview {
    resolution: Resolution;
    dice: DiceChoice;
    /** What the breakdown is: the written outcome, or what resolving would write. */
    note: string;
    /** Whether it is the outcome written in the file (and still current). */
    written: boolean;
}

/**
 * The breakdown an action has without throwing new dice: its written outcome's own dice when that
 * outcome is current, else the dice Resolve would use (entered, the seed, or the recorded seed).
 */
export function previewAction(document: LangiumDocument, model: ScenarioModel, action: ActionModel): Preview | undefined {
    if (!resolverOf(model, action)) return undefined;
    const outcome = action.node.outcome;
    const stale = outcome !== undefined && hasStaleOutcome(document, action.node);
    if (outcome && !stale) {
        const written = replayOutcome(model, action);
        const altered = outcomeStatus(model, action).kind === 'altered';
        if (written && !isUnresolvable(written)) return { ...written, note: altered ? 'The written outcome was changed by hand; its dice give' : 'Written outcome', written: !altered };
    }
    // A preview never draws a seed: without dice or a seed, or while its start waits on an action
    // without them, nothing is decided yet (docs/campaigns.md#undecided).
    if (needsNewSeed(model, action) || waitsOn(model, action)) return undefined;
    const result = resolveAction(model, action, { newSeed: () => 0 });
    if (isUnresolvable(result)) return undefined;
    return {
        resolution: result.resolution, dice: result.dice, written: false,
        note: stale ? 'The written outcome is stale; resolving again gives' : 'Not written yet; Resolve will write'
    };
}

/** Whether the validator flagged this action's written outcome as stale. */
export function hasStaleOutcome(document: LangiumDocument, action: Action): boolean {
    const range = action.outcome?.$cstNode?.range;
    if (!range) return false;
    return (document.diagnostics ?? []).some(d => d.code === Codes.outcomeStale
        && d.range.start.line >= range.start.line && d.range.end.line <= range.end.line);
}
