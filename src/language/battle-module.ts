import { EmptyFileSystem, inject, type Module } from 'langium';
import {
    createDefaultModule, createDefaultSharedModule,
    type DefaultSharedModuleContext, type LangiumServices, type LangiumSharedServices, type PartialLangiumServices, type PartialLangiumSharedServices
} from 'langium/lsp';
import { BattleGeneratedModule, BattleGeneratedSharedModule } from './generated/module.js';
import { battleCoreModule, battleSharedCoreModule, registerBattle, rulesetsOf, type BattleAddedServices, type BattleCoreModuleContext } from './battle-core-module.js';
import { checkLangiumRelease } from './langium-version.js';
import { BattleFormatter } from './lsp/formatter.js';
import { BattleCompletionProvider } from './lsp/completion.js';
import { BattleCodeActionProvider } from './lsp/code-actions.js';
import { BattleDocumentSymbolProvider, BattleFoldingRangeProvider, BattleNodeKindProvider } from './lsp/symbols.js';
import { BattleSemanticTokenProvider } from './lsp/semantic-tokens.js';
import { BattleRenameProvider } from './lsp/rename.js';
import { BattleCodeLensProvider } from './lsp/code-lens.js';
import { BattleCommandHandler } from './lsp/command-handler.js';
import type { ScratchWriter } from './lsp/odds-text-request.js';
import { readClientSupport } from './lsp/client-support.js';
import { TextChecker } from './text-checker.js';
import { BattleHoverProvider } from './lsp/hover.js';
import { BattleInlayHintProvider } from './lsp/inlay-hints.js';
import { UmpireConfigurationProvider } from './lsp/settings.js';
import { BattleTextDocuments } from './lsp/text-documents.js';
import type { RulesetRegistry } from '../core/ruleset.js';

/**
 * The language server's services: the language's own (battle-core-module.ts, all the command line
 * makes) and the editor's providers on top.
 */
export type BattleServices = LangiumServices & BattleAddedServices;

/** The editor's providers, wired into Langium's by dependency injection. */
const battleLspModule: Module<BattleServices, PartialLangiumServices> = {
    lsp: {
        Formatter: () => new BattleFormatter(),
        CompletionProvider: (services) => new BattleCompletionProvider(services),
        CodeActionProvider: (services) => new BattleCodeActionProvider(services.shared),
        DocumentSymbolProvider: (services) => new BattleDocumentSymbolProvider(services.caches.Caches),
        FoldingRangeProvider: (services) => new BattleFoldingRangeProvider(services, services.caches.Caches),
        SemanticTokenProvider: (services) => new BattleSemanticTokenProvider(services, services.caches.Caches),
        RenameProvider: (services) => new BattleRenameProvider(services),
        CodeLensProvider: (services) => new BattleCodeLensProvider(services, services.caches.Caches),
        HoverProvider: (services) => new BattleHoverProvider(services.shared),
        InlayHintProvider: (services) => new BattleInlayHintProvider(services.shared)
    }
};

/** The shared services the editor adds: its settings, its commands, the kinds of its symbols. */
const battleSharedLspModule = (rulesets: RulesetRegistry, scratch: ScratchWriter | undefined): Module<LangiumSharedServices, PartialLangiumSharedServices> => ({
    workspace: {
        // Settings are `umpire.*` (package.json), not a section named after the language.
        ConfigurationProvider: (services) => new UmpireConfigurationProvider(services),
        // The open documents, with a record of the span each edit the editor sent replaced.
        TextDocuments: () => new BattleTextDocuments()
    },
    lsp: {
        // Resolve all checks each step's text in a workspace of its own, with the same rule sets.
        ExecuteCommandHandler: (services) => new BattleCommandHandler(services, new TextChecker(() => createBattleServices({ ...EmptyFileSystem, rulesets }).shared), scratch),
        NodeKindProvider: () => new BattleNodeKindProvider()
    }
});

export interface BattleModuleContext extends DefaultSharedModuleContext, BattleCoreModuleContext {
    /** Where the server may write a generated file for the editor to show (the odds as Markdown); none in the web worker. */
    writeScratchFile?: ScratchWriter;
}

export function createBattleServices(context: BattleModuleContext): {
    shared: LangiumSharedServices,
    Battle: BattleServices
} {
    // The parser's classes subclass Langium's and read some of its private fields: only on the release they were written for.
    checkLangiumRelease();
    const rulesets = rulesetsOf(context);
    const oneShot = context.oneShot ?? false;
    const shared = inject(createDefaultSharedModule(context), BattleGeneratedSharedModule, battleSharedCoreModule(rulesets, oneShot), battleSharedLspModule(rulesets, context.writeScratchFile));
    const Battle = registerBattle(shared, inject(createDefaultModule({ shared }), BattleGeneratedModule, battleCoreModule(oneShot, rulesets), battleLspModule));
    if (context.connection) readClientSupport(shared);
    else {
        // Without a language server, nothing else would build the configuration.
        shared.workspace.ConfigurationProvider.initialized({});
    }
    return { shared, Battle };
}
