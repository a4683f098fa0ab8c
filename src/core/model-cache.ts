/**
 * The scenario model of a parse, built once per parse, and the context it is built in: the rule
 * sets a file may name and the limits in force when the file was parsed. The document factory
 * (src/language/battle-document-factory.ts) records the context of each parse it makes; a limit
 * changed by a setting applies from the next parse, never to a model already built.
 */
import type { AstNode } from 'langium';
import type { Action, Scenario } from '../language/generated/ast.js';
import { LIMIT_DEFAULTS, type LimitValues } from './limits.js';
import { RulesetRegistry } from './ruleset.js';
import { buildScenario, type ActionModel, type ScenarioModel } from './scenario.js';

export interface ModelContext {
    readonly rulesets: RulesetRegistry;
    readonly limits: LimitValues;
}

/** A parse made outside a document factory knows no rule set: everything is checked, nothing resolves. */
const NO_CONTEXT: ModelContext = { rulesets: new RulesetRegistry([]), limits: LIMIT_DEFAULTS };

const contexts = new WeakMap<Scenario, ModelContext>();
const models = new WeakMap<Scenario, ScenarioModel>();

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

/** The model of the file a node sits in, built once per parse. */
export function modelOf(node: AstNode): ScenarioModel {
    const root = rootOf(node);
    let model = models.get(root);
    if (!model) {
        model = buildScenario(root, contextOf(root));
        models.set(root, model);
    }
    return model;
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
