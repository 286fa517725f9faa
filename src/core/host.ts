// Facts about the host the same bundle runs on: byte order, and Node built-ins reached without a
// static import (process.getBuiltinModule, Node ≥ 20.16), so browser bundles never see `node:`.

export { LITTLE_ENDIAN_HOST } from '../kernels/host.js';

/** A Node built-in module (`node:zlib`, `node:crypto`), or null outside Node / before Node 20.16. */
export function nodeBuiltin<T>(id: string): T | null {
  const proc = (globalThis as { process?: { getBuiltinModule?: (id: string) => unknown } }).process;
  return (proc?.getBuiltinModule?.(id) as T | undefined) ?? null;
}

interface NodeBuffer {
  Buffer: { allocUnsafeSlow(size: number): Uint8Array };
}
let nodeBuffer: NodeBuffer | null | undefined;

/**
 * A fresh ArrayBuffer of `byteLength` bytes of its own, for an output the caller then writes in
 * full before anyone else sees it (a decode that fails drops it). Under Node its bytes are left
 * uninitialized (Buffer.allocUnsafeSlow: not pooled, so the buffer is this output's alone),
 * which saves zeroing memory about to be overwritten — tens of MB per WWD corpus pass; elsewhere
 * an ordinary (zeroed) ArrayBuffer.
 */
export function bufferToOverwrite(byteLength: number): ArrayBuffer {
  if (nodeBuffer === undefined) nodeBuffer = nodeBuiltin<NodeBuffer>('node:buffer');
  // Small sizes gain nothing, and zeroed memory is the safer default.
  if (nodeBuffer === null || byteLength < 4096) return new ArrayBuffer(byteLength);
  const b = nodeBuffer.Buffer.allocUnsafeSlow(byteLength);
  return b.byteOffset === 0 && b.buffer.byteLength === byteLength ? (b.buffer as ArrayBuffer) : new ArrayBuffer(byteLength);
}
