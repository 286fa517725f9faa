// Facts about the host the same bundle runs on: byte order, and Node built-ins reached without a
// static import (process.getBuiltinModule, Node ≥ 20.16), so browser bundles never see `node:`.

/** True on little-endian hosts (all current ones): typed-array views then match the files' byte order. */
export const LITTLE_ENDIAN_HOST = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;

/** A Node built-in module (`node:zlib`, `node:crypto`), or null outside Node / before Node 20.16. */
export function nodeBuiltin<T>(id: string): T | null {
  const proc = (globalThis as { process?: { getBuiltinModule?: (id: string) => unknown } }).process;
  return (proc?.getBuiltinModule?.(id) as T | undefined) ?? null;
}
