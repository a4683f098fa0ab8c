import { defineConfig } from 'vitest/config';

export default defineConfig({
    test: {
        include: ['test/**/*.test.ts'],
        exclude: ['test/e2e/**', 'test/vscode/**', 'node_modules/**'],
        testTimeout: 60000,
        pool: 'forks'
    }
});
