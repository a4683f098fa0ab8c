/**
 * What a person sees of a table, measured in the page: every row of every table shown must lie within
 * the page (no sideways scroll), every label in it (a cell, a name, a bar and its segments, a figure)
 * within its row, and no label's text may be cut, with or without an ellipsis: a label wider than its
 * box is a label a person cannot read. Nor may a word be broken across lines when its row has room for
 * it (a box squeezed to a few letters a line); a name longer than its whole row may break, and any word
 * at a hyphen. Hidden rows and labels are skipped. The page's head (its tabs, buttons and colour key) must
 * lie within the page too. A page in a frame is measured against the part of the frame the window shows
 * (`shownWidth`): a workbench narrower than its parts' least widths lays an editor group out past the
 * window's edge, and the page inside then measures itself wider than a person sees it. Shared by the real-editor
 * tests of the Odds view, its what-ifs and the campaign state, and the report's test in Chromium.
 */
import type { Locator, Page } from 'playwright-core';

export interface LabelBoxOptions {
    /** Also require every row of each table to be as tall as the others (the campaign state). */
    evenRows?: boolean;
    /** A table wider than the page may scroll inside its own box (the report's wide odds tables). */
    scrollingTables?: boolean;
    /** How much of the page's width the window shows (`shownWidth`); the page's own width without it. */
    shownWidth?: number;
}

/** How many pixels of `frame`'s width the window shows: less than its width where it runs past the window's right edge. */
export async function shownWidth(page: Page, frame: Locator): Promise<number> {
    const box = await frame.boundingBox();
    const window = page.viewportSize();
    if (!box || !window) throw new Error('the frame or the window has no size');
    return Math.max(0, Math.min(box.x + box.width, window.width) - Math.max(box.x, 0));
}

/** The problems found in the page `body` belongs to; empty when every label is whole and in place. */
export async function labelsOutOfPlace(body: Locator, options: LabelBoxOptions = {}): Promise<string[]> {
    return body.evaluate((el, opts) => {
        const doc = el.ownerDocument;
        const view = doc.defaultView!;
        const width = Math.min(doc.documentElement.clientWidth, opts.shownWidth ?? Infinity);
        const problems: string[] = [];
        const name = (e: typeof el) => `${e.getAttribute('class') || e.tagName.toLowerCase()} "${(e.textContent ?? '').trim().slice(0, 40)}"`;
        if (doc.documentElement.scrollWidth > doc.documentElement.clientWidth + 1) problems.push(`the page scrolls sideways: ${doc.documentElement.scrollWidth} > ${doc.documentElement.clientWidth}`);
        const page = doc.body.getBoundingClientRect();
        if (page.right > width + 0.5) problems.push(`the page is ${Math.round(page.right)} px wide, but the window shows ${Math.round(width)} px of it`);
        for (const part of doc.querySelectorAll('.page-head *, h2, h3')) {
            const b = part.getBoundingClientRect();
            const display = view.getComputedStyle(part).display;
            if (b.width === 0 || display === 'inline' || display === 'none') continue;
            if (b.right > width + 0.5) problems.push(`${name(part)} reaches past the right edge of what shows (${Math.round(b.right)} > ${Math.round(width)})`);
        }
        let rows = 0;
        for (const table of doc.querySelectorAll('table')) {
            const box = table.getBoundingClientRect();
            if (box.width === 0) continue;
            // A table that scrolls in a box of its own is measured against that box.
            const scroller = opts.scrollingTables ? table.closest('.table-scroll') : null;
            const limit = scroller ? scroller.getBoundingClientRect() : { left: 0, right: width };
            const heights: number[] = [];
            for (const row of table.querySelectorAll('tbody tr')) {
                const r = row.getBoundingClientRect();
                if (r.width === 0) continue;
                rows++;
                heights.push(Math.round(r.height));
                if (!scroller && (r.left < limit.left - 0.5 || r.right > limit.right + 0.5)) problems.push(`row ${name(row)} spans ${r.left}–${r.right}, the page ${limit.left}–${limit.right}`);
                for (const label of row.querySelectorAll('*')) {
                    const b = label.getBoundingClientRect();
                    const style = view.getComputedStyle(label);
                    if (b.width === 0 || style.display === 'inline' || style.display === 'none') continue;
                    if (b.left < r.left - 0.5 || b.right > r.right + 0.5) problems.push(`${name(label)} spans ${b.left}–${b.right}, its row ${r.left}–${r.right}`);
                    if (label.scrollWidth > label.clientWidth + 1 && (label.textContent ?? '').trim().length > 0) {
                        problems.push(style.overflowX === 'visible' ? `${name(label)} overflows its box (${label.scrollWidth} > ${label.clientWidth})`
                            : `${name(label)} is cut (${label.scrollWidth} > ${label.clientWidth})`);
                    }
                }
            }
            for (const row of table.querySelectorAll('tbody tr')) {
                const room = row.getBoundingClientRect().width;
                if (room === 0) continue;
                const texts = doc.createTreeWalker(row, 4 /* NodeFilter.SHOW_TEXT */);
                for (let node = texts.nextNode(); node; node = texts.nextNode()) {
                    for (const word of (node.textContent ?? '').matchAll(/[^\s\-‐–—]+/g)) {
                        const range = doc.createRange();
                        range.setStart(node, word.index);
                        range.setEnd(node, word.index + word[0].length);
                        const rects = [...range.getClientRects()].filter(r => r.width > 0);
                        const lines = new Set(rects.map(r => Math.round(r.top))).size;
                        const width = rects.reduce((sum, r) => sum + r.width, 0);
                        if (lines > 1 && width < room - 16) problems.push(`the word "${word[0]}" is broken over ${lines} lines in ${name(node.parentElement!)}, though its row has room for it (${Math.round(width)} of ${Math.round(room)} px)`);
                    }
                }
            }
            if (opts.evenRows && heights.length > 1 && Math.max(...heights) - Math.min(...heights) > 1) problems.push(`the rows of a table are uneven: ${[...new Set(heights)].join(', ')} px tall`);
        }
        if (rows === 0) problems.push('no table rows shown');
        return problems;
    }, options);
}
