/**
 * A short fingerprint of what an outcome depends on, stored in the written outcome as `check "…"`.
 * Like cog's checksums: when the engagement, its units or its dice change afterwards, the stored
 * fingerprint no longer matches and the outcome is flagged as stale.
 */
export function fingerprint(value: unknown): string {
    const text = canonical(value);
    // FNV-1a, 32 bits: not for security, only to notice an edit; stable on every platform.
    let h = 0x811c9dc5;
    for (let i = 0; i < text.length; i++) {
        h ^= text.charCodeAt(i);
        h = Math.imul(h, 0x01000193) >>> 0;
    }
    return h.toString(16).padStart(8, '0');
}

/** JSON with object keys sorted, so that field order never changes a fingerprint. */
function canonical(value: unknown): string {
    if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
    if (value && typeof value === 'object') {
        const entries = Object.entries(value as Record<string, unknown>)
            .filter(([, v]) => v !== undefined)
            .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
        return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonical(v)}`).join(',')}}`;
    }
    return JSON.stringify(value) ?? 'null';
}
