/**
 * What-ifs (docs/reports.md#what-if): a change to one engagement's set-up, made as an
 * edit of the scenario's text, so that the changed file is checked and its odds computed by exactly
 * the services that read the original (nothing is recomputed by hand, so the figures are as exact as
 * the odds themselves). The changes an umpire asks for:
 *   `without Uphill`            every `factor Uphill` of the engagement removed
 *   `with Uphill on French`     a `factor Uphill on French` line added to the engagement
 *   `grade French.Ligne Guard`  the unit's declaration given another grade (all its instances)
 *   `option pooled` / `option die d8` / `without option pooled`   a rule-set option set or removed
 *   `without fact charged on Greeks.Companions`   a fact written on a unit in the engagement removed
 *   `with fact charged on Greeks.Hoplites`        a `Greeks.Hoplites: charged` line added
 */
import { GrammarUtils } from 'langium';
import type { OddsReport } from '../protocol.js';
import type { ActionModel, ScenarioModel } from '../core/scenario.js';
import { isFactor, isFacts, type Factor, type Facts } from '../language/generated/ast.js';

type WhatIf =
    | { kind: 'without', modifier: string }
    | { kind: 'with', modifier: string, target: string }
    | { kind: 'grade', unit: string, grade: string }
    | { kind: 'option', name: string, value?: string }
    | { kind: 'without-option', name: string }
    | { kind: 'fact', key: string, value?: string, target: string }
    | { kind: 'without-fact', key: string, target: string };

const NAME = '[\\p{L}_][\\p{L}\\p{N}_-]*';

export function parseWhatIf(text: string): WhatIf | { problem: string } {
    const t = text.trim().replace(/\s+/g, ' ');
    let m: RegExpMatchArray | null;
    if ((m = t.match(new RegExp(`^without option (${NAME})$`, 'u')))) return { kind: 'without-option', name: m[1] };
    if ((m = t.match(new RegExp(`^without fact (${NAME}) on (\\S+)$`, 'u')))) return { kind: 'without-fact', key: m[1], target: m[2] };
    if ((m = t.match(new RegExp(`^with fact (${NAME})(?: (\\S+))? on (\\S+)$`, 'u')))) return { kind: 'fact', key: m[1], value: m[2], target: m[3] };
    if ((m = t.match(new RegExp(`^without (${NAME})$`, 'u')))) return { kind: 'without', modifier: m[1] };
    if ((m = t.match(new RegExp(`^with (${NAME}) on (\\S.*)$`, 'u')))) return { kind: 'with', modifier: m[1], target: m[2] };
    if ((m = t.match(new RegExp(`^grade (${NAME}\\.${NAME}) (${NAME})$`, 'u')))) return { kind: 'grade', unit: m[1], grade: m[2] };
    if ((m = t.match(new RegExp(`^option (${NAME})(?: (\\S+))?$`, 'u')))) return { kind: 'option', name: m[1], value: m[2] };
    return { problem: `'${text}' is not a what-if: write 'without FACTOR', 'with FACTOR on TARGET', 'grade FORCE.UNIT GRADE', 'option NAME [VALUE]', 'without option NAME', 'with fact FACT on UNIT' or 'without fact FACT on UNIT'` };
}

/** Text `offset`..`end` (before any edit) replaced by `text`. */
export interface Edit { offset: number, end: number, text: string }

export function applyEdits(text: string, edits: readonly Edit[]): string {
    let out = text;
    for (const e of [...edits].sort((a, b) => b.offset - a.offset)) out = out.slice(0, e.offset) + e.text + out.slice(e.end);
    return out;
}

/** The whole line of a node, with its line break: what removing a statement removes. */
export function lineOf(text: string, offset: number, end: number): Edit {
    const start = text.lastIndexOf('\n', offset - 1) + 1;
    const next = text.indexOf('\n', end);
    return { offset: start, end: next < 0 ? text.length : next + 1, text: '' };
}

function indentAt(text: string, offset: number): string {
    const start = text.lastIndexOf('\n', offset - 1) + 1;
    return /^[ \t]*/.exec(text.slice(start))![0];
}

/** The scenario's text with the change made to the action, or why it cannot be made. */
export function applyWhatIf(model: ScenarioModel, action: ActionModel, change: WhatIf, text: string): string | { problem: string } {
    const edits = whatIfEdits(model, action, change, text);
    return 'problem' in edits ? edits : applyEdits(text, edits);
}

/**
 * The edits of the text that make the change, each at its place in `text` (none overlap), or why it
 * cannot be made. `placeBefore` reads a place in the changed text back through them.
 */
function whatIfEdits(model: ScenarioModel, action: ActionModel | undefined, change: WhatIf, text: string): Edit[] | { problem: string } {
    const eol = text.includes('\r\n') ? '\r\n' : '\n';
    if (change.kind !== 'grade' && change.kind !== 'option' && change.kind !== 'without-option') {
        return action ? actionEdits(model, action, change, text, eol) : { problem: 'it changes the lines of one action: name the action with --engagement' };
    }
    switch (change.kind) {
        case 'grade': {
            const [force, name] = change.unit.split('.');
            const unit = model.forces.get(force)?.byName.get(name)?.[0]?.node;
            if (!unit?.$cstNode) return { problem: `there is no unit ${change.unit}` };
            if (!model.grades.has(change.grade)) return { problem: `there is no grade ${change.grade} (grades: ${[...model.grades.keys()].join(', ') || 'none'})` };
            const gradeCst = GrammarUtils.findNodeForProperty(unit.$cstNode, 'grade');
            if (gradeCst) return ([{ offset: gradeCst.offset, end: gradeCst.end, text: change.grade }]);
            const arm = GrammarUtils.findNodeForProperty(unit.$cstNode, 'arm');
            if (!arm) return { problem: `the unit ${change.unit} has no arm to put a grade after` };
            return ([{ offset: arm.end, end: arm.end, text: ` ${change.grade}` }]);
        }
        case 'option':
        case 'without-option': {
            const line = change.kind === 'option' ? `option ${change.name}${change.value !== undefined ? ` ${change.value}` : ''}` : '';
            const existing = model.root.options.find(o => o.name === change.name)?.$cstNode;
            if (existing) return ([line ? { offset: existing.offset, end: existing.end, text: line } : lineOf(text, existing.offset, existing.end)]);
            if (!line) return { problem: `the file sets no option ${change.name}` };
            // A new option goes after the `rules` line (options come before everything else).
            const rules = GrammarUtils.findNodeForProperty(model.root.$cstNode, 'rules') ?? GrammarUtils.findNodeForProperty(model.root.$cstNode, 'title');
            const at = rules?.end ?? 0;
            return ([{ offset: at, end: at, text: rules ? `${eol}${line}` : `${line}${eol}` }]);
        }
    }
}

type ActionChange = Extract<WhatIf, { kind: 'with' | 'without' | 'fact' | 'without-fact' }>;

/** The edits of one action's lines that make a change to its factors or facts. */
function actionEdits(model: ScenarioModel, action: ActionModel, change: ActionChange, text: string, eol: string): Edit[] | { problem: string } {
    const node = action.node;
    switch (change.kind) {
        case 'without': {
            const factors = node.statements.filter((s): s is Factor => isFactor(s) && s.modifiers.some(m => m.$refText === change.modifier));
            if (factors.length === 0) return { problem: `${node.kind} ${node.name} has no factor ${change.modifier}` };
            return (factors.map(f => {
                const cst = f.$cstNode!;
                const others = f.modifiers.filter(m => m.$refText !== change.modifier).map(m => m.$refText);
                if (others.length === 0) return lineOf(text, cst.offset, cst.end);
                const on = text.slice(cst.offset, cst.end).replace(/^factor\s+[^]*?\s+on\s+/, '');
                return { offset: cst.offset, end: cst.end, text: `factor ${others.join(', ')} on ${on}` };
            }));
        }
        case 'with': {
            if (!model.modifiers.has(change.modifier)) return { problem: `there is no modifier ${change.modifier} (modifiers: ${[...model.modifiers.keys()].join(', ') || 'none'})` };
            const last = node.statements.at(-1)?.$cstNode;
            if (!last) return { problem: `${node.kind} ${node.name} has no statement to add a factor after` };
            return ([{ offset: last.end, end: last.end, text: `${eol}${indentAt(text, last.offset)}factor ${change.modifier} on ${change.target}` }]);
        }
        case 'without-fact': {
            const lines = node.statements.filter((s): s is Facts => isFacts(s) && sameTarget(text, s, change.target) && s.facts.some(f => f.key === change.key));
            if (lines.length === 0) return { problem: `${node.kind} ${node.name} has no fact ${change.key} on ${change.target}` };
            return (lines.map(line => {
                const cst = line.$cstNode!;
                const others = line.facts.filter(f => f.key !== change.key).map(f => f.$cstNode!.text);
                if (others.length === 0) return lineOf(text, cst.offset, cst.end);
                return { offset: cst.offset, end: cst.end, text: `${line.target.$cstNode!.text}: ${others.join(', ')}` };
            }));
        }
        case 'fact': {
            if (node.statements.some(s => isFacts(s) && sameTarget(text, s, change.target) && s.facts.some(f => f.key === change.key))) {
                return { problem: `${node.kind} ${node.name} already has the fact ${change.key} on ${change.target}` };
            }
            const last = node.statements.at(-1)?.$cstNode;
            if (!last) return { problem: `${node.kind} ${node.name} has no statement to add a fact after` };
            const fact = change.value !== undefined ? `${change.key} ${change.value}` : change.key;
            return ([{ offset: last.end, end: last.end, text: `${eol}${indentAt(text, last.offset)}${change.target}: ${fact}` }]);
        }
    }
}

/**
 * Where a place (an offset) of the text the edits made was in the text before them: a place in
 * text an edit put in is the place of that edit (`added`), so that a problem found in a changed
 * set-up is told at the line of the file on disk it came from.
 */
export function placeBefore(edits: readonly Edit[], offset: number): { offset: number, added: boolean } {
    let shift = 0;
    for (const e of [...edits].sort((a, b) => a.offset - b.offset)) {
        const start = e.offset + shift;
        if (offset < start) break;
        if (offset < start + e.text.length) return { offset: e.offset, added: true };
        shift += e.text.length - (e.end - e.offset);
    }
    return { offset: offset - shift, added: false };
}

/** One what-if made: the change as asked, the text it was made on, and its edits of that text. */
export interface WhatIfStep {
    change: string;
    before: string;
    edits: Edit[];
}

/** The text `change` makes of `text` (a change of one action's lines needs the action), its step recorded (for `placeOnDisk`), or why it cannot be made. */
export function madeStep(model: ScenarioModel, action: ActionModel | undefined, change: WhatIf, asked: string, text: string): { step: WhatIfStep, text: string } | { problem: string } {
    const edits = whatIfEdits(model, action, change, text);
    return 'problem' in edits ? edits : { step: { change: asked, before: text, edits }, text: applyEdits(text, edits) };
}

/**
 * Where a place (0-based line and column) of the text the what-ifs made lies in the file on disk
 * (the text the first step was made on), read back through each step's edits; a place in text a
 * what-if put in is the place it went in, and `addedBy` names that what-if, the change to blame.
 */
export function placeOnDisk(steps: readonly WhatIfStep[], edited: string, position: { line: number, character: number }): { line: number, character: number, addedBy?: string } {
    let offset = offsetAt(edited, position);
    let addedBy: string | undefined;
    for (const step of [...steps].reverse()) {
        const place = placeBefore(step.edits, offset);
        offset = place.offset;
        if (place.added) addedBy = step.change;
    }
    const before = (steps[0]?.before ?? edited).slice(0, offset);
    return { line: before.split('\n').length - 1, character: offset - (before.lastIndexOf('\n') + 1), ...(addedBy !== undefined ? { addedBy } : {}) };
}

function offsetAt(text: string, position: { line: number, character: number }): number {
    let offset = 0;
    for (let line = 0; line < position.line; line++) {
        const next = text.indexOf('\n', offset);
        if (next < 0) return text.length;
        offset = next + 1;
    }
    return Math.min(text.length, offset + position.character);
}

/** Whether a facts line is about `target` as written (`Greeks.Companions`, spaces ignored). */
function sameTarget(text: string, line: Facts, target: string): boolean {
    const cst = line.target.$cstNode;
    return cst !== undefined && text.slice(cst.offset, cst.end).replace(/\s+/g, '') === target.replace(/\s+/g, '');
}

interface UnitDifference {
    id: string;
    probabilities: Record<string, number>;
    atLeast: Record<string, number>;
}

/** After minus before, per unit (matched by id) and label, and per side's expected counts. */
export function oddsDifference(before: OddsReport, after: OddsReport): { units: UnitDifference[], sides: Array<{ force: string, expected: Record<string, number> }> } {
    const diff = (a: Record<string, number> = {}, b: Record<string, number> = {}) =>
        Object.fromEntries([...new Set([...Object.keys(a), ...Object.keys(b)])].map(k => [k, (b[k] ?? 0) - (a[k] ?? 0)]));
    const afterUnits = new Map(after.units.map(u => [u.id, u]));
    const afterSides = new Map(after.sides.map(s => [s.force, s]));
    return {
        units: before.units.filter(u => afterUnits.has(u.id)).map(u => {
            const v = afterUnits.get(u.id)!;
            return { id: u.id, probabilities: diff(u.probabilities, v.probabilities), atLeast: diff(u.atLeast, v.atLeast) };
        }),
        sides: before.sides.filter(s => afterSides.has(s.force)).map(s => ({ force: s.force, expected: diff(s.expected, afterSides.get(s.force)!.expected) }))
    };
}
