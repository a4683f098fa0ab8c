/**
 * One set of language services for the tests of a worker (vitest runs each file in its own process),
 * created once, and the Langium test helpers bound to it: `parse` and `validate` as in Langium's own
 * examples (langium/test), so that test files do not each build and wire their own.
 */
import { EmptyFileSystem, TextDocument, URI, type LangiumDocument } from 'langium';
import { parseHelper, validationHelper } from 'langium/test';
import { createBattleServices } from '../../src/language/battle-module.js';
import { TextChecker } from '../../src/language/text-checker.js';
import type { Scenario } from '../../src/language/generated/ast.js';

export const services = createBattleServices(EmptyFileSystem);

/** The language's own services (`services.Battle`). */
export const battle = services.Battle;

/** Parses (and links) a text into a document of the shared workspace. */
export const parse = parseHelper<Scenario>(services.Battle);

/** Parses and validates a text: the document and its diagnostics (Langium's `validationHelper`). */
export const validate = validationHelper<Scenario>(services.Battle);

/** A TextChecker over a private workspace with the built-in rule sets, as the server wires it. */
export function scratchChecker(): TextChecker {
    return new TextChecker(() => createBattleServices(EmptyFileSystem).shared);
}

/** Opens (or replaces) a document at `version` in the shared workspace and builds it with validation, as the server does. */
export async function openDocument(uri: string, text: string, version = 1): Promise<LangiumDocument> {
    const documents = services.shared.workspace.LangiumDocuments;
    const parsed = URI.parse(uri);
    if (documents.hasDocument(parsed)) documents.deleteDocument(parsed);
    const doc = services.shared.workspace.LangiumDocumentFactory.fromTextDocument(TextDocument.create(uri, 'battle', version, text));
    documents.addDocument(doc);
    await services.shared.workspace.DocumentBuilder.build([doc], { validation: true });
    return doc;
}
