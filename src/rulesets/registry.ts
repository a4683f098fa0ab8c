/**
 * The rule sets Umpire knows. Adding one is a folder under src/rulesets/ and a line here
 * (ARCHITECTURE.md, "How to add a rule set"). The first is the rule set of a file without a
 * `rules` line.
 */
import { RulesetRegistry, type Ruleset } from '../core/ruleset.js';
import { scrudRuleset } from './scrud/scrud-ruleset.js';
import { ancientsRuleset } from './ancients/ancients-ruleset.js';
import { looseFilesRuleset } from './loose-files/loose-files-ruleset.js';

const BUILT_IN_RULESETS: readonly Ruleset[] = [scrudRuleset, ancientsRuleset, looseFilesRuleset];

/** A new registry of the built-in rule sets (a test may add its own to it). */
export function builtInRulesets(): RulesetRegistry {
    return new RulesetRegistry(BUILT_IN_RULESETS);
}
