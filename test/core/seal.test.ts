/**
 * The seal's arithmetic, against Node's own crypto (an independent implementation of the same
 * HMAC-SHA-256 and SHA-256): the commitment, each action's seed for each re-roll, and a re-roll that
 * gives another seed.
 */
import * as crypto from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { commitmentOf, isCommitment, newSecret, sealedSeed, sealedSeedSource } from '../../src/core/seal.js';
import { modelOf } from '../../src/core/model-cache.js';
import { parse, validate } from '../support/services.js';

const SECRET = 'marshal-ney-wears-blue-socks-7c41';

function nodeSeed(secret: string, turn: string, kind: string, name: string, reroll: number): number {
    return crypto.createHmac('sha256', secret).update(`umpire seal 1\n${turn}\n${kind}\n${name}\n${reroll}`).digest().readUInt32BE(0);
}

const TEXT = `rules scrud
seal "sha256:${crypto.createHash('sha256').update(SECRET).digest('hex')}"
force A { unit Foot foot }
force B { unit Foot foot }
engagement Outside { A.Foot attacks B.Foot }
turn 1 { engagement Ford { A.Foot attacks B.Foot } }
turn 2 "Mill" { engagement Ford { A.Foot attacks B.Foot } }
`;

describe('sealed dice', () => {
    it('commits to the secret with its SHA-256, spaces and line breaks around it ignored', async () => {
        const expected = `sha256:${crypto.createHash('sha256').update(SECRET).digest('hex')}`;
        expect(await commitmentOf(SECRET)).toBe(expected);
        expect(await commitmentOf(`  ${SECRET}\n`)).toBe(expected);
        expect(isCommitment(expected)).toBe(true);
        for (const bad of ['sha256:', expected.toUpperCase(), expected.slice(0, -1), `md5:${expected.slice(7)}`]) expect(isCommitment(bad), bad).toBe(false);
    });

    it('derives each seed from the action\'s turn, kind, name and re-roll count, as HMAC-SHA-256 does', async () => {
        const model = modelOf((await parse(TEXT)).parseResult.value);
        const source = await sealedSeedSource(SECRET, model);
        const seen = new Set<number>();
        for (const action of model.actions) {
            const turn = action.turn ? String(action.turn.name ?? action.turn.number) : '';
            for (const reroll of [0, 1]) {
                const seed = nodeSeed(SECRET, turn, 'engagement', action.node.name, reroll);
                expect(source(action, reroll)).toBe(seed);
                expect(await sealedSeed(SECRET, action, reroll)).toBe(seed);
                seen.add(seed);
            }
            // Only the counts a resolve may ask for are worked out beforehand.
            expect(() => source(action, 5)).toThrow(/no sealed seed/);
        }
        // Two actions of one name in two turns, and each re-roll, get seeds of their own.
        expect(seen.size).toBe(6);
    });

    it('a new secret is 32 random bytes in hexadecimal', () => {
        const a = newSecret();
        expect(a).toMatch(/^[0-9a-f]{64}$/);
        expect(newSecret()).not.toBe(a);
    });
});

describe('the seal line', () => {
    it('is an error (seal-malformed) when it is not a commitment, on the seal itself; a commitment does not get it', async () => {
        const bad = await validate(TEXT.replace(/seal "sha256:[0-9a-f]+"/, 'seal "my secret"'));
        const malformed = bad.diagnostics.filter(d => d.code === 'seal-malformed');
        expect(malformed).toHaveLength(1);
        expect(malformed[0].range.start).toEqual({ line: 1, character: 5 });
        expect(malformed[0].message).toMatch(/"sha256:" and 64 hexadecimal digits/);
        expect((await validate(TEXT)).diagnostics.filter(d => d.code === 'seal-malformed')).toEqual([]);
    });
});
