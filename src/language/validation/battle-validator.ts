import { GrammarUtils, type AstNode, type DiagnosticInfo, type LangiumSharedCoreServices, type ValidationAcceptor, type ValidationChecks, type ValidationRegistry } from 'langium';
import type { Action, BattleAstType, Scenario } from '../generated/ast.js';
import { actionKey, afterKeys, contextOf, modelOf, sameInputs, type ActionKey } from '../../core/model-cache.js';
import { checkForce, checkFraction, checkGrade, checkModifier, checkOption, checkSeed, checkTarget, checkUniqueNames, checkUnit, namesSeenIn } from './common.js';
import { BattleCaches } from '../battle-caches.js';
import { checkOutcome } from './outcome.js';
import { checkExclusiveFacts } from './exclusive-facts.js';
import { checkCampaignOf } from './campaign.js';
import { checkHouse } from './house-checks.js';
import { Codes } from '../../core/codes.js';
import { checkActionSize, checkDiceLine, checkForceSize, hasSyntaxErrors, isHalfTyped } from './limit-checks.js';
import { checkImports } from './imports.js';
import { importGraphOf } from '../battle-imports.js';
import { keepingSideUnits, misplacedRules } from '../../core/scenario.js';
import { checkSeal } from './seal-checks.js';
import { checkActionInRules } from './action-kind.js';

export function registerValidationChecks(registry: ValidationRegistry, validator: BattleValidator): void {
    const checks: ValidationChecks<BattleAstType> = {
        Scenario: [validator.checkScenario, validator.checkCampaign],
        Force: [checkForce, checkForceSize],
        Dice: checkDiceLine,
        Unit: checkUnit,
        Grade: checkGrade,
        Modifier: checkModifier,
        Target: checkTarget,
        Seed: checkSeed,
        RuleOption: checkOption,
        Action: validator.checkAction,
        House: checkHouse,
        Fact: checkFraction
    };
    registry.register(checks, validator);
}

/**
 * The checks every file gets, and the dispatch to the checks of the file's rule set (its
 * `checkScenario` once per file, its `checkAction` once per action that parsed whole).
 */
export class BattleValidator {
    /** `oneShot`: no later build reads what the checks would keep (`umpire check`: createBattleServices' `oneShot`). */
    private readonly namesSeen: ReturnType<typeof namesSeenIn>;

    /** `caches`: the language's (battle-core-module.ts); a validator made alone keeps its own. */
    constructor(private readonly shared?: LangiumSharedCoreServices, private readonly oneShot = false, caches = new BattleCaches()) {
        this.namesSeen = namesSeenIn(caches);
    }

    /**
     * The campaign checks; each action's are kept for the next build (`checkCampaignOf`'s `keep`), except
     * in a one-shot check, where no build follows and the actions' input keys would be made for nothing.
     */
    checkCampaign(scenario: Scenario, accept: ValidationAcceptor): void {
        checkCampaignOf(modelOf(scenario), accept, !this.oneShot);
    }

    checkScenario(scenario: Scenario, accept: ValidationAcceptor): void {
        checkUniqueNames(scenario, accept, this.namesSeen);
        checkSeal(scenario, accept);
        if (this.shared) checkImports(scenario, importGraphOf(this.shared), accept);
        const model = modelOf(scenario);
        if (!model.ruleset) {
            const known = contextOf(scenario).rulesets.ids();
            accept('error', `The ${model.rules} rules are not known: the file is checked, but nothing can be resolved. Umpire knows ${known.join(', ')}.`,
                { node: scenario, property: 'rules', code: Codes.rulesNotSupported, data: { replacements: known } });
            return;
        }
        // A misplaced `rules` line is read, and its syntax error says where it goes.
        if (scenario.rules === undefined && !misplacedRules(scenario)) noteDefaultRules(scenario, model.ruleset.title, accept);
        model.ruleset.checkScenario?.(model, accept);
    }

    /**
     * An action's checks (its size, the rule set's checks, its written outcome replayed) are kept by a
     * key of their inputs (`actionInputsKey`): an action whose inputs did not change since an earlier
     * parse gets the same problems again, placed on its new nodes, without being worked out again.
     */
    checkAction(action: Action, accept: ValidationAcceptor): void {
        keepingSideUnits(() => this.checkActionOnce(action, accept));
    }

    private checkActionOnce(action: Action, accept: ValidationAcceptor): void {
        const model = modelOf(action);
        const halfTyped = isHalfTyped(action);
        if (this.oneShot) {
            checkActionSize(action, accept);
            if (!halfTyped) checkActionInRules(model, action, accept);
            if (!halfTyped) checkExclusiveFacts(model, action, accept);
            if (!halfTyped) checkOutcome(model, action, accept);
            return;
        }
        const inputs = actionKey(model, action);
        // What this node's checks reported, for `replayActionChecks` at the next builds.
        const problems: Array<Parameters<ValidationAcceptor>> = [];
        const own: ValidationAcceptor = (severity, message, info) => {
            problems.push([severity, message, info]);
            accept(severity, message, info);
        };
        const cache = checksCache(model.ruleset);
        // A key still owed (a document's first build) finds nothing: what is found is kept once the key is made.
        const key = inputs.all === undefined ? undefined : `${halfTyped}|${inputs.all}`;
        const kept = key === undefined ? undefined : cache.get(key);
        if (kept) {
            cache.delete(key!);
            cache.set(key!, kept);
            for (const problem of kept) own(problem.severity, problem.message, { ...problem.info, node: nodeAt(action, problem.path) } as DiagnosticInfo<AstNode>);
            keepOnNode(action, model, inputs, halfTyped, problems);
            return;
        }
        const recorded: KeptProblem[] = [];
        let keepable = true;
        const record: ValidationAcceptor = (severity, message, info) => {
            own(severity, message, info);
            const path = info.range ? undefined : pathFrom(action, info.node);
            if (!path) keepable = false;
            else recorded.push({ severity, message, info: { ...info, node: undefined }, path });
        };
        checkActionSize(action, record);
        if (!halfTyped) {
            checkActionInRules(model, action, record);
            checkExclusiveFacts(model, action, record);
            checkOutcome(model, action, record);
        }
        if (!keepable) {
            keepOnNode(action, model, inputs, halfTyped, undefined);
            return;
        }
        keepOnNode(action, model, inputs, halfTyped, problems);
        afterKeys(model, () => {
            cache.set(`${halfTyped}|${inputs.all}`, recorded);
            if (cache.size > MAX_KEPT) cache.delete(cache.keys().next().value!);
        });
    }
}

/**
 * An action's problems as its checks last reported them, kept on the node (under a symbol, not
 * enumerable): an action the parse in pieces kept (the same node, its text unchanged) whose inputs
 * key is the same gets them again without a key of its text, a lookup or a call of its checks
 * (docs/performance.md#the-per-build-checks-made-proportional-to-the-edit).
 */
const ACTION_CHECKS = Symbol('the action\'s checks as last run');
export interface ActionChecks {
    readonly ruleset: object | undefined;
    readonly inputs: ActionKey;
    readonly halfTyped: boolean;
    readonly problems: ReadonlyArray<Parameters<ValidationAcceptor>>;
}

/** `problems` undefined: what the checks found cannot be reported again (a problem placed by range or outside the action). */
function keepOnNode(action: Action, model: ReturnType<typeof modelOf>, inputs: ActionKey, halfTyped: boolean, problems: ReadonlyArray<Parameters<ValidationAcceptor>> | undefined): void {
    const kept: ActionChecks | undefined = problems && { ruleset: model.ruleset, inputs, halfTyped, problems };
    Object.defineProperty(action, ACTION_CHECKS, { value: kept, enumerable: false, writable: true, configurable: true });
}

/**
 * Reports again what `checkAction` reported for this same node when nothing it reads changed: the
 * rule set, its inputs key, and whether it is half-typed (unchanged for a node whose text is unchanged
 * while the file has no syntax error; worked out again otherwise, an error next to it can make it so).
 * False when the checks must run. `model` and `syntaxErrors` (whether the file has a syntax error), when
 * the caller knows them, save a look for each action.
 */
export function replayActionChecks(action: Action, accept: ValidationAcceptor, model = modelOf(action), syntaxErrors?: boolean, kept = actionChecksOf(action)): boolean {
    if (!kept) return false;
    if (kept.ruleset !== model.ruleset || !sameInputs(kept.inputs, actionKey(model, action))) return false;
    if (!(kept.halfTyped === false && !(syntaxErrors ?? hasSyntaxErrors(action))) && isHalfTyped(action) !== kept.halfTyped) return false;
    for (const problem of kept.problems) accept(...problem);
    return true;
}

/**
 * What `checkAction` last kept on the action, if anything: the node validator keeps it beside the
 * action's element and passes it to `replayActionChecks`, so a kept action's node is not searched for it.
 */
export function actionChecksOf(action: Action): ActionChecks | undefined {
    return (action as Action & { [ACTION_CHECKS]?: ActionChecks })[ACTION_CHECKS];
}

/** How many actions' problems are kept (least recently used dropped first): a few large campaigns' worth. */
const MAX_KEPT = 50_000;

interface KeptProblem {
    severity: Parameters<ValidationAcceptor>[0];
    message: string;
    info: Omit<DiagnosticInfo<AstNode>, 'node'> & { node: undefined };
    /** From the action down to the node the problem sits on: property and index at each step. */
    path: ReadonlyArray<readonly [string, number | undefined]>;
}

/** Kept per rule set object: two registries never share results. */
const caches = new WeakMap<object, Map<string, KeptProblem[]>>();
const NO_RULESET = {};

function checksCache(ruleset: object | undefined): Map<string, KeptProblem[]> {
    const owner = ruleset ?? NO_RULESET;
    let cache = caches.get(owner);
    if (!cache) {
        cache = new Map();
        caches.set(owner, cache);
    }
    return cache;
}

/** The steps from `action` down to `node`, or undefined when the node is not inside the action. */
function pathFrom(action: Action, node: AstNode): Array<readonly [string, number | undefined]> | undefined {
    const steps: Array<readonly [string, number | undefined]> = [];
    let n: AstNode | undefined = node;
    while (n && n !== action) {
        if (!n.$container || n.$containerProperty === undefined) return undefined;
        steps.push([n.$containerProperty, n.$containerIndex]);
        n = n.$container;
    }
    return n === action ? steps.reverse() : undefined;
}

function nodeAt(action: Action, path: KeptProblem['path']): AstNode {
    let n: AstNode = action;
    for (const [property, index] of path) {
        const value = (n as unknown as Record<string, unknown>)[property];
        n = (index === undefined ? value : (value as unknown[])[index]) as AstNode;
    }
    return n;
}

/**
 * A file without a `rules` line is checked as the default rule set: said once, as information (it is
 * not a problem: `umpire check` still exits 0), on the title or the first line, with where the
 * quick fix inserts `rules <id>` (after the title: the grammar wants it there).
 */
function noteDefaultRules(scenario: Scenario, title: string, accept: ValidationAcceptor): void {
    const { rulesets } = contextOf(scenario);
    const ids = rulesets.ids();
    const message = `No 'rules' line: this file is checked as ${title} ('rules ${rulesets.defaultId}'). Add a 'rules' line to say which rules it uses (${ids.join(', ')}).`;
    const code = Codes.rulesDefault;
    const titleNode = scenario.title !== undefined ? GrammarUtils.findNodeForProperty(scenario.$cstNode, 'title') : undefined;
    if (titleNode) {
        accept('info', message, { node: scenario, property: 'title', code, data: { rulesets: ids, insertAt: titleNode.end, after: true } });
        return;
    }
    const first = (scenario.options[0] ?? scenario.elements[0])?.$cstNode;
    if (!first) {
        accept('info', message, { node: scenario, range: { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } }, code, data: { rulesets: ids, insertAt: 0 } });
        return;
    }
    // The first line of the first statement, not the whole of it (a force's block, a turn).
    const lineEnd = first.text.indexOf('\n');
    const end = lineEnd < 0 ? first.range.end : { line: first.range.start.line, character: first.range.start.character + lineEnd };
    accept('info', message, { node: scenario, range: { start: first.range.start, end }, code, data: { rulesets: ids, insertAt: first.offset } });
}
