/**
 * The layers of ARCHITECTURE.md, held by dependency-cruiser (`npm run check:layers`, part of
 * `npm test`). Each rule names what a folder must not import; the paths are regular expressions on
 * paths relative to the project, so nested folders are caught (src/rulesets/x/engine/…).
 */
/* eslint-env node */
const PURE = '^src/(core/(bands|dice|dice-source|dice-plan|distributions|limits|signed|spelling|command-error)\.ts$|rulesets/[^/]+/engine/)';
const NODE_BUILTINS = ['core'];

module.exports = {
    forbidden: [
        {
            name: 'no-circular',
            severity: 'error',
            comment: 'Import loops hide the direction of the data and make load order matter. A loop made only of type imports (the Ruleset interface and the model it reads name each other) is erased at build time and allowed; the layer rules below still hold for type imports.',
            from: { path: '^src/' },
            to: { circular: true, viaOnly: { dependencyTypesNot: ['type-only'] } }
        },
        {
            name: 'pure-engines',
            severity: 'error',
            comment: 'The rules and odds engines and the pure core import nothing but each other and pure-rand: no Langium, LSP, VS Code, model or Node built-in.',
            from: { path: PURE },
            to: { pathNot: [PURE, '^node_modules/pure-rand/'] }
        },
        {
            name: 'pure-engines-no-builtins',
            severity: 'error',
            comment: 'The engines run in a browser worker too.',
            from: { path: PURE },
            to: { dependencyTypes: NODE_BUILTINS }
        },
        {
            name: 'engine-of-its-own-rule-set',
            severity: 'error',
            comment: 'A rule set\'s engine uses only its own engine and the pure core.',
            from: { path: '^src/rulesets/([^/]+)/engine/' },
            to: { path: '^src/rulesets/', pathNot: '^src/rulesets/$1/engine/' }
        },
        {
            name: 'core-names-no-rule-set',
            severity: 'error',
            comment: 'The core knows rule sets only through the Ruleset interface; it never imports one, nor the language server, the CLI or the client.',
            from: { path: '^src/core/' },
            to: { path: ['^src/rulesets/', '^src/language/(?!generated/)', '^src/cli/', '^src/extension/', '^node_modules/(vscode|vscode-languageserver|vscode-languageclient)/', '^node_modules/langium/lib/lsp/'] }
        },
        {
            name: 'report-names-no-rule-set',
            severity: 'error',
            comment: 'Battle reports (src/report/) are generic: they use the core and the protocol, never a rule set, the language server, the CLI or the client.',
            from: { path: '^src/report/' },
            to: { path: ['^src/rulesets/', '^src/language/(?!generated/)', '^src/cli/', '^src/extension/', '^node_modules/(vscode|vscode-languageserver|vscode-languageclient)/'] }
        },
        {
            name: 'rule-set-stays-in-its-folder',
            severity: 'error',
            comment: 'A rule set uses the core, the AST and its own files: not another rule set, the language server, the CLI or the client.',
            from: { path: '^src/rulesets/([^/]+)/' },
            to: { path: ['^src/rulesets/', '^src/language/(?!generated/)', '^src/cli/', '^src/extension/', '^node_modules/(vscode|vscode-languageserver|vscode-languageclient)/'], pathNot: '^src/rulesets/$1/' }
        },
        {
            name: 'rule-sets-only-through-the-registry',
            severity: 'error',
            comment: 'Outside src/rulesets/ only the registry is imported (by the language module, the composition root), and the list of commands rule sets add to the CLI.',
            from: { path: '^src/(language|cli|extension|core)/' },
            to: { path: '^src/rulesets/', pathNot: ['^src/rulesets/registry\\.ts$', '^src/rulesets/ruleset-commands\\.ts$'] }
        },
        {
            name: 'cli-commands-load-no-langium',
            severity: 'error',
            comment: 'The commands rule sets add to the CLI are listed before Langium loads: they use only their pure engine and the pure core.',
            from: { path: '^src/rulesets/([^/]+/[^/]+-command\\.ts|ruleset-commands\\.ts)$' },
            to: { path: '^src/', pathNot: [PURE, '^src/rulesets/[^/]+/[^/]+-command\\.ts$', '^src/core/ruleset\\.ts$'], dependencyTypesNot: ['type-only'] }
        },
        {
            name: 'registry-from-the-module-only',
            severity: 'error',
            comment: 'The built-in rule sets are wired in one place: the language module (its core part, which the editor\'s adds to).',
            from: { path: '^src/', pathNot: ['^src/language/battle-core-module\\.ts$', '^src/rulesets/'] },
            to: { path: '^src/rulesets/registry\\.ts$' }
        },
        {
            name: 'language-is-no-client',
            severity: 'error',
            comment: 'The language server never imports the CLI, the client or vscode.',
            from: { path: '^src/language/' },
            to: { path: ['^src/cli/', '^src/extension/', '^node_modules/vscode/', '^node_modules/vscode-languageclient/'] }
        },
        {
            name: 'cli-is-no-client',
            severity: 'error',
            comment: 'The CLI is a second client of the core; it never imports the VS Code client.',
            from: { path: '^src/cli/' },
            to: { path: ['^src/extension/', '^node_modules/vscode-languageclient/'] }
        },
        {
            name: 'thin-client',
            severity: 'error',
            comment: 'The VS Code client imports only the protocol, vscode and vscode-languageclient (ARCHITECTURE.md).',
            from: { path: '^src/extension/' },
            to: { path: '^src/', pathNot: ['^src/extension/', '^src/protocol\\.ts$'] }
        },
        {
            name: 'protocol-is-a-leaf',
            severity: 'error',
            comment: 'The contract between server and client depends on nothing.',
            from: { path: '^src/protocol\\.ts$' },
            to: { path: '^src/' }
        }
    ],
    options: {
        doNotFollow: { path: 'node_modules' },
        exclude: { path: '^src/language/generated/(grammar|module)\\.ts$' },
        tsConfig: { fileName: 'tsconfig.json' },
        tsPreCompilationDeps: true,
        enhancedResolveOptions: { exportsFields: ['exports'], conditionNames: ['import', 'require', 'node', 'default', 'types'], extensions: ['.ts', '.js', '.cjs', '.mjs', '.json'] },
        reporterOptions: { text: { highlightFocused: true } }
    }
};
