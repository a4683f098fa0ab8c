/**
 * The parsers' lookahead decisions as Chevrotain's strategy works them out (known-lookahead.ts): what esbuild.mjs
 * writes into each bundle (scripts/lookahead-record.ts), and what the tests hold that record to.
 */
import { createDefaultCoreModule, createDefaultSharedCoreModule, EmptyFileSystem, inject } from 'langium';
import { battleCoreModule, battleSharedCoreModule, registerBattle, rulesetsOf, type BattleCoreServices } from './battle-core-module.js';
import { BattleGeneratedModule, BattleGeneratedSharedModule } from './generated/module.js';
import type { BuiltLookahead } from './known-lookahead.js';
import { lookaheadOf } from './battle-parser.js';
import type { RulesetRegistry } from '../core/ruleset.js';

/** The language's core services with the parsers given `built` as the build's record (undefined: none, every decision analysed). */
export function servicesWithLookahead(built: BuiltLookahead | undefined, given?: RulesetRegistry): BattleCoreServices {
    const rulesets = rulesetsOf({ ...EmptyFileSystem, rulesets: given });
    const shared = inject(createDefaultSharedCoreModule(EmptyFileSystem), BattleGeneratedSharedModule, battleSharedCoreModule(rulesets, true));
    return registerBattle(shared, inject(createDefaultCoreModule({ shared }), BattleGeneratedModule, battleCoreModule(true, rulesets), { parser: { BuiltLookahead: () => built } }));
}

/**
 * Every decision of the parser and of the completion parser, analysed, with the tokens they were made with. The
 * two parsers number their decisions alike (battle-parser-builder.ts): one record serves both, and a decision
 * they answer differently fails the build.
 */
export function recordLookahead(rulesets?: RulesetRegistry): BuiltLookahead {
    const services = servicesWithLookahead(undefined, rulesets);
    const parser = services.parser.LangiumParser;
    const completion = services.parser.CompletionParser;
    // The completion parser's rules, and their lookahead, are made at its first parse.
    completion.parse('');
    const decisions = lookaheadOf(parser).record();
    for (const [key, alts] of Object.entries(lookaheadOf(completion).record())) {
        if (key in decisions && JSON.stringify(decisions[key]) !== JSON.stringify(alts)) throw new Error(`the parsers decide ${key} differently`);
        decisions[key] ??= alts;
    }
    return { tokens: Object.keys(services.parser.Lexer.definition), decisions };
}
