/**
 * Reads a SCRUD engagement into the engine's input (docs/rules/scrud.md, S1–S3): who is on each side, each
 * unit's die and modifier, and the dice entered from the table, if any.
 */
import { isDice, isFactor, isFacts, isFlag, type Action, type Dice, type Factor } from '../../language/generated/ast.js';
import { D6, dieNamed, type Die } from '../../core/dice.js';
import { enteredDiceSource, type DiceRequest, type DiceSource, type EnteredValues } from '../../core/dice-source.js';
import { fixedDice, type DicePlan, type DicePlanStep } from '../../core/dice-plan.js';
import { pursuitThrowers, resolveScrud, type PursuitRule, type ScrudInput, type ScrudSide, type ScrudUnit } from './engine/scrud-engine.js';
import { sideUnits, targetText, unitsOf, type ScenarioModel, type UnitModel } from '../../core/scenario.js';
import { tablesFor } from '../../core/house-rules.js';
import type { ScrudPairResult, ScrudTables } from './engine/scrud-tables.js';
import { coreKept } from '../../core/kept.js';

/**
 * The die a unit throws (S1): its own or its grade's `die` stat; else the house rules' die for its
 * grade, or for `all`; else the scenario's `option die`; else d6.
 */
function scrudDie(model: ScenarioModel, action: Action, unit: UnitModel): Die {
    const own = unit.stats.get('die');
    const tables = tablesFor(model, action);
    const house = (unit.grade ? tables.word<string>('die', unit.grade.name) : undefined) ?? tables.word<string>('die', ALL_GRADES);
    const fallback = model.options.get('die');
    const name = typeof own === 'string' ? own : house ?? (typeof fallback === 'string' ? fallback : 'd6');
    return dieNamed(name) ?? D6;
}

/** S2.7: `option clamp-six`, the seed's "6 is the MAX score and 1 the lowest" for every die. */
export const CLAMP = 'clamp-six';

/** The key of the house `die` table that names every grade. */
export const ALL_GRADES = 'all';

/** SCRUD's engine tables in force for an engagement: the seed's, as the file's house rules change them. */
export function scrudTables(model: ScenarioModel, action: Action): ScrudTables {
    const tables = tablesFor(model, action);
    const clamp = (key: string) => tables.word<string>('clamp', key) !== 'no';
    const six = model.options.has(CLAMP);
    return { results: tables.bands<ScrudPairResult>('result'), clampLow: clamp('low'), clampHigh: clamp('high'), ...(six ? { clampSix: true } : {}) };
}

/** S2: grade value plus every factor of the engagement that names the unit, its force, or it by index. */
function scrudModifier(model: ScenarioModel, action: Action, unit: UnitModel): number {
    return unit.gradeValue + (factorTotals(model, action).get(unit.id) ?? 0);
}

/**
 * Kept per model, then per action: an action's node outlives an edit elsewhere (a modifier's value)
 * when the file is parsed in pieces, and must not keep an older model alive.
 */
const factorCache = coreKept.table<ScenarioModel, WeakMap<Action, Map<string, number>>>({
    name: 'scrud factors', keeps: 'each action\'s factor totals per unit',
    keyedBy: 'a model, then an action node',
    againWhen: 'the model is new'
});

/**
 * The sum of the factors each unit of an action receives, computed once per action. Each named
 * factor counts once for a unit ([S2.5] of docs/rules/scrud.md): naming it twice, in one line (`factor Uphill, Uphill on A`) or
 * in two (`factor Uphill on A` and `factor Uphill on A.Line`), does not stack; the check
 * `factor-repeated` tells the umpire. (Per-unit scans were quadratic.)
 */
function factorTotals(model: ScenarioModel, action: Action): Map<string, number> {
    let perAction = factorCache.get(model);
    if (!perAction) factorCache.set(model, perAction = new WeakMap());
    const cached = perAction.get(action);
    if (cached) return cached;
    const totals = new Map<string, number>();
    const given = new Set<string>();
    for (const st of action.statements) {
        if (!isFactor(st)) continue;
        for (const m of st.modifiers) {
            if (!m.ref) continue;
            for (const t of st.targets) {
                for (const u of unitsOf(model, t)) {
                    const key = `${m.ref.name}\u0000${u.id}`;
                    if (given.has(key)) continue;
                    given.add(key);
                    totals.set(u.id, (totals.get(u.id) ?? 0) + m.ref.value);
                }
            }
        }
    }
    perAction.set(action, totals);
    return totals;
}

/** A factor named again where it already applies: where, and whether the repeat can simply go. */
export interface FactorRepeat {
    factor: Factor;
    property: 'modifiers' | 'targets';
    index: number;
    message: string;
    /** Removing the flagged modifier or target changes nothing (the fix offered). */
    removable: boolean;
}

/** S2.5: every factor named more than once for a unit of the action, in the order written. */
export function factorRepeats(model: ScenarioModel, action: Action): FactorRepeat[] {
    // A factor can apply again to a unit only from a second target: with one factor line of one target
    // (most engagements), only a name written twice in it is a repeat, and the units need not be read.
    let factors = 0, targets = 0, modifiers = 0;
    // By `$type` (Factor has no subtypes): asked of every engagement on every build.
    for (const st of action.statements) {
        if (st.$type !== 'Factor') continue;
        factors++;
        targets += (st as Factor).targets.length;
        modifiers += (st as Factor).modifiers.length;
    }
    const oneTarget = factors === 1 && targets <= 1;
    // One factor line of one target naming one modifier (most engagements) repeats nothing.
    if (factors === 0 || (oneTarget && modifiers <= 1)) return [];
    return repeatsAmong(model, action, oneTarget);
}

/** `factorRepeats` where a repeat is possible: its own function, so that the quick test above compiles small. */
function repeatsAmong(model: ScenarioModel, action: Action, oneTarget: boolean): FactorRepeat[] {
    const repeats: FactorRepeat[] = [];
    const given = new Map<string, string>();
    for (const st of action.statements) {
        if (!isFactor(st)) continue;
        const names = st.modifiers.map(m => m.ref?.name);
        names.forEach((name, i) => {
            if (name !== undefined && names.indexOf(name) < i) {
                repeats.push({ factor: st, property: 'modifiers', index: i, removable: true, message: `'${name}' is named twice in this line: it applies once.` });
            }
        });
        if (oneTarget) continue;
        const distinct = [...new Set(names.filter((n): n is string => n !== undefined))];
        st.targets.forEach((t, i) => {
            const units = unitsOf(model, t);
            const again = distinct.flatMap(name => units.filter(u => given.has(`${name}\u0000${u.id}`)).map(u => ({ name, unit: u.id, first: given.get(`${name}\u0000${u.id}`)! })));
            if (again.length > 0) {
                const first = again[0];
                const more = again.length > 1 ? ` (and ${again.length - 1} more)` : '';
                repeats.push({
                    factor: st, property: 'targets', index: i, removable: again.length === distinct.length * units.length,
                    message: `'${first.name}' already applies to ${first.unit} (from '${first.first}')${more}: a factor counts once for a unit.`
                });
            }
            for (const name of distinct) for (const u of units) if (!given.has(`${name}\u0000${u.id}`)) given.set(`${name}\u0000${u.id}`, targetText(t));
        });
    }
    return repeats;
}

function isPooled(model: ScenarioModel, action: Action): boolean {
    return model.options.get('pooled') === true || action.statements.some(s => isFlag(s) && s.name === 'pooled');
}

export function buildScrudInput(model: ScenarioModel, action: Action): ScrudInput | undefined {
    const sides = sideUnits(model, action);
    if (!sides || sides.attackers.length === 0 || sides.defenders.length === 0) return undefined;
    const toSide = (units: UnitModel[]): ScrudSide => ({
        force: units[0].force,
        units: units.map((u): ScrudUnit => ({
            id: u.id, force: u.force, unit: u.id.slice(u.force.length + 1), arm: u.arm,
            die: scrudDie(model, action, u), modifier: scrudModifier(model, action, u)
        }))
    });
    return { attacker: toSide(sides.attackers), defender: toSide(sides.defenders), pooled: isPooled(model, action) };
}

/** The dice lines that feed one side's combat dice: lines whose target is one of the side's forces or units. */
export function diceLinesFor(model: ScenarioModel, action: Action, side: readonly ScrudUnit[]): Dice[] {
    const ids = new Set(side.map(u => u.id));
    return action.statements.filter(isDice).filter(d => d.label !== PURSUIT && unitsOf(model, d.target).some(u => ids.has(u.id)));
}

/** S-ex.6: the fact that gives a unit a pursuit throw, the label of its entered throw, and the option of its rule. */
export const PURSUIT = 'pursuit';
/** S1.3: the comment's variant, a 1 runs away and a 6 pursues. */
export const RUNS_AND_PURSUES = 'runs-and-pursues';
/** S-ex.6: a pursuit throw of 4 or more on a d6 pursues, unless `option pursuit N` says otherwise. */
const DEFAULT_PURSUIT_FROM = 4;

/**
 * The pursuit rule of an engagement, or undefined when it has none (no unit given a pursuit throw and
 * no variant): then nothing is added to its input, and outcomes written before pursuit existed stay current.
 */
export function pursuitRuleOf(model: ScenarioModel, action: Action): PursuitRule | undefined {
    const marked = new Set<string>();
    for (const st of action.statements) {
        if (isFacts(st) && st.facts.some(f => f.key === PURSUIT)) for (const u of unitsOf(model, st.target)) marked.add(u.id);
    }
    const runsAndPursues = model.options.get(RUNS_AND_PURSUES) === true;
    if (marked.size === 0 && !runsAndPursues) return undefined;
    const from = model.options.get(PURSUIT);
    const faces = tablesFor(model, action);
    return {
        from: typeof from === 'number' ? from : DEFAULT_PURSUIT_FROM, runsAndPursues, marked,
        runsOn: faces.word<number>(RUNS_AND_PURSUES, 'runs')!, pursuesOn: faces.word<number>(RUNS_AND_PURSUES, 'pursues')!
    };
}

/**
 * The units a dice line feeds, in the order its values are read: the line's target units that are on
 * the side, narrowed to the labelled arm (a label that is not an arm of the side feeds nothing).
 */
export function unitsFedBy(model: ScenarioModel, line: Dice, side: readonly ScrudUnit[]): ScrudUnit[] {
    const named = new Set(unitsOf(model, line.target).map(u => u.id));
    return side.filter(u => named.has(u.id) && (line.label === undefined || u.arm === line.label));
}

/**
 * The values of an engagement's `dice` lines, for the one entered dice source (docs/rules/scrud.md
 * S1, S-ex.6). A combat line's values feed, in order, the units it names on one side narrowed to its
 * arm, one value each; a later line for the same unit replaces an earlier one, so later lines come
 * first (the validator flags the repeat). A pursuit line's values feed, in order, the units it names
 * that throw for pursuit.
 */
export function scrudEnteredValues(model: ScenarioModel, action: Action, input: ScrudInput): Array<EnteredValues<Dice>> {
    const entries: Array<EnteredValues<Dice>> = [];
    for (const side of [input.attacker, input.defender]) {
        for (const line of diceLinesFor(model, action, side.units).reverse()) {
            unitsFedBy(model, line, side.units).forEach((u, i) => {
                if (i < line.values.length) entries.push({ origin: line, who: [u.id], label: u.arm, values: [line.values[i]], firstIndex: i });
            });
        }
    }
    for (const line of action.statements.filter(isDice).filter(d => d.label === PURSUIT)) {
        entries.push({ origin: line, who: unitsOf(model, line.target).map(u => u.id), label: PURSUIT, values: line.values });
    }
    return entries;
}

/** The combat die of one unit (S1): its own die, under its arm. */
const combatDie = (u: ScrudUnit): DiceRequest => ({ who: [u.id], label: u.arm, die: u.die, count: 1 });

/**
 * Each unit's combat die from the source, attacker first, each side in declaration order (the order
 * of the dice plan); a unit left without a die (too few entered) gets NaN, which the validator reports
 * before anything resolves.
 */
export function scrudCombatDice(input: ScrudInput, source: DiceSource): { attacker: number[], defender: number[] } {
    const side = (s: ScrudSide) => s.units.map(u => source.take(combatDie(u))[0] ?? Number.NaN);
    const attacker = side(input.attacker);
    return { attacker, defender: side(input.defender) };
}

/** Entered dice per side in declaration order, or undefined when the engagement has no dice lines. */
export function enteredScrudDice(model: ScenarioModel, action: Action, input: ScrudInput): { attacker: number[], defender: number[] } | undefined {
    if (!action.statements.some(isDice)) return undefined;
    return scrudCombatDice(input, enteredDiceSource(scrudEnteredValues(model, action, input)));
}

/**
 * The dice of an engagement, in the order they are taken (docs/rules/scrud.md#dice-plan): one die
 * for each unit, attacker first, each side in declaration order; then, with a pursuit rule, one d6
 * for each unit given a pursuit throw that won its pair (S-ex.6), which only the combat dice decide.
 */
export function scrudDicePlan(model: ScenarioModel, action: Action, input: ScrudInput): DicePlan {
    const units = [...input.attacker.units, ...input.defender.units];
    const steps: DicePlanStep[] = units.map(u => fixedDice(combatDie(u)));
    const rule = pursuitRuleOf(model, action);
    if (rule) {
        steps.push({
            kind: 'conditional',
            reason: `a unit given a pursuit throw throws a d6 only if it wins its pair (S-ex.6)${rule.runsAndPursues ? `, and not when its own die shows a ${rule.runsOn} or a ${rule.pursuesOn} (S1.3)` : ''}`,
            upTo: units.filter(u => rule.marked.has(u.id)).length,
            requests(earlier) {
                if (earlier.length < units.length || earlier.slice(0, units.length).some(v => v.length !== 1)) return [];
                const thrown = earlier.map(v => v[0]);
                const combat = resolveScrud(input, { attacker: thrown.slice(0, input.attacker.units.length), defender: thrown.slice(input.attacker.units.length, units.length) });
                return pursuitThrowers(combat, rule).map(id => ({ who: [id], label: PURSUIT, die: D6, count: 1 }));
            }
        });
    }
    return { steps };
}
