/**
 * The browser bundles' guard (esbuild.mjs, `noNodeGlobals`): a Node-only global in code a web worker
 * runs fails the build, at its line, instead of failing the umpire's outline, hints and colours at
 * run time ("setImmediate is not defined"). Each case is a small module bundled as the worker is.
 */
import * as path from 'node:path';
import * as esbuild from 'esbuild';
import { describe, expect, it } from 'vitest';
// @ts-expect-error a plain ES module script, without types
import { noNodeGlobals } from '../esbuild.mjs';

const fixtures = path.join('test', 'fixtures', 'browser-globals');

/** The guard's errors for a bundle of `entry`, as `file:line name` (empty when the bundle is allowed). */
async function guardErrors(entry: string): Promise<string[]> {
    try {
        await esbuild.build({
            entryPoints: [path.join(fixtures, entry)], bundle: true, write: false, format: 'iife', platform: 'browser',
            target: 'es2022', logLevel: 'silent', plugins: [noNodeGlobals]
        });
        return [];
    } catch (err) {
        return (err as esbuild.BuildFailure).errors.map(e => `${path.basename(e.location?.file ?? '?')}:${e.location?.line} ${/'(\w+)'/.exec(e.text)?.[1]}`);
    }
}

describe('a browser bundle that uses a Node-only global fails to build', () => {
    it('setImmediate used without a test fails, at its line', async () => {
        expect(await guardErrors('waits-a-tick.ts')).toEqual(['waits-a-tick.ts:2 setImmediate']);
    });

    it('process read without a test fails', async () => {
        expect(await guardErrors('reads-the-environment.ts')).toEqual(['reads-the-environment.ts:2 process']);
    });

    it('a module that tests for the global first is allowed', async () => {
        expect(await guardErrors('tests-for-set-immediate.ts')).toEqual([]);
    });

    it('a local binding with a global\'s name is allowed', async () => {
        expect(await guardErrors('uses-buffer.ts')).toEqual([]);
    });

    it('in CommonJS, module, exports and require(\'literal\') pass, require(name) and __dirname fail', async () => {
        expect(await guardErrors('loads-by-name.cjs')).toEqual(['loads-by-name.cjs:3 require', 'loads-by-name.cjs:3 __dirname']);
    });

    it('the language server\'s worker bundle passes (every module it keeps)', async () => {
        const result = await esbuild.build({
            entryPoints: ['src/language/main-browser.ts'], bundle: true, write: false, format: 'iife', platform: 'browser',
            target: 'es2022', logLevel: 'silent', plugins: [noNodeGlobals], external: ['./charts.js']
        });
        expect(result.errors).toEqual([]);
        expect(Object.keys(result.metafile!.inputs).length).toBeGreaterThan(100);
    }, 60_000);
});
