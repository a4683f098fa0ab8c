import { AstUtils, type AstNode } from 'langium';
import type { Scenario } from '../language/generated/ast.js';
import { buildScenario, type ScenarioModel } from './scenario.js';

const models = new WeakMap<Scenario, ScenarioModel>();

/** The model of the file a node sits in, built once per parse (each parse makes a new root). */
export function modelOf(node: AstNode): ScenarioModel {
    const root = AstUtils.findRootNode(node) as Scenario;
    let model = models.get(root);
    if (!model) {
        model = buildScenario(root);
        models.set(root, model);
    }
    return model;
}
