/**
 * Semantic highlighting: what a name is, not just that it is a name. Forces, units, grades and
 * modifiers are coloured the same where they are declared and wherever they are used (with the
 * `declaration` modifier at the declaration), result labels in written outcomes stand out, and every
 * number (dice, seeds, grade values, counts, `#k`) is a number.
 */
import type { AstNode } from 'langium';
import { AbstractSemanticTokenProvider, type SemanticTokenAcceptor } from 'langium/lsp';
import { SemanticTokenModifiers, SemanticTokenTypes } from 'vscode-languageserver';
import {
    isAction, isDice, isFact, isFactor, isForce, isGrade, isModifier, isOutcome, isOutcomeLine, isSeed, isSplitPart, isStat, isStatValue, isTarget, isTurn, isUnit, type Target
} from '../generated/ast.js';

/** The token type of each kind of name, shared with tests and the README. */
export const TOKEN_TYPES = {
    force: SemanticTokenTypes.namespace,
    unit: SemanticTokenTypes.variable,
    grade: SemanticTokenTypes.type,
    modifier: SemanticTokenTypes.decorator,
    action: SemanticTokenTypes.function,
    result: SemanticTokenTypes.enumMember,
    stat: SemanticTokenTypes.property,
    number: SemanticTokenTypes.number
} as const;

const DECLARATION = SemanticTokenModifiers.declaration;

export class BattleSemanticTokenProvider extends AbstractSemanticTokenProvider {
    protected highlightElement(node: AstNode, acceptor: SemanticTokenAcceptor): void {
        if (isForce(node)) acceptor({ node, property: 'name', type: TOKEN_TYPES.force, modifier: DECLARATION });
        else if (isUnit(node)) {
            acceptor({ node, property: 'name', type: TOKEN_TYPES.unit, modifier: DECLARATION });
            if (node.grade) acceptor({ node, property: 'grade', type: TOKEN_TYPES.grade });
            if (node.count) acceptor({ node, property: 'count', type: TOKEN_TYPES.number });
        } else if (isGrade(node)) {
            acceptor({ node, property: 'name', type: TOKEN_TYPES.grade, modifier: DECLARATION });
            if (node.value !== undefined) acceptor({ node, property: 'value', type: TOKEN_TYPES.number });
        } else if (isModifier(node)) {
            acceptor({ node, property: 'name', type: TOKEN_TYPES.modifier, modifier: DECLARATION });
            acceptor({ node, property: 'value', type: TOKEN_TYPES.number });
        } else if (isAction(node)) acceptor({ node, property: 'name', type: TOKEN_TYPES.action, modifier: DECLARATION });
        else if (isTurn(node) && node.number !== undefined) acceptor({ node, property: 'number', type: TOKEN_TYPES.number });
        else if (isTarget(node)) this.highlightTarget(node, acceptor);
        else if (isFactor(node)) node.modifiers.forEach((_, index) => acceptor({ node, property: 'modifiers', index, type: TOKEN_TYPES.modifier }));
        else if (isDice(node)) node.values.forEach((_, index) => acceptor({ node, property: 'values', index, type: TOKEN_TYPES.number }));
        else if (isSeed(node)) acceptor({ node, property: 'value', type: TOKEN_TYPES.number });
        else if (isSplitPart(node)) acceptor({ node, property: 'dice', type: TOKEN_TYPES.number });
        else if (isOutcome(node) && node.seed !== undefined) acceptor({ node, property: 'seed', type: TOKEN_TYPES.number });
        else if (isOutcomeLine(node)) acceptor({ node, property: 'result', type: TOKEN_TYPES.result });
        else if (isStat(node)) acceptor({ node, property: 'key', type: TOKEN_TYPES.stat });
        else if (isStatValue(node) && node.number !== undefined) acceptor({ node, property: 'number', type: TOKEN_TYPES.number });
        else if (isFact(node)) {
            acceptor({ node, property: 'key', type: TOKEN_TYPES.stat });
            if (node.number !== undefined) acceptor({ node, property: 'number', type: TOKEN_TYPES.number });
        }
    }

    private highlightTarget(node: Target, acceptor: SemanticTokenAcceptor): void {
        acceptor({ node, property: 'force', type: TOKEN_TYPES.force });
        if (node.unit) acceptor({ node, property: 'unit', type: TOKEN_TYPES.unit });
        if (node.index !== undefined) acceptor({ node, property: 'index', type: TOKEN_TYPES.number });
    }
}
