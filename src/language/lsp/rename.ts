/**
 * Rename, as Langium does it (the declaration and every reference: `Force.` prefixes in targets,
 * outcome lines and states, `Force.Unit` and `Force.Unit#k`, grades after a unit's arm, modifiers
 * after `factor`), but refused with a reason when the new name could not be read back as the same
 * file: not a name, a keyword, a count such as `x2`, or the name of another declaration of the same kind.
 * Names may use the letters and digits of any script (`Jäger`, `Preußen`), as the grammar allows.
 */
import { AstUtils, CstUtils, DocumentState, GrammarAST, GrammarUtils, URI, type AstNode, type LangiumDocument, type LangiumDocuments, type Lexer } from 'langium';
import { DefaultRenameProvider, type LangiumServices } from 'langium/lsp';
import { ResponseError, type CancellationToken, type Range, type RenameParams, type TextDocumentPositionParams, type WorkspaceEdit } from 'vscode-languageserver';
import { isAction, isForce, isGrade, isModifier, isOutcome, isScenario, isTurn, isUnit, type Scenario } from '../generated/ast.js';
import { onCurrentVersion } from './current-version.js';

/** JSON-RPC "invalid params": the client shows the message and changes nothing. */
const INVALID_PARAMS = -32602;

export class BattleRenameProvider extends DefaultRenameProvider {
    /** Every keyword of the grammar: the lexer reads them as keywords, never as names. */
    private readonly keywords: Set<string>;
    /** The file's own lexer: a new name is good when it reads back as exactly one name token. */
    private readonly lexer: Lexer;
    private readonly documents: LangiumDocuments;

    constructor(services: LangiumServices) {
        super(services);
        this.keywords = new Set(AstUtils.streamAllContents(services.Grammar).filter(GrammarAST.isKeyword).map(k => k.value));
        this.lexer = services.parser.Lexer;
        this.documents = services.shared.workspace.LangiumDocuments;
    }

    // Positions and edits belong to one version: both wait for the tree of the editor's current text.
    override async rename(document: LangiumDocument, params: RenameParams, cancelToken?: CancellationToken): Promise<WorkspaceEdit | undefined> {
        return onCurrentVersion(document, DocumentState.IndexedReferences, cancelToken, () => {
            const problem = this.problemWith(document, params);
            if (problem) throw new ResponseError(INVALID_PARAMS, problem);
            const target = this.targetAt(document, params);
            return super.rename(document, params, cancelToken).then(edit => (edit && target ? this.withSummaries(edit, target, params.newName) : edit));
        });
    }

    override async prepareRename(document: LangiumDocument, params: TextDocumentPositionParams, cancelToken?: CancellationToken): Promise<Range | undefined> {
        return onCurrentVersion(document, DocumentState.IndexedReferences, cancelToken, () => super.prepareRename(document, params, cancelToken));
    }

    /** The declaration at the position renamed. */
    private targetAt(document: LangiumDocument, params: TextDocumentPositionParams): AstNode | undefined {
        const cst = document.parseResult.value.$cstNode;
        const leaf = cst ? CstUtils.findDeclarationNodeAtOffset(cst, document.textDocument.offsetAt(params.position), this.grammarConfig.nameRegexp) : undefined;
        return leaf ? this.references.findDeclarations(leaf)[0] : undefined;
    }

    /**
     * The written summaries follow the rename (docs/campaigns.md#rename): in every file the rename
     * edits, each outcome's `summary "…"` that names the force or unit renamed names it anew, so the
     * outcome stays current (its fingerprint already reads names by place, src/core/fingerprint.ts).
     */
    private withSummaries(edit: WorkspaceEdit, target: AstNode, newName: string): WorkspaceEdit {
        const renamed = summaryRename(target, newName);
        if (!renamed || !edit.changes) return edit;
        for (const [uri, edits] of Object.entries(edit.changes)) {
            const doc = this.documents.hasDocument(URI.parse(uri)) ? this.documents.getDocument(URI.parse(uri)) : undefined;
            for (const outcome of doc ? AstUtils.streamAst(doc.parseResult.value).filter(isOutcome) : []) {
                const summary = GrammarUtils.findNodeForProperty(outcome.$cstNode, 'summary');
                const newText = summary?.text.replace(renamed.pattern, renamed.by);
                if (summary && newText !== summary.text) edits.push({ range: summary.range, newText: newText! });
            }
        }
        return edit;
    }

    private problemWith(document: LangiumDocument, params: RenameParams): string | undefined {
        const name = params.newName;
        if (this.keywords.has(name)) return `'${name}' is a keyword of the language.`;
        const lexed = this.lexer.tokenize(name);
        const only = lexed.tokens.length === 1 && lexed.errors.length === 0 ? lexed.tokens[0] : undefined;
        if (only?.tokenType.name === 'COUNT') return `'${name}' reads as a count (like x2), not a name.`;
        if (only?.tokenType.name !== 'ID' || only.image !== name) {
            return `'${name}' is not a name: use letters and digits (of any language), _ and inner hyphens, starting with a letter.`;
        }
        const root = document.parseResult.value;
        const cst = root.$cstNode;
        if (!cst) return undefined;
        const leaf = CstUtils.findDeclarationNodeAtOffset(cst, document.textDocument.offsetAt(params.position), this.grammarConfig.nameRegexp);
        const target = leaf ? this.references.findDeclarations(leaf)[0] : undefined;
        if (!target || !isScenario(root)) return undefined;
        // The declaration may sit in an imported file: the names it must not take are that file's.
        const home = AstUtils.findRootNode(target);
        const clash = siblingsOf(isScenario(home) ? home : root, target).find(n => (n as { name?: string }).name === name && n !== target);
        return clash ? `There is already ${kindOf(clash)} named '${name}'.` : undefined;
    }
}

/** The declarations a new name must not collide with: units of the same force, or top-level declarations of the same kind. */
function siblingsOf(root: Scenario, target: AstNode): AstNode[] {
    if (isUnit(target)) {
        const force = AstUtils.getContainerOfType(target, isForce);
        return force ? [...force.units] : [];
    }
    const all: AstNode[] = [];
    const visit = (el: AstNode) => { if (isTurn(el)) el.elements.forEach(visit); else all.push(el); };
    root.elements.forEach(visit);
    return all.filter(n => n.$type === target.$type || (isAction(n) && isAction(target)));
}

const escaped = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * How a summary names what is renamed: a force by its name (`French 2 hits`, `French foot: 1 rout`), a
 * unit as `Force.Unit` (`French.Line#2 holds`); a name starts after a quote, a space, `·` or `(`, and
 * ends before `.`, `#`, a space, `:`, `,`, `)` or the quote. Other declarations are not in summaries.
 */
function summaryRename(target: AstNode, newName: string): { pattern: RegExp, by: string } | undefined {
    const old = (target as { name?: string }).name;
    if (!old) return undefined;
    const before = '(["\\s·(])';
    if (isForce(target)) return { pattern: new RegExp(`${before}${escaped(old)}(?=[.#\\s:,)"])`, 'gu'), by: `$1${newName}` };
    const force = isUnit(target) ? AstUtils.getContainerOfType(target, isForce)?.name : undefined;
    if (!force) return undefined;
    return { pattern: new RegExp(`${before}${escaped(force)}\\.${escaped(old)}(?=[#\\s:,)"])`, 'gu'), by: `$1${force}.${newName}` };
}

function kindOf(node: AstNode): string {
    if (isGrade(node)) return 'a grade';
    if (isModifier(node)) return 'a modifier';
    if (isForce(node)) return 'a force';
    if (isUnit(node)) return 'a unit in this force';
    return 'an engagement or action';
}
