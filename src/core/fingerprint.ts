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
 * Written with loops into one string, not entry arrays mapped and joined: a check of a campaign works
 * out the fingerprint of every settled engagement, and those arrays were most of its cost.
 */
function canonical(value: unknown, aliases?: ReadonlyMap<string, string>): string {
    if (Array.isArray(value)) return canonicalArray(value, aliases);
    if (value && typeof value === 'object') return canonicalObject(value as Record<string, unknown>, aliases);
    if (typeof value === 'string') return JSON.stringify(aliases?.get(value) ?? value);
    return JSON.stringify(value) ?? 'null';
}

function canonicalArray(value: readonly unknown[], aliases?: ReadonlyMap<string, string>): string {
    let text = '[';
    for (let i = 0; i < value.length; i++) {
        if (i > 0) text += ',';
        // A hole is written as nothing, as `join` writes it.
        if (i in value) text += canonical(value[i], aliases);
    }
    return text + ']';
}

function canonicalObject(value: Record<string, unknown>, aliases?: ReadonlyMap<string, string>): string {
    const entries: Array<{ name: string, value: unknown }> = [];
    for (const key of Object.keys(value)) {
        const v = value[key];
        if (v !== undefined) entries.push({ name: aliases?.get(key) ?? key, value: v });
    }
    if (entries.length > 1) entries.sort(byName);
    let text = '{';
    for (let i = 0; i < entries.length; i++) {
        if (i > 0) text += ',';
        text += `${JSON.stringify(entries[i].name)}:${canonical(entries[i].value, aliases)}`;
    }
    return text + '}';
}

function byName(a: { name: string }, b: { name: string }): number {
    return a.name < b.name ? -1 : a.name > b.name ? 1 : 0;
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
