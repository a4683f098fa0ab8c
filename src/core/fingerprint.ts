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
 * Sets `json.check`, already written in its place (JSON and spreads read it there), to a getter of the
 * value's fingerprint, worked out at the first read and kept. Settling an unwritten engagement carries its
 * result through the campaign at every check, and most are never written, so most are never worked out.
 * The getter is made here, holding only the plain value and the aliases (let go of once worked out): a
 * getter written in a resolver would share its scope with the resolver's other closures and keep their
 * variables (the action's node, and with it the tree), and a resolution is kept across edits.
 */
export function withLazyFingerprint<T extends { check: string }>(json: T, value: unknown, aliases?: ReadonlyMap<string, string>): T {
    let check: string | undefined;
    let held: { value: unknown, aliases?: ReadonlyMap<string, string> } | undefined = { value, aliases };
    const get = (): string => {
        if (check === undefined) {
            check = fingerprint(held!.value, held!.aliases);
            held = undefined;
        }
        return check;
    };
    Object.defineProperty(json, 'check', { get, enumerable: true, configurable: true });
    return json;
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

type ForceList = ReadonlyArray<readonly [string, object]>;

/**
 * The forces a map was made from, held weakly: a force model holds its node, and through it the tree of the
 * parse it was last part of, which the list must not keep once no model reads that force.
 */
type HeldForces = ReadonlyArray<readonly [string, WeakRef<object>]>;

const sharedAliases = coreKept.table<object, { forces: HeldForces, aliases: Map<string, string> }>({
    name: 'shared unit aliases', keeps: 'the aliases last made from a list of forces, with that list',
    keyedBy: 'the list\'s first force model (force models are kept by their nodes across edits)',
    againWhen: 'a model\'s forces are other force models, or under other names or in another order'
});

/**
 * Positional aliases for the names of a scenario: force i is `@i`, its j-th unit instance `@i.j`,
 * however they are called. Outcome fingerprints use them, so a rename is not an edit of the fight.
 * Models with the same forces (the same force models, names and order: an edit outside the forces) share
 * one map: a fingerprint not yet worked out holds its map (`withLazyFingerprint`), and results are kept across
 * edits, so a map per model would be one more map of every unit's names kept at every edit.
 */
export function nameAliases(model: NamedForces): ReadonlyMap<string, string> {
    let aliases = aliasCache.get(model);
    if (aliases) return aliases;
    const forces: ForceList = [...model.forces];
    const first = forces.length > 0 ? forces[0][1] : undefined;
    const shared = first ? sharedAliases.get(first) : undefined;
    if (shared && sameForces(shared.forces, forces)) aliases = shared.aliases;
    else {
        aliases = aliasesOf(model);
        if (first) sharedAliases.set(first, { forces: forces.map(([name, force]) => [name, new WeakRef(force)] as const), aliases });
    }
    aliasCache.set(model, aliases);
    return aliases;
}

function sameForces(held: HeldForces, forces: ForceList): boolean {
    if (held.length !== forces.length) return false;
    for (let i = 0; i < held.length; i++) if (held[i][0] !== forces[i][0] || held[i][1].deref() !== forces[i][1]) return false;
    return true;
}

function aliasesOf(model: NamedForces): Map<string, string> {
    const aliases = new Map<string, string>();
    let i = 0;
    for (const [forceName, force] of model.forces) {
        aliases.set(forceName, `@${i}`);
        force.units.forEach((u, j) => {
            aliases.set(u.id, `@${i}.${j}`);
            const local = `${u.name}${u.index !== undefined ? `#${u.index}` : ''}`;
            if (!aliases.has(local)) aliases.set(local, `@${i}.${j}`);
            if (!aliases.has(u.name)) aliases.set(u.name, `@${i}.${j}`);
        });
        i++;
    }
    return aliases;
}
