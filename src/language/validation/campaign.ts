/**
 * Campaign checks (docs/campaigns.md): the file read as a record in order.
 * - A routed, destroyed or fled unit cannot fight again until a `ruling` or `state` line rallies it.
 * - A unit cannot be used before it exists: before its force is declared, or before the turn its
 *   `enters N` stat names.
 * - An outcome written while an earlier action has none was worked out from an incomplete state.
 * - `state` and `ruling` lines use the keys the campaign state knows, with the values they need.
 */
import type { AstNode, ValidationAcceptor } from 'langium';
import { type Action, type Outcome, type Scenario, type Target, type Turn, type UnitState } from '../generated/ast.js';
import { actionKey, sameInputs, type ActionKey } from '../../core/model-cache.js';
import { factValue, outcomeOf, targetText, turnLabel, type ScenarioModel, type UnitModel } from '../../core/scenario.js';
import { names, settledWatch, unitsEverOut, unitStateAt } from '../../core/campaign-state.js';
import { eachRole, roles, type Role } from '../../core/action-roles.js';
import { countStateKeys, stateKeys, type UnitCampaignState } from '../../core/unit-campaign-state.js';
import { causeText } from '../../core/status-words.js';
import { Codes } from '../../core/codes.js';
import type { Ruleset } from '../../core/ruleset.js';
import { fightsOnceATurn, namedTwiceIn } from './one-fight.js';

/**
 * The campaign checks of a model (Resolve all runs them on a model with its new outcomes laid over the tree).
 * `keep`: each action's problems are kept on its node with what they read, and reported again while
 * that is the same (`KeptCampaignChecks`), so a build works out only the actions an edit can have changed;
 * never for a model with an overlay, whose outcomes are not the node's.
 */
export function checkCampaignOf(model: ScenarioModel, accept: ValidationAcceptor, keepAsked = false): void {
    const keep = keepAsked && !model.overlay;
    const scenario = model.root;
    const byLabel = turnsByLabel(scenario);
    const late = lateUnits(model);
    const labels = keep ? labelsRead(late, byLabel) : '';
    // Only units that are ever out of the fight, or arrive late, need a look: big files stay fast.
    // Worked out at the first action checked (the timeline), none when every action's checks are kept.
    let everOut: ReadonlyMap<string, readonly UnitModel[]> | undefined;
    const check = (node: Action, turn: number, report: ValidationAcceptor) => {
        everOut ??= byForce(unitsEverOut(model));
        checkActionInCampaign(model, node, everOut, late, turn, byLabel, report);
    };
    const order = orderCheck(model);
    // The actions with a unit named twice on a side, or in a turn: their problems of one fight a turn are reported last, in file order.
    const sided: Array<{ node: Action, turn: Turn | undefined, named: ReadonlyArray<Parameters<ValidationAcceptor>> }> = [];
    const side = (node: Action, turn: Turn | undefined, named: ReadonlyArray<Parameters<ValidationAcceptor>>) => {
        if (named.length > 0 || turn) sided.push({ node, turn, named });
        return named;
    };
    const states: Array<{ node: UnitState, turn: number }> = [];
    let current = 0, ordinal = 0, declarations = 0;
    const visit = (el: AstNode, turn: Turn | undefined) => {
        if (el.$type === 'Action') {
            const node = el as Action;
            order.visit(node, turn);
            if (!keep) {
                check(node, current, accept);
                side(node, turn, namedTwiceIn(model, node));
                return;
            }
            const inputs = actionKey(model, node);
            const kept = (node as Action & { [CAMPAIGN]?: KeptCampaignChecks })[CAMPAIGN];
            if (kept && sameInputs(kept.inputs, inputs) && kept.outcome === node.outcome && kept.turn === current && kept.declarationsBefore === declarations
                && kept.labels === labels && kept.ruleset === model.ruleset) {
                campaignCounts.kept++;
                for (const problem of kept.problems) accept(...problem);
                side(node, turn, kept.named);
                return;
            }
            const problems: Array<Parameters<ValidationAcceptor>> = [];
            check(node, current, (severity, message, info) => {
                problems.push([severity, message, info]);
                accept(severity, message, info);
            });
            const named = side(node, turn, namedTwiceIn(model, node));
            const record: KeptCampaignChecks = { ruleset: model.ruleset, inputs, outcome: node.outcome, turn: current, declarationsBefore: declarations, labels, problems, named };
            Object.defineProperty(node, CAMPAIGN, { value: record, enumerable: false, writable: true, configurable: true });
        } else if (el.$type === 'UnitState') states.push({ node: el as UnitState, turn: current });
    };
    // An action outside any turn belongs to the turn before it (0 before the first). By `$type` (no
    // subtypes among the elements): every element is visited on every build.
    for (const el of scenario.elements) {
        if (el.$type === 'Turn') {
            const turn = el as Turn;
            current = turnNumber(turn, ++ordinal);
            for (const inner of turn.elements) visit(inner, turn);
        } else if (el.$type === 'Action' || el.$type === 'UnitState') visit(el, undefined);
        else declarations++;
    }
    // After the actions, as before: the order the problems are reported in stays that of a cold check.
    for (const { node, turn } of states) {
        checkStateLine(node, model.ruleset, accept);
        if (node.target) checkExists(topOf(node), node.target, late, turn, byLabel, accept);
    }
    order.report(accept);
    const fights = fightsOnceATurn(model, accept);
    for (const { node, turn, named } of sided) {
        for (const problem of named) accept(...problem);
        if (turn) fights(node, turn);
    }
}

function checkActionInCampaign(model: ScenarioModel, action: Action, everOut: ReadonlyMap<string, readonly UnitModel[]>, late: ReadonlyMap<string, readonly UnitModel[]>,
    turn: number, byLabel: ReadonlyMap<string, number>, accept: ValidationAcceptor): void {
    const top = topOf(action);
    if (everOut.size === 0) {
        // No unit is ever out of the fight (most files): only whether each reference's units are on the field yet.
        eachRole(action, target => checkExists(top, target, late, turn, byLabel, accept));
        return;
    }
    const refs = roles(action);
    checkOutOfAction(model, action, refs, everOut, accept);
    for (const ref of refs) checkExists(top, ref.target, late, turn, byLabel, accept);
}

/** Actions whose campaign checks were reported again without running, since the module was loaded: tests read it. */
export const campaignCounts = { kept: 0 };

/**
 * What an action's campaign checks read (docs/performance.md#the-per-build-checks-made-proportional-to-the-edit):
 * the state the campaign carries to it and its own text and turn (`actionInputsKey`, which covers every
 * declaration and the earlier steps its units' states come from), its outcome as the tree holds it, the number of
 * its turn, how many declarations come before it (a force declared further down), and the turns that
 * late units' named `enters` stats name.
 */
const CAMPAIGN = Symbol('the action\'s campaign checks as last run');
interface KeptCampaignChecks {
    readonly ruleset: unknown;
    readonly inputs: ActionKey;
    readonly outcome: unknown;
    readonly turn: number;
    readonly declarationsBefore: number;
    readonly labels: string;
    readonly problems: ReadonlyArray<Parameters<ValidationAcceptor>>;
    /** Its sides' problems of a unit named twice (`namedTwiceIn`), reported with the one-fight-a-turn problems. */
    readonly named: ReadonlyArray<Parameters<ValidationAcceptor>>;
}

/** The turns named by late units' `enters` stats (a turn named, not numbered), with their numbers: '' when none. */
function labelsRead(late: ReadonlyMap<string, readonly UnitModel[]>, byLabel: ReadonlyMap<string, number>): string {
    const named = new Set<string>();
    for (const units of late.values()) for (const u of units) {
        const enters = u.stats.get('enters');
        if (typeof enters === 'string') named.add(enters);
    }
    return [...named].sort().map(n => `${n}=${byLabel.get(n) ?? ''}`).join('\n');
}

/** Units by their force's name, in their order: a reference looks only at its own force's. */
function byForce(units: readonly UnitModel[]): Map<string, UnitModel[]> {
    const out = new Map<string, UnitModel[]>();
    for (const u of units) {
        const list = out.get(u.force);
        if (list) list.push(u); else out.set(u.force, [u]);
    }
    return out;
}

const lateOfForce = new WeakMap<object, readonly UnitModel[]>();
const NO_UNITS: readonly UnitModel[] = [];

/**
 * The units with an `enters` stat, by force. Kept by each force's model, which is kept by its node
 * (src/core/scenario.ts): only the forces built again are looked at.
 */
function lateUnits(model: ScenarioModel): Map<string, readonly UnitModel[]> {
    const out = new Map<string, readonly UnitModel[]>();
    for (const force of model.forces.values()) {
        let late = lateOfForce.get(force);
        if (!late) lateOfForce.set(force, late = force.units.some(u => u.stats.has('enters')) ? force.units.filter(u => u.stats.has('enters')) : NO_UNITS);
        if (late.length > 0) out.set(force.name, late);
    }
    return out;
}

/** S6/A7/L3/L9: out of the fight until rallied. A routed unit may still be shot at, seen or rallied. */
function checkOutOfAction(model: ScenarioModel, action: Action, refs: ReadonlyArray<{ target: Target, role: Role }>, everOut: ReadonlyMap<string, readonly UnitModel[]>, accept: ValidationAcceptor): void {
    for (const { target, role } of refs) {
        if (role === 'present') continue;
        const list: Array<{ unit: UnitModel, state: UnitCampaignState }> = [];
        for (const unit of everOut.get(target.force?.$refText ?? '') ?? []) {
            if (!names(target, unit)) continue;
            const state = unitStateAt(model, action, unit);
            if (!state || state.status === 'ready') continue;
            if (role === 'fights' || state.status !== 'routed') list.push({ unit, state });
        }
        if (list.length === 0) continue;
        const what = list.map(({ unit, state }) => `${unit.id} ${state.statusCause ? causeText(state.statusCause) : state.status}`).join('; ');
        const first = list[0].unit.id;
        const whole = target.unit === undefined || (target.index === undefined && list[0].unit.index !== undefined);
        const fix = whole
            ? ` Name the units that fight instead of '${targetText(target)}', or write 'ruling ${first}: rallied, reason "…"' before this ${action.kind}.`
            : ` Write 'ruling ${first}: rallied, reason "…"' before this ${action.kind} if the umpire rallies it.`;
        accept('error', `${what}: ${list.length === 1 ? 'it is' : 'they are'} out of the fight.${fix}`,
            { node: target, code: Codes.unitOutOfAction, data: { units: list.map(l => l.unit.id) } });
    }
}

/** A turn's number by its label: its own, or its place among the turns for a named turn (`enters` names one). */
function turnsByLabel(scenario: Scenario): Map<string, number> {
    const byLabel = new Map<string, number>();
    let ordinal = 0;
    for (const el of scenario.elements) {
        if (el.$type !== 'Turn') continue;
        const turn = el as Turn;
        byLabel.set(turnLabel(turn)!, turnNumber(turn, ++ordinal));
    }
    return byLabel;
}

function turnNumber(turn: Turn, ordinal: number): number {
    return turn.number ?? ordinal;
}

/**
 * Forces are declared at the top level only: a force is declared after a line when its element comes
 * after the one that holds the line (the top-level action or state line, or its turn).
 */
function topOf(node: Action | UnitState): AstNode {
    return node.$container.$type === 'Turn' ? node.$container : node;
}

/**
 * A unit exists from its force's declaration on, and from the turn its `enters` stat names. One
 * reference at a time, no array made: asked of every reference of every action.
 */
function checkExists(top: AstNode, target: Target, lateByForce: ReadonlyMap<string, readonly UnitModel[]>, turn: number, byLabel: ReadonlyMap<string, number>, accept: ValidationAcceptor): void {
    // A force from an imported file is on the field from the start (docs/campaigns.md#campaigns-across-files).
    const force = target.force?.ref;
    if (force && force.$container === top.$container && force.$cstNode && target.$cstNode && force.$containerIndex! > top.$containerIndex!) {
        accept('error', `Force '${target.force.$refText}' is declared further down the file: it is not on the field yet. Move its declaration above this line (a force declared between turns arrives there).`,
            { node: target, property: 'force', code: Codes.forceDeclaredLater });
        return;
    }
    const late = lateByForce.size > 0 ? lateByForce.get(target.force?.$refText ?? '') : undefined;
    if (late) reportNotArrived(target, late, turn, byLabel, accept);
}

/** The first late unit the reference names that has not arrived by this turn. */
function reportNotArrived(target: Target, late: readonly UnitModel[], turn: number, byLabel: ReadonlyMap<string, number>, accept: ValidationAcceptor): void {
    for (const unit of late) {
        if (!names(target, unit)) continue;
        const enters = unit.stats.get('enters');
        const arrives = typeof enters === 'number' ? enters : typeof enters === 'string' ? byLabel.get(enters) : undefined;
        if (arrives === undefined || turn >= arrives) continue;
        const when = turn === 0 ? 'before the first turn' : `in turn ${turn}`;
        accept('error', `${unit.id} enters in turn ${arrives} ('enters ${String(enters)}'): it cannot be used ${when}.`,
            { node: target, code: Codes.unitNotArrived });
        return;
    }
}

/** The keys a state line may set, as the file's rule set counts them (its counters' keys, then the core's). */
function checkStateLine(line: UnitState, ruleset: Ruleset | undefined, accept: ValidationAcceptor): void {
    const formations = ruleset?.vocabulary.stats.formation?.values;
    const known = stateKeys(ruleset), counts = countStateKeys(ruleset);
    for (const fact of line.facts) {
        if (fact.key === undefined) continue; // half-typed: the parser reports it
        if (!known.includes(fact.key)) {
            accept('warning', `'${fact.key}' is not part of a unit's campaign state, so it changes nothing. Known: ${known.join(', ')}.`,
                { node: fact, property: 'key', code: Codes.stateUnknownKey });
            continue;
        }
        const value = factValue(fact);
        if (fact.key === 'formation') {
            if (!formations) {
                accept('warning', 'These rules have no formations: \'formation\' changes nothing.', { node: fact, property: 'key', code: Codes.stateUnknownKey });
            } else if (typeof value !== 'string' || !formations.includes(value)) {
                accept('error', `'formation' is one of ${formations.join(', ')}: 'formation ${formations[0]}'.`, { node: fact, code: Codes.stateValue });
            }
            continue;
        }
        const needsCount = counts.includes(fact.key);
        const needsText = fact.key === 'reason' || fact.key === 'note';
        if ((needsCount && (typeof value !== 'number' || value < 0)) || (needsText && typeof value !== 'string')) {
            accept('error', needsCount ? `'${fact.key}' needs a count of 0 or more: '${fact.key} 2'.` : `'${fact.key}' needs a text: '${fact.key} "…"'.`,
                { node: fact, code: Codes.stateValue });
        }
    }
    if (line.kind === 'ruling' && !line.facts.some(f => f.key === 'reason')) {
        accept('info', 'A ruling records the umpire\'s reason for the campaign\'s readers: add \'reason "…"\'.',
            { node: line, property: 'kind', code: Codes.rulingWithoutReason });
    }
}

/**
 * Outcomes carry state forward, so a written outcome after an action that has none, and is not decided
 * yet (no dice or seed), was worked out without that action's results. Warned on the later outcome,
 * naming the first earlier gap. A gap whose dice are in the file carries its settled outcome: no gap.
 * Asked in the campaign checks' walk (`visit`, each action in file order), reported after it (`report`):
 * should a result that walk called settled turn out not to be (`settledWatch`), the actions are walked again.
 */
function orderCheck(model: ScenarioModel): { visit: (action: Action, turn: Turn | undefined) => void, report: (accept: ValidationAcceptor) => void } {
    const ruleset = model.ruleset;
    const watch = settledWatch(model);
    let gap: Action | undefined;
    let gapTurn: Turn | undefined;
    const after: Outcome[] = [];
    return {
        visit: (action, turn) => {
            if (!ruleset) return;
            const outcome = outcomeOf(model, action);
            // Once there is a gap, an action without outcome changes nothing (asked first: it is most of them).
            if (!outcome && gap) return;
            if (!ruleset.kinds.includes(action.kind)) return;
            if (!outcome) {
                // A gap whose dice are in the file is settled: its outcome is in the state already (docs/campaigns.md#settled).
                // The timeline has told which are, rather than each action's dice asked again at every build.
                if (!gap && !watch.isSettled(action)) { gap = action; gapTurn = turn; }
                return;
            }
            if (gap) after.push(outcome);
        },
        report: accept => {
            if (watch.changed()) {
                // Walked again with the answers as they are now: nothing works a result out in this walk.
                const again = orderCheck(model);
                for (const action of model.actions) again.visit(action.node, action.turn);
                again.report(accept);
                return;
            }
            for (const outcome of after) outOfOrder(gap!, gapTurn, outcome, accept);
        }
    };
}

function outOfOrder(gap: Action, gapTurn: Turn | undefined, outcome: Outcome, accept: ValidationAcceptor): void {
    const where = gapTurn ? ` (turn ${turnLabel(gapTurn)})` : '';
    accept('warning', `This outcome was written while the earlier ${gap.kind} '${gap.name}'${where} has none: the state it used may miss that ${gap.kind}'s results. Resolve in file order ('umpire resolve --write' does).`,
        { node: outcome, keyword: 'outcome', code: Codes.outcomeOutOfOrder });
}
