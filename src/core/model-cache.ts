/**
 * The scenario model of a parse, built once per parse, and the context it is built in: the rule
 * sets a file may name and the limits in force when the file was parsed. The document factory
 * (src/language/battle-document-factory.ts) records the context of each parse it makes; a limit
 * changed by a setting applies from the next parse, never to a model already built.
 */
import type { AstNode } from 'langium';
import type { Action, Force, Scenario, Target, Turn, UnitState } from '../language/generated/ast.js';
import { countsOnly, roles } from './action-roles.js';
import { LIMIT_DEFAULTS, type LimitValues } from './limits.js';
import { RulesetRegistry } from './ruleset.js';
import { buildScenario, carriedKey, documentKey, importsOf, outcomeOf, unitsOf, type ActionModel, type ScenarioModel } from './scenario.js';
import { coreKept } from './kept.js';

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
    /**
     * The parse's record of its edits (the language layer's, battle-document-factory.ts `ParsedFrom.elements`):
     * `tree` stands for this tree, and `changedSince(tree)` says which top-level elements changed since the earlier
     * tree `tree` stood for, as one span: the first `first` elements are the same nodes, in place; the next `added`
     * are new, in place of `replaced` of the earlier tree; every element after them is the same node as in the earlier
     * tree. Undefined when the record does not reach back to it. The campaign timeline reads it for where its kept
     * part may end, and to take the kept elements after the span as its steps without comparing them.
     */
    readonly edits?: EditsOfParse;
    /**
     * The document's first parse, in an editor: its action keys, which only a next build reads, are made
     * after its first build (`finishOwedKeys`), so that its first problems are out sooner.
     */
    readonly keysAfter?: boolean;
}

interface EditsOfParse {
    readonly tree: object;
    changedSince(tree: object): { readonly first: number, readonly replaced: number, readonly added: number } | undefined;
}

/** A parse made outside a document factory knows no rule set: everything is checked, nothing resolves. */
const NO_CONTEXT: ModelContext = { rulesets: new RulesetRegistry([]), limits: LIMIT_DEFAULTS };

const contexts = new WeakMap<Scenario, ModelContext>();
const models = coreKept.table<Scenario, { model: ScenarioModel, imported: readonly Scenario[] }>({
    name: 'models', keeps: 'the scenario model of a parse, with the imported files it was built with',
    keyedBy: 'the parse\'s root',
    againWhen: 'the root is new (every parse makes one), or a file it imports is another parse'
});
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

const actionIndexes = coreKept.table<ScenarioModel, Map<Action, ActionModel>>({
    name: 'action index', keeps: 'each action node\'s model, so that an action\'s model is found without a scan',
    keyedBy: 'a model',
    againWhen: 'the model is new'
});

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
    return text.replace(READ_AS_ONE, oneOfARun);
}

/**
 * Comments, strings, and the runs of white space that do not read as written: a lone space is left out of the
 * matches (it reads as itself), so that only about one run a line calls the replacer, not one a word.
 */
const READ_AS_ONE = /\/\*[\s\S]*?\*\/|\/\/[^\n\r]*|"(?:[^"\\]|\\.)*"|[^\S ]\s*| \s+/g;

/** A comment or a string as written (it starts with `/` or `"`); a run of white space as one line break or one space. */
function oneOfARun(match: string): string {
    const first = match.charCodeAt(0);
    if (first === 47 /* / */ || first === 34 /* " */) return match;
    return match.includes('\n') || match.includes('\r') ? '\n' : ' ';
}

/**
 * cyrb53: a fast 53-bit string hash (no Node built-in: the core runs in the browser too), written in
 * decimal: V8 writes a number in base 36 ten times slower than in base 10, and a file's first keys hash
 * every element and every step (at 50,000 lines, about 20,000 hashes).
 */
function hash(text: string, seed = 0): string {
    let h1 = 0xdeadbeef ^ seed, h2 = 0x41c6ce57 ^ seed;
    for (let i = 0; i < text.length; i++) {
        const c = text.charCodeAt(i);
        h1 = Math.imul(h1 ^ c, 2654435761);
        h2 = Math.imul(h2 ^ c, 1597334677);
    }
    h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909);
    h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909);
    return String(4294967296 * (2097151 & h2) + (h1 >>> 0));
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

/**
 * Whether a node of an earlier parse read as this one does (their hashes, `keyOf`): two elements that read
 * alike parse alike, so a node the parse made again with white space typed into it says what the one it
 * replaced said. Only by the hash made while the earlier node's text was the file's: after an edit its
 * syntax tree may read the new text (the parse in pieces moves and shares it), so an earlier node never
 * hashed is not known to read alike.
 */
export function sameReading(earlier: AstNode, node: AstNode): boolean {
    const was = nodeKeys.get(earlier);
    return was !== undefined && was === keyOf(node);
}

const nodeKeys = coreKept.table<AstNode, string>({
    name: 'node keys', keeps: 'a hash of a node\'s text as the parser reads it',
    keyedBy: 'a node (the parse in pieces keeps an unchanged element as the same node)',
    againWhen: 'the node is new'
});

/**
 * What of a file's header the checks and the campaign timeline of its elements can read: the rule set it
 * names, its seal, and its options as the parser reads them; not its title. The parse in pieces keeps every
 * element as the same node after an edit of the header, so what was kept for an element holds while this
 * key is the same (the header's nodes are new after every such edit: they are compared by their text).
 */
export function headerKeyOf(root: Scenario): string {
    let key = `${root.rules ?? ''}\n${root.seal ?? ''}\n${root.reveal ?? ''}`;
    for (const option of root.options) key += `\n${keyOf(option)}`;
    return key;
}

/**
 * An action's two keys: of everything its checks and resolution read, and of what its resolution reads
 * (`settledInputsKey`). Undefined only in a key a document's first build still owes (`finishOwedKeys`).
 */
export interface ActionKey {
    readonly all: string | undefined;
    readonly settled: string | undefined;
}

/** Each action's two keys. One map of both: a 50,000-line file sets one entry per action at every build. */
type ActionKeys = Map<Action, ActionKey>;

const inputKeys = coreKept.table<ScenarioModel, ActionKeys>({
    name: 'action input keys', keeps: 'each action\'s key of everything its checks and resolution read, and its key of what its resolution reads',
    keyedBy: 'a model',
    againWhen: 'the model is new'
});
let unlisted = 0;

/**
 * A key of everything an action's checks and resolution can read, so that its results can be kept
 * from one parse to the next while the umpire edits elsewhere (docs/performance.md#what-an-actions-key-covers):
 * - the rule set, the limits, and the declarations: every element that is not an action, a turn or a
 *   `state`/`ruling` line (forces, grades, modifiers, options, imports, file-wide house rules), as the
 *   parser reads them; not the scenario's title, which no check and no result reads;
 * - the whole text of each file it imports, directly or not, in order (their grades, modifiers,
 *   forces and house rules enter the model: docs/campaigns.md#campaigns-across-files);
 * - the action itself, as the parser reads it (its written outcome included);
 * - for each unit it names (a whole force names each of its units), the key of the last step before it
 *   that can write the unit's state: an action whose outcome can name the unit (every unit it names but
 *   by a `factor` or `dice` line, and those its written lines name) or a `state`/`ruling` line on it.
 *   That step's key holds, in turn, the keys of the last writers of the units it names, so the chain
 *   reaches every earlier step the unit's state comes from, and no other;
 * - inside a turn, the turn as one step: its whole text (its other actions, its house blocks, its
 *   number), its place among the turns, and the last writers of every unit any of its elements names (a
 *   rule set may put a turn's actions in its own order, and read what else the turn holds).
 * An edit inside one engagement changes the keys of that engagement and of the later actions that name
 * a unit it can change, directly or through others; white space, the title, and an edit in an
 * engagement whose units nothing later names change none.
 * test/language/incremental.test.ts compares the results kept this way with a cold check.
 */
export function actionInputsKey(model: ScenarioModel, action: Action): string {
    // An action the model does not list (none today) gets a key no other action shares: never kept.
    return madeKeysOf(model).get(action)?.all ?? `unlisted:${++unlisted}`;
}

/**
 * A key of what an action's resolution reads, for its settled result (docs/performance.md#what-an-actions-key-covers):
 * `actionInputsKey` with, of the forces, only those its step names (by the name written, every force
 * declared under it) and those the steps its units' states come from name, through the same chain of last
 * writers. The checks read every force (a name declared twice, a die no pair can reach), the rule sets'
 * resolution only the forces of the units it resolves: an edit of an unrelated force changes no such key.
 */
export function settledInputsKey(model: ScenarioModel, action: Action): string {
    return madeKeysOf(model).get(action)?.settled ?? `unlisted:${++unlisted}`;
}

/**
 * An action's two keys, for what a build keeps for the next one to compare (`sameInputs`,
 * `sameSettledInputs`): in a document's first build (`ModelContext.keysAfter`), one the build owes, filled
 * when its keys are made (`finishOwedKeys`), after its problems are out and before the next parse.
 */
export function actionKey(model: ScenarioModel, action: Action): ActionKey {
    const keys = inputKeys.get(model);
    if (keys) return keys.get(action) ?? unlistedKey();
    const owing = owedFor(model);
    if (!owing) return madeKeysOf(model).get(action) ?? unlistedKey();
    let key = owing.keys.get(action);
    if (!key) owing.keys.set(action, key = { all: undefined, settled: undefined });
    return key;
}

/** Whether two keys of an action's inputs are one: a key still owed is the same as itself only. */
export function sameInputs(kept: ActionKey, now: ActionKey): boolean {
    return kept === now || (kept.all !== undefined && kept.all === now.all);
}

/** The same for the keys of what its resolution reads. */
export function sameSettledInputs(kept: ActionKey, now: ActionKey): boolean {
    return kept === now || (kept.settled !== undefined && kept.settled === now.settled);
}

/** Runs `then` once the model's keys are made (at once if they are): what a build keeps by a key's text. */
export function afterKeys(model: ScenarioModel, then: () => void): void {
    const owing = inputKeys.has(model) ? undefined : owedFor(model);
    if (owing) owing.after.push(then);
    else then();
}

function unlistedKey(): ActionKey {
    const key = `unlisted:${++unlisted}`;
    return { all: key, settled: key };
}

function madeKeysOf(model: ScenarioModel): ActionKeys {
    let keys = inputKeys.get(model);
    if (!keys) {
        const owing = owed.get(carriedKey(model));
        if (owing?.model === model) return finishOwed(owing);
        keys = computeInputKeys(model);
        inputKeys.set(model, keys);
    }
    return keys;
}

/**
 * A document's first build, in an editor, owes its action keys: only the next build reads them (to keep
 * what did not change), and in a 50,000-line campaign they were a tenth of the time to its first problems.
 * The build keeps its results under keys to be filled (`actionKey`); they are made once the client is quiet
 * or, at the latest, before the next parse (the document factory calls `finishOwedKeys`), while every
 * node still reads the text it was parsed from, with the imported files the model was built with. Keys
 * are never owed for a file built once, a model with outcomes laid over it, or a later build.
 */
interface Owed {
    readonly model: ScenarioModel;
    readonly imported: readonly Scenario[];
    /** The keys handed out, to be filled. */
    readonly keys: Map<Action, { all: string | undefined, settled: string | undefined }>;
    /** What waits for the keys' text (`afterKeys`). */
    readonly after: Array<() => void>;
}

/** By the document (`carriedKey`): a model built again from the same parse before its keys were made takes the place of the earlier. */
const owed = new Map<object, Owed>();

function owedFor(model: ScenarioModel): Owed | undefined {
    if (model.overlay || !contextOf(model.root).keysAfter) return undefined;
    const docKey = carriedKey(model);
    let owing = owed.get(docKey);
    if (owing?.model === model) return owing;
    // A model of this document was keyed already (a rebuild of the same parse): its keys carry over.
    if (keyedSteps.get(docKey) !== undefined) return undefined;
    // The earlier model's keys are never made: what it kept is never matched, and is worked out again.
    owing = { model, imported: models.get(model.root)?.imported ?? NONE, keys: new Map(), after: [] };
    owed.set(docKey, owing);
    return owing;
}

/** Makes every key a first build owes (`Owed`). Called before any parse, and when the client is quiet. */
export function finishOwedKeys(): void {
    for (const owing of [...owed.values()]) finishOwed(owing);
}

/** How many owed keys' builds were made later (tests read it). */
export const owedCounts = { finished: 0 };

function finishOwed(owing: Owed): ActionKeys {
    owed.delete(carriedKey(owing.model));
    const keys = computeInputKeys(owing.model, owing.imported);
    inputKeys.set(owing.model, keys);
    for (const [action, key] of owing.keys) {
        const made = keys.get(action) ?? unlistedKey();
        key.all = made.all;
        key.settled = made.settled;
    }
    owedCounts.finished++;
    for (const then of owing.after) then();
    return keys;
}

/**
 * What the keys of the last model of a document were made of (by its CST root, which the parse in
 * pieces keeps, or an overlay's run: `carriedKey`, as the campaign timeline's `latest`): a step the next model holds as the same node,
 * at the same place among the turns, whose units' last writers have the keys they had, keeps its key
 * without a hash. An edit costs the steps whose inputs changed, and a look at each step's units.
 */
interface KeyedSteps {
    /** Everything of the header but the declarations' keys, and the declarations, imports and options as nodes. */
    readonly headerFacts: string;
    readonly declarations: readonly AstNode[];
    readonly imported: readonly Scenario[];
    readonly base: string;
    /** The declarations' part of the settled keys: every declaration but the forces. */
    readonly settledBase: string;
    readonly steps: ReadonlyMap<Step, KeyedStep>;
    /** Each unit id's slot in the builds' arrays of last writers: kept while the declarations' key is the same. */
    readonly slots: UnitSlots;
    /** The steps in file order, and the keys their actions got: what the next model takes when its steps read as these did. */
    readonly order: readonly Step[];
    readonly keys: ActionKeys;
    /** Made for a model with outcomes laid over the tree: its steps' units are read with those outcomes. */
    readonly overlay: boolean;
}

/**
 * A number per unit of the model, its place among all the forces' units (the forces in the model's order,
 * each force's units in its order): the last writer of each unit is kept in an array by slot, not a map by
 * id (a 50,000-line file writes tens of thousands of units at every build). The declarations' key (`base`)
 * fixes the forces, their order and their units, so the slots hold for every model built under it. A
 * reference that names one unit of an id names every unit of that id (same force, name and index), so a unit
 * read by slot is read as it was by id. Only the first unit's slot of each force is kept: a unit's slot is
 * that plus its place in its force (`UnitModel.order`).
 */
interface UnitSlots {
    /** How many units the forces hold in all. */
    readonly size: number;
    /** By the force's name, as the model's forces are kept: the slot of its first unit. */
    readonly firstOf: ReadonlyMap<string | undefined, number>;
}

function unitSlotsOf(model: ScenarioModel): UnitSlots {
    const firstOf = new Map<string | undefined, number>();
    let size = 0;
    for (const [name, force] of model.forces) {
        firstOf.set(name, size);
        size += force.units.length;
    }
    return { size, firstOf };
}

/** An action or a `state`/`ruling` line outside turns, or a whole turn. */
type Step = Action | UnitState | Turn;

interface KeyedStep {
    /** Its turn's place among the turns ('' outside a turn). */
    readonly place: string;
    /** The key of the last writer of each unit it reads, in `unitsOfStep(...).readSlots` order, when its key was made. */
    readonly writers: readonly string[];
    readonly key: string;
    /** The keys of its actions, in order (one for an action, none for a line, one per action of a turn). */
    readonly actionKeys: readonly string[];
    /** The same two for the settled keys: the forces it names instead of every declaration, and its units' last writers' settled keys. */
    readonly settledKey: string;
    readonly settledActionKeys: readonly string[];
}

function computeInputKeys(model: ScenarioModel, importedThen?: readonly Scenario[]): ActionKeys {
    const declarations: AstNode[] = [];
    const steps: Step[] = [];
    // By `$type` (no subtypes among the elements): every element is visited on every build.
    for (const el of model.root.elements) {
        if (el.$type === 'Action' || el.$type === 'UnitState' || el.$type === 'Turn') steps.push(el as Step);
        else declarations.push(el);
    }
    // The declarations' part: every element's key is kept by its node (`keyOf`), the whole hashed again only when one is another node.
    const headerFacts = `${model.rules}\n${JSON.stringify(model.limits)}`;
    for (const option of model.root.options) declarations.push(option);
    // The files imported as the model was built from them (the same list modelOf reads).
    const imported = importedThen ?? (importsOf(model.root).length > 0 ? contextOf(model.root).imported?.(model.root) ?? NONE : NONE);
    const docKey = carriedKey(model);
    const before = keyedSteps.get(docKey) ?? (model.overlay ? keyedSteps.get(documentKey(model)) : undefined);
    const sameNodesRead = before !== undefined && before.headerFacts === headerFacts && sameNodes(before.declarations, declarations) && sameNodes(before.imported, imported);
    const base = sameNodesRead ? before.base : hash([headerFacts, ...declarations.map(keyOf), ...imported.map(file => `import\n${keyOf(file)}`)].join('\n'));
    // A declaration parsed again as it was (white space typed in a force) leaves the same base: the steps are kept.
    const old = before !== undefined && before.base === base ? before.steps : undefined;
    const slots: UnitSlots = before !== undefined && before.base === base ? before.slots : unitSlotsOf(model);
    if (before !== undefined && before.base === base && !model.overlay && !before.overlay) {
        const taken = keysAlike(before, steps);
        if (taken) {
            keyedCounts.taken++;
            keyedSteps.set(docKey, { ...before, headerFacts, declarations, imported, order: steps, keys: taken.keys, steps: taken.steps });
            return taken.keys;
        }
    }
    // The settled keys' declarations: all but the forces, which each step takes by the names it writes.
    // Made only when a step is keyed again (every element's key is kept by its node).
    let settledBase = before !== undefined && before.base === base ? before.settledBase : undefined;
    let forceKeys: Map<string, string> | undefined;
    const settledDeclarations = (): { settledBase: string, forceKeys: Map<string, string> } => {
        if (!forceKeys) {
            const rest: string[] = [headerFacts];
            forceKeys = new Map();
            for (const d of declarations) {
                if (d.$type === 'Force') {
                    const name = (d as Force).name;
                    forceKeys.set(name, `${forceKeys.get(name) ?? ''}\n${keyOf(d)}`);
                } else rest.push(keyOf(d));
            }
            for (const file of imported) rest.push(`import\n${keyOf(file)}`);
            settledBase ??= hash(rest.join('\n'));
        }
        return { settledBase: settledBase!, forceKeys };
    };
    /**
     * Per unit id, the last step so far that can write its state: its key and its settled key. One map of
     * both (each step sets an entry per unit it writes: tens of thousands in a 50,000-line file, at every build).
     */
    // Filled up front: an array written at scattered indices past its end would fall back to a dictionary.
    const writerOf: Array<KeyedStep | undefined> = new Array<KeyedStep | undefined>(slots.size).fill(undefined);
    const keyed = new Map<Step, KeyedStep>();
    const keys: ActionKeys = new Map();
    let ordinal = 0;
    for (const node of steps) {
        const place = node.$type === 'Turn' ? String(++ordinal) : '';
        const units = unitsOfStep(model, node, base, slots);
        const kept = old?.get(node);
        let step = kept !== undefined && kept.place === place && sameWriters(kept.writers, units.readSlots, writerOf) ? kept : undefined;
        if (!step) {
            const writers = units.readSlots.map(slot => writerOf[slot]?.key ?? '');
            // Hashed: a short flat string, compared at every build by the checks kept on each action (a joined
            // string is a rope that every comparison flattens again).
            const own = keyOf(node);
            const key = hash(`${base}|${place}|${own}|${units.readSlots.map((slot, i) => `${slot}=${writers[i]}`).join(',')}`);
            // Every step is keyed again here (a kept step's settled writers are its kept writers': same base, same inputs).
            const declared = settledDeclarations();
            const forces = units.forces.map(name => `${name}:${declared.forceKeys.get(name) ?? 'none'}`).join('\n');
            const settledKey = hash(`${declared.settledBase}|${forces}|${place}|${own}|${units.readSlots.map(slot => `${slot}=${writerOf[slot]?.settledKey ?? ''}`).join(',')}`);
            step = { place, writers, key, actionKeys: actionKeysOf(node, key), settledKey, settledActionKeys: actionKeysOf(node, settledKey) };
        }
        for (const slot of units.writeSlots) writerOf[slot] = step;
        keyed.set(node, step);
        if (node.$type === 'Action') keys.set(node as Action, { all: step.actionKeys[0], settled: step.settledActionKeys[0] });
        else if (node.$type === 'Turn') {
            let i = 0;
            for (const inner of (node as Turn).elements) {
                if (inner.$type !== 'Action') continue;
                keys.set(inner as Action, { all: step.actionKeys[i], settled: step.settledActionKeys[i++] });
            }
        }
    }
    keyedSteps.set(docKey, { headerFacts, declarations, imported, base, settledBase: settledBase ?? settledDeclarations().settledBase, steps: keyed, slots, order: steps, keys, overlay: model.overlay !== undefined });
    return keys;
}

/** How many models took the last model's keys as they were, their steps reading as its steps did (tests read it). */
export const keyedCounts = { taken: 0 };

/**
 * The last model's keys, when this model's steps are its steps in the same order (under the same declarations'
 * key, without outcomes laid over either), each the same node or a new one that reads alike (white space typed
 * into an engagement or a turn): every step then has the units, the place and the last writers it had, so
 * its key and its actions' keys are the ones it had. A new node takes the key of the one it stands for.
 * Undefined when a step is another, or one was added or taken out: the steps are keyed in turn.
 */
function keysAlike(before: KeyedSteps, steps: readonly Step[]): { keys: ActionKeys, steps: ReadonlyMap<Step, KeyedStep> } | undefined {
    const order = before.order;
    if (order.length !== steps.length) return undefined;
    let swapped: Array<readonly [Step, Step]> | undefined;
    for (let i = 0; i < steps.length; i++) {
        const was = order[i], now = steps[i];
        if (was === now) continue;
        if (was.$type !== now.$type || !sameReading(was, now)) return undefined;
        if (now.$type === 'Turn' && (was as Turn).elements.length !== (now as Turn).elements.length) return undefined;
        (swapped ??= []).push([was, now]);
    }
    if (!swapped) return { keys: before.keys, steps: before.steps };
    const keys = before.keys, keyed = before.steps as Map<Step, KeyedStep>;
    // Every swap checked before any entry moves: the maps are the last model's, taken over in place.
    for (const [was, now] of swapped) {
        if (!keyed.has(was) || (now.$type === 'Action' && !keys.has(was as Action))) return undefined;
        if (now.$type !== 'Turn') continue;
        // A turn that reads alike holds elements that read alike, in order.
        const a = (was as Turn).elements, b = (now as Turn).elements;
        for (let j = 0; j < a.length; j++) {
            if (a[j].$type !== b[j].$type) return undefined;
            if (a[j] !== b[j] && a[j].$type === 'Action' && !keys.has(a[j] as Action)) return undefined;
        }
    }
    // Moved, not copied (a copy of both maps cost more than the rest of an edit's keys): the last model
    // asked for a swapped node's key gets one no other action has, so nothing is kept for it.
    for (const [was, now] of swapped) {
        moveEntry(keyed, was, now);
        if (now.$type === 'Action') moveEntry(keys, was as Action, now as Action);
        else if (now.$type === 'Turn') {
            const a = (was as Turn).elements, b = (now as Turn).elements;
            for (let j = 0; j < a.length; j++) if (a[j] !== b[j] && a[j].$type === 'Action') moveEntry(keys, a[j] as Action, b[j] as Action);
        }
    }
    return { keys, steps: keyed };
}

/** Moves a map's entry, if it has one, from an old node to the new node that stands for it (the map's order is not kept). */
export function moveEntry<K, V>(map: Map<K, V>, was: K, now: K): void {
    if (!map.has(was)) return;
    map.set(now, map.get(was)!);
    map.delete(was);
}

const keyedSteps = coreKept.table<object, KeyedSteps>({
    name: 'keyed steps', keeps: 'what the last model\'s action keys were made of: each step\'s key and the keys of its units\' last writers',
    keyedBy: 'what carries from a file\'s last model to its next (`carriedKey`: its CST root, or an overlay\'s run)',
    againWhen: 'a declaration, an import, an option or the header changed (every step keyed again), or a step is another node, at another place among the turns, or its units have other last writers'
});

/** The keys of a step's actions: its own for an action; each of a turn's, by its place in the turn and its text (two alike are two). */
function actionKeysOf(node: Step, key: string): string[] {
    if (node.$type === 'Action') return [key];
    if (node.$type !== 'Turn') return [];
    const out: string[] = [];
    for (const inner of (node as Turn).elements) if (inner.$type === 'Action') out.push(hash(`${key}|${out.length}|${keyOf(inner)}`));
    return out;
}

/** Whether each unit's last writer is the one it was when the step's key was made. */
function sameWriters(writers: readonly string[], reads: readonly number[], writerOf: ReadonlyArray<KeyedStep | undefined>): boolean {
    if (writers.length !== reads.length) return false;
    for (let i = 0; i < reads.length; i++) if ((writerOf[reads[i]]?.key ?? '') !== writers[i]) return false;
    return true;
}

// ─── The units a step reads and writes ──────────────────────────────────────────────────────────

interface StepUnits {
    /** The slots (`UnitSlots`) of every unit it names: their states are what its checks and resolution start from. */
    readonly readSlots: readonly number[];
    /** The slots of the units whose state it can change (a subset of `readSlots`). */
    readonly writeSlots: readonly number[];
    /** The forces it names, by the name written (sorted): what of the forces its resolution reads. */
    readonly forces: readonly string[];
}

/**
 * Kept by the step's node, with the declarations' key it was worked out under (unit ids come from
 * the forces), the slots its units were given in, and the outcomes of its actions it was read with.
 * A model with an overlay reads what is kept but keeps nothing: a kept node's entry stays the document's.
 */
const stepUnitsKept = coreKept.table<Step, { base: string, slots: UnitSlots, outcomes: ReadonlyArray<unknown>, units: StepUnits }>({
    name: 'step units', keeps: 'the units a step (an action, a state line, a turn) reads and writes',
    keyedBy: 'a step\'s node, with the declarations\' key, the unit slots and the outcomes it was read with',
    againWhen: 'the node is new, the declarations\' key changed (the slots are new then too), or its actions read other outcomes'
});

function unitsOfStep(model: ScenarioModel, node: Step, base: string, slots: UnitSlots): StepUnits {
    const kept = stepUnitsKept.get(node);
    if (kept && kept.base === base && kept.slots === slots && sameOutcomes(model, node, kept.outcomes)) return kept.units;
    const reads = new Set<number>(), writes = new Set<number>(), forces = new Set<string>();
    const add = (target: Target, written: boolean) => {
        const name = target.force?.$refText ?? '';
        forces.add(name);
        const first = slots.firstOf.get(name);
        if (first === undefined) return;
        for (const u of unitsOf(model, target)) {
            reads.add(first + u.order);
            if (written) writes.add(first + u.order);
        }
    };
    const visit = (el: AstNode) => {
        if (el.$type === 'Action') {
            // A `factor` or `dice` line only adds to a unit the action names otherwise: a unit named only there
            // is not one its outcome writes (`countsOnly`, as the campaign timeline reads it). The references come from
            // the list the campaign timeline made at the open (`roles`, kept by the node), not a walk of the action.
            for (const { target } of roles(el as Action)) add(target, !countsOnly(target));
            const outcome = outcomeOf(model, el as Action);
            if (outcome) {
                // An outcome line names its unit and its opponent (test/core/campaign-state.test.ts holds it to the tree).
                for (const line of outcome.lines) {
                    if (line.unit) add(line.unit, true);
                    if (line.opponent) add(line.opponent, true);
                }
            }
        } else if (el.$type === 'UnitState') {
            if ((el as UnitState).target) add((el as UnitState).target, true);
        }
    };
    if (node.$type === 'Turn') for (const inner of (node as Turn).elements) visit(inner);
    else visit(node);
    const units = { readSlots: [...reads], writeSlots: [...writes], forces: [...forces].sort() };
    if (!model.overlay) stepUnitsKept.set(node, { base, slots, outcomes: outcomesOf(model, node), units });
    return units;
}

function outcomesOf(model: ScenarioModel, node: Step): unknown[] {
    if (node.$type === 'Action') return [outcomeOf(model, node as Action)];
    if (node.$type !== 'Turn') return [];
    const out: unknown[] = [];
    for (const inner of (node as Turn).elements) if (inner.$type === 'Action') out.push(outcomeOf(model, inner as Action));
    return out;
}

/** Whether the step's actions hold the outcomes they held, as the model reads them (no array made: every kept step is asked at every build). */
function sameOutcomes(model: ScenarioModel, node: Step, outcomes: ReadonlyArray<unknown>): boolean {
    if (node.$type === 'Action') return outcomes.length === 1 && outcomeOf(model, node as Action) === outcomes[0];
    if (node.$type !== 'Turn') return outcomes.length === 0;
    let i = 0;
    for (const inner of (node as Turn).elements) if (inner.$type === 'Action' && (i >= outcomes.length || outcomeOf(model, inner as Action) !== outcomes[i++])) return false;
    return i === outcomes.length;
}

function sameNodes(a: readonly unknown[], b: readonly unknown[]): boolean {
    if (a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
    return true;
}
