/**
 * The outline and folding of a .battle file, in the words of an umpire: the scenario, its grades and
 * modifiers, forces with their units (arm, grade, count), campaign turns and the engagements or
 * actions fought in them (with their kind).
 */
import { GrammarUtils, type AstNode, type AstNodeDescription, type LangiumDocument } from 'langium';
import { DefaultFoldingRangeProvider, DefaultNodeKindProvider, type DocumentSymbolProvider } from 'langium/lsp';
import { CompletionItemKind, SymbolKind, type DocumentSymbol, type Range } from 'vscode-languageserver';
import {
    isAction, isForce, isGrade, isModifier, isOutcome, isTurn, isUnit, isUnitState,
    type Action, type Force, type Grade, type Scenario, type Turn, type TurnElement, type Unit
} from '../generated/ast.js';
import { unquote } from '../../core/scenario.js';
import { signedValue as signed } from '../../core/signed.js';

/** The kind of each declaration, by its AST type: used by the outline, workspace symbols and completion. */
const KINDS: Record<string, { symbol: SymbolKind, completion: CompletionItemKind }> = {
    Force: { symbol: SymbolKind.Namespace, completion: CompletionItemKind.Module },
    Unit: { symbol: SymbolKind.Field, completion: CompletionItemKind.Field },
    Grade: { symbol: SymbolKind.Class, completion: CompletionItemKind.Class },
    Modifier: { symbol: SymbolKind.Constant, completion: CompletionItemKind.Constant },
    Action: { symbol: SymbolKind.Event, completion: CompletionItemKind.Event },
    Turn: { symbol: SymbolKind.Module, completion: CompletionItemKind.Module }
};

/** Workspace symbols (Ctrl+T) and Langium's own completion items get the same kinds as the outline. */
export class BattleNodeKindProvider extends DefaultNodeKindProvider {
    override getSymbolKind(node: AstNode | AstNodeDescription): SymbolKind {
        return KINDS[typeOf(node)]?.symbol ?? super.getSymbolKind(node);
    }

    override getCompletionItemKind(node: AstNode | AstNodeDescription): CompletionItemKind {
        return KINDS[typeOf(node)]?.completion ?? super.getCompletionItemKind(node);
    }
}

function typeOf(node: AstNode | AstNodeDescription): string {
    return '$type' in node ? node.$type : node.type;
}

export class BattleDocumentSymbolProvider implements DocumentSymbolProvider {
    getSymbols(document: LangiumDocument): DocumentSymbol[] {
        const root = document.parseResult.value as Scenario;
        if (!root.$cstNode) return [];
        const children = root.elements.flatMap(el => this.symbolOf(el));
        if (root.title === undefined) return children;
        // The scenario is the outline's root: its title, with everything it declares under it.
        const title = root.$cstNode.range;
        return [{ name: unquote(root.title), detail: root.rules ?? '', kind: SymbolKind.File, range: title, selectionRange: propertyRange(root, 'title') ?? title, children }];
    }

    private symbolOf(el: AstNode): DocumentSymbol[] {
        if (isGrade(el)) return [this.symbol(el, el.name, gradeDetail(el), KINDS.Grade.symbol)];
        if (isModifier(el)) return [this.symbol(el, el.name, signed(el.value), KINDS.Modifier.symbol)];
        if (isForce(el)) return [this.symbol(el, el.name, unitsText(unitTotal(el)), KINDS.Force.symbol, el.units.map(u => this.symbol(u, u.name, unitDetail(u), KINDS.Unit.symbol)))];
        // Engagements are events of the battle; the other Loose Files actions are things done in a turn.
        if (isAction(el)) return [this.symbol(el, el.name, actionDetail(el), el.kind === 'engagement' ? KINDS.Action.symbol : SymbolKind.Function)];
        if (isTurn(el)) return [this.symbol(el, turnName(el), el.title ? unquote(el.title) : '', KINDS.Turn.symbol, el.elements.flatMap((e: TurnElement) => this.symbolOf(e)))];
        return [];
    }

    private symbol(node: AstNode, name: string | undefined, detail: string, kind: SymbolKind, children?: DocumentSymbol[]): DocumentSymbol {
        const range = node.$cstNode!.range;
        // An empty name is refused by VS Code; a node broken mid-typing still shows as something.
        return { name: name || '?', detail, kind, range, selectionRange: propertyRange(node, 'name') ?? range, children };
    }
}

/** Folding for blocks that hold lines (forces, actions, turns, outcomes), braced stats written over several lines, and block comments. */
export class BattleFoldingRangeProvider extends DefaultFoldingRangeProvider {
    protected override shouldProcess(node: AstNode): boolean {
        return isForce(node) || isAction(node) || isTurn(node) || isOutcome(node) || isGrade(node) || isUnit(node);
    }

    protected override shouldProcessContent(node: AstNode): boolean {
        return !isUnitState(node);
    }
}

function propertyRange(node: AstNode, property: string): Range | undefined {
    return GrammarUtils.findNodeForProperty(node.$cstNode, property)?.range;
}

function gradeDetail(grade: Grade): string {
    const stats = grade.stats.map(s => s.value ? `${s.key} ${s.value.word ?? s.value.number ?? s.value.text}` : s.key).join(', ');
    return [grade.value !== undefined ? signed(grade.value) : '', stats].filter(Boolean).join(' ');
}

function unitDetail(unit: Unit): string {
    return [unit.arm, unit.grade?.$refText, unit.count].filter(Boolean).join(' ');
}

function unitTotal(force: Force): number {
    return force.units.reduce((n, u) => n + (u.count ? Number(u.count.slice(1)) || 0 : 1), 0);
}

function unitsText(n: number): string {
    return n === 1 ? '1 unit' : `${n} units`;
}

function actionDetail(action: Action): string {
    return action.outcome ? `${action.kind} · resolved` : action.kind;
}

function turnName(turn: Turn): string {
    return turn.number !== undefined ? `turn ${turn.number}` : `turn ${turn.name}`;
}

