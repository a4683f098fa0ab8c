/**
 * The `umpire` command line: a second client of the same core as the editor.
 * Each command lives in its own file; this one only wires them to commander.
 */
import { Command, InvalidArgumentError } from 'commander';
import { checkCommand } from './check.js';
import { CliError } from './load.js';
import { resolveCommand } from './resolve.js';
import { MAX_SEED } from '../rules/dice.js';

const out = (line: string) => process.stdout.write(line + '\n');

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
    .action((file: string, options: { engagement?: string, seed?: number, json?: boolean }) => run(() => resolveCommand(file, options, out)));

void program.parseAsync(process.argv);
