// Typed construction of records from key tables (WWD's header, plane, object and tile-property
// layouts are tables of names). TypeScript cannot follow a loop filling a mapped type key by key,
// so recordOf is the one place that asserts the result is complete; every caller gets a precise
// type instead of casting a Record<string, …> itself.

/**
 * `{ [keys[i]]: value(keys[i], i) }` for every key, in key order. One object, no per-key
 * allocation beyond what `value` makes (hot paths call it once per row).
 */
export function recordOf<const K extends string, V>(keys: readonly K[], value: (key: K, index: number) => V): Record<K, V> {
  const out: Partial<Record<K, V>> = {};
  for (let i = 0; i < keys.length; i++) {
    const key = keys[i]!;
    out[key] = value(key, i);
  }
  // Complete: the loop above set every key of `keys`.
  return out as Record<K, V>;
}

/** A plain property bag (any non-null object); lets code read fields by a computed name. */
export function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null;
}

/**
 * An empty object with no prototype, for counts or values keyed by text that came from a file
 * (format names, warning codes, member names, extensions). On a plain `{}` such a key can be
 * `__proto__` (assigning to it replaces the object's prototype, or pollutes Object.prototype
 * through a nested write) or `constructor`/`toString` (reading it finds a function, so a count
 * starts from a function instead of 0). With no prototype every key is an ordinary own property.
 */
export function dictionary<V>(): Record<string, V> {
  return Object.create(null) as Record<string, V>;
}

/** Adds one to `counts[key]` (a dictionary(): see there why not a plain object). */
export function countKey(counts: Record<string, number>, key: string): void {
  counts[key] = (counts[key] ?? 0) + 1;
}
