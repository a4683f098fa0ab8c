/**
 * Loose Files: the orders a combat leaves for the next turn, checked against that turn's actions
 * (docs/rules/loose-files.md#orders, L0.1 and L3), and cavalry's change of speed from turn to turn (L6).
 *
 * The orders come from the campaign record: each engagement's written outcome, or the outcome its
 * own dice settle when it is not written yet (the same one Resolve would write). A unit's order is
 * that of its last combat in the turn; the next turn written in the file is where it must be kept.
 * Nothing is checked for the last turn of the file: its next turn is not played yet.
 */
import type { ValidationAcceptor } from 'langium';
import { isFacts, isSides, type Facts, type Turn } from '../../language/generated/ast.js';
import { resolutionOrder, settledOf, turnsOf, unitStateAt } from '../../core/campaign-state.js';
import { factValue, outcomeOf, turnLabel, unitsOf, type ActionModel, type ScenarioModel, type UnitModel } from '../../core/scenario.js';
import { DEFAULT_CLASS, fightingUnits, has, lfType } from './loose-files-reader.js';
import { lfTables } from './loose-files-house.js';
import { pursues } from './engine/loose-files-combat.js';
import type { LfCombatTables } from './engine/loose-files-tables.js';
import { LooseFilesCodes } from './loose-files-codes.js';

/** A combat result and where it was fought. */
interface CombatOrder {
    readonly result: string;
    readonly engagement: string;
    /** The tables in force for the engagement: whose class pursues after an easy victory (L3). */
    readonly tables: LfCombatTables;
    /** The unit it fought (the other side's leading unit), for the stand-off pair. */
    readonly opponent: string | undefined;
    /** The order written for the unit, and whether it fled the field (L9). */
    readonly order: string | undefined;
    readonly fled: boolean;
}

/** One unit's result in one combat, as the record has it. */
export interface CombatResultRead {
    readonly unitId: string;
    readonly result: string;
    readonly opponent: string | undefined;
    /** The order written for it (`order "…"`), e.g. a Corlears Hook retreat's. */
    readonly order: string | undefined;
    /** It fled the field after this combat (`fled`, L9.4). */
    readonly fled: boolean;
}

/** Each unit's last combat result in one engagement: its written outcome lines, else those its dice settle. */
export function combatResults(model: ScenarioModel, action: ActionModel): CombatResultRead[] {
    const out: CombatResultRead[] = [];
    const outcome = outcomeOf(model, action.node);
    if (outcome) {
        for (const line of outcome.lines) {
            if (!line.unit || line.result === undefined) continue;
            const opponent = line.opponent ? unitsOf(model, line.opponent)[0]?.id : undefined;
            const orderFact = line.facts.find(f => f.key === 'order');
            const order = orderFact ? factValue(orderFact) : undefined;
            for (const u of unitsOf(model, line.unit)) {
                out.push({ unitId: u.id, result: line.result, opponent, order: typeof order === 'string' ? order : undefined, fled: has(line.facts, 'fled') });
            }
        }
    } else {
        for (const line of settledOf(model, action)?.lines ?? []) {
            const order = line.facts.find(([k]) => k === 'order')?.[1];
            out.push({ unitId: line.unit, result: line.result, opponent: line.opponent, order: typeof order === 'string' ? order : undefined, fled: line.facts.some(([k]) => k === 'fled') });
        }
    }
    return out;
}

/** L9.3: the order of a side that retreated after a second stand-off in a row (Corlears Hook). */
export const corlearsRetreated = (o: { result: string, order: string | undefined }): boolean =>
    o.result === 'stand-off' && o.order !== undefined && o.order.startsWith('retreat');

/** Every unit's order after the combats of a turn, in the order they were resolved. */
function ordersAfter(model: ScenarioModel, actions: readonly ActionModel[]): Map<string, CombatOrder> {
    const orders = new Map<string, CombatOrder>();
    for (const a of actions) {
        if (a.node.kind !== 'engagement') continue;
        const tables = lfTables(model, a.node);
        for (const r of combatResults(model, a)) orders.set(r.unitId, { result: r.result, engagement: a.node.name, opponent: r.opponent, order: r.order, fled: r.fled, tables });
    }
    return orders;
}

/** The move lines of a turn that move a unit (a formation change or change of facing is not a move). */
function moveLinesOf(model: ScenarioModel, actions: readonly ActionModel[], unitId: string): Facts[] {
    return actions.filter(a => a.node.kind === 'move')
        .flatMap(a => a.node.statements.filter(isFacts))
        .filter(line => !has(line.facts, 'formation-change') && unitsOf(model, line.target).some(u => u.id === unitId));
}

function fightsIn(model: ScenarioModel, actions: readonly ActionModel[], unitId: string): boolean {
    return actions.some(a => a.node.kind === 'engagement' && a.node.statements.some(st => isSides(st)
        && fightingUnits(model, [...st.attackers, ...st.defenders]).some(u => u.id === unitId)));
}

const MUST_RETREAT = new Set(['driven-back', 'defeated', 'routed']);
const MUST_HALT = new Set(['successful', 'stand-off']);

/** L0.1, L3: each combat's order kept (or not) in the next turn of the file. */
export function checkOrdersAfterCombat(model: ScenarioModel, accept: ValidationAcceptor): void {
    const turns = turnsOf(model);
    const order = resolutionOrder(model);
    const byTurn = new Map<Turn, ActionModel[]>(turns.map(t => [t, order.filter(a => a.turn === t)]));
    const unitById = new Map<string, UnitModel>();
    for (const f of model.forces.values()) for (const u of f.units) unitById.set(u.id, u);
    for (let i = 0; i + 1 < turns.length; i++) {
        const before = turns[i], next = turns[i + 1];
        const nextActions = byTurn.get(next) ?? [];
        const when = `in turn ${turnLabel(before)}`;
        const reportedPairs = new Set<string>();
        const orders = ordersAfter(model, byTurn.get(before) ?? []);
        for (const [unitId, o] of orders) {
            const unit = unitById.get(unitId);
            // L9.4: a unit that fled the field is off the table; it keeps no order (its move is an error of its own).
            if (!unit || o.fled || (nextActions[0] && unitStateAt(model, nextActions[0], unit)?.status === 'fled')) continue;
            // L9.3: a side that retreated after a second stand-off in a row neither halts nor fights on.
            if (corlearsRetreated(o)) continue;
            const moves = moveLinesOf(model, nextActions, unitId);
            if (MUST_HALT.has(o.result)) {
                for (const line of moves) {
                    accept('warning', `${unitId} must halt this turn: its combat '${o.engagement}' ${when} was ${o.result === 'successful' ? 'successful ("halt one turn")' : 'a stand-off ("both sides halt")'} (L3).`,
                        { node: line, property: 'target', code: LooseFilesCodes.orderNotKept });
                }
            }
            const foe = o.opponent ? orders.get(o.opponent) : undefined;
            if (o.result === 'stand-off' && o.opponent && !(foe && (corlearsRetreated(foe) || foe.fled)) && !reportedPairs.has([unitId, o.opponent].sort().join(' '))) {
                reportedPairs.add([unitId, o.opponent].sort().join(' '));
                if (!fightsIn(model, nextActions, unitId) || !fightsIn(model, nextActions, o.opponent)) {
                    accept('warning', `${unitId} and ${o.opponent} fought a stand-off in '${o.engagement}' ${when}: the fight continues this turn, but no engagement here has them both (L3).`,
                        { node: next, keyword: 'turn', code: LooseFilesCodes.orderNotKept });
                }
            }
            if (MUST_RETREAT.has(o.result) && moves.length === 0) {
                accept('warning', `${unitId} was ${o.result} in '${o.engagement}' ${when}: it must retreat at the start of this turn (step 1 of the order of play), but no move here moves it (L0.1, L3).`,
                    { node: next, keyword: 'turn', code: LooseFilesCodes.orderNotKept });
            }
            const cls = typeof unit.stats.get('class') === 'number' ? unit.stats.get('class') as number : DEFAULT_CLASS;
            if (o.result === 'easy-victory' && lfType(unit.arm) !== 'officer' && pursues(cls, o.tables) && moves.length === 0) {
                accept('warning', `${unitId} (class ${cls}, which pursues) won an easy victory in '${o.engagement}' ${when}: it pursues this turn, but no move here moves it (L3).`,
                    { node: next, keyword: 'turn', code: LooseFilesCodes.orderNotKept });
            }
        }
        checkCavalrySpeed(model, byTurn.get(before) ?? [], nextActions, before, accept);
    }
}

/** L6: cavalry "can change speed 1 dice up or down per turn", against its move of the turn before. */
function checkCavalrySpeed(model: ScenarioModel, before: readonly ActionModel[], next: readonly ActionModel[], beforeTurn: Turn, accept: ValidationAcceptor): void {
    const diceOf = (line: Facts) => {
        const n = (key: string) => line.facts.find(f => f.key === key)?.number ?? (has(line.facts, key) ? 1 : 0);
        return n('average') + n('d6');
    };
    for (const a of next.filter(x => x.node.kind === 'move')) {
        // L6.8: one die a turn by the sheet; the `move-dice cavalry-speed` row in force for this move.
        const step = lfTables(model, a.node).move['cavalry-speed'];
        const by = step === 1 ? 'one die' : `${step} dice`;
        for (const line of a.node.statements.filter(isFacts)) {
            if (has(line.facts, 'formation-change')) continue;
            for (const u of unitsOf(model, line.target)) {
                if (lfType(u.arm) !== 'cavalry') continue;
                const previous = moveLinesOf(model, before, u.id).pop();
                if (!previous) continue;
                const was = diceOf(previous), now = diceOf(line);
                if (Math.abs(now - was) > step) {
                    const allowed = step === 0 ? `${was}` : `${Math.max(0, was - step)} to ${was + step}`;
                    accept('warning', `${u.id} moved with ${was} dice in turn ${turnLabel(beforeTurn)}: cavalry change speed by ${by} a turn, so ${allowed} here, not ${now} (L6).`,
                        { node: line, property: 'target', code: LooseFilesCodes.cavalrySpeed });
                    break;
                }
            }
        }
    }
}
