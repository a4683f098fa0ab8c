import { defineConfig } from 'vitest/config';

// The real-editor test only (npm run test:e2e through scripts/e2e/e2e-run.mjs): one file, in order,
// with time for code-server and Chromium to start on a busy two-core machine.
export default defineConfig({
    test: {
        root: '.',
        include: ['test/e2e/**/*.e2e.test.ts'],
        testTimeout: 120000,
        hookTimeout: 300000,
        pool: 'forks',
        fileParallelism: false,
        sequence: { concurrent: false }
    }
});
