/**
 * The scenario model of a parse, built once per parse, and the context it is built in: the rule
 * sets a file may name and the limits in force when the file was parsed. The document factory
 * (src/language/battle-document-factory.ts) records the context of each parse it makes; a limit
 * changed by a setting applies from the next parse, never to a model already built.
 */
import type { AstNode } from 'langium';
import type { Action, Scenario, Turn, UnitState } from '../language/generated/ast.js';
import { LIMIT_DEFAULTS, type LimitValues } from './limits.js';
import { RulesetRegistry } from './ruleset.js';
import { buildScenario, importsOf, type ActionModel, type ScenarioModel } from './scenario.js';

export interface ModelContext {
    readonly rulesets: RulesetRegistry;
    readonly limits: LimitValues;
    /**
     * The files this one imports, directly or not, as they are now (the language layer's import graph,
     * docs/campaigns.md#campaigns-across-files). The same array while nothing changed.
     */
    readonly imported?: (root: Scenario) => readonly Scenario[];
    /**
     * The file is built once and never edited (`umpire check`: createBattleServices' `oneShot`): no force's
     * model is kept for an editor's next build (src/core/scenario.ts, `forceModelOf`).
     */
    readonly once?: boolean;
}

/** A parse made outside a document factory knows no rule set: everything is checked, nothing resolves. */
const NO_CONTEXT: ModelContext = { rulesets: new RulesetRegistry([]), limits: LIMIT_DEFAULTS };

const contexts = new WeakMap<Scenario, ModelContext>();
const models = new WeakMap<Scenario, { model: ScenarioModel, imported: readonly Scenario[] }>();
const NONE: readonly Scenario[] = [];

/** Records the context a parse was made in (each parse makes a new root). */
export function setModelContext(root: Scenario, context: ModelContext): void {
    contexts.set(root, context);
}

export function contextOf(root: Scenario): ModelContext {
    return contexts.get(root) ?? NO_CONTEXT;
}

function rootOf(node: AstNode): Scenario {
    let n = node;
    while (n.$container) n = n.$container;
    return n as Scenario;
}

/** The model of the file a node sits in, built once per parse (and again when a file it imports changes). */
export function modelOf(node: AstNode): ScenarioModel {
    const root = rootOf(node);
    const context = contextOf(root);
    const imported = importsOf(root).length > 0 ? context.imported?.(root) ?? NONE : NONE;
    let cached = models.get(root);
    if (!cached || !sameFiles(cached.imported, imported)) {
        cached = { model: buildScenario(root, context, imported), imported };
        models.set(root, cached);
    }
    return cached.model;
}

function sameFiles(a: readonly Scenario[], b: readonly Scenario[]): boolean {
    return a === b || (a.length === b.length && a.every((root, i) => root === b[i]));
}

const actionIndexes = new WeakMap<ScenarioModel, Map<Action, ActionModel>>();

/** The model of an action node, found without a scan (a scan per action made checking quadratic). */
export function actionModelOf(model: ScenarioModel, action: Action): ActionModel | undefined {
    let index = actionIndexes.get(model);
    if (!index) {
        index = new Map(model.actions.map(a => [a.node, a]));
        actionIndexes.set(model, index);
    }
    return index.get(action);
}

// ─── What an action's results depend on ─────────────────────────────────────────────────────────

/**
 * The text as the parser reads it: runs of white space made one space (or one line break, which ends
 * a `//` comment), strings and comments kept as written. Two texts with the same reading parse alike.
 */
function reading(text: string): string {
    return text.replace(/\/\*[\s\S]*?\*\/|\/\/[^\n\r]*|"(?:[^"\\]|\\.)*"|\s+/g, m => (/^\s/.test(m) ? (/[\n\r]/.test(m) ? '\n' : ' ') : m));
}

/** cyrb53: a fast 53-bit string hash (no Node built-in: the core runs in the browser too). */
function hash(text: string, seed = 0): string {
    let h1 = 0xdeadbeef ^ seed, h2 = 0x41c6ce57 ^ seed;
    for (let i = 0; i < text.length; i++) {
        const c = text.charCodeAt(i);
        h1 = Math.imul(h1 ^ c, 2654435761);
        h2 = Math.imul(h2 ^ c, 1597334677);
    }
    h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909);
    h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909);
    return (4294967296 * (2097151 & h2) + (h1 >>> 0)).toString(36);
}

/**
 * A hash of the node's text as the parser reads it, kept by the node: the parse in pieces keeps an
 * unchanged element as the same node with the same text (only moved), so each build reads and hashes
 * only the elements it parsed again, not the whole file.
 */
function keyOf(node: AstNode): string {
    let key = nodeKeys.get(node);
    if (key === undefined) {
        key = hash(node.$cstNode ? reading(node.$cstNode.text) : '');
        nodeKeys.set(node, key);
    }
    return key;
}

const nodeKeys = new WeakMap<AstNode, string>();

const inputKeys = new WeakMap<ScenarioModel, Map<Action, string>>();
let unlisted = 0;

/**
 * A key of everything an action's checks and resolution can read, so that its results can be kept
 * from one parse to the next while the umpire edits elsewhere (docs/performance.md):
 * - the rule set, the limits, and the declarations: every element that is not an action, a turn or a
 *   `state`/`ruling` line (forces, grades, modifiers, options, imports, file-wide house rules), as the
 *   parser reads them;
 * - the whole text of each file it imports, directly or not, in order (their grades, modifiers,
 *   forces and house rules enter the model: docs/campaigns.md#campaigns-across-files);
 * - what the campaign carries to the action: each earlier `state` or `ruling` line and each earlier
 *   action with a written outcome (its whole text: its name and turn appear in the state it leaves);
 *   for a rule set whose actions read other actions (one that carries settled outcomes, or orders a
 *   turn's actions itself), every earlier action and the whole turn the action sits in;
 * - the action itself, and the turn it is in, with the turn's house blocks (tables in force for it).
 * An edit inside one engagement changes the keys of that engagement and, when it carries state, of
 * the actions after it; white space and an edit in an engagement whose results stay put change none.
 * test/language/incremental.test.ts compares the results kept this way with a cold check.
 */
export function actionInputsKey(model: ScenarioModel, action: Action): string {
    let keys = inputKeys.get(model);
    if (!keys) {
        keys = computeInputKeys(model);
        inputKeys.set(model, keys);
    }
    // An action the model does not list (none today) gets a key no other action shares: never kept.
    return keys.get(action) ?? `unlisted:${++unlisted}`;
}

/**
 * What the keys of the last model of a document were made of (by its CST root, which the parse in
 * pieces keeps, as the campaign timeline's `latest`): the next model keeps the keys of the actions
 * before the first changed step and, past the last changed one, of every action from the first whose
 * carried key came out as it was. An edit costs the changed steps, not a hash along every action.
 */
interface KeyedSteps {
    readonly readsOtherActions: boolean;
    /** Everything of the header but the declarations' keys, and the declarations, imports and options as nodes. */
    readonly headerFacts: string;
    readonly declarations: readonly AstNode[];
    readonly imported: readonly Scenario[];
    readonly base: string;
    /** The actions and `state`/`ruling` lines in file order (a turn's own, in its order), with what each read and left. */
    readonly steps: readonly KeyedStep[];
    readonly keys: ReadonlyMap<Action, string>;
}

interface KeyedStep {
    readonly node: Action | UnitState;
    /** Its turn's part of the key ('' outside a turn) and whether it carried (an outcome, or a rule set that reads every action). */
    readonly turnKey: string;
    readonly carries: boolean;
    /** The running key before it. */
    readonly carriedIn: string;
}

const keyedSteps = new WeakMap<object, KeyedSteps>();

function computeInputKeys(model: ScenarioModel): Map<Action, string> {
    const ruleset = model.ruleset;
    // Every action not written yet carries the outcome its dice settle (src/core/campaign-state.ts): each reads those before it.
    const readsOtherActions = ruleset !== undefined;
    const declarations: AstNode[] = [];
    /** The steps with their turns' keys; `carriedIn` filled below. */
    const found: Array<{ node: Action | UnitState, turnKey: string, carries: boolean, carriedIn: string }> = [];
    let ordinal = 0;
    // By `$type` (no subtypes among the elements): every element is visited on every build.
    for (const el of model.root.elements) {
        if (el.$type === 'Action') found.push({ node: el as Action, turnKey: '', carries: readsOtherActions || (el as Action).outcome !== undefined, carriedIn: '' });
        else if (el.$type === 'UnitState') found.push({ node: el as UnitState, turnKey: '', carries: true, carriedIn: '' });
        else if (el.$type === 'Turn') {
            const turn = el as Turn;
            ordinal++;
            // A turn's house blocks change the tables of every action in it (docs/house-rules.md).
            let houses = '';
            if (!readsOtherActions) for (const inner of turn.elements) if (inner.$type === 'House') houses += (houses ? '\n' : '') + keyOf(inner);
            const turnKey = readsOtherActions
                ? keyOf(turn)
                : `${ordinal}:${turn.number ?? ''}:${turn.name ?? ''}:${turn.title ?? ''}${houses ? `:${hash(houses)}` : ''}`;
            for (const inner of turn.elements) {
                if (inner.$type === 'Action') found.push({ node: inner as Action, turnKey, carries: readsOtherActions || (inner as Action).outcome !== undefined, carriedIn: '' });
                else if (inner.$type === 'UnitState') found.push({ node: inner as UnitState, turnKey, carries: true, carriedIn: '' });
            }
        } else declarations.push(el);
    }
    // The declarations' part: every element's key is kept by its node (`keyOf`), the whole hashed again only when one is another node.
    const headerFacts = `${model.rules}\n${JSON.stringify(model.limits)}\n${model.root.title ?? ''}`;
    for (const option of model.root.options) declarations.push(option);
    // The files imported as the model was built from them (the same list modelOf reads).
    const imported = importsOf(model.root).length > 0 ? contextOf(model.root).imported?.(model.root) ?? NONE : NONE;
    const docKey = model.root.$cstNode ?? model.root;
    const before = keyedSteps.get(docKey);
    const sameNodesRead = before !== undefined && before.headerFacts === headerFacts && sameNodes(before.declarations, declarations) && sameNodes(before.imported, imported);
    const base = sameNodesRead ? before.base : hash([headerFacts, ...declarations.map(keyOf), ...imported.map(file => `import\n${keyOf(file)}`)].join('\n'));
    // A declaration parsed again as it was (white space typed in a force) leaves the same base: the steps are kept.
    const sameHeader = before !== undefined && before.readsOtherActions === readsOtherActions && before.base === base;
    const old = sameHeader ? before.steps : [];
    const oldKeys = sameHeader ? before.keys : undefined;
    const same = (a: KeyedStep, b: { node: unknown, turnKey: string, carries: boolean }) => a.node === b.node && a.turnKey === b.turnKey && a.carries === b.carries;
    // The steps before the first changed one, and after the last, are the same steps.
    let first = 0;
    const shortest = Math.min(old.length, found.length);
    while (first < shortest && same(old[first], found[first])) first++;
    let tail = 0;
    while (tail < shortest - first && same(old[old.length - 1 - tail], found[found.length - 1 - tail])) tail++;
    const keys = new Map<Action, string>();
    // A running key of what the campaign carries along the actions: each step that carries adds its key.
    let carried = first < old.length ? old[first].carriedIn : first > 0 ? carriedAfter(old[first - 1]) : base;
    let reused = false;
    for (let i = 0; i < found.length; i++) {
        const step = found[i];
        if (i < first) {
            step.carriedIn = old[i].carriedIn;
            if (step.node.$type === 'Action') keys.set(step.node as Action, oldKeys!.get(step.node as Action)!);
            continue;
        }
        const j = i - found.length + old.length;
        // Past the changed steps, once the running key is what it was there, every later key is too.
        if (!reused && i >= found.length - tail && old[j].carriedIn === carried) reused = true;
        if (reused) {
            step.carriedIn = old[j].carriedIn;
            if (step.node.$type === 'Action') keys.set(step.node as Action, oldKeys!.get(step.node as Action)!);
            continue;
        }
        step.carriedIn = carried;
        const own = keyOf(step.node);
        if (step.node.$type === 'Action') {
            // Hashed: a short flat string, compared at every build by the checks kept on each action (a joined
            // string is a rope that every comparison flattens again).
            keys.set(step.node as Action, hash(`${carried}|${step.turnKey}|${own}`));
        }
        if (step.carries) carried = carriedAfter(step);
    }
    keyedSteps.set(docKey, { readsOtherActions, headerFacts, declarations, imported, base, steps: found, keys });
    return keys;
}

/** The running key after a step: the same for the same step and the same key before it. */
function carriedAfter(step: KeyedStep): string {
    if (!step.carries) return step.carriedIn;
    return step.node.$type === 'Action'
        ? hash(`${step.carriedIn}\n${keyOf(step.node)}\n${step.turnKey}`)
        : hash(`${step.carriedIn}\n${keyOf(step.node)}`);
}

function sameNodes(a: readonly unknown[], b: readonly unknown[]): boolean {
    if (a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
    return true;
}
