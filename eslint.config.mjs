import js from '@eslint/js';
import tseslint from 'typescript-eslint';

export default tseslint.config(
    { ignores: ['out/**', 'src/language/generated/**', 'node_modules/**', '.cache/**', 'test-output/**', 'test/fixtures/browser-globals/**'] },
    js.configs.recommended,
    ...tseslint.configs.recommended,
    {
        rules: {
            '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
            'no-restricted-syntax': ['error', {
                selector: "MemberExpression[object.name='Math'][property.name='random']",
                message: 'Dice come from the seeded generator in src/core/dice.ts.'
            }]
        }
    },
    {
        // The rules and odds engines are pure: nothing from Langium, LSP or VS Code.
        files: ['src/rulesets/*/engine/**/*.ts', 'src/core/dice.ts', 'src/core/distributions.ts', 'src/core/limits.ts'],
        rules: {
            'no-restricted-imports': ['error', { patterns: ['langium', 'langium/*', 'vscode', 'vscode-*', '**/language/**', '**/cli/**', '**/extension/**', '**/scenario.js', '**/model-cache.js'] }]
        }
    }
);
