// Lazy fields of a decoded value (`layers: 'lazy'`, issue 19 §4): an enumerable accessor that
// computes its value on first read and then becomes a plain data property holding it. Being an
// own enumerable property, it is read like any other by JSON.stringify, structuredClone, spread,
// deep-equality helpers and encoders, so a lazy value behaves as the eager one once read.

/** The loaders of the fields still pending, per object (weak: they go with the object). */
const pending = new WeakMap<object, Map<PropertyKey, () => unknown>>();

/**
 * Makes `obj[key]` lazy: `load()` runs on the first read (an error it throws propagates and the
 * field stays lazy, so the next read throws again), then the field holds the value. Assigning
 * the field first replaces the loader. `load` must be repeatable: readUncached may call it again.
 */
export function defineLazy<T extends object, K extends keyof T>(obj: T, key: K, load: () => T[K]): void {
  const loaders = pending.get(obj) ?? new Map<PropertyKey, () => unknown>();
  pending.set(obj, loaders);
  loaders.set(key, load);
  Object.defineProperty(obj, key, {
    enumerable: true,
    configurable: true,
    get() {
      const value = load();
      settle(obj, key, value);
      return value;
    },
    set(value: T[K]) {
      settle(obj, key, value);
    },
  });
}

/** Turns the accessor into a plain writable property holding `value` (left as is on a frozen object: the value is then computed on each read). */
function settle<T extends object, K extends keyof T>(obj: T, key: K, value: T[K]): void {
  if (!Object.getOwnPropertyDescriptor(obj, key)?.configurable) return;
  pending.get(obj)?.delete(key);
  Object.defineProperty(obj, key, { value, writable: true, enumerable: true, configurable: true });
}

/** True while `obj[key]` is a lazy field not yet read. */
export function isPending(obj: object, key: PropertyKey): boolean {
  return pending.get(obj)?.has(key) ?? false;
}

/**
 * `obj[key]` without keeping it: a pending field is computed and handed back but stays lazy (the
 * object goes on holding only what it held before), so a caller that reads many large fields one
 * after another (a preview drawing every layer) holds one at a time. A field already read, or not
 * lazy, is returned as it is.
 */
export function readUncached<T extends object, K extends keyof T>(obj: T, key: K): T[K] {
  const load = pending.get(obj)?.get(key);
  return load ? (load() as T[K]) : obj[key];
}

/** True while `obj` has any lazy field not yet read (one lookup, for code that reads many fields). */
export function hasPending(obj: object): boolean {
  return (pending.get(obj)?.size ?? 0) > 0;
}
