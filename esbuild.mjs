// Bundles the three entry points: the language server, the VS Code client and the CLI.
// Langium is ESM-only; VS Code loads extensions as CommonJS, so every bundle is emitted as .cjs.
import * as esbuild from 'esbuild';

const watch = process.argv.includes('--watch');

const options = {
    entryPoints: {
        'language/main': 'src/language/main.ts',
        'extension/main': 'src/extension/main.ts',
        'cli/main': 'src/cli/main.ts'
    },
    outdir: 'out',
    bundle: true,
    format: 'cjs',
    platform: 'node',
    target: 'node20',
    outExtension: { '.js': '.cjs' },
    external: ['vscode'],
    mainFields: ['module', 'main'],
    sourcemap: true,
    minify: !watch,
    logLevel: 'info'
};

if (watch) {
    const ctx = await esbuild.context(options);
    await ctx.watch();
} else {
    await esbuild.build(options);
}
