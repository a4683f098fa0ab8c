/**
 * Loose Files & American Scramble as a rule set plugin (docs/rules/loose-files.md, L1–L9): reads each action, throws
 * or takes its dice, applies the engine, and reports.
 *
 * Seeded dice are thrown in this order (docs/rules/loose-files.md#dice-plan):
 * - engagement: the attacker's average die, the defender's; then, under Corlears Hook, one average
 *   die for each side that must retreat (attacker first);
 * - fire: for each `fires at` line in order, the firer's d6, then one d6 per 5 for skirmishers;
 * - move: for each unit line in order, its average dice, then its d6 (a brigade throws once);
 * - command: for each commander's move in order, its one die. Morale and redress throw nothing.
 * Entered dice are read in the same order from `dice UNIT LABEL values…` lines.
 */
import { isDice, isSeed, type Dice } from '../../language/generated/ast.js';
import {
    lfOptions, lfUnitAt, previousCombat, readCombat, readCommand, readFire, readMorale, readMoves, readRedress,
    type CombatRead
} from './loose-files-reader.js';
import { turnLabel, unitsOf, type ActionModel, type ScenarioModel, type UnitModel } from '../../core/scenario.js';
import { AVERAGE, D6, type Die } from '../../core/dice.js';
import { enteredDiceSource, seededDiceSource, type DiceAudit, type DiceRequest, type DiceSource, type EnteredValues } from '../../core/dice-source.js';
import { fixedDice, walkDicePlan, type DicePlan, type DicePlanStep } from '../../core/dice-plan.js';
import {
    artilleryModifierKeys, corlearsSides, infantryDiceKeys, strengthKeys, fireDice, moraleGrade, moraleKeys, moveDiceCounts, redressKey, rerollsFor, resolveCombat, resolveFire, resolveMorale, resolveMove,
    resolveRally, resolveRedress,
    type CombatOutcome, type CombatSideOutcome, type LfModifier, type MoveInput, type MoveOutcome
} from './engine/loose-files-engine.js';
import { signed } from '../../core/signed.js';
import { keyText, tablesFor } from '../../core/house-rules.js';
import { lfTables } from './loose-files-house.js';
import { classKey } from './engine/loose-files-tables.js';
import { nameAliases, withLazyFingerprint } from '../../core/fingerprint.js';
import type { DiceChoice, OutcomeLineText, Resolution, UnitOutcomeJson, Unresolvable } from '../../core/resolution.js';

type Fact = [string, number | string | true];

/** The default label of a dice line without one, by action kind. */
export const DEFAULT_LABEL: Readonly<Record<string, string>> = { engagement: 'average', fire: 'd6', move: 'average', command: 'average' };

/**
 * The values of an action's `dice UNIT LABEL values…` lines, for the one entered dice source: a
 * line feeds any throw of its label by one of the units it names, in the order written.
 */
function enteredValues(model: ScenarioModel, action: ActionModel): Array<EnteredValues<Dice>> {
    const fallback = DEFAULT_LABEL[action.node.kind];
    return action.node.statements.filter(isDice).map(line => ({
        origin: line, who: unitsOf(model, line.target).map(u => u.id), label: line.label ?? fallback, values: line.values
    }));
}

/** The dice source of a choice. */
function sourceFor(model: ScenarioModel, action: ActionModel, dice: DiceChoice): DiceSource {
    return dice.kind === 'seed' ? seededDiceSource(dice.seed) : enteredDiceSource(enteredValues(model, action));
}

/** A request of `count` dice of `die` by these units under `label`. */
const ask = (units: readonly UnitModel[], label: string, die: Die, count: number): DiceRequest => ({ who: units.map(u => u.id), label, die, count });

/**
 * Reads an action's entered dice the way resolving takes them, by walking its dice plan (no
 * resolve), and says what fits and what does not.
 */
export function auditEnteredDice(model: ScenarioModel, action: ActionModel): DiceAudit<Dice> {
    const source = enteredDiceSource(enteredValues(model, action), { audit: true });
    // An action that cannot be read takes no dice: every value entered is then reported unused.
    const plan = looseFilesDicePlan(model, action);
    if (plan) walkDicePlan(plan, source);
    return source.audit!;
}

/**
 * The dice an action takes, in the order resolving takes them (docs/rules/loose-files.md "Dice
 * order"): fixed by the action's lines, except a skirmisher's re-rolls of fives (L5) and Corlears
 * Hook's retreat dice (L9), which depend on the dice before them. Undefined when the action cannot be read.
 */
export function looseFilesDicePlan(model: ScenarioModel, action: ActionModel): DicePlan | undefined {
    const steps: DicePlanStep[] = [];
    switch (action.node.kind) {
        case 'engagement': {
            const lookBack = lfOptions(model).corlearsHook && previousWasStandOff(model, action);
            const read = readCombat(model, action, lookBack);
            if (!read) return undefined;
            steps.push(fixedDice(ask(read.attackers, 'average', AVERAGE, 1)), fixedDice(ask(read.defenders, 'average', AVERAGE, 1)));
            if (lookBack) {
                const n = read.tables.move['corlears-dice'];
                steps.push({
                    kind: 'conditional', reason: `Corlears Hook (L9): after a second stand-off in a row, each side that must retreat throws ${n === 1 ? 'one average die' : `${n} average dice`}`, upTo: 2 * n,
                    requests: ([[a], [d]]) => {
                        if (a === undefined || d === undefined) return [];
                        const retreat = corlearsSides(read.input, a, d, read.tables);
                        return [
                            ...(retreat.attacker ? [ask(read.attackers, 'retreat', AVERAGE, n)] : []),
                            ...(retreat.defender ? [ask(read.defenders, 'retreat', AVERAGE, n)] : [])
                        ];
                    }
                });
            }
            return { steps };
        }
        case 'fire': {
            const reads = readFire(model, action);
            if (reads.length === 0) return undefined;
            reads.forEach((r, i) => {
                const tables = lfTables(model, action.node);
                const { count } = fireDice(r.input, tables);
                steps.push(fixedDice(ask([r.firer], 'd6', D6, count)));
                // Each fire line makes two requests (its d6, then its re-rolls), so its d6 are request 2i.
                steps.push({
                    kind: 'conditional', reason: 'a skirmisher re-rolls each five (L5)', upTo: count,
                    requests: earlier => [ask([r.firer], 'reroll', D6, rerollsFor(r.input, earlier[2 * i], tables))]
                });
            });
            return { steps };
        }
        case 'move': {
            const reads = readMoves(model, action);
            if (reads.length === 0) return undefined;
            const brigade = lfOptions(model).brigadeMove ? reads[0] : undefined;
            for (const r of reads) {
                const counts = moveDiceCounts(r.input);
                // L9 brigade-move: a unit that moves as the brigade's first does uses its roll.
                if (brigade && r !== brigade && sameCounts(counts, moveDiceCounts(brigade.input))) continue;
                steps.push(fixedDice(ask([r.unit], 'average', AVERAGE, counts.average)), fixedDice(ask([r.unit], 'd6', D6, counts.d6)));
            }
            return { steps };
        }
        case 'command': {
            const uses = readCommand(model, action);
            if (uses.length === 0) return undefined;
            const count = lfTables(model, action.node).move['officer-dice'];
            for (const use of uses) {
                if (use.kind !== 'move') continue;
                const die = use.die === 'd6' ? D6 : AVERAGE;
                steps.push(fixedDice(ask([use.officer], die.name, die, count)));
            }
            return { steps };
        }
        case 'morale': return readMorale(model, action).length > 0 ? { steps } : undefined;
        case 'redress': return readRedress(model, action).length > 0 ? { steps } : undefined;
        default: return undefined;
    }
}

const shortId = (u: UnitModel) => u.id.slice(u.force.length + 1);
const mods = (list: readonly LfModifier[]) => list.map(m => ({ reason: m.reason, value: m.value }));
const modText = (list: readonly LfModifier[]) => list.map(m => `${signed(m.value)} ${m.reason}`);

function resolutionJson(model: ScenarioModel, action: ActionModel, dice: DiceChoice, summary: string, units: UnitOutcomeJson[], covered: Covered, extra: Record<string, unknown> = {}) {
    return withLazyFingerprint({
        name: action.node.name, kind: action.node.kind, rules: 'loose-files' as const, turn: turnLabel(action.turn) ?? null,
        seed: dice.kind === 'seed' ? dice.seed : null, summary, check: '', ...extra, units
    }, covered.value, covered.aliases);
}

/** What an outcome's fingerprint covers, and the aliases it reads names by. */
interface Covered {
    readonly value: unknown;
    readonly aliases: ReadonlyMap<string, string>;
}

/** What the fingerprint covers: it is worked out when read (`withLazyFingerprint`), since a settled action's result is carried through the campaign at every check. */
function check(model: ScenarioModel, action: ActionModel, input: unknown, source: DiceSource, dice: DiceChoice): Covered {
    // Each unit that threw by its own name, which the aliases read by place: a rename leaves the outcome current.
    return { value: { rules: 'loose-files', kind: action.node.kind, input, dice: dice.kind === 'seed' ? dice.seed : source.taken.map(t => [[...t.request.who], t.request.label, t.values]) }, aliases: nameAliases(model) };
}

/** Facts every outcome line shares, in the keys the campaign reads back: dp, casualties, deserted, fled, cp. */
function stateFacts(o: { dp?: number, casualties?: number, deserted?: number, fled?: boolean, cp?: number }): Fact[] {
    const f: Fact[] = [];
    if (o.dp !== undefined) f.push(['dp', o.dp]);
    if (o.casualties) f.push(['casualties', o.casualties]);
    if (o.deserted) f.push(['deserted', o.deserted]);
    if (o.fled) f.push(['fled', true]);
    if (o.cp) f.push(['cp', o.cp]);
    return f;
}

// ---------------------------------------------------------------- combat (L2, L3, L9 Corlears Hook)

/**
 * L9 Corlears Hook: whether the engagement just before this one between the same units ended in a
 * stand-off. It is resolved with its own dice (entered, its seed, or its recorded seed); one that has
 * none of these, or dice it cannot use, counts as not a stand-off.
 */
function previousWasStandOff(model: ScenarioModel, action: ActionModel): boolean {
    const prev = previousCombat(model, action);
    if (!prev) return false;
    const entered = prev.node.statements.some(isDice);
    const seed = prev.node.statements.find(isSeed)?.value ?? prev.node.outcome?.seed;
    if (!entered && seed === undefined) return false;
    const choice: DiceChoice = entered ? { kind: 'entered' } : { kind: 'seed', seed: seed! };
    const read = readCombat(model, prev, false);
    if (!read) return false;
    try {
        const outcome = throwCombat(read, sourceFor(model, prev, choice));
        return outcome !== undefined && outcome.attacker.result === 'stand-off';
    } catch {
        // Its own dice are wrong (a face the die cannot show): that engagement reports it; here it counts as no stand-off.
        return false;
    }
}

function throwCombat(read: CombatRead, source: DiceSource): CombatOutcome | undefined {
    const [a] = source.take(ask(read.attackers, 'average', AVERAGE, 1));
    const [d] = source.take(ask(read.defenders, 'average', AVERAGE, 1));
    if (a === undefined || d === undefined) return undefined;
    const retreat = corlearsSides(read.input, a, d, read.tables);
    // L9: the retreat is `move-dice corlears-dice` average dice (one by the sheet), summed; undefined when not all were entered.
    const n = read.tables.move['corlears-dice'];
    const retreatDice = (units: UnitModel[]) => {
        const thrown = source.take(ask(units, 'retreat', AVERAGE, n));
        return thrown.length === n ? thrown.reduce((s, v) => s + v, 0) : undefined;
    };
    const ar = retreat.attacker ? retreatDice(read.attackers) : undefined;
    const dr = retreat.defender ? retreatDice(read.defenders) : undefined;
    return resolveCombat(read.input, { attacker: a, defender: d, attackerRetreat: ar, defenderRetreat: dr }, read.tables);
}

function resolveEngagement(model: ScenarioModel, action: ActionModel, dice: DiceChoice, source: DiceSource): Resolution | Unresolvable {
    const lookBack = lfOptions(model).corlearsHook && previousWasStandOff(model, action);
    const read = readCombat(model, action, lookBack);
    if (!read) return { problem: `Engagement '${action.node.name}' needs two sides of fighting units: write 'A attacks B'.` };
    const outcome = throwCombat(read, source);
    if (!outcome) return { problem: `Engagement '${action.node.name}' needs one average die for each side: write 'dice Force N'.` };
    const units: UnitOutcomeJson[] = [], lines: OutcomeLineText[] = [];
    const sides: Array<[UnitModel[], CombatSideOutcome, UnitModel]> = [
        [read.attackers, outcome.attacker, read.defenders[0]], [read.defenders, outcome.defender, read.attackers[0]]
    ];
    for (const [members, o, foe] of sides) {
        members.forEach((u, i) => {
            const lead = i === 0;
            const fled = o.fled.includes(u.id);
            const retreat = o.corlearsRetreat?.inches;
            units.push({
                force: u.force, unit: shortId(u), side: o.role, leading: lead, result: o.result,
                die: o.die, modifiers: mods(o.modifiers), total: o.total, difference: o.difference,
                dp: o.dp, casualties: lead ? o.casualties : 0, fled, order: o.order, strength: o.strength,
                retreat: retreat === undefined ? null : retreat, opponent: foe.id,
                ...(lead && o.casualtiesOver > 0 ? { casualtiesOver: o.casualtiesOver } : {})
            });
            const facts: Fact[] = lead ? [['die', o.die], ['total', o.total]] : [];
            facts.push(...stateFacts({ dp: o.dp, casualties: lead ? o.casualties : 0, fled }));
            if (typeof retreat === 'number') facts.push(['retreat', retreat]);
            facts.push(['order', o.order]);
            lines.push({ unit: u.id, result: o.result, facts, opponent: foe.id });
        });
    }
    for (const insp of read.inspirations) {
        units.push({ force: insp.officer.force, unit: shortId(insp.officer), result: 'inspired', cp: read.tables.command.inspire, inspires: insp.unit.id });
        lines.push({ unit: insp.officer.id, result: 'inspired', facts: [['cp', read.tables.command.inspire]], opponent: insp.unit.id });
    }
    return {
        json: resolutionJson(model, action, dice, outcome.summary, units, check(model, action, read.input, source, dice)),
        lines, text: combatText(read, outcome, houseRows(model, action), houseRowsUsed(model, action))
    };
}

/**
 * The house rows of L3 that decided a side's difference (`house: combat-result ..-7 routed; combat-dp
 * routed 3`), after an easy victory the `pursue` row of its leading unit's class, and the
 * `corlears-dice` row of a Corlears Hook retreat, when house rules did: empty with none.
 */
function houseRows(model: ScenarioModel, action: ActionModel): (difference: number, leadClass: number, corlears: boolean) => string {
    const tables = tablesFor(model, action);
    return (difference, leadClass, corlears) => {
        const band = tables.bandEntry('combat-result', difference);
        const row = band ? String(band.value) : '';
        const entries = [['combat-result', band], ['combat-dp', tables.entryFor('combat-dp', row)], ['combat-casualties', tables.entryFor('combat-casualties', row)],
            ['pursue', row === 'easy-victory' ? tables.entryFor('pursue', classKey(leadClass)) : undefined],
            ['move-dice', corlears ? tables.entryFor('move-dice', 'corlears-dice') : undefined]] as const;
        const rows = entries.flatMap(([table, entry]) => (entry?.node ? [`${table} ${keyText(entry.key)} ${entry.value}`] : []));
        return rows.length > 0 ? `  (house: ${rows.join('; ')})` : '';
    };
}

/** A table and the key (a word, or a number a band holds) one line of a breakdown read. */
type HouseUse = readonly [table: string, key: string | number];

/**
 * The house rows a breakdown line read (`  (house: infantry-fire hit 5)`), each once, in the order
 * read; empty when every row it read is the sheet's.
 */
function houseRowsUsed(model: ScenarioModel, action: ActionModel): (uses: readonly HouseUse[]) => string {
    const tables = tablesFor(model, action);
    return uses => {
        const rows = new Set<string>();
        for (const [table, key] of uses) {
            const entry = typeof key === 'number' ? tables.bandEntry(table, key) : tables.entryFor(table, key);
            if (entry?.node) rows.add(`${table} ${keyText(entry.key)} ${entry.value}`);
        }
        return rows.size > 0 ? `  (house: ${[...rows].join('; ')})` : '';
    };
}

function combatText(read: CombatRead, outcome: CombatOutcome, houseRow: (difference: number, leadClass: number, corlears: boolean) => string, house: (uses: readonly HouseUse[]) => string): string[] {
    const out: string[] = [];
    for (const [units, input, o] of [[read.attackers, read.input.attacker, outcome.attacker], [read.defenders, read.input.defender, outcome.defender]] as const) {
        const who = units.map(u => u.id).join(' + ');
        // The strength rows of the arms present on the side (L1.1): a house row is named where it counted.
        const arms = strengthKeys(input.units);
        out.push(`${o.role === 'attacker' ? 'Attacker' : 'Defender'} ${who} (strength ${o.strength}): average die ${o.die}${house(arms.map(k => ['strength', k]))}`);
        for (const m of o.modifiers) out.push(`  ${signed(m.value)} ${m.reason}${house(m.reads ?? [])}`);
        out.push(`  total ${o.total}`);
    }
    for (const [o, side] of [[outcome.attacker, read.input.attacker], [outcome.defender, read.input.defender]] as const) {
        const cas = `${o.casualties} ${o.casualties === 1 ? 'casualty' : 'casualties'}${o.casualtyNote ? ` (${o.casualtyNote})` : ''}`;
        const retreat = o.corlearsRetreat ? (o.corlearsRetreat.inches === null ? ', retreat die not entered' : `, retreats ${o.corlearsRetreat.inches} inches`) : '';
        const fled = o.fled.length ? `; fled: ${o.fled.join(', ')}` : '';
        out.push(`${o.role === 'attacker' ? 'Attacker' : 'Defender'} ${signed(o.difference)}: ${o.result}, ${o.dp} DP, ${cas}; ${o.order}${retreat}${fled}${houseRow(o.difference, side.units[0].class, o.corlearsRetreat !== undefined)}`);
    }
    return out;
}

// ---------------------------------------------------------------- fire (L4, L5)

function resolveFireAction(model: ScenarioModel, action: ActionModel, dice: DiceChoice, source: DiceSource): Resolution | Unresolvable {
    const reads = readFire(model, action);
    if (reads.length === 0) return { problem: `Fire '${action.node.name}' needs a line 'A fires at B: range N'.` };
    const units: UnitOutcomeJson[] = [], lines: OutcomeLineText[] = [], text: string[] = [];
    const summary: string[] = [];
    const tables = lfTables(model, action.node);
    const house = houseRowsUsed(model, action);
    for (const r of reads) {
        const { count, steps } = fireDice(r.input, tables);
        const d6 = source.take(ask([r.firer], 'd6', D6, count));
        if (d6.length !== count) return { problem: `${r.firer.id} throws ${count} d6 at ${r.target.id}, but ${d6.length} were entered.` };
        const rerollCount = rerollsFor(r.input, d6, tables);
        const reroll = source.take(ask([r.firer], 'reroll', D6, rerollCount));
        if (reroll.length !== rerollCount) return { problem: `${r.firer.id} re-rolls ${rerollCount} five${rerollCount === 1 ? '' : 's'}, but ${reroll.length} re-roll${reroll.length === 1 ? ' was' : 's were'} entered.` };
        const o = resolveFire(r.input, { d6, reroll }, tables);
        units.push({
            force: r.firer.force, unit: shortId(r.firer), result: 'fired', target: r.target.id, fire: o.kind ?? null, band: o.band,
            range: o.range, reach: o.reach, dice: o.diceCount, diceSteps: o.diceSteps, modifiers: mods(o.modifiers),
            thrown: o.dice.map(d => d.die), rerolls: o.rerolls.map(d => d.die)
        });
        units.push({
            force: r.target.force, unit: shortId(r.target), result: o.result, firer: r.firer.id,
            dp: o.dp, casualties: o.casualties, ...(o.casualtiesOver > 0 ? { casualtiesOver: o.casualtiesOver } : {}), fled: o.fled,
            dice: o.dice.map(d => ({ die: d.die, modified: d.modified, dp: d.dp, casualties: d.casualties })),
            rerolls: o.rerolls.map(d => ({ die: d.die, dp: d.dp }))
        });
        lines.push({ unit: r.firer.id, result: 'fired', facts: [['range', o.range], ['throws', o.diceCount]], opponent: r.target.id });
        lines.push({ unit: r.target.id, result: o.result, facts: stateFacts({ dp: o.dp, casualties: o.casualties, fled: o.fled }), opponent: r.firer.id });
        text.push(`${r.firer.id} fires at ${r.target.id}: ${o.kind ?? 'no'} fire, range ${o.range} inches (${o.band}, reach ${o.reach})`);
        text.push(`  dice: ${steps.join('; ')}`);
        for (const m of modText(o.modifiers)) text.push(`  ${m} (each die)`);
        if (o.dice.length) text.push(`  d6: ${o.dice.map(d => (o.kind === 'artillery' ? `${d.die}→${d.modified}` : `${d.die}`) + effect(d)).join(', ')}`);
        if (o.rerolls.length) text.push(`  re-rolls of fives: ${o.rerolls.map(d => `${d.die}${effect(d)}`).join(', ')}`);
        const uses: HouseUse[] = o.kind === 'artillery'
            ? [...artilleryModifierKeys(r.input).map(k => ['artillery-modifier', k] as HouseUse),
                ...o.dice.flatMap(d => (o.band === 'close' ? [['artillery-close-dp', d.modified], ['artillery-close-casualties', d.modified]] : [['artillery-long-dp', d.modified]]) as HouseUse[])]
            : o.kind === 'infantry' ? [['infantry-fire', 'hit'], ...(o.rerolls.length ? [['infantry-fire', 'reroll'], ['infantry-fire', 'reroll-hit']] as HouseUse[] : [])] : [];
        // How many dice infantry throws is read even when it comes to none.
        const diceUses: HouseUse[] = o.kind === 'infantry' && o.band !== 'out-of-range' ? infantryDiceKeys(r.input).map(k => ['infantry-dice', k] as HouseUse) : [];
        text.push(`  ${r.target.id}: ${o.result}, ${o.dp} DP, ${o.casualties} ${o.casualties === 1 ? 'casualty' : 'casualties'}${o.fled ? ', flees the field' : ''}${house([...diceUses, ...(o.diceCount > 0 ? uses : [])])}`);
        summary.push(`${r.target.id} ${o.dp} DP${o.casualties ? `, ${o.casualties} casualt${o.casualties === 1 ? 'y' : 'ies'}` : ''}`);
    }
    return {
        json: resolutionJson(model, action, dice, summary.join(' · '), units, check(model, action, reads.map(r => r.input), source, dice)),
        lines, text
    };
}

function effect(d: { dp: number, casualties: number }): string {
    const parts = [d.dp ? `${d.dp} DP` : '', d.casualties ? `${d.casualties} cas.` : ''].filter(Boolean);
    return parts.length ? ` (${parts.join(', ')})` : '';
}

// ---------------------------------------------------------------- movement (L6, L9 full-move, brigade-move)

function resolveMoveAction(model: ScenarioModel, action: ActionModel, dice: DiceChoice, source: DiceSource): Resolution | Unresolvable {
    const reads = readMoves(model, action);
    if (reads.length === 0) return { problem: `Move '${action.node.name}' needs a line 'Unit: average N, d6 N'.` };
    const brigade = lfOptions(model).brigadeMove ? reads[0] : undefined;
    let brigadeDice: { average: number[], d6: number[] } | undefined;
    const tables = lfTables(model, action.node);
    const house = houseRowsUsed(model, action);
    const units: UnitOutcomeJson[] = [], lines: OutcomeLineText[] = [], text: string[] = [], summary: string[] = [];
    for (const r of reads) {
        const counts = moveDiceCounts(r.input);
        const sameAsBrigade = brigade && brigadeDice && sameCounts(counts, moveDiceCounts(brigade.input));
        const thrown = sameAsBrigade ? brigadeDice! : {
            average: source.take(ask([r.unit], 'average', AVERAGE, counts.average)),
            d6: source.take(ask([r.unit], 'd6', D6, counts.d6))
        };
        if (thrown.average.length !== counts.average || thrown.d6.length !== counts.d6) {
            return { problem: `${r.unit.id} moves with ${counts.average} average and ${counts.d6} d6, but ${thrown.average.length} and ${thrown.d6.length} were entered.` };
        }
        if (brigade && r === brigade) brigadeDice = thrown;
        const o = resolveMove(r.input, thrown, tables);
        units.push({
            force: r.unit.force, unit: shortId(r.unit), result: o.result, average: o.average, d6: o.d6,
            inchModifiers: mods(o.inchModifiers), inches: o.inches, dpReasons: mods(o.dpReasons), dp: o.dp, order: o.order, ...(o.formation ? { formation: o.formation } : {}),
            brigadeRoll: Boolean(sameAsBrigade)
        });
        // `formation X` is campaign state: later fire and combat read the new formation (L6.11).
        const formation: Fact[] = o.formation ? [['formation', o.formation]] : [];
        lines.push({ unit: r.unit.id, result: o.result, facts: [['inches', o.inches], ...stateFacts({ dp: o.dp }), ...formation, ['order', o.order]] });
        const uses: HouseUse[] = [...(o.d6.length ? [['move-dice', r.input.woods ? 'woods-disorder' : 'disorder']] as HouseUse[] : []), ...(r.input.plus ? [['move-dice', 'hessian-inches']] as HouseUse[] : []),
            ...moveCostsRead(r.input).map(k => ['move-cost', k] as HouseUse)];
        text.push(...moveText(r.unit.id, o, Boolean(sameAsBrigade), house(uses)));
        summary.push(`${r.unit.id} ${o.result} ${o.inches} inches${o.dp ? `, ${o.dp} DP` : ''}`);
    }
    return {
        json: resolutionJson(model, action, dice, summary.join(' · '), units, check(model, action, reads.map(r => r.input), source, dice)),
        lines, text
    };
}

/** The `move-cost` rows a move read (L6): a formation change reads only its own; otherwise terrain, wheeling and retiring. */
function moveCostsRead(input: MoveInput): string[] {
    if (input.formationChange) return [input.underFire ? 'formation-under-fire-dp' : 'formation-dp'];
    const keys: string[] = [];
    if (input.woods) keys.push('woods-inches');
    if (input.uphill) keys.push('uphill-inches');
    if (input.wheel) keys.push(...(input.options.wheelAsUphill === true ? ['wheel-inches'] : []), 'wheel-dp');
    if (input.retire) keys.push('retire-percent', ...(input.unit.type === 'cavalry' || input.underFire ? ['retire-dp'] : []));
    return keys;
}

const sameCounts = (a: { average: number, d6: number }, b: { average: number, d6: number }) => a.average === b.average && a.d6 === b.d6;

function moveText(id: string, o: MoveOutcome, brigade: boolean, house: string): string[] {
    const out = [`${id}: ${o.result}${brigade ? ' (the brigade\'s roll)' : ''}${house}`];
    if (o.average.length || o.d6.length) out.push(`  dice: average ${o.average.join(' ') || '—'} · d6 ${o.d6.join(' ') || '—'}`);
    for (const m of o.inchModifiers) out.push(`  ${signed(m.value)}" ${m.reason}`);
    out.push(`  ${o.inches} inches: ${o.order}`);
    if (o.formation) out.push(`  now in ${o.formation}`);
    for (const m of o.dpReasons) out.push(`  +${m.value} DP ${m.reason}`);
    return out;
}

// ---------------------------------------------------------------- morale (L7)

function resolveMoraleAction(model: ScenarioModel, action: ActionModel, dice: DiceChoice, source: DiceSource): Resolution | Unresolvable {
    const reads = readMorale(model, action);
    if (reads.length === 0) return { problem: `Morale '${action.node.name}' needs a line 'A sees B: routs' (or retreats).` };
    const units: UnitOutcomeJson[] = [], lines: OutcomeLineText[] = [], text: string[] = [], summary: string[] = [];
    const tables = lfTables(model, action.node);
    const house = houseRowsUsed(model, action);
    for (const r of reads) {
        const o = resolveMorale(r.input, tables);
        const keys = moraleKeys(moraleGrade(r.input), r.input.event);
        const uses: HouseUse[] = [...(r.input.distance !== undefined ? [['morale', 'within']] as HouseUse[] : []), ['morale', keys.dp], ['morale', keys.deserted]];
        units.push({ force: r.observer.force, unit: shortId(r.observer), result: o.result, friend: r.friend.id, event: r.input.event, dp: o.dp, deserted: o.deserted, fled: o.fled, reason: o.reason });
        lines.push({ unit: r.observer.id, result: o.result, facts: stateFacts({ dp: o.dp, deserted: o.deserted, fled: o.fled }), opponent: r.friend.id });
        text.push(`${r.observer.id} sees ${r.friend.id} ${r.input.event}: ${o.reason}`);
        text.push(`  ${o.result}, ${o.dp} DP${o.deserted ? `, ${o.deserted} stand deserts` : ''}${o.fled ? ', flees the field' : ''}${house(uses)}`);
        summary.push(`${r.observer.id} ${o.result}${o.dp ? ` ${o.dp} DP` : ''}`);
    }
    return { json: resolutionJson(model, action, dice, summary.join(' · '), units, check(model, action, reads.map(r => r.input), source, dice)), lines, text };
}

// ---------------------------------------------------------------- redress and command (L8)

function resolveRedressAction(model: ScenarioModel, action: ActionModel, dice: DiceChoice, source: DiceSource): Resolution | Unresolvable {
    const reads = readRedress(model, action);
    if (reads.length === 0) return { problem: `Redress '${action.node.name}' needs a line 'Unit: stationary'.` };
    const units: UnitOutcomeJson[] = [], lines: OutcomeLineText[] = [], text: string[] = [], summary: string[] = [];
    const tables = lfTables(model, action.node);
    const house = houseRowsUsed(model, action);
    for (const r of reads) {
        const o = resolveRedress(r.input, tables);
        const stays = r.input.unit.type === 'officer' || r.input.unit.type === 'commander' || r.input.moved || r.input.inCombat;
        const uses: HouseUse[] = stays ? [] : [['redress', redressKey(r.input.unit.class, r.input.shotAt)]];
        units.push({ force: r.unit.force, unit: shortId(r.unit), result: o.result, dp: -o.removed, reason: o.reason });
        lines.push({ unit: r.unit.id, result: o.result, facts: stateFacts({ dp: -o.removed }) });
        text.push(`${r.unit.id} (class ${r.input.unit.class}, ${r.input.unit.dp} DP): ${o.result}, ${o.removed} DP removed — ${o.reason}${house(uses)}`);
        summary.push(`${r.unit.id} −${o.removed} DP`);
    }
    return { json: resolutionJson(model, action, dice, summary.join(' · '), units, check(model, action, reads.map(r => r.input), source, dice)), lines, text };
}

function resolveCommandAction(model: ScenarioModel, action: ActionModel, dice: DiceChoice, source: DiceSource): Resolution | Unresolvable {
    const uses = readCommand(model, action);
    if (uses.length === 0) return { problem: `Command '${action.node.name}' needs 'Officer rallies Unit: dp N' or 'Officer: move'.` };
    const units: UnitOutcomeJson[] = [], lines: OutcomeLineText[] = [], text: string[] = [], summary: string[] = [];
    const inputs: unknown[] = [];
    const tables = lfTables(model, action.node), cost = tables.command;
    const house = houseRowsUsed(model, action);
    for (const use of uses) {
        const officer = lfUnitAt(model, use.officer, action.node);
        if (use.kind === 'rally') {
            const unit = lfUnitAt(model, use.unit, action.node);
            inputs.push({ rally: { officer, unit, dp: use.dp } });
            const o = resolveRally({ officer, unit, dp: use.dp }, tables);
            units.push({ force: use.officer.force, unit: shortId(use.officer), result: 'rally', cp: o.cp, rallies: use.unit.id });
            units.push({ force: use.unit.force, unit: shortId(use.unit), result: o.removed ? 'rallied' : 'not-rallied', dp: -o.removed, by: use.officer.id, reason: o.problem ?? null });
            lines.push({ unit: use.officer.id, result: 'rally', facts: stateFacts({ cp: o.cp }), opponent: use.unit.id });
            lines.push({ unit: use.unit.id, result: o.removed ? 'rallied' : 'not-rallied', facts: stateFacts({ dp: -o.removed }), opponent: use.officer.id });
            text.push(`${use.officer.id} rallies ${use.unit.id}: ${o.removed} DP removed for ${o.cp} CP (${cost['rally-dp']} CP a DP)${o.problem ? ` — ${o.problem}` : ''}${house(o.removed ? [['command-cost', 'rally-dp']] : [])}`);
            summary.push(`${use.unit.id} −${o.removed} DP`);
        } else {
            const die = use.die === 'd6' ? D6 : AVERAGE;
            // L8.1: one die by the sheet; the `move-dice officer-dice` row in force (the fingerprint covers it only when it is not 1).
            const count = tables.move['officer-dice'];
            inputs.push({ move: { officer, die: die.name, ...(count !== 1 ? { dice: count } : {}) } });
            const thrown = source.take(ask([use.officer], die.name, die, count));
            const dice = count === 1 ? `one ${die.name} die` : `${count} ${die.name} dice`;
            if (thrown.length !== count) return { problem: `${use.officer.id} moves ${dice}: enter ${count === 1 ? 'it' : 'them'} as 'dice ${use.officer.id} ${die.name} ${count === 1 ? 'N' : 'N …'}'.` };
            const inches = thrown.reduce((a, b) => a + b, 0);
            units.push({ force: use.officer.force, unit: shortId(use.officer), result: 'moved', die: die.name, inches, cp: cost.move, ...(count !== 1 ? { dice: thrown } : {}) });
            lines.push({ unit: use.officer.id, result: 'moved', facts: [['inches', inches], ...stateFacts({ cp: cost.move })] });
            text.push(`${use.officer.id} moves up to ${inches} inches (${count === 1 ? dice : `${dice}: ${thrown.join(' ')}`}) for ${cost.move} CP${house([['command-cost', 'move'], ['move-dice', 'officer-dice']])}`);
            summary.push(`${use.officer.id} ${inches} inches`);
        }
    }
    return { json: resolutionJson(model, action, dice, summary.join(' · '), units, check(model, action, inputs, source, dice)), lines, text };
}

/**
 * Morale and re-dressing throw nothing; a command throws only for a commander's move; a move whose
 * every line changes formation or facing (L6.11: no dice, no movement) throws nothing either.
 */
export function throwsNoDice(model: ScenarioModel, action: ActionModel): boolean {
    const kind = action.node.kind;
    if (kind === 'move') {
        const reads = readMoves(model, action);
        return reads.length > 0 && reads.every(r => r.input.formationChange);
    }
    return kind === 'morale' || kind === 'redress' || (kind === 'command' && readCommand(model, action).every(u => u.kind !== 'move'));
}

/** Resolves any Loose Files action (L2–L8) with the dice chosen. */
export function resolveLooseFilesAction(model: ScenarioModel, action: ActionModel, dice: DiceChoice): Resolution | Unresolvable {
    return resolveLooseFilesWith(model, action, dice, sourceFor(model, action, dice));
}

/** Resolves with the dice of a given source (tests hold it against the dice plan). */
export function resolveLooseFilesWith(model: ScenarioModel, action: ActionModel, dice: DiceChoice, source: DiceSource): Resolution | Unresolvable {
    switch (action.node.kind) {
        case 'engagement': return resolveEngagement(model, action, dice, source);
        case 'fire': return resolveFireAction(model, action, dice, source);
        case 'move': return resolveMoveAction(model, action, dice, source);
        case 'morale': return resolveMoraleAction(model, action, dice, source);
        case 'redress': return resolveRedressAction(model, action, dice, source);
        case 'command': return resolveCommandAction(model, action, dice, source);
        default: return { problem: `Loose Files has no '${action.node.kind}' action.` };
    }
}
