/**
 * The `umpire` command line: a second client of the same core as the editor.
 * Each command lives in its own file; this one only wires them to commander.
 *
 * The commands are imported when they run, not at start-up: `umpire --help`, `--version` and a
 * mistyped option answer without evaluating Langium and the rule sets (the bundle stays one file;
 * esbuild turns each `import()` into a lazy initialiser inside it).
 */
// Chevrotain 13 (Langium 4.4's) calls `Object.groupBy`, which Node 20 lacks: core-js's, before anything else loads.
import 'core-js/actual/object/group-by.js';
import { Command, InvalidArgumentError } from 'commander';
import type { ResolveCliOptions } from './resolve-command.js';
import type { StatusCliOptions } from './status-command.js';
import type { ReportCliOptions } from './report.js';
import type { OddsCliOptions } from './odds-command.js';
import { MAX_SEED } from '../core/dice.js';
import { CommandError } from '../core/command-error.js';
import { RULESET_COMMANDS } from '../rulesets/ruleset-commands.js';

/** package.json's version, defined by esbuild.mjs at build time. */
declare const UMPIRE_VERSION: string | undefined;

const out = (line: string) => process.stdout.write(line + '\n');

// `umpire check … | head` closes the pipe early: that is the reader's choice, not an error.
process.stdout.on('error', (err: NodeJS.ErrnoException) => {
    if (err.code === 'EPIPE') process.exit(process.exitCode ?? 0);
    throw err;
});

function parseSamples(value: string): number {
    const n = Number(value);
    if (!/^[0-9]+$/.test(value) || n < 2 || n > 10_000_000) throw new InvalidArgumentError('the number of campaigns sampled is a whole number from 2 to 10000000');
    return n;
}

function parseMethod(value: string): 'auto' | 'exact' | 'monte-carlo' {
    if (value !== 'auto' && value !== 'exact' && value !== 'monte-carlo') throw new InvalidArgumentError('write auto, exact or monte-carlo');
    return value;
}

function parseSeed(value: string): number {
    const n = Number(value);
    if (!/^[0-9]+$/.test(value) || n > MAX_SEED) throw new InvalidArgumentError(`a seed is a whole number from 0 to ${MAX_SEED}`);
    return n;
}

/** Runs a command and turns its result, or a CliError, into the exit code. */
async function run(action: () => Promise<number>): Promise<void> {
    try {
        process.exitCode = await action();
    } catch (err) {
        // Every command has loaded ./load.js by the time it throws, so this import costs nothing.
        const { CliError } = await import('./load.js');
        if (err instanceof CliError || err instanceof CommandError) {
            process.stderr.write(`umpire: ${err.message}\n`);
            process.exitCode = err.exitCode;
        } else {
            process.stderr.write(`umpire: internal error: ${err instanceof Error ? err.stack : String(err)}\n`);
            process.exitCode = 70;
        }
    }
}

/** "Examples:" under a command's help: what each does, then the command as typed (under 80 columns). */
function examples(...lines: [command: string, what: string][]): string {
    return `\nExamples:\n${lines.map(([command, what]) => `  # ${what}\n  $ ${command}`).join('\n')}\n`;
}

export const program = new Command()
    .name('umpire')
    .description('Check .battle scenarios, resolve their engagements, and compute exact odds.')
    // The version of package.json, put in by the build (esbuild.mjs); from the sources, `dev`.
    .version(typeof UMPIRE_VERSION === 'string' ? UMPIRE_VERSION : 'dev')
    .showSuggestionAfterError()
    .addHelpText('after', examples(
        ['umpire check examples/*.battle', 'every problem, as file:line:col severity code message'],
        ['umpire resolve examples/scrud-seed.battle', 'the SCRUD rules\' worked example, pair by pair'],
        ['umpire resolve campaign.battle --write', 'write every missing outcome into the file'],
        ['umpire odds examples/scrud-ridge.battle', 'exact chances of every result'],
        ['umpire status examples/campaign.battle --markdown', 'the campaign state, for a blog'],
        ['umpire report examples/campaign.battle --out report.html', 'a battle report to publish (HTML or Markdown)'],
        ['umpire verify examples/sealed.battle', 'a sealed campaign\'s dice, checked by a player'],
        ['umpire help resolve', 'one command\'s options and examples']
    ) + '\nDocumentation: README.md and docs/ (diagnostics, json, odds, campaigns, rules).\n');

program.command('check')
    .description('check scenario files; prints file:line:col severity code message, exits 1 on any error')
    .argument('<files...>', '.battle files')
    .addHelpText('after', examples(
        ['umpire check examples/broken-scrud.battle', 'one line per problem; exit 1 on any error'],
        ['umpire check examples/*.battle', 'several files at once']
    ))
    .action((files: string[]) => run(async () => (await import('./check-command.js')).checkCommand(files, out)));

program.command('resolve')
    .description('resolve engagements with the entered dice or a seed, and print their outcomes')
    .argument('<file>', '.battle file')
    .option('-e, --engagement <name>', 'only this engagement')
    .option('-s, --seed <n>', 'throw the dice from this seed instead of the engagement\'s own', parseSeed)
    .option('--json', 'print the outcomes as JSON (docs/json.md)')
    .option('-w, --write', 'write every missing or stale outcome into the file, in order (atomically; docs/campaigns.md)')
    .option('--secret-file <file>', 'with --write on a sealed campaign: the file holding the seal\'s secret, which every new seed is drawn from (docs/campaigns.md#sealed-dice)')
    .addHelpText('after', examples(
        ['umpire resolve examples/scrud-seed.battle', 'every engagement, pair by pair, and its result'],
        ['umpire resolve examples/cowpens.battle -e Bayonets', 'only the engagement (or action) named Bayonets'],
        ['umpire resolve examples/scrud-ridge.battle --seed 7', 'throw the dice from seed 7 instead'],
        ['umpire resolve examples/campaign.battle --json', 'the outcomes as JSON (docs/json.md)'],
        ['umpire resolve my-campaign.battle --write', 'write every missing or stale outcome into the file'],
        ['umpire resolve my-campaign.battle --write --secret-file my-campaign.secret', 'a sealed campaign: its new seeds drawn from the secret']
    ))
    .action((file: string, options: ResolveCliOptions) => run(async () => options.write
        ? (await import('./resolve-write.js')).resolveWriteCommand(file, options, out)
        : (await import('./resolve-command.js')).resolveCommand(file, options, out)));

program.command('odds')
    .description('exact chances of every result, per unit and per side (docs/odds.md)')
    .argument('<file>', '.battle file')
    .option('-e, --engagement <name>', 'only this engagement')
    .option('--json', 'print the odds as JSON (docs/json.md, "Odds")')
    .option('--what-if <change>', 'the odds with a changed set-up, beside those as written, and the difference (repeatable; docs/reports.md): '
        + '"without FACTOR", "with FACTOR on TARGET", "grade FORCE.UNIT GRADE", "option NAME [VALUE]", "without option NAME", "with fact FACT on UNIT", "without fact FACT on UNIT"; with --campaign, over the whole campaign', (value: string, previous: string[]) => [...previous, value], [] as string[])
    .option('--campaign', 'the odds of the whole campaign: each action over every way the actions before it can fall, and each unit\'s chances at the end (docs/odds.md#campaign-odds)')
    .option('--through <turn>', 'with --campaign: the chances at the end of this turn (its number, name or title)')
    .option('--from-record', 'with --campaign: keep the written outcomes and the dice in the file; only actions not decided yet are open')
    .option('--method <how>', 'with --campaign: auto (exact while small, else Monte Carlo), exact or monte-carlo', parseMethod)
    .option('--samples <n>', 'with --campaign: campaigns sampled when it is not exact (2000)', parseSamples)
    .option('--seed <n>', 'with --campaign: the seed of the sampling (1): the same seed gives the same figures', parseSeed)
    .option('--house <file>', 'with --campaign: the campaign again with the house rules of another file in place of this one\'s, and the difference (docs/odds.md#campaign-what-if)')
    .addHelpText('after', examples(
        ['umpire odds examples/scrud-ridge.battle', 'every engagement\'s odds'],
        ['umpire odds examples/scrud-ridge.battle -e Ridge --what-if "without Uphill"', 'what if the French were not uphill?'],
        ['umpire odds examples/ancients-flank.battle -e Ford', 'only the engagement named Ford'],
        ['umpire odds examples/scrud-seed.battle --json', 'as JSON (docs/json.md)'],
        ['umpire odds examples/campaign.battle --campaign --through 2', 'each unit\'s chances after turn 2, over every way the fights can fall'],
        ['umpire odds examples/campaign.battle --campaign --through 2 -e Ford --what-if "without fact charged on Gauls.Warriors"', 'to the end of turn 2, if the Warriors had not charged at the ford'],
        ['umpire odds examples/house-rules-ancients.battle --campaign --house examples/campaign.battle', 'the campaign under another file\'s house rules: what the club\'s rule costs']
    ))
    .action((file: string, options: OddsCliOptions) => run(async () => options.campaign
        ? (await import('./campaign-odds-command.js')).campaignOddsCommand(file, options, out)
        : (await import('./odds-command.js')).oddsCommand(file, options, out)));

// Commands the rule sets add (`umpire table`): registered from their own folders.
for (const command of RULESET_COMMANDS) {
    const cli = program.command(command.name).description(command.description);
    for (const option of command.options) cli.option(option.flags, option.description);
    cli.addHelpText('after', examples(...command.examples.map(([typed, what]) => [typed, what] as [string, string])))
        .action((options: Record<string, unknown>) => run(async () => command.run(options, out)));
}

program.command('report')
    .description('a battle report ready to publish: forces, set-ups, dice, results, exact odds, luck and the state after (docs/reports.md)')
    .argument('<file>', '.battle file')
    .option('-t, --turn <turn>', 'only this turn (its number or name), and the state after it')
    .option('-e, --engagement <name>', 'only this engagement')
    .option('-f, --format <format>', 'md or html (default: html when --out ends in .html, else md)')
    .option('-o, --out <file>', 'write to this file (Markdown: its charts as SVG files beside it)')
    .option('--luck', 'only how each side\'s dice ran against the exact odds')
    .addHelpText('after', examples(
        ['umpire report examples/campaign.battle --format html --out r.html', 'one self-contained page'],
        ['umpire report examples/campaign.battle --out r.md', 'Markdown, with r-*.svg charts beside it'],
        ['umpire report examples/campaign.battle --turn 2', 'only turn 2 and the state after it'],
        ['umpire report examples/scrud-ridge.battle --luck', 'how each side\'s dice ran']
    ))
    .action((file: string, options: ReportCliOptions) => run(async () => (await import('./report.js')).reportCommand(file, options, out)));

program.command('status')
    .description('print every unit\'s campaign state (routed, DPs, damage tokens, …) as a table; --markdown for a blog')
    .argument('<file>', '.battle file')
    .option('--at <turn>', 'the state at the end of this turn (its number or name) instead of the end of the file')
    .option('--markdown', 'print a markdown table, ready to paste')
    .addHelpText('after', examples(
        ['umpire status examples/campaign.battle', 'every unit\'s state at the end of the file'],
        ['umpire status examples/campaign.battle --at 1', 'as it stood after turn 1'],
        ['umpire status examples/campaign.battle --markdown', 'a Markdown table, ready to paste']
    ))
    .action((file: string, options: StatusCliOptions) => run(async () => (await import('./status-command.js')).statusCommand(file, options, out)));

program.command('seal')
    .description('print the seal "sha256:…" line that seals a campaign to a secret kept outside it (docs/campaigns.md#sealed-dice)')
    .requiredOption('--secret-file <file>', 'the file holding the secret (made, with a new random secret, when it does not exist)')
    .addHelpText('after', examples(
        ['umpire seal --secret-file my-campaign.secret', 'a new secret in my-campaign.secret, and the line to put in the file'],
        ['umpire seal --secret-file examples/sealed.secret', 'the seal of the sealed example\'s secret']
    ))
    .action((options: { secretFile?: string }) => run(async () => (await import('./seal-command.js')).sealCommand(options, out)));

program.command('verify')
    .description('check a sealed campaign: every seed recomputed from the secret, every outcome replayed; exit 1 on any altered one')
    .argument('<file>', '.battle file')
    .option('--secret-file <file>', 'the secret, when the file does not publish it with reveal "…"')
    .addHelpText('after', examples(
        ['umpire verify examples/sealed.battle', 'each action verified, altered or not sealed, from its published secret'],
        ['umpire verify my-campaign.battle --secret-file my-campaign.secret', 'with the secret the umpire gave you']
    ))
    .action((file: string, options: { secretFile?: string }) => run(async () => (await import('./seal-command.js')).verifyCommand(file, options, out)));

program.command('lsp')
    .description('the language server for any LSP editor (Neovim, Helix, Emacs eglot, …: docs/editors.md), spoken over stdio')
    .option('--stdio', 'talk to the editor over stdin and stdout (what editors use)')
    .allowUnknownOption()
    .addHelpText('after', examples(
        ['umpire lsp --stdio', 'what an editor\'s LSP client starts (docs/editors.md)']
    ))
    .action((options: { stdio?: boolean }) => run(async () => (await import('./lsp-command.js')).lspCommand(options)));

// `umpire` alone is a request for help, not a mistake: print it to stdout and exit 0.
if (process.argv.length <= 2) program.outputHelp();
else void program.parseAsync(process.argv);
