// Walks a decoded value for its typed arrays (what a result holds in memory).

/** Every typed array reachable from `v`, each once. */
export function typedArrays(v: unknown, out: ArrayBufferView[] = [], seen = new Set<unknown>()): ArrayBufferView[] {
  if (v === null || typeof v !== 'object' || seen.has(v)) return out;
  seen.add(v);
  if (ArrayBuffer.isView(v)) out.push(v);
  else for (const x of Object.values(v)) typedArrays(x, out, seen);
  return out;
}
