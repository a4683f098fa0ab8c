/** The examples/ folder and the grammar's keywords, put into the page by scripts/playground.mjs. */
declare module 'umpire:examples' {
    export const examples: Array<{ name: string, text: string }>;
    export const keywords: string[];
}
