/**
 * Vitest's global set-up: bundles the server and the CLI once, before any test file starts. Test files
 * that spawn them also ask for the bundle (ensureServerBundle), but with several workers two files could
 * rebuild it at once, one rewriting out/language/main.cjs while the other's server was loading it.
 */
import { ensureServerBundle } from './protocol/lsp-harness.js';

export default function setup(): void {
    ensureServerBundle();
}
