/**
 * Exhaustive enumeration for the Ancients engine, independent of its odds: every complete sequence of
 * dice the resolver asks for, each with its chance (6^-length), found depth-first. Shared by the
 * brute-force tests of the engine, its house rules and its options.
 */
import { resolveAncients, type AncientsDiceSource, type AncientsInput } from '../../src/rulesets/ancients/engine/ancients-engine.js';
import type { AncientsTables } from '../../src/rulesets/ancients/engine/ancients-tables.js';

/** A source that answers from a fixed prefix and notes whether the engine wanted more. */
class PrefixDice implements AncientsDiceSource {
    used = 0;
    short = false;
    constructor(private readonly prefix: readonly number[]) {}
    roll(_k: string, _u: string, count: number): number[] {
        const out = this.prefix.slice(this.used, this.used + count);
        this.used += count;
        if (out.length < count) { this.short = true; while (out.length < count) out.push(1); }
        return out;
    }
}

/** Calls `visit` with each complete throw's outcome and chance; returns how many there were. */
export function everyThrow(input: AncientsInput, visit: (outcome: ReturnType<typeof resolveAncients>, p: number) => void, tables?: AncientsTables): number {
    let leaves = 0;
    const walk = (prefix: number[]) => {
        const src = new PrefixDice(prefix);
        const outcome = resolveAncients(input, src, tables);
        if (src.short) { for (let f = 1; f <= 6; f++) walk([...prefix, f]); return; }
        leaves++;
        visit(outcome, 6 ** -prefix.length);
    };
    walk([]);
    return leaves;
}
