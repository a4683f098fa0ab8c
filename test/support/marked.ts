/** Diagnostics tests mark the expected range in the text itself: `… «Name» …`. */

export interface Range { start: { line: number, character: number }, end: { line: number, character: number } }

/** The text without its « » markers, and the range they enclosed. */
export function marked(text: string): { text: string, range: Range } {
    const at = (offset: number, src: string) => {
        const before = src.slice(0, offset).split('\n');
        return { line: before.length - 1, character: before[before.length - 1].length };
    };
    const open = text.indexOf('«');
    const close = text.indexOf('»') - 1;
    const clean = text.replace('«', '').replace('»', '');
    return { text: clean, range: { start: at(open, clean), end: at(close, clean) } };
}
