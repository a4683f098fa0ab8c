/**
 * The size limits a file can run into (docs/limits.md): each is reported once, where the
 * limit is crossed, with the setting that moves it. Every check here is linear in what it reads.
 */
import { AstUtils, type ValidationAcceptor } from 'langium';
import type { Action, Dice, Force } from '../generated/ast.js';
import { modelOf } from '../../core/model-cache.js';
import { unitCount } from '../../core/scenario.js';
import { sideUnits } from '../../core/scenario.js';
import { settingName } from '../../core/limits.js';
import { Codes } from '../../core/codes.js';
import { inText } from '../syntax-messages.js';

/** Units past the force or file limit are not built (model/scenario.ts): say so on the line where it happens. */
export function checkForceSize(force: Force, accept: ValidationAcceptor): void {
    const model = modelOf(force);
    const limits = model.limits;
    const built = model.forces.get(force.name);
    if (!built || built.node !== force) return;
    let declared = 0;
    for (const unit of force.units) {
        declared += Math.min(unitCount(unit), limits.maxCount);
        if (declared <= built.units.length) continue;
        const message = declared > limits.maxUnitsPerForce
            ? `Force '${force.name}' passes ${limits.maxUnitsPerForce} units here (setting ${settingName('maxUnitsPerForce')}): units from this line on are not built. Split the force.`
            : `The file passes ${limits.maxUnitsPerFile} units here (setting ${settingName('maxUnitsPerFile')}): units from this line on are not built. Split the campaign into several files.`;
        accept('error', message, { node: unit, property: 'name', code: Codes.unitsLimit });
        return;
    }
}

/** A side of more units than the limit is not resolved (report/limits.ts): every unit throws a die. */
export function checkActionSize(action: Action, accept: ValidationAcceptor): void {
    const model = modelOf(action);
    const limits = model.limits;
    const sides = sideUnits(model, action);
    if (!sides) return;
    const largest = Math.max(sides.attackers.length, sides.defenders.length);
    if (largest > limits.maxUnitsPerSide) {
        accept('error', `A side of ${largest} units is more than one action resolves (at most ${limits.maxUnitsPerSide}, setting ${settingName('maxUnitsPerSide')}). Split it into several engagements.`,
            { node: action, property: 'name', code: Codes.actionTooLarge });
    }
}

/** A dice line longer than any side can use: the rest is not read. */
export function checkDiceLine(line: Dice, accept: ValidationAcceptor): void {
    const limits = modelOf(line).limits;
    if (line.values.length > limits.maxDicePerLine) {
        accept('error', `This line enters ${line.values.length} dice; a line takes at most ${limits.maxDicePerLine} (setting ${settingName('maxDicePerLine')}).`,
            { node: line, property: 'values', index: limits.maxDicePerLine, code: Codes.diceLineTooLong });
    }
}

const errorOffsets = new WeakMap<object, number[]>();

/** The offsets of the document's lexing and parsing errors, sorted, computed once per parse. */
function syntaxErrorOffsets(action: Action): number[] {
    const document = AstUtils.getDocument(action);
    const result = document.parseResult;
    let offsets = errorOffsets.get(result);
    if (!offsets) {
        const end = document.textDocument.getText().length;
        offsets = [
            ...result.lexerErrors.map(e => e.offset),
            ...result.parserErrors.map(e => inText(e.token) ? e.token.startOffset : end)
        ].sort((a, b) => a - b);
        errorOffsets.set(result, offsets);
    }
    return offsets;
}

/**
 * Whether the parser had to recover inside this action (or never found its closing `}`): its
 * statements may then lack parts the rule-set checks rely on. Such an action gets only its syntax
 * error until it parses; the rule-set checks would add noise, or worse, throw. Binary search: linear overall.
 */
export function isHalfTyped(action: Action): boolean {
    const cst = action.$cstNode;
    // Its last character, read in place (the node's text would be copied out of the file's for each action).
    const end = cst?.end ?? 0;
    if (!cst || end === 0 || cst.root.fullText.charCodeAt(end - 1) !== 125 /* } */) return true;
    // A file without syntax errors has every action whole (an action's text is never empty there).
    const offsets = syntaxErrorOffsets(action);
    if (offsets.length === 0) return false;
    if (end <= cst.offset) return true;
    let lo = 0, hi = offsets.length;
    while (lo < hi) {
        const mid = (lo + hi) >> 1;
        if (offsets[mid] < cst.offset) lo = mid + 1; else hi = mid;
    }
    return lo < offsets.length && offsets[lo] <= cst.end;
}

/** Whether the file the action sits in has any lexer or parser error. */
export function hasSyntaxErrors(action: Action): boolean {
    return syntaxErrorOffsets(action).length > 0;
}
