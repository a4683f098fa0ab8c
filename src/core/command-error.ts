/**
 * A mistake in what a command was asked (a bad option value): the CLI prints the message and exits
 * with the code, without a stack trace. Thrown by commands that rule sets contribute.
 */
export class CommandError extends Error {
    constructor(message: string, readonly exitCode = 2) {
        super(message);
    }
}
