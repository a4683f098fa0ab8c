/**
 * Loose Files: what a unit may do in one turn, checked against what the file records before each
 * action (docs/rules/loose-files.md): compulsory retreats at maximum speed and only after a combat lost
 * (L3.5–L3.7, L0.1), one move a turn and a formation change that takes it (L6.11, L6.14), no move for
 * a unit that fled the field (L9.4), DPs re-dressed within the class's allowance a turn (L8.4–L8.8),
 * and morale lines that agree with what the friend is recorded to have done (L7.1).
 *
 * The record is the campaign timeline's (written outcomes, and the outcomes an unwritten action's own
 * dice settle): the same one Resolve writes and every other check reads.
 */
import type { ValidationAcceptor } from 'langium';
import type { Facts, UnitState } from '../../language/generated/ast.js';
import { names, resolutionOrder, unitStateAfter, unitStateAt } from '../../core/campaign-state.js';
import { turnLabel, type ActionModel, type ScenarioModel, type UnitModel } from '../../core/scenario.js';
import { countOf } from '../../core/campaign-counters.js';
import { causeText } from '../../core/status-words.js';
import { allowedMoveDice, redressAllowance, type MoveInput } from './engine/loose-files-engine.js';
import { has, readMorale, readMoves, readRedress, turnKeyOf, type MoveRead } from './loose-files-reader.js';
import { lfTables } from './loose-files-house.js';
import { combatResults, corlearsRetreated, type CombatResultRead } from './loose-files-orders.js';
import { LooseFilesCodes } from './loose-files-codes.js';

/** A combat result with the engagement and turn it was fought in. */
interface FoughtIn extends CombatResultRead {
    readonly engagement: string;
    readonly turn: string | undefined;
    /** Its place in the order the campaign is resolved. */
    readonly point: number;
}

/** The sheet's words for each compulsory retreat (L3.5–L3.7). */
const RETREAT_WORDS: Readonly<Record<string, { words: string, rule: string }>> = {
    'driven-back': { words: 'Retreat one move at maximum speed', rule: 'L3.5' },
    defeated: { words: 'Retreat at maximum speed behind next line of friendly troops', rule: 'L3.6' },
    routed: { words: 'run away at maximum speed', rule: 'L3.7' }
};

const RESULT_WORDS: Readonly<Record<string, string>> = {
    'easy-victory': 'won an easy victory', successful: 'won (successful)', 'stand-off': 'fought a stand-off',
    'driven-back': 'was driven back', defeated: 'was defeated', routed: 'was routed'
};

export function checkTurnLimits(model: ScenarioModel, accept: ValidationAcceptor): void {
    const order = resolutionOrder(model);
    if (!order.some(a => a.node.kind === 'move' || a.node.kind === 'morale' || a.node.kind === 'redress')) return;
    const fought = combatsByUnit(order, model);
    const byTurn = new Map<object, ActionModel[]>();
    order.forEach(a => {
        const key = turnKeyOf(a);
        byTurn.set(key, [...(byTurn.get(key) ?? []), a]);
    });
    order.forEach((a, point) => {
        if (a.node.kind === 'move') checkMoveAgainstRecord(model, a, point, fought, accept);
        if (a.node.kind === 'morale') checkMoraleAgainstRecord(model, a, point, fought, accept);
    });
    for (const actions of byTurn.values()) {
        // Outside turns the file says nothing of which actions share a turn.
        if (!actions[0].turn) continue;
        checkOneMoveATurn(model, actions, accept);
        checkRedressOnce(model, actions, accept);
    }
}

/** Every unit's combats, in the order the campaign resolves them. */
function combatsByUnit(order: readonly ActionModel[], model: ScenarioModel): Map<string, FoughtIn[]> {
    const out = new Map<string, FoughtIn[]>();
    order.forEach((a, point) => {
        if (a.node.kind !== 'engagement') return;
        for (const r of combatResults(model, a)) {
            out.set(r.unitId, [...(out.get(r.unitId) ?? []), { ...r, engagement: a.node.name, turn: turnLabel(a.turn), point }]);
        }
    });
    return out;
}

/** The unit's last combat before a point of the campaign. */
function lastCombat(fought: ReadonlyMap<string, readonly FoughtIn[]>, unitId: string, point: number): FoughtIn | undefined {
    return (fought.get(unitId) ?? []).filter(f => f.point < point).pop();
}

const where = (f: FoughtIn) => `'${f.engagement}'${f.turn !== undefined ? ` (turn ${f.turn})` : ''}`;

// ─── Moves ───────────────────────────────────────────────────────────────────────────────────────

function checkMoveAgainstRecord(model: ScenarioModel, a: ActionModel, point: number, fought: ReadonlyMap<string, readonly FoughtIn[]>, accept: ValidationAcceptor): void {
    for (const read of readMoves(model, a)) {
        const state = unitStateAt(model, a, read.unit);
        if (state?.status === 'fled') {
            accept('error', `${read.unit.id} ${state.statusCause ? causeText(state.statusCause) : 'fled the field'}: it is off the table ("flee the field, remove from table", L9.4) and cannot move. Write 'ruling ${read.unit.id}: rallied, reason "…"' before this move if the umpire brings it back.`,
                { node: read.line, property: 'target', code: LooseFilesCodes.fledMoves });
            continue;
        }
        if (has(read.line.facts, 'retreat') || has(read.line.facts, 'rout')) checkRetreat(model, a, read, lastCombat(fought, read.unit.id, point), accept);
    }
}

/** L0.1, L3.5–L3.7: a compulsory retreat follows a combat lost, and goes at the unit's maximum speed. */
function checkRetreat(model: ScenarioModel, a: ActionModel, read: MoveRead, last: FoughtIn | undefined, accept: ValidationAcceptor): void {
    const word = has(read.line.facts, 'rout') ? 'rout' : 'retreat';
    const fact = read.line.facts.find(f => f.key === word)!;
    const words = last ? RETREAT_WORDS[last.result] : undefined;
    if (!last || !words || corlearsRetreated(last)) {
        const record = !last ? 'the file records no combat of it before this move'
            : `its last combat, ${where(last)}, ${RESULT_WORDS[last.result] ?? `was ${last.result}`}${corlearsRetreated(last) ? ' and it retreated there (Corlears Hook)' : ''}`;
        accept('warning', `${read.unit.id} makes a compulsory ${word}, but ${record}: retreats and routs (step 1 of the order of play) follow a combat that drove the unit back, defeated or routed it (L0.1). A unit falling back by choice moves in step 5, or retires facing the enemy.`,
            { node: fact, property: 'key', code: LooseFilesCodes.retreatNotCompulsory });
        return;
    }
    if (rulingInTurn(model, a, read.unit)) return;
    const most = maximumSpeed(read.input, lfTables(model, a.node));
    if (most.short === undefined) return;
    const diceFact = read.line.facts.find(f => f.key === 'average') ?? read.line.facts.find(f => f.key === 'd6') ?? fact;
    accept('error', `${read.unit.id} ${RESULT_WORDS[last.result]} in ${where(last)}: "${words.words}" (${words.rule}) — its maximum is ${most.text}, and this ${word} throws ${most.short}. Throw the maximum, or record the umpire's ruling: 'ruling ${read.unit.id}: reason "…"'.`,
        { node: diceFact, property: 'key', code: LooseFilesCodes.retreatSpeed });
}

/** The most the unit's class and arm allow (L6), and what this line falls short by; `short` undefined when it throws the most. */
function maximumSpeed(input: MoveInput, tables: ReturnType<typeof lfTables>): { text: string, short: string | undefined } {
    const allowed = allowedMoveDice(input.unit, tables);
    const average = Math.max(0, ...allowed.average);
    // An officer throws its dice average or d6 (L8.1): the most is that many dice of either.
    if (input.unit.type === 'officer' || input.unit.type === 'commander') return { text: allowed.explain, short: undefined };
    const hessian = input.unit.hessian && !input.unit.jaeger && input.unit.type === 'infantry';
    const plus = hessian ? tables.move['hessian-inches'] : 0;
    const text = [diceText(average, 'average'), ...(allowed.maxD6 > 0 ? [diceText(allowed.maxD6, 'd6')] : []), ...(plus > 0 ? [`plus ${plus}"`] : [])].join(' and ');
    const full = input.average >= average && input.d6 >= allowed.maxD6 && input.plus >= plus;
    const thrown = [diceText(input.average, 'average'), ...(input.d6 > 0 ? [diceText(input.d6, 'd6')] : []), ...(input.plus > 0 ? [`plus ${input.plus}"`] : [])].join(' and ');
    return { text: `${text} (${allowed.explain})`, short: full ? undefined : thrown };
}

function diceText(n: number, die: string): string {
    return die === 'd6' ? `${n} d6` : `${n} average ${n === 1 ? 'die' : 'dice'}`;
}

/** A `ruling` line on the unit in the same turn (or, outside turns, before the action): the umpire's word on how far it went. */
function rulingInTurn(model: ScenarioModel, a: ActionModel, unit: UnitModel): UnitState | undefined {
    const index = model.actions.indexOf(a);
    return model.states.find(s => s.node.kind === 'ruling' && s.node.target && names(s.node.target, unit)
        && (a.turn ? s.node.$container === a.turn : s.beforeAction <= index))?.node;
}

/**
 * L6.11, L6.14: a unit moves once a turn, and a change of formation or facing takes its turn. The
 * second move line of a unit in the turn (in the order of play) is the error, naming the first.
 */
function checkOneMoveATurn(model: ScenarioModel, actions: readonly ActionModel[], accept: ValidationAcceptor): void {
    const first = new Map<string, { action: ActionModel, line: Facts }>();
    for (const a of actions) {
        if (a.node.kind !== 'move') continue;
        for (const read of readMoves(model, a)) {
            const earlier = first.get(read.unit.id);
            if (!earlier) { first.set(read.unit.id, { action: a, line: read.line }); continue; }
            if (earlier.line === read.line) continue;
            accept('error', secondMoveMessage(read, earlier.action, earlier.line), { node: read.line, property: 'target', code: LooseFilesCodes.movesTwice });
        }
    }
}

function secondMoveMessage(read: MoveRead, firstAction: ActionModel, firstLine: Facts): string {
    const id = read.unit.id, turn = turnLabel(firstAction.turn);
    const there = `move '${firstAction.node.name}'`;
    if (has(firstLine.facts, 'formation-change')) {
        return `${id} changed formation or facing in ${there} this turn: "Change formation or facing takes 1 turn" (L6.11), so it does not move again until turn ${turn} is over.`;
    }
    if (read.input.formationChange) {
        return `${id} moved in ${there} this turn: "Change formation or facing takes 1 turn" (L6.11), so it changes formation in a turn it does not move.`;
    }
    const how = has(firstLine.facts, 'retreat') || has(firstLine.facts, 'rout') ? 'made its compulsory retreat' : 'moved';
    return `${id} ${how} in ${there} this turn: a unit moves once a turn, one throw of the dice its class allows (L6.14); put the distance in one line.`;
}

// ─── Re-dressing ─────────────────────────────────────────────────────────────────────────────────

/** L8.4–L8.8: a unit removes DPs by its class's allowance per turn, however many re-dress lines name it. */
function checkRedressOnce(model: ScenarioModel, actions: readonly ActionModel[], accept: ValidationAcceptor): void {
    const removed = new Map<string, { total: number, action: string }>();
    for (const a of actions) {
        if (a.node.kind !== 'redress') continue;
        const seen = new Set<string>();
        for (const read of readRedress(model, a)) {
            if (seen.has(read.unit.id)) continue;
            seen.add(read.unit.id);
            const was = unitStateAt(model, a, read.unit), is = unitStateAfter(model, a, read.unit);
            const before = was && countOf(was.counters, 'dp'), after = is && countOf(is.counters, 'dp');
            const now = before !== undefined && after !== undefined ? Math.max(0, before - after) : 0;
            const earlier = removed.get(read.unit.id);
            const allowance = redressAllowance(read.input.unit.class, read.input.shotAt, lfTables(model, a.node));
            if (earlier && now > 0 && earlier.total + now > allowance.most) {
                accept('error', `${read.unit.id} re-dressed ${earlier.total} DP${earlier.total === 1 ? '' : 's'} in redress '${earlier.action}' this turn: ${allowance.reason} a turn (L8), so this one removes ${now} more than it may.`,
                    { node: read.line, property: 'target', code: LooseFilesCodes.redressTwice });
            }
            removed.set(read.unit.id, { total: (earlier?.total ?? 0) + now, action: earlier?.action ?? a.node.name });
        }
    }
}

// ─── Morale ──────────────────────────────────────────────────────────────────────────────────────

/** L7.1: "seeing friends retreat/rout": what the line says the friend did agrees with its last combat in the record. */
function checkMoraleAgainstRecord(model: ScenarioModel, a: ActionModel, point: number, fought: ReadonlyMap<string, readonly FoughtIn[]>, accept: ValidationAcceptor): void {
    for (const read of readMorale(model, a)) {
        const said = has(read.relation.facts, 'routs') ? 'routs' : has(read.relation.facts, 'retreats') ? 'retreats' : undefined;
        const last = lastCombat(fought, read.friend.id, point);
        // With no combat of the friend in the file, what the observer saw is the umpire's word.
        if (!said || !last) continue;
        const did = last.result === 'routed' ? 'routs' : RETREAT_WORDS[last.result] || corlearsRetreated(last) ? 'retreats' : undefined;
        if (did === said) continue;
        const fact = read.relation.facts.find(f => f.key === said)!;
        const record = `the file records that ${read.friend.id} ${RESULT_WORDS[last.result] ?? `was ${last.result}`} in ${where(last)}`;
        const then = did ? `so it ${did}: write '${did}'` : 'so it neither retreats nor routs, and there is nothing to see';
        accept('error', `'${read.observer.id} sees ${read.friend.id}: ${said}', but ${record}, ${then} ("seeing friends retreat/rout within 6 inches", L7.1).`,
            { node: fact, property: 'key', code: LooseFilesCodes.moraleNotRecorded });
    }
}
