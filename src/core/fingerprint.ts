/**
 * A short fingerprint of what an outcome depends on, stored in the written outcome as `check "…"`.
 * Like cog's checksums: when the engagement, its units or its dice change afterwards, the stored
 * fingerprint no longer matches and the outcome is flagged as stale.
 */
import { coreKept } from './kept.js';
export function fingerprint(value: unknown, aliases?: ReadonlyMap<string, string>): string {
    const text = canonical(value, aliases);
    // FNV-1a, 32 bits: not for security, only to notice an edit; stable on every platform.
    let h = 0x811c9dc5;
    for (let i = 0; i < text.length; i++) {
        h ^= text.charCodeAt(i);
        h = Math.imul(h, 0x01000193) >>> 0;
    }
    return h.toString(16).padStart(8, '0');
}

/**
 * JSON with object keys sorted, so that field order never changes a fingerprint; names found in
 * `aliases` are replaced by their alias, so that renaming a force or unit leaves outcomes current.
 */
function canonical(value: unknown, aliases?: ReadonlyMap<string, string>): string {
    const name = (text: string) => aliases?.get(text) ?? text;
    if (Array.isArray(value)) return `[${value.map(v => canonical(v, aliases)).join(',')}]`;
    if (value && typeof value === 'object') {
        const entries = Object.entries(value as Record<string, unknown>)
            .filter(([, v]) => v !== undefined)
            .map(([k, v]) => [name(k), v] as const)
            .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
        return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonical(v, aliases)}`).join(',')}}`;
    }
    if (typeof value === 'string') return JSON.stringify(name(value));
    return JSON.stringify(value) ?? 'null';
}

/** Something with forces of units, as the scenario model has (kept structural: this file stays pure). */
interface NamedForces {
    readonly forces: ReadonlyMap<string, { readonly units: ReadonlyArray<{ readonly id: string, readonly name: string, readonly index: number | undefined }> }>;
}

const aliasCache = coreKept.table<NamedForces, Map<string, string>>({
    name: 'unit aliases', keeps: 'the short names a model\'s units are written with in fingerprints',
    keyedBy: 'a model (its forces)',
    againWhen: 'the model is new'
});

/**
 * Positional aliases for the names of a scenario: force i is `@i`, its j-th unit instance `@i.j`,
 * however they are called. Outcome fingerprints use them, so a rename is not an edit of the fight.
 */
export function nameAliases(model: NamedForces): ReadonlyMap<string, string> {
    let aliases = aliasCache.get(model);
    if (aliases) return aliases;
    aliases = new Map<string, string>();
    let i = 0;
    for (const [forceName, force] of model.forces) {
        aliases.set(forceName, `@${i}`);
        force.units.forEach((u, j) => {
            aliases!.set(u.id, `@${i}.${j}`);
            const local = `${u.name}${u.index !== undefined ? `#${u.index}` : ''}`;
            if (!aliases!.has(local)) aliases!.set(local, `@${i}.${j}`);
            if (!aliases!.has(u.name)) aliases!.set(u.name, `@${i}.${j}`);
        });
        i++;
    }
    aliasCache.set(model, aliases);
    return aliases;
}
