/**
 * The extension's settings (`umpire.*` in package.json's `contributes.configuration`). Langium asks
 * the client for one section named after the language; the settings are named after the tool, so
 * the section is `umpire` (nothing in Langium itself reads a section).
 */
import { DefaultConfigurationProvider, type ConfigurationInitializedParams } from 'langium';
import type { LangiumSharedServices } from 'langium/lsp';
import type { InitializeParams } from 'vscode-languageserver';
import { limitsFromSettings } from '../../core/limits.js';
import type { BattleDocumentFactory } from '../battle-document-factory.js';

export class UmpireConfigurationProvider extends DefaultConfigurationProvider {
    constructor(private readonly shared: LangiumSharedServices) {
        super(shared);
    }

    /** Whether the client takes a registration for configuration changes (LSP: `didChangeConfiguration.dynamicRegistration`). */
    private registrationSupport = false;

    override initialize(params: InitializeParams): void {
        super.initialize(params);
        this.registrationSupport = params.capabilities.workspace?.didChangeConfiguration?.dynamicRegistration === true;
    }

    /**
     * Langium registers for configuration changes with every client that answers configuration
     * requests; a client that did not announce it takes such a registration (Emacs' Eglot) warns the
     * umpire of an unsupported one. Such a client pushes its settings unasked, read all the same.
     */
    override initialized(params: ConfigurationInitializedParams): Promise<void> {
        return super.initialized(this.registrationSupport ? params : { ...params, register: undefined });
    }

    protected override toSectionName(): string {
        return 'umpire';
    }

    /** `umpire.limits.*` (docs/limits.md) apply to every parse and check from the next change on. */
    protected override updateSectionConfiguration(section: string, configuration: unknown): void {
        super.updateSectionConfiguration(section, configuration);
        if (section !== 'umpire') return;
        const limits = limitsFromSettings((configuration as { limits?: unknown } | null | undefined)?.limits);
        (this.shared.workspace.LangiumDocumentFactory as BattleDocumentFactory).setLimits(limits);
    }
}

/**
 * One setting by its dotted name under `umpire.` (`inlayHints.enabled`), or `fallback` when the
 * client sent none (tests, clients without configuration support).
 */
export async function umpireSetting<T>(shared: LangiumSharedServices, key: string, fallback: T): Promise<T> {
    const [head, ...rest] = key.split('.');
    let value: unknown = await shared.workspace.ConfigurationProvider.getConfiguration('battle', head);
    for (const part of rest) {
        value = value && typeof value === 'object' ? (value as Record<string, unknown>)[part] : undefined;
    }
    // VS Code may also send the dotted key flat (`{ 'inlayHints.enabled': false }`).
    if (value === undefined && rest.length > 0) {
        const flat = await shared.workspace.ConfigurationProvider.getConfiguration('battle', key);
        if (flat !== undefined) value = flat;
    }
    return (value === undefined || value === null || typeof value !== typeof fallback) ? fallback : value as T;
}
