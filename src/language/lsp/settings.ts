/**
 * The extension's settings (`umpire.*` in package.json's `contributes.configuration`). Langium asks
 * the client for one section named after the language; the settings are named after the tool, so
 * the section is `umpire` (nothing in Langium itself reads a section).
 */
import { DefaultConfigurationProvider } from 'langium';
import type { LangiumSharedServices } from 'langium/lsp';
import { limitsFromSettings } from '../../core/limits.js';
import type { BattleDocumentFactory } from '../battle-document-factory.js';

export class UmpireConfigurationProvider extends DefaultConfigurationProvider {
    constructor(private readonly shared: LangiumSharedServices) {
        super(shared);
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
