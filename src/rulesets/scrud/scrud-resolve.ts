/**
 * Resolving a SCRUD engagement: reads it, throws or takes the dice, and reports the outcome in the
 * JSON of docs/json.md, the outcome block's lines and the pair-by-pair text.
 */
import { buildScrudInput, PURSUIT, pursuitRuleOf, RUNS_AND_PURSUES, scrudCombatDice, scrudEnteredValues, scrudTables } from './scrud-reader.js';
import { turnLabel, type ActionModel, type ScenarioModel } from '../../core/scenario.js';
import { D6 } from '../../core/dice.js';
import { enteredDiceSource, seededDiceSource, type DiceSource, type EnteredDiceSource, type ValueRead } from '../../core/dice-source.js';
import type { Dice } from '../../language/generated/ast.js';
import {
    decidePursuit, pursuitThrowers, resolveScrud, type PursuitDecision, type ScrudInput, type ScrudOutcome, type ScrudUnitResult
} from './engine/scrud-engine.js';
import { signed } from '../../core/signed.js';
import { nameAliases, withLazyFingerprint } from '../../core/fingerprint.js';
import { keyText, tablesFor } from '../../core/house-rules.js';
import { withJsonWhenRead, type DiceChoice, type OutcomeLineText, type Resolution, type ResolutionJson, type Unresolvable } from '../../core/resolution.js';

/** Seeded dice are thrown attacker first, then defender, each in declaration order. */
export function throwScrudDice(input: ScrudInput, seed: number): { attacker: number[], defender: number[] } {
    return scrudCombatDice(input, seededDiceSource(seed));
}

export function resolveScrudAction(model: ScenarioModel, action: ActionModel, dice: DiceChoice): Resolution | Unresolvable {
    const input = buildScrudInput(model, action.node);
    if (!input) return { problem: `Engagement '${action.node.name}' needs two sides: write 'A attacks B'.` };
    let entered: EnteredDiceSource<Dice> | undefined;
    let source: DiceSource;
    if (dice.kind === 'seed') source = seededDiceSource(dice.seed);
    else source = entered = enteredDiceSource(scrudEnteredValues(model, action.node, input));
    const thrown = scrudCombatDice(input, source);
    const short = dieShort(action, thrown);
    if (short) return short;
    const tables = scrudTables(model, action.node);
    const combat = resolveScrud(input, thrown, tables);
    const rule = pursuitRuleOf(model, action.node);
    let decisions: PursuitDecision[] = [];
    let pursuitDice: Array<[string, number]> | undefined;
    if (rule) {
        const throwers = pursuitThrowers(combat, rule);
        const taken = throwers.map(id => {
            const values = source.take({ who: [id], label: PURSUIT, die: D6, count: 1 });
            return { id, values, at: entered?.readFrom.at(-1)?.[0] };
        });
        // Entered throws are recorded in the order the lines give them (line by line), as the fingerprint always has.
        if (entered) taken.sort((a, b) => enteredOrder(action, a.at) - enteredOrder(action, b.at) || (a.at?.index ?? 0) - (b.at?.index ?? 0));
        const throws = new Map(taken.filter(t => t.values.length > 0).map(t => [t.id, t.values[0]]));
        const missing = throwers.filter(id => !throws.has(id));
        if (missing.length > 0) {
            return { problem: `${missing.join(', ')} won and ${missing.length === 1 ? 'throws' : 'throw'} for pursuit (S-ex.6): enter it with 'dice ${missing[0]} pursuit N'.` };
        }
        decisions = decidePursuit(combat, rule, throws);
        if (entered) pursuitDice = [...throws];
    }
    const outcome = withPursuit(combat, decisions);
    const byId = new Map(decisions.map(d => [d.id, d]));
    const pursuit = rule ? { from: rule.from, runsAndPursues: rule.runsAndPursues, marked: [...rule.marked], dice: pursuitDice } : undefined;
    return withJsonWhenRead({
        lines: outcome.units.map(u => outcomeLine(u, byId.get(u.id))),
        text: [...scrudText(outcome, houseRow(model, action)), ...decisions.map(d => pursuitText(d, houseFace(model, action)))]
    }, scrudJson({
        name: action.node.name, kind: action.node.kind, turn: turnLabel(action.turn) ?? null, dice, input, thrown, outcome, byId,
        pursuit, clampSix: tables.clampSix, aliases: nameAliases(model)
    }));
}

/** What an engagement's JSON is made of: plain data, read when it was resolved. */
interface ScrudJsonParts {
    readonly name: string;
    readonly kind: string;
    readonly turn: string | null;
    readonly dice: DiceChoice;
    readonly input: ScrudInput;
    readonly thrown: { attacker: number[], defender: number[] };
    readonly outcome: ScrudOutcome;
    readonly byId: ReadonlyMap<string, PursuitDecision>;
    readonly pursuit: { from: number, runsAndPursues: boolean, marked: string[], dice: Array<[string, number]> | undefined } | undefined;
    readonly clampSix: boolean | undefined;
    readonly aliases: ReadonlyMap<string, string>;
}

/**
 * The JSON of a resolution, made when read (`withJsonWhenRead`). Made apart from the resolving: a closure
 * there would hold every variable the resolving's closures share (the model, the action's node, the dice
 * source), and a settled result is kept across builds.
 */
function scrudJson(parts: ScrudJsonParts): () => ResolutionJson {
    return () => {
        const { name, kind, turn, dice, input, thrown, outcome, byId, pursuit, clampSix, aliases } = parts;
        // What the fingerprint covers (`withLazyFingerprint`: worked out when read, after the JSON itself).
        const covered = {
            rules: 'scrud', input: stripDice(input), dice: dice.kind === 'seed' ? dice.seed : thrown,
            // Only when the engagement has a pursuit rule: outcomes written without one keep their fingerprint.
            pursuit,
            // Only under `option clamp-six`: outcomes written without it keep their fingerprint.
            clampSix
        };
        return withLazyFingerprint({
            name, kind, rules: 'scrud', turn,
            seed: dice.kind === 'seed' ? dice.seed : null, summary: outcome.summary, check: '',
            pooled: input.pooled,
            units: outcome.units.map(u => unitJson(u, byId.get(u.id)))
        }, covered, aliases);
    };
}

/** Where a value's line stands in the action (an unread value: last). */
function enteredOrder(action: ActionModel, at: ValueRead<Dice> | undefined): number {
    return at ? action.node.statements.indexOf(at.origin) : Number.MAX_SAFE_INTEGER;
}

/** S1.3: a unit that runs away retreats at least; the summary names who runs, pursues and stays. */
function withPursuit(outcome: ScrudOutcome, decisions: readonly PursuitDecision[]): ScrudOutcome {
    if (decisions.length === 0) return outcome;
    const runs = new Set(decisions.filter(d => d.kind === 'runs').map(d => d.id));
    const units = outcome.units.map(u => (runs.has(u.id) && u.result !== 'retreat' && u.result !== 'rout' ? { ...u, result: 'retreat' as const } : u));
    const named = (label: string, ids: string[]) => (ids.length > 0 ? [`${label}: ${ids.join(', ')}`] : []);
    const summary = [
        outcome.summary,
        ...named('runs away', [...runs]),
        ...named('pursues', decisions.filter(d => d.kind === 'six' || (d.kind === 'throw' && d.pursues)).map(d => d.id)),
        ...named('stays', decisions.filter(d => d.kind === 'throw' && !d.pursues).map(d => d.id))
    ].join(' · ');
    return { ...outcome, units, summary };
}

function pursuitText(d: PursuitDecision, house: (key: 'runs' | 'pursues') => string): string {
    if (d.kind === 'runs') return `${d.id} threw a ${d.face}: runs away (retreats) whatever its pair gave${house('runs')}`;
    if (d.kind === 'six') return `${d.id} threw a ${d.face}: pursues${house('pursues')}`;
    return `${d.id} pursuit throw ${d.throw}: ${d.pursues ? 'pursues' : 'stays'}`;
}

/** How a pursuit decision is written on the unit's outcome line and in its JSON. */
function pursuitFacts(d: PursuitDecision | undefined): Array<[string, number | string | true]> {
    if (!d) return [];
    if (d.kind === 'runs') return [['runs-away', true]];
    if (d.kind === 'six') return [['pursues', true]];
    return [['pursuit', d.throw], [d.pursues ? 'pursues' : 'stays', true]];
}

function stripDice(input: ScrudInput) {
    const side = (s: ScrudInput['attacker']) => ({ force: s.force, units: s.units.map(u => ({ id: u.id, arm: u.arm, die: u.die.name, modifier: u.modifier })) });
    return { attacker: side(input.attacker), defender: side(input.defender), pooled: input.pooled };
}

/**
 * One unit as docs/json.md describes it. `die` is the number thrown, as in the outcome line
 * (`die 4, mod +2, adjusted 6`), so that die + modifier = adjusted before clamping (S2); `dieType` names the die (S1).
 */
function unitJson(r: ScrudUnitResult, pursuit: PursuitDecision | undefined) {
    return {
        force: r.force, unit: r.unit, side: r.side, arm: r.arm, dieType: r.die, die: r.thrown,
        modifier: r.modifier, adjusted: r.adjusted, rank: r.rank, result: r.result, opponent: r.opponent,
        // S-ex.6, S1.3: only for a unit that threw for pursuit, or that the variant sends off.
        ...(pursuit ? {
            pursuit: pursuit.kind === 'runs' ? 'runs-away' : pursuit.kind === 'six' || pursuit.pursues ? 'pursues' : 'stays',
            pursuitThrow: pursuit.kind === 'throw' ? pursuit.throw : null
        } : {})
    };
}

/** A unit left without its die (dice entered short): the engagement cannot be resolved. */
export function dieShort(action: ActionModel, thrown: { attacker: readonly number[], defender: readonly number[] }): Unresolvable | undefined {
    if (![...thrown.attacker, ...thrown.defender].some(v => !Number.isInteger(v))) return undefined;
    return { problem: `Engagement '${action.node.name}' does not have a die for every unit.` };
}

/** A unit's outcome line: its result with its die, modifier and adjusted die (S2), and its pursuit (S-ex.6). */
export function outcomeLine(r: ScrudUnitResult, pursuit: PursuitDecision | undefined): OutcomeLineText {
    return {
        unit: r.id, result: r.result,
        facts: [['die', r.thrown], ['mod', r.modifier], ['adjusted', r.adjusted], ...pursuitFacts(pursuit)],
        opponent: r.opponent ?? undefined
    };
}


/** What a pair came to: the loser's result, or a stand-off (a house rule may give equal dice a result for both). */
function pairText(attacker: ScrudUnitResult, defender: ScrudUnitResult, difference: number): string {
    if (attacker.result === 'stand-off') return 'stand-off';
    if (difference === 0) return `both ${attacker.result}`;
    return difference > 0 ? `${defender.id} ${defender.result}` : `${attacker.id} ${attacker.result}`;
}

/** For S1.3's runs and pursuits, the house row of the face (`house: runs-and-pursues runs 2`), when a house rule set it. */
function houseFace(model: ScenarioModel, action: ActionModel): (key: 'runs' | 'pursues') => string {
    const tables = tablesFor(model, action);
    return key => {
        const entry = tables.entryFor(RUNS_AND_PURSUES, key);
        return entry?.node ? `  (house: ${RUNS_AND_PURSUES} ${key} ${entry.value})` : '';
    };
}

/** For a pair's difference, the house row that decided it (`house: 3..4 retreat`), when a house rule did. */
function houseRow(model: ScenarioModel, action: ActionModel): (difference: number) => string {
    const tables = tablesFor(model, action);
    return difference => {
        const entry = tables.bandEntry('result', Math.abs(difference));
        return entry?.node ? `  (house: ${keyText(entry.key)} ${entry.value})` : '';
    };
}

/** Pair by pair, as the seed lays it out: each arm's sorted lines side by side. */
function scrudText(outcome: ScrudOutcome, houseRow: (difference: number) => string): string[] {
    const out: string[] = [];
    for (const g of outcome.groups) {
        out.push(g.arm === 'all' ? 'All arms:' : `${g.arm[0].toUpperCase()}${g.arm.slice(1)}:`);
        for (const p of g.pairs) {
            const side = (r: ScrudUnitResult | null) => (r ? `${r.id} ${r.thrown}${signed(r.modifier)}=${r.adjusted}` : '—');
            const res = p.attacker && p.defender
                ? pairText(p.attacker, p.defender, p.difference!) + houseRow(p.difference!)
                : `${(p.attacker ?? p.defender)!.id} unpaired`;
            out.push(`  ${side(p.attacker)}  v  ${side(p.defender)}  →  ${res}`);
        }
    }
    return out;
}
