/**
 * The node validator: checks only what an edit changed, keeping each element's problems in arrays beside the
 * elements (docs/performance.md#linking-and-checking-what-changed).
 */
import { AstUtils, Cancellation, interruptAndCheck, type AstNode, type LangiumCoreServices, type LangiumDocument, type MaybePromise, type ValidationAcceptor, type ValidationOptions } from 'langium';
import { BattleDocumentValidator } from './battle-document-validator.js';
import { isScenario, isTurn, type Action, type Force, type Scenario } from './generated/ast.js';
import { actionChecksOf, replayActionChecks, type ActionChecks } from './validation/battle-validator.js';
import { headerKeyOf, modelOf } from '../core/model-cache.js';
import { type AnyReference, type ElementLinks, BattleLinker } from './battle-linker.js';
import { keptUnits, nodesOf, sameItems, elementsOf } from './battle-tree-walks.js';
import { elementsChangedSince, parsedFrom, type ParseElements } from './battle-document-factory.js';
import type { BattleCaches, LastBuild } from './battle-caches.js';

type Check = (node: AstNode, accept: ValidationAcceptor, token: Cancellation.CancellationToken) => MaybePromise<void>;
type KeptProblem = Parameters<ValidationAcceptor>;

/**
 * Checks whose result reads more than their element, its links and the file's rule set and limits,
 * run again at every build even in a kept element: an action's (the campaign state it starts from;
 * they keep their own results by a key of their inputs, `BattleValidator.checkAction`) and a house
 * block's (the other house blocks of the file and of its turn).
 */
const RUN_AGAIN = new Set(['Action', 'House']);

/**
 * Checks that also read the file's declarations: a unit's read the grades (an arm written as a
 * grade), a force's whether it is the first force of its name and how many units the forces before
 * it build (towards the file's limit). Kept while the grades and imports are the same nodes, the force
 * is still (or still not) the first of its name, and the file's units are below its limit (then every
 * force builds what it declares, whatever the others do).
 */
const READS_DECLARATIONS = new Set(['Force', 'Unit']);

/** A node whose checks run again at every build (`RUN_AGAIN`), with what an action's check last kept on it. */
interface RunAgain {
    readonly node: AstNode;
    action: ActionChecks | undefined;
}

/** What the checks of a unit found, beyond what `CheckedTree.flags` say: its problems, and the nodes whose checks run again. */
interface KeptChecks {
    /** For a force whose checks read the declarations: its name (`FIRST_OF_NAME`). */
    readonly name: string | undefined;
    /** In walk order: problems to report again, or a node whose checks run again. */
    readonly entries: ReadonlyArray<readonly KeptProblem[] | RunAgain>;
}

/** `CheckedTree.flags`: what a unit's kept checks read. */
const KEPT_CHECKS = 1, READS_GRADES = 2, FIRST_OF_NAME = 4, IS_FIRST = 8;
/** A unit whose checks found nothing and run nothing again (most forces): no object kept. */
const NOTHING: KeptChecks = { name: undefined, entries: [] };

/**
 * What the last complete validation of a document kept, in arrays beside its units (as the linker
 * keeps its links): a kept unit is judged by comparing pointers and reading flags, without reading
 * its node or an object of its own (a unit's kept object is read only when it has problems or
 * checks to run again).
 */
interface CheckedTree {
    readonly units: readonly AstNode[];
    /** The parse's record of the tree checked (`ParsedFrom.elements`): which elements were kept since is read from the record of the next. */
    readonly parse: ParseElements | undefined;
    /** The elements' units (the linker's `units`, in `units` from `first` on), and where each top-level element's first one is among them (the linker's `tops`). */
    readonly elements: readonly AstNode[];
    readonly first: number;
    readonly tops: Int32Array;
    /** The links each unit's checks read (`links[k] === ` the linker's: its references point where they did). */
    readonly links: ReadonlyArray<ElementLinks | undefined>;
    readonly flags: Uint8Array;
    readonly checks: readonly KeptChecks[];
    /** What every kept unit's checks read of the build: the rule set, limits and categories, and the header (`headerKeyOf`). */
    readonly ruleset: unknown;
    readonly header: string;
    readonly limits: unknown;
    readonly categories: string;
    readonly imported: readonly AstNode[];
    /** The same object while the grades and imports are the same nodes. */
    readonly grades: object;
}

/**
 * Langium's validator awaits at every node and at every check of it, asks the registry for a node
 * type's checks anew at each node, and walks the whole tree at every build. The checks of this
 * language are synchronous: here each one runs as soon as it is called (so the problems come in the
 * same order), the checks of a type are looked up once per build, and the walk waits and looks at the
 * cancellation token every thousand nodes. The root's checks run at every build; a unit kept by the
 * parse in pieces whose links were kept (so its references point where they did) and whose checks
 * read nothing else that changed gets its problems again without a walk
 * (docs/performance.md#linking-and-checking-what-changed). What is kept lies in arrays beside the
 * units, compared by position: a kept unit's node is not read at all. Which units were kept is read
 * from the parse's record of its edits since the tree checked last (battle-document-factory.ts
 * `elementsChangedSince`), as the linker reads it; with other imports, or a record that does not reach
 * back to that tree, every unit is checked again.
 */
export class BattleNodeValidator extends BattleDocumentValidator {
    private readonly linker: unknown;
    private readonly checked: LastBuild<LangiumDocument, CheckedTree>;
    /** Nodes walked, units whose checks were kept, and actions whose checks were reported again without running, since the services were made: tests read them. */
    readonly counts = { walked: 0, kept: 0, actionsReplayed: 0 };

    /** `oneShot`: each document is checked once and never edited (createBattleServices' `oneShot`), so no unit's checks are kept. */
    constructor(services: LangiumCoreServices, caches: BattleCaches, private readonly oneShot = false) {
        super(services);
        this.linker = services.references.Linker;
        this.checked = caches.lastBuild({
            name: 'checks', keeps: "each element's problems and flags, with the links, rule set, header, limits, categories, imports and grades they were found under",
            keyedBy: 'the document',
            againWhen: 'an element is new, its links were not kept, what its checks read changed, or the record of the parse\'s edits does not reach back to the tree checked last'
        });
    }

    /** Only the unresolved references, which the linker keeps per unit, are read (not every reference of the file). */
    protected override referencesToReport(document: LangiumDocument): Iterable<LangiumDocument['references'][number]> {
        const tree = this.linker instanceof BattleLinker ? this.linker.linkedTree(document) : undefined;
        if (!tree) return document.references;
        const unresolved: AnyReference[] = [];
        for (let k = 0; k < tree.failed.length; k++) if (tree.failed[k]) for (const reference of tree.links[k].unresolved) unresolved.push(reference);
        return unresolved as LangiumDocument['references'];
    }

    protected override async validateAstNodes(rootNode: AstNode, options: ValidationOptions, acceptor: ValidationAcceptor, cancelToken = Cancellation.CancellationToken.None): Promise<void> {
        const checksByType = new Map<string, Check[]>();
        const checks = (type: string) => {
            let found = checksByType.get(type);
            if (!found) checksByType.set(type, found = this.validationRegistry.getChecks(type, options.categories).toArray());
            return found;
        };
        const running: Array<MaybePromise<void>> = [];
        let count = 0, nextCheck = 1000;
        const pause = async () => {
            nextCheck = count + 1000;
            await Promise.all(running.splice(0));
            await interruptAndCheck(cancelToken);
        };
        const run = (node: AstNode, accept: ValidationAcceptor) => {
            // Indexed, not `for…of`: an iterator's result object per check of each node until the loop is optimized.
            const found = checks(node.$type);
            for (let i = 0; i < found.length; i++) {
                // Synchronous checks return nothing (BattleValidationRegistry): only a promise is waited for.
                const result = found[i](node, accept, cancelToken);
                if (result) running.push(result);
            }
        };
        if (this.oneShot && isScenario(rootNode)) {
            // Nothing is kept for a next build: every node's checks run, in the order of the walk below (the tree's order).
            const nodes = nodesOf(rootNode, node => this.validateSingleNodeOptions(node, options).validateChildren);
            // The nodes up to the next pause, in a plain function (as `keptRun` below): V8 optimizes its loop at once,
            // where a loop in this async function stays unoptimized, making an iterator result for each of 100,000 nodes.
            const runNode = (node: AstNode) => {
                if (this.validateSingleNodeOptions(node, options).validateNode) run(node, acceptor);
            };
            const runFrom = (from: number): number => {
                let k = from;
                for (; k < nodes.length && count + 1 < nextCheck; k++) {
                    count++;
                    runNode(nodes[k]);
                }
                return k;
            };
            for (let k = runFrom(0); k < nodes.length; k = runFrom(k + 1)) {
                // The thousandth node since the last pause: a pause before its checks, as in the walks below.
                count++;
                await pause();
                runNode(nodes[k]);
            }
            this.counts.walked += count;
            await Promise.all(running);
            return;
        }
        if (!isScenario(rootNode)) {
            const nodes = AstUtils.streamAst(rootNode).iterator();
            for (const node of nodes) {
                if (++count >= nextCheck) await pause();
                const nodeOptions = this.validateSingleNodeOptions(node, options);
                if (nodeOptions.validateNode) run(node, acceptor);
                if (!nodeOptions.validateChildren) nodes.prune();
            }
            await Promise.all(running);
            return;
        }
        const root = rootNode;
        if (this.validateSingleNodeOptions(root, options).validateNode) run(root, acceptor);
        count++;
        const document = root.$document;
        const tree = document && this.linker instanceof BattleLinker ? this.linker.linkedTree(document) : undefined;
        // Without the linker's record of this tree, no unit's links are known to be those its checks read: nothing is kept.
        const elements = tree?.units ?? elementsOf(root.elements, true);
        // The root's other children (its options: no references, few) are units too, walked at every build, where
        // Langium's walk meets them; `first` is where the elements' units start.
        const { units, first } = withHeader(root, elements);
        // An interrupted validation leaves the last complete one's record, still true of the nodes it names.
        const previous = document && tree ? this.checked.get(document) : undefined;
        const imported = tree?.imported ?? [];
        const model = modelOf(root);
        const ruleset = model.ruleset, limits = model.limits, categories = options.categories?.join(',') ?? '*', header = headerKeyOf(root);
        const parsed = document?.parseResult;
        const syntaxErrors = parsed ? parsed.lexerErrors.length + parsed.parserErrors.length > 0 : undefined;
        // What the kept units' checks read that an edit can change: the grades and imports (as nodes), and the
        // forces of a name (whether a kept force is still the first of its name), from the units added and removed.
        let oldIndex: Int32Array | undefined, grades: object = {}, renamed: Set<string> | undefined;
        const parse = document ? parsedFrom(document)?.elements : undefined;
        // Which elements were kept since the tree checked last, as the parse recorded them (`elementsChangedSince`), as the
        // linker reads them. With other imports, or a record that does not reach back to that tree, every unit is checked again.
        const sameBuild = previous && previous.parse && previous.ruleset === ruleset && previous.limits === limits && previous.categories === categories && previous.header === header && sameItems(previous.imported, imported);
        const edit = sameBuild && tree ? elementsChangedSince(document!, previous.parse!) : undefined;
        const match = edit && keptUnits(previous!.elements, previous!.tops, elements, tree!.tops, edit);
        const usable = match ? previous : undefined;
        if (usable && match) {
            // The header's units (its options) are never kept (they have no links of their own): only the elements' are matched.
            if (units === elements && usable.units === usable.elements) oldIndex = match.oldIndex;
            else {
                oldIndex = new Int32Array(units.length).fill(-1);
                for (let k = 0; k < elements.length; k++) oldIndex[first + k] = match.oldIndex[k] < 0 ? -1 : match.oldIndex[k] + usable.first;
            }
            renamed = new Set();
            let gradesChanged = false;
            for (const changed of [match.added, match.removed]) {
                for (const node of changed) {
                    if (node.$type === 'Grade' || node.$type === 'Import') gradesChanged = true;
                    else if (node.$type === 'Force') renamed.add((node as Force).name);
                }
            }
            if (!gradesChanged) grades = usable.grades;
        }
        let belowLimit: boolean | undefined;
        // By `$type`: the reflection's `isX` was a visible share of a build.
        const firstOfName = (element: AstNode) => model.forces.get((element as Force).name)?.node === element;
        const belowLimitNow = () => belowLimit ??= [...model.forces.values()].reduce((n, f) => n + f.units.length, 0) < model.limits.maxUnitsPerFile;
        // Checks that read the declarations are kept only when the file was below its limit, so it was then too.
        const readDeclarationsAsBefore = (element: AstNode, flags: number, j: number) => usable!.grades === grades
            && (!(flags & FIRST_OF_NAME) || !renamed!.has(usable!.checks[j].name!) || ((flags & IS_FIRST) !== 0) === firstOfName(element))
            && belowLimitNow();
        // A `RUN_AGAIN` node's checks; an action's only check (`checkAction`) reports its last problems again
        // without running while its inputs are the same (the keep-alive test pins that it is the only one).
        const runAgain = (entry: RunAgain) => {
            const node = entry.node;
            if (node.$type === 'Action' && replayActionChecks(node as Action, acceptor, model, syntaxErrors, entry.action)) {
                this.counts.actionsReplayed++;
                return;
            }
            run(node, acceptor);
            if (node.$type === 'Action') entry.action = actionChecksOf(node as Action);
        };
        const keptLinks: Array<ElementLinks | undefined> = [], keptChecks: KeptChecks[] = [];
        const keptFlags = new Uint8Array(units.length);
        // The kept units from `from` on, up to the first one whose checks must run (or a pause is due). A plain
        // function, not this async one: V8 optimizes a loop in an async function only with the whole function,
        // builds after an open, so the first edits went over 10,000 kept units unoptimized
        // (docs/performance.md#the-first-edits-after-an-open).
        const keptRun = (from: number): number => {
            let k = from;
            for (; k < units.length && count < nextCheck; k++) {
                const links = k >= first && k < first + elements.length ? tree?.links[k - first] : undefined;
                const j = oldIndex ? oldIndex[k] : -1;
                const flags = j >= 0 ? usable!.flags[j] : 0;
                if (!(flags & KEPT_CHECKS && usable!.links[j] === links && (!(flags & READS_GRADES) || readDeclarationsAsBefore(units[k], flags, j)))) break;
                this.counts.kept++;
                const before = usable!.checks[j];
                keptLinks.push(links);
                keptChecks.push(before);
                keptFlags[k] = flags;
                if (before === NOTHING) continue;
                for (const entry of before.entries) {
                    if (Array.isArray(entry)) for (const problem of entry as readonly KeptProblem[]) acceptor(...problem);
                    else runAgain(entry as RunAgain);
                    count++;
                }
            }
            return k;
        };
        for (let k = 0; k < units.length; k++) {
            if (count >= nextCheck) await pause();
            k = keptRun(k);
            if (k >= units.length) break;
            if (count >= nextCheck) {
                k--;
                continue;
            }
            const element = units[k];
            const links = k >= first && k < first + elements.length ? tree?.links[k - first] : undefined;
            keptLinks.push(undefined);
            keptChecks.push(NOTHING);
            // The element's checks, recorded with what they read.
            const entries: Array<readonly KeptProblem[] | RunAgain> = [];
            let problems: KeptProblem[] = [];
            let keepable = links !== undefined, readsDeclarations = false, walking = true;
            const record: ValidationAcceptor = (severity, message, info) => {
                acceptor(severity, message, info);
                // Langium wraps every check in an async function, which reports a check that threw a turn later:
                // out of order, so nothing of the element is kept.
                if (!walking) {
                    keepable = false;
                    keptFlags[k] = 0;
                }
                // A problem placed by range, or on a node outside the element, could not follow the element when it moves.
                if (info.range !== undefined || topElementOf(info.node) !== element) keepable = false;
                problems.push([severity, message, info]);
            };
            const walkedBefore = count;
            // A turn's elements are units of their own (`elementsOf`).
            for (const node of nodesOf(element, node => node.$type !== 'Turn' && this.validateSingleNodeOptions(node, options).validateChildren)) {
                if (++count >= nextCheck) {
                    walking = false;
                    await pause();
                    walking = true;
                }
                if (this.validateSingleNodeOptions(node, options).validateNode) {
                    const found = checks(node.$type);
                    if (found.length > 0 && RUN_AGAIN.has(node.$type)) {
                        if (problems.length > 0) entries.push(problems);
                        problems = [];
                        const entry: RunAgain = { node, action: node.$type === 'Action' ? actionChecksOf(node as Action) : undefined };
                        entries.push(entry);
                        runAgain(entry);
                    } else if (found.length > 0) {
                        if (READS_DECLARATIONS.has(node.$type)) readsDeclarations = true;
                        run(node, record);
                    }
                }
            }
            walking = false;
            this.counts.walked += count - walkedBefore;
            if (problems.length > 0) entries.push(problems);
            if (keepable && (!readsDeclarations || belowLimitNow())) {
                const force = readsDeclarations && element.$type === 'Force';
                keptLinks[k] = links;
                if (entries.length > 0 || force) keptChecks[k] = { name: force ? (element as Force).name : undefined, entries };
                keptFlags[k] = KEPT_CHECKS | (readsDeclarations ? READS_GRADES : 0) | (force ? FIRST_OF_NAME : 0) | (force && firstOfName(element) ? IS_FIRST : 0);
            }
        }
        await Promise.all(running);
        if (document && tree) {
            this.checked.set(document, { units, parse, elements, first, tops: tree.tops, links: keptLinks, flags: keptFlags, checks: keptChecks, ruleset, header, limits, categories, imported, grades });
        }
    }
}

/** The root's children in `streamContents`' order: its options and its elements' units (`elementsOf`). */
function withHeader(root: Scenario, elements: readonly AstNode[]): { units: readonly AstNode[], first: number } {
    if (root.options.length === 0) return { units: elements, first: 0 };
    const keys = Object.keys(root);
    return keys.indexOf('options') < keys.indexOf('elements')
        ? { units: [...root.options, ...elements], first: root.options.length }
        : { units: [...elements, ...root.options], first: 0 };
}

/** The top-level element (or header line) a node belongs to, or the turn's element (`elementsOf`). */
function topElementOf(node: AstNode): AstNode | undefined {
    let n: AstNode | undefined = node;
    while (n?.$container && !isScenario(n.$container) && !isTurn(n.$container)) n = n.$container;
    return n?.$container ? n : undefined;
}
