/**
 * The scenario model: the AST read into the forces, units, grades and actions the rule sets work
 * on. Units made by a count (`x3`) become separate instances (`Line#1` … `Line#3`); grades' stats are
 * merged under the unit's own. The model is not free of the AST: it keeps each unit's, grade's and
 * action's node, so that checks can point at the text and readers can see an action's statements
 * (ARCHITECTURE.md, "The model holds AST nodes"). Nothing here throws on a broken file: what cannot
 * be read is left out, and the validator says why.
 */
import {
    isForce, isGrade, isHouse, isModifier,
    type Action, type Element, type TurnElement, type Fact, type Force, type Grade, type House, type Import, type Modifier, type Outcome, type Scenario, type Sides, type Stat, type Target, type Turn, type Unit, type UnitState
} from '../language/generated/ast.js';
import { LIMIT_DEFAULTS, type LimitValues } from './limits.js';
import type { Ruleset, RulesetRegistry } from './ruleset.js';
import { coreKept } from './kept.js';

export type StatValue = number | string | true;


export interface UnitModel {
    /** `Force.Unit`, or `Force.Unit#k` for one of several. */
    readonly id: string;
    readonly force: string;
    readonly name: string;
    /** k in `#k` when the unit was declared with a count above 1. */
    readonly index: number | undefined;
    readonly arm: string;
    readonly grade: Grade | undefined;
    /** The grade's value, 0 without a grade. */
    readonly gradeValue: number;
    /** Grade stats, overridden by the unit's own. */
    readonly stats: ReadonlyMap<string, StatValue>;
    /** Position in the force's declaration order (instances of one unit in index order). */
    readonly order: number;
    readonly node: Unit;
}

interface ForceModel {
    readonly name: string;
    readonly units: readonly UnitModel[];
    /** The instances of each declared unit name, so that a reference is found without a scan. */
    readonly byName: ReadonlyMap<string, readonly UnitModel[]>;
    /** No unit name is declared on two lines, so no two instances share an id (`readSideUnits`' quick way). */
    readonly distinctIds: boolean;
    readonly node: Force;
}

export interface ActionModel {
    readonly node: Action;
    /** The turn the action sits in, if any. */
    readonly turn: Turn | undefined;
}

export interface ScenarioModel {
    readonly title: string | undefined;
    /** The rule set's name, as written after `rules` (or the registry's default without a `rules` line). */
    readonly rules: string;
    /** The rule set, or undefined when the file names one that is not known. */
    readonly ruleset: Ruleset | undefined;
    /** The limits in force when the file was parsed (docs/limits.md). */
    readonly limits: LimitValues;
    readonly options: ReadonlyMap<string, StatValue>;
    readonly grades: ReadonlyMap<string, Grade>;
    readonly modifiers: ReadonlyMap<string, Modifier>;
    readonly forces: ReadonlyMap<string, ForceModel>;
    /** Every action in file order, turns flattened. */
    readonly actions: readonly ActionModel[];
    /** Hand-set states and rulings in file order, with the action index they come before. */
    readonly states: ReadonlyArray<{ node: UnitState, beforeAction: number }>;
    /** House rules in file order, each with the turn it sits in (undefined: the whole file), docs/house-rules.md. */
    readonly houses: ReadonlyArray<{ node: House, turn: Turn | undefined }>;
    readonly root: Scenario;
    /**
     * Outcomes this model reads instead of its actions' written ones (`outcomeOf`): Resolve all's new
     * outcomes, and the worlds of a campaign's odds. The parse tree is never changed: a node the parse
     * keeps is the same object with the same properties, so every cache kept by a node stays true.
     */
    readonly overlay?: OutcomeOverlay;
}

interface OutcomeOverlay {
    /** Per action, the outcome the model reads (undefined: none written). */
    readonly outcomes: ReadonlyMap<Action, Outcome | undefined>;
    /**
     * What the caches carried from one model of a file to the next (the campaign timeline, the actions'
     * input keys) keep this run's models by: one object per run, never the document's own key, so a
     * run leaves those of the document as they were.
     */
    readonly run: object;
}

/** The action's outcome as the model reads it: the overlay's, else the one written in the file. */
export function outcomeOf(model: ScenarioModel, action: Action): Outcome | undefined {
    const outcomes = model.overlay?.outcomes;
    return outcomes !== undefined && outcomes.has(action) ? outcomes.get(action) : action.outcome;
}

/** The model with these outcomes laid over the tree's (`run`: see `OutcomeOverlay.run`). */
export function withOutcomes(model: ScenarioModel, outcomes: ReadonlyMap<Action, Outcome | undefined>, run: object): ScenarioModel {
    return { ...model, overlay: { outcomes, run } };
}

/**
 * What the caches carried from one model of a file to the next keep it by: the document's CST root
 * (the parse in pieces keeps it), or an overlay's run. `documentKey` alone, for the run's first model
 * to start from the document's.
 */
export function carriedKey(model: ScenarioModel): object {
    return model.overlay?.run ?? documentKey(model);
}

export function documentKey(model: ScenarioModel): object {
    return model.root.$cstNode ?? model.root;
}

export function statValue(stat: Stat): StatValue {
    const v = stat.value;
    if (!v) return true;
    if (v.number !== undefined) return v.number;
    if (v.word !== undefined) return v.word;
    return unquote(v.text ?? '');
}

export function factValue(fact: Fact): StatValue {
    if (fact.number !== undefined) return fact.number;
    if (fact.text !== undefined) return unquote(fact.text);
    return true;
}

export function unquote(text: string): string {
    return text.startsWith('"') && text.endsWith('"') ? text.slice(1, -1).replace(/\\(.)/g, '$1') : text;
}

const IMPORTS = coreKept.table<Scenario, readonly Import[]>({
    name: 'imports', keeps: 'a root\'s import lines',
    keyedBy: 'the parse\'s root',
    againWhen: 'the root is new'
});

/** A file's `import` lines, found once per parse (the scope and the model ask on every reference). */
export function importsOf(root: Scenario): readonly Import[] {
    let found = IMPORTS.get(root);
    if (!found) {
        // By `$type` (Import has no subtypes): the reflection's `isImport` on each of 10,000 elements was a visible share of a cold check.
        const imports: Import[] = [];
        for (const el of root.elements) if (el.$type === 'Import') imports.push(el as Import);
        IMPORTS.set(root, found = imports);
    }
    return found;
}

/**
 * Each grade and each unit declared in the file (its own, not an import's), in file order: what a rule
 * set's once-a-file stat checks read. A turn holds actions, state lines and house rules only, so only the
 * top level is read, by `$type`: these checks run at every build, over every element of the file.
 */
export function eachStatOwner(root: Scenario, grade: (grade: Grade) => void, unit: (unit: Unit) => void): void {
    for (const el of root.elements) {
        if (el.$type === 'Grade') grade(el as Grade);
        else if (el.$type === 'Force') for (const u of (el as Force).units) unit(u);
    }
}

/** The count of a unit declaration: `x3` → 3; no count → 1. Capped so that no file can allocate without bound. */
export function unitCount(unit: Unit): number {
    if (!unit.count) return 1;
    const n = Number(unit.count.slice(1));
    return Number.isFinite(n) ? n : 0;
}

/**
 * The force's units, counts expanded. At most `room` instances are built (the force and file limits,
 * docs/limits.md): the validator reports the unit lines past it (`units-limit`).
 */
function buildForce(force: Force, limits: LimitValues = LIMIT_DEFAULTS, room = limits.maxUnitsPerForce): ForceModel {
    const units: UnitModel[] = [];
    const forceName = force.name ?? '';
    for (const unit of force.units) {
        const declared = unitCount(unit);
        const count = Math.min(declared, limits.maxCount, room - units.length);
        const grade = unit.grade?.ref;
        const stats = unit.stats.length === 0 && (grade?.stats.length ?? 0) === 0 ? NO_STATS : statsOf(unit, grade);
        for (let k = 1; k <= count; k++) {
            const index = unit.count && declared > 1 ? k : undefined;
            units.push({
                id: `${forceName}.${unit.name}${index ? `#${index}` : ''}`,
                // A half-typed unit line can lack its arm (the parser reports it); every engine expects a word.
                force: forceName, name: unit.name, index, arm: unit.arm ?? '?',
                grade, gradeValue: grade?.value ?? 0, stats, order: units.length, node: unit
            });
        }
    }
    return new BuiltForce(forceName, units, distinctNames(units), force);
}

/**
 * A force's model. Its units by name are made when first asked for: most references name a whole
 * force (`F1 attacks F0`), so a cold check of 50,000 lines made 5,000 maps and 15,000 lists that
 * nothing read.
 */
class BuiltForce implements ForceModel {
    #byName: Map<string, UnitModel[]> | undefined = undefined;

    constructor(readonly name: string, readonly units: readonly UnitModel[], readonly distinctIds: boolean, readonly node: Force) {}

    get byName(): ReadonlyMap<string, readonly UnitModel[]> {
        if (this.#byName) return this.#byName;
        const byName = new Map<string, UnitModel[]>();
        for (const u of this.units) {
            const list = byName.get(u.name);
            if (list) list.push(u); else byName.set(u.name, [u]);
        }
        return this.#byName = byName;
    }
}

/**
 * Whether no unit name is built from two lines (`ForceModel.distinctIds`). The instances of a line
 * are next to each other, so each run of one line's instances is compared with the lines before it:
 * a force has a few lines, and a set is made only for a long one.
 */
function distinctNames(units: readonly UnitModel[]): boolean {
    const lines: UnitModel[] = [];
    for (let i = 0; i < units.length; i++) if (i === 0 || units[i].node !== units[i - 1].node) lines.push(units[i]);
    if (lines.length > 16) {
        const seen = new Map<string, Unit>();
        for (const u of lines) {
            const node = seen.get(u.name);
            if (node && node !== u.node) return false;
            seen.set(u.name, u.node);
        }
        return true;
    }
    for (let i = 1; i < lines.length; i++) {
        for (let j = 0; j < i; j++) if (lines[j].name === lines[i].name && lines[j].node !== lines[i].node) return false;
    }
    return true;
}

/**
 * The stats of a unit line and its grade without any (most lines): one map for all, never changed
 * (a map for each of 15,000 unit lines was a share of a cold check's allocations).
 */
const NO_STATS: ReadonlyMap<string, StatValue> = new Map();

/** A unit line's stats: its grade's, overridden by its own. */
function statsOf(unit: Unit, grade: Grade | undefined): Map<string, StatValue> {
    const stats = new Map<string, StatValue>();
    for (const s of grade?.stats ?? []) stats.set(s.key, statValue(s));
    for (const s of unit.stats) stats.set(s.key, statValue(s));
    return stats;
}

/** A force's model as last built, with what it was built from besides the force's own nodes. */
interface KeptForce {
    /** The most units one line may make (docs/limits.md), and the room the force was given. */
    readonly maxCount: number;
    readonly room: number;
    /** The grade each unit line named, as linked then (a grade edited elsewhere is a new node). */
    readonly grades: ReadonlyArray<Grade | undefined>;
    /** The grades in scope then (`gradesInScope`): while they are the same nodes, each unit's grade links where it did. */
    readonly scope: object;
    /** Every instance its lines ask for was built (none cut by `room`). */
    readonly whole: boolean;
    readonly model: ForceModel;
}

/**
 * Each force's model kept by its node: the parse in pieces keeps an unchanged force as the same node
 * (docs/performance.md), so an edit elsewhere builds only the forces it touched. A node is never
 * changed in place (an edit makes new nodes), but its grade references are linked again on every
 * build, so the grades they point at are compared; the units left under the file's limit are too.
 */
const keptForces = coreKept.table<Force, KeptForce>({
    name: 'force models', keeps: 'a force\'s model, with the grades it read and the unit limit it was cut at',
    keyedBy: 'a force node (the parse in pieces keeps an unchanged force as the same node)',
    againWhen: 'the node is new, a grade it names is another node, or the limit changed'
});

function forceModelOf(force: Force, limits: LimitValues, room: number, scope: object): ForceModel {
    const kept = keptForces.get(force);
    if (kept && kept.maxCount === limits.maxCount && (kept.room === room || (kept.whole && room >= kept.model.units.length))
        && (kept.scope === scope || force.units.every((unit, i) => unit.grade?.ref === kept.grades[i]))) {
        if (kept.scope !== scope) keptForces.set(force, { ...kept, scope });
        return kept.model;
    }
    const model = buildForce(force, limits, room);
    let asked = 0;
    const grades: Array<Grade | undefined> = [];
    for (const unit of force.units) {
        asked += Math.min(unitCount(unit), limits.maxCount);
        grades.push(unit.grade?.ref);
    }
    keptForces.set(force, { maxCount: limits.maxCount, room, grades, scope, whole: model.units.length === asked, model });
    return model;
}

/** The grades in scope of the last file built, and the token that stands for them. */
let lastScope: { grades: readonly Grade[], token: object } | undefined;

/**
 * An object that is the same while the grades a file's units can name are the same nodes (its own
 * and those of the files it imports, in order): a unit's grade reference, its text unchanged (a kept
 * force), then links to the same grade, so a kept force's model needs no look at each unit's link
 * (a visible share of every build at 50,000 lines, docs/performance.md).
 */
function gradesInScope(root: Scenario, imported: readonly Scenario[]): object {
    const grades: Grade[] = [];
    for (const file of imported) for (const el of file.elements) if (el.$type === 'Grade') grades.push(el as Grade);
    for (const el of root.elements) if (el.$type === 'Grade') grades.push(el as Grade);
    if (lastScope && lastScope.grades.length === grades.length && lastScope.grades.every((g, i) => g === grades[i])) return lastScope.token;
    lastScope = { grades, token: {} };
    return lastScope.token;
}

/**
 * The model of a file. `imported` are the files it imports (docs/campaigns.md#campaigns-across-files):
 * their grades, modifiers and forces come first, as if pasted where they are imported, but a name the
 * file declares itself is its own (the validator reports the clash); their top-level house rules apply
 * before the file's own (docs/house-rules.md#shared); their actions stay theirs.
 */
export function buildScenario(root: Scenario, context: { rulesets: RulesetRegistry, limits: LimitValues, once?: boolean }, imported: readonly Scenario[] = []): ScenarioModel {
    const { limits, once } = context;
    const grades = new Map<string, Grade>();
    const modifiers = new Map<string, Modifier>();
    const forces = new Map<string, ForceModel>();
    const actions: ActionModel[] = [];
    const states: Array<{ node: UnitState, beforeAction: number }> = [];
    const houses: Array<{ node: House, turn: Turn | undefined }> = [];
    const options = new Map<string, StatValue>();
    let unitsLeft = limits.maxUnitsPerFile;
    // A file built once keeps no force's model (5,000 entries, their lists of grades, at 50,000 lines): nothing would read them.
    const scope = once ? undefined : gradesInScope(root, imported);
    for (const o of root.options) {
        options.set(o.name, o.number ?? o.word ?? (o.text !== undefined ? unquote(o.text) : true));
    }
    // By `$type` (no subtypes among the elements): the reflection's `isX` is slower, and every element is visited on every build.
    const visit = (el: Element | TurnElement, turn: Turn | undefined) => {
        switch (el.$type) {
            case 'Grade': if (!grades.has(el.name)) grades.set(el.name, el); break;
            case 'Modifier': if (!modifiers.has(el.name)) modifiers.set(el.name, el); break;
            case 'Force': {
                if (forces.has(el.name)) return;
                const room = Math.min(limits.maxUnitsPerForce, unitsLeft);
                const force = scope === undefined ? buildForce(el, limits, room) : forceModelOf(el, limits, room, scope);
                unitsLeft -= force.units.length;
                forces.set(el.name, force);
                break;
            }
            case 'Action': actions.push({ node: el, turn }); break;
            case 'UnitState': states.push({ node: el, beforeAction: actions.length }); break;
            case 'House': houses.push({ node: el, turn }); break;
            case 'Turn': for (const inner of el.elements) visit(inner, el); break;
        }
    };
    if (imported.length > 0) {
        const own = new Set(root.elements.filter(el => isGrade(el) || isModifier(el) || isForce(el)).map(el => `${el.$type} ${el.name}`));
        for (const file of imported) {
            for (const el of file.elements) {
                if ((isGrade(el) || isModifier(el) || isForce(el)) && !own.has(`${el.$type} ${el.name}`)) visit(el, undefined);
                // A club's house rules kept in a shared file apply to every file that imports it, before the file's own.
                else if (isHouse(el)) visit(el, undefined);
            }
        }
    }
    for (const el of root.elements) visit(el, undefined);
    const rules = root.rules ?? misplacedRules(root)?.name ?? context.rulesets.defaultId;
    return {
        title: root.title !== undefined ? unquote(root.title) : undefined,
        rules, ruleset: context.rulesets.get(rules), limits,
        options, grades, modifiers, forces, actions, states, houses, root
    };
}

/**
 * The unit instances a reference names: a whole force, every instance of a unit, or one instance.
 * An index out of range names nothing.
 */
/**
 * A `rules` line below the file's first lines (after a force, say), which the grammar cannot read
 * there: the file is still checked under the rule set it names, and the syntax error on the line says
 * where it goes, so that one misplaced line does not make every other line wrong.
 */
export function misplacedRules(root: Scenario): { name: string, offset: number } | undefined {
    if (root.rules !== undefined) return undefined;
    const text = root.$cstNode?.text ?? '';
    const m = /^[ \t]*rules[ \t]+([A-Za-z_][\w-]*)/m.exec(text);
    return m ? { name: m[1], offset: m.index + m[0].indexOf('rules') } : undefined;
}

/**
 * The units a reference names, in declaration order. The force model's own lists when the reference names a
 * whole force or every instance of a unit (read for every reference of every action at every build: no copy).
 */
export function unitsOf(model: ScenarioModel, target: Target | undefined): readonly UnitModel[] {
    // A half-typed statement (`split X 6 on`) leaves its target undefined: it names no unit.
    const force = target && model.forces.get(target.force?.$refText ?? '');
    if (!target || !force) return NO_UNITS;
    if (!target.unit) return force.units;
    const matching = force.byName.get(target.unit.$refText) ?? NO_UNITS;
    if (target.index === undefined) return matching;
    return matching.filter(u => (u.index ?? 1) === target.index);
}

const NO_UNITS: readonly UnitModel[] = Object.freeze([]);

/** The label to show for a reference, as written. */
export function targetText(target: Target | undefined): string {
    if (!target) return '?';
    let text = target.force?.$refText ?? '?';
    if (target.unit) text += `.${target.unit.$refText}`;
    if (target.index !== undefined) text += `#${target.index}`;
    return text;
}

/** Turn label for display: `turn 2 "Dawn"` → `2`; `turn Dawn` → `Dawn`. */
export function turnLabel(turn: Turn | undefined): string | undefined {
    if (!turn) return undefined;
    return turn.name ?? String(turn.number);
}

type SideUnits = { attackers: UnitModel[], defenders: UnitModel[] } | undefined;

/** The last action's sides while its checks run (`keepingSideUnits`), with the model they were read from. */
let keptSides: { model: ScenarioModel, action: Action, sides: SideUnits } | undefined;
let keeping = 0;

/**
 * Runs an action's checks with its sides read once: its size check and its rule set's checks each ask for
 * them (a cold check of 50,000 lines asked 10,000 times, docs/performance.md, "The checks' own work").
 * Forgotten when the checks end, so a later build (a new model, or the same model brought up to date)
 * reads them again. Callers read the arrays and never change them.
 */
export function keepingSideUnits<T>(run: () => T): T {
    keeping++;
    try {
        return run();
    } finally {
        if (--keeping === 0) keptSides = undefined;
    }
}

/** The units on each side of an action's `A attacks B`, each once, in force declaration order. */
export function sideUnits(model: ScenarioModel, action: Action): SideUnits {
    if (keeping === 0) return readSideUnits(model, action);
    if (keptSides?.model === model && keptSides.action === action) return keptSides.sides;
    const sides = readSideUnits(model, action);
    keptSides = { model, action, sides };
    return sides;
}

function readSideUnits(model: ScenarioModel, action: Action): SideUnits {
    // By `$type` (Sides has no subtypes): read for every action of every build.
    let sides: Sides | undefined;
    for (const st of action.statements) if (st.$type === 'Sides') { sides = st as Sides; break; }
    if (!sides) return undefined;
    return { attackers: sideOf(model, sides.attackers), defenders: sideOf(model, sides.defenders) };
}

/** A side's units, each once, its forces in the order written and each force's units in declaration order. */
function sideOf(model: ScenarioModel, targets: readonly Target[]): UnitModel[] {
    // Most sides are one whole force (`F1 attacks F0`): its units as declared, without the map and sort below.
    if (targets.length === 1 && !targets[0].unit) {
        const force = model.forces.get(targets[0].force?.$refText ?? '');
        if (!force) return [];
        if (force.distinctIds) return force.units.slice();
    }
    // A later line of the same name and instance stands for the id (it was declared last).
    const seen = new Map<string, UnitModel>();
    const forces: string[] = [];
    for (const t of targets) {
        for (const u of unitsOf(model, t)) {
            seen.set(u.id, u);
            if (!forces.includes(u.force)) forces.push(u.force);
        }
    }
    return Array.from(seen.values()).sort((a, b) => forces.indexOf(a.force) - forces.indexOf(b.force) || a.order - b.order);
}
