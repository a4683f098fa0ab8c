import { readFileSync } from 'node:fs';
import { defineConfig } from 'vitest/config';

/** The Langium release installed, which src/language/langium-version.ts checks (esbuild.mjs defines it for the bundles). */
const langium = JSON.parse(readFileSync(new URL('./node_modules/langium/package.json', import.meta.url), 'utf8')) as { version: string };

export default defineConfig({
    define: { __LANGIUM_VERSION__: JSON.stringify(langium.version) },
    test: {
        // Node 20 has no `Object.groupBy` (Chevrotain 13 calls it): the polyfill the bundles load at their entries.
        setupFiles: ['core-js/actual/object/group-by.js'],
        include: ['test/**/*.test.ts'],
        exclude: ['test/e2e/**', 'test/vscode/**', 'node_modules/**'],
        globalSetup: ['test/bundle-setup.ts'],
        testTimeout: 60000,
        pool: 'forks',
        // Both cores of the machine the suite is written for (the default leaves one idle), and one module
        // registry per worker: every test builds its own services and registries, so nothing a file sets up
        // is seen by the next, and loading Langium once per worker instead of once per file saves about a
        // quarter of the run.
        maxWorkers: 2,
        isolate: false
    }
});
