/**
 * The commands rule sets add to the CLI. Kept apart from the registry (registry.ts) because the CLI
 * lists them at start-up, before it loads Langium: each command file imports only its pure engine.
 */
import type { RulesetCommand } from '../core/ruleset.js';
import { ancientsTableCommand } from './ancients/ancients-table-command.js';

export const RULESET_COMMANDS: readonly RulesetCommand[] = [ancientsTableCommand];
