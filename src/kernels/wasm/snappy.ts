// WASM binding: Snappy compression. The page, the worst-case output and the hash table are laid
// out in the arena for one call, and the output is copied out once.
import { snappyBound } from '../js/snappy.js';
import { Status } from '../status.js';
import type { WasmRuntime } from './runtime.js';

/** Bytes of the hash table (assembly/snappy.ts: 2^14 slots of 4 bytes). */
const TABLE_BYTES = 4 << 14;

export function snappyCompress(rt: WasmRuntime, src: Uint8Array, dst: Uint8Array): number {
  const bound = snappyBound(src.length);
  if (src.length > 0xffffffff || dst.length < bound) return Status.OVERFLOW;
  const [ps, pd, pt] = rt.reserve(src.length, bound, TABLE_BYTES) as [number, number, number];
  rt.put(src, ps);
  const n = rt.exports.snappyCompress(ps, src.length, pd, pt) >>> 0;
  dst.set(rt.u8.subarray(pd, pd + n));
  return n;
}
