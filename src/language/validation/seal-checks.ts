/**
 * The check of a sealed file's header (docs/campaigns.md#sealed-dice): the seal is a commitment,
 * `sha256:` and 64 hexadecimal digits, as `umpire seal` prints it. Whether the secret opens it is
 * for `umpire verify`, which has the secret.
 */
import type { ValidationAcceptor } from 'langium';
import type { Scenario } from '../generated/ast.js';
import { Codes } from '../../core/codes.js';
import { isCommitment } from '../../core/seal.js';
import { unquote } from '../../core/scenario.js';

export function checkSeal(scenario: Scenario, accept: ValidationAcceptor): void {
    if (scenario.seal === undefined || isCommitment(unquote(scenario.seal))) return;
    accept('error', `The seal must be a commitment: "sha256:" and 64 hexadecimal digits, as 'umpire seal --secret-file FILE' prints it. Without one, no seed of this file can be verified.`,
        { node: scenario, property: 'seal', code: Codes.sealMalformed });
}
