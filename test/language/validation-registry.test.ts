/**
 * The checks are called straight, not inside Langium's two async wrappers (BattleValidationRegistry,
 * src/language/battle-validation-registry.ts): a check that throws, or whose promise fails, is still reported on
 * its node as Langium reports it, and the other checks still run, in the editor's services and in
 * `umpire check`'s one-shot services alike.
 */
import { EmptyFileSystem, type AstNode, type ValidationAcceptor } from 'langium';
import { parseHelper } from 'langium/test';
import { describe, expect, it, vi } from 'vitest';
import { createBattleServices } from '../../src/language/battle-module.js';
import type { Force, Scenario } from '../../src/language/generated/ast.js';

const FILE = `scenario "Registry"
rules scrud

grade Linie 0

force Boom {
  unit A foot Linie
}

force Later {
  unit B foot Linie
}

force Sour {
  unit C foot Linie
}

engagement E {
  Boom attacks Later
  seed 1
}
`;

describe('checks called straight', () => {
    for (const oneShot of [false, true]) {
        it(`reports a check that throws and one whose promise fails, and runs the others (${oneShot ? 'one-shot' : 'editor'} services)`, async () => {
            const services = createBattleServices({ ...EmptyFileSystem, oneShot }).Battle;
            const seen: string[] = [];
            services.validation.ValidationRegistry.register({
                Force: [
                    (force: Force, accept: ValidationAcceptor) => {
                        seen.push(force.name);
                        if (force.name === 'Boom') throw new Error('boom');
                        accept('warning', `looked at ${force.name}`, { node: force as AstNode });
                    },
                    async (force: Force) => {
                        if (force.name === 'Sour') throw new Error('sour');
                    }
                ]
            });
            const quiet = vi.spyOn(console, 'error').mockImplementation(() => undefined);
            try {
                const document = await parseHelper<Scenario>(services)(FILE, { validation: true });
                const found = (document.diagnostics ?? []).filter(d => /looked at|error occurred/.test(d.message as string)).map(d => `${d.range.start.line}:${d.severity} ${d.message}`);
                expect(found).toEqual([
                    '5:1 An error occurred during validation: boom',
                    '9:2 looked at Later',
                    '13:2 looked at Sour',
                    '13:1 An error occurred during validation: sour'
                ]);
                expect(seen).toEqual(['Boom', 'Later', 'Sour']);
                expect(quiet).toHaveBeenCalled();
            } finally {
                quiet.mockRestore();
            }
        });
    }
});
