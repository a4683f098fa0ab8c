/**
 * Sealed dice (docs/campaigns.md#sealed-dice): a record the players can verify.
 *
 * The umpire keeps a secret outside the file; the file carries only a commitment to it,
 * `seal "sha256:<hex>"`, the SHA-256 of the secret. Every seed drawn while the file is sealed is
 * HMAC-SHA-256(secret, the action's identity and re-roll count), its first four bytes read as an
 * unsigned 32-bit number, so the umpire cannot choose a seed, and a re-roll gives another seed only
 * by counting one more re-roll, which the outcome records. After the campaign the secret is published
 * (`reveal "…"`): anyone can check it against the commitment, recompute every seed and replay every
 * outcome.
 *
 * Pure over the model, through Web Crypto (`globalThis.crypto.subtle`, in Node 20 and in browsers),
 * so that the CLI, the language server and its browser worker all compute the same seeds.
 */
import type { ActionModel, ScenarioModel } from './scenario.js';
import { turnLabel, unquote } from './scenario.js';
import { outcomeBlock } from './outcome-block.js';
import { isResolvable, isUnresolvable, replayOutcome } from './resolve.js';

const COMMITMENT = /^sha256:[0-9a-f]{64}$/;

/** How far past its recorded count an outcome's seed is looked for, to name a re-roll that was not recorded. */
const UNRECORDED_REROLLS = 20;

/** The part of Web Crypto used here (the tool's TypeScript settings carry no DOM types). */
interface Subtle {
    digest(algorithm: 'SHA-256', data: Uint8Array): Promise<ArrayBuffer>;
    importKey(format: 'raw', key: Uint8Array, algorithm: { name: 'HMAC', hash: 'SHA-256' }, extractable: false, usages: ['sign']): Promise<HmacKey>;
    sign(algorithm: 'HMAC', key: HmacKey, data: Uint8Array): Promise<ArrayBuffer>;
}
type HmacKey = { readonly type: string };
interface WebCrypto {
    subtle?: Subtle;
    getRandomValues(bytes: Uint8Array): Uint8Array;
}

function webCrypto(): WebCrypto | undefined {
    return (globalThis as { crypto?: WebCrypto }).crypto;
}

function subtle(): Subtle {
    const crypto = webCrypto();
    if (!crypto?.subtle) throw new Error('Web Crypto (crypto.subtle) is not available here: sealed dice need it');
    return crypto.subtle;
}

function hex(bytes: ArrayBuffer): string {
    return [...new Uint8Array(bytes)].map(b => b.toString(16).padStart(2, '0')).join('');
}

/** The secret as the umpire keeps it: the text of the secret file, without the spaces and line breaks around it. */
export function secretText(raw: string): string {
    return raw.trim();
}

/** Whether a `seal "…"` string has the commitment's form: `sha256:` and 64 hexadecimal digits. */
export function isCommitment(seal: string): boolean {
    return COMMITMENT.test(seal);
}

/** `sha256:<hex>`: the commitment a file carries for `secret`. */
export async function commitmentOf(secret: string): Promise<string> {
    return `sha256:${hex(await subtle().digest('SHA-256', new TextEncoder().encode(secretText(secret))))}`;
}

/** The seal's commitment, as written in the file, or undefined when the file is not sealed. */
export function sealOf(model: ScenarioModel): string | undefined {
    return model.root.seal !== undefined ? unquote(model.root.seal) : undefined;
}

/** The secret the file publishes (`reveal "…"`), if it does. */
export function revealOf(model: ScenarioModel): string | undefined {
    return model.root.reveal !== undefined ? unquote(model.root.reveal) : undefined;
}

/** Why `secret` cannot be the sealed file's secret, or undefined when it matches its commitment. */
export async function secretProblem(model: ScenarioModel, secret: string): Promise<string | undefined> {
    const seal = sealOf(model);
    if (seal === undefined) return 'the file is not sealed (it has no seal "sha256:…" line)';
    if (!isCommitment(seal)) return `its seal "${seal}" is not a commitment: it must be sha256: and 64 hexadecimal digits`;
    if (secretText(secret) === '') return 'the secret is empty';
    const given = await commitmentOf(secret);
    return given === seal ? undefined : `the secret does not match the seal: its commitment is ${given}, the file's seal is ${seal}`;
}

/** What names an action for its seed: its turn, kind and name (so the same name in another turn gets other dice). */
function identity(action: ActionModel): string {
    return ['umpire seal 1', turnLabel(action.turn) ?? '', action.node.kind, action.node.name].join('\n');
}

async function hmacKey(secret: string): Promise<HmacKey> {
    return subtle().importKey('raw', new TextEncoder().encode(secretText(secret)), { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']);
}

async function seedWith(key: HmacKey, action: ActionModel, reroll: number): Promise<number> {
    const mac = await subtle().sign('HMAC', key, new TextEncoder().encode(`${identity(action)}\n${reroll}`));
    return new DataView(mac).getUint32(0, false);
}

/** The sealed seed of an action for its `reroll`-th re-roll (0: its first throw). */
export async function sealedSeed(secret: string, action: ActionModel, reroll: number): Promise<number> {
    return seedWith(await hmacKey(secret), action, reroll);
}

/**
 * The sealed seeds a resolve may draw, worked out beforehand (Web Crypto answers later, resolving
 * does not wait): each action's first throw, and the re-roll after the one its outcome records.
 * Returns the `newSeed` that resolving calls; it throws for a seed it was not given.
 */
export async function sealedSeedSource(secret: string, model: ScenarioModel): Promise<(action: ActionModel, reroll: number) => number> {
    const key = await hmacKey(secret);
    const seeds = new Map<string, number>();
    for (const action of model.actions) {
        const counts = new Set([0, action.node.outcome?.reroll ?? 0, (action.node.outcome?.reroll ?? 0) + 1]);
        for (const reroll of counts) seeds.set(`${identity(action)}\n${reroll}`, await seedWith(key, action, reroll));
    }
    return (action, reroll) => {
        const seed = seeds.get(`${identity(action)}\n${reroll}`);
        if (seed === undefined) throw new Error(`no sealed seed was worked out for '${action.node.name}' (re-roll ${reroll})`);
        return seed;
    };
}

type SealVerdict = 'verified' | 'altered' | 'not sealed';

export interface ActionVerdict {
    action: string;
    verdict: SealVerdict;
    /** Why, in the umpire's words (empty for a verified action). */
    detail: string;
}

function rerollWords(reroll: number): string {
    return reroll === 0 ? 'its first throw' : `re-roll ${reroll}`;
}

/** The block's lines without their indentation, as the tool writes it or as the file has it. */
function blockLines(text: string): string[] {
    return text.split(/\r\n|\r|\n/).map(l => l.trim()).filter(l => l !== '');
}

async function verdictOf(model: ScenarioModel, action: ActionModel, key: HmacKey): Promise<ActionVerdict> {
    const name = action.node.name;
    const outcome = action.node.outcome;
    if (!outcome) return { action: name, verdict: 'not sealed', detail: 'no outcome is written' };
    if (outcome.entered) return { action: name, verdict: 'not sealed', detail: 'its dice were entered at the table' };
    const reroll = outcome.reroll ?? 0;
    const expected = await seedWith(key, action, reroll);
    if (outcome.seed !== expected) {
        for (let r = 0; r <= reroll + UNRECORDED_REROLLS; r++) {
            if (r !== reroll && await seedWith(key, action, r) === outcome.seed) {
                return { action: name, verdict: 'altered', detail: `seed ${outcome.seed} is the seal's seed for ${rerollWords(r)}, but the outcome records ${rerollWords(reroll)}${r > reroll ? ': a re-roll that was not recorded' : ''}` };
            }
        }
        return { action: name, verdict: 'altered', detail: `seed ${outcome.seed} is not the seal's seed for ${rerollWords(reroll)} (the seal gives ${expected})` };
    }
    const replay = replayOutcome(model, action);
    if (!replay || isUnresolvable(replay)) return { action: name, verdict: 'altered', detail: `its outcome cannot be replayed${replay ? `: ${replay.problem}` : ''}` };
    const written = blockLines(outcome.$cstNode?.text ?? '');
    const again = blockLines(outcomeBlock(replay.resolution, replay.dice, ''));
    const at = again.findIndex((line, i) => written[i] !== line);
    if (at >= 0 || written.length !== again.length) {
        const i = at >= 0 ? at : again.length;
        return { action: name, verdict: 'altered', detail: `the outcome reads ${JSON.stringify(written[i] ?? '(nothing)')} where its dice give ${JSON.stringify(again[i] ?? '(nothing)')}` };
    }
    return { action: name, verdict: 'verified', detail: '' };
}

/**
 * Every action's verdict under the secret: `verified` (its seed is the seal's for its recorded
 * re-roll count, and replaying it gives the written outcome, line for line), `altered` (saying what
 * differs), or `not sealed` (dice entered at the table, or no outcome yet). A problem instead when the
 * secret does not open the seal.
 */
export async function verifySeal(model: ScenarioModel, secret: string): Promise<{ problem: string } | { verdicts: ActionVerdict[] }> {
    const problem = await secretProblem(model, secret);
    if (problem) return { problem };
    const key = await hmacKey(secret);
    const verdicts: ActionVerdict[] = [];
    for (const action of model.actions) {
        if (isResolvable(model, action)) verdicts.push(await verdictOf(model, action, key));
    }
    return { verdicts };
}

/** A new secret: 32 random bytes as hexadecimal. */
export function newSecret(): string {
    const bytes = new Uint8Array(32);
    const crypto = webCrypto();
    if (!crypto) throw new Error('Web Crypto is not available here: no secret can be made');
    crypto.getRandomValues(bytes);
    return [...bytes].map(b => b.toString(16).padStart(2, '0')).join('');
}
