/**
 * The outline and folding of a .battle file, in the words of an umpire: the scenario, its grades and
 * modifiers, forces with their units (arm, grade, count), campaign turns and the engagements or
 * actions fought in them (with their kind).
 */
import { AstUtils, GrammarUtils, isCompositeCstNode, isLeafCstNode, type AstNode, type AstNodeDescription, type CstNode, type LangiumDocument } from 'langium';
import { DefaultFoldingRangeProvider, DefaultNodeKindProvider, type DocumentSymbolProvider, type LangiumServices } from 'langium/lsp';
import type { BattleCaches } from '../battle-caches.js';
import {
    CancellationToken, CompletionItemKind, FoldingRangeKind, SymbolKind,
    type DocumentSymbol, type DocumentSymbolParams, type FoldingRange, type FoldingRangeParams, type Position, type Range
} from 'vscode-languageserver';
import {
    isAction, isForce, isGrade, isModifier, isOutcome, isTurn, isUnit, isUnitState,
    type Action, type Force, type Grade, type Scenario, type Turn, type Unit
} from '../generated/ast.js';
import { unquote } from '../../core/scenario.js';
import { signedValue as signed } from '../../core/signed.js';
import { KeptPerElement, movePosition, unitsOf } from './kept-per-element.js';
import { whenValidated } from './current-version.js';

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

/**
 * The outline, kept per element: after an edit only the elements the parse in pieces made
 * anew are read; the others' entries are moved to where they start now (kept-per-element.ts). Entries
 * are never changed once made (an answer may still be on its way to the client when the next request
 * moves them), so a moved element gets new ones, kept in place of the old.
 */
export class BattleDocumentSymbolProvider implements DocumentSymbolProvider {
    private readonly kept: KeptPerElement<DocumentSymbol[]>;

    constructor(caches: BattleCaches) {
        this.kept = new KeptPerElement<DocumentSymbol[]>(caches, 'outline', "each element's outline entries", {
            make: node => this.symbolOf(node),
            move: (symbols, from, to) => symbols.map(s => moveSymbol(s, from, to))
        });
    }

    async getSymbols(document: LangiumDocument, _params?: DocumentSymbolParams, cancelToken?: CancellationToken): Promise<DocumentSymbol[]> {
        // After the edit's diagnostics, for the version the editor holds (current-version.ts).
        await whenValidated(document, cancelToken);
        const root = document.parseResult.value as Scenario;
        if (!root.$cstNode) return [];
        const { units, nodes, tops } = unitsOf(root);
        const { entries } = await this.kept.entriesYielding(document, nodes, tops, cancelToken ?? CancellationToken.None);
        // Each turn's own entry is made each time, holding its elements' kept ones.
        const children: DocumentSymbol[] = [];
        let turn: DocumentSymbol[] | undefined;
        let next = 0;
        for (const unit of units) {
            if (unit.kind === 'turn') {
                const el = unit.node;
                turn = [];
                children.push(this.symbol(el, turnName(el), el.title ? unquote(el.title) : '', KINDS.Turn.symbol, turn));
            } else {
                (unit.node.$container === root ? children : turn!).push(...entries[next++]);
            }
        }
        if (root.title === undefined) return children;
        // The scenario is the outline's root: its title, with everything it declares under it.
        const title = root.$cstNode.range;
        return [{ name: unquote(root.title), detail: root.rules ?? '', kind: SymbolKind.File, range: copyRange(title), selectionRange: copyRange(propertyRange(root, 'title') ?? title), children }];
    }

    private symbolOf(el: AstNode): DocumentSymbol[] {
        if (isGrade(el)) return [this.symbol(el, el.name, gradeDetail(el), KINDS.Grade.symbol)];
        if (isModifier(el)) return [this.symbol(el, el.name, signed(el.value), KINDS.Modifier.symbol)];
        if (isForce(el)) return [this.symbol(el, el.name, unitsText(unitTotal(el)), KINDS.Force.symbol, el.units.map(u => this.symbol(u, u.name, unitDetail(u), KINDS.Unit.symbol)))];
        // Engagements are events of the battle; the other Loose Files actions are things done in a turn.
        if (isAction(el)) return [this.symbol(el, el.name, actionDetail(el), el.kind === 'engagement' ? KINDS.Action.symbol : SymbolKind.Function)];
        return [];
    }

    private symbol(node: AstNode, name: string | undefined, detail: string, kind: SymbolKind, children?: DocumentSymbol[]): DocumentSymbol {
        const range = node.$cstNode!.range;
        // An empty name is refused by VS Code; a node broken mid-typing still shows as something.
        return { name: name || '?', detail, kind, range: copyRange(range), selectionRange: copyRange(propertyRange(node, 'name') ?? range), children };
    }
}

/** A range of its own: the nodes' range objects are brought up to date in place when the file moves, and a kept entry must not move with them. */
function copyRange(range: Range): Range {
    return { start: { line: range.start.line, character: range.start.character }, end: { line: range.end.line, character: range.end.character } };
}

function moveSymbol(symbol: DocumentSymbol, from: Position, to: Position): DocumentSymbol {
    const move = (r: Range): Range => ({ start: movePosition(r.start, from, to), end: movePosition(r.end, from, to) });
    return { ...symbol, range: move(symbol.range), selectionRange: move(symbol.selectionRange), children: symbol.children?.map(c => moveSymbol(c, from, to)) };
}

/**
 * Folding for blocks that hold lines (forces, actions, turns, outcomes), braced stats written over
 * several lines, and block comments; kept per element as the outline is (folding ranges are lines, and
 * characters on an element's first line, so a kept element's are moved as its entries are).
 */
export class BattleFoldingRangeProvider extends DefaultFoldingRangeProvider {
    /** Per element: the ranges of its blocks (in the order of Langium's walk) and of its block comments. */
    private readonly kept: KeptPerElement<KeptFolding>;

    constructor(services: LangiumServices, caches: BattleCaches) {
        super(services);
        this.kept = new KeptPerElement<KeptFolding>(caches, 'folding', "each element's folding ranges", {
            make: (node, _at, document) => {
                const blocks: FoldingRange[] = [];
                this.collectBlocks(document, node, blocks);
                const comments: FoldingRange[] = [];
                this.collectComments(document, node.$cstNode!, new Map(), comments);
                return { blocks, comments };
            },
            move: (kept, from, to) => ({ blocks: kept.blocks.map(r => moveFolding(r, from, to)), comments: kept.comments.map(r => moveFolding(r, from, to)) })
        });
    }

    override async getFoldingRanges(document: LangiumDocument, _params?: FoldingRangeParams, cancelToken?: CancellationToken): Promise<FoldingRange[]> {
        await whenValidated(document, cancelToken);
        const root = document.parseResult.value as Scenario;
        if (!root.$cstNode) return [];
        // As Langium's provider: every block in the order of the tree, then every block comment in the order of the text.
        const blocks: FoldingRange[] = [];
        for (const option of root.options) this.collectBlocks(document, option, blocks);
        const { units: all, nodes: elements, tops } = unitsOf(root, node => !!node.$cstNode);
        const { entries } = await this.kept.entriesYielding(document, elements, tops, cancelToken ?? CancellationToken.None);
        const units = new Map<AstNode, KeptFolding>();
        let next = 0;
        for (const unit of all) {
            if (unit.kind === 'turn') {
                if (this.shouldProcess(unit.node)) this.collectObjectFolding(document, unit.node, r => blocks.push(r));
            } else if (unit.node.$cstNode) {
                const kept = entries[next++];
                units.set(unit.node, kept);
                for (const r of kept.blocks) blocks.push(r);
            }
        }
        const comments: FoldingRange[] = [];
        this.collectComments(document, root.$cstNode, units, comments);
        return [...blocks, ...comments];
    }

    /** Langium's walk of one subtree (the node itself included). */
    private collectBlocks(document: LangiumDocument, node: AstNode, into: FoldingRange[]): void {
        const nodes = AstUtils.streamAst(node).iterator();
        for (let next = nodes.next(); !next.done; next = nodes.next()) {
            if (this.shouldProcess(next.value)) this.collectObjectFolding(document, next.value, r => into.push(r));
            if (!this.shouldProcessContent(next.value)) nodes.prune();
        }
    }

    /** Block comments in the text of `cst`, in order; the kept elements' own are taken from `units`. */
    private collectComments(document: LangiumDocument, cst: CstNode, units: ReadonlyMap<AstNode, KeptFolding>, into: FoldingRange[]): void {
        if (isCompositeCstNode(cst)) {
            const unit = cst.astNode.$cstNode === cst ? units.get(cst.astNode) : undefined;
            if (unit) {
                into.push(...unit.comments);
                return;
            }
            for (const child of cst.content) this.collectComments(document, child, units, into);
        } else if (isLeafCstNode(cst) && this.commentNames.includes(cst.tokenType.name)) {
            const range = this.toFoldingRange(document, cst, FoldingRangeKind.Comment);
            if (range) into.push(range);
        }
    }

    protected override shouldProcess(node: AstNode): boolean {
        return isForce(node) || isAction(node) || isTurn(node) || isOutcome(node) || isGrade(node) || isUnit(node);
    }

    protected override shouldProcessContent(node: AstNode): boolean {
        return !isUnitState(node);
    }
}

interface KeptFolding {
    readonly blocks: readonly FoldingRange[];
    readonly comments: readonly FoldingRange[];
}

function moveFolding(range: FoldingRange, from: Position, to: Position): FoldingRange {
    const start = movePosition({ line: range.startLine, character: range.startCharacter ?? 0 }, from, to);
    const end = movePosition({ line: range.endLine, character: range.endCharacter ?? 0 }, from, to);
    return { ...range, startLine: start.line, endLine: end.line, ...(range.startCharacter !== undefined ? { startCharacter: start.character } : {}), ...(range.endCharacter !== undefined ? { endCharacter: end.character } : {}) };
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

