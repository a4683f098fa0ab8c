import { defineConfig } from 'vitest/config';

export default defineConfig({
    test: {
        include: ['test/**/*.test.ts'],
        exclude: ['test/e2e/**', 'test/vscode/**', 'node_modules/**'],
        globalSetup: ['test/bundle-setup.ts'],
        testTimeout: 60000,
        pool: 'forks'
    }
});
