import type { CstNode, LeafCstNode, ParseResult } from 'langium';
import type { Element, Scenario, Turn } from './generated/ast.js';
import { baseOf, isUnit, moveCharacters, rebase, shiftBase, shiftLeaf, startLineOf } from './battle-cst.js';
import { spanBetween, type TextSpan } from './text-change.js';
import { inText } from './syntax-messages.js';

/**
 * Parsing a file in pieces (docs/performance.md#incremental-parsing): after an edit, only
 * the top-level elements (grades, forces, actions, turns, …) around the changed text are parsed
 * again, and their new nodes are spliced into the previous tree, whose later nodes are moved by the
 * length of the change. A 50,000-line file spent a third of every edit in the parser and most of its
 * garbage collection on the nodes of the lines nobody touched.
 *
 * The result must be the tree a full parse of the new text gives, node for node (offsets, lines,
 * hidden comment nodes, syntax errors). The grammar makes that provable at the top level: every
 * element starts with a keyword, or an action with its kind (a token of its own, KIND, in battle-token-builder.ts),
 * that no element can continue with, and an element without errors is
 * decided by its own tokens and the keyword after it. So the piece parsed again is whole elements,
 * from the element before the change to the element after it, parsed together with the next element
 * as a guard: when that one comes out exactly as it stood (same place, no error in or after it), the
 * piece's parse, error recovery included, never depended on the text after it. Syntax errors of
 * the elements outside the piece are kept with them (those after it move with the text), once the
 * piece has taken in the neighbours whose recovery could have read it (see below).
 *
 * The header (`scenario`, `rules`, `option` and `seal` lines) is decided the same way, by its own tokens and
 * the first element's keyword: a change in it, or at the very start of the first element (no element starts
 * before the change), or next to an error in the header, makes a piece that starts at the file's start and
 * takes in the header. A change in the header alone (before the white space in front of the first element)
 * parses no element but the guard, the first element; the new root takes the piece's header. Anything else
 * (an unclosed comment, a piece that no longer parses into elements, a guard that does not come out as it
 * stood) answers `undefined`, and the caller parses the whole file.
 *
 * An edit inside a turn's braces is spliced among the turn's own elements (`reparseInTurn`) when it
 * can be: the turn's actions that did not change are kept, as top-level elements are.
 */
export function reparsePiece(previous: ParseResult<Scenario>, text: string, parse: (text: string) => ParseResult<Scenario>, change?: TextSpan): ParseResult<Scenario> | undefined {
    const oldRoot = previous.value;
    const rootCst = oldRoot.$cstNode as RootCst | undefined;
    if (!rootCst || rootCst.container || (previous.lexerReport?.diagnostics.length ?? 0) > 0) return undefined;
    const oldText = rootCst.fullText;
    if (oldText === text) return undefined;
    const elements = oldRoot.elements;
    if (elements.length === 0) return undefined;

    // The changed region: [prefix, oldText.length - suffix) of the old text, as the editor named it (any
    // span that holds every changed character will do: the piece is whole elements around it), else compared.
    const { prefix, suffix } = change ?? spanBetween(oldText, text);
    const changeEnd = oldText.length - suffix;
    const delta = text.length - oldText.length;

    const inTurn = reparseInTurn(previous, text, prefix, changeEnd, parse);
    if (inTurn) return inTurn;

    // The piece: from the last element that starts before the change (its first character is kept)
    // to the first element that ends after it (its last character is kept), or to the end of the file.
    // With no element before the change (it lies in the header, or at the very start of the first
    // element), the piece starts at the file's start and takes in the header (`withHeader`); when the
    // change lies in the header alone, before the white space in front of the first element, no element
    // is parsed again but the guard: the header is decided by its own tokens and the first element's keyword.
    let first = lastIndexWhere(elements, e => offsetOf(e) < prefix);
    const firstStart = offsetOf(elements[0]);
    const headerOnly = first < 0 && changeEnd < firstStart && isSpace(oldText.charCodeAt(firstStart - 1));
    // The last element parsed again (-1: none, with `headerOnly`; else every one to the end of the file).
    let last = headerOnly ? -1 : firstIndexWhere(elements, e => endOf(e) > changeEnd);
    let toEnd = !headerOnly && last < 0;

    // Syntax errors outside the piece are kept with their elements, which are not parsed again
    // (docs/performance.md, "Error files edited in pieces"). An error is reported at the token where
    // it was found, and its recovery reads the tokens up to the next one that some open rule may
    // continue with, at most the next element's first keyword. So an element is kept with its errors
    // when nothing of its parse can have read the piece: the element just before the piece must be
    // clean up to and including the piece's first token (an error there can be its missing '}'), and
    // the guard after the piece, the gaps around it and the first token after it clean, as for a
    // clean file. Otherwise the piece takes in that element, until such neighbours are found, or
    // the header, whose errors the piece then finds again.
    const errorAt = errorPositions(previous, oldText.length);
    const anyErrorIn = (from: number, to: number) => errorAt.some(at => at >= from && at <= to);
    while (first >= 0 && anyErrorIn(first > 0 ? offsetOf(elements[first - 1]) : 0, offsetOf(elements[first]))) first--;
    const withHeader = first < 0;
    // The replaced elements are [from, last]: none when the header alone is parsed again (last = from - 1).
    const from = withHeader ? 0 : first;
    while (!toEnd && last + 1 < elements.length
        && anyErrorIn(last >= 0 ? endOf(elements[last]) : firstStart, last + 2 < elements.length ? offsetOf(elements[last + 2]) : Number.POSITIVE_INFINITY)) last++;
    if (last + 1 >= elements.length) toEnd = true;
    if (toEnd) last = elements.length - 1;
    const start = withHeader ? 0 : offsetOf(elements[first]);
    const oldEnd = toEnd ? oldText.length : last >= from ? endOf(elements[last]) : firstStart;
    const guard = toEnd ? undefined : elements[last + 1];
    if (start > 0 && !isSpace(oldText.charCodeAt(start - 1))) return undefined;
    const newEnd = oldEnd + delta;
    const pieceEnd = guard ? endOf(guard) + delta : text.length;
    if (pieceEnd < text.length && !isSpace(text.charCodeAt(pieceEnd))) return undefined;

    // The old errors: those before the piece are kept as they are, those after it move with the text,
    // those in it are replaced by the piece's. They must have been found in that order.
    const kept = keptErrors(previous, start, toEnd ? Number.POSITIVE_INFINITY : oldEnd);
    if (!kept) return undefined;
    // A comment left open before the piece (its '/' refused by the lexer) would close at a '*/' typed in it.
    if (kept.lexerBefore.some(e => oldText.charCodeAt(e.offset) === 47) && text.slice(start, pieceEnd).includes('*/')) return undefined;

    const piece = parse(text.slice(start, pieceEnd));
    const value = piece.value;
    if (!withHeader && (value.title !== undefined || value.rules !== undefined || value.options.length > 0 || value.seal !== undefined)) return undefined;
    if ((piece.lexerReport?.diagnostics.length ?? 0) > 0) return undefined;
    // An unclosed `/*` might close after the piece: the lexer says so by refusing a '/'.
    if (piece.lexerErrors.some(e => text.charCodeAt(start + e.offset) === 47)) return undefined;
    const pieceElements = value.elements;
    if (pieceElements.length === 0 || (!withHeader && offsetOf(pieceElements[0]) !== 0)) return undefined;
    const relEnd = newEnd - start;
    let newElements = pieceElements;
    if (guard) {
        const again = pieceElements[pieceElements.length - 1];
        const guardStart = offsetOf(guard) + delta - start;
        if (pieceElements.length < (withHeader ? 1 : 2) || offsetOf(again) !== guardStart || endOf(again) !== pieceEnd - start) return undefined;
        if (piece.lexerErrors.some(e => e.offset >= relEnd) || piece.parserErrors.some(e => !(e.token.startOffset < relEnd))) return undefined;
        newElements = pieceElements.slice(0, -1);
    }

    // The elements the piece took in for their errors alone, before the change or after it, that came out as
    // they stood: the old nodes stay (and with them their links, checks and models), the rest is replaced.
    const { lead, trail } = withHeader ? NONE_SAME : sameAtEnds(previous, piece, elements, from, last, newElements, start, lastIndexWhere(elements, e => offsetOf(e) < prefix), changeEnd, delta, toEnd);
    // The replaced text, [regionStart, regionEnd) before the change (regionEnd + delta after it).
    const regionStart = lead > 0 ? endOf(elements[from + lead - 1]) : start;
    const regionEnd = trail > 0 ? offsetOf(elements[last - trail + 1]) : oldEnd;
    const relStart = regionStart - start, relRegionEnd = regionEnd + delta - start;

    // The piece's top-level CST nodes that belong to the replaced text (not the guard and the gap before it).
    const pieceCst = value.$cstNode as RootCst;
    const taken: CstNode[] = [];
    for (const child of pieceCst.content) {
        if (child.end <= relEnd) {
            if (child.offset >= relStart && child.end <= relRegionEnd) taken.push(child);
        } else if (child.offset < relEnd) return undefined;
    }

    // Where the piece starts and where the replaced text ends, before and after.
    const startPos = withHeader ? { line: 0, character: 0 } : elements[first].$cstNode!.range.start;
    const oldEndPos = toEnd ? undefined : positionAfter(oldText, start, regionEnd, startPos);
    const newEndPos = toEnd ? undefined : positionAfter(text, start, regionEnd + delta, startPos);

    // The new nodes move from the piece's coordinates to the file's.
    placeInFile(taken, rootCst, start, startPos);

    // The root's children: [before | replaced | after]; the later ones move by the change.
    const content = rootCst.content;
    const childFrom = firstChildAt(content, regionStart);
    const childTo = toEnd ? content.length : firstChildAt(content, regionEnd);
    for (let k = childFrom; k < childTo; k++) {
        const child = content[k];
        if (child.offset < regionStart || child.end > regionEnd) return undefined;
    }
    if (oldEndPos && newEndPos) moveLater([[content, childTo]], kept, delta, oldEndPos, newEndPos);
    spliceChildren(rootCst, content, childFrom, childTo - childFrom, taken);
    rootCst._text = text;
    rootCst._rangeCache = undefined;

    // A new root: everything cached by the root (the model, scopes) is made again for the new text. With the
    // header parsed again, the piece's root is the new one: its header as parsed, its properties in a whole parse's order.
    const added = newElements.slice(lead, newElements.length - trail);
    const elementsNow = elements.slice(0, from + lead).concat(added, elements.slice(last + 1 - trail));
    const root: Scenario = withHeader ? { ...value, $cstNode: rootCst, elements: elementsNow } : { ...oldRoot, elements: elementsNow };
    adoptAll(root.elements, root, 'elements');
    adoptAll(root.options, root, 'options');
    (rootCst as { astNode: unknown }).astNode = root;

    const pieceLexerErrors = fromPiece(piece, start, startPos);
    const result: ParseResult<Scenario> = {
        value: root,
        lexerErrors: [...kept.lexerBefore, ...pieceLexerErrors, ...kept.lexerAfter],
        lexerReport: piece.lexerReport,
        parserErrors: [...kept.parserBefore, ...piece.parserErrors, ...kept.parserAfter]
    };
    SPLICED.set(result, { first: from + lead, added: added.length, header: withHeader });
    return result;
}

const NONE_SAME = { lead: 0, trail: 0 };

/** Elements a piece took in and kept as they stood (`sameAtEnds`), since the module was loaded: tests read it. */
export const pieceCounts = { keptAtEnds: 0 };

/**
 * How many of the piece's first elements (`lead`, before `changed`, the element the change starts in or after) and last ones (`trail`, wholly
 * after it, not when the piece runs to the end of the file) came out as they stood in the previous tree:
 * the same parse tree at the same place (moved by the change after it), and the same syntax errors in the
 * same places. The piece's parse is the file's (see `reparsePiece`), so such an element of the previous
 * tree is what a parse of the whole new text gives, and is kept. A piece takes in the elements next to
 * the change that have syntax errors (their recovery might have read the changed text), so in a file with
 * thousands of them most pieces hold a few elements the edit did not touch; each kept one keeps its links,
 * checks and models (a force parsed again is a force changed, and the campaign state is worked out again
 * from the top). At least one element of the piece is new.
 */
function sameAtEnds(previous: ParseResult, piece: ParseResult, elements: readonly Element[], from: number, last: number, pieceElements: readonly Element[],
    start: number, changed: number, changeEnd: number, delta: number, toEnd: boolean): { lead: number, trail: number } {
    const oldCount = last - from + 1, most = Math.min(oldCount, pieceElements.length - 1);
    let lead = 0;
    // The first element replaced starts before the change, as without any kept (the depth there is the previous tree's).
    while (lead < most && from + lead < changed && sameCst(elements[from + lead].$cstNode!, pieceElements[lead].$cstNode!, start)) lead++;
    while (lead > 0 && !sameErrors(previous, piece, start, endOf(elements[from + lead - 1]), start)) lead--;
    let trail = 0;
    if (!toEnd) {
        while (lead + trail < most && offsetOf(elements[last - trail]) >= changeEnd
            && sameCst(elements[last - trail].$cstNode!, pieceElements[pieceElements.length - 1 - trail].$cstNode!, start - delta)) trail++;
        while (trail > 0 && !sameErrors(previous, piece, offsetOf(elements[last - trail + 1]), endOf(elements[last]), start - delta)) trail--;
    }
    pieceCounts.keptAtEnds += lead + trail;
    return { lead, trail };
}

/** Whether `piece`'s node (in the piece's coordinates, `shift` characters from the file's) is `old` node for node, leaf for leaf. */
function sameCst(old: CstNode, piece: CstNode, shift: number): boolean {
    const a = old as AnyCst, b = piece as AnyCst;
    if (a.grammarSource !== b.grammarSource || a.offset !== b.offset + shift || a.length !== b.length) return false;
    if (isLeaf(a) || isLeaf(b)) {
        return isLeaf(a) && isLeaf(b) && (a as LeafCstNode).tokenType === (b as LeafCstNode).tokenType && a.hidden === b.hidden;
    }
    const x = a.content!, y = b.content!;
    if (x.length !== y.length || a.astNode.$type !== b.astNode.$type) return false;
    for (let k = 0; k < x.length; k++) if (!sameCst(x[k], y[k], shift)) return false;
    return true;
}

/**
 * Whether the previous parse's errors in [from, to) of the old text are the piece's in the same span (`shift`
 * characters from the piece's coordinates to the old text's): the same messages at the same places, in order.
 */
function sameErrors(previous: ParseResult, piece: ParseResult, from: number, to: number, shift: number): boolean {
    const oldLength = (previous.value.$cstNode as RootCst).fullText.length;
    const at = (e: IRecognitionException, length: number, by: number) => (inText(e.token) ? e.token.startOffset : length) + by;
    const olds = previous.parserErrors.filter(e => { const p = at(e, oldLength, 0); return p >= from && p < to; });
    const news = piece.parserErrors.filter(e => { const p = at(e, Number.POSITIVE_INFINITY, shift); return p >= from && p < to; });
    if (olds.length !== news.length) return false;
    for (let k = 0; k < olds.length; k++) {
        if (olds[k].name !== news[k].name || olds[k].message !== news[k].message || at(olds[k], oldLength, 0) !== at(news[k], Number.POSITIVE_INFINITY, shift)) return false;
    }
    const lexOld = previous.lexerErrors.filter(e => e.offset >= from && e.offset < to);
    const lexNew = piece.lexerErrors.filter(e => e.offset + shift >= from && e.offset + shift < to);
    if (lexOld.length !== lexNew.length) return false;
    const words = (e: ILexingError) => e.message.replace(/at offset: \d+/, '');
    return lexOld.every((e, k) => e.offset === lexNew[k].offset + shift && e.length === lexNew[k].length && words(e) === words(lexNew[k]));
}

/**
 * An edit inside a turn's braces, spliced among the turn's own elements (actions, state lines, house
 * blocks: `TurnElement`), so that an edit inside a turn of hundreds of actions costs what an edit of a
 * top-level element costs. Answers undefined (and the turn is parsed again as one top-level element)
 * unless all of this holds:
 *
 * - the change lies between the turn's `{` and its closing `}`, both kept;
 * - the previous parse has no syntax error from the element before the turn to the first token after
 *   the element after it: then a parse of the turn as a top-level piece, guarded by the next element,
 *   would be the file's (the argument of `reparsePiece`), and the turn parsed alone decides it;
 * - the turn parsed alone, with the text of its kept elements before and after the piece blanked (every
 *   character but line breaks made a space, so offsets, lines and columns stay those of the file), has
 *   no error at all, and its guard (the turn's element after the piece) comes out as it stood. The
 *   piece runs, as at the top level, from the turn's element that starts before the change (or from
 *   the `{`) to the element that ends after it (or to the `}`). A turn's element is decided by its own
 *   tokens and the one after it, a keyword or the turn's `}`, which nothing continues; so the kept
 *   elements before the piece, the piece and the guard parse as they would in the whole file.
 *
 * The turn gets a new AST node (its elements the kept ones and the new), so everything kept by the turn
 * node is made again; its kept elements are the same objects, and its CST node is the same, its
 * children spliced as the root's are.
 */
function reparseInTurn(previous: ParseResult<Scenario>, text: string, prefix: number, changeEnd: number, parse: (text: string) => ParseResult<Scenario>): ParseResult<Scenario> | undefined {
    const oldRoot = previous.value;
    const rootCst = oldRoot.$cstNode as RootCst;
    const oldText = rootCst.fullText;
    const elements = oldRoot.elements;
    const delta = text.length - oldText.length;
    const t = lastIndexWhere(elements, e => offsetOf(e) < prefix);
    const turn = elements[t];
    if (!turn || turn.$type !== 'Turn') return undefined;
    // The turn's CST node: its children are the turn's tokens and elements (no `Element` node around it: the node
    // builder leaves out wrapper nodes, battle-cst-builder.ts).
    const turnCst = turn.$cstNode as AnyCst | undefined;
    const body = turnCst;
    if (!turnCst || turnCst.container !== rootCst || !body?.content) return undefined;
    const content = body.content;
    const open = content.find(child => isLeaf(child as AnyCst) && (child as LeafCstNode).tokenType.name === '{');
    const close = content[content.length - 1] as AnyCst;
    if (!open || !isLeaf(close) || (close as unknown as LeafCstNode).tokenType.name !== '}' || close.end !== turnCst.end) return undefined;
    const openEnd = open.end, closeStart = close.offset;
    if (prefix < openEnd || changeEnd > closeStart) return undefined;
    const inner = (turn as Turn).elements;
    if (inner.some(e => e.$cstNode?.container !== body)) return undefined;

    // No syntax error in the turn or around it (see above); those elsewhere are kept, or moved.
    const errorAt = errorPositions(previous, oldText.length);
    const cleanFrom = t > 0 ? offsetOf(elements[t - 1]) : 0;
    const cleanTo = t + 2 < elements.length ? offsetOf(elements[t + 2]) : Number.POSITIVE_INFINITY;
    if (errorAt.some(at => at >= cleanFrom && at <= cleanTo)) return undefined;

    // The piece among the turn's elements, and its guard.
    const first = lastIndexWhere(inner, e => offsetOf(e) < prefix);
    const last = firstIndexWhere(inner, e => endOf(e) > changeEnd);
    const guard = last >= 0 && last + 1 < inner.length ? inner[last + 1] : undefined;
    const start = first >= 0 ? offsetOf(inner[first]) : openEnd;
    const oldEnd = guard ? endOf(inner[last]) : closeStart;
    const newEnd = oldEnd + delta;
    const pieceEnd = guard ? endOf(guard) + delta : closeStart + delta;
    if (start > openEnd && !isSpace(oldText.charCodeAt(start - 1))) return undefined;
    if (guard && !isSpace(text.charCodeAt(pieceEnd))) return undefined;
    const turnStart = offsetOf(turn);
    const kept = keptErrors(previous, turnStart, turnCst.end);
    if (!kept) return undefined;
    if (kept.lexerBefore.some(e => oldText.charCodeAt(e.offset) === 47) && text.slice(start, pieceEnd).includes('*/')) return undefined;

    const closeNew = closeStart + delta;
    const blank = (from: number, to: number) => text.slice(from, to).replace(/[^\r\n]/g, ' ');
    const wrapped = text.slice(turnStart, openEnd) + blank(openEnd, start) + text.slice(start, pieceEnd) + blank(pieceEnd, closeNew) + '}';
    const piece = parse(wrapped);
    if ((piece.lexerReport?.diagnostics.length ?? 0) > 0 || piece.lexerErrors.length > 0 || piece.parserErrors.length > 0) return undefined;
    const value = piece.value;
    const again = value.elements[0];
    if (value.title !== undefined || value.rules !== undefined || value.options.length > 0 || value.elements.length !== 1
        || again.$type !== 'Turn' || offsetOf(again) !== 0 || endOf(again) !== wrapped.length) return undefined;
    const relStart = start - turnStart, relEnd = newEnd - turnStart;
    let newInner = (again as Turn).elements;
    if (guard) {
        const parsedGuard = newInner[newInner.length - 1];
        if (!parsedGuard || offsetOf(parsedGuard) !== offsetOf(guard) + delta - turnStart || endOf(parsedGuard) !== pieceEnd - turnStart) return undefined;
        newInner = newInner.slice(0, -1);
    }
    if (newInner.some(e => offsetOf(e) < relStart || endOf(e) > relEnd)) return undefined;
    const againBody = again.$cstNode as AnyCst | undefined;
    if (!againBody?.content) return undefined;
    const taken: CstNode[] = [];
    for (const child of againBody.content) {
        if (child.offset >= relStart && child.end <= relEnd) taken.push(child);
        else if (child.offset < relEnd && child.end > relStart) return undefined;
    }

    // The turn's old children [from, to) are the piece's; those after it, and the root's after the turn, move.
    const from = firstChildAt(content, start);
    const to = firstChildAt(content, oldEnd);
    for (let k = from; k < to; k++) if (content[k].end > oldEnd) return undefined;
    const startPos = turnCst.range.start;
    // Where the piece starts (the text before it is the same in both): its first element's place, or the `{`'s end.
    const piecePos = first >= 0 ? inner[first].$cstNode!.range.start : (open as LeafCstNode).range.end;
    const oldEndPos = positionAfter(oldText, start, oldEnd, piecePos);
    const newEndPos = positionAfter(text, start, newEnd, piecePos);
    placeInFile(taken, body, turnStart, startPos);
    const rootContent = rootCst.content;
    const turnAt = firstChildAt(rootContent, turnStart);
    if (rootContent[turnAt] !== turnCst) return undefined;
    moveLater([[content, to], [rootContent, turnAt + 1]], kept, delta, oldEndPos, newEndPos);
    spliceChildren(body, content, from, to - from, taken);
    body._rangeCache = undefined;
    rootCst._text = text;
    rootCst._rangeCache = undefined;

    // A new turn node (whatever was kept by the old one is made again) and a new root, as in `reparsePiece`.
    const replacedFrom = first >= 0 ? first : 0;
    const replacedTo = guard ? last + 1 : inner.length;
    const newTurn: Turn = { ...(turn as Turn), elements: [...inner.slice(0, replacedFrom), ...newInner, ...inner.slice(replacedTo)] };
    adoptAll(newTurn.elements, newTurn, 'elements');
    (turnCst as { astNode: unknown }).astNode = newTurn;
    const root: Scenario = { ...oldRoot, elements: elements.slice(0, t).concat([newTurn], elements.slice(t + 1)) };
    adoptAll(root.elements, root, 'elements');
    adoptAll(root.options, root, 'options');
    (rootCst as { astNode: unknown }).astNode = root;
    const result: ParseResult<Scenario> = {
        value: root,
        lexerErrors: [...kept.lexerBefore, ...kept.lexerAfter],
        lexerReport: piece.lexerReport,
        parserErrors: [...kept.parserBefore, ...kept.parserAfter]
    };
    SPLICED.set(result, { first: t, added: 1, header: false });
    return result;
}

/**
 * The errors after the piece, and every leaf of `nodes` (the CST after it, in text order), moved by the
 * change: `delta` characters, and the lines and columns from where the piece ended to where it ends now.
 * A unit (a top-level element, a turn's own element) moves by its base alone; other leaves (comments
 * between elements, a turn's own tokens) one by one. The characters of the leaves on the piece's last
 * line move too: they are the first few leaves after it.
 */
function moveLater(runs: ReadonlyArray<readonly [readonly CstNode[], number]>, kept: KeptErrors, delta: number, oldEndPos: Position, newEndPos: Position): void {
    const lines = newEndPos.line - oldEndPos.line;
    const by = newEndPos.character - oldEndPos.character;
    const endLine = oldEndPos.line;
    if (by !== 0) {
        const visit = (leaf: CstNode) => {
            if (startLineOf(leaf) > endLine) return false;
            moveCharacters(leaf, endLine, by);
            return true;
        };
        for (const [nodes, from] of runs) if (!forLeavesWhile(nodes, from, visit)) break;
    }
    // Indexed loops: no iterator or copy per node, as the root has 10,000s of children.
    if (delta !== 0 || lines !== 0) for (const [nodes, from] of runs) for (let k = from; k < nodes.length; k++) moveNode(nodes[k], delta, lines);
    // The errors after the piece move with their text (their lines are counted from 1).
    const move = mover(oldEndPos, newEndPos);
    moveErrorTokens(kept.parserAfter as ParserError[], delta, (line, column) => moveOneBased(move, line, column));
    for (const error of kept.lexerAfter) {
        error.offset += delta;
        if (error.line !== undefined && error.column !== undefined) [error.line, error.column] = moveOneBased(move, error.line, error.column);
        error.message = error.message.replace(/at offset: \d+/, `at offset: ${error.offset}`);
    }
}

/** Every leaf under `node` moved by `offset` characters and `lines` lines: a unit by its base. */
function moveNode(node: CstNode, offset: number, lines: number): void {
    const n = node as AnyCst;
    if (!n.content) shiftLeaf(n, offset, lines);
    else if (isUnit(n)) shiftBase(baseOf(n)!, offset, lines);
    else for (let k = 0; k < n.content.length; k++) moveNode(n.content[k], offset, lines);
}

/** Visits the leaves of `nodes` in text order while `visit` answers true; false when it stopped. */
function forLeavesWhile(nodes: readonly CstNode[], from: number, visit: (leaf: CstNode) => boolean): boolean {
    for (let k = from; k < nodes.length; k++) {
        const content = (nodes[k] as AnyCst).content;
        if (content ? !forLeavesWhile(content, 0, visit) : !visit(nodes[k])) return false;
    }
    return true;
}

/**
 * `content.splice(from, count, ...items)` (the children of `parent`), the items' container set as Langium's builder
 * sets it (`insertChildren`), with plain loops and no spread of the items.
 */
function spliceChildren(parent: CstNode, content: CstNode[], from: number, count: number, items: readonly CstNode[]): void {
    const shift = items.length - count;
    const length = content.length;
    if (shift > 0) for (let k = length - 1; k >= from + count; k--) content[k + shift] = content[k];
    else if (shift < 0) {
        for (let k = from + count; k < length; k++) content[k + shift] = content[k];
        content.length = length + shift;
    }
    for (let k = 0; k < items.length; k++) {
        content[from + k] = items[k];
        (items[k] as { container?: CstNode }).container = parent;
    }
}

/** The tokens parser errors name, each moved once: offsets by `delta`, 1-based lines and columns by `place`. */
function moveErrorTokens(errors: readonly ParserError[], delta: number, place: (line: number, column: number) => [number, number]): void {
    const moved = new Set<IToken>();
    const moveToken = (token: IToken | undefined) => {
        if (!token || moved.has(token) || !inText(token)) return;
        moved.add(token);
        token.startOffset += delta;
        if (token.endOffset !== undefined) token.endOffset += delta;
        if (token.startLine !== undefined && token.startColumn !== undefined) [token.startLine, token.startColumn] = place(token.startLine, token.startColumn);
        if (token.endLine !== undefined && token.endColumn !== undefined) [token.endLine, token.endColumn] = place(token.endLine, token.endColumn);
    };
    for (const error of errors) {
        moveToken(error.token);
        moveToken(error.previousToken);
        error.resyncedTokens?.forEach(moveToken);
    }
}

/** The piece's errors moved from its coordinates (it starts at `start`, at `startPos`) to the file's; the lexer's returned. */
function fromPiece(piece: ParseResult, start: number, startPos: { line: number, character: number }): ILexingError[] {
    const pieceLexerErrors: ILexingError[] = piece.lexerErrors.map(e => {
        const line = e.line === undefined ? undefined : e.line + startPos.line;
        const column = e.column === undefined || e.line !== 1 ? e.column : e.column + startPos.character;
        return { ...e, offset: e.offset + start, line, column, message: e.message.replace(/at offset: \d+/, `at offset: ${e.offset + start}`) };
    });
    // Lines and columns count from 1: only the piece's first line starts at a column of the file's line.
    moveErrorTokens(piece.parserErrors as ParserError[], start, (line, column) => [line + startPos.line, line === 1 ? column + startPos.character : column]);
    return pieceLexerErrors;
}

/**
 * Which elements of a tree made in pieces are new: `added` of them from index `first`; the others are the
 * previous tree's. `header`: the header was parsed again too (the piece began at the file's start).
 */
export interface Spliced {
    readonly first: number;
    readonly added: number;
    readonly header: boolean;
}
const SPLICED = new WeakMap<ParseResult, Spliced>();

export function splicedElements(result: ParseResult): Spliced | undefined {
    return SPLICED.get(result);
}

type ParserError = IRecognitionException & { previousToken?: IToken };

/** Where each syntax error of a parse was found (an error at the end of the file has no offset: there). */
function errorPositions(result: ParseResult, length: number): number[] {
    const at = result.lexerErrors.map(e => e.offset);
    for (const e of result.parserErrors) at.push(inText(e.token) ? e.token.startOffset : length);
    return at;
}

/**
 * The errors of the previous parse before the piece [start, end) and after it, or undefined when
 * they were not found in that order (before, in, after): the new list is the kept ones around the
 * piece's own, in the order a parse of the whole file finds them.
 */
type KeptErrors = NonNullable<ReturnType<typeof keptErrors>>;

function keptErrors(previous: ParseResult, start: number, end: number) {
    const length = (previous.value.$cstNode as RootCst).fullText.length;
    const split = <E>(errors: readonly E[], at: (e: E) => number) => {
        const before: E[] = [], after: E[] = [];
        let stage = 0;
        for (const e of errors) {
            const where = at(e);
            const s = where < start ? 0 : where < end ? 1 : 2;
            if (s < stage) return undefined;
            stage = s;
            if (s === 0) before.push(e);
            else if (s === 2) after.push(e);
        }
        return { before, after };
    };
    const lexer = split(previous.lexerErrors, e => e.offset);
    const parser = split(previous.parserErrors, e => inText(e.token) ? e.token.startOffset : length);
    if (!lexer || !parser) return undefined;
    return { lexerBefore: lexer.before, lexerAfter: lexer.after, parserBefore: parser.before, parserAfter: parser.after };
}

type Position = { line: number, character: number };

/** Moves a position after the piece by the change: its line by the lines added, its character too on the piece's last line. */
function mover(oldEndPos: Position, newEndPos: Position) {
    const lineDelta = newEndPos.line - oldEndPos.line;
    const charDelta = newEndPos.character - oldEndPos.character;
    const endLine = oldEndPos.line;
    return (pos: { line: number, character: number }) => {
        if (pos.line === endLine) pos.character += charDelta;
        pos.line += lineDelta;
    };
}

/** A line and column counted from 1 (the lexer's), moved as a position counted from 0. */
function moveOneBased(move: (pos: { line: number, character: number }) => void, line: number, column: number): [number, number] {
    const pos = { line: line - 1, character: column - 1 };
    move(pos);
    return [pos.line + 1, pos.character + 1];
}

type ILexingError = ParseResult['lexerErrors'][number];
type IRecognitionException = ParseResult['parserErrors'][number];
type IToken = IRecognitionException['token'];

/** What Langium 4.4.0's CST nodes hold (parser/cst-node-builder.ts), moved here in place; a node's root is found through its containers. */
interface NodeFields {
    container?: CstNode;
    _rangeCache?: unknown;
}
type AnyCst = CstNode & NodeFields & { content?: CstNode[] };
type RootCst = CstNode & NodeFields & { content: CstNode[], fullText: string, _text: string };

function isLeaf(node: AnyCst): boolean {
    return node.content === undefined;
}

function forEachNode(node: CstNode, visit: (node: AnyCst) => void): void {
    const n = node as AnyCst;
    visit(n);
    if (n.content) for (const child of n.content) forEachNode(child, visit);
}

/**
 * The position of `end` in `text`, counted from `start` at `at`, with line breaks as the lexer counts
 * them (\n, \r\n and a lone \r).
 */
function positionAfter(text: string, start: number, end: number, at: { line: number, character: number }): { line: number, character: number } {
    let line = at.line, lineStart = start - at.character;
    for (let i = start; i < end; i++) {
        const c = text.charCodeAt(i);
        if (c === 10 || (c === 13 && text.charCodeAt(i + 1) !== 10)) {
            line++;
            lineStart = i + 1;
        }
    }
    return { line, character: end - lineStart };
}

/**
 * The nodes of a piece's parse moved to the file's tree and coordinates, to be put under `container`
 * (the root, or a turn's node): the piece began at `offset`, at `at`. The piece is small: its leaves
 * are moved one by one.
 */
function placeInFile(taken: readonly CstNode[], container: CstNode, offset: number, at: Position): void {
    for (const child of taken) {
        rebase(child, container);
        forEachNode(child, node => {
            if (isLeaf(node)) {
                // A position on the piece's first line is on the line where the piece starts, after `at.character`.
                if (at.character !== 0) moveCharacters(node, 0, at.character);
                shiftLeaf(node, offset, at.line);
            } else node._rangeCache = undefined;
        });
    }
}

function adopt(node: Element | Scenario['options'][number], root: Scenario | Turn, property: string, index: number): void {
    const n = node as { $container?: unknown, $containerProperty?: string, $containerIndex?: number };
    n.$container = root;
    n.$containerProperty = property;
    n.$containerIndex = index;
}

function adoptAll(nodes: ReadonlyArray<Element | Scenario['options'][number]>, root: Scenario | Turn, property: string): void {
    for (let index = 0; index < nodes.length; index++) adopt(nodes[index], root, property, index);
}

const offsetOf = (e: Element) => e.$cstNode?.offset ?? Number.NaN;
const endOf = (e: Element) => e.$cstNode?.end ?? Number.NaN;

/** The first child of the root whose text starts at or after `offset` (children are in text order). */
function firstChildAt(content: CstNode[], offset: number): number {
    let lo = 0, hi = content.length;
    while (lo < hi) {
        const mid = (lo + hi) >> 1;
        if (content[mid].offset < offset) lo = mid + 1;
        else hi = mid;
    }
    return lo;
}

/** Elements are in text order: binary searches. */
function lastIndexWhere(elements: readonly Element[], before: (e: Element) => boolean): number {
    let lo = 0, hi = elements.length;
    while (lo < hi) {
        const mid = (lo + hi) >> 1;
        if (before(elements[mid])) lo = mid + 1;
        else hi = mid;
    }
    return lo - 1;
}

function firstIndexWhere(elements: readonly Element[], after: (e: Element) => boolean): number {
    let lo = 0, hi = elements.length;
    while (lo < hi) {
        const mid = (lo + hi) >> 1;
        if (after(elements[mid])) hi = mid;
        else lo = mid + 1;
    }
    return lo < elements.length ? lo : -1;
}

function isSpace(c: number): boolean {
    return c === 32 || c === 9 || c === 10 || c === 13 || c === 12 || c === 11;
}

