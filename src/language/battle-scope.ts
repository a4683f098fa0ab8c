import { AstUtils, DocumentCache, MapScope, EMPTY_SCOPE, type AstNodeDescription, type LangiumCoreServices, type ReferenceInfo, type Scope, type ScopeProvider, type AstNodeDescriptionProvider } from 'langium';
import { isForce, isGrade, isModifier, isScenario, isTarget, type Force, type Scenario } from './generated/ast.js';

/**
 * Every name in a .battle file is local to that file: forces, grades and modifiers are declared at
 * the top, units inside their force. Scopes are hashed maps built once per document (the default
 * provider's linear scopes make linking quadratic on large files: see docs/limits.md#linking).
 */
export class BattleScopeProvider implements ScopeProvider {
    private readonly descriptions: AstNodeDescriptionProvider;
    private readonly topLevel: DocumentCache<string, Scope>;
    private readonly unitScopes: DocumentCache<Force, Scope>;

    constructor(services: LangiumCoreServices) {
        this.descriptions = services.workspace.AstNodeDescriptionProvider;
        this.topLevel = new DocumentCache(services.shared);
        this.unitScopes = new DocumentCache(services.shared);
    }

    getScope(context: ReferenceInfo): Scope {
        const container = context.container;
        const document = AstUtils.getDocument(container);
        const root = document.parseResult.value;
        if (!isScenario(root)) return EMPTY_SCOPE;
        if (isTarget(container) && context.property === 'unit') {
            // `.Unit` with no force before it (a half-typed line) names no force.
            const force = container.force?.ref;
            if (!force) return EMPTY_SCOPE;
            return this.unitScopes.get(document.uri, force, () => this.scopeOf(force.units));
        }
        const type = context.reference.$refText !== undefined ? this.referenceType(context) : undefined;
        if (!type) return EMPTY_SCOPE;
        return this.topLevel.get(document.uri, type, () => this.scopeOf(elementsOf(root, type)));
    }

    private referenceType(context: ReferenceInfo): string | undefined {
        if (context.property === 'force') return 'Force';
        if (context.property === 'grade') return 'Grade';
        if (context.property === 'modifiers') return 'Modifier';
        return undefined;
    }

    private scopeOf(nodes: Iterable<{ name: string } & import('langium').AstNode>): Scope {
        const descriptions: AstNodeDescription[] = [];
        for (const node of nodes) {
            if (node.name) descriptions.push(this.descriptions.createDescription(node, node.name));
        }
        // The first declaration wins; duplicates are reported by the validator.
        return new MapScope(descriptions.reverse());
    }
}

function elementsOf(root: Scenario, type: string) {
    switch (type) {
        case 'Force': return root.elements.filter(isForce);
        case 'Grade': return root.elements.filter(isGrade);
        case 'Modifier': return root.elements.filter(isModifier);
        default: return [];
    }
}
