/**
 * The Langium release Umpire's parser classes were written against (battle-cst.ts, battle-cst-builder.ts,
 * battle-lexer.ts, battle-parser.ts, parse-recovery-costs.ts, parser-recording.ts). They subclass Langium's and Chevrotain's
 * classes and read some of their private fields, which change between releases without a type error
 * (Langium's work on the memory of the parse tree turned fields into getters and changed the leaf's
 * constructor). So the language services refuse to start on any other release: whoever moves the
 * dependency checks each of those files against the new release's code (each names what it relies on),
 * runs test/language/parser-fixes.test.ts, and then moves this line.
 */
export const LANGIUM_RELEASE = '4.4.0';

/** The release found by the build (esbuild.mjs and vitest.config.ts read node_modules/langium/package.json). */
declare const __LANGIUM_VERSION__: string | undefined;

function builtWith(): string | undefined {
    return typeof __LANGIUM_VERSION__ === 'string' ? __LANGIUM_VERSION__ : undefined;
}

/** Why the services must not start with the Langium release `found`, or undefined when it is `LANGIUM_RELEASE`. */
export function releaseProblem(found: string | undefined): string | undefined {
    if (found === LANGIUM_RELEASE) return undefined;
    return `Umpire's parser was written for Langium ${LANGIUM_RELEASE}, but was built with ${found === undefined ? 'an unknown release' : `Langium ${found}`}: `
        + 'check src/language/battle-parser.ts and the files it names against that release before moving LANGIUM_RELEASE.';
}

/** Throws at start-up when the Langium the code was built with is not `LANGIUM_RELEASE` (or the build did not say which it was). */
export function checkLangiumRelease(): void {
    const problem = releaseProblem(builtWith());
    if (problem !== undefined) throw new Error(problem);
}
