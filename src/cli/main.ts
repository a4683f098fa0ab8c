/**
 * The `umpire` command line: a second client of the same core as the editor.
 * Each command lives in its own file; this one only wires them to commander.
 */
import { Command, InvalidArgumentError } from 'commander';
import { checkCommand } from './check.js';
import { CliError } from './load.js';
import { resolveCommand, type ResolveCliOptions } from './resolve.js';
import { resolveWriteCommand } from './resolve-write.js';
import { statusCommand, type StatusCliOptions } from './status.js';
import { tableCommand } from './table.js';
import { oddsCommand } from './odds.js';
import { MAX_SEED } from '../core/dice.js';

const out = (line: string) => process.stdout.write(line + '\n');

// `umpire check … | head` closes the pipe early: that is the reader's choice, not an error.
process.stdout.on('error', (err: NodeJS.ErrnoException) => {
    if (err.code === 'EPIPE') process.exit(process.exitCode ?? 0);
    throw err;
});

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
        if (err instanceof CliError) {
            process.stderr.write(`umpire: ${err.message}\n`);
            process.exitCode = err.exitCode;
        } else {
            process.stderr.write(`umpire: internal error: ${err instanceof Error ? err.stack : String(err)}\n`);
            process.exitCode = 70;
        }
    }
}

export const program = new Command()
    .name('umpire')
    .description('Check .battle scenarios, resolve their engagements, and compute exact odds.')
    .version('0.1.0');

program.command('check')
    .description('check scenario files; prints file:line:col severity code message, exits 1 on any error')
    .argument('<files...>', '.battle files')
    .action((files: string[]) => run(() => checkCommand(files, out)));

program.command('resolve')
    .description('resolve engagements with the entered dice or a seed, and print their outcomes')
    .argument('<file>', '.battle file')
    .option('-e, --engagement <name>', 'only this engagement')
    .option('-s, --seed <n>', 'throw the dice from this seed instead of the engagement\'s own', parseSeed)
    .option('--json', 'print the outcomes as JSON (docs/json.md)')
    .option('-w, --write', 'write every missing or stale outcome into the file, in order (atomically; docs/campaigns.md)')
    .action((file: string, options: ResolveCliOptions) => run(() => (options.write ? resolveWriteCommand : resolveCommand)(file, options, out)));

program.command('odds')
    .description('exact chances of every result, per unit and per side (docs/odds.md)')
    .argument('<file>', '.battle file')
    .option('-e, --engagement <name>', 'only this engagement')
    .option('--json', 'print the odds as JSON (docs/json.md, "Odds")')
    .action((file: string, options: { engagement?: string, json?: boolean }) => run(() => oddsCommand(file, options, out)));

program.command('table')
    .description('the Ancients expected-hits table of seeds/004, exactly, for any pools of dice (docs/rules/ancients.md)')
    .option('-d, --dice <list>', 'pools to print: 10, 6..14 or 6,8,10 (default: the seed\'s 14,12,10,8,6)')
    .option('--json', 'print the table as JSON, with each value as an exact fraction (docs/json.md, "Ancients")')
    .action((options: { dice?: string, json?: boolean }) => run(() => tableCommand(options, out)));

program.command('status')
    .description('print every unit\'s campaign state (routed, DPs, damage tokens, …) as a table; --markdown for a blog')
    .argument('<file>', '.battle file')
    .option('--at <turn>', 'the state at the end of this turn (its number or name) instead of the end of the file')
    .option('--markdown', 'print a markdown table, ready to paste')
    .action((file: string, options: StatusCliOptions) => run(() => statusCommand(file, options, out)));

void program.parseAsync(process.argv);
