import { inject, type Module } from 'langium';
import {
    createDefaultModule, createDefaultSharedModule,
    type DefaultSharedModuleContext, type LangiumServices, type LangiumSharedServices, type PartialLangiumServices, type PartialLangiumSharedServices
} from 'langium/lsp';
import { BattleGeneratedModule, BattleGeneratedSharedModule, BattleLanguageMetaData } from './generated/module.js';
import { BattleScopeComputation, BattleScopeProvider } from './battle-scope.js';
import { BattleWorkspaceLock } from './battle-workspace-lock.js';
import { BattleValueConverter } from './battle-value-converter.js';
import { BattleTokenBuilder } from './battle-token-builder.js';
import { createBattleParser } from './battle-parser-builder.js';
import { createBattleCompletionParser } from './battle-parser.js';
import { BattleLexer } from './battle-lexer.js';
import { checkLangiumRelease } from './langium-version.js';
import { BattleFormatter } from './lsp/formatter.js';
import { BattleCompletionProvider } from './lsp/completion.js';
import { BattleCodeActionProvider } from './lsp/code-actions.js';
import { BattleDocumentSymbolProvider, BattleFoldingRangeProvider, BattleNodeKindProvider } from './lsp/symbols.js';
import { BattleSemanticTokenProvider } from './lsp/semantic-tokens.js';
import { BattleRenameProvider } from './lsp/rename.js';
import { BattleCodeLensProvider } from './lsp/code-lens.js';
import { BattleCommandHandler } from './lsp/command-handler.js';
import type { ScratchWriter } from './lsp/odds-text.js';
import { readClientSupport } from './lsp/client-support.js';
import { TextChecker } from './text-checker.js';
import { EmptyFileSystem } from 'langium';
import { BattleHoverProvider } from './lsp/hover.js';
import { BattleInlayHintProvider } from './lsp/inlay-hints.js';
import { UmpireConfigurationProvider } from './lsp/settings.js';
import { BattleDocumentFactory } from './battle-document-factory.js';
import { BattleDocumentBuilder } from './battle-imports.js';
import { BattleLinker, BattleNodeValidator, BattleReferenceDescriptionProvider, BattleValidationRegistry, LazyReferenceIndexManager } from './battle-build-steps.js';
import { BattleValidator, registerValidationChecks } from './validation/battle-validator.js';
import type { RulesetRegistry } from '../core/ruleset.js';
import { builtInRulesets } from '../rulesets/registry.js';

/** Services this language adds to Langium's. */
type BattleAddedServices = {
    validation: {
        BattleValidator: BattleValidator
    }
};

export type BattleServices = LangiumServices & BattleAddedServices;

/** Wires the language's own services into Langium's by dependency injection. */
const battleModule = (oneShot: boolean): Module<BattleServices, PartialLangiumServices & BattleAddedServices> => ({
    // Chevrotain's checks of the grammar (ambiguities, left recursion) are skipped when the lexer and
    // parser are made: they cost every process (the CLI, the server, resolve all's checker) 50–80 ms
    // and find nothing in a grammar that does not change at run time. test/language/parser-fixes.test.ts
    // makes the parser with them, so a grammar that fails them fails the tests.
    LanguageMetaData: () => ({ ...BattleLanguageMetaData, mode: 'production' }),
    references: {
        Linker: (services) => new BattleLinker(services, oneShot),
        ScopeProvider: (services) => new BattleScopeProvider(services),
        ScopeComputation: (services) => new BattleScopeComputation(services)
    },
    parser: {
        ValueConverter: () => new BattleValueConverter(),
        // Umpire's parser (battle-parser.ts), its rules built without objects made at each step of a parse (battle-parser-builder.ts).
        LangiumParser: services => createBattleParser(services),
        // The completion parser reads the text up to the cursor with the parser's error recovery (docs/performance.md, "Error files edited in pieces").
        CompletionParser: services => createBattleCompletionParser(services),
        // Its tokens are the parse tree's leaves (battle-lexer.ts).
        Lexer: services => new BattleLexer(services),
        TokenBuilder: () => new BattleTokenBuilder()
    },
    lsp: {
        Formatter: () => new BattleFormatter(),
        CompletionProvider: (services) => new BattleCompletionProvider(services),
        CodeActionProvider: (services) => new BattleCodeActionProvider(services.shared),
        DocumentSymbolProvider: (services) => new BattleDocumentSymbolProvider(services),
        FoldingRangeProvider: (services) => new BattleFoldingRangeProvider(services),
        SemanticTokenProvider: (services) => new BattleSemanticTokenProvider(services),
        RenameProvider: (services) => new BattleRenameProvider(services),
        CodeLensProvider: (services) => new BattleCodeLensProvider(services),
        HoverProvider: (services) => new BattleHoverProvider(services.shared),
        InlayHintProvider: (services) => new BattleInlayHintProvider(services.shared)
    },
    workspace: {
        ReferenceDescriptionProvider: (services) => new BattleReferenceDescriptionProvider(services)
    },
    validation: {
        BattleValidator: (services) => new BattleValidator(services.shared, oneShot),
        // Each check called straight, not in two async wrappers (battle-build-steps.ts).
        ValidationRegistry: (services) => new BattleValidationRegistry(services),
        // Langium's problems in umpire words (BattleDocumentValidator), the nodes walked without a wait at each.
        DocumentValidator: (services) => new BattleNodeValidator(services, oneShot)
    }
});

/**
 * Shared services: documents are parsed behind the size and nesting guards, each parse knowing the
 * rule sets a file may name.
 */
const battleSharedModule = (rulesets: RulesetRegistry, oneShot: boolean, scratch: ScratchWriter | undefined): Module<LangiumSharedServices, PartialLangiumSharedServices> => ({
    workspace: {
        LangiumDocumentFactory: (services) => new BattleDocumentFactory(services, rulesets, oneShot),
        // A new edit cancels the build in progress, unless the editor has waited too long for diagnostics.
        WorkspaceLock: () => new BattleWorkspaceLock(),
        // Imported files are loaded into the build that needs them, and their importers rebuilt when they change.
        DocumentBuilder: (services) => new BattleDocumentBuilder(services),
        // References are indexed when first asked for (find references, rename), not on every build.
        IndexManager: (services) => new LazyReferenceIndexManager(services),
        // Settings are `umpire.*` (package.json), not a section named after the language.
        ConfigurationProvider: (services) => new UmpireConfigurationProvider(services)
    },
    lsp: {
        // Resolve all checks each step's text in a workspace of its own, with the same rule sets.
        ExecuteCommandHandler: (services) => new BattleCommandHandler(services, new TextChecker(() => createBattleServices({ ...EmptyFileSystem, rulesets }).shared), scratch),
        NodeKindProvider: () => new BattleNodeKindProvider()
    }
});

export interface BattleModuleContext extends DefaultSharedModuleContext {
    /** The rule sets files may name: the built-in ones unless given (a test adds its own). */
    rulesets?: RulesetRegistry;
    /**
     * Each file is built once and never edited (`umpire check`): what is kept only for an editor's
     * next build (each action's problems, by the key of its inputs) is not made. Off unless given.
     */
    oneShot?: boolean;
    /** Where the server may write a generated file for the editor to show (the odds as Markdown); none in the web worker. */
    writeScratchFile?: ScratchWriter;
}

export function createBattleServices(context: BattleModuleContext): {
    shared: LangiumSharedServices,
    Battle: BattleServices
} {
    // The parser's classes subclass Langium's and read some of its private fields: only on the release they were written for.
    checkLangiumRelease();
    const shared = inject(createDefaultSharedModule(context), BattleGeneratedSharedModule, battleSharedModule(context.rulesets ?? builtInRulesets(), context.oneShot ?? false, context.writeScratchFile));
    const Battle = inject(createDefaultModule({ shared }), BattleGeneratedModule, battleModule(context.oneShot ?? false));
    shared.ServiceRegistry.register(Battle);
    registerValidationChecks(Battle.validation.ValidationRegistry, Battle.validation.BattleValidator);
    if (context.connection) readClientSupport(shared);
    else {
        // Without a language server, nothing else would build the configuration.
        shared.workspace.ConfigurationProvider.initialized({});
    }
    return { shared, Battle };
}
