// Facts about the host the same bundle runs on: byte order, and Node built-ins reached without a
// static import (process.getBuiltinModule, Node ≥ 20.16), so browser bundles never see `node:`.

export { LITTLE_ENDIAN_HOST } from '../kernels/host.js';

/** A Node built-in module (`node:zlib`, `node:crypto`), or null outside Node / before Node 20.16. */
export function nodeBuiltin<T>(id: string): T | null {
  const proc = (globalThis as { process?: { getBuiltinModule?: (id: string) => unknown } }).process;
  return (proc?.getBuiltinModule?.(id) as T | undefined) ?? null;
}
