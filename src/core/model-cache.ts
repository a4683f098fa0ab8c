/**
 * The scenario model of a parse, built once per parse, and the context it is built in: the rule
 * sets a file may name and the limits in force when the file was parsed. The document factory
 * (src/language/battle-document-factory.ts) records the context of each parse it makes; a limit
 * changed by a setting applies from the next parse, never to a model already built.
 */
import type { AstNode } from 'langium';
import type { Scenario } from '../language/generated/ast.js';
import { LIMIT_DEFAULTS, type LimitValues } from './limits.js';
import { RulesetRegistry } from './ruleset.js';
import { buildScenario, importsOf, type ScenarioModel } from './scenario.js';

export interface ModelContext {
    readonly rulesets: RulesetRegistry;
    readonly limits: LimitValues;
    /**
     * The files this one imports, directly or not, as they are now (the language layer's import graph,
     * docs/campaigns.md#campaigns-across-files). The same array while nothing changed.
     */
    readonly imported?: (root: Scenario) => readonly Scenario[];
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
