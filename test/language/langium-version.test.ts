/**
 * The start-up check of the Langium release (src/language/langium-version.ts): Umpire's parser classes read
 * private fields of the release they were written for, so the services refuse any other.
 */
import * as fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { EmptyFileSystem } from 'langium';
import { VERSION as CHEVROTAIN } from 'chevrotain';
import { checkLangiumRelease, LANGIUM_RELEASE, releaseProblem } from '../../src/language/langium-version.js';
import { createBattleServices } from '../../src/language/battle-module.js';

const installed = (JSON.parse(fs.readFileSync(new URL('../../node_modules/langium/package.json', import.meta.url), 'utf8')) as { version: string }).version;
const declared = (JSON.parse(fs.readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { devDependencies: Record<string, string> }).devDependencies;

describe('the Langium release', () => {
    it('installed, declared and built with is the one the parser was written for', () => {
        expect(installed).toBe(LANGIUM_RELEASE);
        expect(declared.langium).toBe(LANGIUM_RELEASE);
        // Every dependency is bundled, so all are devDependencies. Langium brings its own Chevrotain, which Umpire's parser imports: no other beside it (a patch or subclass of one copy would miss the other).
        expect(declared.chevrotain).toBeUndefined();
        const wanted = (JSON.parse(fs.readFileSync(new URL('../../node_modules/langium/package.json', import.meta.url), 'utf8')) as { dependencies: Record<string, string> }).dependencies.chevrotain;
        expect(wanted).toBe(`~${CHEVROTAIN.split('.').slice(0, 2).join('.')}.0`);
        expect(fs.existsSync(new URL('../../node_modules/langium/node_modules/chevrotain', import.meta.url))).toBe(false);
        expect(() => checkLangiumRelease()).not.toThrow();
        expect(() => createBattleServices(EmptyFileSystem)).not.toThrow();
    });

    it('stops the services on any other release, or when the build did not say which', () => {
        expect(releaseProblem(LANGIUM_RELEASE)).toBeUndefined();
        for (const other of ['4.4.1', '4.5.0', '4.2.1', '5.0.0']) {
            expect(releaseProblem(other)).toContain(`written for Langium ${LANGIUM_RELEASE}, but was built with Langium ${other}`);
        }
        expect(releaseProblem(undefined)).toContain('an unknown release');
    });
});
