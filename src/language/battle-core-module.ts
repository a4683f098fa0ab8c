/**
 * The language's services without the editor's: parse, link and validate, as the command line and
 * resolve all's checker need them. battle-module.ts adds the editor's providers (completion, hover,
 * lenses, …) on top of these for the language server. The command line makes only these, so that a
 * check does not load Langium's LSP layer and Umpire's providers (about 100 ms of a small check).
 */
import { createDefaultCoreModule, createDefaultSharedCoreModule, inject, type DefaultSharedCoreModuleContext, type LangiumCoreServices, type LangiumSharedCoreServices, type Module, type PartialLangiumCoreServices, type PartialLangiumSharedCoreServices } from 'langium';
import { BattleGeneratedModule, BattleGeneratedSharedModule, BattleLanguageMetaData } from './generated/module.js';
import { BattleScopeComputation, BattleScopeProvider } from './battle-scope.js';
import { BattleWorkspaceLock } from './battle-workspace-lock.js';
import { BattleValueConverter } from './battle-value-converter.js';
import { BattleTokenBuilder } from './battle-token-builder.js';
import { createBattleParser } from './battle-parser-builder.js';
import { createBattleCompletionParser } from './battle-parser.js';
import { BattleLexer } from './battle-lexer.js';
import { BUILT_LOOKAHEAD, type BuiltLookaheadServices } from './known-lookahead.js';
import { checkLangiumRelease } from './langium-version.js';
import { BattleDocumentFactory } from './battle-document-factory.js';
import { BattleDocumentBuilder } from './battle-imports.js';
import { BattleLinker } from './battle-linker.js';
import { BattleNodeValidator } from './battle-node-validator.js';
import { BattleReferenceDescriptionProvider, LazyReferenceIndexManager } from './battle-reference-index.js';
import { BattleValidationRegistry } from './battle-validation-registry.js';
import { BattleValidator, registerValidationChecks } from './validation/battle-validator.js';
import { BattleCaches } from './battle-caches.js';
import type { RulesetRegistry } from '../core/ruleset.js';
import { builtInRulesets } from '../rulesets/registry.js';

/** Services this language adds to Langium's. */
export type BattleAddedServices = {
    /** The answers kept from one build of a document to the next, under one set of rules (battle-caches.ts). */
    caches: {
        Caches: BattleCaches
    },
    validation: {
        BattleValidator: BattleValidator
    }
} & BuiltLookaheadServices;

export type BattleCoreServices = LangiumCoreServices & BattleAddedServices;

/** Wires the language's own services into Langium's by dependency injection. */
export const battleCoreModule = (oneShot: boolean, rulesets: RulesetRegistry): Module<BattleCoreServices, PartialLangiumCoreServices & BattleAddedServices> => ({
    // Chevrotain's checks of the grammar (ambiguities, left recursion) are skipped when the lexer and
    // parser are made: they cost every process (the CLI, the server, resolve all's checker) 50–80 ms
    // and find nothing in a grammar that does not change at run time. test/language/parser-fixes.test.ts
    // makes the parser with them, so a grammar that fails them fails the tests.
    LanguageMetaData: () => ({ ...BattleLanguageMetaData, mode: 'production' }),
    caches: {
        Caches: () => new BattleCaches()
    },
    references: {
        Linker: (services) => new BattleLinker(services, services.caches.Caches, oneShot),
        ScopeProvider: (services) => new BattleScopeProvider(services, services.caches.Caches),
        ScopeComputation: (services) => new BattleScopeComputation(services, services.caches.Caches)
    },
    parser: {
        ValueConverter: () => new BattleValueConverter(),
        // Umpire's parser (battle-parser.ts), its rules built without objects made at each step of a parse (battle-parser-builder.ts).
        LangiumParser: services => createBattleParser(services),
        // The completion parser reads the text up to the cursor with the parser's error recovery (docs/performance.md, "Error files edited in pieces").
        CompletionParser: services => createBattleCompletionParser(services),
        // Its tokens are the parse tree's leaves (battle-lexer.ts).
        Lexer: services => new BattleLexer(services),
        // The rule sets' action kinds and verbs are lexed as such (KIND, VERB in battle.langium).
        TokenBuilder: () => new BattleTokenBuilder(rulesets),
        // The parsers' lookahead decisions as the build worked them out (known-lookahead.ts); none run from the sources.
        BuiltLookahead: () => BUILT_LOOKAHEAD
    },
    workspace: {
        ReferenceDescriptionProvider: (services) => new BattleReferenceDescriptionProvider(services)
    },
    validation: {
        BattleValidator: (services) => new BattleValidator(services.shared, oneShot, services.caches.Caches),
        // Each check called straight, not in two async wrappers (battle-validation-registry.ts).
        ValidationRegistry: (services) => new BattleValidationRegistry(services),
        // Langium's problems in umpire words (BattleDocumentValidator), the nodes walked without a wait at each.
        DocumentValidator: (services) => new BattleNodeValidator(services, services.caches.Caches, oneShot)
    }
});

/**
 * Shared services: documents are parsed behind the size and nesting guards, each parse knowing the
 * rule sets a file may name.
 */
export const battleSharedCoreModule = (rulesets: RulesetRegistry, oneShot: boolean): Module<LangiumSharedCoreServices, PartialLangiumSharedCoreServices> => ({
    workspace: {
        LangiumDocumentFactory: (services) => new BattleDocumentFactory(services, rulesets, oneShot),
        // A new edit cancels the build in progress, unless the editor has waited too long for diagnostics.
        WorkspaceLock: () => new BattleWorkspaceLock(),
        // Imported files are loaded into the build that needs them, and their importers rebuilt when they change.
        DocumentBuilder: (services) => new BattleDocumentBuilder(services),
        // References are indexed when first asked for (find references, rename), not on every build.
        IndexManager: (services) => new LazyReferenceIndexManager(services)
    }
});

export interface BattleCoreModuleContext extends DefaultSharedCoreModuleContext {
    /** The rule sets files may name: the built-in ones unless given (a test adds its own). */
    rulesets?: RulesetRegistry;
    /**
     * Each file is built once and never edited (`umpire check`): what is kept only for an editor's
     * next build (each action's problems, by the key of its inputs) is not made. Off unless given.
     */
    oneShot?: boolean;
}

/** The rule sets a context names, the built-in ones unless it names its own. */
export const rulesetsOf = (context: BattleCoreModuleContext): RulesetRegistry => context.rulesets ?? builtInRulesets();

/** The language's services registered and their checks wired, for any Langium module set (core only, or with the editor's). */
export function registerBattle<S extends BattleCoreServices>(shared: LangiumSharedCoreServices, Battle: S): S {
    shared.ServiceRegistry.register(Battle);
    registerValidationChecks(Battle.validation.ValidationRegistry, Battle.validation.BattleValidator);
    return Battle;
}

/** Parse, link and validate, without the editor's services (the command line). */
export function createBattleCoreServices(context: BattleCoreModuleContext): {
    shared: LangiumSharedCoreServices,
    Battle: BattleCoreServices
} {
    // The parser's classes subclass Langium's and read some of its private fields: only on the release they were written for.
    checkLangiumRelease();
    const oneShot = context.oneShot ?? false;
    const rulesets = rulesetsOf(context);
    const shared = inject(createDefaultSharedCoreModule(context), BattleGeneratedSharedModule, battleSharedCoreModule(rulesets, oneShot));
    const Battle = registerBattle(shared, inject(createDefaultCoreModule({ shared }), BattleGeneratedModule, battleCoreModule(oneShot, rulesets)));
    // Without a language server, nothing else would build the configuration.
    shared.workspace.ConfigurationProvider.initialized({});
    return { shared, Battle };
}
